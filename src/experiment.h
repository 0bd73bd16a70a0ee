/* An experiment: the host side of a family of kernels that compute the same thing. */
#ifndef CUDATUTOR_EXPERIMENT_H
#define CUDATUTOR_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "roofs.h"
#include "util.h"

struct kernel_def;

/* What one step runs at: the problem size in elements, and the block size. */
struct step_params {
	unsigned long long size;
	unsigned int block;
	/*
	 * 0: the experiment's own inputs, the same for every step of a lesson.
	 * Else inputs drawn from this seed (an exercise's check draws them
	 * afresh each time, and prints the seed so that a failure can be
	 * repeated); see experiment_seed().
	 */
	unsigned long long seed;
};

/*
 * Where run number run of a check changes its input (an element in
 * [0, size)): with a seed (an exercise's check), each run's input differs
 * from the one before it in one element, placed where no kernel can guess,
 * so that a kernel that keeps its last answer (a __device__ cache of the
 * total, or of the whole output) answers the last timed run wrongly.
 */
static inline unsigned long long experiment_changed_element(const struct step_params *p, unsigned long long run)
{
	unsigned long long z = p->seed * 0x9e3779b97f4a7c15ULL + (run + 1) * 0xbf58476d1ce4e5b9ULL;

	z = (z ^ (z >> 31)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 29)) % (p->size ? p->size : 1);
}

/* The seed an experiment draws its inputs from: its own (own), or one p names mixed with it. */
static inline unsigned long long experiment_seed(const struct step_params *p, unsigned long long own)
{
	return p->seed != 0 ? own ^ (p->seed * 0x9e3779b97f4a7c15ULL) : own;
}

/* The outcome of comparing a kernel's output with the CPU reference. */
struct check_result {
	bool correct;
	char detail[256];	/* "sum 2138879081 = CPU 2138879081", "12 of 1024 differ, first at 7" */
};

/*
 * What the rate of a step counts: bytes to and from device memory (shown
 * with the percentage of the copy bandwidth), floating-point operations
 * (shown with the percentage of the lesson's library step), or bytes read
 * from shared memory (compared with neither: it never leaves the chip).
 */
enum experiment_unit { UNIT_GBPS, UNIT_GFLOPS, UNIT_SHARED_GBPS };

/*
 * Every experiment's state starts with this, so the measuring module can
 * report how the kernel was launched.
 */
struct experiment_run {
	unsigned int grid;		/* 0 for a library call */
	void *kernel;			/* NULL for a library call */
	size_t shared_bytes;		/* dynamic shared memory per block */
	unsigned int block;		/* threads per block, where the experiment sets it (0: the step's) */
};

/*
 * The contract, in the order the measuring module calls it:
 *   setup    allocate on the GPU, fill the inputs, compute the CPU reference;
 *            the state it returns starts with a struct experiment_run,
 *            filled in (grid, kernel handle, dynamic shared memory);
 *   prepare  before every run, untimed: restore inputs a kernel overwrites,
 *            poison the outputs so an unwritten element cannot pass;
 *   launch   the timed part: one run of the kernel (or library call);
 *   check    after the last run: copy back and compare with the reference;
 *   teardown free everything, on every path.
 * work_bytes is the least traffic to device memory a run needs (each input
 * read once, each output written once): effective GB/s divides it by the
 * time.  device_bytes is what setup allocates, to refuse a size that cannot
 * fit before allocating anything.  default_size and default_block are
 * what a lesson of this experiment runs at when the user gives no --size
 * or --block (0: RESULTS_DEFAULT_SIZE, RESULTS_DEFAULT_BLOCK); a size
 * need not count elements (for matrices it is the dimension).
 */
struct experiment {
	const char *name;
	/*
	 * What it computes, where two experiments differ only in how they
	 * launch (register tiling and the plain matrix multiply): steps that
	 * do the same work are compared, in speedups and against the library.
	 * NULL: its name.
	 */
	const char *work;
	const char *element;		/* "int", "float": what size counts */
	enum experiment_unit unit;
	unsigned long long max_size;
	/*
	 * The size and block a lesson of this experiment runs and is
	 * recorded at when none is asked for; 0 for RESULTS_DEFAULT_SIZE
	 * (2^24 elements) and RESULTS_DEFAULT_BLOCK.  A matrix experiment,
	 * whose size is the matrix side, sets its own.
	 */
	unsigned long long default_size;
	unsigned int default_block;
	/* What its DRAM traffic is made of (roofs.h): each mix meets its own roof; 0 a copy's */
	enum dram_mix mix;
	double (*work_bytes)(const struct step_params *p);
	double (*work_flops)(const struct step_params *p);
	size_t (*device_bytes)(const struct kernel_def *k, const struct step_params *p);
	void *(*setup)(const struct kernel_def *k, const struct step_params *p, struct error *e);
	int (*prepare)(void *state, struct error *e);
	int (*launch)(void *state, struct error *e);
	int (*check)(void *state, struct check_result *out, struct error *e);
	void (*teardown)(void *state);
};

/*
 * The grid a kernel runs with, from its launch shape: one chunk of
 * block * per_thread elements per block, or, for grid-stride kernels, as
 * many blocks as fit on the GPU at once (never more than the chunks need).
 */
int experiment_grid(const struct kernel_def *k, const struct step_params *p, void *kernel,
    unsigned int *grid, struct error *e);

/*
 * A kernel's output copied back for the check: count elements of size
 * bytes from dev into the result buffer of host_buffer.h (not to be
 * freed: the next download reuses it).  NULL with e, which names what
 * (e.g. "floats") when the host cannot hold them.
 */
void *experiment_download(const void *dev, unsigned long long count, size_t size, const char *what,
    struct error *e);

/* Do steps of experiments a and b compute the same thing? */
bool experiment_same_work(const struct experiment *a, const struct experiment *b);

/*
 * A check against a tolerance, element by element: how many failed, the
 * first that did, and the worst passing error as a share of its bound.
 */
struct experiment_tally {
	unsigned long long bad, first;
	double worst;
};
/* Element i: got against want within tol; NaN (the poison of unwritten output) fails. */
void experiment_tally_add(struct experiment_tally *t, unsigned long long i, double got, double want, double tol);

/* Random inputs, the same on every run of the tutor (a fixed seed). */
unsigned int experiment_random(unsigned long long *state);
/*
 * The state experiment_random reaches after `calls` calls from seed: a
 * band of the inputs starts where one loop over them all would be, so
 * filling them in bands gives the same numbers.
 */
unsigned long long experiment_random_skip(unsigned long long seed, unsigned long long calls);

/*
 * fn(ctx, band, lo, hi) over [0, n) in bands in index order, one per
 * processor (at most EXPERIMENT_MAX_BANDS), each in a thread of its own;
 * returns the number of bands.  Filling and checking 2^28 elements takes
 * seconds on one core and a fraction of one on many.  Small n is one band,
 * in the caller.
 */
#define EXPERIMENT_MAX_BANDS 32
typedef void (*experiment_band_fn)(void *ctx, int band, unsigned long long lo, unsigned long long hi);
int experiment_parallel(unsigned long long n, experiment_band_fn fn, void *ctx);
/* The same where each index is `work` elements' worth (a row of a matrix product). */
int experiment_parallel_work(unsigned long long n, unsigned long long work, experiment_band_fn fn,
    void *ctx);

/*
 * Where a check over bands found its mismatches: how many, and the first
 * (bands[b] for band b of experiment_parallel, merged in index order).
 */
struct experiment_mismatch {
	unsigned long long bad, first;
};
struct experiment_mismatch experiment_mismatch_merge(const struct experiment_mismatch *bands, int n);
/* out from m over n elements: right when none differs, else how many and the first. */
void experiment_mismatch_report(struct experiment_mismatch m, unsigned long long n,
    struct check_result *out);

#endif

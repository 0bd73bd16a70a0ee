/* Measuring: warm-up, timed repetitions, statistics, the check, copy bandwidth. */
#ifndef CUDATUTOR_MEASURE_H
#define CUDATUTOR_MEASURE_H

#include <stdbool.h>

#include "experiment.h"
#include "registry.h"
#include "stats.h"

/*
 * One module times every kernel the same way:
 *   - refuse a size that cannot fit in the GPU's free memory, before
 *     allocating anything;
 *   - a few warm-up runs (module load, clocks, first-touch out of the way),
 *     one only for a step so slow that more would waste the student's time;
 *   - as many repetitions as fit the time budget (never fewer than
 *     min_reps, so a slow step takes a few runs, not twenty), each:
 *     restore the inputs and poison the outputs, evict L2 by reading a
 *     buffer several times its size, then time one run between two
 *     events and wait for it, so the next starts on an idle GPU; a step
 *     whose one run outlasts the budget counts its warm-up run, taken the
 *     same way, as the first of them;
 *   - the median and quartiles of those times;
 *   - the outputs of the last run checked against the CPU reference.
 */
struct measure_options {
	int warmup;			/* runs before timing (default 3) */
	/*
	 * Warm-up stops early once it has taken this long (at least one run
	 * always); 0: exactly `warmup` runs, as ncu's launch counting needs.
	 */
	double warmup_seconds;
	int min_reps, max_reps;		/* default 5..200: a median of fewer means little */
	double target_seconds;		/* the timed runs aim for about this much wall time */
	/*
	 * Where the step's data fit in L2, leave L2 as the last run left it,
	 * instead of evicting it before each run: a sweep's small sizes then
	 * read from L2, so that its chart shows where the data stops fitting
	 * there.  Where they do not fit, L2 is flushed all the same (see
	 * measure_keeps_l2).
	 */
	bool keep_l2;
	/*
	 * The share of the GPU's multiprocessors another kernel holds while
	 * each run runs (0: none; at least one, never all): a check's
	 * co-running load, under which the blocks of a launch no longer all
	 * fit at once (gpu_hold_sms).  For answers only: the runs wait for it.
	 */
	double hold;
	/* Seconds the step's process may take before it is killed (0: no limit). */
	double time_limit;
	/* Polled between repetitions: non-zero stops the step ("cancelled"). */
	volatile int *cancel;
	/* Called now and then with the repetitions done so far. */
	void (*progress)(void *ctx, int done, int total);
	void *progress_ctx;
};

void measure_default_options(struct measure_options *o);

struct measurement {
	struct stats ms;		/* per-run times in milliseconds */
	unsigned int grid;		/* 0 for a library call */
	struct check_result check;
	/* What the occupancy calculator says for this kernel and block (0 for a library). */
	int registers;			/* per thread, as compiled for this GPU */
	int blocks_per_sm;		/* resident blocks per multiprocessor */
	double occupancy_pct;		/* resident warps / the most a multiprocessor holds */
};

/* 0 and m filled; -1 and e says why (the step did not run, or faulted). */
/*
 * Whether a step that must move `bytes` (its experiment's work_bytes, as
 * a sweep's L2 line counts them) keeps L2 between its runs: asked to
 * (keep_l2), and those bytes fit in the `l2` bytes of L2.
 * Past that, a run's set-up (the input copied again, the output cleared)
 * leaves dirty lines that the kernel would write back inside its timed
 * window, and the step would look slower than in the lesson's table,
 * which flushes them before the clock starts.
 */
bool measure_keeps_l2(bool keep_l2, double bytes, unsigned long long l2);

int measure_step(const struct kernel_def *k, const struct step_params *p,
    const struct measure_options *o, struct measurement *m, struct error *e);

struct gpu_guard_hit;
/* The bytes of one element of x's buffers: 1 for char, 2 for half, else 4. */
size_t measure_element_bytes(const struct experiment *x);
/* What a write past a buffer's end is called in a step's check: the element and the buffer's size. */
void measure_guard_detail(const struct gpu_guard_hit *hit, size_t element_bytes, char *buf, size_t len);

/* -1 if this step cannot fit on the GPU now, with the sizes in e. */
int measure_check_fits(const struct kernel_def *k, const struct step_params *p, struct error *e);

/*
 * This GPU's device-to-device copy bandwidth in GB/s, counting bytes read
 * and written: the yardstick for "percent of copy".  Measured once per GPU
 * and driver, then read from the cache unless refresh is set.
 */
int measure_copy_bandwidth(bool refresh, double *gbps, struct error *e);
/* The cached figure alone, without touching the GPU: 1 if there is one. */
int measure_copy_bandwidth_cached(double *gbps);

/*
 * The DRAM rate of one mix of reads and writes (roofs.h: MIX_READ,
 * MIX_ADD, MIX_WRITE; not MIX_COPY, the copy above), in GB/s of bytes read
 * and written: kernels/measure.cu's stream kernels over buffers of up to
 * 512 MiB, each run timed after the L2 is flushed as a step's is, the
 * median of 30.  Cached per GPU and driver as the copy is.
 */
int measure_dram_mix(enum dram_mix mix, bool refresh, double *gbps, struct error *e);

#endif

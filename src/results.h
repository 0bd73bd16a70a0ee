/* Results of a lesson's steps: live or recorded, derived figures, JSON. */
#ifndef CUDATUTOR_RESULTS_H
#define CUDATUTOR_RESULTS_H

#include <stdbool.h>

#include <jansson.h>

#include "experiment.h"
#include "metrics.h"
#include "roofs.h"
#include "util.h"

/* The GPU a result was measured on. */
struct gpu_desc {
	char name[256];
	char arch[16];			/* "sm_90" */
	char driver[64];		/* "580.159.04" */
	char cuda[16];			/* runtime the tutor was built with: "13.0" */
	int sm_count;
	unsigned long long memory_bytes;
	unsigned long long l2_bytes;	/* its L2 cache; 0: unknown (files recorded before it was kept) */
};

/* What a step's rate is compared with: nothing, the copy bandwidth, the lesson's library step. */
enum result_yardstick { YARDSTICK_NONE, YARDSTICK_COPY, YARDSTICK_LIBRARY };

/* A unit of the GPU a step keeps busy, and its share of that unit's peak (results_derive). */
struct busy_unit {
	const char *name;		/* N_(): "DRAM", "instruction issue", "shared memory", "tensor cores" */
	double pct;
};
#define RESULTS_BUSY_UNITS 4

struct step_result {
	int step;			/* 1-based, in the lesson */
	char title[160];
	char kernel[96];
	unsigned long long size;
	unsigned int block, grid;	/* grid 0: a library call */
	int reps;
	double median_ms, q1_ms, q3_ms, min_ms, max_ms, spread_pct;
	int registers, blocks_per_sm;	/* 0 for a library call */
	double occupancy_pct;		/* theoretical: resident warps / maximum */
	/*
	 * The SM clock as the step's timed runs ended (NVML), MHz: a step
	 * timed at 1830 MHz is not one timed at 1980.  0: unknown (no NVML,
	 * or a file recorded before it was kept).
	 */
	int sm_clock_mhz;
	/* derived by results_derive() */
	double gbps, gflops, pct_copy, speedup_first, speedup_prev;
	double pct_library;		/* percent of the speed of the lesson's library step; 0: none */
	enum experiment_unit unit;	/* what rate counts, from the kernel's experiment */
	double rate;			/* gbps or gflops, as unit says */
	enum result_yardstick yardstick;	/* what pct compares rate with */
	double pct;			/* pct_copy or pct_library, as yardstick says; 0: none */
	bool ran;			/* false: error says why it did not */
	bool correct;
	bool wrong_by_design;		/* the lesson expects this check to fail */
	bool control;			/* a control step: no rung of the speedups' ladder */
	bool library;
	bool complete;			/* the time includes the whole answer, finished on the GPU */
	char check_detail[256];
	char error[512];
	/* Hardware counters of one launch, from a separate counter run (optional). */
	struct step_metrics metrics;
	/* against the GPU's roofs (results_derive): intensity, limiter, percent of the roof */
	struct roof_point roof;
	/*
	 * Little's law on one multiprocessor (results_derive), bytes: what its
	 * resident threads' loads keep in flight (metrics.load_bytes_in_flight
	 * x threads), and what the GPU's DRAM rate x load latency asks of it
	 * (roofs_in_flight_per_sm); 0: unknown.
	 */
	double in_flight_per_sm, in_flight_need;
	/*
	 * Where a step's time says less of DRAM than its %roof suggests
	 * (results_derive): it writes, and its data fit within
	 * RESULTS_L2_SIZED_TIMES the L2, so part of its output is still there
	 * when the time is taken (the flush before the next run writes it
	 * back), or it ran
	 * under RESULTS_SHORT_MS, where launching it is a large part of that
	 * time.  large_size and large_pct: the same kernel at the largest size
	 * of the same lesson in its results file, and its percentage of its
	 * roof there (0: none, or a live run).
	 */
	/*
	 * From the counters with its time and the roofs (results_derive): the
	 * units it keeps busy, busiest first, as Nsight Compute's speed of
	 * light names the one that binds; nbusy 0 without counters.
	 */
	struct busy_unit busy[RESULTS_BUSY_UNITS];
	int nbusy;
	bool l2_sized, short_run;
	unsigned long long l2_bytes;	/* the GPU's, for the sentence that says so */
	unsigned long long large_size;
	double large_pct;
};

#define RESULTS_L2_SIZED_TIMES 2
#define RESULTS_SHORT_MS 0.020

/* A counter of s by its Nsight Compute name into v; false where it was not read. */
bool results_counter(const struct step_result *s, const char *ncu, double *v);

/* Whether s's place under the DRAM roof is one to read with care (l2_sized or short_run). */
bool results_dram_caveat(const struct step_result *s);

struct run_report {
	char lesson[64];
	struct gpu_desc gpu;
	bool recorded;
	char recorded_date[40];		/* ISO 8601, UTC */
	char recorded_file[512];
	double copy_gbps;
	struct gpu_roofs roofs;		/* of the GPU it ran on; have false: unknown */
	/* the clocks and the temperature as the run began and ended: a slow run, or a slow kernel? */
	struct gpu_clocks clocks_start, clocks_end;
	unsigned long long size;
	unsigned int block;
	int nsteps;
	struct step_result *steps;
};

void run_report_free(struct run_report *r);

/* "GB/s", "GFLOP/s", "shared GB/s"; "copy", "library", "none": as the JSON names them. */
const char *results_unit_name(enum experiment_unit u);
const char *results_yardstick_name(enum result_yardstick y);
/*
 * A step's percentage of the roof that limits it, for a table cell:
 * "96.3"; "!" when it ran faster than the roof allows (a measurement
 * error, not a result); "-" with no roof (shared memory, no roofs known).
 */
const char *results_pct_of_roof(const struct step_result *s, char *buf, size_t len);
/* What a rate in unit u is compared with: the one place that decides it. */
enum result_yardstick results_yardstick(enum experiment_unit u);

/*
 * GB/s, GFLOP/s, percent of copy bandwidth (for steps whose bytes go to
 * device memory), percent of the library step of the same experiment,
 * and speedups.  Speedups compare
 * steps of the same experiment (the same work): "first" is the lesson's
 * first such step, "prev" the one before, counting only steps whose check
 * passed and that are no control step (a control is compared with the
 * steps before it, and never a baseline for those after).  Each step's unit, rate, yardstick and percentage of it are set
 * here too.  Computed here only, for every view and for recorded results
 * alike.
 */
void results_derive(struct run_report *r);

/*
 * The same as session_block_per_kernel, read from a report's steps: each
 * of the tutor's kernels in it launches with its own block, so r->block
 * (what the report was run and is found at) is no step's.
 */
bool results_block_per_kernel(const struct run_report *r);

json_t *results_report_to_json(const struct run_report *r);
json_t *results_gpu_to_json(const struct gpu_desc *g);
/* A report's JSON begun, as every view of it starts: its lesson, GPU and recording. */
json_t *results_report_json_head(const struct run_report *r);
/*
 * Read back what results_report_to_json wrote (the figures derived again);
 * file only names the source in messages.  On failure -1, e says where.
 */
int results_report_from_json(json_t *o, const char *file, struct run_report *r, struct error *e);

/*
 * A recorded-results file: one GPU, several runs.  Its date is when the
 * GPU's figures (copy bandwidth, roofs) were measured with every lesson;
 * each run has its own (run_report.recorded_date), later for the lessons
 * recorded again since with `record --lessons`.
 */
struct results_file {
	char path[512];
	struct gpu_desc gpu;
	char date[40];
	char version[32];
	double copy_gbps;
	struct gpu_roofs roofs;		/* "roofs": have false where the file has none */
	int nruns;
	struct run_report *runs;
	/* "sweeps" as read (sweep.h reads it), written back as it is; NULL: none */
	json_t *sweeps;
};

/*
 * Read a results file; -1 and e (naming the file, and the line where the
 * JSON breaks) when it cannot be read, is damaged, or is from a newer
 * version.  _buffer reads the text of one from memory (path names it in
 * messages); the file reader only adds the reading.
 */
int results_file_load(const char *path, struct results_file *f, struct error *e);
int results_file_load_buffer(const char *text, size_t len, const char *path,
    struct results_file *f, struct error *e);
void results_file_free(struct results_file *f);
/* Write atomically: the old file stays whole if anything fails. */
int results_file_save(const struct results_file *f, const char *path, struct error *e);
/*
 * A partial record (record --lessons): the results file at base_path with
 * add's runs merged in, written to path.  A run of add replaces the run
 * of the same lesson and size, in its place, or else comes last; every
 * other run, the file's heading, its copy bandwidth and its roofs (what
 * its runs' percentages were computed against) stay as the file holds
 * them, byte for byte.  -1 and e when the file cannot be read, or was
 * recorded on another GPU than add.
 */
int results_file_merge_save(const char *base_path, const struct results_file *add, const char *path,
    struct error *e);
/*
 * Put roofs r into the recorded file at path, measured on GPU g, leaving
 * every run as it is: only its "roofs" object is written (atomically).
 * -1 and e when it cannot be read, or was recorded on another GPU.
 */
int results_file_set_roofs(const char *path, const struct gpu_desc *g, const struct gpu_roofs *r,
    struct error *e);

/*
 * The recorded run of a lesson at this size and block, from file if given,
 * else the newest file in data/results/ that has one.  Fills r (a copy,
 * marked recorded).  size or block 0: any, preferring the defaults.
 */
int results_find_recorded(const char *file, const char *lesson, unsigned long long size,
    unsigned int block, struct run_report *r, struct error *e);

/*
 * Two runs of one lesson side by side (two GPUs, or this GPU against a
 * recorded one): for each step of a, the same kernel's step in b (or
 * NULL), and how many times faster b ran it (a's time over b's; 0 where
 * either did not run or was wrong).  copy_ratio is b's copy bandwidth over
 * a's: the ratio a memory-bound step should follow; follows_copy marks the
 * steps whose speedup does (results_follows_copy).
 */
struct results_pair {
	const struct step_result *a, *b;
	double speedup;
	bool follows_copy;
};
struct results_comparison {
	int count;
	struct results_pair *pairs;
	double copy_ratio;
};
/* r's step that ran kernel (its first), or NULL. */
const struct step_result *results_step_of(const struct run_report *r, const char *kernel);
/* Whether a step of r was placed as a tensor-core step (against the BF16 tensor roof). */
bool results_has_tensor_steps(const struct run_report *r);
void results_compare(const struct run_report *a, const struct run_report *b,
    struct results_comparison *c);
void results_comparison_free(struct results_comparison *c);
/*
 * Whether a speedup from one GPU to another follows the ratio of their copy
 * bandwidths (within a tenth of it): memory is what sets the step's pace.
 * False where either is unknown (0), and where the ratio cannot tell
 * (results_copy_ratio_tells).
 */
bool results_follows_copy(double speedup, double copy_ratio);
/*
 * Whether following copy_ratio says anything: not when it is within a
 * tenth of 1 (two GPUs that copy about as fast), where a step bound by
 * anything else runs at that ratio too.
 */
bool results_copy_ratio_tells(double copy_ratio);

/*
 * The recorded-results files of data/results/, one at a time in the order
 * of their names: the one after `after` (NULL or "": the first), skipping
 * `except` (the file of the results shown beside it; NULL: none).  0 and
 * path filled, or -1 after the last, e then empty; or -1 and e when the
 * directory cannot be read or holds no file at all.
 */
int results_next_file(const char *after, const char *except, char *path, size_t len,
    struct error *e);

/* The GPU of the newest file in data/results/ (by its date): 0, or -1 and e. */
int results_newest_gpu(struct gpu_desc *g, struct error *e);

/* "NVIDIA H100 80GB HBM3" -> "nvidia-h100-80gb-hbm3", for file names. */
void results_slug(const char *name, char *buf, size_t len);

/* A problem size in words, as both views print it: "2^24" for powers of two from 2^16 up, else the number. */
const char *results_count(unsigned long long n, char *buf, size_t len);

#define RESULTS_DEFAULT_SIZE (1ULL << 24)
#define RESULTS_DEFAULT_BLOCK 1024u

#endif

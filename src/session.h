/* The session: every question a view asks, answered once (see doc/architecture.md). */
#ifndef CUDATUTOR_SESSION_H
#define CUDATUTOR_SESSION_H

#include <stdbool.h>

#include "lesson.h"
#include "measure.h"
#include "exercise.h"
#include "metrics.h"
#include "progress.h"
#include "results.h"

/*
 * The command line and the full-screen tutor only parse, ask here and
 * draw.  What a lesson runs at, whether a step fits, live or recorded
 * (which file, what fallback), which architecture's SASS to show, running
 * steps with progress and cancellation, reading counters: each is decided
 * in one function below, so the two views can never answer differently.
 * Each step result carries its unit and yardstick (results_derive).
 */

/*
 * What a lesson runs at when no size or block is given: the defaults of
 * its steps' experiments (every step of a lesson agrees on them), else
 * RESULTS_DEFAULT_SIZE and RESULTS_DEFAULT_BLOCK.
 */
unsigned long long session_default_size(const struct lesson *l);
unsigned int session_default_block(const struct lesson *l);
/*
 * Whether every step of l that launches one of the tutor's kernels
 * launches it with its own block, from its experiment's table
 * (SHAPE_TABLE: the tensor-core lesson), so that the lesson's block is
 * no step's: the views then say "block per kernel".
 */
bool session_block_per_kernel(const struct lesson *l);
/* The most the lesson's every step takes (the smallest max_size). */
unsigned long long session_max_size(const struct lesson *l);

/*
 * Whether step i (0-based) of l runs at this size and block: NULL if it
 * does, else why, for the user.  No GPU needed.
 */
const char *session_step_unfit(const struct lesson *l, int i, unsigned long long size,
    unsigned int block, char *buf, size_t len);
/* The same for every step: -1 and e names the step ("step 3 of 'x': ..."). */
int session_check_steps(const struct lesson *l, unsigned long long size, unsigned int block,
    struct error *e);
/*
 * session_check_steps, and then, on the GPU, whether each step fits in its
 * free memory.
 */
int session_check_fits(const struct lesson *l, unsigned long long size, unsigned int block,
    struct error *e);

/* ---- live or recorded ---- */

struct session_hooks;	/* under running, below */

/*
 * Whether live numbers can be had: false (and e says why) when there is
 * no GPU or the user asked for recorded ones (e is then empty).
 */
bool session_live(bool recorded_asked, struct error *e);

/*
 * The recorded run of l at this size and block, from file if given, else
 * the newest file in data/results/ that has one.  r is a copy, marked
 * recorded.
 */
int session_recorded(const char *file, const struct lesson *l, unsigned long long size,
    unsigned int block, struct run_report *r, struct error *e);
/*
 * Recorded counters of l: at this size and block, else at the lesson's
 * default size and block (where `record` reads them); r->size and
 * r->block say which.  -1 and e when none were recorded.
 */
int session_recorded_counters(const char *file, const struct lesson *l, unsigned long long size,
    unsigned int block, struct run_report *r, struct error *e);
/* Does r hold counters for any step? */
bool session_has_counters(const struct run_report *r);

/* Where the results shown come from, and so what the user is told. */
enum session_source {
	SESSION_LIVE,		/* this GPU, now */
	SESSION_RECORDED,	/* recorded, as the user asked */
	SESSION_NO_GPU,		/* recorded, since there is no GPU: note says why */
	SESSION_NO_COUNTERS,	/* recorded, since counters cannot be read here: note says why */
};

/* The GPU as a view knows it: the tutor looks for it on a thread, so it may not know yet. */
enum session_gpu {
	SESSION_GPU_UNKNOWN,	/* still looking: live numbers are expected */
	SESSION_GPU_READY,
	SESSION_GPU_ABSENT,
};

/* What a view has in hand when it asks what to show (session_choose). */
struct session_have {
	enum session_gpu gpu;
	const char *no_gpu;			/* ABSENT: why there is no GPU */
	bool recorded_asked;			/* the user asked for recorded numbers */
	const struct run_report *live;		/* this GPU's report, or NULL (none yet) */
	const char *live_failed;		/* live numbers cannot be had here (counters: no ncu, locked): why; else NULL */
	const struct run_report *recorded;	/* the recorded file's report, or NULL */
	const char *recorded_error;		/* else why not (may be NULL) */
};

/* What to show, and what to tell the user about it. */
struct session_shown {
	const struct run_report *report;	/* NULL: nothing (error says why; "" when live ones are yet to run) */
	enum session_source source;		/* where the report comes from, or would */
	const char *file;			/* recorded: the file it was read from */
	struct error note;			/* not live: why not ("" when recorded ones were asked for) */
	struct error error;			/* no report: why */
};

/*
 * The one answer to "live or recorded": live when the GPU is there (or
 * still looked for), the user did not ask for recorded numbers and live
 * ones can be read; else the recorded report, with the reason as a note.
 * Pure: it loads nothing and prints nothing.
 */
void session_choose(const struct session_have *in, struct session_shown *out);

/*
 * The results of l to show at size and block: recorded when the user asks
 * (from file, or the newest) or when there is no GPU, else every step run
 * live (session_run_lesson).  The source, or -1 and e when there are none.
 */
int session_results(struct run_report *r, const struct lesson *l, unsigned long long size,
    unsigned int block, bool recorded_asked, const char *file, const struct measure_options *o,
    const struct session_hooks *h, struct error *note, struct error *e);

/*
 * The counters of l (of its step `only` alone, when only > 0) to show:
 * recorded as session_results says, else read live, else, where they
 * cannot be read here, those recorded with the results.  A live report
 * holds the steps read, a recorded one every step.  The source, or -1 and
 * e when there are none.
 */
int session_counters(struct run_report *r, const struct lesson *l, int only,
    unsigned long long size, unsigned int block, bool recorded_asked, const char *file,
    const struct session_hooks *h, struct error *note, struct error *e);

/* ---- which SASS ---- */

/*
 * The architecture whose SASS to show for a kernel module: the one this
 * GPU runs (live_arch, "sm_90", or NULL without a GPU), else the one the
 * GPU of the newest recorded results ran, else the newest built.  0 and
 * buf filled, or -1 and e (the module has no SASS, or this GPU only runs
 * JIT-compiled PTX).
 */
int session_arch(const char *module, const char *live_arch, char *buf, size_t len,
    struct error *e);
/* session_arch with this machine's GPU, if it has one. */
int session_arch_here(const char *module, char *buf, size_t len, struct error *e);
/*
 * The architecture shown where none can be chosen (no GPU, no recorded
 * results, no SASS built for the module): views then say what is missing.
 */
#define SESSION_FALLBACK_ARCH "sm_90"
/*
 * The architecture a lesson's {{count}} figures are counted in: as
 * session_arch_here, else SESSION_FALLBACK_ARCH (the counts then read "?"
 * where its SASS was not built).
 */
void session_counts_arch(const char *module, char *buf, size_t len);

/* ---- running ---- */

/*
 * How to measure: the defaults (warm-up runs, then about a second's worth),
 * or with runs > 0 one warm-up run and exactly that many timed runs (what
 * ncu skips before the launch it profiles).
 */
void session_measure_options(struct measure_options *o, int runs);

/* The live GPU as results describe it. */
void session_gpu_desc(struct gpu_desc *g);

/*
 * Start a live report for lesson l: the GPU, its copy bandwidth, one empty
 * step per lesson step.  -1 if there is no GPU (e says why).
 */
int session_begin(struct run_report *r, const struct lesson *l, unsigned long long size,
    unsigned int block, struct error *e);

/* What a run of several steps tells its caller as it goes. */
struct session_hooks {
	void (*step_begins)(void *ctx, int i);
	void (*step_done)(void *ctx, const struct run_report *r, int i);
	void *ctx;
};

/*
 * Every step of l, live, into a new report r: session_check_fits,
 * session_begin, session_run.  -1 and e when it cannot start (no GPU, a
 * step too large).
 */
int session_run_lesson(struct run_report *r, const struct lesson *l, unsigned long long size,
    unsigned int block, const struct measure_options *o, const struct session_hooks *h,
    struct error *e);

/*
 * Steps first..last (0-based, inclusive) in turn, with o's progress and
 * cancel.  A step cancelled part way keeps the result it had before.
 * Returns how many steps ran.  The worker process that ran them ends with
 * the run, unless session_keep_worker holds it.
 */
int session_run(struct run_report *r, const struct lesson *l, int first, int last,
    const struct measure_options *o, const struct session_hooks *h);

/*
 * true: runs leave their worker, its CUDA context and its host buffers
 * for the next run (record, lesson after lesson, and check --watch, save
 * after save, pay for them once);
 * false: end it now, and after every run again.
 */
void session_keep_worker(bool keep);

/* One measurement of kernel k, in a child process when isolation is on. */
int session_measure(const struct kernel_def *k, const struct step_params *p,
    const struct measure_options *o, struct measurement *m, struct error *e);

/* ---- exercises ---- */

/* One size a student's kernel was checked at. */
struct exercise_size_check {
	unsigned long long size;
	unsigned int block;
	bool random;			/* drawn at random for this check (or given with --size) */
	bool reversed;			/* run with its blocks in reverse order (exercise_build_reversed) */
	bool held;			/* and with half of the GPU held by another kernel (gpu_hold_sms) */
	bool ran;			/* false: error says why (a fault, the time limit) */
	bool correct;
	char detail[256];		/* the experiment's check: the first wrong element */
	char error[512];
};

#define EXERCISE_MAX_SIZES 32

/*
 * A student's kernel on the GPU: checked against the CPU at awkward sizes,
 * then timed at the lesson's size like every step, beside the step it
 * starts from and the reference step it targets.  It runs in the step's
 * child process: a fault, a crash or an endless loop fails the exercise,
 * never the tutor.
 */
struct exercise_run {
	int nsizes;
	struct exercise_size_check sizes[EXERCISE_MAX_SIZES];
	bool correct;			/* right at every size */
	/* steps: the starting step, the reference, yours (kernel = the target's name) */
	struct run_report report;
	bool timed;			/* report holds three measured steps */
	double ratio;			/* your time over the reference's */
	/*
	 * The starting step's time over the reference's (0: not timed): at
	 * most SESSION_EXERCISE_SLACK, the time cannot tell the technique
	 * from its absence at this size on this GPU, and the report says so.
	 */
	double start_ratio;
	bool retimed;			/* just past the slack: both timed again, the faster of each kept */
	bool impossible;		/* yours ran faster than the GPU's roof allows, the reference did not */
	bool fast_enough;		/* ratio at most SESSION_EXERCISE_SLACK, and possible */
};

/* At most 15% slower than the reference: what passing asks. */
#define SESSION_EXERCISE_SLACK 1.15
/* Up to this ratio a time past the slack is measured again before it fails (noise, not a slower kernel). */
#define SESSION_EXERCISE_RETIME 1.30

/*
 * The time's verdict on an exercise, from the three timed steps of
 * run->report (placed against their roofs by results_derive), in three
 * parts that the timing calls in turn:
 *  - retime_wanted: yours is past the slack but within
 *    SESSION_EXERCISE_RETIME of ours, so both are timed again;
 *  - keep_faster: a step timed again keeps the faster of its two runs,
 *    where the new run was right;
 *  - time_verdict: ratio, start_ratio, impossible and fast_enough.
 */
bool session_exercise_retime_wanted(const struct exercise_run *run);
/*
 * An exercise's time over ours as the student reads it beside the slack:
 * two decimals, more (up to six) where two would show a failing ratio as
 * the bound itself.  Returns buf.
 */
const char *session_exercise_ratio_text(double ratio, char *buf, size_t len);
void session_exercise_keep_faster(struct step_result *kept, const struct step_result *again);
void session_exercise_time_verdict(struct exercise_run *run);

/*
 * The sizes (and blocks) a student's kernel is checked at for target,
 * chosen from its geometry, so that a wrong tail cannot hide: one
 * element; just below and above a multiple of the block's chunk (block x
 * elements per thread), past the first block; a remainder in every part
 * of the last block's chunk; every remainder a vector of its elements per
 * thread leaves; for a matrix (its size is the side), sides around its
 * tile and each remainder modulo 4 (the tail of a 16-byte path over K).
 * Then random_size (0: none).  Where the target takes other blocks, each
 * kind it takes (the smallest, one not a power of two, half, the largest)
 * runs two of these again.  A 1-D target also runs past what a full GPU
 * holds at once, with a tail (a grid-stride kernel's grid is capped, so
 * only there does it loop).  The lesson's size last.  Only sizes and
 * blocks the target takes.  Returns how many.
 */
struct exercise_size {
	unsigned long long size;
	unsigned int block;
	bool random;
};
int session_exercise_sizes(const struct kernel_def *target, unsigned long long lesson_size,
    unsigned int block, unsigned long long random_size, struct exercise_size *sizes, int max);

/* "size 4097, block 512", "size 777 (random)": which run of a check a line is about. */
void session_exercise_size_words(const struct exercise_size_check *z, char *buf, size_t len);

/* A size drawn at random from target's geometry: a few chunks (or tiles) and a tail. */
unsigned long long session_exercise_random_size(const struct kernel_def *target, unsigned int block,
    unsigned long long seed);

/* Everything one check of an exercise found: compile, SASS, GPU. */
struct exercise_report {
	const struct exercise_def *def;
	struct exercise_result compiled;	/* the file, its diagnostics, SASS, cubin */
	bool sass_checked;
	struct exercise_verdict verdict;
	char sass_error[512];		/* why the SASS could not be checked */
	bool sass_skipped;		/* not read: a check run again under a tool (the first judged it) */
	bool gpu;			/* a GPU ran it: run says how it went */
	char no_gpu[512];		/* else why not */
	struct exercise_run run;
	unsigned long long seed;	/* the inputs' (on a GPU): check --seed repeats them */
	/*
	 * A kernel whose blocks meet through global atomics (a ticket, a
	 * counter), right at every size: run again at the same sizes and
	 * inputs with its blocks started in reverse order.  reversed_ran: it
	 * ran (its first wrong size, if any, is the last of run.sizes, marked
	 * reversed); else reversed_note says why not ("" where the kernel has
	 * no global atomics).
	 */
	bool reversed_ran;
	char reversed_note[512];
	/*
	 * Right in reverse order too: the reversed build run again at the same
	 * sizes and inputs while another kernel holds half of the GPU's
	 * multiprocessors, so that its blocks cannot all run at once and block
	 * 0 starts after others have ended: held_ran and held_note as above
	 * (its first wrong size is marked held).
	 */
	bool held_ran;
	char held_note[512];
	/*
	 * With right answers on a GPU, compute-sanitizer's memcheck, synccheck
	 * and racecheck over the same sizes and inputs, in that order
	 * (exercise_tools): each ran clean, found something (note: its first
	 * line), or did not run (note says why).
	 */
	int ntools;
	struct exercise_tool {
		char name[16];
		bool ran, clean;
		char note[512];
		char *report;		/* the tool's whole output, when it ran */
	} tools[3];
	/*
	 * On a GPU with Nsight Compute, once the rest passes: the technique
	 * checks again on the instructions that ran (a technique in code
	 * that never runs does not count), else executed_note says why not.
	 */
	bool executed_checked;
	struct exercise_verdict executed;
	char executed_note[512];
	/*
	 * Why a check only a run can judge (CHECK_DRAM_READS) was not: no
	 * verdict then, pass or fail ("" when judged, or the row has none).
	 */
	char unjudged[512];
	bool passed;			/* compiled, technique in the SASS (where it ran), right, fast enough */
	/* Wall seconds of each part of the check on a GPU (0: not done): where a check's time goes. */
	struct exercise_seconds {
		double answers;		/* every size against the CPU, the SASS read meanwhile */
		double reversed;	/* the same with the blocks in reverse order */
		double held;		/* the same again beside a load that holds half the GPU */
		double timing;		/* the three steps timed (waiting for the GPU to itself included) */
		double tools;		/* compute-sanitizer's tools, side by side */
		double executed;	/* Nsight Compute reading what ran */
		double dram;		/* and reading what the blocks read, the GPU held alone */
	} seconds;
	bool new_best;			/* its time is the student's best on this GPU */
};

/*
 * Check exercise id: the working copy in dir (NULL: the default), or file
 * when given (checked where it is: its cubin goes in the cache, and
 * nothing is written in dir).  Compiled with NVRTC for the architecture the SASS views
 * show (this GPU's, else the recorded GPU's), its SASS checked, then, on a
 * GPU, run in the step's worker process at every size its geometry asks
 * for, then timed at the lesson's size (timing false: the correctness
 * checks only, e.g. under a sanitizer).  A fault, a crash or an endless
 * loop fails the exercise, never the tutor.  The inputs of every size
 * and of the timing are drawn from seed (0: one drawn now), over the
 * whole range the task defines, so that no kernel is right only on the
 * inputs of the last check; out->seed says which, and check --seed
 * repeats it.  extra_size is checked too (0: a size drawn from the seed);
 * h (may be NULL) hears of the answers
 * before the timing.  Passing asks for
 * all of it; progress p (may be NULL) keeps a pass and the best time.
 * -1 and e when nothing could be checked (unknown id, no file, no NVRTC).
 */
struct exercise_hooks {
	/* The answers are in (out->run.sizes, out->gpu set), before the timing begins. */
	void (*answers)(void *ctx, const struct exercise_report *out);
	/* The timing is in (out->run.report), before the checks where it ran. */
	void (*timed)(void *ctx, const struct exercise_report *out);
	/* The tools have run (out->tools). */
	void (*tools)(void *ctx, const struct exercise_report *out);
	void *ctx;
};
int session_exercise_check(const char *dir, const char *id, const char *file, bool timing,
    unsigned long long extra_size, unsigned long long seed, const struct measure_options *o,
    const struct exercise_hooks *h, struct progress *p, struct exercise_report *out, struct error *e);
/* A seed for a check's inputs, different each time (never 0, at most 9 digits). */
unsigned long long session_exercise_draw_seed(void);
/*
 * Why r did not pass, in one line: the first thing that failed, in the
 * order the check judges (compile, SASS, answers, time, tools, where it
 * ran); without a GPU, why it is not graded.  "" when it passed.
 */
void session_exercise_reason(const struct exercise_report *r, char *buf, size_t len);
void session_exercise_report_free(struct exercise_report *r);
/*
 * Whether the tools of a check look at every size it runs (check
 * --sanitize), not only those up to a million elements (the default:
 * seconds, not minutes).
 */
void session_exercise_tools_at_every_size(bool every);
/*
 * Is r a verdict?  A kernel that does not compile, does not stand in for
 * the target or fails a SASS check has failed wherever it was checked; one
 * that passes them is graded only where a GPU ran it.  Otherwise (no GPU,
 * or one the target cannot run on) it is "not graded": never a pass.
 */
bool session_exercise_graded(const struct exercise_report *r);

/* This GPU's copy bandwidth: from the cache, or measured (refresh: always measured). */
int session_copy_bandwidth(bool refresh, double *gbps, struct error *e);

/*
 * This GPU's roofs (roofs.h): the theoretical ones from the clocks NVML
 * reports (else the CUDA driver's), the measured ones from the cache or
 * measured now (refresh: always measured): the copy bandwidth, the
 * FP32 ceiling kernel and the BF16 tensor one.  -1 and e when there is no
 * GPU or the copy bandwidth cannot be had; a ceiling that cannot run
 * leaves its figure unknown (0) and fp32_error or tensor_error (either
 * may be NULL) saying why.
 */
int session_roofs(bool refresh, struct gpu_roofs *r, struct error *fp32_error, struct error *tensor_error,
    struct error *e);
/* The live GPU's clocks and temperature now (have false without NVML or a GPU). */
void session_clocks(struct gpu_clocks *c);

/* ---- counters ---- */

/*
 * Read the counters of step i (0-based in l) at size and block into m,
 * numbered step_number on the command line ncu runs.  A library step gets
 * a note instead (its counters are not ours to read).  METRICS_LOCKED and
 * the reason in e when the driver locks the counters.
 */
enum metrics_status session_step_counters(struct metrics_session *ms, const struct lesson *l,
    int i, int step_number, unsigned long long size, unsigned int block, struct step_metrics *m,
    struct error *e);

/*
 * Live counters of every step of l into a new report r; with only > 0, l
 * is a view of step `only` alone, numbered so.  h->step_begins and
 * h->step_done come around each step.  -1 and e when none can be read (no
 * GPU, no ncu, counters locked).
 */
int session_live_counters(struct run_report *r, const struct lesson *l, int only,
    unsigned long long size, unsigned int block, const struct session_hooks *h, struct error *e);

/* ---- recording ---- */

/*
 * The sizes `record` runs lesson l at when none are asked for: its default,
 * and 2^28 elements (a matrix lesson: sides of 4096) where every step
 * takes that many; a matrix lesson whose default is 4096, at 2048 too.
 * Returns how many (1 or 2).
 * It reads the counters at the first (see session_recorded_counters).
 */
int session_record_sizes(const struct lesson *l, unsigned long long sizes[2]);

/*
 * Where `record` writes by default: beside the recorded results of a
 * source tree (data/results/<gpu>.json) when it may write there, else
 * <gpu>.json here.  Newly allocated.
 */
char *session_record_path(const struct gpu_desc *g);

/*
 * The recorded file of GPU g in data/results/, found by the GPU's name
 * whatever the file is called (nvidia-h100.json for "NVIDIA H100 80GB
 * HBM3"), else session_record_path(g): where record --lessons and sweep
 * --record merge.  Newly allocated.
 */
char *session_recorded_file_of(const struct gpu_desc *g);

/*
 * The counters of every step of the lessons ls[0..n), all in one ncu run
 * (it starts once, not once a lesson): m[j][i] for step i of lesson j (a
 * library step gets a note), at size and block (0: each lesson's own).
 * METRICS_LOCKED and e when the driver locks them; any other failure, e
 * for the whole run.
 */
enum metrics_status session_lessons_counters(struct metrics_session *ms,
    const struct lesson *const *ls, int n, unsigned long long size, unsigned int block,
    struct step_metrics *const *m, struct error *e);

#endif

/* Hardware counters per step: the metrics shown, Nsight Compute as their collector, its CSV. */
#ifndef CUDATUTOR_METRICS_H
#define CUDATUTOR_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util.h"

/*
 * The counters come from Nsight Compute's command-line profiler, ncu, run
 * as a child process on the tutor's own batch command for one step
 * (`cudatutor run LESSON --step N --runs 1`), profiling one launch of the
 * step's kernel with the caches flushed.  ncu is what learners use
 * themselves, so the names shown are the ones they will type; it replays
 * the kernel once per group of counters and restores memory between
 * passes, and the tutor's own timing runs never run under it.  A counter
 * run's times are never shown as a step's time.
 *
 * metrics_table is the one list of what is shown: the CLI, --explain,
 * doc/metrics.md and the recorded results all follow it.
 */

enum metric_group {
	MG_DRAM,		/* device memory traffic */
	MG_GLOBAL,		/* how well global loads and stores use the sectors they move */
	MG_SHARED,		/* shared-memory wavefronts and bank conflicts */
	MG_WARPS,		/* occupancy and divergence */
	MG_INST,		/* instructions */
	MG_STALL,		/* why warps were not issuing */
};

enum metric_unit {
	MU_BYTES_PER_SECOND,	/* stored in byte/s, shown in GB/s */
	MU_BYTES,
	MU_PERCENT,
	MU_COUNT,
	MU_RATIO,
};

struct metric_def {
	const char *label;	/* plain words, for gettext */
	/*
	 * The Nsight Compute metric it reads, or NULL for one derived from two
	 * others: num / den - minus.
	 */
	const char *ncu;
	const char *num, *den;
	double minus;
	enum metric_unit unit;
	enum metric_group group;
	const char *nvprof;	/* what nvprof called it (the reference texts), or NULL */
	const char *column;	/* header in a lesson's summary table, or NULL */
	const char *meaning;	/* one sentence: what it says about the kernel, for gettext */
};

#define METRICS_MAX 64

extern const struct metric_def metrics_table[];
extern const int metrics_count;

/* The row that reads this Nsight Compute metric; -1 if none. */
int metrics_find(const char *ncu);

/* Label of a metric group, in English: pass it through _() to show it. */
const char *metrics_group_label(enum metric_group g);

/* What one step's counters read; raw values by metrics_table index, in base units. */
/*
 * Where the warps wait, instruction by instruction: ncu's warp-state
 * samples at each SASS line (its source page).  The stall reason alone
 * misleads: ncu counts a warp waiting at WARPGROUP.DEPBAR (for its own
 * wgmma) as a "barrier" stall; the line says which wait it is.
 */
#define STALL_LINES_MAX 12
#define STALL_REASONS_MAX 3

struct stall_line {
	unsigned int offset;		/* from the kernel's first instruction, as cuobjdump numbers it */
	char sass[96];			/* the instruction as ncu printed it, branch targets made offsets */
	int samples;			/* in every warp state, issuing too */
	int nreasons;
	struct {
		char name[24];		/* ncu's, without "stall_": "barrier", "long_sb", "selected" */
		int samples;
	} reasons[STALL_REASONS_MAX];	/* largest first */
};

struct stall_profile {
	bool have;
	char date[40];			/* when they were taken (ISO 8601, UTC): they may be newer than the counters */
	long long samples;		/* the kernel's, on every line */
	int nlines;
	struct stall_line lines[STALL_LINES_MAX];	/* the lines with most samples, most first */
};

struct step_metrics {
	bool collected;			/* ncu ran and read this step's kernel */
	char tool[64];			/* "Nsight Compute 2025.3.1.0" */
	bool have[METRICS_MAX];		/* false: n/a (this GPU or ncu has no such metric) */
	double value[METRICS_MAX];
	char note[512];			/* why not collected; not saved */
	struct stall_profile stalls;	/* with stalls asked for (metrics_session.stalls) */
	/*
	 * Not a counter: the bytes of global loads one thread has in flight
	 * before it waits for the first, read from the kernel's SASS when its
	 * counters are (sass_load_bytes_in_flight); 0: unknown.
	 */
	int load_bytes_in_flight;
};

/*
 * Whether no global load instruction ran (sectors per global load 0): a
 * kernel fed by the TMA or cp.async copies.  Its load efficiency is then
 * n/a, not 0 %.
 */
bool metrics_no_global_loads(const struct step_metrics *m);
/* What the counters view says under such a step's global loads, translated. */
const char *metrics_no_global_loads_note(void);

/* Row i's value, derived ones computed: 0, or -1 when it is n/a. */
int metrics_value(const struct step_metrics *m, int i, double *v);

/*
 * The largest stall reasons, by share of the warps' time, largest first;
 * "issuing" (not a stall) left out.  Returns how many went into idx.
 */
int metrics_top_stalls(const struct step_metrics *m, int *idx, int max);

/*
 * The stall reasons worth showing: the top largest, then waiting at a
 * barrier if it is not among them (the reduction lessons remove
 * barriers), then "issuing" to compare with.  Returns how many went into
 * idx (at most max).
 */
int metrics_stalls_shown(const struct step_metrics *m, int top, int *idx, int max);

/* One value with its unit for people: "3,120.4 GB/s", "99.7 %", "16,777,216". */
const char *metrics_format(const struct metric_def *d, double v, char *buf, size_t len);

/* The unit as shown: "GB/s", "%", "bytes" ("" for a plain count or ratio). */
const char *metrics_unit_name(enum metric_unit u);

/*
 * Where a metric comes from, for both views: its Nsight Compute name, or
 * for a derived one how it is computed ("a / b - 1").
 */
static inline const char *metrics_source(const struct metric_def *d, char *buf, size_t len)
{
	if (d->ncu != NULL)
		snprintf(buf, len, "%s", d->ncu);
	else if (d->minus != 0)
		snprintf(buf, len, "%s / %s - %g", d->num, d->den, d->minus);
	else
		snprintf(buf, len, "%s / %s", d->num, d->den);
	return buf;
}

/* ---- ncu's CSV ------------------------------------------------------------ */

/* One row of ncu's --csv output: one metric of one profiled launch. */
struct ncu_row {
	int id;				/* the launch, in order of profiling */
	char kernel[256];
	char metric[128];
	char unit[32];
	double value;			/* in base units: byte, byte/second, second, % */
	bool have;			/* false for "n/a" or a value that is not a number */
};

struct ncu_rows {
	int count;
	struct ncu_row *rows;
};

/* Whether a sampled line's instruction, past its predicate ("@P0 "), starts with opcode ("HGMMA"). */
bool metrics_stall_is(const struct stall_line *l, const char *opcode);
/*
 * What the warps at line l wait for, said by its instruction where it
 * says more than ncu's reason (WARPGROUP.DEPBAR: the warpgroup's own
 * wgmma, which ncu files under "barrier"), else by its largest reason;
 * NULL when neither says.  Translated.
 */
const char *metrics_stall_meaning(const struct stall_line *l);

struct sass_listing;

/*
 * What the warps at line l wait for, with the kernel's SASS at hand: a
 * scoreboard stall waits for the result of an earlier instruction, and
 * the nearest one before l that gives such a result is named (the
 * branch after SYNCS.PHASECHK waits for an mbarrier, not for memory).
 * Else metrics_stall_meaning(l); "" when neither says.
 */
void metrics_stall_explain(const struct stall_line *l, const struct sass_listing *sass, char *buf, size_t len);

/* Line l's share of the kernel's samples, in percent. */
double metrics_stall_pct(const struct stall_profile *p, const struct stall_line *l);

/*
 * Parse ncu's source page (ncu --import R --page source --csv
 * --print-source sass): one block a kernel launch, matched in order to
 * symbols[0..n) (NULL: not profiled) as the counters are, into out[].
 * 0, or -1 and e when text holds no source page.
 */
int metrics_parse_stalls(const char *text, const char *const *symbols, int n, struct stall_profile *out,
    struct error *e);

/*
 * Parse ncu --csv text: ==PROF==, ==WARNING== and other lines before the
 * header are skipped; numbers may carry thousands separators ("325,664");
 * scaled units ("Gbyte/second", "ns", "Kbyte") are brought to base units.
 * -1 with e set if there is no CSV table in text at all.
 */
int metrics_parse_csv(const char *text, struct ncu_rows *out, struct error *e);
void metrics_rows_free(struct ncu_rows *r);

/* Fill m from the rows of the first profiled launch. */
void metrics_from_rows(const struct ncu_rows *rows, struct step_metrics *m);

enum metrics_status {
	METRICS_OK,		/* m holds the counters */
	METRICS_LOCKED,		/* counters locked by the driver: e says how to allow them */
	METRICS_UNKNOWN,	/* ncu does not know some metrics: unknown[] says which */
	METRICS_FAILED,		/* e says why */
	METRICS_CANCELLED,	/* the session's cancel flag stopped ncu and its target */
};

/*
 * Read what ncu wrote (its log and its output together) for one step.
 * unknown (METRICS_MAX entries) is set for each metric ncu said it could
 * not find, so the caller can ask again without them.
 */
enum metrics_status metrics_read_ncu(const char *output, struct step_metrics *m, bool *unknown,
    struct error *e);
/* The same for a run of whole lessons: m[i] for symbols[i] (skipped where NULL), in order. */
enum metrics_status metrics_read_ncu_lesson(const char *output, const char *const *symbols, int n,
    struct step_metrics *m, bool *unknown, struct error *e);

/* "Nsight Compute 2025.3.1.0" from `ncu --version`; -1 if there is no version in text. */
int metrics_parse_version(const char *text, char *buf, size_t len);

/* ---- running ncu ------------------------------------------------------------- */

/* A series of counter runs with one ncu; remembers what ncu did not know. */
struct metrics_session {
	char *ncu;
	char *program;			/* this program, to run the step */
	char tool[64];
	bool unknown[METRICS_MAX];
	/*
	 * Set after metrics_session_begin to make a collection cancellable:
	 * while it turns non-zero, ncu and the step it runs (a process group
	 * of their own then) are stopped.  NULL: not cancellable.
	 */
	volatile int *cancel;
	/*
	 * Set to read where the warps wait too: a second ncu run with its
	 * warp-state sampling, read instruction by instruction.
	 */
	bool stalls;
};

/* Find ncu and this program: -1 and e if ncu cannot be found or run. */
int metrics_session_begin(struct metrics_session *s, struct error *e);
void metrics_session_end(struct metrics_session *s);

/*
 * `cudatutor run --runs N` makes one warm-up run, then N timed runs: ncu
 * skips that many launches of the kernel and profiles the next.
 */
#define METRICS_SKIP_LAUNCHES 1

/* What to profile: one step of a lesson, and its kernel's exported symbol. */
struct metrics_target {
	const char *lesson;
	const char *lang;
	int step;			/* 1-based */
	unsigned long long size;	/* 0: each lesson's own */
	unsigned int block;		/* 0: each lesson's own */
	const char *symbol;		/* registry_symbol() of the step's kernel */
	/*
	 * For whole lessons in one ncu run (step 0): the symbols of their
	 * steps in the order they run, NULL for a step that is not read (a
	 * library call).
	 */
	const char *const *symbols;
	int nsymbols;
	/* Several lessons in that run (else lesson alone): ncu starts once for them all. */
	const char *const *lessons;
	int nlessons;
};

/*
 * ncu's command line for t, writing its log to log_path: a NULL-terminated
 * array to free with metrics_argv_free.  Leaves out what s->unknown marks.
 */
char **metrics_ncu_argv(const struct metrics_session *s, const struct metrics_target *t,
    const char *log_path);
void metrics_argv_free(char **argv);

/*
 * Run ncu on one step and fill m; or, with t->step 0, on the whole lesson
 * at once and fill m[0..t->nsymbols) (ncu's start-up costs seconds: one
 * run per lesson rather than per step).  Metrics ncu does not know are
 * left n/a and remembered in s for the next runs.
 */
enum metrics_status metrics_collect(struct metrics_session *s, const struct metrics_target *t,
    struct step_metrics *m, struct error *e);

/*
 * ncu's source page as CSV: the header row names a column "Source" (the
 * SASS instruction) and one "Instructions Executed" (how many warps ran
 * it), and where ncu has one "Predicated-On Thread Instructions Executed"
 * (how many threads ran it with its predicate true), which then decides.
 * The instructions executed at least once, as SASS text that
 * sass_parse() reads, into *sass (to free); *rows says how many rows the
 * page had; *counts (to free; counts may be NULL) how many ran each
 * instruction of *sass, in its order, by the column that decided.  -1 and
 * e when text holds no such page.
 */
int metrics_executed_from_csv(const char *text, char **sass, double **counts, int *rows, struct error *e);

/*
 * compute-sanitizer's tool ("memcheck", "synccheck", "racecheck") over an
 * exercise's check: this program's "check ARGS..." run under it, the
 * answers only, in one process without guard zones (so that memcheck
 * sees each buffer's true end); small: the check's sizes up to a million
 * elements only (a racecheck at the lesson's size takes minutes).
 * METRICS_OK with *clean (no error found) and *report (the tool's output,
 * to free); else e (no compute-sanitizer, it failed, or cancelled).
 */
enum metrics_status metrics_sanitize(const char *tool, const char *const *args, bool small, char **report,
    bool *clean, volatile int *cancel, struct error *e);

/*
 * The SASS of symbol as it ran in `cudatutor check` with args (the
 * exercise id, --file, --dir): ncu profiles one launch of it at the
 * lesson's size (CUDATUTOR_CHECK_EXECUTED=1 tells check to run that size
 * alone) and reads its source counters.  METRICS_OK and *sass and
 * *counts (to free), as metrics_executed_from_csv gives them.
 */
enum metrics_status metrics_executed_sass(struct metrics_session *s, const char *symbol,
    const char *const *args, char **sass, double **counts, struct error *e);

/*
 * The bytes two kernels of one name read from device memory in `cudatutor
 * check` with args, which at the n sides sizes (CUDATUTOR_CHECK_DRAM=a,b)
 * runs the student's kernel once each, then ours once each: ncu reads
 * dram__bytes_read.sum of each launch of symbol, the caches flushed
 * before it.  METRICS_OK and yours[i], ours[i] at sizes[i]; else e.
 * Either way *exit_status is how check ended (3: the student's answers
 * were wrong at one of the sizes), or -1 where it did not end by itself.
 */
enum metrics_status metrics_dram_reads(struct metrics_session *s, const char *symbol, const char *const *args,
    const unsigned long long *sizes, int n, double *yours, double *ours, int *exit_status, struct error *e);

#endif

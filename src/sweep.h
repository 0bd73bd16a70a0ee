/* Size and block sweeps: a lesson's steps timed across sizes (or blocks), recorded, and drawn as a chart. */
#ifndef CUDATUTOR_SWEEP_H
#define CUDATUTOR_SWEEP_H

#include <stdbool.h>

#include <jansson.h>

#include "lesson.h"
#include "measure.h"
#include "results.h"
#include "canvas.h"

/*
 * A sweep runs steps of a lesson at each of several sizes (at one block)
 * or at each of several blocks (at one size), through the session's
 * measuring (session_begin, session_run), and keeps each step's time and
 * rate at each.  Recorded sweeps live in a results file under "sweeps"
 * (doc/sweeps.md), beside its runs.
 */
enum sweep_over { SWEEP_SIZE, SWEEP_BLOCK };

struct sweep_point {
	unsigned long long size;
	unsigned int block;
	bool ran;			/* false: error says why not */
	bool correct;
	int reps;
	double median_ms;
	double rate;			/* GB/s or GFLOP/s, as its step's unit says */
	char error[256];
};

struct sweep_step {
	int step;			/* 1-based, in the lesson */
	char kernel[96];
	enum experiment_unit unit;
	/*
	 * The bytes of device memory one run moves per element (the
	 * experiment's work_bytes over the size): its working set is this
	 * times the size, which crosses the L2 at l2_bytes / this.
	 */
	double bytes_per_element;
	int npoints;
	struct sweep_point *points;
};

struct sweep {
	char lesson[64];
	enum sweep_over over;
	unsigned long long size;	/* SWEEP_BLOCK: the size every point runs at */
	unsigned int block;		/* SWEEP_SIZE: the block every point runs at */
	char date[40];			/* ISO 8601, UTC, when it ran */
	struct gpu_desc gpu;		/* gpu.l2_bytes: 0 unknown */
	bool recorded;
	char recorded_file[512];
	int nsteps;
	struct sweep_step *steps;
};

void sweep_free(struct sweep *s);

/* "size", "block" */
const char *sweep_over_name(enum sweep_over o);
/* The same, as a reader's word: translated. */
const char *sweep_over_text(enum sweep_over o);

/*
 * A list of sizes or blocks: "A..B" (A, A x 4, ... up to B; blocks: x 2),
 * "A..B:F" (x F), or "N,N,..."; each count as parse_count reads it
 * (2^20, 1M, 1024).  0 and *out (ascending, newly allocated), or -1 and
 * e saying what is wrong with s.
 */
int sweep_parse_values(const char *s, bool blocks, unsigned long long **out, int *n, struct error *e);

/* The sizes swept when none are given: 2^10..2^28 x 4, none past the lesson's max. */
int sweep_default_sizes(const struct lesson *l, unsigned long long **out);
/* The blocks swept when none are given: 64..1024 x 2. */
int sweep_default_blocks(unsigned long long **out);

/* What a sweep tells its caller as it goes: value vi of n, step i of the lesson, about to run. */
struct sweep_hooks {
	void (*begins)(void *ctx, int vi, int n, unsigned long long value, int step);
	void *ctx;
};

/*
 * Run steps[0..nsteps) (0-based in l) of l live at each value (sizes at
 * `block`, or blocks at `size`) into a new sweep s.  A step that cannot
 * run at a value (too large, a block it does not take) keeps its point
 * with ran false and the reason.  -1 and e when there is no GPU.
 */
int sweep_run(const struct lesson *l, const int *steps, int nsteps, enum sweep_over over,
    const unsigned long long *values, int nvalues, unsigned long long size, unsigned int block,
    const struct measure_options *o, const struct sweep_hooks *h, struct sweep *s, struct error *e);

/* Measuring for sweeps: few runs a point, so that ten sizes of a lesson take a minute or two. */
void sweep_measure_options(struct measure_options *o);

json_t *sweep_to_json(const struct sweep *s);
/* Read one sweep of a results file's "sweeps"; file names it in messages.  -1 and e if damaged. */
int sweep_from_json(json_t *o, const char *file, struct sweep *s, struct error *e);

/*
 * The recorded sweep of lesson over sizes or blocks, from file if given,
 * else the first file of data/results/ that holds one.  -1 and e when
 * there is none (e says what to run).
 */
int sweep_find_recorded(const char *file, const char *lesson, enum sweep_over over, struct sweep *s,
    struct error *e);

/*
 * Put s into the results file at path, recorded on the same GPU: it
 * replaces a sweep of the same lesson over the same thing, the rest of
 * the file stays as it was; the GPU's L2 size is added to its "gpu" where
 * missing.  Atomic.  -1 and e when the file cannot be read, is another
 * GPU's, or cannot be written.
 */
int sweep_record(const char *path, const struct sweep *s, struct error *e);

/*
 * The chart: x the size (or block) in powers of two, y the rate in powers
 * of ten, one mark per step (canvas_mark of its number; '*' where
 * several share a cell), its points joined by dots, and for a size sweep
 * with the GPU's L2 size known, a vertical 'L2' line at each size where
 * a drawn step's working set fills the L2.  height rows of plot, then the
 * axis and its labels; at most width columns.  Only steps whose show[i]
 * is true (NULL: all).  *markers (may be NULL): the L2 lines drawn.
 */
void sweep_draw(const struct sweep *s, const bool *show, int width, int height, bool unicode,
    struct canvas_lines *out, int *markers);
/*
 * The same with step focus (an index into s->steps) picked out of all of
 * them: its points drawn with its mark, every other step's points as dots
 * for the shape around it (no joining dots: a dot is a point), the axes
 * those of all the steps (they stay put as the focus moves), the L2 lines
 * the focused step's.
 */
void sweep_draw_focus(const struct sweep *s, int focus, int width, int height, bool unicode,
    struct canvas_lines *out, int *markers);

/*
 * The sizes where a step's working set fills the L2: distinct ones (within
 * a percent), up to max, in ascending order, of the shown steps.  0 when
 * the L2 size is unknown or it is a block sweep.
 */
int sweep_l2_sizes(const struct sweep *s, const bool *show, double *sizes, int max);

/*
 * The launch floor of a size sweep: the shortest median time of the
 * shown steps' points, in ms; 0 for a block sweep, or where the steps
 * are not all counted in GB/s.  No run of a step moves more than its
 * bytes per element times the size in that time, so its points lie on
 * or under the rising line of that rate, which the chart draws: at the
 * small sizes, where every run takes about that long, they ride it, and
 * launching the kernel, not L2, sets the rate there.
 */
double sweep_launch_floor_ms(const struct sweep *s, const bool *show);

/* The unit of the chart's y axis: the steps' own, or NULL when they differ. */
const char *sweep_unit(const struct sweep *s);

#endif

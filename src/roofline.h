/* A roofline drawn in characters: log-log axes, the roofs of a GPU, and each step as a labelled point. */
#ifndef CUDATUTOR_ROOFLINE_H
#define CUDATUTOR_ROOFLINE_H

#include <stdbool.h>

#include "canvas.h"
#include "roofs.h"

/* One point: where a step (or a student's kernel) stands. */
struct roofline_point {
	char mark;			/* the character drawn: '1'..'9', 'a'.., 'Y' for yours */
	double intensity;		/* FLOP per byte of device memory; > 0 to be drawn */
	double gflops;			/* achieved, GFLOP/s; > 0 to be drawn */
	bool other;			/* another GPU's: drawn as '+', after this GPU's, in the nearest free cell */
	/*
	 * Set by drawing, for this GPU's points: the mark drawn in the cell
	 * the point falls in, its own or that of the first point there (0:
	 * not drawn); and on that first point, how many share the cell.
	 */
	char drawn;
	int here;
};

/*
 * The chart as lines of UTF-8 (unicode: Braille dots for the roofs, box
 * drawing for the axes; else ASCII), each at most width columns, height
 * rows of plot plus two of x axis.  Axes: FLOP per byte across, GFLOP/s
 * up, both in powers of ten, the range chosen to hold every point, the
 * ridge and the roofs.  The measured roofs are drawn solid, the
 * theoretical ones dotted; the ridge point is marked under the x axis.
 * Each of this GPU's points stays in the cell its figures put it in:
 * where several fall in one cell, the first one's mark is drawn there
 * once, followed by "×n" (ASCII "xn") where the cells to its right are
 * free, and each point's drawn and here say which (roofline_spots puts
 * it in words).  Another GPU's point whose cell is taken moves to the
 * nearest free one (a few columns aside, or a row up or down).  Points
 * that cannot be placed (no intensity or no rate, or no free cell near)
 * are left out; *placed (may be NULL) counts those drawn.
 */
void roofline_draw(const struct gpu_roofs *r, struct roofline_point *p, int n, int width, int height,
    bool unicode, struct canvas_lines *out, int *placed);
/*
 * The same, for steps that run on tensor cores (tensor): over the FP32
 * roof the BF16 tensor roof (the measured ceiling, solid; else the spec's,
 * dotted), the y axis up to it, its ridge marked beside the FP32 one, and
 * "TENSOR" over its flat top at the right.
 */
void roofline_draw_roofs(const struct gpu_roofs *r, bool tensor, struct roofline_point *p, int n, int width,
    int height, bool unicode, struct canvas_lines *out, int *placed);

/*
 * The cells of a drawn chart that hold several of this GPU's points, in
 * words: "Steps at one spot: 1×4 (1 4 d g); 5×2 (5 6)" (translated;
 * ASCII 'x' unless unicode).  NULL where every point has a cell of its own.
 */
char *roofline_spots(const struct roofline_point *p, int n, bool unicode);

#endif

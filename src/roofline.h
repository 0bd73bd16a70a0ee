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
};

/*
 * The chart as lines of UTF-8 (unicode: Braille dots for the roofs, box
 * drawing for the axes; else ASCII), each at most width columns, height
 * rows of plot plus two of x axis.  Axes: FLOP per byte across, GFLOP/s
 * up, both in powers of ten, the range chosen to hold every point, the
 * ridge and the roofs.  The measured roofs are drawn solid, the
 * theoretical ones dotted; the ridge point is marked under the x axis.
 * A point whose place is taken moves to the nearest free cell (a few
 * columns aside, or a row up or down).  Points that cannot be placed (no
 * intensity or no rate, or no free cell near) are left out; *placed (may
 * be NULL) counts those drawn.
 */
void roofline_draw(const struct gpu_roofs *r, const struct roofline_point *p, int n, int width, int height,
    bool unicode, struct canvas_lines *out, int *placed);
/*
 * The same, for steps that run on tensor cores (tensor): over the FP32
 * roof the BF16 tensor roof (the measured ceiling, solid; else the spec's,
 * dotted), the y axis up to it, its ridge marked beside the FP32 one, and
 * "TENSOR" over its flat top at the right.
 */
void roofline_draw_roofs(const struct gpu_roofs *r, bool tensor, const struct roofline_point *p, int n, int width,
    int height, bool unicode, struct canvas_lines *out, int *placed);

#endif

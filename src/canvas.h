/* The character canvas the charts are drawn on: a grid of cells on log axes, its y labels, axis and x labels. */
#ifndef CUDATUTOR_CANVAS_H
#define CUDATUTOR_CANVAS_H

#include <stdbool.h>

/* A chart drawn: lines of UTF-8, the y labels and axis included. */
struct canvas_lines {
	int nlines;
	char **lines;
};
void canvas_lines_free(struct canvas_lines *c);

/* The mark of step number k (from 1) on a chart and its legend: 1-9, then a-z; '?' past those. */
char canvas_mark(int k);

/*
 * One cell of the plot: Braille dots (drawn only in unicode), or a
 * character drawn over them.  In unicode two characters are drawn as
 * their box-drawing twins: '.' (a joining dot) as U+00B7 and '|' (a
 * vertical marker line) as U+250A.  CANVAS_TIMES, the "×" of a count
 * ("1×4": four points in one cell), is U+00D7 in unicode, else 'x'.
 */
#define CANVAS_TIMES '\x01'
struct canvas_cell {
	unsigned char dots;		/* Braille bits, U+2800 + dots */
	char ch;			/* non-zero: drawn instead (a point, a line, a label) */
};

/*
 * w x h cells of plot, label_cols columns left of them for the y labels
 * and the axis.  The axes run from xmin to xmax across and from ymin up
 * to ymax, in whatever log units the chart chooses (the caller sets them).
 */
struct canvas {
	int w, h;
	int label_cols;
	double xmin, xmax, ymin, ymax;
	bool unicode;
	struct canvas_cell *c;
	char (*ylabel)[16];		/* each row's label, "" for none; a row with one gets a tick */
};
/* The cells and labels, all empty; w and h as given (the caller keeps them sensible). */
void canvas_init(struct canvas *cv, int w, int h, int label_cols, bool unicode);
void canvas_free(struct canvas *cv);
/* The cell at column x, row y (0 at the top), or NULL outside the plot. */
struct canvas_cell *canvas_at(struct canvas *cv, int x, int y);
/* Dot (px, py) of the 2 x 4 dots each cell holds; outside the plot nothing. */
void canvas_dot(struct canvas *cv, int px, int py);

/*
 * The axes where each cell spans a stretch of them (the roofline): the
 * column holding x (not clamped: w at xmax), the row of dots holding y
 * (0 at the top, 4h at ymin; fractional) and the cell row holding it,
 * and the x at the middle of a column, counting per_cell columns to a
 * cell (2: the dot columns, 1: the cells).
 */
int canvas_col(const struct canvas *cv, double x);
double canvas_dot_row(const struct canvas *cv, double y);
int canvas_row(const struct canvas *cv, double y);
double canvas_x_at(const struct canvas *cv, double column, int per_cell);
/*
 * The axes where values sit on cells, the ends on the first and last
 * (the sweep): the nearest column and row, clamped to the plot.
 */
int canvas_sample_col(const struct canvas *cv, double x);
int canvas_sample_row(const struct canvas *cv, double y);

/* A y label (at most label_cols - 1 columns) on row y, with its tick; a later one on the row replaces it. */
void canvas_ylabel(struct canvas *cv, int y, const char *label);

/*
 * The plot's rows into out, each led by its label, right-aligned, and the
 * axis (a tick where there is a label); then the x axis, label (may be
 * "") in the corner's label column, with a mark (U+25B2, '^') under each
 * of the nmarks columns marks.
 */
void canvas_emit_rows(const struct canvas *cv, struct canvas_lines *out);
void canvas_emit_axis(const struct canvas *cv, const char *label, const int *marks, int nmarks,
    struct canvas_lines *out);

/*
 * A line of labels under or over the plot: begun blank, each label put
 * centred on a plot column where it overlaps none put before it (it
 * returns the column where the next may start: free_from, unchanged when
 * it did not fit, for the next call), then emitted without its trailing
 * blanks (and freed).
 */
char *canvas_label_line(const struct canvas *cv);
int canvas_put_label(const struct canvas *cv, char *line, int col, const char *text, int free_from);
void canvas_emit_label_line(const struct canvas *cv, char *line, struct canvas_lines *out);

#endif

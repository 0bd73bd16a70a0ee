/* A roofline drawn in characters (see roofline.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canvas.h"
#include "i18n.h"
#include "roofline.h"
#include "util.h"

/* Columns of the y labels ("100T") and the axis beside them. */
#define LABEL_COLS 5

/*
 * One roof: DRAM's slope (GB/s x FLOP/byte = GFLOP/s) up to the ridge,
 * then the arithmetic's flat top (FP32's, or the tensor cores').  Dotted
 * draws every other pair of dot columns; in ASCII flat is the top's
 * character.
 */
static void draw_roof(struct canvas *cv, double gbps, double gflops, bool dotted, char flat)
{
	double ridge = log10(gflops / gbps);
	int last = -1;

	for (int px = 0; px < 2 * cv->w; px++) {
		double x = canvas_x_at(cv, px, 2);
		double y = x < ridge ? log10(gbps) + x : log10(gflops);
		int py = (int)floor(canvas_dot_row(cv, y));

		/* dotted: one dot in six columns, unjoined, so that it never reads as a second solid line */
		if (dotted && (cv->unicode ? px % 6 != 0 : (px / 2) % 2 == 1)) {
			last = -1;
			continue;
		}
		if (!cv->unicode) {
			struct canvas_cell *c = canvas_at(cv, px / 2, canvas_row(cv, y));

			if (c != NULL && c->ch == 0 && px % 2 == 0)
				c->ch = dotted ? '.' : x < ridge ? '/' : flat;
			continue;
		}
		/* join a steep stretch to the column before, so that the line has no gaps */
		if (!dotted) {
			int from = py, to = py;

			if (last >= 0 && last < py)
				from = last + 1;
			else if (last > py)
				to = last - 1;
			for (int q = from; q <= to; q++)
				canvas_dot(cv, px, q);
		} else {
			canvas_dot(cv, px, py);
		}
		last = py;
	}
}

/* A cell a point may take: empty, or holding only a roof. */
static bool free_for_point(const struct canvas_cell *c)
{
	return c != NULL && (c->ch == 0 || c->ch == '/' || c->ch == '-' || c->ch == '=' || c->ch == '.');
}

/* The cell a point's figures put it in, kept inside the plot. */
static void point_cell(const struct canvas *cv, const struct roofline_point *p, int *x, int *y)
{
	*x = canvas_col(cv, log10(p->intensity));
	*y = canvas_row(cv, log10(p->gflops));
	if (*x >= cv->w)
		*x = cv->w - 1;
	if (*y >= cv->h)
		*y = cv->h - 1;
}

/*
 * Another GPU's point: its cell, or when that is taken the nearest free
 * cell on its row (a few columns either side), then on the rows above and
 * below: false if none is free.
 */
static bool draw_other_point(struct canvas *cv, const struct roofline_point *p)
{
	const int rows[] = { 0, -1, 1 };
	int x, y;

	point_cell(cv, p, &x, &y);
	for (size_t r = 0; r < ARRAY_LEN(rows); r++)
		for (int d = 0; d <= 8; d++)
			for (int side = 1; side >= -1; side -= 2) {
				struct canvas_cell *c = canvas_at(cv, x + side * d, y + rows[r]);

				if (free_for_point(c)) {
					c->ch = '+';
					return true;
				}
				if (d == 0)
					break;
			}
	return false;
}

/*
 * This GPU's points, each in the cell its figures put it in: the first in
 * a cell draws its mark, the others there are counted on it, and the
 * count follows the mark ("1×4") where the cells to its right are free.
 * A point pushed aside would look like another intensity.  The points
 * drawn, counted ones included.
 */
static int draw_own_points(struct canvas *cv, struct roofline_point *p, int n)
{
	int *cell = xcalloc((size_t)n + 1, sizeof *cell), count = 0;

	for (int i = 0; i < n; i++) {
		int x, y, first = -1;

		cell[i] = -1;
		if (p[i].other || !(p[i].intensity > 0 && p[i].gflops > 0))
			continue;
		point_cell(cv, &p[i], &x, &y);
		cell[i] = y * cv->w + x;
		for (int j = 0; j < i && first < 0; j++)
			if (p[j].here > 0 && cell[j] == cell[i])
				first = j;
		count++;
		if (first >= 0) {
			p[i].drawn = p[first].mark;
			p[first].here++;
			continue;
		}
		canvas_at(cv, x, y)->ch = p[i].mark;
		p[i].drawn = p[i].mark;
		p[i].here = 1;
	}
	for (int i = 0; i < n; i++) {
		int x = cell[i] % cv->w, y = cell[i] / cv->w, len;
		char num[16];
		bool room = true;

		if (p[i].here < 2)
			continue;
		len = snprintf(num, sizeof num, "%c%d", CANVAS_TIMES, p[i].here);
		for (int k = 1; k <= len && room; k++)
			room = free_for_point(canvas_at(cv, x + k, y));
		for (int k = 1; k <= len && room; k++) {
			canvas_at(cv, x + k, y)->ch = num[k - 1];
			canvas_at(cv, x + k, y)->dots = 0;
		}
	}
	free(cell);
	return count;
}

char *roofline_spots(const struct roofline_point *p, int n, bool unicode)
{
	struct strbuf b = { 0 };

	for (int i = 0; i < n; i++) {
		struct strbuf steps = { 0 };
		char label[32];

		if (p[i].other || p[i].here < 2)
			continue;
		for (int j = 0; j < n; j++)
			if (!p[j].other && p[j].drawn == p[i].mark)
				strbuf_addf(&steps, " %c", p[j].mark);
		snprintf(label, sizeof label, "%c%s%d", p[i].mark, unicode ? "\xc3\x97" : "x", p[i].here);
		/* TRANSLATORS: before "1×4 (1 4 d g)": step 1's mark, how many steps share its cell, their marks */
		strbuf_addf(&b, "%s", b.s == NULL ? _("Steps at one spot: ") : _("; "));
		strbuf_addf(&b, "%s (%s)", label, steps.s + 1);
		strbuf_free(&steps);
	}
	return b.s;
}

/* "100T", "10G", "0.1G": a power of ten of GFLOP/s in at most LABEL_COLS - 1 characters. */
static void y_label(int decade, char *buf, size_t len)
{
	if (decade >= 6)
		snprintf(buf, len, "%.0fP", pow(10, decade - 6));
	else if (decade >= 3)
		snprintf(buf, len, "%.0fT", pow(10, decade - 3));
	else if (decade >= 0)
		snprintf(buf, len, "%.0fG", pow(10, decade));
	else
		snprintf(buf, len, "%.0fM", pow(10, decade + 3));
}

/* "0.01", "1", "100": a power of ten of FLOP per byte. */
static void x_label(int decade, char *buf, size_t len)
{
	if (decade >= 0)
		snprintf(buf, len, "%.0f", pow(10, decade));
	else
		snprintf(buf, len, "%.*f", -decade, pow(10, decade));
}

/*
 * The ranges: across, whole decades holding every point and two decades
 * either side of the ridge; up, from a whole decade under the lowest point
 * or roof to a little over the highest roof or point.
 */
static void ranges(struct canvas *cv, const struct roofline_point *p, int n, double gbps, double gflops,
    double ridge_theoretical, double ridge_tensor, double top)
{
	double ridge = gflops / gbps;
	double xlo = ridge / 100, xhi = fmax(ridge, ridge_tensor) * 10, ylo = gflops, yhi = fmax(gflops, top);

	if (ridge_theoretical > 0) {
		xlo = fmin(xlo, ridge_theoretical / 100);
		xhi = fmax(xhi, ridge_theoretical * 10);
	}
	for (int i = 0; i < n; i++) {
		if (!(p[i].intensity > 0 && p[i].gflops > 0))
			continue;
		xlo = fmin(xlo, p[i].intensity);
		xhi = fmax(xhi, p[i].intensity);
		ylo = fmin(ylo, p[i].gflops);
		yhi = fmax(yhi, p[i].gflops);
	}
	cv->xmin = floor(log10(xlo) + 1e-9);
	cv->xmax = ceil(log10(xhi) - 1e-9);
	if (cv->xmax - cv->xmin < 1)
		cv->xmax = cv->xmin + 1;
	/* the slope where the plot begins is the lowest a roof goes */
	ylo = fmin(ylo, gbps * pow(10, cv->xmin));
	cv->ymin = floor(log10(ylo) + 1e-9);
	cv->ymax = log10(yhi * 1.25);
}

/*
 * The name of a flat roof, over its line at the right (under it where the
 * line is the top row), in cells no point holds; nothing where none are free.
 */
static void label_roof(struct canvas *cv, double gflops, const char *name)
{
	int len = (int)strlen(name), y = canvas_row(cv, log10(gflops));

	y = y > 0 ? y - 1 : y + 1;
	for (int x = cv->w - len - 1; x >= cv->w / 2; x--) {
		bool room = true;

		for (int k = -1; k <= len && room; k++) {
			struct canvas_cell *c = canvas_at(cv, x + k, y);

			room = c != NULL && (c->ch == 0 || (k >= 0 && k < len && free_for_point(c)));
		}
		if (!room)
			continue;
		for (int k = 0; k < len; k++) {
			canvas_at(cv, x + k, y)->ch = name[k];
			canvas_at(cv, x + k, y)->dots = 0;
		}
		return;
	}
}

/* The plot's rows, each with its y label where a decade falls, the axis with the ridges, and the x labels. */
static void render(struct canvas *cv, double ridge, double ridge2, struct canvas_lines *out)
{
	int ridges[2] = { canvas_col(cv, log10(ridge)), ridge2 > 0 ? canvas_col(cv, log10(ridge2)) : -1 };
	char label[16], *xl;

	for (int d = (int)cv->ymin + 1; d <= (int)floor(cv->ymax); d++) {
		y_label(d, label, sizeof label);
		canvas_ylabel(cv, canvas_row(cv, d), label);
	}
	canvas_emit_rows(cv, out);
	y_label((int)cv->ymin, label, sizeof label);
	canvas_emit_axis(cv, label, ridges, 2, out);

	/* the x labels under their decades, none over another */
	xl = canvas_label_line(cv);
	for (int d = (int)cv->xmin, free_from = 0; d <= (int)cv->xmax; d++) {
		x_label(d, label, sizeof label);
		free_from = canvas_put_label(cv, xl, canvas_col(cv, d), label, free_from);
	}
	canvas_emit_label_line(cv, xl, out);
}

void roofline_draw(const struct gpu_roofs *r, struct roofline_point *p, int n, int width, int height,
    bool unicode, struct canvas_lines *out, int *placed)
{
	roofline_draw_roofs(r, false, p, n, width, height, unicode, out, placed);
}

/* The tensor roof over the others: solid where measured (the spec's dotted above it), else the spec's dotted. */
static void draw_tensor_roof(struct canvas *cv, const struct gpu_roofs *r, double gbps)
{
	bool measured;
	double tensor = roofs_tensor_roof(r, &measured);

	if (measured && r->tensor_spec_gflops > 0 && r->dram_theoretical_gbps > 0)
		draw_roof(cv, r->dram_theoretical_gbps, r->tensor_spec_gflops, true, '=');
	draw_roof(cv, gbps, tensor, !measured, '=');
}

void roofline_draw_roofs(const struct gpu_roofs *r, bool tensor, struct roofline_point *p, int n, int width,
    int height, bool unicode, struct canvas_lines *out, int *placed)
{
	double gbps = r->dram_measured_gbps > 0 ? r->dram_measured_gbps : r->dram_theoretical_gbps;
	double gflops = r->fp32_measured_gflops > 0 ? r->fp32_measured_gflops : r->fp32_theoretical_gflops;
	bool both = r->dram_measured_gbps > 0 && r->fp32_measured_gflops > 0 && r->dram_theoretical_gbps > 0 &&
	    r->fp32_theoretical_gflops > 0;
	double tensor_ridge = tensor ? roofs_tensor_ridge(r) : 0;
	double top = fmax(r->fp32_theoretical_gflops, tensor_ridge > 0 ? fmax(r->tensor_spec_gflops,
	    r->tensor_measured_gflops) : 0);
	struct canvas cv;
	int count = 0;

	memset(out, 0, sizeof *out);
	if (placed != NULL)
		*placed = 0;
	for (int i = 0; i < n; i++) {
		p[i].drawn = 0;
		p[i].here = 0;
	}
	if (!r->have || gbps <= 0 || gflops <= 0)
		return;
	canvas_init(&cv, width - LABEL_COLS - 1 < 20 ? 20 : width - LABEL_COLS - 1, height < 6 ? 6 : height, LABEL_COLS,
	    unicode);
	ranges(&cv, p, n, gbps, gflops, both ? roofs_ridge(r, false) : 0, tensor_ridge, top);
	if (both)
		draw_roof(&cv, r->dram_theoretical_gbps, r->fp32_theoretical_gflops, true, '-');
	draw_roof(&cv, gbps, gflops, false, '-');
	if (tensor_ridge > 0)
		draw_tensor_roof(&cv, r, gbps);
	/* this GPU's points first; another GPU's then take the free cells nearest theirs */
	count = draw_own_points(&cv, p, n);
	for (int i = 0; i < n; i++)
		if (p[i].intensity > 0 && p[i].gflops > 0 && p[i].other && draw_other_point(&cv, &p[i]))
			count++;
	/* two flat roofs: the upper named where it ends (capitals and no digits: never a step's mark) */
	if (tensor_ridge > 0)
		label_roof(&cv, roofs_tensor_roof(r, NULL), "TENSOR");
	render(&cv, gflops / gbps, tensor_ridge, out);
	canvas_free(&cv);
	if (placed != NULL)
		*placed = count;
}

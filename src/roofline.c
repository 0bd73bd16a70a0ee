/* A roofline drawn in characters (see roofline.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roofline.h"
#include "util.h"

/* Columns of the y labels ("100T") and the axis beside them. */
#define LABEL_COLS 5

/* One character cell of the plot: Braille dots, or a character drawn over them. */
struct cell {
	unsigned char dots;		/* Braille bits, U+2800 + dots */
	char ch;			/* non-zero: drawn instead (a point, or ASCII) */
};

struct canvas {
	int w, h;			/* cells */
	double xmin, xmax, ymin, ymax;	/* log10 of FLOP/byte and of GFLOP/s */
	struct cell *c;
	bool unicode;
};

char roofline_mark(int k)
{
	if (k >= 1 && k <= 9)
		return (char)('0' + k);
	if (k >= 10 && k <= 35)
		return (char)('a' + k - 10);
	return '?';
}

static struct cell *at(struct canvas *cv, int x, int y)
{
	return x >= 0 && x < cv->w && y >= 0 && y < cv->h ? &cv->c[y * cv->w + x] : NULL;
}

/* Dot (px, py) of the 2 x 4 dots a cell holds; outside the plot nothing. */
static void dot(struct canvas *cv, int px, int py)
{
	static const unsigned char bit[4][2] = { { 0x01, 0x08 }, { 0x02, 0x10 }, { 0x04, 0x20 },
	    { 0x40, 0x80 } };
	struct cell *c = at(cv, px / 2, py / 4);

	if (c != NULL && px >= 0 && py >= 0)
		c->dots |= bit[py % 4][px % 2];
}

/* Row of dots (0 at the top, 4h at the bottom) for log10 y, and the reverse for a cell row. */
static double dot_row(const struct canvas *cv, double y)
{
	return (cv->ymax - y) / (cv->ymax - cv->ymin) * 4.0 * cv->h;
}

static double column_x(const struct canvas *cv, double column, int per_cell)
{
	return cv->xmin + (column + 0.5) / ((double)per_cell * cv->w) * (cv->xmax - cv->xmin);
}

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
		double x = column_x(cv, px, 2);
		double y = x < ridge ? log10(gbps) + x : log10(gflops);
		int py = (int)floor(dot_row(cv, y));

		/* dotted: one dot in six columns, unjoined, so that it never reads as a second solid line */
		if (dotted && (cv->unicode ? px % 6 != 0 : (px / 2) % 2 == 1)) {
			last = -1;
			continue;
		}
		if (!cv->unicode) {
			struct cell *c = at(cv, px / 2, (int)floor(dot_row(cv, y) / 4.0));

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
				dot(cv, px, q);
		} else {
			dot(cv, px, py);
		}
		last = py;
	}
}

/* A cell a point may take: empty, or holding only a roof. */
static bool free_for_point(const struct cell *c)
{
	return c != NULL && (c->ch == 0 || c->ch == '/' || c->ch == '-' || c->ch == '=' || c->ch == '.');
}

/*
 * The cell of a point; when another point holds it, the nearest free cell
 * on its row (a few columns either side), then on the rows above and
 * below: false if none is free.
 */
static bool draw_point(struct canvas *cv, const struct roofline_point *p)
{
	int x = (int)floor((log10(p->intensity) - cv->xmin) / (cv->xmax - cv->xmin) * cv->w);
	int y = (int)floor(dot_row(cv, log10(p->gflops)) / 4.0);
	const int rows[] = { 0, -1, 1 };

	if (x >= cv->w)
		x = cv->w - 1;
	if (y >= cv->h)
		y = cv->h - 1;
	for (size_t r = 0; r < ARRAY_LEN(rows); r++)
		for (int d = 0; d <= 8; d++)
			for (int side = 1; side >= -1; side -= 2) {
				struct cell *c = at(cv, x + side * d, y + rows[r]);

				if (free_for_point(c)) {
					c->ch = p->other ? '+' : p->mark;
					return true;
				}
				if (d == 0)
					break;
			}
	return false;
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

static void emit(struct roofline_chart *out, struct strbuf *b)
{
	out->lines = xrealloc(out->lines, (size_t)(out->nlines + 1) * sizeof *out->lines);
	out->lines[out->nlines++] = b->s != NULL ? b->s : xstrdup("");
	memset(b, 0, sizeof *b);
}

/*
 * The name of a flat roof, over its line at the right (under it where the
 * line is the top row), in cells no point holds; nothing where none are free.
 */
static void label_roof(struct canvas *cv, double gflops, const char *name)
{
	int len = (int)strlen(name), y = (int)floor(dot_row(cv, log10(gflops)) / 4.0);

	y = y > 0 ? y - 1 : y + 1;
	for (int x = cv->w - len - 1; x >= cv->w / 2; x--) {
		bool room = true;

		for (int k = -1; k <= len && room; k++) {
			struct cell *c = at(cv, x + k, y);

			room = c != NULL && (c->ch == 0 || (k >= 0 && k < len && free_for_point(c)));
		}
		if (!room)
			continue;
		for (int k = 0; k < len; k++) {
			at(cv, x + k, y)->ch = name[k];
			at(cv, x + k, y)->dots = 0;
		}
		return;
	}
}

/* The plot's rows, each with its y label where a decade falls, the axis, and the x labels. */
static void render(struct canvas *cv, double ridge, double ridge2, struct roofline_chart *out)
{
	struct strbuf b = { 0 };
	int ridge_col = (int)floor((log10(ridge) - cv->xmin) / (cv->xmax - cv->xmin) * cv->w);
	int ridge2_col = ridge2 > 0 ? (int)floor((log10(ridge2) - cv->xmin) / (cv->xmax - cv->xmin) * cv->w) : -1;
	char *xl = xcalloc((size_t)cv->w + LABEL_COLS + 16, 1);

	for (int y = 0; y < cv->h; y++) {
		char label[16] = "";
		bool tick = false;

		for (int d = (int)cv->ymin; d <= (int)floor(cv->ymax); d++)
			if ((int)floor(dot_row(cv, d) / 4.0) == y && d > (int)cv->ymin) {
				y_label(d, label, sizeof label);
				tick = true;
			}
		strbuf_addf(&b, "%*s", LABEL_COLS - 1, label);
		strbuf_add_utf8(&b, cv->unicode ? (tick ? 0x2524 : 0x2502) : (tick ? '+' : '|'));
		for (int x = 0; x < cv->w; x++) {
			struct cell *c = at(cv, x, y);

			if (c->ch != 0)
				strbuf_add_utf8(&b, (unsigned char)c->ch);
			else if (cv->unicode && c->dots != 0)
				strbuf_add_utf8(&b, 0x2800 + c->dots);
			else
				strbuf_add_utf8(&b, ' ');
		}
		emit(out, &b);
	}
	{
		char label[16];

		y_label((int)cv->ymin, label, sizeof label);
		strbuf_addf(&b, "%*s", LABEL_COLS - 1, label);
	}
	strbuf_add_utf8(&b, cv->unicode ? 0x2514 : '+');
	for (int x = 0; x < cv->w; x++)
		strbuf_add_utf8(&b, x == ridge_col || x == ridge2_col ? (cv->unicode ? 0x25b2 : '^') :
		    (cv->unicode ? 0x2500 : '-'));
	emit(out, &b);

	/* the x labels under their decades, none over another */
	memset(xl, ' ', (size_t)cv->w + LABEL_COLS);
	for (int d = (int)cv->xmin, free_from = 0; d <= (int)cv->xmax; d++) {
		char label[16];
		int col = LABEL_COLS + (int)floor((d - cv->xmin) / (cv->xmax - cv->xmin) * cv->w);
		int len, start;

		x_label(d, label, sizeof label);
		len = (int)strlen(label);
		start = col - len / 2;
		if (start + len > cv->w + LABEL_COLS)
			start = cv->w + LABEL_COLS - len;
		if (start < free_from)
			continue;
		memcpy(xl + start, label, (size_t)len);
		free_from = start + len + 1;
	}
	{
		int end = cv->w + LABEL_COLS;

		while (end > 0 && xl[end - 1] == ' ')
			end--;
		xl[end] = '\0';
	}
	b.s = xl;
	emit(out, &b);
}

void roofline_draw(const struct gpu_roofs *r, const struct roofline_point *p, int n, int width, int height,
    bool unicode, struct roofline_chart *out, int *placed)
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

void roofline_draw_roofs(const struct gpu_roofs *r, bool tensor, const struct roofline_point *p, int n, int width,
    int height, bool unicode, struct roofline_chart *out, int *placed)
{
	double gbps = r->dram_measured_gbps > 0 ? r->dram_measured_gbps : r->dram_theoretical_gbps;
	double gflops = r->fp32_measured_gflops > 0 ? r->fp32_measured_gflops : r->fp32_theoretical_gflops;
	bool both = r->dram_measured_gbps > 0 && r->fp32_measured_gflops > 0 && r->dram_theoretical_gbps > 0 &&
	    r->fp32_theoretical_gflops > 0;
	double tensor_ridge = tensor ? roofs_tensor_ridge(r) : 0;
	double top = fmax(r->fp32_theoretical_gflops, tensor_ridge > 0 ? fmax(r->tensor_spec_gflops,
	    r->tensor_measured_gflops) : 0);
	struct canvas cv = { 0 };
	int count = 0;

	memset(out, 0, sizeof *out);
	if (placed != NULL)
		*placed = 0;
	if (!r->have || gbps <= 0 || gflops <= 0)
		return;
	cv.w = width - LABEL_COLS - 1;
	cv.h = height;
	if (cv.w < 20)
		cv.w = 20;
	if (cv.h < 6)
		cv.h = 6;
	cv.unicode = unicode;
	cv.c = xcalloc((size_t)cv.w * (size_t)cv.h, sizeof *cv.c);
	ranges(&cv, p, n, gbps, gflops, both ? roofs_ridge(r, false) : 0, tensor_ridge, top);
	if (both)
		draw_roof(&cv, r->dram_theoretical_gbps, r->fp32_theoretical_gflops, true, '-');
	draw_roof(&cv, gbps, gflops, false, '-');
	if (tensor_ridge > 0)
		draw_tensor_roof(&cv, r, gbps);
	/* this GPU's points first; another GPU's then take the free cells nearest theirs */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < n; i++)
			if (p[i].intensity > 0 && p[i].gflops > 0 && p[i].other == (pass == 1) && draw_point(&cv, &p[i]))
				count++;
	/* two flat roofs: the upper named where it ends (capitals and no digits: never a step's mark) */
	if (tensor_ridge > 0)
		label_roof(&cv, roofs_tensor_roof(r, NULL), "TENSOR");
	render(&cv, gflops / gbps, tensor_ridge, out);
	free(cv.c);
	if (placed != NULL)
		*placed = count;
}

void roofline_chart_free(struct roofline_chart *c)
{
	for (int i = 0; i < c->nlines; i++)
		free(c->lines[i]);
	free(c->lines);
	memset(c, 0, sizeof *c);
}

/* The character canvas the charts are drawn on (see canvas.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canvas.h"
#include "util.h"

void canvas_lines_free(struct canvas_lines *c)
{
	for (int i = 0; i < c->nlines; i++)
		free(c->lines[i]);
	free(c->lines);
	memset(c, 0, sizeof *c);
}

char canvas_mark(int k)
{
	if (k >= 1 && k <= 9)
		return (char)('0' + k);
	if (k >= 10 && k <= 35)
		return (char)('a' + k - 10);
	return '?';
}

/* One line more of out, the buffer's (b is left empty). */
static void emit(struct canvas_lines *out, struct strbuf *b)
{
	out->lines = xrealloc(out->lines, (size_t)(out->nlines + 1) * sizeof *out->lines);
	out->lines[out->nlines++] = b->s != NULL ? b->s : xstrdup("");
	memset(b, 0, sizeof *b);
}

void canvas_init(struct canvas *cv, int w, int h, int label_cols, bool unicode)
{
	memset(cv, 0, sizeof *cv);
	cv->w = w;
	cv->h = h;
	cv->label_cols = label_cols;
	cv->unicode = unicode;
	cv->c = xcalloc((size_t)w * (size_t)h, sizeof *cv->c);
	cv->ylabel = xcalloc((size_t)h, sizeof *cv->ylabel);
}

void canvas_free(struct canvas *cv)
{
	free(cv->c);
	free(cv->ylabel);
	memset(cv, 0, sizeof *cv);
}

struct canvas_cell *canvas_at(struct canvas *cv, int x, int y)
{
	return x >= 0 && x < cv->w && y >= 0 && y < cv->h ? &cv->c[y * cv->w + x] : NULL;
}

void canvas_dot(struct canvas *cv, int px, int py)
{
	static const unsigned char bit[4][2] = { { 0x01, 0x08 }, { 0x02, 0x10 }, { 0x04, 0x20 },
	    { 0x40, 0x80 } };
	struct canvas_cell *c = canvas_at(cv, px / 2, py / 4);

	if (c != NULL && px >= 0 && py >= 0)
		c->dots |= bit[py % 4][px % 2];
}

/* ---- the axes ---------------------------------------------------------------- */

int canvas_col(const struct canvas *cv, double x)
{
	return (int)floor((x - cv->xmin) / (cv->xmax - cv->xmin) * cv->w);
}

double canvas_dot_row(const struct canvas *cv, double y)
{
	return (cv->ymax - y) / (cv->ymax - cv->ymin) * 4.0 * cv->h;
}

int canvas_row(const struct canvas *cv, double y)
{
	return (int)floor(canvas_dot_row(cv, y) / 4.0);
}

double canvas_x_at(const struct canvas *cv, double column, int per_cell)
{
	return cv->xmin + (column + 0.5) / ((double)per_cell * cv->w) * (cv->xmax - cv->xmin);
}

int canvas_sample_col(const struct canvas *cv, double x)
{
	int c = (int)lround((x - cv->xmin) / (cv->xmax - cv->xmin) * (cv->w - 1));

	return c < 0 ? 0 : c >= cv->w ? cv->w - 1 : c;
}

int canvas_sample_row(const struct canvas *cv, double y)
{
	int r = (int)lround((cv->ymax - y) / (cv->ymax - cv->ymin) * (cv->h - 1));

	return r < 0 ? 0 : r >= cv->h ? cv->h - 1 : r;
}

/* ---- the rows and the axis --------------------------------------------------- */

void canvas_ylabel(struct canvas *cv, int y, const char *label)
{
	if (y >= 0 && y < cv->h)
		snprintf(cv->ylabel[y], sizeof cv->ylabel[y], "%s", label);
}

/* A cell as it is drawn: its character (or its twin), else its dots, else a blank. */
static void add_cell(struct strbuf *b, const struct canvas_cell *c, bool unicode)
{
	if (c->ch == '|' && unicode)
		strbuf_add_utf8(b, 0x250a);
	else if (c->ch == '.' && unicode)
		strbuf_add_utf8(b, 0x00b7);
	else if (c->ch == CANVAS_TIMES)
		strbuf_add_utf8(b, unicode ? 0x00d7 : 'x');
	else if (c->ch != 0)
		strbuf_add_utf8(b, (unsigned char)c->ch);
	else if (unicode && c->dots != 0)
		strbuf_add_utf8(b, 0x2800 + c->dots);
	else
		strbuf_add_utf8(b, ' ');
}

void canvas_emit_rows(const struct canvas *cv, struct canvas_lines *out)
{
	struct strbuf b = { 0 };

	for (int y = 0; y < cv->h; y++) {
		bool tick = cv->ylabel[y][0] != '\0';

		strbuf_addf(&b, "%*s", cv->label_cols - 1, cv->ylabel[y]);
		strbuf_add_utf8(&b, cv->unicode ? (tick ? 0x2524 : 0x2502) : (tick ? '+' : '|'));
		for (int x = 0; x < cv->w; x++)
			add_cell(&b, &cv->c[y * cv->w + x], cv->unicode);
		emit(out, &b);
	}
}

void canvas_emit_axis(const struct canvas *cv, const char *label, const int *marks, int nmarks,
    struct canvas_lines *out)
{
	struct strbuf b = { 0 };

	strbuf_addf(&b, "%*s", cv->label_cols - 1, label);
	strbuf_add_utf8(&b, cv->unicode ? 0x2514 : '+');
	for (int x = 0; x < cv->w; x++) {
		bool mark = false;

		for (int k = 0; k < nmarks; k++)
			mark = mark || marks[k] == x;
		strbuf_add_utf8(&b, mark ? (cv->unicode ? 0x25b2 : '^') : (cv->unicode ? 0x2500 : '-'));
	}
	emit(out, &b);
}

/* ---- the lines of labels ----------------------------------------------------- */

char *canvas_label_line(const struct canvas *cv)
{
	char *line = xcalloc((size_t)cv->w + (size_t)cv->label_cols + 16, 1);

	memset(line, ' ', (size_t)cv->w + (size_t)cv->label_cols);
	return line;
}

int canvas_put_label(const struct canvas *cv, char *line, int col, const char *text, int free_from)
{
	int w = cv->w + cv->label_cols, len = (int)strlen(text), start = cv->label_cols + col - len / 2;

	if (start + len > w)
		start = w - len;
	if (start < free_from || start < 0)
		return free_from;
	memcpy(line + start, text, (size_t)len);
	return start + len + 1;
}

void canvas_emit_label_line(const struct canvas *cv, char *line, struct canvas_lines *out)
{
	struct strbuf b = { 0 };
	int end = cv->w + cv->label_cols;

	while (end > 0 && line[end - 1] == ' ')
		end--;
	line[end] = '\0';
	b.s = line;
	emit(out, &b);
}

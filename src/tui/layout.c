/* Layout maths of the tutor's screens, as pure functions: no curses, no terminal. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "compare.h"
#include "tui/layout.h"
#include "util.h"

/* ---- characters and strings ---------------------------------------------- */

int layout_utf8_next(const char *s, size_t n, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t c, min;
	size_t need;

	if (n == 0) {
		*cp = 0;
		return 0;
	}
	c = u[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		need = 1;
		c &= 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		need = 2;
		c &= 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 3;
		c &= 0x07;
		min = 0x10000;
	} else {
		*cp = 0xfffd;
		return 1;
	}
	if (need >= n) {
		*cp = 0xfffd;
		return 1;
	}
	for (size_t k = 1; k <= need; k++) {
		if ((u[k] & 0xc0) != 0x80) {
			*cp = 0xfffd;
			return 1;
		}
		c = (c << 6) | (u[k] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) {
		*cp = 0xfffd;
		return 1;
	}
	*cp = c;
	return (int)need + 1;
}

int layout_cp_width(uint32_t cp)
{
	int w;

	if (cp < 0x20 || cp == 0x7f)
		return 0;
	if (cp < 0x7f)
		return 1;
	w = wcwidth((wchar_t)cp);
	/* Unknown to this locale: the terminal will show one cell for it. */
	return w < 0 ? 1 : w;
}

int layout_width_n(const char *s, size_t n)
{
	int w = 0;
	uint32_t cp;

	for (size_t i = 0; i < n;) {
		int k = layout_utf8_next(s + i, n - i, &cp);
		w += layout_cp_width(cp);
		i += (size_t)k;
	}
	return w;
}

int layout_width(const char *s)
{
	return layout_width_n(s, strlen(s));
}

size_t layout_fit(const char *s, int w, int *used)
{
	size_t n = strlen(s), i = 0;
	int cols = 0;
	uint32_t cp;

	while (i < n) {
		int k = layout_utf8_next(s + i, n - i, &cp);
		int cw = layout_cp_width(cp);
		if (cols + cw > w)
			break;
		cols += cw;
		i += (size_t)k;
	}
	if (used != NULL)
		*used = cols;
	return i;
}

/* Bytes at the end of s that fit in w columns. */
static size_t fit_tail(const char *s, int w)
{
	size_t n = strlen(s), start = n;
	int cols = 0;

	while (start > 0) {
		size_t p = start - 1;
		uint32_t cp;
		int cw;

		while (p > 0 && ((unsigned char)s[p] & 0xc0) == 0x80)
			p--;
		layout_utf8_next(s + p, n - p, &cp);
		cw = layout_cp_width(cp);
		if (cols + cw > w)
			break;
		cols += cw;
		start = p;
	}
	return n - start;
}

char *layout_ellipsize(const char *s, int w, int middle, int unicode)
{
	const char *dots = unicode ? "\xe2\x80\xa6" : "~";
	struct strbuf b = { 0 };
	size_t head, tail;
	int room;

	if (w <= 0)
		return xstrdup("");
	if (layout_width(s) <= w)
		return xstrdup(s);
	room = w - 1;
	if (middle && room >= 4) {
		int head_w = room / 2;
		head = layout_fit(s, head_w, &head_w);
		tail = fit_tail(s, room - head_w);
		strbuf_add(&b, s, head);
		strbuf_add(&b, dots, strlen(dots));
		strbuf_add(&b, s + strlen(s) - tail, tail);
	} else {
		head = layout_fit(s, room, NULL);
		strbuf_add(&b, s, head);
		strbuf_add(&b, dots, strlen(dots));
	}
	return b.s;
}

char *layout_expand_tabs(const char *s, size_t n, int tab)
{
	struct strbuf b = { 0 };
	int col = 0;

	strbuf_add(&b, "", 0);
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		int k;

		if (s[i] == '\t') {
			int spaces = tab - col % tab;
			for (int j = 0; j < spaces; j++)
				strbuf_add(&b, " ", 1);
			col += spaces;
			i++;
			continue;
		}
		if (s[i] == '\n')
			col = 0;
		k = layout_utf8_next(s + i, n - i, &cp);
		strbuf_add(&b, s + i, (size_t)k);
		col += layout_cp_width(cp);
		i += (size_t)k;
	}
	return b.s;
}

/* ---- wrapping ------------------------------------------------------------ */

struct cell {
	const char *p;		/* the character's bytes */
	int len, w, style;
	uint32_t cp;
};

static int is_space(uint32_t cp)
{
	return cp == ' ' || cp == 0x3000;
}

/* A character that takes two columns: East Asian text, which breaks between characters. */
static int is_wide(const struct cell *c)
{
	return c->w == 2;
}

/* Closing punctuation: a line never starts with it. */
static int no_line_start(uint32_t cp)
{
	static const uint32_t set[] = {
		0xff0c, 0x3002, 0x3001, 0xff1b, 0xff1a, 0xff1f, 0xff01, 0xff09, 0x300d, 0x300f,
		0x3011, 0x300b, 0x3009, 0x2019, 0x201d, 0x2026, 0x30fb, 0x30fc, 0xff0e, 0x3015,
		',', '.', ';', ':', '?', '!', ')', ']', '}', '%',
	};

	for (size_t i = 0; i < ARRAY_LEN(set); i++)
		if (set[i] == cp)
			return 1;
	return 0;
}

/* Opening punctuation: a line never ends with it. */
static int no_line_end(uint32_t cp)
{
	static const uint32_t set[] = {
		0xff08, 0x300c, 0x300e, 0x3010, 0x300a, 0x3008, 0x2018, 0x201c, 0x3014,
		'(', '[', '{',
	};

	for (size_t i = 0; i < ARRAY_LEN(set); i++)
		if (set[i] == cp)
			return 1;
	return 0;
}

static int can_break_before(const struct cell *c, int j, int start)
{
	if (j <= start)
		return 0;
	if (!is_wide(&c[j]) && !is_wide(&c[j - 1]))
		return 0;
	return !no_line_start(c[j].cp) && !no_line_end(c[j - 1].cp);
}

static void emit_line(struct layout_line *line, const struct cell *c, int from, int to)
{
	struct strbuf b = { 0 };
	int style = -1;

	memset(line, 0, sizeof *line);
	/* Spaces at the end of a broken line are not shown. */
	while (to > from && is_space(c[to - 1].cp))
		to--;
	for (int i = from; i <= to; i++) {
		if (i == to || (style != -1 && c[i].style != style)) {
			if (style != -1) {
				line->spans = xrealloc(line->spans,
				    (size_t)(line->nspans + 1) * sizeof *line->spans);
				line->spans[line->nspans].text = b.s ? b.s : xstrdup("");
				line->spans[line->nspans].style = style;
				line->nspans++;
				b.s = NULL;
				b.len = b.cap = 0;
			}
			if (i == to)
				break;
		}
		style = c[i].style;
		strbuf_add(&b, c[i].p, (size_t)c[i].len);
		line->width += c[i].w;
	}
	strbuf_free(&b);
}

int layout_wrap(const struct layout_run *runs, int nruns, int width, struct layout_line **lines)
{
	struct cell *c = NULL;
	int n = 0, cap = 0, nlines = 0, i = 0;
	struct layout_line *out = NULL;

	if (width < 1)
		width = 1;
	for (int r = 0; r < nruns; r++) {
		const char *s = runs[r].text;
		size_t len = strlen(s);

		for (size_t k = 0; k < len;) {
			uint32_t cp;
			int used = layout_utf8_next(s + k, len - k, &cp);

			if (n == cap) {
				cap = cap ? cap * 2 : 64;
				c = xrealloc(c, (size_t)cap * sizeof *c);
			}
			c[n].p = s + k;
			c[n].len = used;
			c[n].cp = cp;
			c[n].w = cp == '\t' ? 1 : layout_cp_width(cp);
			c[n].style = runs[r].style;
			if (cp == '\t') {
				c[n].p = " ";
				c[n].len = 1;
				c[n].cp = ' ';
			}
			k += (size_t)used;
			if (c[n].w == 0 && cp != '\n' && cp >= 0x20)
				; /* combining marks stay with their base */
			else if (c[n].w == 0 && cp != '\n')
				continue;	/* control characters are not shown */
			n++;
		}
	}

	do {
		int start = i, w = 0, j = i, end, next;
		int last_end = -1, last_next = -1;

		while (j < n && c[j].cp != '\n') {
			if (is_space(c[j].cp)) {
				last_end = j;
				last_next = j + 1;
			} else if (can_break_before(c, j, start)) {
				last_end = j;
				last_next = j;
			}
			if (w + c[j].w > width && !is_space(c[j].cp))
				break;
			w += c[j].w;
			j++;
		}
		if (j >= n || c[j].cp == '\n') {
			end = j;
			next = j < n ? j + 1 : j;
		} else if (last_end > start || (last_end == start && last_next > start)) {
			end = last_end;
			next = last_next;
		} else {
			/* One word longer than the line: cut it. */
			end = j > start ? j : start + 1;
			next = end;
		}
		out = xrealloc(out, (size_t)(nlines + 1) * sizeof *out);
		emit_line(&out[nlines++], c, start, end);
		i = next;
		/* A wrapped line does not start with the spaces it broke at. */
		if (end < n && is_space(c[end].cp))
			while (i < n && is_space(c[i].cp))
				i++;
	} while (i < n);

	free(c);
	*lines = out;
	return nlines;
}

void layout_lines_free(struct layout_line *lines, int n)
{
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < lines[i].nspans; k++)
			free(lines[i].spans[k].text);
		free(lines[i].spans);
	}
	free(lines);
}

char *layout_line_text(const struct layout_line *line)
{
	struct strbuf b = { 0 };

	strbuf_add(&b, "", 0);
	for (int k = 0; k < line->nspans; k++)
		strbuf_add(&b, line->spans[k].text, strlen(line->spans[k].text));
	return b.s;
}

/* ---- columns ------------------------------------------------------------- */

int layout_columns(struct layout_column *c, int n, int total, int gap)
{
	int used, shown, extra;

	for (int i = 0; i < n; i++)
		c[i].width = c[i].min;
	for (;;) {
		int drop = -1;

		used = 0;
		shown = 0;
		for (int i = 0; i < n; i++)
			if (c[i].width > 0) {
				used += c[i].width;
				shown++;
			}
		if (shown > 1)
			used += gap * (shown - 1);
		if (used <= total || shown == 0)
			break;
		/* The least important column goes first; of equals, the rightmost. */
		for (int i = 0; i < n; i++)
			if (c[i].width > 0 && (drop < 0 || c[i].priority <= c[drop].priority))
				drop = i;
		c[drop].width = 0;
	}
	extra = total - used;
	if (extra < 0)
		extra = 0;
	/* Widen the most important columns first, up to what they want. */
	for (int pass = 0; pass < n && extra > 0; pass++) {
		int best = -1;
		for (int i = 0; i < n; i++) {
			if (c[i].width == 0 || c[i].width >= c[i].want)
				continue;
			if (best < 0 || c[i].priority > c[best].priority)
				best = i;
		}
		if (best < 0)
			break;
		{
			int give = c[best].want - c[best].width;
			if (give > extra)
				give = extra;
			c[best].width += give;
			extra -= give;
		}
	}
	{
		int nflex = 0;
		for (int i = 0; i < n; i++)
			if (c[i].width > 0 && c[i].flex)
				nflex++;
		for (int i = 0; i < n && nflex > 0; i++)
			if (c[i].width > 0 && c[i].flex) {
				int give = extra / nflex;
				c[i].width += give;
				extra -= give;
				nflex--;
			}
	}
	return total - extra;
}

/* ---- screens --------------------------------------------------------------- */

static struct layout_rect rect(int y, int x, int h, int w)
{
	struct layout_rect r = { y, x, h > 0 ? h : 0, w > 0 ? w : 0 };
	return r;
}

void layout_lesson(int cols, int rows, int nsteps, struct lesson_layout *lo)
{
	int body_y = 1, body_h = rows - 3, table_h = nsteps + 2;

	memset(lo, 0, sizeof *lo);
	if (cols < LAYOUT_MIN_COLS || rows < LAYOUT_MIN_ROWS) {
		lo->too_small = 1;
		return;
	}
	lo->header = rect(0, 0, 1, cols);
	lo->status = rect(rows - 2, 0, 1, cols);
	lo->footer = rect(rows - 1, 0, 1, cols);

	if (cols >= 140) {
		/* Beside: the text keeps a readable width, the results the rest. */
		int rw = cols * 45 / 100;

		if (rw < 72)
			rw = 72;
		if (rw > 100)
			rw = 100;
		lo->side_by_side = 1;
		lo->text = rect(body_y, 0, body_h, cols - rw - 1);
		if (body_h >= 2 * table_h + 1) {
			lo->results = rect(body_y, cols - rw, table_h, rw);
			lo->chart = rect(body_y + table_h + 1, cols - rw, table_h, rw);
		} else {
			lo->chart_inline = 1;
			lo->results = rect(body_y, cols - rw, body_h < table_h ? body_h : table_h, rw);
		}
	} else {
		/* Below: at most half the screen, and the text at least 8 lines. */
		int rh = table_h, both = 2 * table_h + 1;

		if (body_h - both >= 12) {
			lo->text = rect(body_y, 0, body_h - both, cols);
			lo->results = rect(body_y + body_h - both, 0, table_h, cols);
			lo->chart = rect(body_y + body_h - table_h, 0, table_h, cols);
		} else {
			if (rh > body_h / 2)
				rh = body_h / 2;
			if (rh < 5)
				rh = 5;
			lo->chart_inline = 1;
			lo->text = rect(body_y, 0, body_h - rh, cols);
			lo->results = rect(body_y + body_h - rh, 0, rh, cols);
		}
	}
	lo->table_rows = lo->results.h - 2;
}

void layout_list(int cols, int rows, struct list_layout *lo)
{
	memset(lo, 0, sizeof *lo);
	if (cols < LAYOUT_MIN_COLS || rows < LAYOUT_MIN_ROWS) {
		lo->too_small = 1;
		return;
	}
	lo->header = rect(0, 0, 1, cols);
	lo->status = rect(rows - 2, 0, 1, cols);
	lo->footer = rect(rows - 1, 0, 1, cols);
	if (cols >= 120) {
		int lw = cols * 55 / 100;
		lo->list = rect(1, 0, rows - 3, lw);
		lo->preview = rect(1, lw + 1, rows - 3, cols - lw - 1);
	} else {
		lo->list = rect(1, 0, rows - 3, cols);
	}
}

void layout_diff(int cols, int rows, int mix_lines, struct diff_layout *lo)
{
	int body_y = 2, body_h = rows - 4, mix_h = mix_lines;

	memset(lo, 0, sizeof *lo);
	if (cols < LAYOUT_MIN_COLS || rows < LAYOUT_MIN_ROWS) {
		lo->too_small = 1;
		return;
	}
	lo->header = rect(0, 0, 1, cols);
	lo->title = rect(1, 0, 1, cols);
	lo->status = rect(rows - 2, 0, 1, cols);
	lo->footer = rect(rows - 1, 0, 1, cols);
	lo->side_by_side = cols >= COMPARE_SIDE_BY_SIDE_COLS;
	/* The table a glance takes in, but the SASS keeps at least half the body. */
	if (mix_h > (body_h - 1) / 2)
		mix_h = (body_h - 1) / 2;
	if (mix_h < 0)
		mix_h = 0;
	lo->mix = rect(body_y, 0, mix_h, cols);
	lo->sass_title = rect(body_y + mix_h, 0, 1, cols);
	lo->sass = rect(body_y + mix_h + 1, 0, body_h - mix_h - 1, cols);
}

void layout_code(int cols, int rows, int map, struct code_layout *lo)
{
	int code_y = 5, code_h = rows - 7;

	memset(lo, 0, sizeof *lo);
	if (cols < LAYOUT_MIN_COLS || rows < LAYOUT_MIN_ROWS) {
		lo->too_small = 1;
		return;
	}
	lo->header = rect(0, 0, 1, cols);
	lo->tabs = rect(1, 0, 1, cols);
	lo->info = rect(2, 0, 3, cols);
	lo->status = rect(rows - 2, 0, 1, cols);
	lo->footer = rect(rows - 1, 0, 1, cols);
	if (!map) {
		lo->code = rect(code_y, 0, code_h, cols);
	} else if (cols >= 140) {
		/* Beside: the source keeps 80 columns, the SASS gets the rest, up to 100. */
		int mw = cols - 81;

		if (mw > 100)
			mw = 100;
		lo->map_beside = 1;
		lo->code = rect(code_y, 0, code_h, cols - mw - 1);
		lo->map = rect(code_y, cols - mw, code_h, mw);
	} else {
		int mh = code_h * 2 / 5;

		if (mh < 5)
			mh = 5;
		if (mh > 12)
			mh = 12;
		lo->code = rect(code_y, 0, code_h - mh, cols);
		lo->map = rect(code_y + code_h - mh, 0, mh, cols);
	}
}

void layout_metrics(int cols, int rows, struct metrics_layout *lo)
{
	int w = cols - 2;

	memset(lo, 0, sizeof *lo);
	if (cols < LAYOUT_MIN_COLS || rows < LAYOUT_MIN_ROWS) {
		lo->too_small = 1;
		return;
	}
	if (w > LAYOUT_METRICS_MAX_W)
		w = LAYOUT_METRICS_MAX_W;
	lo->header = rect(0, 0, 1, cols);
	lo->title = rect(1, 0, 1, cols);
	lo->info = rect(2, 1, 1, cols - 2);
	lo->body = rect(3, 1, rows - 5, w);
	lo->status = rect(rows - 2, 0, 1, cols);
	lo->footer = rect(rows - 1, 0, 1, cols);
}

void layout_present(int cols, int rows, const char *time, const char *speedup, int nsteps,
    struct present_layout *lo)
{
	int y, left, big_h, time_w, speed_w;

	memset(lo, 0, sizeof *lo);
	if (cols < LAYOUT_MIN_COLS || rows < LAYOUT_MIN_ROWS) {
		lo->too_small = 1;
		return;
	}
	lo->header = rect(0, 0, 1, cols);
	lo->footer = rect(rows - 1, 0, 1, cols);
	lo->title = rect(2, 2, 2, cols - 4);
	y = 5;
	/* As large as fits beside each other, leaving six lines for the text. */
	lo->scale = 1;
	for (int scale = 3; scale >= 1; scale--) {
		int w = layout_big_width(time, scale) + layout_big_width(speedup, scale) + 8;
		int h = LAYOUT_BIG_ROWS * scale + 2;
		if (w <= cols - 4 && y + h + 1 + 6 <= rows - 2) {
			lo->scale = scale;
			lo->speedup_big = 1;
			break;
		}
	}
	time_w = layout_big_width(time, lo->scale);
	speed_w = layout_big_width(speedup, lo->scale);
	big_h = LAYOUT_BIG_ROWS * lo->scale + 2;	/* and two lines saying what the figure is */
	if (lo->speedup_big) {
		int total = time_w + speed_w + 8;
		left = (cols - total) / 2;
		lo->big_time = rect(y, left, big_h, time_w);
		lo->big_speedup = rect(y, left + time_w + 8, big_h, speed_w);
	} else {
		left = (cols - time_w) / 2;
		lo->big_time = rect(y, left > 0 ? left : 0, big_h, time_w < cols ? time_w : cols);
	}
	y += big_h + 1;
	{
		/* The line above the keys is for messages. */
		int room = rows - 2 - y;
		int chart_h = nsteps + 1;	/* and its title */
		int tw = cols - 8 > 90 ? 90 : cols - 8;

		if (room - chart_h - 1 >= 8) {
			lo->text = rect(y, (cols - tw) / 2, room - chart_h - 1, tw);
			lo->chart = rect(rows - 2 - chart_h, 4, chart_h, cols - 8);
		} else {
			lo->text = rect(y, (cols - tw) / 2, room, tw);
		}
	}
}

/* ---- figures --------------------------------------------------------------- */

int layout_bar(double value, double max, int width, int unicode, char *buf, size_t len)
{
	static const char *const eighths[] = { "", "\xe2\x96\x8f", "\xe2\x96\x8e", "\xe2\x96\x8d",
	    "\xe2\x96\x8c", "\xe2\x96\x8b", "\xe2\x96\x8a", "\xe2\x96\x89" };
	int units, full, part, cols;
	size_t o = 0;

	buf[0] = '\0';
	if (!(value > 0) || !(max > 0) || width <= 0)
		return 0;
	if (value > max)
		value = max;
	units = (int)lround(value / max * width * 8);
	if (units < 1)
		units = 1;
	full = units / 8;
	part = units % 8;
	if (!unicode) {
		full = (units + 4) / 8;
		if (full < 1)
			full = 1;
		part = 0;
	}
	for (int i = 0; i < full && o + 4 < len; i++) {
		if (unicode) {
			memcpy(buf + o, "\xe2\x96\x88", 3);
			o += 3;
		} else {
			buf[o++] = '#';
		}
	}
	cols = full;
	if (part > 0 && o + 4 < len) {
		memcpy(buf + o, eighths[part], 3);
		o += 3;
		cols++;
	}
	buf[o] = '\0';
	return cols;
}

/* 3x5 glyphs; each pixel is drawn two columns wide so the digits look square. */
static const struct {
	char c;
	int w;			/* pixels */
	const char *rows[LAYOUT_BIG_ROWS];
} big_font[] = {
	{ '0', 3, { "###", "#.#", "#.#", "#.#", "###" } },
	{ '1', 3, { ".#.", "##.", ".#.", ".#.", "###" } },
	{ '2', 3, { "###", "..#", "###", "#..", "###" } },
	{ '3', 3, { "###", "..#", "###", "..#", "###" } },
	{ '4', 3, { "#.#", "#.#", "###", "..#", "..#" } },
	{ '5', 3, { "###", "#..", "###", "..#", "###" } },
	{ '6', 3, { "###", "#..", "###", "#.#", "###" } },
	{ '7', 3, { "###", "..#", "..#", "..#", "..#" } },
	{ '8', 3, { "###", "#.#", "###", "#.#", "###" } },
	{ '9', 3, { "###", "#.#", "###", "..#", "###" } },
	{ '.', 1, { ".", ".", ".", ".", "#" } },
	{ 'x', 3, { "...", "#.#", ".#.", "#.#", "..." } },
	{ '-', 3, { "...", "...", "###", "...", "..." } },
	{ ' ', 1, { ".", ".", ".", ".", "." } },
};

static int big_glyph(char c)
{
	for (size_t i = 0; i < ARRAY_LEN(big_font); i++)
		if (big_font[i].c == c)
			return (int)i;
	return -1;
}

int layout_big_width(const char *s, int scale)
{
	int w = 0;

	for (const char *p = s; *p; p++) {
		int g = big_glyph(*p);
		if (w > 0)
			w += scale;	/* a gap between glyphs */
		w += 2 * scale * (g >= 0 ? big_font[g].w : 1);
	}
	return w;
}

void layout_big_row(const char *s, int row, int scale, int unicode, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	if (scale < 1 || row < 0 || row >= LAYOUT_BIG_ROWS * scale)
		return;
	for (const char *p = s; *p; p++) {
		int g = big_glyph(*p);
		const char *bits = g >= 0 ? big_font[g].rows[row / scale] : " ";

		for (int k = 0; p != s && k < scale && o + 1 < len; k++)
			buf[o++] = ' ';
		for (const char *b = bits; *b; b++) {
			for (int k = 0; k < 2 * scale; k++) {
				if (*b == '#' && unicode) {
					if (o + 4 >= len)
						break;
					memcpy(buf + o, "\xe2\x96\x88", 3);
					o += 3;
				} else if (o + 1 < len) {
					buf[o++] = *b == '#' ? '#' : ' ';
				}
			}
		}
	}
	buf[o] = '\0';
}

const char *layout_ms(double ms, char *buf, size_t len)
{
	if (!(ms > 0))
		snprintf(buf, len, "-");
	else if (ms >= 100)
		snprintf(buf, len, "%.1f", ms);
	else if (ms >= 10)
		snprintf(buf, len, "%.2f", ms);
	else if (ms >= 1)
		snprintf(buf, len, "%.3f", ms);
	else if (ms >= 0.1)
		snprintf(buf, len, "%.4f", ms);
	else
		snprintf(buf, len, "%.5f", ms);
	return buf;
}

int layout_scroll_clamp(int top, int h, int n)
{
	if (top > n - h)
		top = n - h;
	if (top < 0)
		top = 0;
	return top;
}

int layout_scroll_to(int top, int h, int n, int want)
{
	if (want < top)
		top = want;
	else if (want >= top + h)
		top = want - h + 1;
	return layout_scroll_clamp(top, h, n);
}

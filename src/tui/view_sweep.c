/* The sweep screen: the open lesson's steps against the size (or block), from the recorded sweep. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "sweep.h"
#include "tui/tui_internal.h"

/*
 * The recorded sweep of the lesson, read once a lesson and kind.  Live
 * sweeps are the command line's (cudatutor sweep LESSON): ten sizes of a
 * lesson take a minute or more, longer than a key should hold the screen.
 */
static struct {
	int li;
	int focus;			/* 1 + the step picked out among the others, with its figures (n / N); 0: none */
	enum sweep_over over;
	bool tried, have;
	struct sweep s;
	char error[1024];
} cache = { .li = -1 };

static const struct sweep *sweep_of(struct tui *t)
{
	struct error e;

	if (cache.li != study_li(t) || !cache.tried) {
		enum sweep_over over = cache.over;

		sweep_free(&cache.s);
		memset(&cache, 0, sizeof cache);
		cache.over = over;	/* a new lesson or kind: all its steps again */
		cache.li = study_li(t);
		cache.tried = true;
		if (sweep_find_recorded(NULL, tui_lesson(t)->id, cache.over, &cache.s, &e) == 0)
			cache.have = true;
		else
			snprintf(cache.error, sizeof cache.error, "%s", e.msg);
	}
	return cache.have ? &cache.s : NULL;
}

/* A line of the legend, cut to the screen. */
static void legend_line(struct tui *t, int y, int style, const char *text)
{
	char *fit = layout_ellipsize(text, crt_cols() - 2, 0, t->unicode);

	crt_text(y, 1, crt_cols() - 2, style, fit);
	free(fit);
}

/* The marks and their steps, as many a line as fit: the lines, drawn from y if draw. */
static int draw_marks(struct tui *t, const struct sweep *s, int y, bool draw)
{
	char line[1024] = "";
	int lines = 0, cols = crt_cols() - 2;

	for (int i = 0; i <= s->nsteps; i++) {
		char item[160] = "";
		size_t len = strlen(line);

		if (i < s->nsteps)
			snprintf(item, sizeof item, "%c %s   ", canvas_mark(s->steps[i].step), s->steps[i].kernel);
		if (i == s->nsteps || (len > 0 && (int)(len + strlen(item)) > cols)) {
			if (draw)
				legend_line(t, y + lines, STYLE_NORMAL, line);
			lines++;
			line[0] = '\0';
			len = 0;
		}
		if (len + strlen(item) < sizeof line)
			strcat(line, item);
	}
	return lines;
}

/* One column of the figures' table: the size (or block), and the rate there. */
struct figure {
	char at[24], rate[16];
};

/*
 * The focused step's figures: its name, then a table of its rate at each
 * size (or block) it ran at, as many columns a row as fit, the sizes over
 * the rates.  The lines, drawn from y if draw.
 */
static int draw_figures(struct tui *t, const struct sweep *s, int y, bool draw)
{
	const struct sweep_step *st = &s->steps[cache.focus - 1];
	const char *unit = st->unit == UNIT_GFLOPS ? "GFLOP/s" : "GB/s";
	const char *over = s->over == SWEEP_SIZE ? _("size") : _("block");
	struct figure *f = xcalloc((size_t)st->npoints + 1, sizeof *f);
	int cols = crt_cols() - 2, head, colw = 0, per, lines = 1, w;
	char title[512];

	(void)t;
	for (int i = 0; i < st->npoints; i++) {
		const struct sweep_point *p = &st->points[i];
		unsigned long long at = s->over == SWEEP_SIZE ? p->size : p->block;

		if (at >= 1024 && (at & (at - 1)) == 0)
			snprintf(f[i].at, sizeof f[i].at, "2^%d", (int)log2((double)at));
		else
			snprintf(f[i].at, sizeof f[i].at, "%llu", at);
		if (p->ran && p->correct)
			snprintf(f[i].rate, sizeof f[i].rate, "%.4g", p->rate);
		else
			snprintf(f[i].rate, sizeof f[i].rate, "-");
		w = (int)(strlen(f[i].at) > strlen(f[i].rate) ? strlen(f[i].at) : strlen(f[i].rate)) + 1;
		colw = w > colw ? w : colw;
	}
	head = (layout_width(over) > layout_width(unit) ? layout_width(over) : layout_width(unit)) + 1;
	per = colw > 0 && (cols - head) / colw > 0 ? (cols - head) / colw : 1;
	snprintf(title, sizeof title, _("%c %s, step %d (%d of %d), %s:"), canvas_mark(st->step), st->kernel, st->step,
	    cache.focus, s->nsteps, unit);
	if (draw)
		crt_text(y, 1, cols, STYLE_STRONG, title);
	for (int first = 0; first < st->npoints; first += per) {
		for (int row = 0; row < 2; row++, lines++) {
			int x = 1 + head;

			if (!draw || y + lines >= crt_rows() - 1)
				continue;
			crt_text(y + lines, 1, head, STYLE_DIM, row == 0 ? over : unit);
			for (int i = first; i < st->npoints && i < first + per; i++, x += colw) {
				const char *text = row == 0 ? f[i].at : f[i].rate;
				int w = (int)strlen(text);

				crt_text(y + lines, x + colw - w, w, row == 0 ? STYLE_DIM : STYLE_NORMAL, text);
			}
		}
	}
	free(f);
	return lines;
}

/* Under the chart: the marks (or the chosen step's figures), then a line for each L2 line drawn. */
static void draw_legend(struct tui *t, const struct sweep *s, const bool *show, int y)
{
	double at[4];
	int n = sweep_l2_sizes(s, show, at, (int)ARRAY_LEN(at));
	double floor_ms = sweep_launch_floor_ms(s, show);
	char buf[512], l2[32];

	y += cache.focus > 0 ? draw_figures(t, s, y, true) : draw_marks(t, s, y, true);
	format_bytes((double)s->gpu.l2_bytes, l2, sizeof l2);
	for (int k = 0; k < n && y < crt_rows() - 1; k++) {
		snprintf(buf, sizeof buf, _("L2 at 2^%.1f elements: %.0f bytes an element fill its %s L2"), log2(at[k]),
		    (double)s->gpu.l2_bytes / at[k], l2);
		legend_line(t, y++, STYLE_DIM, buf);
	}
	if (s->over == SWEEP_SIZE && s->gpu.l2_bytes == 0 && y < crt_rows() - 1)
		legend_line(t, y++, STYLE_DIM, _("No L2 line: the L2 size of this GPU is not recorded."));
	if (floor_ms > 0 && y < crt_rows() - 1) {
		/* TRANSLATORS: the rising line of a size sweep; "%.1f %s": the fastest run's time, "µs" (or "us") */
		snprintf(buf, sizeof buf, _("Rising line: launch floor; no run took under %.1f %s, no point lies above it"),
		    1000 * floor_ms, t->unicode ? "µs" : "us");
		legend_line(t, y, STYLE_DIM, buf);
	}
}

static void draw_sweep(struct tui *t)
{
	const struct lesson *l = tui_lesson(t);
	const struct sweep *s = sweep_of(t);
	int cols = crt_cols(), rows = crt_rows(), y = 2, chart_h, nl2;
	struct canvas_lines chart;
	const char *unit;
	double at[4];
	char where[512];
	bool *show;

	snprintf(where, sizeof where, cache.over == SWEEP_SIZE ? _("%s %s size sweep") : _("%s %s block sweep"),
	    l->id, t->unicode ? "\xc2\xb7" : "-");
	tui_draw_header(t, where);
	if (s == NULL) {
		struct layout_run run = { cache.error, STYLE_NORMAL };
		struct layout_line *lines;
		int n;

		crt_text(y++, 1, cols - 2, STYLE_STRONG, _("No recorded sweep of this lesson."));
		/* the whole reason, wrapped: it ends with what to run */
		n = layout_wrap(&run, 1, cols - 2, &lines);
		for (int i = 0; i < n && y < rows - 1; i++, y++)
			for (int k = 0, x = 1; k < lines[i].nspans; k++)
				x += crt_text(y, x, cols - 1 - x, lines[i].spans[k].style, lines[i].spans[k].text);
		layout_lines_free(lines, n);
		tui_draw_footer(t, rows - 1);
		return;
	}
	unit = sweep_unit(s);
	snprintf(where, sizeof where, _("%s, recorded on %s on %.10s"), unit != NULL ? unit : _("rate"),
	    tui_gpu_short(s->gpu.name), s->date);
	crt_text(1, 1, cols - 2, STYLE_DIM, where);
	/* n: one step picked out, the others dots around it; its L2 line alone */
	if (cache.focus > s->nsteps)
		cache.focus = 0;
	show = xcalloc((size_t)s->nsteps + 1, sizeof *show);
	for (int i = 0; i < s->nsteps; i++)
		show[i] = cache.focus == 0 || i == cache.focus - 1;
	/* the chart takes what the legend leaves: its L2 labels, axis and labels, title, and the key line */
	nl2 = sweep_l2_sizes(s, show, at, (int)ARRAY_LEN(at));
	chart_h = rows - y - 5 - (cache.focus > 0 ? draw_figures(t, s, 0, false) : draw_marks(t, s, 0, false)) -
	    (nl2 > 0 ? nl2 : 1) - (sweep_launch_floor_ms(s, show) > 0);
	if (chart_h < 6)
		chart_h = 6;
	if (chart_h > 40)
		chart_h = 40;
	if (cache.focus > 0)
		sweep_draw_focus(s, cache.focus - 1, cols - 2, chart_h, t->unicode, &chart, NULL);
	else
		sweep_draw(s, show, cols - 2, chart_h, t->unicode, &chart, NULL);
	for (int i = 0; i < chart.nlines && y < rows - 2; i++)
		crt_text(y++, 1, cols - 2, i == 0 || i == chart.nlines - 1 ? STYLE_DIM : STYLE_NORMAL, chart.lines[i]);
	canvas_lines_free(&chart);
	if (y < rows - 2) {
		const char *title = s->over == SWEEP_SIZE ? _("elements (log2)") : _("threads per block (log2)");
		int w = layout_width(title);

		crt_text(y++, cols - 1 - w, w, STYLE_DIM, title);
	}
	draw_legend(t, s, show, y);
	free(show);
	tui_draw_footer(t, rows - 1);
}

static int sweep_open(struct tui *t, const struct screen_arg *arg)
{
	(void)arg;
	return tui_lesson(t) != NULL ? 0 : -1;
}

/* b: the block sweep, then the size sweep again. */
static int key_over(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)t;
	(void)ev;
	(void)arg;
	cache.over = cache.over == SWEEP_SIZE ? SWEEP_BLOCK : SWEEP_SIZE;
	cache.tried = false;
	return REACT_DRAW;
}

/* n, N: the next or previous step picked out, with its figures; a: all of them alike again. */
static int key_step(struct tui *t, const struct crt_event *ev, int arg)
{
	const struct sweep *s = sweep_of(t);

	(void)ev;
	if (s == NULL || s->nsteps == 0)
		return REACT_NONE;
	if (arg == 0) {
		cache.focus = 0;
	} else {
		/* from all of them, n goes to the first and N to the last */
		int at = cache.focus != 0 ? cache.focus : arg > 0 ? 0 : s->nsteps + 1;

		cache.focus = ((at - 1 + arg) % s->nsteps + s->nsteps) % s->nsteps + 1;
	}
	return REACT_DRAW;
}

static const struct key_binding sweep_keys[] = {
	{ "n  N", N_("pick out the next / previous step (the others as dots), with a table of its rate at each size"),
	  "n", N_("pick a step"), { 'n' }, key_step, 1 },
	{ NULL, NULL, NULL, NULL, { 'N' }, key_step, -1 },
	{ "a", N_("every step alike again"), "a", N_("all"), { 'a', 'A' }, key_step, 0 },
	{ "b", N_("the block sweep, or back to the size sweep"), "b", N_("size/block"), { 'b', 'B' }, key_over, 0 },
	{ "Esc  Backspace  W", N_("back"), "Esc", N_("back"), { CRT_KEY_ESC, CRT_KEY_BACKSPACE, 'W' },
	  tui_key_back, 0 },
};

const struct screen screen_sweep = {
	.id = SCREEN_SWEEP,
	.name = "sweep", .place = SCREEN_ASIDE, .open = sweep_open,
	.draw = draw_sweep,
	.keys = sweep_keys, .nkeys = (int)ARRAY_LEN(sweep_keys),
};

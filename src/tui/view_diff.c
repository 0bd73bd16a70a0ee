/* The diff view: a step's kernel against the previous step's (or a student's against ours), its instruction mix and its SASS aligned. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "i18n.h"
#include "tui/pane.h"
#include "tui/tui_internal.h"

/* The diff screen's own state: step against step - 1 (or yours against ours), compared, and as panes of text. */
static struct {
	int step;		/* 1-based; 0 none loaded */
	const struct lesson_exercise *yours;	/* the student's kernel for it against ours, or NULL */
	char arch[16];
	struct compare cmp;
	bool have;
	char *error;		/* why there is no comparison */
	struct pane mix, sass;
	int width;		/* the panes were built for it */
	int top;		/* the first SASS line shown */
} diff;

/* Lines of context kept above a change that n or N brings into view. */
#define DIFF_CONTEXT 2

static void diff_free(void)
{
	compare_free(&diff.cmp);
	pane_free(&diff.mix);
	pane_free(&diff.sass);
	free(diff.error);
	diff.error = NULL;
	diff.have = false;
	diff.width = 0;
	diff.step = 0;
	diff.yours = NULL;
}

static void load(struct tui *t, int step)
{
	const struct lesson *l = tui_lesson(t);
	struct error e;

	diff_free();
	diff.step = step;
	diff.top = 0;
	if (compare_resolve(&diff.cmp, l->steps[step - 2].kernel->name, l->steps[step - 1].kernel->name,
	    study_block(t), &e) != 0) {
		diff.error = xstrdup(e.msg);
		return;
	}
	/* The architecture the code view shows for this kernel. */
	if (tui_arch(t, diff.cmp.b.kernel->module, diff.arch, sizeof diff.arch) == NULL)
		snprintf(diff.arch, sizeof diff.arch, "%s", "sm_90");
	if (compare_load(&diff.cmp, diff.arch, &e) != 0) {
		diff.error = xstrdup(e.msg);
		return;
	}
	diff.have = true;
}

/* The student's kernel for exercise x, as its last check compiled it, against the target's SASS from the build. */
static int load_yours(struct tui *t, const struct lesson_exercise *x, int step)
{
	const struct exercise_report *r = practice_report(x->def);
	const struct exercise_result *c = r != NULL ? &r->compiled : NULL;
	struct error e;

	if (c == NULL || c->sass == NULL) {
		/* TRANSLATORS: the %s are keys, e.g. "e" and "r" */
		tui_message(t, STYLE_MESSAGE, _("Your kernel has not been compiled to SASS yet: %s writes it, %s checks it."),
		    tui_key(t, exercise_key_write, 0), tui_key(t, exercise_key_check, 0));
		return -1;
	}
	diff_free();
	diff.step = step;
	diff.yours = x;
	diff.top = 0;
	snprintf(diff.arch, sizeof diff.arch, "%s", c->arch);
	if (compare_resolve(&diff.cmp, x->def->target, x->def->target, study_block(t), &e) != 0 ||
	    compare_load_text(&diff.cmp, c->arch, c->sass, c->have_resources ? &c->resources : NULL, &e) != 0) {
		diff.error = xstrdup(e.msg);
		return 0;
	}
	diff.have = true;
	return 0;
}

static int diff_open(struct tui *t, const struct screen_arg *arg)
{
	const struct lesson *l = tui_lesson(t);
	int step = arg->step;

	if (l == NULL)
		return -1;
	if (arg->exercise > 0 && arg->exercise <= l->nexercises) {
		if (load_yours(t, &l->exercises[arg->exercise - 1], step) != 0)
			return -1;
		study_set_page(t, step);
		return 0;
	}
	if (step < 2 || step > l->nsteps) {
		/* TRANSLATORS: %s is a key, e.g. "d" */
		tui_message(t, STYLE_MESSAGE,
		    _("The first step has no step before it: %s compares a step's kernel with the previous step's."),
		    tui_key(t, study_key_diff, 0));
		return -1;
	}
	/* Read again each time: the block size or the GPU may have changed the kernels or arch. */
	load(t, step);
	study_set_page(t, step);
	return 0;
}

/* Another pair of steps, or this step's SASS or counters. */
static int show(struct tui *t, enum screen_id s, int step)
{
	return tui_switch(t, s, &(struct screen_arg){ step, CODE_SASS, 0 });
}

/* The panes at this width (built again when it changes). */
static void build(struct tui *t, int width)
{
	char ha[32], hb[32];

	if (!diff.have || diff.width == width)
		return;
	pane_free(&diff.mix);
	pane_free(&diff.sass);
	if (diff.yours != NULL) {
		snprintf(ha, sizeof ha, "%s", _("ours"));
		snprintf(hb, sizeof hb, "%s", _("yours"));
	} else {
		snprintf(ha, sizeof ha, _("step %d"), diff.step - 1);
		snprintf(hb, sizeof hb, _("step %d"), diff.step);
	}
	pane_mix(&diff.cmp, ha, hb, width, &diff.mix);
	pane_diff(&diff.cmp, width, t->unicode, &diff.sass);
	diff.width = width;
}

static void draw_line(const struct layout_line *ln, int y, int x, int w)
{
	int used = 0;

	for (int s = 0; s < ln->nspans && used < w; s++)
		used += crt_text(y, x + used, w - used, ln->spans[s].style, ln->spans[s].text);
}

static void draw_title(struct tui *t, int y)
{
	const struct lesson *l = tui_lesson(t);
	int cols = crt_cols(), x = 1;
	const char *arrow = t->unicode ? " \xe2\x86\x92 " : " -> ";
	char buf[256];

	crt_hline(y, 0, cols, STYLE_BORDER);
	x += crt_text(y, x, cols - x, STYLE_PANEL_TITLE, _(" Diff "));
	x += 1;
	if (diff.yours != NULL)
		snprintf(buf, sizeof buf, _(" ours, %s"), diff.yours->def->target);
	else
		snprintf(buf, sizeof buf, " %s", l->steps[diff.step - 2].kernel->name);
	x += crt_text(y, x, cols - x - 16, STYLE_DIFF_DEL, buf);
	x += crt_text(y, x, cols - x - 16, STYLE_NORMAL, arrow);
	if (diff.yours != NULL)
		snprintf(buf, sizeof buf, "%s ", _("yours"));
	else
		snprintf(buf, sizeof buf, "%s ", l->steps[diff.step - 1].kernel->name);
	x += crt_text(y, x, cols - x - 16, STYLE_DIFF_ADD, buf);
	if (diff.have) {
		snprintf(buf, sizeof buf, " SASS %s ", diff.cmp.arch);
		if (x + layout_width(buf) + 2 < cols)
			crt_text(y, cols - layout_width(buf) - 1, layout_width(buf), STYLE_PANEL_TITLE, buf);
	}
}

/* The line between the table and the SASS: how they align, and which side is which. */
static void draw_sass_title(const struct diff_layout *lo, int rows)
{
	const struct sass_diff *d = &diff.cmp.diff;
	int cols = crt_cols(), y = lo->sass_title.y, x = 1;
	char buf[192];

	crt_hline(y, 0, cols, STYLE_BORDER);
	if (lo->side_by_side) {
		int col = (cols - 5) / 2;
		if (diff.yours != NULL)
			snprintf(buf, sizeof buf, _(" ours: %s "), diff.cmp.a.symbol);
		else
			snprintf(buf, sizeof buf, _(" step %d: %s "), diff.step - 1, diff.cmp.a.symbol);
		crt_text(y, 1, col, STYLE_H3, buf);
		if (diff.yours != NULL)
			snprintf(buf, sizeof buf, _(" yours: %s "), diff.cmp.b.symbol);
		else
			snprintf(buf, sizeof buf, _(" step %d: %s "), diff.step, diff.cmp.b.symbol);
		crt_text(y, 2 + col + 2, col - 12, STYLE_H3, buf);
	} else {
		x += crt_text(y, x, cols - x, STYLE_H3, _(" SASS aligned by opcode: "));
		snprintf(buf, sizeof buf, _("%d kept"), d->kept);
		x += crt_text(y, x, cols - x, STYLE_NORMAL, buf);
		x += crt_text(y, x, cols - x, STYLE_DIM, ", ");
		snprintf(buf, sizeof buf, _("%d removed (-)"), d->removed);
		x += crt_text(y, x, cols - x, STYLE_DIFF_DEL, buf);
		x += crt_text(y, x, cols - x, STYLE_DIM, ", ");
		snprintf(buf, sizeof buf, _("%d added (+) "), d->added);
		x += crt_text(y, x, cols - x, STYLE_DIFF_ADD, buf);
	}
	if (d->count > rows) {
		int end = diff.top + rows < d->count ? diff.top + rows : d->count;
		snprintf(buf, sizeof buf, " %d-%d/%d ", diff.top + 1, end, d->count);
		if (x + layout_width(buf) + 2 < cols)
			crt_text(y, cols - layout_width(buf) - 1, layout_width(buf), STYLE_DIM, buf);
	}
}

/* Wide: beside the table, what each step's kernel is and how their SASS aligns. */
static void draw_aside(struct tui *t, const struct diff_layout *lo, int x)
{
	const struct lesson *l = tui_lesson(t);
	const struct sass_diff *d = &diff.cmp.diff;
	int cols = crt_cols(), w = cols - x - 1, y = lo->mix.y, end = lo->mix.y + lo->mix.h;
	char buf[256];

	if (w < 30 || lo->mix.h < 4)
		return;
	crt_text(y++, x, w, STYLE_H3, _("SASS aligned by opcode"));
	{
		int cx = x;
		snprintf(buf, sizeof buf, _("%d kept"), d->kept);
		cx += crt_text(y, cx, x + w - cx, STYLE_NORMAL, buf);
		cx += crt_text(y, cx, x + w - cx, STYLE_DIM, ", ");
		snprintf(buf, sizeof buf, _("%d removed (-)"), d->removed);
		cx += crt_text(y, cx, x + w - cx, STYLE_DIFF_DEL, buf);
		cx += crt_text(y, cx, x + w - cx, STYLE_DIM, ", ");
		snprintf(buf, sizeof buf, _("%d added (+)"), d->added);
		crt_text(y++, cx, x + w - cx, STYLE_DIFF_ADD, buf);
	}
	for (int k = 0; k < 2 && y + 2 < end; k++) {
		const struct kernel_def *kd = diff.yours != NULL ? diff.cmp.a.kernel : l->steps[diff.step - 2 + k].kernel;
		struct layout_run run = { diff.yours != NULL && k == 1 ?
		    _("your kernel, as NVRTC compiled it at your last check") : _(kd->summary), STYLE_DIM };
		struct layout_line *lines;
		int n = layout_wrap(&run, 1, w - 2, &lines), cx = x;

		y++;
		if (diff.yours != NULL)
			snprintf(buf, sizeof buf, "%s ", k == 0 ? _("ours") : _("yours"));
		else
			snprintf(buf, sizeof buf, _("step %d "), diff.step - 1 + k);
		cx += crt_text(y, cx, w, STYLE_H3, buf);
		crt_text(y++, cx, x + w - cx, k == 0 ? STYLE_DIFF_DEL : STYLE_DIFF_ADD, kd->name);
		for (int i = 0; i < n && y < end; i++)
			crt_text(y++, x + 2, w - 2, STYLE_DIM, lines[i].nspans ? lines[i].spans[0].text : "");
		layout_lines_free(lines, n);
	}
}

static int key_jump(struct tui *t, const struct crt_event *ev, int dir);

static void draw_diff(struct tui *t)
{
	const struct lesson *l = tui_lesson(t);
	int cols = crt_cols(), rows = crt_rows();
	struct diff_layout lo;
	char where[512], hint[512];

	if (diff.yours != NULL)
		snprintf(where, sizeof where, _("%s %s yours against ours: %s"), l->id, t->unicode ? "\xc2\xb7" : "-",
		    diff.yours->title);
	else
		snprintf(where, sizeof where, _("%s %s step %d/%d against %d: %s"), l->id,
		    t->unicode ? "\xc2\xb7" : "-", diff.step, l->nsteps, diff.step - 1,
		    l->steps[diff.step - 1].title);
	tui_draw_header(t, where);
	build(t, cols - 1);
	layout_diff(cols, rows, diff.have ? diff.mix.n : 0, &lo);
	draw_title(t, lo.title.y);
	if (!diff.have) {
		struct layout_run run = { diff.error ? diff.error : "", STYLE_BAD };
		struct layout_line *lines;
		int n = layout_wrap(&run, 1, cols - 8, &lines);

		for (int i = 0; i < n && i < rows - 6; i++)
			crt_text(lo.mix.y + 1 + i, 4, cols - 8, STYLE_BAD, lines[i].nspans ? lines[i].spans[0].text : "");
		layout_lines_free(lines, n);
	} else {
		for (int i = 0; i < lo.mix.h && i < diff.mix.n; i++) {
			if (i == lo.mix.h - 1 && diff.mix.n > lo.mix.h) {
				char more[384];
				if (diff.yours != NULL)
					snprintf(more, sizeof more, _("  ... %d more rows"), diff.mix.n - i);
				else
					snprintf(more, sizeof more, _("  ... %d more rows: cudatutor diff %s %s shows them all"),
					    diff.mix.n - i, diff.cmp.a.symbol, diff.cmp.b.symbol);
				crt_text(lo.mix.y + i, 0, cols - 1, STYLE_DIM, more);
				break;
			}
			draw_line(&diff.mix.lines[i], lo.mix.y + i, 0, cols - 1);
		}
		if (lo.side_by_side) {
			int mw = 0;
			for (int i = 0; i < diff.mix.n; i++)
				if (diff.mix.lines[i].width > mw)
					mw = diff.mix.lines[i].width;
			draw_aside(t, &lo, mw + 6);
		}
		diff.top = layout_scroll_clamp(diff.top, lo.sass.h, diff.sass.n);
		draw_sass_title(&lo, lo.sass.h);
		for (int row = 0; row < lo.sass.h && diff.top + row < diff.sass.n; row++)
			draw_line(&diff.sass.lines[diff.top + row], lo.sass.y + row, 0, cols - 1);
	}
	if (!diff.have)
		/* TRANSLATORS: %s is a key, e.g. "Esc" */
		snprintf(hint, sizeof hint, _("%s goes back."), tui_key(t, tui_key_back, 0));
	else if (diff.yours != NULL)
		/* TRANSLATORS: %s is a key, e.g. "n" */
		snprintf(hint, sizeof hint, _("Lines marked - are only in ours, + only in yours; %s goes to the next "
		    "change."), tui_key(t, key_jump, 1));
	else
		/* TRANSLATORS: %s is a key, e.g. "n" */
		snprintf(hint, sizeof hint, _("Lines marked - were only in the step before, + only in this one; %s goes "
		    "to the next change."), tui_key(t, key_jump, 1));
	tui_draw_status(t, lo.status.y, hint);
	tui_draw_footer(t, lo.footer.y);
}

static int sass_rows(void)
{
	struct diff_layout lo;

	layout_diff(crt_cols(), crt_rows(), diff.have ? diff.mix.n : 0, &lo);
	return lo.sass.h;
}

static int jump(struct tui *t, int dir)
{
	int r;

	if (!diff.have)
		return REACT_NONE;
	r = sass_diff_next_change(&diff.cmp.diff, diff.top + DIFF_CONTEXT, dir);
	if (r < 0) {
		tui_message(t, STYLE_MESSAGE, "%s", dir > 0 ? _("No change below.") : _("No change above."));
		return REACT_DRAW;
	}
	diff.top = r - DIFF_CONTEXT > 0 ? r - DIFF_CONTEXT : 0;
	return REACT_DRAW;
}

/* ---- keys and the mouse -------------------------------------------------------- */

static int key_line(struct tui *t, const struct crt_event *ev, int dir)
{
	(void)t;
	(void)ev;
	return tui_scroll(&diff.top, dir);
}

static int key_screenful(struct tui *t, const struct crt_event *ev, int dir)
{
	(void)t;
	(void)ev;
	tui_scroll(&diff.top, dir * (sass_rows() - 1));
	return REACT_DRAW;
}

/* The top, or (end 1) the bottom. */
static int key_ends(struct tui *t, const struct crt_event *ev, int end)
{
	(void)t;
	(void)ev;
	diff.top = end ? diff.sass.n : 0;
	return REACT_DRAW;
}

static int key_jump(struct tui *t, const struct crt_event *ev, int dir)
{
	(void)ev;
	return jump(t, dir);
}

/* The pair of steps after (dir 1) or before. */
static int key_pair(struct tui *t, const struct crt_event *ev, int dir)
{
	(void)ev;
	if (diff.yours != NULL) {
		/* TRANSLATORS: %s is a key, e.g. "Esc" */
		tui_message(t, STYLE_MESSAGE, _("This is your kernel against ours: %s goes back to the exercise."),
		    tui_key(t, tui_key_back, 0));
		return REACT_DRAW;
	}
	if (dir > 0 ? diff.step >= tui_lesson(t)->nsteps : diff.step <= 2)
		return REACT_NONE;
	show(t, SCREEN_DIFF, diff.step + dir);
	return REACT_DRAW;
}

static int key_sass(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)ev;
	(void)arg;
	if (diff.yours != NULL)
		return tui_switch(t, SCREEN_CODE, &(struct screen_arg){ diff.step, CODE_SASS,
		    (int)(diff.yours - tui_lesson(t)->exercises) + 1 }) | REACT_DRAW;
	show(t, SCREEN_CODE, diff.step);
	return REACT_DRAW;
}

static int key_counters(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)ev;
	(void)arg;
	if (diff.yours != NULL) {
		tui_message(t, STYLE_MESSAGE, "%s", _("Counters are read for the lesson's steps, not for your kernel."));
		return REACT_DRAW;
	}
	show(t, SCREEN_METRICS, diff.step);
	return REACT_DRAW;
}

static int diff_scroll(struct tui *t, int y, int x, int lines)
{
	(void)t;
	(void)y;
	(void)x;
	tui_scroll(&diff.top, lines);
	return REACT_DRAW;
}

static const struct key_binding diff_keys[] = {
	{ "\xe2\x86\x91 \xe2\x86\x93  j k", N_("scroll the SASS"), NULL, NULL, { CRT_KEY_DOWN, 'j' }, key_line, 1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_UP, 'k' }, key_line, -1 },
	{ "PgUp PgDn Space", N_("a screenful up / down"), NULL, NULL, { CRT_KEY_PGDN, ' ' }, key_screenful, 1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_PGUP }, key_screenful, -1 },
	{ "Home End  g G", N_("top / bottom"), NULL, NULL, { CRT_KEY_HOME, 'g' }, key_ends, 0 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_END, 'G' }, key_ends, 1 },
	{ "n N", N_("the next / previous change"), "n", N_("next change"), { 'n' }, key_jump, 1 },
	{ NULL, NULL, NULL, NULL, { 'N' }, key_jump, -1 },
	{ "\xe2\x86\x90 \xe2\x86\x92  h l", N_("the pair of steps before / after"), "\xe2\x86\x90\xe2\x86\x92",
	  N_("steps"), { CRT_KEY_RIGHT, 'l' }, key_pair, 1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_LEFT, 'h' }, key_pair, -1 },
	{ "s", N_("this step's SASS in full"), "s", "SASS", { 's', 'S' }, key_sass, 0 },
	{ "m", N_("this step's hardware counters"), "m", N_("counters"), { 'm', 'M' }, key_counters, 0 },
	{ "Esc  Backspace", N_("back"), "Esc", N_("back"), { CRT_KEY_ESC, CRT_KEY_BACKSPACE }, tui_key_back, 0 },
};

static void diff_close(struct tui *t)
{
	(void)t;
	diff_free();
}

const struct screen screen_diff = {
	.id = SCREEN_DIFF,
	.name = "diff", .place = SCREEN_ASIDE, .open = diff_open, .close = diff_close, .draw = draw_diff,
	.scroll = diff_scroll, .keys = diff_keys, .nkeys = (int)ARRAY_LEN(diff_keys),
};

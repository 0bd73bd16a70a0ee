/* The diff view: a step's kernel against the previous step's, its instruction mix and its SASS aligned. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "tui/tui_internal.h"

static const struct key_help diff_keys[] = {
	{ "\xe2\x86\x91 \xe2\x86\x93  j k", N_("scroll the SASS"), NULL, NULL, 0 },
	{ "PgUp PgDn Space", N_("a screenful up / down"), NULL, NULL, 0 },
	{ "Home End  g G", N_("top / bottom"), NULL, NULL, 0 },
	{ "n N", N_("the next / previous change"), "n", N_("next change"), 'n' },
	{ "\xe2\x86\x90 \xe2\x86\x92  h l", N_("the pair of steps before / after"), "\xe2\x86\x90\xe2\x86\x92",
	  N_("steps"), CRT_KEY_RIGHT },
	{ "s", N_("this step's SASS in full"), "s", "SASS", 's' },
	{ "m", N_("this step's hardware counters"), "m", N_("counters"), 'm' },
	{ "Esc  Backspace", N_("back"), "Esc", N_("back"), CRT_KEY_ESC },
};

/* Lines of context kept above a change that n or N brings into view. */
#define DIFF_CONTEXT 2

void view_diff_free(struct tui *t)
{
	compare_free(&t->diff);
	pane_free(&t->diff_mix);
	pane_free(&t->diff_sass);
	free(t->diff_error);
	t->diff_error = NULL;
	t->have_diff = false;
	t->diff_width = 0;
	t->diff_step = 0;
}

static void load(struct tui *t, int step)
{
	const struct lesson *l = tui_lesson(t);
	struct error e;

	view_diff_free(t);
	t->diff_step = step;
	t->diff_top = 0;
	if (compare_resolve(&t->diff, l->steps[step - 2].kernel->name, l->steps[step - 1].kernel->name,
	    t->block, &e) != 0) {
		t->diff_error = xstrdup(e.msg);
		return;
	}
	/* The architecture the code view shows for this kernel. */
	if (tui_arch(t, t->diff.b.kernel->module, t->diff_arch, sizeof t->diff_arch) == NULL)
		snprintf(t->diff_arch, sizeof t->diff_arch, "%s", "sm_90");
	if (compare_load(&t->diff, t->diff_arch, &e) != 0) {
		t->diff_error = xstrdup(e.msg);
		return;
	}
	t->have_diff = true;
}

void view_diff_open(struct tui *t, int step)
{
	const struct lesson *l = tui_lesson(t);

	if (l == NULL)
		return;
	if (step < 2 || step > l->nsteps) {
		tui_message(t, STYLE_MESSAGE, "%s",
		    _("The first step has no step before it: d compares a step's kernel with the previous step's."));
		return;
	}
	tui_open_aside(t, &screen_diff);
	/* Read again each time: the block size or the GPU may have changed the kernels or arch. */
	load(t, step);
	view_lesson_set_page(t, step);
}

/* The panes at this width (built again when it changes). */
static void build(struct tui *t, int width)
{
	char ha[32], hb[32];

	if (!t->have_diff || t->diff_width == width)
		return;
	pane_free(&t->diff_mix);
	pane_free(&t->diff_sass);
	snprintf(ha, sizeof ha, _("step %d"), t->diff_step - 1);
	snprintf(hb, sizeof hb, _("step %d"), t->diff_step);
	pane_mix(&t->diff, ha, hb, width, &t->diff_mix);
	pane_diff(&t->diff, width, t->unicode, &t->diff_sass);
	t->diff_width = width;
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
	snprintf(buf, sizeof buf, " %s", l->steps[t->diff_step - 2].kernel->name);
	x += crt_text(y, x, cols - x - 16, STYLE_DIFF_DEL, buf);
	x += crt_text(y, x, cols - x - 16, STYLE_NORMAL, arrow);
	snprintf(buf, sizeof buf, "%s ", l->steps[t->diff_step - 1].kernel->name);
	x += crt_text(y, x, cols - x - 16, STYLE_DIFF_ADD, buf);
	if (t->have_diff) {
		snprintf(buf, sizeof buf, " SASS %s ", t->diff.arch);
		if (x + layout_width(buf) + 2 < cols)
			crt_text(y, cols - layout_width(buf) - 1, layout_width(buf), STYLE_PANEL_TITLE, buf);
	}
}

/* The line between the table and the SASS: how they align, and which side is which. */
static void draw_sass_title(struct tui *t, const struct diff_layout *lo, int rows)
{
	const struct sass_diff *d = &t->diff.diff;
	int cols = crt_cols(), y = lo->sass_title.y, x = 1;
	char buf[192];

	crt_hline(y, 0, cols, STYLE_BORDER);
	if (lo->side_by_side) {
		int col = (cols - 5) / 2;
		snprintf(buf, sizeof buf, _(" step %d: %s "), t->diff_step - 1, t->diff.a.symbol);
		crt_text(y, 1, col, STYLE_H3, buf);
		snprintf(buf, sizeof buf, _(" step %d: %s "), t->diff_step, t->diff.b.symbol);
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
		int end = t->diff_top + rows < d->count ? t->diff_top + rows : d->count;
		snprintf(buf, sizeof buf, " %d-%d/%d ", t->diff_top + 1, end, d->count);
		if (x + layout_width(buf) + 2 < cols)
			crt_text(y, cols - layout_width(buf) - 1, layout_width(buf), STYLE_DIM, buf);
	}
}

/* Wide: beside the table, what each step's kernel is and how their SASS aligns. */
static void draw_aside(struct tui *t, const struct diff_layout *lo, int x)
{
	const struct lesson *l = tui_lesson(t);
	const struct sass_diff *d = &t->diff.diff;
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
		const struct kernel_def *kd = l->steps[t->diff_step - 2 + k].kernel;
		struct layout_run run = { _(kd->summary), STYLE_DIM };
		struct layout_line *lines;
		int n = layout_wrap(&run, 1, w - 2, &lines), cx = x;

		y++;
		snprintf(buf, sizeof buf, _("step %d "), t->diff_step - 1 + k);
		cx += crt_text(y, cx, w, STYLE_H3, buf);
		crt_text(y++, cx, x + w - cx, k == 0 ? STYLE_DIFF_DEL : STYLE_DIFF_ADD, kd->name);
		for (int i = 0; i < n && y < end; i++)
			crt_text(y++, x + 2, w - 2, STYLE_DIM, lines[i].nspans ? lines[i].spans[0].text : "");
		layout_lines_free(lines, n);
	}
}

static void draw_diff(struct tui *t)
{
	const struct lesson *l = tui_lesson(t);
	int cols = crt_cols(), rows = crt_rows();
	struct diff_layout lo;
	char where[512];

	snprintf(where, sizeof where, _("%s %s step %d/%d against %d: %s"), l->id,
	    t->unicode ? "\xc2\xb7" : "-", t->diff_step, l->nsteps, t->diff_step - 1,
	    l->steps[t->diff_step - 1].title);
	tui_draw_header(t, where);
	build(t, cols - 1);
	layout_diff(cols, rows, t->have_diff ? t->diff_mix.n : 0, &lo);
	draw_title(t, lo.title.y);
	if (!t->have_diff) {
		struct layout_run run = { t->diff_error ? t->diff_error : "", STYLE_BAD };
		struct layout_line *lines;
		int n = layout_wrap(&run, 1, cols - 8, &lines);

		for (int i = 0; i < n && i < rows - 6; i++)
			crt_text(lo.mix.y + 1 + i, 4, cols - 8, STYLE_BAD, lines[i].nspans ? lines[i].spans[0].text : "");
		layout_lines_free(lines, n);
	} else {
		for (int i = 0; i < lo.mix.h && i < t->diff_mix.n; i++) {
			if (i == lo.mix.h - 1 && t->diff_mix.n > lo.mix.h) {
				char more[384];
				snprintf(more, sizeof more, _("  ... %d more rows: cudatutor diff %s %s shows them all"),
				    t->diff_mix.n - i, t->diff.a.symbol, t->diff.b.symbol);
				crt_text(lo.mix.y + i, 0, cols - 1, STYLE_DIM, more);
				break;
			}
			draw_line(&t->diff_mix.lines[i], lo.mix.y + i, 0, cols - 1);
		}
		if (lo.side_by_side) {
			int mw = 0;
			for (int i = 0; i < t->diff_mix.n; i++)
				if (t->diff_mix.lines[i].width > mw)
					mw = t->diff_mix.lines[i].width;
			draw_aside(t, &lo, mw + 6);
		}
		t->diff_top = layout_scroll_clamp(t->diff_top, lo.sass.h, t->diff_sass.n);
		draw_sass_title(t, &lo, lo.sass.h);
		for (int row = 0; row < lo.sass.h && t->diff_top + row < t->diff_sass.n; row++)
			draw_line(&t->diff_sass.lines[t->diff_top + row], lo.sass.y + row, 0, cols - 1);
	}
	tui_draw_status(t, lo.status.y, t->have_diff ?
	    _("Lines marked - were only in the step before, + only in this one; n goes to the next change.") :
	    _("Esc goes back."));
	tui_draw_footer(t, lo.footer.y, &screen_diff);
}

static int sass_rows(struct tui *t)
{
	struct diff_layout lo;

	layout_diff(crt_cols(), crt_rows(), t->have_diff ? t->diff_mix.n : 0, &lo);
	return lo.sass.h;
}

static int jump(struct tui *t, int dir)
{
	int r;

	if (!t->have_diff)
		return REACT_NONE;
	r = sass_diff_next_change(&t->diff.diff, t->diff_top + DIFF_CONTEXT, dir);
	if (r < 0) {
		tui_message(t, STYLE_MESSAGE, "%s", dir > 0 ? _("No change below.") : _("No change above."));
		return REACT_DRAW;
	}
	t->diff_top = r - DIFF_CONTEXT > 0 ? r - DIFF_CONTEXT : 0;
	return REACT_DRAW;
}

static int diff_key(struct tui *t, const struct crt_event *ev)
{
	const struct lesson *l = tui_lesson(t);
	int rows = sass_rows(t);

	switch (ev->key) {
	case CRT_KEY_DOWN:
	case 'j':
		t->diff_top++;
		return REACT_DRAW;
	case CRT_KEY_UP:
	case 'k':
		if (t->diff_top == 0)
			return REACT_NONE;
		t->diff_top--;
		return REACT_DRAW;
	case CRT_KEY_PGDN:
	case ' ':
		t->diff_top += rows - 1;
		return REACT_DRAW;
	case CRT_KEY_PGUP:
		t->diff_top -= rows - 1;
		if (t->diff_top < 0)
			t->diff_top = 0;
		return REACT_DRAW;
	case CRT_KEY_HOME:
	case 'g':
		t->diff_top = 0;
		return REACT_DRAW;
	case CRT_KEY_END:
	case 'G':
		t->diff_top = t->diff_sass.n;
		return REACT_DRAW;
	case 'n':
		return jump(t, 1);
	case 'N':
		return jump(t, -1);
	case CRT_KEY_RIGHT:
	case 'l':
		if (t->diff_step >= l->nsteps)
			return REACT_NONE;
		view_diff_open(t, t->diff_step + 1);
		return REACT_DRAW;
	case CRT_KEY_LEFT:
	case 'h':
		if (t->diff_step <= 2)
			return REACT_NONE;
		view_diff_open(t, t->diff_step - 1);
		return REACT_DRAW;
	case 's':
	case 'S':
		view_code_open(t, CODE_SASS, t->diff_step);
		return REACT_DRAW;
	case 'm':
	case 'M':
		view_metrics_open(t, t->diff_step);
		return REACT_DRAW;
	case CRT_KEY_MOUSE:
		return tui_wheel_scroll(ev, &t->diff_top) ? REACT_DRAW : REACT_NONE;
	case CRT_KEY_ESC:
	case CRT_KEY_BACKSPACE:
		tui_close_aside(t);
		return REACT_DRAW;
	case 'P':
	case CRT_KEY_F(5):
		t->screen = &screen_present;
		return REACT_DRAW;
	default:
		return REACT_NONE;
	}
}

const struct screen screen_diff = {
	"diff", draw_diff, diff_key, diff_keys, (int)ARRAY_LEN(diff_keys),
};

/* Presenter mode: one step at a time, the time and speedup in big digits, the text in short chunks. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "tui/tui_internal.h"

/* Presenter mode's own state: which part of the page's text it shows. */
static struct {
	int chunk;
	int page;		/* the page it is of */
} present;

static int present_text_width(void)
{
	int cols = crt_cols();
	return cols - 8 > 90 ? 90 : cols - 8;
}

/* The blocks of text on this page (headings and the step line left out): their ids. */
static int page_blocks(struct tui *t, int *blocks, int max, const struct markdown_doc **docp)
{
	const struct markdown_doc *d = study_doc(t, present_text_width());
	int first, count, n = 0;

	markdown_page(d, study_page(t), &first, &count);
	for (int i = first; i < first + count; i++) {
		const struct markdown_line *ln = &d->lines[i];
		if (ln->kind != MARKDOWN_TEXT)
			continue;
		if (n == 0 || blocks[n - 1] != ln->block) {
			if (n == max)
				break;
			blocks[n++] = ln->block;
		}
	}
	*docp = d;
	return n;
}

static void draw_big(struct tui *t, struct layout_rect r, int scale, const char *text, int style)
{
	char row[2048];

	for (int i = 0; i < LAYOUT_BIG_ROWS * scale; i++) {
		layout_big_row(text, i, scale, t->unicode, row, sizeof row);
		crt_text(r.y + i, r.x, r.w + 2, style, row);
	}
}

static void centered(int y, int x, int w, int style, const char *text)
{
	int tw = layout_width(text);
	char *fit = layout_ellipsize(text, w, 0, 1);

	if (tw > w)
		tw = w;
	crt_text(y, x + (w - tw) / 2, w, style, fit);
	free(fit);
}

/* The figures in big digits: the time (three digits are what a room can read) and the speedup. */
static void big_texts(const struct step_result *s, char *time, size_t tlen, char *speed, size_t slen)
{
	if (s != NULL && s->ran) {
		double ms = s->median_ms;
		snprintf(time, tlen, ms >= 100 ? "%.0f" : ms >= 10 ? "%.1f" : ms >= 1 ? "%.2f" :
		    ms >= 0.1 ? "%.3f" : ms >= 0.01 ? "%.4f" : "%.5f", ms);
		snprintf(speed, slen, "%.2fx", s->speedup_first);
	} else {
		snprintf(time, tlen, "-");
		snprintf(speed, slen, "-");
	}
}

/* The step's title, large and plain; on the introduction, the lesson's. */
static void draw_title(struct tui *t, const struct lesson *l, const struct present_layout *lo)
{
	char buf[512];

	if (study_page(t) == 0) {
		centered(lo->title.y, lo->title.x, lo->title.w, STYLE_H1, l->title);
		centered(lo->title.y + 1, lo->title.x, lo->title.w, STYLE_DIM, _("Introduction"));
	} else {
		const struct kernel_def *k = l->steps[study_page(t) - 1].kernel;
		snprintf(buf, sizeof buf, _("Step %d of %d: %s"), study_page(t), l->nsteps, l->steps[study_page(t) - 1].title);
		centered(lo->title.y, lo->title.x, lo->title.w, STYLE_H2, buf);
		snprintf(buf, sizeof buf, "%s %s %s", k->name, t->unicode ? "\xe2\x80\x94" : "-", _(k->summary));
		centered(lo->title.y + 1, lo->title.x, lo->title.w, STYLE_DIM, buf);
	}
}

/* What went wrong, across the screen from row y: the point of such a step. */
static void draw_wrong(const struct step_result *s, int y, int cols)
{
	char lab[512];
	struct layout_run run = { lab, !s->ran || !s->wrong_by_design ? STYLE_BAD : STYLE_EXPECTED };
	struct layout_line *lines;
	int n;

	if (!s->ran)
		snprintf(lab, sizeof lab, _("did not run: %.400s"), s->error);
	else
		snprintf(lab, sizeof lab, s->wrong_by_design ?
		    _("wrong answer, as the lesson expects: %s") : _("WRONG ANSWER: %s"),
		    s->check_detail);
	n = layout_wrap(&run, 1, cols - 8, &lines);
	for (int i = 0; i < n && i < 2; i++) {
		char *text = layout_line_text(&lines[i]);
		centered(y + i, 2, cols - 4, run.style, text);
		free(text);
	}
	layout_lines_free(lines, n);
}

/* Under the figures, rows y and y + 1: what they are, or the run going on, or what to press. */
static void draw_labels(struct tui *t, const struct step_result *s, const struct present_layout *lo, int running,
    int y)
{
	int cols = crt_cols();
	int lw = lo->speedup_big ? lo->big_speedup.x - lo->big_time.x - 2 : cols - 4;
	int lx = lo->speedup_big ? lo->big_time.x : 2;
	char lab[512];

	if (running) {
		snprintf(lab, sizeof lab, _("running... %d/%d runs"), t->ws.done, t->ws.total);
		centered(y, 2, cols - 4, STYLE_MESSAGE, lab);
	} else if (s == NULL) {
		/* TRANSLATORS: in these two, %s is a key, e.g. "r" */
		snprintf(lab, sizeof lab, study_source(t) != SESSION_LIVE ?
		    _("%s shows the result recorded for this step") : _("%s runs this step"),
		    tui_key(t, study_key_run, 0));
		centered(y, 2, cols - 4, STYLE_DIM, lab);
	} else if (!s->ran || !s->correct) {
		draw_wrong(s, y, cols);
	} else {
		crt_text(y, lx, lw, STYLE_STRONG, _("ms per run"));
		crt_text(y + 1, lx, lw, STYLE_NORMAL, tui_step_figures(s, lab, sizeof lab));
		if (lo->speedup_big) {
			crt_text(y, lo->big_speedup.x, cols - lo->big_speedup.x - 1, STYLE_STRONG,
			    _("speedup over step 1"));
			if (study_page(t) > 1) {
				snprintf(lab, sizeof lab, _("%.2fx over the step before"), s->speedup_prev);
				crt_text(y + 1, lo->big_speedup.x, cols - lo->big_speedup.x - 1, STYLE_NORMAL, lab);
			}
		}
	}
}

/* A step's figures in big digits, what they are under them, and whose they are above. */
static void draw_figures(struct tui *t, const struct run_report *rep, const struct step_result *s,
    const struct present_layout *lo, const char *time, const char *speed, int running)
{
	int time_style = STYLE_BIG, cols = crt_cols();
	char buf[512];

	if (s != NULL && s->ran && !s->correct && !s->wrong_by_design)
		time_style = STYLE_BAD;
	draw_big(t, lo->big_time, lo->scale, time, s == NULL ? STYLE_DIM : time_style);
	if (lo->speedup_big)
		draw_big(t, lo->big_speedup, lo->scale, speed, s == NULL ? STYLE_DIM : s->ran &&
		    s->speedup_first < 0.95 ? STYLE_BAD : STYLE_BIG_SPEEDUP);
	draw_labels(t, s, lo, running, lo->big_time.y + LAYOUT_BIG_ROWS * lo->scale);
	if (rep != NULL && s != NULL) {
		if (rep->recorded)
			snprintf(buf, sizeof buf, _(" RECORDED on %s, %.10s "), tui_gpu_short(rep->gpu.name),
			    rep->recorded_date);
		else
			snprintf(buf, sizeof buf, _(" LIVE on %s "), tui_gpu_short(rep->gpu.name));
		centered(lo->big_time.y - 1, 2, cols - 4, rep->recorded ? STYLE_RECORDED : STYLE_LIVE, buf);
	}
}

/* On the introduction, what is to come, from row y. */
static void draw_steps_to_come(struct tui *t, const struct lesson *l, const struct present_layout *lo, int y)
{
	char buf[64];

	crt_text(y++, lo->text.x, lo->text.w, STYLE_H3, _("The steps:"));
	for (int k = 0; k < l->nsteps; k++) {
		int done = progress_is_done(&t->prog, l->id, k + 1);
		snprintf(buf, sizeof buf, "%s %2d  ", done ? (t->unicode ? "\xe2\x9c\x93" : "*") : " ", k + 1);
		crt_text(y, lo->text.x, 6, done ? STYLE_GOOD : STYLE_DIM, buf);
		crt_text(y++, lo->text.x + 6, lo->text.w - 6, STYLE_NORMAL, l->steps[k].title);
	}
}

/* Where we are in the text, on row y: one dot per chunk. */
static void draw_dots(struct tui *t, int nblocks, const struct present_layout *lo, int y)
{
	struct strbuf dots = { 0 };

	strbuf_add(&dots, "", 0);
	for (int i = 0; i < nblocks && i < 40; i++)
		strbuf_add(&dots, i == present.chunk ? (t->unicode ? "\xe2\x97\x8f " : "* ") :
		    (t->unicode ? "\xe2\x97\x8b " : ". "), t->unicode ? 4 : 2);
	centered(y, lo->text.x, lo->text.w, STYLE_DIM, dots.s);
	strbuf_free(&dots);
}

/* The chunk of the page's text shown, then (on the introduction) the steps, and the dots. */
static void draw_chunk(struct tui *t, const struct lesson *l, const struct present_layout *lo)
{
	const struct markdown_doc *d;
	int blocks[256], nblocks = page_blocks(t, blocks, 256, &d);
	int first, count, y, ty = study_page(t) == 0 ? lo->big_time.y : lo->text.y, th = lo->text.h - (ty - lo->text.y);

	if (present.chunk >= nblocks)
		present.chunk = nblocks > 0 ? nblocks - 1 : 0;
	if (nblocks == 0)
		return;
	if (study_page(t) == 0) {
		ty = lo->title.y + 3;
		th = lo->text.y + lo->text.h - ty;
	}
	y = ty;
	markdown_page(d, study_page(t), &first, &count);
	for (int i = first; i < first + count && y < ty + th - 1; i++) {
		const struct markdown_line *ln = &d->lines[i];
		int x = lo->text.x;
		if (ln->block != blocks[present.chunk] || ln->kind != MARKDOWN_TEXT)
			continue;
		for (int k = 0; k < ln->line.nspans; k++)
			x += crt_text(y, x, lo->text.x + lo->text.w - x, ln->line.spans[k].style,
			    ln->line.spans[k].text);
		y++;
	}
	if (study_page(t) == 0 && y + l->nsteps + 2 < ty + th - 1)
		draw_steps_to_come(t, l, lo, y + 1);
	if (nblocks > 1)
		draw_dots(t, nblocks, lo, ty + th - 1);
}

static void draw_present(struct tui *t)
{
	const struct lesson *l = tui_lesson(t);
	const struct run_report *rep = study_report(t);
	const struct step_result *s = study_page(t) > 0 ? study_result(t, rep, study_page(t) - 1) : NULL;
	char time[32], speed[32], buf[512];
	struct present_layout lo;
	int running = t->ws.busy && t->ws.job.kind == WORKER_RUN && t->ws.job.lesson == l &&
	    t->ws.step == study_page(t) - 1;

	big_texts(s, time, sizeof time, speed, sizeof speed);
	layout_present(crt_cols(), crt_rows(), time, speed, l->nsteps, &lo);
	/* The header: where we are, and whose numbers these are. */
	snprintf(buf, sizeof buf, "%s %s %s", l->id, t->unicode ? "\xc2\xb7" : "-", l->title);
	tui_draw_header(t, buf);
	draw_title(t, l, &lo);
	if (study_page(t) > 0)
		draw_figures(t, rep, s, &lo, time, speed, running);
	draw_chunk(t, l, &lo);
	if (lo.chart.h > 0)
		chart_bars(t, lo.chart, study_page(t));
	tui_draw_footer(t, lo.footer.y);
	if (t->message[0] != '\0' || t->ws.busy)
		tui_draw_status(t, lo.footer.y - 1, NULL);
}

static int next_chunk(struct tui *t, int dir)
{
	const struct lesson *l = tui_lesson(t);
	const struct markdown_doc *d;
	int blocks[256], n = page_blocks(t, blocks, 256, &d);

	if (dir > 0) {
		if (present.chunk + 1 < n) {
			present.chunk++;
		} else if (study_page(t) < l->nsteps) {
			study_set_page(t, study_page(t) + 1);
		} else {
			return REACT_NONE;
		}
	} else {
		if (present.chunk > 0) {
			present.chunk--;
		} else if (study_page(t) > 0) {
			study_set_page(t, study_page(t) - 1);
		} else {
			return REACT_NONE;
		}
	}
	return REACT_DRAW;
}

static int key_chunk(struct tui *t, const struct crt_event *ev, int dir)
{
	(void)ev;
	return next_chunk(t, dir);
}

/* The wheel turns the text chunk by chunk. */
static int present_scroll(struct tui *t, int y, int x, int lines)
{
	(void)y;
	(void)x;
	return next_chunk(t, lines > 0 ? 1 : -1);
}

static const struct key_binding present_keys[] = {
	{ "PgDn PgUp", N_("next / previous step (what presentation clickers send)"), "PgDn", N_("next step"),
	  { CRT_KEY_PGDN }, study_key_page, 1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_PGUP }, study_key_page, -1 },
	{ "\xe2\x86\x92 \xe2\x86\x93 Space", N_("the next part of the text, then the next step"), "Space",
	  N_("more"), { ' ', CRT_KEY_RIGHT, CRT_KEY_DOWN, 'j', 'l' }, key_chunk, 1 },
	{ "\xe2\x86\x90 \xe2\x86\x91", N_("the part before"), NULL, NULL, { CRT_KEY_LEFT, CRT_KEY_UP, 'k', 'h' },
	  key_chunk, -1 },
	{ "r  Enter", N_("run this step (no GPU: its recorded result)"), "r", N_("run"), { 'r', 'R', CRT_KEY_ENTER },
	  study_key_run, 0 },
	{ "a", N_("run every step"), NULL, NULL, { 'a', 'A' }, study_key_run_all, 0 },
	{ "x", N_("cancel a run"), NULL, NULL, { 'x', 'X' }, tui_key_cancel, 0 },
	{ "s c p", N_("the step's SASS, source, PTX"), "s", "SASS", { 's', 'S' }, study_key_code, CODE_SASS },
	{ NULL, NULL, NULL, NULL, { 'c' }, study_key_code, CODE_SOURCE },
	{ NULL, NULL, NULL, NULL, { 'p' }, study_key_code, CODE_PTX },
	{ "d m", N_("the step's diff with the step before; its hardware counters"), NULL, NULL, { 'd', 'D' },
	  study_key_diff, 0 },
	{ NULL, NULL, NULL, NULL, { 'm', 'M' }, study_key_counters, 0 },
	{ "+ -", N_("problem size up / down, in powers of two"), NULL, NULL, { '+', '=' }, study_key_size, 1 },
	{ NULL, NULL, NULL, NULL, { '-', '_' }, study_key_size, -1 },
	{ "] [", N_("block size up / down, among the values the kernel takes"), NULL, NULL, { ']' },
	  study_key_block, 1 },
	{ NULL, NULL, NULL, NULL, { '[' }, study_key_block, -1 },
	{ "b", N_("chart GB/s or time"), NULL, NULL, { 'b', 'B' }, study_key_bars, 0 },
	{ "P  F5  Esc", N_("leave presenter mode"), "Esc", N_("leave"), { CRT_KEY_ESC, CRT_KEY_BACKSPACE },
	  tui_key_back, 0 },
	{ NULL, NULL, NULL, NULL, { 'P', CRT_KEY_F(5) }, tui_key_present, 0 },
};

/* A new page starts at its first chunk. */
static void present_news(struct tui *t, enum tui_news what)
{
	if (what != TUI_NEWS_PAGE)
		return;
	if (study_page(t) != present.page)
		present.chunk = 0;
	present.page = study_page(t);
}

/* Presenter mode starts at the page's first chunk, unless it is under the screen the user leaves. */
static int present_open(struct tui *t, const struct screen_arg *arg)
{
	(void)arg;
	if (tui_lesson(t) == NULL)
		return -1;
	if (!tui_on_stack(t, SCREEN_PRESENT))
		present.chunk = 0;
	return 0;
}

const struct screen screen_present = {
	.id = SCREEN_PRESENT,
	.name = "present", .place = SCREEN_ROOT, .up = SCREEN_LESSON, .open = present_open,
	.draw = draw_present, .scroll = present_scroll, .news = present_news,
	.keys = present_keys, .nkeys = (int)ARRAY_LEN(present_keys),
};

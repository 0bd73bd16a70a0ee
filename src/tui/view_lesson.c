/* The lesson screen: the text step by step, the results as they land, running and parameters. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banks.h"
#include "i18n.h"
#include "tui/tui_internal.h"

/* The lesson screen's own state: where its text and its results table are scrolled to. */
static struct {
	int text_top;		/* the first line of the page's text shown */
	int results_top;	/* the first step of the results table */
	int page;		/* the page they are for */
} lesson;

/* ---- drawing ----------------------------------------------------------------- */

/* Whether the results panel shows two GPUs (o) rather than the table. */
static bool comparing(const struct tui *t)
{
	const struct run_report *a, *b;

	return study_comparison(t, &a, &b);
}

/* The rows of the results table: a step's, or a checked kernel of the student's; or two GPUs'. */
static int table_rows(const struct tui *t)
{
	struct lesson_layout lo;

	/* the panel's width does not hang on its rows: ask the layout for it with any */
	layout_lesson(crt_cols(), crt_rows(), 1, &lo);
	if (!comparing(t))
		return chart_rows(t, NULL, 0) + chart_diagnosis_lines(t, lo.results.w, study_page(t));
	return chart_compare_rows(t, lo.results.w);
}

/* Page lines of the open lesson at the text pane's width. */
static const struct markdown_doc *page_doc(struct tui *t, int width, int *first, int *count)
{
	const struct markdown_doc *d = study_doc(t, width);

	markdown_page(d, study_page(t), first, count);
	return d;
}

static int text_width(const struct layout_rect *r)
{
	int w = r->w - 4;
	return w > 100 ? 100 : w;
}

/* The keys the text names: the table is at the end. */
static int key_turn(struct tui *t, const struct crt_event *ev, int dir);
static int key_read_on(struct tui *t, const struct crt_event *ev, int arg);

static void draw_text(struct tui *t, struct layout_rect r)
{
	int tw = text_width(&r), first, count, total;
	const struct markdown_doc *d = page_doc(t, tw, &first, &count);
	const char *next_title = study_next_title(t, -1);
	int next = next_title != NULL;

	total = count + (next ? 2 : 0);
	lesson.text_top = layout_scroll_clamp(lesson.text_top, r.h, total);
	for (int row = 0; row < r.h; row++) {
		int i = lesson.text_top + row, x = r.x + 2;

		if (i < count) {
			const struct layout_line *ln = &d->lines[first + i].line;
			for (int s = 0; s < ln->nspans; s++)
				x += crt_text(r.y + row, x, r.x + 2 + tw - x, ln->spans[s].style, ln->spans[s].text);
		} else if (next && i == count + 1) {
			char keys[128], *hint;

			if (study_page(t) == 0)
				snprintf(keys, sizeof keys, "%s", tui_key(t, key_turn, 1));
			else
				/* TRANSLATORS: two keys that do the same, e.g. "right arrow" and "Space" */
				snprintf(keys, sizeof keys, _("%s or %s"), tui_key(t, key_turn, 1),
				    tui_key(t, key_read_on, 0));
			hint = xasprintf(_("%s next: %s (%s)"), t->unicode ? "\xe2\x86\x92" : "->", next_title, keys);
			crt_text(r.y + row, x, tw, STYLE_DIM, hint);
			free(hint);
		}
	}
	/* A scroll bar when the page does not fit. */
	if (total > r.h && r.h > 2) {
		int bx = r.x + r.w - 1;
		int thumb = r.h * r.h / total, pos;
		if (thumb < 1)
			thumb = 1;
		pos = (r.h - thumb) * lesson.text_top / (total - r.h);
		for (int i = 0; i < r.h; i++)
			crt_text(r.y + i, bx, 1, i >= pos && i < pos + thumb ? STYLE_BAR : STYLE_BORDER,
			    i >= pos && i < pos + thumb ? (t->unicode ? "\xe2\x94\x83" : "#") :
			    (t->unicode ? "\xe2\x94\x82" : "|"));
	}
}

static void where_text(const struct tui *t, char *buf, size_t len)
{
	const struct lesson *l = tui_lesson(t);

	if (study_page(t) == 0)
		snprintf(buf, len, "%s %s %s", l->id, t->unicode ? "\xc2\xb7" : "-", l->title);
	else
		snprintf(buf, len, _("%s %s step %d/%d: %s"), l->id, t->unicode ? "\xc2\xb7" : "-", study_page(t),
		    l->nsteps, l->steps[study_page(t) - 1].title);
}

/* The status line's hint: what to try on this page, with the keys that do it. */
static void status_hint(struct tui *t, char *buf, size_t len)
{
	const struct lesson *l = tui_lesson(t);
	struct banks_access banks;
	const char *sass = tui_key(t, study_key_code, CODE_SASS);

	if (study_page(t) > 0 && banks_of_kernel(l->steps[study_page(t) - 1].kernel->name, &banks) == 0)
		/* TRANSLATORS: %s is a key, e.g. "m" */
		snprintf(buf, len, _("%s: which bank each lane reads at this stride, and the conflicts."),
		    tui_key(t, study_key_counters, 0));
	else if (study_source(t) != SESSION_LIVE)
		/* TRANSLATORS: the %s are keys, e.g. "r" and "s" */
		snprintf(buf, len, _("No GPU: %s shows this step's recorded result; %s shows its SASS."),
		    tui_key(t, study_key_run, 0), sass);
	else
		/* TRANSLATORS: the %s are keys, e.g. "r", "a" and "s" */
		snprintf(buf, len, _("%s runs this step on the GPU, %s runs them all; %s shows its SASS."),
		    tui_key(t, study_key_run, 0), tui_key(t, study_key_run_all, 0), sass);
}

static void draw_lesson(struct tui *t)
{
	struct lesson_layout lo;
	char where[512], hint[512];

	layout_lesson(crt_cols(), crt_rows(), table_rows(t), &lo);
	where_text(t, where, sizeof where);
	tui_draw_header(t, where);
	draw_text(t, lo.text);
	if (lo.side_by_side)
		crt_vline(lo.text.y, lo.text.w, lo.text.h, STYLE_BORDER);
	if (comparing(t))
		chart_compare(t, lo.results, &lesson.results_top);
	else
		chart_table(t, lo.results, lo.chart_inline, study_page(t),
		    chart_diagnosis_lines(t, lo.results.w, study_page(t)), &lesson.results_top);
	if (!lo.chart_inline)
		chart_bars(t, lo.chart, study_page(t));
	status_hint(t, hint, sizeof hint);
	tui_draw_status(t, lo.status.y, hint);
	tui_draw_footer(t, lo.footer.y);
}

/* ---- keys and the mouse -------------------------------------------------------- */

static int inside(const struct layout_rect *r, int y, int x)
{
	return y >= r->y && y < r->y + r->h && x >= r->x && x < r->x + r->w;
}

/* The wheel scrolls the text, or the results table, whichever it is over. */
static int lesson_scroll(struct tui *t, int y, int x, int lines)
{
	struct lesson_layout lo;

	layout_lesson(crt_cols(), crt_rows(), table_rows(t), &lo);
	if (inside(&lo.text, y, x)) {
		tui_scroll(&lesson.text_top, lines);
		return REACT_DRAW;
	}
	if (inside(&lo.results, y, x)) {
		tui_scroll(&lesson.results_top, lines > 0 ? 1 : -1);
		return REACT_DRAW;
	}
	return REACT_NONE;
}

/* A click on a step in the results table or the chart goes to it; on the student's kernel, to its exercise. */
static int lesson_click(struct tui *t, int y, int x)
{
	const struct lesson *l = tui_lesson(t);
	struct lesson_layout lo;
	int n = table_rows(t);

	layout_lesson(crt_cols(), crt_rows(), n, &lo);
	if (comparing(t) && inside(&lo.results, y, x)) {
		int k = chart_compare_step(t, lo.results, lesson.results_top, y);

		if (k < 0)
			return REACT_NONE;
		study_set_page(t, k + 1);
		return REACT_DRAW;
	}
	if (inside(&lo.results, y, x) && y >= lo.results.y + 2) {
		int i = lesson.results_top + y - lo.results.y - 2;
		struct chart_row *rows = xcalloc((size_t)n + 1, sizeof *rows);

		chart_rows(t, rows, n);
		if (i < n) {
			struct chart_row row = rows[i];

			free(rows);
			if (row.yours != NULL)
				for (int k = 0; k < l->nexercises; k++)
					if (l->exercises[k].def == row.yours)
						return tui_switch(t, SCREEN_EXERCISE,
						    &(struct screen_arg){ row.step + 1, CODE_SASS, k + 1 });
			study_set_page(t, row.step + 1);
			return REACT_DRAW;
		}
		free(rows);
	}
	if (!lo.chart_inline && inside(&lo.chart, y, x) && y > lo.chart.y && y - lo.chart.y - 1 < l->nsteps) {
		study_set_page(t, y - lo.chart.y);
		return REACT_DRAW;
	}
	return REACT_NONE;
}

/* The page before (dir -1) or after: a step's, or an exercise's. */
static int key_turn(struct tui *t, const struct crt_event *ev, int dir)
{
	(void)ev;
	return study_turn(t, -1, dir);
}

static int key_scroll(struct tui *t, const struct crt_event *ev, int lines)
{
	(void)t;
	(void)ev;
	return tui_scroll(&lesson.text_top, lines);
}

/* The top (end 0) or the end of the page's text. */
static int key_ends(struct tui *t, const struct crt_event *ev, int end)
{
	(void)t;
	(void)ev;
	lesson.text_top = end ? 1 << 20 : 0;
	return REACT_DRAW;
}

/* Space: the next screenful of the text, then the next step. */
static int key_read_on(struct tui *t, const struct crt_event *ev, int arg)
{
	int first, count, total;
	struct lesson_layout lo;

	(void)ev;
	(void)arg;
	layout_lesson(crt_cols(), crt_rows(), table_rows(t), &lo);
	page_doc(t, text_width(&lo.text), &first, &count);
	total = count + (study_next_title(t, -1) != NULL ? 2 : 0);
	if (lesson.text_top + lo.text.h < total)
		lesson.text_top += lo.text.h - 1;
	else
		return study_turn(t, -1, 1);
	return REACT_DRAW;
}

static const struct key_binding lesson_keys[] = {
	{ "\xe2\x86\x90 \xe2\x86\x92  h l", N_("previous / next step"), "\xe2\x86\x90\xe2\x86\x92", N_("step"),
	  { CRT_KEY_RIGHT, 'l', 'n' }, key_turn, 1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_LEFT, 'h', 'N' }, key_turn, -1 },
	{ "PgUp PgDn", N_("previous / next step (what presentation clickers send)"), NULL, NULL,
	  { CRT_KEY_PGDN }, key_turn, 1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_PGUP }, key_turn, -1 },
	{ "\xe2\x86\x91 \xe2\x86\x93  j k", N_("scroll the text"), NULL, NULL, { CRT_KEY_DOWN, 'j' }, key_scroll, 1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_UP, 'k' }, key_scroll, -1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_HOME, 'g' }, key_ends, 0 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_END, 'G' }, key_ends, 1 },
	{ "Space", N_("read on: the next screenful, then the next step"), NULL, NULL, { ' ' }, key_read_on, 0 },
	{ "r  Enter", N_("run this step (no GPU: show its recorded result)"), "r", N_("run"),
	  { 'r', CRT_KEY_ENTER }, study_key_run, 0 },
	{ "a", N_("run every step of the lesson"), "a", N_("all"), { 'a', 'A' }, study_key_run_all, 0 },
	{ "x  Esc", N_("cancel a run"), NULL, NULL, { 'x', 'X' }, tui_key_cancel, 0 },
	/* the key line keeps the labels it has room for in this order: at 80 columns, up to the diff */
	{ "s", N_("the step's SASS, with what the text points at highlighted"), "s", "SASS", { 's', 'S' },
	  study_key_code, CODE_SASS },
	{ "c", N_("the step's CUDA source"), "c", "CUDA", { 'c' }, study_key_code, CODE_SOURCE },
	{ "p", N_("the step's PTX"), NULL, NULL, { 'p' }, study_key_code, CODE_PTX },
	{ "R", N_("the roofline: every step against the memory and FP32 roofs of its GPU"), "R", N_("roof"),
	  { 'R' }, study_key_aside, SCREEN_ROOFLINE },
	{ "W", N_("the sweep: each step's rate against the size (or block), and where its data fills the L2"),
	  "W", N_("sweep"), { 'W' }, study_key_aside, SCREEN_SWEEP },
	{ "d", N_("this step's kernel against the previous step's: instruction mix and SASS, aligned"), "d",
	  N_("diff"), { 'd', 'D' }, study_key_diff, 0 },
	{ "m", N_("this step's hardware counters; for a stride of the bank-conflicts lesson, its banks"), "m",
	  N_("counters"), { 'm', 'M' }, study_key_counters, 0 },
	{ "o", N_("another GPU's recorded results beside these: each step's time on both, and B vs A; "
	  "again: the next GPU, then back to one"), "o", N_("other GPU"), { 'o', 'O' }, study_key_other, 0 },
	{ "+ -", N_("problem size up / down, in powers of two"), "+-", N_("size"), { '+', '=' },
	  study_key_size, 1 },
	{ NULL, NULL, NULL, NULL, { '-', '_' }, study_key_size, -1 },
	{ "] [", N_("block size up / down, among the values the kernel takes"), "[]", N_("block"), { ']' },
	  study_key_block, 1 },
	{ NULL, NULL, NULL, NULL, { '[' }, study_key_block, -1 },
	{ "b", N_("chart GB/s or time"), NULL, NULL, { 'b', 'B' }, study_key_bars, 0 },
	/* xgettext:no-c-format */
	{ "t", N_("the glossary: SASS, PTX, IQR, %copy, %roof, the counters, occupancy and the other words of the "
	  "tables, said plainly"), "t", N_("glossary"), { 't', 'T' }, study_key_aside, SCREEN_GLOSSARY },
	{ "P  F5", N_("presenter mode"), "P", N_("present"), { 'P', CRT_KEY_F(5) }, tui_key_present, 0 },
	{ "Esc  Backspace", N_("back to the lessons"), "Esc", N_("lessons"), { CRT_KEY_ESC, CRT_KEY_BACKSPACE },
	  tui_key_back, 0 },
};

/* A new page starts at its top, and the results table shows its step. */
static void lesson_news(struct tui *t, enum tui_news what)
{
	const struct lesson *l = tui_lesson(t);

	if (what == TUI_NEWS_LESSON)
		lesson.results_top = 0;
	if (what != TUI_NEWS_PAGE || l == NULL)
		return;
	if (study_page(t) != lesson.page)
		lesson.text_top = 0;
	lesson.page = study_page(t);
	if (study_page(t) > 0)
		lesson.results_top = layout_scroll_to(lesson.results_top, 3, table_rows(t),
		    chart_row_of(t, study_page(t) - 1));
}

static int lesson_open(struct tui *t, const struct screen_arg *arg)
{
	(void)arg;
	return tui_lesson(t) != NULL ? 0 : -1;
}

const struct screen screen_lesson = {
	.id = SCREEN_LESSON,
	.name = "lesson", .place = SCREEN_ROOT, .up = SCREEN_LIST, .open = lesson_open, .draw = draw_lesson,
	.click = lesson_click, .scroll = lesson_scroll, .news = lesson_news,
	.keys = lesson_keys, .nkeys = (int)ARRAY_LEN(lesson_keys),
};

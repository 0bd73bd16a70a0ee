/* An exercise's page: its task, the hints asked for, and what the last check of the student's kernel found. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exercise.h"
#include "i18n.h"
#include "submission.h"
#include "tui/pane.h"
#include "tui/tui_internal.h"

/* The exercise screen's own state: where its text and table are scrolled to (the study says which exercise). */
static struct {
	int text_top;
	int results_top;
	/* what to bring into view on the next frame: the student's file, the check's report, a hint (0 neither) */
	bool show_file;
	bool show_report;
	int show_hint;
} ex;

static const struct lesson_exercise *current(const struct tui *t)
{
	const struct lesson *l = tui_lesson(t);
	int x = study_exercise(t);

	return x >= 0 ? &l->exercises[x] : NULL;
}

/* ---- the text: the section, the hints shown, the student's file and the last check ---- */

static int text_width(const struct layout_rect *r)
{
	int w = r->w - 4;
	return w > 100 ? 100 : w;
}

/* What the page's text is, and where in it the report and the hints start. */
struct body {
	struct pane lines;
	int file;		/* the line that says where the student's file is */
	int report;		/* the first line of the check's report, or -1 */
	int hint[16];		/* the heading of hint k + 1 */
};

static void add_text(struct body *b, const char *text, int style, int width)
{
	pane_add_text(&b->lines, "", text, style, width);
}

static int key_turn(struct tui *t, const struct crt_event *ev, int dir);

/* The task, and the hints shown so far (where each starts noted); then how many are left. */
static void build_task(struct tui *t, const struct lesson_exercise *x, int width, struct body *b)
{
	const struct markdown_doc *d = study_doc(t, width);
	int first, count, shown = practice_hints_shown(t, x);
	struct layout_line blank = { 0 };
	char *line;

	markdown_exercise_page(d, study_exercise(t), &first, &count);
	for (int i = first; i < first + count; i++) {
		const struct markdown_line *ln = &d->lines[i];

		if (ln->hint > shown)
			continue;
		if (ln->hint > 0 && ln->hint <= (int)ARRAY_LEN(b->hint) && ln->kind == MARKDOWN_HEADING &&
		    b->hint[ln->hint - 1] == 0)
			b->hint[ln->hint - 1] = b->lines.n;
		pane_add_line(&b->lines, &ln->line);
	}
	if (shown >= x->nhints)
		return;
	pane_add_line(&b->lines, &blank);
	if (shown == 0)
		/* TRANSLATORS: %s is a key, e.g. "H" */
		line = xasprintf(_("%d hints, one at a time: %s shows the first."), x->nhints,
		    tui_key(t, exercise_key_hint, 0));
	else
		/* TRANSLATORS: %s is a key, e.g. "H" */
		line = xasprintf(_("%d of %d hints shown: %s shows the next."), shown, x->nhints,
		    tui_key(t, exercise_key_hint, 0));
	add_text(b, line, STYLE_DIM, width);
	free(line);
}

/* Where the student's file is, and how it is checked; whether it passed before. */
static void build_file(struct tui *t, const struct lesson_exercise *x, int width, struct body *b)
{
	const struct progress_exercise *p = progress_find_exercise(&t->prog, x->id);
	const char *watched = practice_watched(x->def);
	char *path = exercise_working_path(NULL, x->id), *line;
	struct layout_line blank = { 0 };

	pane_add_line(&b->lines, &blank);
	b->file = b->lines.n;
	if (access(path, F_OK) != 0)
		/* TRANSLATORS: the first %s is a key, e.g. "e" */
		line = xasprintf(_("%s copies the starting file to %s and opens it in your editor."),
		    tui_key(t, exercise_key_write, 0), path);
	else if (watched != NULL)
		line = xasprintf(_("Your file: %s (each save is checked)"), path);
	else
		/* TRANSLATORS: the second and third %s are keys, e.g. "e" and "r" */
		line = xasprintf(_("Your file: %s (%s edits it, %s checks it again)"), path,
		    tui_key(t, exercise_key_write, 0), tui_key(t, exercise_key_check, 0));
	add_text(b, line, STYLE_DIM, width);
	free(line);
	free(path);
	if (p != NULL && p->passed) {
		char ms[32];

		if (p->best_ms > 0)
			line = xasprintf(_("Passed; your best: %s ms on %s."), layout_ms(p->best_ms, ms, sizeof ms),
			    tui_gpu_short(p->gpu));
		else
			line = xasprintf("%s", _("Passed."));
		add_text(b, line, STYLE_GOOD, width);
		free(line);
	}
}

static void build(struct tui *t, int width, struct body *b)
{
	const struct lesson_exercise *x = current(t);
	const struct exercise_report *r = practice_report(x->def);
	const char *next = study_next_title(t, study_exercise(t));
	struct layout_line blank = { 0 };

	memset(b, 0, sizeof *b);
	b->report = -1;
	build_task(t, x, width, b);
	build_file(t, x, width, b);
	if (r != NULL) {
		struct pane report;

		pane_add_line(&b->lines, &blank);
		b->report = b->lines.n;
		pane_exercise(r, width, t->unicode, tui_key(t, exercise_key_hint, 0), &report);
		for (int i = 0; i < report.n; i++)
			pane_add_line(&b->lines, &report.lines[i]);
		pane_free(&report);
	}
	if (next != NULL) {
		char *line = xasprintf(_("%s next: %s (%s)"), t->unicode ? "\xe2\x86\x92" : "->", next,
		    tui_key(t, key_turn, 1));

		pane_add_line(&b->lines, &blank);
		add_text(b, line, STYLE_DIM, width);
		free(line);
	}
}

static void draw_text(struct tui *t, struct layout_rect r)
{
	int tw = text_width(&r);
	struct body b;

	build(t, tw, &b);
	if (ex.show_report && b.report >= 0)
		ex.text_top = b.report;
	else if (ex.show_file)
		ex.text_top = b.file;
	else if (ex.show_hint > 0 && ex.show_hint <= (int)ARRAY_LEN(b.hint) && b.hint[ex.show_hint - 1] > 0)
		ex.text_top = b.hint[ex.show_hint - 1];
	ex.show_report = ex.show_file = false;
	ex.show_hint = 0;
	ex.text_top = layout_scroll_clamp(ex.text_top, r.h, b.lines.n);
	for (int row = 0; row < r.h && ex.text_top + row < b.lines.n; row++) {
		const struct layout_line *ln = &b.lines.lines[ex.text_top + row];
		int x = r.x + 2;

		for (int s = 0; s < ln->nspans; s++)
			x += crt_text(r.y + row, x, r.x + 2 + tw - x, ln->spans[s].style, ln->spans[s].text);
	}
	if (b.lines.n > r.h && r.h > 2) {
		int bx = r.x + r.w - 1, thumb = r.h * r.h / b.lines.n, pos;

		if (thumb < 1)
			thumb = 1;
		pos = (r.h - thumb) * ex.text_top / (b.lines.n - r.h);
		for (int i = 0; i < r.h; i++)
			crt_text(r.y + i, bx, 1, i >= pos && i < pos + thumb ? STYLE_BAR : STYLE_BORDER,
			    i >= pos && i < pos + thumb ? (t->unicode ? "\xe2\x94\x83" : "#") :
			    (t->unicode ? "\xe2\x94\x82" : "|"));
	}
	pane_free(&b.lines);
}

static void draw_exercise(struct tui *t)
{
	const struct lesson *l = tui_lesson(t);
	const struct lesson_exercise *x = current(t);
	struct lesson_layout lo;
	char where[512], hint[512];

	layout_lesson(crt_cols(), crt_rows(), chart_rows(t, NULL, 0), &lo);
	snprintf(where, sizeof where, "%s %s %s", l->id, t->unicode ? "\xc2\xb7" : "-", x->title);
	tui_draw_header(t, where);
	draw_text(t, lo.text);
	if (lo.side_by_side)
		crt_vline(lo.text.y, lo.text.w, lo.text.h, STYLE_BORDER);
	chart_table(t, lo.results, lo.chart_inline, study_page(t), 0, &ex.results_top);
	if (!lo.chart_inline)
		chart_bars(t, lo.chart, study_page(t));
	/* TRANSLATORS: the %s are keys, e.g. "e" and "H" */
	snprintf(hint, sizeof hint, _("%s writes it in your editor, and each save is checked; %s: a hint."),
	    tui_key(t, exercise_key_write, 0), tui_key(t, exercise_key_hint, 0));
	tui_draw_status(t, lo.status.y, hint);
	tui_draw_footer(t, lo.footer.y);
}

/* ---- keys ---------------------------------------------------------------------------- */

static int key_turn(struct tui *t, const struct crt_event *ev, int dir)
{
	(void)ev;
	return study_turn(t, study_exercise(t), dir);
}

static int key_scroll(struct tui *t, const struct crt_event *ev, int lines)
{
	(void)t;
	(void)ev;
	return tui_scroll(&ex.text_top, lines);
}

static int key_ends(struct tui *t, const struct crt_event *ev, int end)
{
	(void)t;
	(void)ev;
	ex.text_top = end ? 1 << 20 : 0;
	return REACT_DRAW;
}

/* Space: the next screenful, then the next page. */
static int key_read_on(struct tui *t, const struct crt_event *ev, int arg)
{
	struct lesson_layout lo;
	struct body b;
	int total;

	(void)ev;
	(void)arg;
	layout_lesson(crt_cols(), crt_rows(), chart_rows(t, NULL, 0), &lo);
	build(t, text_width(&lo.text), &b);
	total = b.lines.n;
	pane_free(&b.lines);
	if (ex.text_top + lo.text.h < total) {
		ex.text_top += lo.text.h - 1;
		return REACT_DRAW;
	}
	return study_turn(t, study_exercise(t), 1);
}

int exercise_key_write(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)ev;
	(void)arg;
	ex.show_file = true;
	return practice_write(t, current(t));
}

int exercise_key_check(struct tui *t, const struct crt_event *ev, int arg)
{
	const struct lesson_exercise *x = current(t);
	char *path = exercise_working_path(NULL, x->id);

	(void)ev;
	(void)arg;
	if (access(path, F_OK) != 0)
		/* TRANSLATORS: %s is a key, e.g. "e" */
		tui_message(t, STYLE_MESSAGE, _("There is nothing of yours to check yet: %s starts the exercise."),
		    tui_key(t, exercise_key_write, 0));
	else if (dir_exists(path))
		/* TRANSLATORS: %s is a key, e.g. "e" */
		tui_message(t, STYLE_ERROR, _("Your working copy %s is a folder, not a file: move it away, and %s starts "
		    "the exercise again from its starting file."), path, tui_key(t, exercise_key_write, 0));
	else
		practice_check(t, x->def);
	free(path);
	return REACT_DRAW;
}

int exercise_key_hint(struct tui *t, const struct crt_event *ev, int arg)
{
	const struct lesson_exercise *x = current(t);
	int before = practice_hints_shown(t, x);

	(void)ev;
	(void)arg;
	practice_hint(t, x, tui_key(t, exercise_key_hint, 0));
	if (practice_hints_shown(t, x) > before)
		ex.show_hint = practice_hints_shown(t, x);
	return REACT_DRAW;
}

/*
 * i: hand the kernel in, as cudatutor submit does, to the folder and
 * under the name chosen once (submit --output FOLDER keeps them).
 */
static int key_hand_in(struct tui *t, const struct crt_event *ev, int arg)
{
	const struct lesson_exercise *x = current(t);
	char folder[4096], name[SUBMISSION_MAX_NAME + 1], *path, *file, *output, *text;
	struct submission s;
	struct error e;

	(void)ev;
	(void)arg;
	if (submission_place_read(folder, sizeof folder, name, sizeof name) != 0) {
		tui_message(t, STYLE_MESSAGE, _("Choose once where you hand in: cudatutor submit %s --name NAME --output "
		    "FOLDER (your teacher says which folder); from then on, %s hands in there."), x->id,
		    tui_key(t, key_hand_in, 0));
		return REACT_DRAW;
	}
	path = exercise_working_path(NULL, x->id);
	if (access(path, F_OK) != 0) {
		/* TRANSLATORS: %s is a key, e.g. "e" */
		tui_message(t, STYLE_MESSAGE, _("There is nothing of yours to hand in yet: %s starts the exercise."),
		    tui_key(t, exercise_key_write, 0));
		free(path);
		return REACT_DRAW;
	}
	if (submission_make(x->id, path, name, &t->prog, &s, &e) != 0) {
		tui_message(t, STYLE_ERROR, _("Nothing was handed in: %s"), e.msg);
		free(path);
		return REACT_DRAW;
	}
	file = submission_file_name(&s);
	output = xasprintf("%s/%s", folder, file);
	text = submission_to_text(&s);
	if (file_write_atomic(output, text, strlen(text), &e) != 0)
		tui_message(t, STYLE_ERROR, _("Nothing was handed in: %s"), e.msg);
	else
		tui_message(t, STYLE_GOOD, _("Handed in as %s, to %s (SHA-256 %.16s): your teacher's tutor judges it again."),
		    name, output, s.sha256);
	free(text);
	free(output);
	free(file);
	submission_free(&s);
	free(path);
	return REACT_DRAW;
}

/*
 * R: the roofline plots the lesson's recorded steps against their GPU's
 * roofs; the student's kernel has no point there (no counted bytes and
 * FLOPs of its own), so the page says where the roofline is instead.
 */
static int key_no_roofline(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)ev;
	(void)arg;
	/* TRANSLATORS: %s is a key, e.g. "R" */
	tui_message(t, STYLE_MESSAGE, _("No roofline here: it plots our steps, not your kernel (%s on a step's page)."),
	    tui_key(t, study_key_aside, SCREEN_ROOFLINE));
	return REACT_DRAW;
}

/* d and s: the student's kernel against ours, or its SASS alone; there is none before a check compiled it. */
static int open_yours(struct tui *t, enum screen_id s)
{
	const struct lesson_exercise *x = current(t);
	const struct exercise_report *r = practice_report(x->def);

	if (r == NULL || r->compiled.sass == NULL) {
		if (r == NULL)
			/* TRANSLATORS: the %s are keys, e.g. "e" and "r" */
			tui_message(t, STYLE_MESSAGE, _("Your kernel has not been checked yet: %s writes it, %s checks it."),
			    tui_key(t, exercise_key_write, 0), tui_key(t, exercise_key_check, 0));
		else
			tui_message(t, STYLE_MESSAGE, "%s", _("Your last check made no SASS to show: see its report."));
		return REACT_DRAW;
	}
	return tui_switch(t, s, &(struct screen_arg){ study_page(t), CODE_SASS, study_exercise(t) + 1 }) | REACT_DRAW;
}

static int key_diff(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)ev;
	(void)arg;
	return open_yours(t, SCREEN_DIFF);
}

static int key_sass(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)ev;
	(void)arg;
	return open_yours(t, SCREEN_CODE);
}

static int exercise_scroll(struct tui *t, int y, int x, int lines)
{
	struct lesson_layout lo;

	layout_lesson(crt_cols(), crt_rows(), chart_rows(t, NULL, 0), &lo);
	if (y >= lo.results.y && y < lo.results.y + lo.results.h && x >= lo.results.x)
		return tui_scroll(&ex.results_top, lines > 0 ? 1 : -1) | REACT_DRAW;
	tui_scroll(&ex.text_top, lines);
	return REACT_DRAW;
}

static const struct key_binding exercise_keys[] = {
	{ "\xe2\x86\x90 \xe2\x86\x92  h l", N_("previous / next page"), "\xe2\x86\x90\xe2\x86\x92", N_("page"),
	  { CRT_KEY_RIGHT, 'l', 'n' }, key_turn, 1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_LEFT, 'h', 'N' }, key_turn, -1 },
	{ "PgUp PgDn", N_("previous / next page (what presentation clickers send)"), NULL, NULL,
	  { CRT_KEY_PGDN }, key_turn, 1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_PGUP }, key_turn, -1 },
	{ "e", N_("write it yourself: your copy of the starting file in $VISUAL or $EDITOR, checked when you "
	  "leave the editor (with neither set, each save is checked)"), "e", N_("write it"), { 'e', 'E' },
	  exercise_key_write, 0 },
	{ "r  Enter", N_("check your kernel again: NVRTC, the SASS checks, and on a GPU its answers and time"),
	  "r", N_("check"), { 'r', CRT_KEY_ENTER }, exercise_key_check, 0 },
	{ "H", N_("the next hint, from a nudge to nearly the answer"), "H", N_("hint"), { 'H' }, exercise_key_hint, 0 },
	{ "i", N_("hand your kernel in to your teacher's folder (chosen once with cudatutor submit --output)"), NULL,
	  NULL, { 'i', 'I' }, key_hand_in, 0 },
	{ "W", N_("the lesson's sweep: each step's rate against the size (or block)"), NULL, NULL, { 'W' },
	  study_key_aside, SCREEN_SWEEP },
	{ "R", N_("no roofline here: it plots the lesson's steps, not your kernel (R on a step's page)"), NULL,
	  NULL, { 'R' }, key_no_roofline, 0 },
	/* xgettext:no-c-format */
	{ "t", N_("the glossary: SASS, PTX, IQR, %copy, %roof, the counters, occupancy and the other words of the "
	  "tables, said plainly"), NULL, NULL, { 't', 'T' }, study_key_aside, SCREEN_GLOSSARY },
	{ "d", N_("your kernel's SASS against ours, aligned by opcode"), "d", N_("vs ours"), { 'd', 'D' },
	  key_diff, 0 },
	{ "s", N_("your kernel's SASS, with what the checks look for highlighted"), "s", "SASS", { 's', 'S' },
	  key_sass, 0 },
	{ "\xe2\x86\x91 \xe2\x86\x93  j k", N_("scroll the text"), NULL, NULL, { CRT_KEY_DOWN, 'j' }, key_scroll, 1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_UP, 'k' }, key_scroll, -1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_HOME, 'g' }, key_ends, 0 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_END, 'G' }, key_ends, 1 },
	{ "Space", N_("read on: the next screenful, then the next step"), NULL, NULL, { ' ' }, key_read_on, 0 },
	{ "x  Esc", N_("cancel a run"), NULL, NULL, { 'x', 'X' }, tui_key_cancel, 0 },
	{ "P  F5", N_("presenter mode"), NULL, NULL, { 'P', CRT_KEY_F(5) }, tui_key_present, 0 },
	{ "Esc  Backspace", N_("back to the lessons"), "Esc", N_("lessons"), { CRT_KEY_ESC, CRT_KEY_BACKSPACE },
	  tui_key_back, 0 },
};

static int exercise_open(struct tui *t, const struct screen_arg *arg)
{
	const struct lesson *l = tui_lesson(t);
	int x = arg != NULL ? arg->exercise - 1 : study_exercise(t);

	if (l == NULL || x < 0 || x >= l->nexercises)
		return -1;
	ex.text_top = 0;
	study_set_exercise(t, x);
	/* The page it leads to: the results table marks that step, where the student's kernel goes. */
	study_set_page(t, arg != NULL && arg->step > 0 ? arg->step : study_page(t));
	ex.results_top = layout_scroll_to(ex.results_top, 3, chart_rows(t, NULL, 0), chart_row_of(t, study_page(t) - 1) + 1);
	return 0;
}

/* A check of this exercise that ended: its report comes into view. */
static void exercise_news(struct tui *t, enum tui_news what)
{
	const struct lesson_exercise *x = current(t);

	if (what == TUI_NEWS_JOB_DONE && x != NULL && t->ws.job.kind == WORKER_EXERCISE && t->ws.job.exercise == x->def &&
	    tui_screen(t)->id == SCREEN_EXERCISE) {
		ex.show_report = true;
		ex.results_top = layout_scroll_to(ex.results_top, 3, chart_rows(t, NULL, 0),
		    chart_row_of(t, study_page(t) - 1) + 1);
	}
}

const struct screen screen_exercise = {
	.id = SCREEN_EXERCISE,
	.name = "exercise", .place = SCREEN_ROOT, .up = SCREEN_LIST, .open = exercise_open,
	.draw = draw_exercise, .scroll = exercise_scroll, .news = exercise_news,
	.keys = exercise_keys, .nkeys = (int)ARRAY_LEN(exercise_keys),
};

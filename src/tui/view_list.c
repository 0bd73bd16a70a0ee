/* The lesson list: every lesson with its steps, what the user has run, and where. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "paths.h"
#include "tui/tui_internal.h"

/* The list's own state. */
static struct {
	int sel, top;			/* the chosen row and the first shown; sel -1: find it */
	int open;			/* the lesson whose steps the list shows */
	struct doc_cache preview;	/* the chosen lesson's text */
} list = { .sel = -1, .preview = { .lesson = -1 } };

/* One line of the list: a lesson, one of its steps, or the reason it does not load. */
struct row {
	int lesson;
	int step;		/* 0: the lesson itself */
	int error;		/* line 1 or 2 of the lesson's error (not selectable) */
};

/* Every lesson, the steps of the open one, and the reasons of those that do not load. */
static int build_rows(const struct tui *t, struct row **rows)
{
	int n = 0;

	*rows = NULL;
	for (int i = 0; i < t->set.count; i++) {
		const struct lesson *l = &t->set.lessons[i];
		int extra = l->error != NULL ? 2 : i == list.open ? l->nsteps : 0;

		*rows = xrealloc(*rows, (size_t)(n + 1 + extra) * sizeof **rows);
		(*rows)[n++] = (struct row){ i, 0, 0 };
		for (int k = 1; k <= extra; k++)
			(*rows)[n++] = l->error != NULL ? (struct row){ i, 0, k } : (struct row){ i, k, 0 };
	}
	return n;
}

/* Choose a lesson or step: its lesson opens in the list, and the rows change. */
static int select_row(struct tui *t, struct row want, struct row **rows)
{
	int n;

	list.open = want.lesson;
	free(*rows);
	n = build_rows(t, rows);
	list.sel = 0;
	for (int i = 0; i < n; i++)
		if ((*rows)[i].lesson == want.lesson && (*rows)[i].step == want.step && !(*rows)[i].error)
			list.sel = i;
	return n;
}

static int selectable(const struct row *r)
{
	return !r->error;
}

/* The lesson and step open now (or last), else the first lesson. */
static struct row initial_row(const struct tui *t)
{
	if (study_li(t) >= 0)
		return (struct row){ study_li(t), study_page(t), 0 };
	for (int i = 0; i < t->set.count; i++)
		if (t->prog.last_lesson[0] != '\0' && strcmp(t->set.lessons[i].id, t->prog.last_lesson) == 0)
			return (struct row){ i, 0, 0 };
	return (struct row){ 0, 0, 0 };
}

static void gpus_text(const struct tui *t, const struct lesson *l, int step, char *buf, size_t len)
{
	const char *names[8];
	int n = progress_step_gpus(&t->prog, l->id, step, names, 8);

	buf[0] = '\0';
	for (int i = 0; i < n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? ", " : "", tui_gpu_short(names[i]));
	if (n == 0 && progress_is_done(&t->prog, l->id, step))
		snprintf(buf, len, "%s", _("recorded"));
}

/* Line r->error (1 or 2) of a lesson that does not load: "lessons/en/09-x.md:6: what is wrong", cut short. */
static void error_row(struct tui *t, const struct row *r, int y, int x, int w)
{
	const char *root = paths_source_root(), *text = t->set.lessons[r->lesson].error;
	struct layout_run run;
	struct layout_line *lines;
	int n;

	if (strncmp(text, root, strlen(root)) == 0 && text[strlen(root)] == '/')
		text += strlen(root) + 1;
	run.text = text;
	run.style = STYLE_BAD;
	n = layout_wrap(&run, 1, w - 8, &lines);
	if (r->error - 1 < n) {
		char *line = layout_line_text(&lines[r->error - 1]), *fit;
		if (r->error == 2 && n > 2) {
			char *more = xasprintf("%s %s", line, lines[2].nspans ? lines[2].spans[0].text : "");
			free(line);
			line = more;
		}
		fit = layout_ellipsize(line, w - 8, 0, t->unicode);
		crt_text(y, x + 6, w - 8, STYLE_BAD, fit);
		free(fit);
		free(line);
	}
	layout_lines_free(lines, n);
}

/* A lesson's row: its number, id and title, and how many of its steps have run. */
static void lesson_row(struct tui *t, const struct row *r, int y, int x, int w, int selected)
{
	const struct lesson *l = &t->set.lessons[r->lesson];
	int base = selected ? STYLE_SELECTED : STYLE_NORMAL;
	int done = progress_done_count(&t->prog, l->id), cx;
	char buf[512], *fit;

	snprintf(buf, sizeof buf, " %2d  ", r->lesson + 1);
	cx = x + crt_text(y, x, w, selected ? base : STYLE_DIM, buf);
	if (l->error != NULL) {
		snprintf(buf, sizeof buf, "%s  %s", l->id, _("(does not load)"));
		crt_text(y, cx, w - (cx - x), selected ? base : STYLE_BAD, buf);
		return;
	}
	crt_text(y, cx, 16, selected ? base : STYLE_H2, l->id);
	cx = x + 5 + 17;
	snprintf(buf, sizeof buf, _("%d/%d run"), done, l->nsteps);
	fit = layout_ellipsize(l->title, w - (cx - x) - layout_width(buf) - 3, 0, t->unicode);
	crt_text(y, cx, w - (cx - x), selected ? base : STYLE_STRONG, fit);
	free(fit);
	crt_text(y, x + w - layout_width(buf) - 1, layout_width(buf), selected ? base :
	    done == l->nsteps ? STYLE_GOOD : STYLE_DIM, buf);
}

/* A step's row: run or not, its number and title, its kernel where there is room, the GPUs it ran on. */
static void step_row(struct tui *t, const struct row *r, int y, int x, int w, int selected)
{
	const struct lesson *l = &t->set.lessons[r->lesson];
	const struct lesson_step *s = &l->steps[r->step - 1];
	int base = selected ? STYLE_SELECTED : STYLE_NORMAL;
	int done = progress_is_done(&t->prog, l->id, r->step);
	char buf[512], gpus[256], *fit;
	int gx, kw = w >= 100 ? 32 : 0, gw = 18, tw, cx = x + 6;
	const char *mark = done ? (t->unicode ? "\xe2\x9c\x93" : "*") : (t->unicode ? "\xc2\xb7" : ".");

	crt_text(y, cx, 2, selected ? base : done ? STYLE_GOOD : STYLE_DIM, mark);
	cx += 2;
	snprintf(buf, sizeof buf, "%2d  ", r->step);
	cx += crt_text(y, cx, 4, selected ? base : STYLE_DIM, buf);
	gpus_text(t, l, r->step, gpus, sizeof gpus);
	tw = w - (cx - x) - gw - kw - 2;
	fit = layout_ellipsize(s->title, tw, 0, t->unicode);
	crt_text(y, cx, tw, base, fit);
	free(fit);
	if (kw > 0) {
		fit = layout_ellipsize(s->kernel->name, kw - 1, 1, t->unicode);
		crt_text(y, cx + tw + 1, kw - 1, selected ? base : STYLE_CODE, fit);
		free(fit);
	}
	gx = x + w - gw - 1;
	fit = layout_ellipsize(gpus, gw, 0, t->unicode);
	crt_text(y, gx, gw, selected ? base : STYLE_DIM, fit);
	free(fit);
}

static void draw_row(struct tui *t, const struct row *r, int y, int x, int w, int selected)
{
	if (selected)
		crt_fill(y, x, w, STYLE_SELECTED);
	if (r->error)
		error_row(t, r, y, x, w);
	else if (r->step == 0)
		lesson_row(t, r, y, x, w, selected);
	else
		step_row(t, r, y, x, w, selected);
}

static void draw_preview(struct tui *t, struct layout_rect r, const struct row *sel)
{
	const struct lesson *l = &t->set.lessons[sel->lesson];
	int first, count, w = r.w - 4 > 90 ? 90 : r.w - 4;
	const struct markdown_doc *d;

	crt_vline(r.y, r.x - 1, r.h, STYLE_BORDER);
	if (l->error != NULL) {
		struct layout_run run = { l->error, STYLE_BAD };
		struct layout_line *lines;
		int n = layout_wrap(&run, 1, w, &lines);

		crt_text(r.y + 1, r.x + 2, w, STYLE_H2, _("This lesson does not load:"));
		for (int i = 0; i < n && i + 3 < r.h; i++)
			crt_text(r.y + 3 + i, r.x + 2, w, STYLE_BAD, lines[i].spans ? lines[i].spans[0].text : "");
		layout_lines_free(lines, n);
		crt_text(r.y + 4 + n, r.x + 2, w, STYLE_DIM, _("Fix the file and start the tutor again; the other lessons work."));
		return;
	}
	d = study_render(t, &list.preview, sel->lesson, w);
	markdown_page(d, sel->step, &first, &count);
	for (int i = 0; i < count && i < r.h - 1; i++) {
		const struct layout_line *ln = &d->lines[first + i].line;
		int x = r.x + 2;
		for (int s = 0; s < ln->nspans; s++)
			x += crt_text(r.y + 1 + i, x, r.x + 2 + w - x, ln->spans[s].style, ln->spans[s].text);
	}
}

static int key_open(struct tui *t, const struct crt_event *ev, int present);

static void draw_list(struct tui *t)
{
	struct list_layout lo;
	struct row *rows;
	int n = build_rows(t, &rows), h;
	char hint[512];

	layout_list(crt_cols(), crt_rows(), &lo);
	if (list.sel < 0 || list.sel >= n)
		n = select_row(t, initial_row(t), &rows);
	tui_draw_header(t, _("lessons"));
	h = lo.list.h - 1;
	crt_hline(lo.list.y, lo.list.x, lo.list.w, STYLE_BORDER);
	crt_text(lo.list.y, lo.list.x + 1, lo.list.w - 2, STYLE_PANEL_TITLE,
	    _(" Lessons and their steps "));
	{
		const char *legend = t->unicode ? _(" \xe2\x9c\x93 run, and on which GPU ") :
		    _(" * run, and on which GPU ");
		int lw = layout_width(legend);
		if (lo.list.w > lw + 30)
			crt_text(lo.list.y, lo.list.x + lo.list.w - lw - 1, lw, STYLE_DIM, legend);
	}
	list.top = layout_scroll_to(list.top, h, n, list.sel);
	for (int i = 0; i < h && list.top + i < n; i++)
		draw_row(t, &rows[list.top + i], lo.list.y + 1 + i, lo.list.x, lo.list.w,
		    list.top + i == list.sel);
	if (lo.preview.w > 0)
		draw_preview(t, lo.preview, &rows[list.sel]);
	/* TRANSLATORS: %s is a key, e.g. "Enter" */
	snprintf(hint, sizeof hint, _("%s opens the chosen lesson or step. New here? Start with the first."),
	    tui_key(t, key_open, 0));
	tui_draw_status(t, lo.status.y, hint);
	tui_draw_footer(t, lo.footer.y);
	free(rows);
}

static int move(struct tui *t, struct row **rows, int n, int delta)
{
	int i = list.sel;

	for (int step = 0; step < (delta < 0 ? -delta : delta); step++) {
		int j = i + (delta < 0 ? -1 : 1);
		while (j >= 0 && j < n && !selectable(&(*rows)[j]))
			j += delta < 0 ? -1 : 1;
		if (j < 0 || j >= n)
			break;
		i = j;
	}
	return select_row(t, (*rows)[i], rows);
}

static int open_row(struct tui *t, const struct row *r, int present)
{
	const struct lesson *l = &t->set.lessons[r->lesson];
	int page = r->step;

	if (l->error != NULL) {
		tui_message(t, STYLE_ERROR, "%s", l->error);
		return REACT_DRAW;
	}
	if (r->step == 0) {
		if (r->lesson == study_li(t))
			page = study_page(t);
		else if (strcmp(l->id, t->prog.last_lesson) == 0)
			page = t->prog.last_step;
	}
	study_open(t, r->lesson, page);
	study_save(t);
	return tui_switch(t, present ? SCREEN_PRESENT : SCREEN_LESSON, NULL);
}

/* ---- keys and the mouse -------------------------------------------------------- */

/* The rows now, one of them chosen. */
static int rows_now(struct tui *t, struct row **rows)
{
	int n = build_rows(t, rows);

	if (list.sel < 0 || list.sel >= n)
		n = select_row(t, initial_row(t), rows);
	return n;
}

/* Down (arg > 0) or up by arg rows, or by arg screenfuls when screenful. */
static int move_by(struct tui *t, int arg, int screenful)
{
	struct row *rows;
	int n = rows_now(t, &rows);
	struct list_layout lo;

	layout_list(crt_cols(), crt_rows(), &lo);
	move(t, &rows, n, screenful ? arg * (lo.list.h - 2) : arg);
	free(rows);
	return REACT_DRAW;
}

static int key_move(struct tui *t, const struct crt_event *ev, int dir)
{
	(void)ev;
	return move_by(t, dir, 0);
}

static int key_screenful(struct tui *t, const struct crt_event *ev, int dir)
{
	(void)ev;
	return move_by(t, dir, 1);
}

/* The first lesson, or (end 1) the last. */
static int key_ends(struct tui *t, const struct crt_event *ev, int end)
{
	struct row *rows;

	(void)ev;
	rows_now(t, &rows);
	select_row(t, (struct row){ end ? t->set.count - 1 : 0, 0, 0 }, &rows);
	free(rows);
	return REACT_DRAW;
}

/* Open the chosen row, in presenter mode when present. */
static int key_open(struct tui *t, const struct crt_event *ev, int present)
{
	struct row *rows;
	int rc;

	(void)ev;
	rows_now(t, &rows);
	rc = open_row(t, &rows[list.sel], present);
	free(rows);
	return rc;
}

static int list_scroll(struct tui *t, int y, int x, int lines)
{
	(void)y;
	(void)x;
	return move_by(t, lines, 0);
}

/* A click chooses a row; a click on the chosen row opens it. */
static int list_click(struct tui *t, int y, int x)
{
	struct row *rows;
	int n = rows_now(t, &rows), old = list.sel, rc = REACT_NONE;
	struct list_layout lo;

	layout_list(crt_cols(), crt_rows(), &lo);
	if (y > lo.list.y && y < lo.list.y + lo.list.h && x < lo.list.x + lo.list.w) {
		int i = list.top + y - lo.list.y - 1;

		if (i < n && selectable(&rows[i])) {
			if (i == list.sel) {
				rc = open_row(t, &rows[i], 0);
			} else {
				select_row(t, rows[i], &rows);
				rc = REACT_DRAW;
			}
		}
	}
	free(rows);
	return list.sel != old ? REACT_DRAW : rc;
}

static const struct key_binding list_keys[] = {
	{ "\xe2\x86\x91 \xe2\x86\x93  j k", N_("choose a lesson or a step"), "\xe2\x86\x91\xe2\x86\x93", N_("choose"),
	  { CRT_KEY_DOWN, 'j' }, key_move, 1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_UP, 'k' }, key_move, -1 },
	{ "Enter  \xe2\x86\x92", N_("open it (a step: the lesson at that step)"), "Enter", N_("open"),
	  { CRT_KEY_ENTER, CRT_KEY_RIGHT, 'l' }, key_open, 0 },
	{ "PgUp PgDn", N_("a screenful up / down"), NULL, NULL, { CRT_KEY_PGDN }, key_screenful, 1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_PGUP }, key_screenful, -1 },
	{ "Home End", N_("first / last"), NULL, NULL, { CRT_KEY_HOME, 'g' }, key_ends, 0 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_END, 'G' }, key_ends, 1 },
	{ "P  F5", N_("open it in presenter mode"), "P", N_("present"), { 'P', CRT_KEY_F(5) }, key_open, 1 },
	{ "Esc", N_("back to the open lesson"), NULL, NULL, { CRT_KEY_ESC, CRT_KEY_BACKSPACE, CRT_KEY_LEFT },
	  tui_key_back, 0 },
};

/* From the lesson: its row is chosen when the list is drawn, and where the user was is saved. */
static int list_open(struct tui *t, const struct screen_arg *arg)
{
	(void)arg;
	if (tui_lesson(t) != NULL)
		study_save(t);
	list.sel = -1;
	return 0;
}

static void list_close(struct tui *t)
{
	(void)t;
	markdown_free(&list.preview.doc);
}

const struct screen screen_list = {
	.id = SCREEN_LIST,
	.name = "list", .place = SCREEN_ROOT, .up = SCREEN_LESSON, .open = list_open, .close = list_close,
	.draw = draw_list, .click = list_click, .scroll = list_scroll,
	.keys = list_keys, .nkeys = (int)ARRAY_LEN(list_keys),
};

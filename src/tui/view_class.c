/*
 * The class view: a folder of handed-in kernels judged again on this
 * machine's GPUs as they arrive (inotify), one exercise's board at a time,
 * the newest marked; in presenter mode the ranked times in big digits.
 * Enter shows a submission's source beside ours, d their SASS aligned.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "class.h"
#include "cli/cli.h"
#include "cli/cli_class.h"
#include "compare.h"
#include "exercise.h"
#include "i18n.h"
#include "registry.h"
#include "session.h"
#include "tui/tui_internal.h"

enum detail { DETAIL_NONE, DETAIL_SOURCE, DETAIL_SASS };

static struct {
	bool started;
	struct class_board b;
	int inotify;			/* the folder watched, or -1 */
	int ex;				/* the exercise shown: its index among the sorted ids */
	char shown[64];			/* and its id, kept as other exercises arrive */
	int sel, top;			/* the row chosen, the first row shown */
	bool big;			/* presenter mode: the ranked times in big digits */
	enum detail detail;		/* a submission's source, or its SASS against ours */
	char **lines;			/* what the detail shows: the SASS diff, one string a line */
	int nlines, dtop;
	char **yours, **ours;		/* the two sources side by side, a string a line, split once */
	int nyours, nours;
	char detail_file[256];		/* the entry the detail is of */
	double drawn;			/* when a tick last asked for a frame */
} cls = { .inotify = -1 };

/* ---- the folder, watched ------------------------------------------------------------ */

int class_view_start(struct tui *t, const char *dir, const char *only, bool big, struct error *e)
{
	(void)t;
	if (class_open(&cls.b, dir, only, e) != 0)
		return -1;
	cls.started = true;
	cls.big = big;
	snprintf(cls.shown, sizeof cls.shown, "%s", only != NULL ? only : "");
	cls.inotify = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	/* without inotify the folder is looked at again on every tick instead */
	if (cls.inotify >= 0 && inotify_add_watch(cls.inotify, dir, IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM |
	    IN_CREATE | IN_DELETE | IN_ATTRIB) < 0) {
		close(cls.inotify);
		cls.inotify = -1;
	}
	class_scan(&cls.b);
	return 0;
}

bool class_view_started(void)
{
	return cls.started;
}

int class_view_fd(void)
{
	return cls.started ? cls.inotify : -1;
}

/* While checks wait or run, the loop wakes often enough to see them end. */
int class_view_timeout(void)
{
	if (!cls.started)
		return -1;
	for (int i = 0; i < cls.b.n; i++)
		if (cls.b.entries[i].state == CLASS_WAITING || cls.b.entries[i].state == CLASS_JUDGING)
			return 200;
	return cls.inotify < 0 ? 1000 : -1;
}

int class_view_tick(struct tui *t)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	bool look = cls.inotify < 0, changed = false;
	int r = REACT_NONE;

	(void)t;
	if (!cls.started)
		return REACT_NONE;
	while (cls.inotify >= 0 && read(cls.inotify, buf, sizeof buf) > 0)
		look = true;
	if (look && class_scan(&cls.b) > 0)
		r = REACT_DRAW;
	if (class_judge(&cls.b, 0, &changed) > 0 && now_seconds() - cls.drawn >= 1.0)
		changed = true;	/* the seconds a check has taken, going up */
	if (changed || r == REACT_DRAW)
		cls.drawn = now_seconds();
	return changed ? REACT_DRAW : r;
}

static void split_lines(const char *text, char ***lines, int *n)
{
	const char *p = text;

	*lines = NULL;
	*n = 0;
	while (p != NULL && *p != '\0') {
		const char *end = strchr(p, '\n');
		size_t len = end != NULL ? (size_t)(end - p) : strlen(p);

		*lines = xrealloc(*lines, (size_t)(*n + 1) * sizeof **lines);
		(*lines)[(*n)++] = xasprintf("%.*s", (int)len, p);
		p = end != NULL ? end + 1 : NULL;
	}
}

static void lines_free(char ***lines, int *n)
{
	for (int i = 0; i < *n; i++)
		free((*lines)[i]);
	free(*lines);
	*lines = NULL;
	*n = 0;
}

static void detail_free(void)
{
	lines_free(&cls.lines, &cls.nlines);
	lines_free(&cls.yours, &cls.nyours);
	lines_free(&cls.ours, &cls.nours);
	cls.detail = DETAIL_NONE;
}

void class_view_free(void)
{
	if (!cls.started)
		return;
	detail_free();
	if (cls.inotify >= 0)
		close(cls.inotify);
	cls.inotify = -1;
	class_close(&cls.b);
	cls.started = false;
}

/* ---- what one exercise's board holds ------------------------------------------------- */

/* The exercises handed in, sorted: how many; ids[i] point into the entries. */
static int exercises(const char **ids, int max)
{
	int n = 0;

	for (int i = 0; i < cls.b.n; i++) {
		const struct class_entry *x = &cls.b.entries[i];
		int at = 0;

		if (x->state == CLASS_BAD)
			continue;
		while (at < n && strcmp(ids[at], x->sub.exercise) < 0)
			at++;
		if ((at < n && strcmp(ids[at], x->sub.exercise) == 0) || n == max)
			continue;
		memmove(ids + at + 1, ids + at, (size_t)(n - at) * sizeof *ids);
		ids[at] = x->sub.exercise;
		n++;
	}
	return n;
}

/* The rows of the board shown: its exercise's entries in board order, then the bad files. */
static int board_rows(int *rows, const char **exercise, int *nex)
{
	const char *ids[64];
	int *order = xmalloc(((size_t)cls.b.n + 1) * sizeof *order), n = 0;

	*nex = exercises(ids, (int)ARRAY_LEN(ids));
	cls.ex = 0;
	for (int i = 0; i < *nex; i++)
		if (strcmp(ids[i], cls.shown) == 0)
			cls.ex = i;
	*exercise = *nex > 0 ? ids[cls.ex] : NULL;
	snprintf(cls.shown, sizeof cls.shown, "%s", *exercise != NULL ? *exercise : "");
	class_order(&cls.b, order);
	for (int k = 0; k < cls.b.n; k++) {
		const struct class_entry *x = &cls.b.entries[order[k]];
		if (x->state == CLASS_BAD || (*exercise != NULL && strcmp(x->sub.exercise, *exercise) == 0))
			rows[n++] = order[k];
	}
	free(order);
	return n;
}

static void ms_text(double ms, char *buf, size_t len)
{
	snprintf(buf, len, ms >= 100 ? "%.0f" : ms >= 10 ? "%.1f" : ms >= 1 ? "%.2f" : ms >= 0.1 ? "%.3f" :
	    ms >= 0.01 ? "%.4f" : "%.5f", ms);
}

/* One row of the table: rank, name, verdict, time, x ref, and why (or the GPU). */
static void draw_row(struct tui *t, int y, int cols, const struct class_entry *x, bool chosen, bool fresh)
{
	char cell[1200], detail[1024], ms[32];
	int style = chosen ? STYLE_SELECTED : x->state == CLASS_BAD ? STYLE_DIM : STYLE_NORMAL;
	int vstyle = chosen ? STYLE_SELECTED : x->state != CLASS_JUDGED ? STYLE_DIM :
	    x->v.passed ? STYLE_GOOD : x->v.graded ? STYLE_BAD : STYLE_DIM;
	char *name;

	if (chosen)
		crt_fill(y, 0, cols, STYLE_SELECTED);
	crt_text(y, 0, 2, fresh ? STYLE_STRONG : style, fresh ? (t->unicode ? "\xe2\x97\x8f" : "*") : " ");
	if (x->state == CLASS_BAD) {
		snprintf(cell, sizeof cell, "%s: %s", x->file, x->problem);
		name = layout_ellipsize(cell, cols - 8, 0, t->unicode);
		crt_text(y, 7, cols - 8, style, name);
		free(name);
		return;
	}
	if (x->rank > 0) {
		snprintf(cell, sizeof cell, "%4d", x->rank);
		crt_text(y, 1, 5, style, cell);
	}
	name = layout_ellipsize(x->sub.name, 18, 0, t->unicode);
	crt_text(y, 7, 18, chosen ? style : STYLE_STRONG, name);
	free(name);
	crt_text(y, 26, 11, vstyle, cli_class_word(x));
	if (x->state == CLASS_JUDGED && x->v.ms > 0) {
		ms_text(x->v.ms, ms, sizeof ms);
		snprintf(cell, sizeof cell, "%9s %5.2fx", ms, x->v.ratio);
		crt_text(y, 38, 16, style, cell);
	}
	if (x->state == CLASS_JUDGING)
		snprintf(detail, sizeof detail, _("on %s, %.0f s"), x->slot < cls.b.nslots && cls.b.slot_gpu[x->slot][0] ?
		    tui_gpu_short(cls.b.slot_gpu[x->slot]) : _("this machine"), now_seconds() - x->started);
	else if (x->rank > 0)
		snprintf(detail, sizeof detail, "%s", tui_gpu_short(x->v.gpu));
	else
		cli_class_detail(&cls.b, x, detail, sizeof detail);
	name = layout_ellipsize(detail, cols - 56, 0, t->unicode);
	crt_text(y, 55, cols - 56, chosen ? style : STYLE_DIM, name);
	free(name);
}

/* Presenter mode: each ranked time in big digits, the name beside it. */
static int draw_big_rows(struct tui *t, int y, int bottom, int cols, const int *rows, int n, int fresh)
{
	char ms[32], line[2048], label[256], ratio[16];

	for (int k = 0; k < n && y + LAYOUT_BIG_ROWS <= bottom; k++) {
		const struct class_entry *x = &cls.b.entries[rows[k]];
		int w;

		if (x->rank == 0)
			break;
		ms_text(x->v.ms, ms, sizeof ms);
		w = layout_big_width(ms, 1);
		snprintf(label, sizeof label, "%d", x->rank);
		crt_text(y + 2, 1, 4, STYLE_H1, label);
		for (int i = 0; i < LAYOUT_BIG_ROWS; i++) {
			layout_big_row(ms, i, 1, t->unicode, line, sizeof line);
			crt_text(y + i, 6, w + 1, rows[k] == fresh ? STYLE_BIG_SPEEDUP : STYLE_BIG, line);
		}
		crt_text(y + 1, 8 + w, cols - 9 - w, STYLE_H1, x->sub.name);
		snprintf(label, sizeof label, _("ms, %sx the reference's time, on %s"),
		    session_exercise_ratio_text(x->v.ratio, ratio, sizeof ratio), tui_gpu_short(x->v.gpu));
		crt_text(y + 3, 8 + w, cols - 9 - w, STYLE_DIM, label);
		if (rows[k] == fresh)
			crt_text(y + 2, 8 + w, cols - 9 - w, STYLE_STRONG, _("newest"));
		y += LAYOUT_BIG_ROWS + 1;
	}
	return y;
}

/* "12 submissions: 9 judged on H200, 2 being judged, 1 waiting" and the like. */
static void summary_line(char *buf, size_t len, const char *exercise)
{
	int total = 0, judged = 0, judging = 0, waiting = 0, bad = 0;
	char gpus[256] = "";

	for (int i = 0; i < cls.b.n; i++) {
		const struct class_entry *x = &cls.b.entries[i];
		if (x->state == CLASS_BAD) {
			bad++;
			continue;
		}
		if (exercise == NULL || strcmp(x->sub.exercise, exercise) != 0)
			continue;
		total++;
		judged += x->state == CLASS_JUDGED;
		judging += x->state == CLASS_JUDGING;
		waiting += x->state == CLASS_WAITING;
	}
	for (int s = 0; cls.b.gpu && s < cls.b.nslots; s++)
		if (strstr(gpus, tui_gpu_short(cls.b.slot_gpu[s])) == NULL)
			snprintf(gpus + strlen(gpus), sizeof gpus - strlen(gpus), "%s%s", gpus[0] ? ", " : "",
			    tui_gpu_short(cls.b.slot_gpu[s]));
	snprintf(buf, len, _("%d submitted: %d judged, %d being judged, %d waiting; not submissions: %d; %s"), total,
	    judged, judging, waiting, bad, cls.b.gpu ? gpus : _("no GPU: SASS only, nothing ranked"));
}

/* ---- the detail: a submission's source beside ours, or their SASS ---------------------------- */

/* Compile the submission's source here and align its SASS with our reference's: the lines to show. */
static void load_sass(const struct class_entry *x, int width)
{
	const struct exercise_def *def = exercise_lookup(x->sub.exercise, &(struct error){ "" });
	const struct kernel_def *target = def != NULL ? registry_find(def->target) : NULL;
	char *src = xasprintf("%s/sources/%s-%.16s.cu", cls.b.cache, x->sub.exercise, x->sub.sha256);
	struct exercise_result r = { 0 };
	struct compare c = { 0 };
	struct error e = { "" }, why;
	char arch[16], *text = NULL;
	size_t len = 0;
	FILE *out;

	if (target == NULL || session_arch_here(target->module, arch, sizeof arch, &why) != 0)
		snprintf(arch, sizeof arch, "%s", SESSION_FALLBACK_ARCH);
	out = open_memstream(&text, &len);
	if (def == NULL || file_write_atomic(src, x->sub.source, x->sub.len, &e) != 0 ||
	    exercise_compile_file(def, src, arch, NULL, &r, &e) != 0)
		fprintf(out, "%s\n", e.msg);
	else if (!r.ok)
		fprintf(out, "%s\n", r.diagnostics);
	else if (r.sass == NULL)
		fprintf(out, "%s\n", r.sass_error != NULL ? r.sass_error : _("no SASS"));
	else if (compare_resolve(&c, def->target, def->target, 0, &e) != 0 ||
	    compare_load_text(&c, r.arch, r.sass, r.have_resources ? &r.resources : NULL, &e) != 0)
		fprintf(out, "%s\n", e.msg);
	else
		cli_print_diff(out, &c, width, FORMAT_TEXT);
	fclose(out);
	split_lines(text, &cls.lines, &cls.nlines);
	free(text);
	compare_free(&c);
	exercise_result_free(&r);
	free(src);
}

static void open_detail(struct tui *t, const struct class_entry *x, enum detail d)
{
	char *path = exercise_solution_path(x->sub.exercise), *ours;
	size_t len;

	detail_free();
	cls.detail = d;
	cls.dtop = 0;
	snprintf(cls.detail_file, sizeof cls.detail_file, "%s", x->file);
	ours = path != NULL ? file_read(path, &len) : NULL;
	split_lines(x->sub.source, &cls.yours, &cls.nyours);
	split_lines(ours != NULL ? ours : _("(our solution is not installed)"), &cls.ours, &cls.nours);
	free(ours);
	free(path);
	if (d == DETAIL_SASS) {
		tui_message(t, STYLE_MESSAGE, _("%s's kernel compiled here with NVRTC, its SASS aligned with our reference's."),
		    x->sub.name);
		load_sass(x, crt_cols() - 2);
	}
}

static void draw_detail(int y, int bottom, int cols)
{
	if (cls.detail == DETAIL_SASS) {
		for (int i = cls.dtop; i < cls.nlines && y < bottom; i++)
			crt_text(y++, 1, cols - 2, STYLE_CODE, cls.lines[i]);
		return;
	}
	{
		int half = (cols - 3) / 2;

		crt_text(y, 1, half, STYLE_PANEL_TITLE, _("theirs"));
		crt_text(y, half + 2, half, STYLE_PANEL_TITLE, _("ours (the exercise's solution)"));
		y++;
		for (int i = cls.dtop; (i < cls.nyours || i < cls.nours) && y < bottom; i++, y++) {
			if (i < cls.nyours)
				crt_text(y, 1, half, STYLE_CODE, cls.yours[i]);
			crt_vline(y, half + 1, 1, STYLE_BORDER);
			if (i < cls.nours)
				crt_text(y, half + 2, half, STYLE_CODE, cls.ours[i]);
		}
	}
}

/* ---- the screen ------------------------------------------------------------------------ */

static void draw_class(struct tui *t)
{
	int cols = crt_cols(), rows = crt_rows(), y = 1, bottom = rows - 2, nex, n, fresh = class_newest(&cls.b);
	int *order = xmalloc(((size_t)cls.b.n + 1) * sizeof *order);
	const char *exercise;
	char where[512], line[1024];

	n = board_rows(order, &exercise, &nex);
	if (nex > 1)
		snprintf(where, sizeof where, _("class %s %s (%d of %d exercises)"), t->unicode ? "\xc2\xb7" : "-",
		    exercise, cls.ex + 1, nex);
	else
		snprintf(where, sizeof where, _("class %s %s"), t->unicode ? "\xc2\xb7" : "-",
		    exercise != NULL ? exercise : cls.b.dir);
	tui_draw_header(t, where);
	if (cls.detail != DETAIL_NONE) {
		snprintf(line, sizeof line, cls.detail == DETAIL_SASS ? _("%s: SASS, our reference's (A) against theirs (B)") :
		    _("%s: the source handed in, beside ours"), cls.detail_file);
		crt_text(y++, 1, cols - 2, STYLE_DIM, line);
		draw_detail(y, bottom, cols);
		tui_draw_status(t, rows - 2, NULL);
		tui_draw_footer(t, rows - 1);
		free(order);
		return;
	}
	summary_line(line, sizeof line, exercise);
	crt_text(y++, 1, cols - 2, STYLE_DIM, line);
	if (cls.b.note[0])
		crt_text(y++, 1, cols - 2, STYLE_ERROR, cls.b.note);
	if (cls.b.n == 0) {
		snprintf(line, sizeof line, _("No submissions in %s yet: students hand them in with 'cudatutor submit', "
		    "and each appears here as it arrives."), cls.b.dir);
		crt_text(y + 1, 1, cols - 2, STYLE_STRONG, line);
	} else {
		int first = 0;

		if (cls.sel >= n)
			cls.sel = n > 0 ? n - 1 : 0;
		if (cls.big) {
			y = draw_big_rows(t, y + 1, bottom, cols, order, n, fresh);
			while (first < n && cls.b.entries[order[first]].rank > 0)
				first++;
		}
		if (y < bottom) {
			crt_text(y, 1, 5, STYLE_DIM, _("rank"));
			crt_text(y, 7, 18, STYLE_DIM, _("name"));
			crt_text(y, 26, 11, STYLE_DIM, _("verdict"));
			snprintf(line, sizeof line, "%9s %6s", _("ms"), _("x ref"));
			crt_text(y, 38, 16, STYLE_DIM, line);
			crt_text(y, 55, cols - 56, STYLE_DIM, _("why, or the GPU"));
			y++;
		}
		if (cls.sel < first)
			cls.sel = first;
		if (cls.top < first)
			cls.top = first;
		if (cls.sel < cls.top)
			cls.top = cls.sel;
		if (cls.sel >= cls.top + (bottom - y))
			cls.top = cls.sel - (bottom - y) + 1;
		/* the chosen row's whole reason takes the last two rows: the table is too narrow for it */
		if (cls.sel < n && bottom - y > 4) {
			const struct class_entry *x = &cls.b.entries[order[cls.sel]];
			struct layout_line *wrapped;
			int nw;

			cli_class_detail(&cls.b, x, line, sizeof line);
			if (line[0] != '\0') {
				nw = layout_wrap(&(struct layout_run){ line, STYLE_EMPH }, 1, cols - 2, &wrapped);
				for (int i = 0; i < nw && i < 2; i++) {
					char *text = layout_line_text(&wrapped[i]);

					crt_text(bottom - 2 + i, 1, cols - 2, STYLE_EMPH, text);
					free(text);
				}
				layout_lines_free(wrapped, nw);
				bottom -= 2;
			}
		}
		if (cls.sel >= cls.top + (bottom - y))
			cls.top = cls.sel - (bottom - y) + 1;
		for (int k = cls.top; k < n && y < bottom; k++)
			draw_row(t, y++, cols, &cls.b.entries[order[k]], k == cls.sel, order[k] == fresh);
	}
	tui_draw_status(t, rows - 2, NULL);
	tui_draw_footer(t, rows - 1);
	free(order);
}

static int class_open_screen(struct tui *t, const struct screen_arg *arg)
{
	(void)t;
	(void)arg;
	return cls.started ? 0 : -1;
}

/* The entry of the row chosen, or NULL. */
static const struct class_entry *chosen(void)
{
	int *order = xmalloc(((size_t)cls.b.n + 1) * sizeof *order), nex, n;
	const char *exercise;
	const struct class_entry *x = NULL;

	n = board_rows(order, &exercise, &nex);
	if (cls.sel >= 0 && cls.sel < n)
		x = &cls.b.entries[order[cls.sel]];
	free(order);
	return x;
}

static int key_exercise(struct tui *t, const struct crt_event *ev, int arg)
{
	const char *ids[64];
	int nex = exercises(ids, (int)ARRAY_LEN(ids));

	(void)t;
	(void)ev;
	if (cls.detail != DETAIL_NONE || nex < 2)
		return REACT_NONE;
	for (int i = 0; i < nex; i++)
		if (strcmp(ids[i], cls.shown) == 0)
			cls.ex = i;
	cls.ex = (cls.ex + arg + nex) % nex;
	snprintf(cls.shown, sizeof cls.shown, "%s", ids[cls.ex]);
	cls.sel = cls.top = 0;
	return REACT_DRAW;
}

static int key_move(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)t;
	(void)ev;
	if (cls.detail != DETAIL_NONE) {
		cls.dtop += arg;
		if (cls.dtop < 0)
			cls.dtop = 0;
		return REACT_DRAW;
	}
	cls.sel += arg;
	if (cls.sel < 0)
		cls.sel = 0;
	return REACT_DRAW;
}

static int key_detail(struct tui *t, const struct crt_event *ev, int arg)
{
	const struct class_entry *x = cls.detail != DETAIL_NONE ? NULL : chosen();

	(void)ev;
	if (cls.detail == (enum detail)arg) {
		detail_free();
		return REACT_DRAW;
	}
	if (x == NULL && cls.detail != DETAIL_NONE) {
		/* from one detail to the other, of the same submission */
		for (int i = 0; i < cls.b.n && x == NULL; i++)
			if (strcmp(cls.b.entries[i].file, cls.detail_file) == 0)
				x = &cls.b.entries[i];
	}
	if (x == NULL || x->state == CLASS_BAD) {
		tui_message(t, STYLE_MESSAGE, "%s", _("Choose a submission first (a bad file has no source to show)."));
		return REACT_DRAW;
	}
	open_detail(t, x, (enum detail)arg);
	return REACT_DRAW;
}

static int key_back(struct tui *t, const struct crt_event *ev, int arg)
{
	if (cls.detail != DETAIL_NONE) {
		detail_free();
		return REACT_DRAW;
	}
	return tui_key_back(t, ev, arg);
}

static int key_big(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)t;
	(void)ev;
	(void)arg;
	cls.big = !cls.big;
	cls.sel = cls.top = 0;
	return REACT_DRAW;
}

static const struct key_binding class_keys[] = {
	{ "\xe2\x86\x90 \xe2\x86\x92  h l", N_("the previous / next exercise's board"), "\xe2\x86\x90\xe2\x86\x92",
	  N_("exercise"), { CRT_KEY_LEFT, 'h' }, key_exercise, -1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_RIGHT, 'l' }, key_exercise, 1 },
	{ "\xe2\x86\x91 \xe2\x86\x93  k j", N_("choose a submission (in a detail: scroll)"), "\xe2\x86\x91\xe2\x86\x93",
	  N_("choose"), { CRT_KEY_UP, 'k' }, key_move, -1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_DOWN, 'j' }, key_move, 1 },
	{ "PgUp PgDn", N_("a page up / down"), NULL, NULL, { CRT_KEY_PGUP }, key_move, -10 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_PGDN, ' ' }, key_move, 10 },
	{ "Enter  c", N_("its source beside ours; again: back to the board"), "Enter", N_("source"),
	  { CRT_KEY_ENTER, 'c' }, key_detail, DETAIL_SOURCE },
	{ "d", N_("its SASS aligned with our reference's (compiled here)"), "d", N_("SASS diff"), { 'd', 'D' },
	  key_detail, DETAIL_SASS },
	{ "P  F5", N_("big type for a projector, on / off"), "P", N_("big"), { 'P', CRT_KEY_F(5) }, key_big, 0 },
	{ "Esc  Backspace", N_("back to the board, or to the lessons"), NULL, NULL, { CRT_KEY_ESC, CRT_KEY_BACKSPACE },
	  key_back, 0 },
};

const struct screen screen_class = {
	.id = SCREEN_CLASS,
	.name = "class", .place = SCREEN_ROOT, .up = SCREEN_LIST, .open = class_open_screen,
	.draw = draw_class,
	.keys = class_keys, .nkeys = (int)ARRAY_LEN(class_keys),
};

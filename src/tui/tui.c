/* The frame of the full-screen tutor: the stack of screens, the lines and keys they share (tui_main.c runs it). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "session.h"
#include "tui/tui_internal.h"

void tui_message(struct tui *t, int style, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->message, sizeof t->message, fmt, ap);
	va_end(ap);
	t->message_style = style;
}

/* Every screen, as tui_main gives them. */
static const struct screen *const *screens;
static int nscreens;

void tui_set_screens(const struct screen *const *list, int n)
{
	screens = list;
	nscreens = n;
}

static const struct screen *screen_of(enum screen_id id)
{
	for (int i = 0; i < nscreens; i++)
		if (screens[i]->id == id)
			return screens[i];
	return NULL;
}

const struct screen *tui_screen(const struct tui *t)
{
	return t->stack[t->depth - 1];
}

bool tui_on_stack(const struct tui *t, enum screen_id s)
{
	for (int i = 0; i < t->depth; i++)
		if (t->stack[i]->id == s)
			return true;
	return false;
}

int tui_switch(struct tui *t, enum screen_id id, const struct screen_arg *arg)
{
	const struct screen *s = screen_of(id);
	int at = t->depth;

	/* Where s goes: the bottom, where it is already, or where the aside screen is. */
	for (int i = 0; i < t->depth; i++)
		if (t->stack[i] == s || (s->place == SCREEN_ASIDE && t->stack[i]->place == SCREEN_ASIDE)) {
			at = i;
			break;
		}
	if (s->place == SCREEN_ROOT)
		at = 0;
	if (at >= (int)ARRAY_LEN(t->stack))
		return REACT_NONE;
	if (s->open != NULL && s->open(t, arg) != 0)
		return t->message[0] != '\0' ? REACT_DRAW : REACT_NONE;
	while (t->depth > at) {
		const struct screen *gone = t->stack[--t->depth];

		if (gone != s && gone->close != NULL)
			gone->close(t);
	}
	t->stack[t->depth++] = s;
	return REACT_DRAW;
}

int tui_back(struct tui *t)
{
	const struct screen *s = tui_screen(t);

	if (t->depth > 1) {
		t->depth--;
		if (s->close != NULL)
			s->close(t);
		return REACT_DRAW;
	}
	return s->up != SCREEN_NONE ? tui_switch(t, s->up, NULL) : REACT_NONE;
}

void tui_tell(struct tui *t, enum tui_news what)
{
	for (int i = 0; i < nscreens; i++)
		if (screens[i]->news != NULL)
			screens[i]->news(t, what);
}

int tui_scroll(int *top, int lines)
{
	if (lines < 0 && *top == 0)
		return REACT_NONE;
	*top += lines;
	if (*top < 0)
		*top = 0;
	return REACT_DRAW;
}

const char *tui_arch(struct tui *t, const char *module, char *buf, size_t len)
{
	struct error e;
	const char *live = tui_gpu(t) == SESSION_GPU_READY ? t->ws.desc.arch : NULL;

	return session_arch(module, live, buf, len, &e) == 0 ? buf : NULL;
}

enum session_gpu tui_gpu(const struct tui *t)
{
	return t->ws.gpu;
}

const char *tui_gpu_short(const char *name)
{
	if (strncmp(name, "NVIDIA ", 7) == 0)
		name += 7;
	if (strncmp(name, "GeForce ", 8) == 0)
		name += 8;
	return name;
}

const char *tui_step_figures(const struct step_result *s, char *buf, size_t len)
{
	switch (s->yardstick) {
	case YARDSTICK_LIBRARY:
		if (s->pct > 0)
			snprintf(buf, len, _("%.0f GFLOP/s, %.0f%% of the library"), s->rate, s->pct);
		else
			snprintf(buf, len, _("%.0f GFLOP/s"), s->rate);
		break;
	case YARDSTICK_COPY:
		snprintf(buf, len, _("%.0f GB/s, %.0f%% of copy"), s->rate, s->pct);
		break;
	default:
		snprintf(buf, len, _("%.0f GB/s read from shared memory"), s->rate);
		break;
	}
	return buf;
}

/* ---- the lines every screen has ------------------------------------------ */

void tui_draw_header(struct tui *t, const char *where)
{
	int cols = crt_cols(), x = 0, rw;
	char right[320];
	int rstyle = STYLE_TITLE_BAR;

	crt_fill(0, 0, cols, STYLE_TITLE_BAR);
	switch (tui_gpu(t)) {
	case SESSION_GPU_READY:
		snprintf(right, sizeof right, "%s %s (%s) ", t->unicode ? "\xe2\x97\x8f" : "*",
		    tui_gpu_short(t->ws.desc.name), t->ws.desc.arch);
		rstyle = STYLE_LIVE;
		break;
	case SESSION_GPU_ABSENT:
		snprintf(right, sizeof right, " %s ", _("no GPU: recorded results"));
		rstyle = STYLE_RECORDED;
		break;
	default:
		snprintf(right, sizeof right, " %s ", _("looking for a GPU..."));
		break;
	}
	x += crt_text(0, x, cols, STYLE_TITLE_NAME, " cudatutor ");
	rw = layout_width(right);
	if (where != NULL && *where != '\0') {
		char *w = layout_ellipsize(where, cols - x - rw - 3, 0, t->unicode);
		x += crt_text(0, x, cols - x, STYLE_TITLE_BAR, t->unicode ? "\xe2\x80\xba " : "> ");
		crt_text(0, x, cols - x - rw - 1, STYLE_TITLE_NAME, w);
		free(w);
	}
	if (rw < cols - 12)
		crt_text(0, cols - rw, rw, rstyle, right);
}

/*
 * The message, whole: a message wider than the line wraps upwards over
 * what is above it, under a rule, until the next key takes it away.
 */
static void draw_message(struct tui *t, int y)
{
	struct layout_run run = { t->message, t->message_style };
	struct layout_line *lines;
	int cols = crt_cols(), n = layout_wrap(&run, 1, cols - 2, &lines);
	int fill = t->message_style == STYLE_ERROR ? STYLE_ERROR : STYLE_STATUS, shown = n, top;

	/* At most half the screen: the rest of a longer message is cut, with an ellipsis. */
	if (shown > crt_rows() / 2)
		shown = crt_rows() / 2 > 1 ? crt_rows() / 2 : 1;
	top = y - shown + 1;
	if (shown > 1)
		crt_hline(top - 1, 0, cols, STYLE_BORDER);
	for (int i = 0; i < shown; i++) {
		char *text = layout_line_text(&lines[i]);

		if (i == shown - 1 && shown < n) {
			char *more = xasprintf("%s %s", text, t->unicode ? "\xe2\x80\xa6" : "...");
			free(text);
			text = layout_ellipsize(more, cols - 2, 0, t->unicode);
			free(more);
		}
		crt_fill(top + i, 0, cols, fill);
		crt_text(top + i, 1, cols - 2, t->message_style, text);
		free(text);
	}
	layout_lines_free(lines, n);
}

void tui_draw_status(struct tui *t, int y, const char *hint)
{
	int cols = crt_cols();

	crt_fill(y, 0, cols, STYLE_STATUS);
	if (t->ws.busy && t->ws.job.lesson != NULL) {
		const struct lesson *l = t->ws.job.lesson;
		char text[512], bar[256];
		int x = 1, step = t->ws.step;
		const char *spin = t->unicode ? "\xe2\x96\xb6 " : "> ";

		if (tui_gpu(t) == SESSION_GPU_UNKNOWN)
			snprintf(text, sizeof text, _("waiting for the GPU to start..."));
		else if (t->ws.job.kind == WORKER_EXERCISE)
			snprintf(text, sizeof text, _("checking your kernel for '%s': NVRTC, its SASS, then the GPU..."),
			    t->ws.job.exercise->id);
		else if (t->ws.job.kind == WORKER_COUNTERS)
			snprintf(text, sizeof text, _("reading the counters of step %d (%s) with Nsight Compute..."),
			    t->ws.job.first + 1, t->ws.job.first < l->nsteps ? l->steps[t->ws.job.first].kernel->name : "");
		else
			snprintf(text, sizeof text, _("running step %d/%d %s"), step + 1, l->nsteps,
			    step < l->nsteps ? l->steps[step].kernel->name : "");
		x += crt_text(y, x, cols - x, STYLE_MESSAGE, spin);
		x += crt_text(y, x, cols - x, STYLE_MESSAGE, text);
		if (t->ws.total > 0) {
			int bw = 20;
			snprintf(text, sizeof text, "  %d/%d %s ", t->ws.done, t->ws.total, _("runs"));
			x += crt_text(y, x, cols - x, STYLE_STATUS, text);
			crt_text(y, x, 1, STYLE_DIM, t->unicode ? "\xe2\x96\x95" : "[");
			layout_bar(t->ws.done, t->ws.total, bw, t->unicode, bar, sizeof bar);
			crt_text(y, x + 1, bw, STYLE_BAR, bar);
			crt_text(y, x + 1 + bw, 1, STYLE_DIM, t->unicode ? "\xe2\x96\x8f" : "]");
			x += bw + 2;
		}
		/* A message during a run is about the run ("Cancelling..."): it replaces the hint. */
		if (t->message[0] != '\0') {
			crt_text(y, x, 2, STYLE_STATUS, "  ");
			crt_text(y, x + 2, cols - x - 2, STYLE_MESSAGE, t->message);
		} else {
			/* TRANSLATORS: the %s are keys, e.g. "x" and "Esc" */
			snprintf(text, sizeof text, _("  %s or %s cancels"), tui_key(t, tui_key_cancel, 0),
			    tui_key(t, tui_key_back, 0));
			crt_text(y, x, cols - x, STYLE_DIM, text);
		}
		return;
	}
	if (t->message[0] != '\0') {
		draw_message(t, y);
		return;
	}
	/* a hint is one line: one too long for the terminal shows that it is cut */
	if (hint != NULL) {
		char *fit = layout_ellipsize(hint, cols - 2, 0, t->unicode);

		crt_text(y, 1, cols - 2, STYLE_DIM, fit);
		free(fit);
	}
}

void tui_draw_footer(struct tui *t, int y)
{
	const struct screen *s = tui_screen(t);
	struct key_place places[ARRAY_LEN(t->zones.at)];
	int cols = crt_cols();
	int n = keys_line(s->keys, s->nkeys, tui_frame_keys, tui_nframe_keys, cols, places,
	    (int)ARRAY_LEN(places));

	crt_fill(y, 0, cols, STYLE_FOOTER);
	t->zones.n = n;
	for (int i = 0; i < n; i++) {
		int x = places[i].x0 + 1;

		t->zones.at[i].x0 = places[i].x0;
		t->zones.at[i].x1 = places[i].x1;
		t->zones.at[i].key = places[i].b->codes[0];
		x += crt_text(y, x, cols - x, STYLE_FOOTER_KEY, places[i].b->label_keys);
		crt_text(y, x + 1, cols - x - 1, STYLE_FOOTER, _(places[i].b->label));
	}
}

/* Lines of text centred from row y; returns the row after them. */
static int centred(int y, const struct layout_line *lines, int n, int style)
{
	int cols = crt_cols();

	for (int i = 0; i < n; i++, y++) {
		char *text = layout_line_text(&lines[i]);
		int w = layout_width(text);

		crt_text(y, w < cols ? (cols - w) / 2 : 0, cols, style, text);
		free(text);
	}
	return y;
}

static int key_quit(struct tui *t, const struct crt_event *ev, int arg);

/*
 * Too small a terminal: what it is and what the tutor needs, wrapped to
 * its width, then what to do, where there is room for it.
 */
static void draw_too_small(void)
{
	int rows = crt_rows(), cols = crt_cols(), n1, n2, all2, gap = 1, y;
	char need[256], what[256];
	struct layout_run run[2] = { { need, STYLE_MESSAGE }, { what, STYLE_NORMAL } };
	struct layout_line *l1, *l2;

	snprintf(need, sizeof need, _("The terminal is %dx%d: the tutor needs at least %dx%d."),
	    cols, rows, LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS);
	/* TRANSLATORS: %s is a key, e.g. "q" */
	snprintf(what, sizeof what, _("Make the window larger, or press %s to quit."),
	    keys_name(tui_frame_keys, tui_nframe_keys, key_quit, 0));
	n1 = layout_wrap(&run[0], 1, cols, &l1);
	n2 = all2 = layout_wrap(&run[1], 1, cols, &l2);
	if (n1 + gap + n2 > rows)
		gap = 0;
	if (n1 + gap + n2 > rows)
		n2 = 0;
	y = (rows - n1 - gap - n2) / 2;
	y = centred(y > 0 ? y : 0, l1, n1, STYLE_MESSAGE);
	centred(y + gap, l2, n2, STYLE_NORMAL);
	layout_lines_free(l1, n1);
	layout_lines_free(l2, all2);
}

static int help_scroll(struct tui *t, const struct crt_event *ev, int dir)
{
	(void)ev;
	t->help_top = dir > 0 ? t->help_top + 1 : t->help_top > 0 ? t->help_top - 1 : 0;
	return REACT_DRAW;
}

/* The help overlay's own keys: they scroll it (so does the wheel); any other key closes it. */
static const struct key_binding help_keys[] = {
	{ "\xe2\x86\x91 \xe2\x86\x93  j k", "scroll this help", "\xe2\x86\x91\xe2\x86\x93", "more", { CRT_KEY_DOWN, 'j' },
	  help_scroll, 1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_UP, 'k' }, help_scroll, -1 },
};

static void draw_help(struct tui *t)
{
	int rows = crt_rows(), cols = crt_cols();
	int w = cols - 4 > 84 ? 84 : cols - 4, kw = 16;
	const struct screen *s = tui_screen(t);
	struct help_line *lines;
	int n = keys_help(s->keys, s->nkeys, tui_frame_keys, tui_nframe_keys, w - kw - 6, &lines);
	int h = n + 4 > rows - 2 ? rows - 2 : n + 4;
	int y0 = (rows - h) / 2, x0 = (cols - w) / 2;
	char title[128], more[64];

	/* the box and a margin of two columns round it: no bit of the screen under it shows beside it */
	for (int i = 0; i < h; i++) {
		int left = x0 - 2 > 0 ? x0 - 2 : 0;

		crt_fill(y0 + i, left, w + (x0 - left) + 2, STYLE_NORMAL);
	}
	crt_hline(y0, x0, w, STYLE_BORDER);
	crt_hline(y0 + h - 1, x0, w, STYLE_BORDER);
	crt_vline(y0, x0, h, STYLE_BORDER);
	crt_vline(y0, x0 + w - 1, h, STYLE_BORDER);
	if (t->unicode) {
		crt_text(y0, x0, 1, STYLE_BORDER, "\xe2\x94\x8c");
		crt_text(y0, x0 + w - 1, 1, STYLE_BORDER, "\xe2\x94\x90");
		crt_text(y0 + h - 1, x0, 1, STYLE_BORDER, "\xe2\x94\x94");
		crt_text(y0 + h - 1, x0 + w - 1, 1, STYLE_BORDER, "\xe2\x94\x98");
	}
	snprintf(title, sizeof title, " %s ", _("Keys"));
	crt_text(y0, x0 + 2, w - 4, STYLE_PANEL_TITLE, title);
	t->help_top = layout_scroll_clamp(t->help_top, h - 4, n);
	for (int i = 0; i < h - 4 && t->help_top + i < n; i++) {
		const struct help_line *l = &lines[t->help_top + i];
		if (l->keys != NULL)
			crt_text(y0 + 2 + i, x0 + 3, kw, STYLE_HELP_KEY, l->keys);
		crt_text(y0 + 2 + i, l->style == STYLE_H3 ? x0 + 3 : x0 + 3 + kw + 1, w - kw - 6, l->style,
		    l->text);
	}
	/* The overlay's keys, not translated: they are the same in every language. */
	if (t->unicode)
		snprintf(more, sizeof more, " %s %s ", help_keys[0].label_keys, help_keys[0].label);
	else
		snprintf(more, sizeof more, " up/down: %s ", help_keys[0].label);
	if (n > h - 4)
		crt_text(y0 + h - 1, x0 + w - 16, 14, STYLE_DIM, more);
	keys_help_free(lines, n);
}

void tui_draw(struct tui *t)
{
	crt_begin_frame();
	if (crt_cols() < LAYOUT_MIN_COLS || crt_rows() < LAYOUT_MIN_ROWS) {
		draw_too_small();
	} else {
		tui_screen(t)->draw(t);
		if (t->help)
			draw_help(t);
	}
	crt_end_frame();
}

/* ---- the keys every screen shares ------------------------------------------------ */

static int key_help(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)ev;
	(void)arg;
	t->help = 1;
	t->help_top = 0;
	return REACT_DRAW;
}

static int key_quit(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)t;
	(void)ev;
	(void)arg;
	return REACT_QUIT;
}

static int key_redraw(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)t;
	(void)ev;
	(void)arg;
	crt_repaint();
	return REACT_DRAW;
}

/* The wheel scrolls what it is over, by three lines; a click is the screen's to place. */
static int key_mouse(struct tui *t, const struct crt_event *ev, int arg)
{
	const struct screen *s = tui_screen(t);

	(void)arg;
	if (ev->button == CRT_WHEEL_DOWN || ev->button == CRT_WHEEL_UP)
		return s->scroll != NULL ? s->scroll(t, ev->y, ev->x, ev->button == CRT_WHEEL_DOWN ? 3 : -3) :
		    REACT_NONE;
	if (ev->button == CRT_CLICK && s->click != NULL)
		return s->click(t, ev->y, ev->x);
	return REACT_NONE;
}

int tui_key_cancel(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)ev;
	(void)arg;
	if (!t->ws.busy || t->worker == NULL)
		return REACT_NONE;
	worker_cancel(t->worker);
	tui_message(t, STYLE_MESSAGE, "%s", _("Cancelling..."));
	return REACT_DRAW;
}

/* Esc during a run cancels it, as the status line says; Backspace always goes back. */
int tui_key_back(struct tui *t, const struct crt_event *ev, int arg)
{
	if (ev->key == CRT_KEY_ESC && t->ws.busy)
		return tui_key_cancel(t, ev, arg);
	return tui_back(t);
}

int tui_key_present(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)ev;
	(void)arg;
	return tui_switch(t, tui_screen(t)->id == SCREEN_PRESENT ? SCREEN_LESSON : SCREEN_PRESENT, NULL);
}

/*
 * The frame's keys, after the screen's: "Everywhere" in the help lists
 * those the screen does not take itself.  A resize comes as a key too.
 */
const struct key_binding tui_frame_keys[] = {
	{ "?", N_("this help (any key closes it)"), "?", N_("help"), { '?' }, key_help, 0 },
	{ "q", N_("quit (your progress is kept)"), "q", N_("quit"), { 'q', 'Q' }, key_quit, 0 },
	{ "P  F5", N_("presenter mode on / off"), NULL, NULL, { 'P', CRT_KEY_F(5) }, tui_key_present, 0 },
	{ "Ctrl-L", N_("draw the screen again"), NULL, NULL, { CRT_CTRL('l'), CRT_KEY_RESIZE }, key_redraw, 0 },
	{ N_("mouse"), N_("click to choose, wheel to scroll"), NULL, NULL, { CRT_KEY_MOUSE }, key_mouse, 0 },
	{ "Esc  Backspace", N_("back"), NULL, NULL, { CRT_KEY_ESC, CRT_KEY_BACKSPACE }, tui_key_back, 0 },
	{ "x  Esc", N_("cancel a run"), NULL, NULL, { 'x', 'X' }, tui_key_cancel, 0 },
};
const int tui_nframe_keys = (int)ARRAY_LEN(tui_frame_keys);

const char *tui_key(const struct tui *t, key_run run, int arg)
{
	const struct screen *s = t->depth > 0 ? tui_screen(t) : NULL;
	const char *name = s != NULL ? keys_name(s->keys, s->nkeys, run, arg) : NULL;

	if (name == NULL)
		name = keys_name(tui_frame_keys, tui_nframe_keys, run, arg);
	for (int i = 0; name == NULL && i < nscreens; i++)
		name = keys_name(screens[i]->keys, screens[i]->nkeys, run, arg);
	return name != NULL ? name : "?";
}

void tui_say_busy(struct tui *t)
{
	/* TRANSLATORS: %s is a key, e.g. "x" */
	tui_message(t, STYLE_MESSAGE, _("A run is going on: wait for it, or press %s to cancel it."),
	    tui_key(t, tui_key_cancel, 0));
}

/* Keys only the frame takes: the same on every screen. */
const int tui_reserved_keys[] = { '?', 'q', 'Q', CRT_CTRL('l'), CRT_KEY_RESIZE, CRT_KEY_MOUSE };
const int tui_nreserved_keys = (int)ARRAY_LEN(tui_reserved_keys);

static int reserved(int key)
{
	for (int i = 0; i < tui_nreserved_keys; i++)
		if (tui_reserved_keys[i] == key)
			return 1;
	return 0;
}

int tui_dispatch(struct tui *t, const struct crt_event *ev)
{
	const struct screen *s = tui_screen(t);
	const struct key_binding *b = keys_find(tui_frame_keys, tui_nframe_keys, ev->key), *mine;
	struct crt_event click;
	int had_message = t->message[0] != '\0';

	/* Drawing again, and quitting, work on any screen and under the help. */
	if (b != NULL && b->run == key_redraw)
		return b->run(t, ev, b->arg);
	if (crt_cols() < LAYOUT_MIN_COLS || crt_rows() < LAYOUT_MIN_ROWS)
		return b != NULL && b->run == key_quit ? REACT_QUIT : REACT_NONE;
	if (t->help) {
		const struct key_binding *h = keys_find(help_keys, (int)ARRAY_LEN(help_keys), ev->key);

		if (ev->key == CRT_KEY_MOUSE && (ev->button == CRT_WHEEL_DOWN || ev->button == CRT_WHEEL_UP))
			return help_scroll(t, ev, ev->button == CRT_WHEEL_DOWN ? 1 : -1);
		if (h != NULL)
			return h->run(t, ev, h->arg);
		t->help = 0;
		return REACT_DRAW;
	}
	/* A click on the key line is that key. */
	if (ev->key == CRT_KEY_MOUSE && ev->button == CRT_CLICK && ev->y == crt_rows() - 1) {
		for (int i = 0; i < t->zones.n; i++)
			if (ev->x >= t->zones.at[i].x0 && ev->x < t->zones.at[i].x1) {
				click = *ev;
				click.key = t->zones.at[i].key;
				click.button = 0;
				ev = &click;
				break;
			}
		if (ev != &click)
			return REACT_NONE;
		b = keys_find(tui_frame_keys, tui_nframe_keys, ev->key);
	}
	if (t->message_keep) {
		t->message_keep = 0;
		if (t->next_message[0] != '\0') {
			tui_message(t, t->next_style, "%s", t->next_message);
			t->next_message[0] = '\0';
			t->message_keep = 1;
		}
	} else {
		t->message[0] = '\0';
	}
	/* The screen's table first: it may say what a shared key does there. */
	mine = reserved(ev->key) ? NULL : keys_find(s->keys, s->nkeys, ev->key);
	if (mine != NULL)
		b = mine;
	if (b == NULL)
		return had_message ? REACT_DRAW : REACT_NONE;
	return b->run(t, ev, b->arg) | (had_message ? REACT_DRAW : 0);
}

int tui_interrupted(struct tui *t, int count, int *cancelling)
{
	if (count <= 0)
		return REACT_NONE;
	if (t->ws.busy && t->worker != NULL && !*cancelling && count == 1) {
		worker_cancel(t->worker);
		*cancelling = 1;
		tui_message(t, STYLE_MESSAGE, "%s", _("Cancelling the run; Ctrl-C again quits."));
		return REACT_DRAW;
	}
	return REACT_QUIT;
}

/* The full-screen tutor: start-up, the main loop, the keys every screen shares. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "i18n.h"
#include "registry.h"
#include "tui/tui_internal.h"

/* Keys every screen knows, for the help overlay. */
static const struct key_help global_keys[] = {
	{ "?", N_("this help (any key closes it)"), NULL, NULL, 0 },
	{ "q", N_("quit (your progress is kept)"), NULL, NULL, 0 },
	{ "P  F5", N_("presenter mode on / off"), NULL, NULL, 0 },
	{ "Ctrl-L", N_("draw the screen again"), NULL, NULL, 0 },
	{ N_("mouse"), N_("click to choose, wheel to scroll"), NULL, NULL, 0 },
};

struct lesson *tui_lesson(const struct tui *t)
{
	if (t->li < 0 || t->li >= t->set.count)
		return NULL;
	return &t->set.lessons[t->li];
}

void tui_message(struct tui *t, int style, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->message, sizeof t->message, fmt, ap);
	va_end(ap);
	t->message_style = style;
}

void tui_save(struct tui *t)
{
	struct error e;
	const struct lesson *l = tui_lesson(t);

	if (l != NULL)
		progress_set_position(&t->prog, l->id, t->page);
	if (progress_save(&t->prog, &e) != 0)
		tui_message(t, STYLE_ERROR, _("Progress cannot be saved: %s"), e.msg);
}

static int is_aside(const struct screen *s)
{
	return s == &screen_diff || s == &screen_metrics;
}

void tui_open_aside(struct tui *t, const struct screen *s)
{
	if (!is_aside(t->screen)) {
		/* From a code view opened from an aside screen: back to the lesson, not round again. */
		if (t->screen == &screen_code && is_aside(t->back))
			t->aside_back = &screen_lesson;
		else
			t->aside_back = t->screen;
	}
	t->screen = s;
}

void tui_close_aside(struct tui *t)
{
	t->screen = t->aside_back != NULL && !is_aside(t->aside_back) ? t->aside_back : &screen_lesson;
}

int tui_wheel_scroll(const struct crt_event *ev, int *top)
{
	if (ev->button == CRT_WHEEL_DOWN)
		*top += 3;
	else if (ev->button == CRT_WHEEL_UP)
		*top = *top > 3 ? *top - 3 : 0;
	else
		return 0;
	return 1;
}

const char *tui_arch(struct tui *t, const char *module, char *buf, size_t len)
{
	const char *from = NULL;
	char *archs, *last = NULL;
	int major, minor;
	struct error e;

	if (t->ws.gpu == WORKER_GPU_READY) {
		from = t->ws.desc.arch;
	} else if (t->ws.gpu == WORKER_GPU_ABSENT) {
		if (t->have_rec) {
			from = t->rec.gpu.arch;
		} else {
			if (!t->rec_arch_tried) {
				struct run_report r;
				const struct lesson *l = tui_lesson(t);

				t->rec_arch_tried = true;
				if (results_find_recorded(NULL, l ? l->id : "reduction", 0, 0, &r, &e) == 0) {
					snprintf(t->rec_arch, sizeof t->rec_arch, "%s", r.gpu.arch);
					run_report_free(&r);
				}
			}
			if (t->rec_arch[0] != '\0')
				from = t->rec_arch;
		}
	}
	if (from != NULL && sscanf(from, "sm_%1d%1d", &major, &minor) == 2 &&
	    inspect_arch_for(module, major, minor, buf, len, &e) == 0)
		return buf;
	archs = inspect_sass_archs(module, &e);
	if (archs == NULL)
		return NULL;
	for (char *a = strtok(archs, " "); a != NULL; a = strtok(NULL, " "))
		last = a;
	if (last != NULL)
		snprintf(buf, len, "%s", last);
	free(archs);
	return last != NULL ? buf : NULL;
}

static const char *count_arch(void *ctx, const struct kernel_def *k)
{
	static char buf[16];

	return tui_arch(ctx, k->module, buf, sizeof buf);
}

const struct markdown_doc *tui_doc(struct tui *t, struct doc_cache *c, int lesson, int width)
{
	if (c->lesson != lesson || c->width != width || c->block != t->block ||
	    c->gpu != (int)t->ws.gpu || c->doc.lines == NULL) {
		struct markdown_counts counts = { t->block, count_arch, t };

		markdown_free(&c->doc);
		c->lesson = lesson;
		c->width = width;
		c->block = t->block;
		c->gpu = (int)t->ws.gpu;
		if (lesson >= 0 && lesson < t->set.count)
			markdown_render(&t->set.lessons[lesson], width, t->unicode, &counts, &c->doc);
	}
	return &c->doc;
}

const char *tui_gpu_short(const char *name)
{
	if (strncmp(name, "NVIDIA ", 7) == 0)
		name += 7;
	if (strncmp(name, "GeForce ", 8) == 0)
		name += 8;
	return name;
}

enum experiment_unit tui_step_unit(const struct step_result *s)
{
	const struct kernel_def *k = registry_find(s->kernel);

	return k != NULL ? k->experiment->unit : UNIT_GBPS;
}

double tui_step_rate(const struct step_result *s)
{
	return tui_step_unit(s) == UNIT_GFLOPS ? s->gflops : s->gbps;
}

const char *tui_step_figures(const struct step_result *s, char *buf, size_t len)
{
	switch (tui_step_unit(s)) {
	case UNIT_GFLOPS:
		if (s->pct_library > 0)
			snprintf(buf, len, _("%.0f GFLOP/s, %.0f%% of the library"), s->gflops, s->pct_library);
		else
			snprintf(buf, len, _("%.0f GFLOP/s"), s->gflops);
		break;
	case UNIT_SHARED_GBPS:
		snprintf(buf, len, _("%.0f GB/s read from shared memory"), s->gbps);
		break;
	default:
		snprintf(buf, len, _("%.0f GB/s, %.0f%% of copy"), s->gbps, s->pct_copy);
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
	switch (t->ws.gpu) {
	case WORKER_GPU_READY:
		snprintf(right, sizeof right, "%s %s (%s) ", t->unicode ? "\xe2\x97\x8f" : "*",
		    tui_gpu_short(t->ws.desc.name), t->ws.desc.arch);
		rstyle = STYLE_LIVE;
		break;
	case WORKER_GPU_ABSENT:
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

void tui_draw_status(struct tui *t, int y, const char *hint)
{
	int cols = crt_cols();

	crt_fill(y, 0, cols, STYLE_STATUS);
	if (t->ws.busy && t->ws.job.lesson != NULL) {
		const struct lesson *l = t->ws.job.lesson;
		char text[512], bar[256];
		int x = 1, step = t->ws.step;
		const char *spin = t->unicode ? "\xe2\x96\xb6 " : "> ";

		if (t->ws.gpu == WORKER_GPU_UNKNOWN)
			snprintf(text, sizeof text, _("waiting for the GPU to start..."));
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
			crt_text(y, x, cols - x, STYLE_DIM, _("  x or Esc cancels"));
		}
		return;
	}
	if (t->message[0] != '\0') {
		char *m = layout_ellipsize(t->message, cols - 2, 0, t->unicode);
		crt_fill(y, 0, cols, t->message_style == STYLE_ERROR ? STYLE_ERROR : STYLE_STATUS);
		crt_text(y, 1, cols - 2, t->message_style, m);
		free(m);
		return;
	}
	if (hint != NULL)
		crt_text(y, 1, cols - 2, STYLE_DIM, hint);
}

void tui_draw_footer(struct tui *t, int y, const struct screen *s)
{
	static const struct key_help tail[] = {
		{ NULL, NULL, "?", N_("help"), '?' },
		{ NULL, NULL, "q", N_("quit"), 'q' },
	};
	int cols = crt_cols(), x = 0, tail_w = 0;

	crt_fill(y, 0, cols, STYLE_FOOTER);
	t->nzones = 0;
	for (size_t i = 0; i < ARRAY_LEN(tail); i++)
		tail_w += layout_width(tail[i].fkeys) + layout_width(_(tail[i].flabel)) + 3;
	for (int pass = 0; pass < 2; pass++) {
		const struct key_help *k = pass == 0 ? s->keys : tail;
		int n = pass == 0 ? s->nkeys : (int)ARRAY_LEN(tail);

		for (int i = 0; i < n; i++) {
			const char *label;
			int w;

			if (k[i].fkeys == NULL)
				continue;
			label = _(k[i].flabel);
			w = layout_width(k[i].fkeys) + layout_width(label) + 3;
			if (x + w + (pass == 0 ? tail_w : 0) > cols)
				continue;
			if (t->nzones < (int)ARRAY_LEN(t->zones)) {
				t->zones[t->nzones].x0 = x;
				t->zones[t->nzones].x1 = x + w;
				t->zones[t->nzones].key = k[i].key;
				t->nzones++;
			}
			x += 1;
			x += crt_text(y, x, cols - x, STYLE_FOOTER_KEY, k[i].fkeys);
			x += 1;
			x += crt_text(y, x, cols - x, STYLE_FOOTER, label);
			x += 1;
		}
	}
}

static void draw_too_small(void)
{
	int rows = crt_rows(), cols = crt_cols();
	char line[256];
	char *fit;

	snprintf(line, sizeof line, _("The terminal is %dx%d: the tutor needs at least %dx%d."),
	    cols, rows, LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS);
	fit = layout_ellipsize(line, cols, 0, 0);
	crt_text(rows / 2 - 1, (cols - layout_width(fit)) / 2 > 0 ? (cols - layout_width(fit)) / 2 : 0,
	    cols, STYLE_MESSAGE, fit);
	free(fit);
	snprintf(line, sizeof line, "%s", _("Make the window larger, or press q to quit."));
	fit = layout_ellipsize(line, cols, 0, 0);
	crt_text(rows / 2 + 1, (cols - layout_width(fit)) / 2 > 0 ? (cols - layout_width(fit)) / 2 : 0,
	    cols, STYLE_NORMAL, fit);
	free(fit);
}

/* The help overlay's lines: a key, and what it does wrapped to width (key NULL on continuations). */
struct help_line {
	const char *key;
	char *text;
	int style;
};

static int help_build(const struct tui *t, int width, struct help_line **out)
{
	int n = 0;

	*out = NULL;
	for (int pass = 0; pass < 2; pass++) {
		const struct key_help *k = pass == 0 ? t->screen->keys : global_keys;
		int count = pass == 0 ? t->screen->nkeys : (int)ARRAY_LEN(global_keys);

		if (pass == 1) {
			*out = xrealloc(*out, (size_t)(n + 2) * sizeof **out);
			(*out)[n++] = (struct help_line){ NULL, xstrdup(""), STYLE_NORMAL };
			(*out)[n++] = (struct help_line){ NULL, xstrdup(_("Everywhere")), STYLE_H3 };
		}
		for (int i = 0; i < count; i++) {
			struct layout_run run = { _(k[i].what), STYLE_NORMAL };
			struct layout_line *lines;
			int m = layout_wrap(&run, 1, width, &lines);

			*out = xrealloc(*out, (size_t)(n + m) * sizeof **out);
			for (int j = 0; j < m; j++)
				(*out)[n++] = (struct help_line){ j == 0 ? _(k[i].keys) : NULL,
				    layout_line_text(&lines[j]), STYLE_NORMAL };
			layout_lines_free(lines, m);
		}
	}
	return n;
}

static void draw_help(struct tui *t)
{
	int rows = crt_rows(), cols = crt_cols();
	int w = cols - 4 > 84 ? 84 : cols - 4, kw = 16;
	struct help_line *lines;
	int n = help_build(t, w - kw - 6, &lines);
	int h = n + 4 > rows - 2 ? rows - 2 : n + 4;
	int y0 = (rows - h) / 2, x0 = (cols - w) / 2;
	char title[128];

	for (int i = 0; i < h; i++)
		crt_fill(y0 + i, x0, w, STYLE_NORMAL);
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
		if (l->key != NULL)
			crt_text(y0 + 2 + i, x0 + 3, kw, STYLE_HELP_KEY, l->key);
		crt_text(y0 + 2 + i, l->style == STYLE_H3 ? x0 + 3 : x0 + 3 + kw + 1, w - kw - 6, l->style,
		    l->text);
	}
	if (n > h - 4)
		crt_text(y0 + h - 1, x0 + w - 16, 14, STYLE_DIM, t->unicode ?
		    " \xe2\x86\x91\xe2\x86\x93 more " : " up/down: more ");
	for (int i = 0; i < n; i++)
		free(lines[i].text);
	free(lines);
}

static void draw(struct tui *t)
{
	crt_begin_frame();
	if (crt_cols() < LAYOUT_MIN_COLS || crt_rows() < LAYOUT_MIN_ROWS) {
		draw_too_small();
	} else {
		t->screen->draw(t);
		if (t->help)
			draw_help(t);
	}
	crt_end_frame();
}

static int dispatch(struct tui *t, const struct crt_event *ev)
{
	struct crt_event click;
	int had_message = t->message[0] != '\0';

	if (ev->key == CRT_KEY_RESIZE || ev->key == CRT_CTRL('l')) {
		crt_repaint();
		return REACT_DRAW;
	}
	if (crt_cols() < LAYOUT_MIN_COLS || crt_rows() < LAYOUT_MIN_ROWS)
		return ev->key == 'q' || ev->key == 'Q' ? REACT_QUIT : REACT_NONE;
	if (t->help) {
		if (ev->key == CRT_KEY_DOWN || ev->key == 'j' || (ev->key == CRT_KEY_MOUSE &&
		    ev->button == CRT_WHEEL_DOWN))
			t->help_top++;
		else if (ev->key == CRT_KEY_UP || ev->key == 'k' || (ev->key == CRT_KEY_MOUSE &&
		    ev->button == CRT_WHEEL_UP))
			t->help_top = t->help_top > 0 ? t->help_top - 1 : 0;
		else
			t->help = 0;
		return REACT_DRAW;
	}
	/* A click on the key line is that key. */
	if (ev->key == CRT_KEY_MOUSE && ev->button == CRT_CLICK && ev->y == crt_rows() - 1) {
		for (int i = 0; i < t->nzones; i++)
			if (ev->x >= t->zones[i].x0 && ev->x < t->zones[i].x1) {
				click = *ev;
				click.key = t->zones[i].key;
				click.button = 0;
				ev = &click;
				break;
			}
		if (ev != &click)
			return REACT_NONE;
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
	if (ev->key == '?') {
		t->help = 1;
		t->help_top = 0;
		return REACT_DRAW;
	}
	if (ev->key == 'q' || ev->key == 'Q')
		return REACT_QUIT;
	return t->screen->key(t, ev) | (had_message ? REACT_DRAW : 0);
}

/* The worker has news: the GPU was found (or not), a step ran, a job ended. */
static void worker_news(struct tui *t)
{
	struct worker_state old = t->ws;
	struct run_report fresh = { 0 };
	int have = worker_take(t->worker, &t->ws, &fresh);

	if (old.gpu == WORKER_GPU_UNKNOWN && t->ws.gpu == WORKER_GPU_ABSENT) {
		char text[1024];

		snprintf(text, sizeof text, _("No GPU here (%s): r shows results recorded on real GPUs."),
		    t->ws.reason);
		if (t->message_keep) {
			/* A message from the start (a damaged progress file) goes first. */
			snprintf(t->next_message, sizeof t->next_message, "%s", text);
			t->next_style = STYLE_MESSAGE;
		} else {
			tui_message(t, STYLE_MESSAGE, "%s", text);
			t->message_keep = 1;
		}
	}
	view_lesson_news(t, &old, &fresh, have);
	run_report_free(&fresh);
}

/* The first lesson that loaded, or -1. */
static int first_good_lesson(const struct tui *t)
{
	for (int i = 0; i < t->set.count; i++)
		if (t->set.lessons[i].error == NULL)
			return i;
	return -1;
}

static void resume(struct tui *t, const struct tui_options *o)
{
	int li = -1, page = 0;

	for (int i = 0; i < t->set.count; i++)
		if (t->prog.last_lesson[0] != '\0' && strcmp(t->set.lessons[i].id, t->prog.last_lesson) == 0 &&
		    t->set.lessons[i].error == NULL) {
			li = i;
			page = t->prog.last_step;
		}
	if (li < 0 && o->present)
		li = first_good_lesson(t);
	t->screen = &screen_list;
	if (li >= 0) {
		view_lesson_open(t, li, page);
		t->list_sel = -1;	/* the list finds the lesson's row when it is drawn */
		t->screen = o->present ? &screen_present : &screen_lesson;
	}
}

/*
 * Ctrl-C cancels the run going on, as x does, and the tutor stays; with no
 * run going on, or again while the run is being cancelled (a driver that
 * does not answer), it quits.  REACT_QUIT, REACT_DRAW or REACT_NONE.
 */
static int interrupted(struct tui *t, int count, int *cancelling)
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

int tui_main(const struct tui_options *o)
{
	struct tui t;
	struct error e, notice;
	int rc = 0, dirty = 1, sig, cancelling = 0, interrupt = 0;

	memset(&t, 0, sizeof t);
	t.li = -1;
	t.preview.lesson = t.doc.lesson = -1;
	t.size = RESULTS_DEFAULT_SIZE;
	t.block = RESULTS_DEFAULT_BLOCK;
	t.code_kind = CODE_SOURCE;
	t.mrec_li = -1;
	/* Lessons first: they are quick, and the first frame shows them. */
	if (lesson_load_all(o->lang, &t.set, &e) != 0) {
		fprintf(stderr, "cudatutor: %s\n", e.msg);
		return 1;
	}
	if (progress_load(&t.prog, NULL, &notice) != 0) {
		tui_message(&t, STYLE_ERROR, "%s", notice.msg);
		t.message_keep = 1;
	}
	if (crt_start(&e) != 0) {
		fprintf(stderr, "cudatutor: %s\n", e.msg);
		lesson_set_free(&t.set);
		progress_free(&t.prog);
		return 1;
	}
	crt_signals();
	t.unicode = crt_unicode();
	resume(&t, o);
	draw(&t);
	dirty = 0;

	/* Then the slow things, off this thread: the GPU. */
	t.worker = worker_start();
	if (t.worker == NULL) {
		t.ws.gpu = WORKER_GPU_ABSENT;
		snprintf(t.ws.reason, sizeof t.ws.reason, "%s", _("the GPU thread cannot start"));
	}

	while (!(sig = crt_quit_signal())) {
		struct pollfd fds[3] = { { crt_fd(), POLLIN, 0 }, { -1, POLLIN, 0 },
		    { crt_signal_fd(), POLLIN, 0 } };
		struct crt_event ev;
		int n, r;

		if (!t.ws.busy)
			cancelling = 0;
		r = interrupted(&t, crt_take_interrupts(), &cancelling);
		if (r & REACT_QUIT) {
			interrupt = SIGINT;
			break;
		}
		if (r & REACT_DRAW)
			dirty = 1;
		if (dirty) {
			draw(&t);
			dirty = 0;
		}
		if (t.worker != NULL)
			fds[1].fd = worker_fd(t.worker);
		n = poll(fds, 3, -1);
		if (n < 0 && errno != EINTR)
			break;
		if (crt_quit_signal())
			break;
		r = interrupted(&t, crt_take_interrupts(), &cancelling);
		if (r & REACT_QUIT) {
			interrupt = SIGINT;
			break;
		}
		if (r & REACT_DRAW)
			dirty = 1;
		if (n > 0 && (fds[1].revents & POLLIN)) {
			worker_news(&t);
			dirty = 1;
		}
		/* After EINTR too: a resize arrives as a key. */
		while (crt_read(&ev)) {
			r = dispatch(&t, &ev);
			if (r & REACT_QUIT)
				goto out;
			if (r & REACT_DRAW)
				dirty = 1;
		}
	}
out:
	sig = crt_quit_signal();
	if (sig == 0)
		sig = interrupt;
	crt_stop();
	if (tui_lesson(&t) != NULL)
		progress_set_position(&t.prog, tui_lesson(&t)->id, t.page);
	if (progress_save(&t.prog, &e) != 0) {
		fprintf(stderr, "cudatutor: %s\n", e.msg);
		rc = 1;
	}
	if (sig != 0)
		rc = 128 + sig;
	if (t.worker != NULL && worker_stop(t.worker, 3.0) != 0) {
		/* The GPU thread is stuck in the driver: leave without waiting for it. */
		fflush(NULL);
		_exit(rc);
	}
	view_code_free(&t);
	view_diff_free(&t);
	view_metrics_free(&t);
	markdown_free(&t.doc.doc);
	markdown_free(&t.preview.doc);
	run_report_free(&t.live);
	run_report_free(&t.rec);
	progress_free(&t.prog);
	lesson_set_free(&t.set);
	return rc;
}

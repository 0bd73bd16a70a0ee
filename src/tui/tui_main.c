/* The tutor's start, main loop and end: the top, which knows every screen; the frame they share is tui.c. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "i18n.h"
#include "tui/tui_main.h"
#include "tui/tui_internal.h"

/* Every screen: the frame finds them by their ids here, and tells them all the news. */
const struct screen *const tui_screens[] = {
	&screen_list, &screen_lesson, &screen_present, &screen_code, &screen_diff, &screen_metrics,
	&screen_exercise, &screen_roofline, &screen_sweep, &screen_class, &screen_glossary,
};
const int tui_nscreens = (int)ARRAY_LEN(tui_screens);

/* The worker has news: the GPU was found (or not), a step ran, a job ended. */
static void worker_news(struct tui *t)
{
	struct worker_state old = t->ws;
	struct run_report fresh = { 0 };
	int have = worker_take(t->worker, &t->ws, &fresh);

	/* (the class view says on its own board what no GPU means there) */
	if (old.gpu == SESSION_GPU_UNKNOWN && tui_gpu(t) == SESSION_GPU_ABSENT && !class_view_started()) {
		char text[1024];

		/* TRANSLATORS: the second %s is a key, e.g. "r" */
		snprintf(text, sizeof text, _("No GPU here (%s): %s shows recorded results"),
		    t->ws.reason, tui_key(t, study_key_run, 0));
		if (t->message_keep || t->message[0] != '\0') {
			/*
			 * A message from the start (a damaged progress file), or one a key
			 * already asked for while the GPU was looked for, goes first.
			 */
			snprintf(t->next_message, sizeof t->next_message, "%s", text);
			t->next_style = STYLE_MESSAGE;
			t->message_keep = 1;
		} else {
			tui_message(t, STYLE_MESSAGE, "%s", text);
			t->message_keep = 1;
		}
	}
	study_news(t, &old, &fresh, have);
	practice_news(t);
	run_report_free(&fresh);
	if (t->ws.finished)
		tui_tell(t, TUI_NEWS_JOB_DONE);
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
	char exercise[sizeof t->prog.last_exercise];

	/* the class view, asked for: the lessons are under it */
	if (class_view_started()) {
		tui_switch(t, SCREEN_CLASS, NULL);
		return;
	}
	/* opening the lesson sets the position, and forgets the exercise */
	snprintf(exercise, sizeof exercise, "%s", t->prog.last_exercise);

	for (int i = 0; i < t->set.count; i++)
		if (t->prog.last_lesson[0] != '\0' && strcmp(t->set.lessons[i].id, t->prog.last_lesson) == 0 &&
		    t->set.lessons[i].error == NULL) {
			li = i;
			page = t->prog.last_step;
		}
	if (li < 0 && o->present)
		li = first_good_lesson(t);
	if (li >= 0)
		study_open(t, li, page);
	/* left on an exercise's page: that page again, and what its check finds */
	if (li >= 0 && !o->present && exercise[0] != '\0') {
		const struct lesson *l = tui_lesson(t);

		for (int x = 0; x < l->nexercises; x++) {
			if (strcmp(l->exercises[x].id, exercise) != 0)
				continue;
			tui_switch(t, SCREEN_EXERCISE, &(struct screen_arg){ page, CODE_SASS, x + 1 });
			if (t->depth > 0 && tui_screen(t)->id == SCREEN_EXERCISE) {
				practice_recheck(l->exercises[x].def);
				return;
			}
			break;
		}
	}
	tui_switch(t, li < 0 ? SCREEN_LIST : o->present ? SCREEN_PRESENT : SCREEN_LESSON, NULL);
}

/* The lessons, the progress, the messages of the start, the screen: -1 (and said why) when one fails. */
static int start(struct tui *t, const struct tui_options *o)
{
	struct error e, notice;

	memset(t, 0, sizeof *t);
	/* Lessons first: they are quick, and the first frame shows them. */
	if (lesson_load_all(o->lang, &t->set, &e) != 0) {
		fprintf(stderr, "cudatutor: %s\n", e.msg);
		return -1;
	}
	t->study = study_new();
	if (progress_load(&t->prog, NULL, &notice) != 0) {
		tui_message(t, STYLE_ERROR, "%s", notice.msg);
		t->message_keep = 1;
	}
	/* The locale asked for could not be used: say which one draws instead, once. */
	if (i18n_note()[0] != '\0' && t->message_keep) {
		snprintf(t->next_message, sizeof t->next_message, "%s", i18n_note());
		t->next_style = STYLE_MESSAGE;
	} else if (i18n_note()[0] != '\0') {
		tui_message(t, STYLE_MESSAGE, "%s", i18n_note());
		t->message_keep = 1;
	}
	if (crt_start(&e) != 0) {
		fprintf(stderr, "cudatutor: %s\n", e.msg);
		study_free(t);
		lesson_set_free(&t->set);
		progress_free(&t->prog);
		return -1;
	}
	crt_signals();
	t->unicode = crt_unicode();
	return 0;
}

/* The slow things, off this thread: the GPU. */
static void start_worker(struct tui *t)
{
	t->worker = worker_start_thread();
	if (t->worker == NULL) {
		struct worker_state none = { .gpu = SESSION_GPU_ABSENT };

		snprintf(none.reason, sizeof none.reason, "%s", _("the GPU thread cannot start"));
		t->ws = none;
	}
}

/* The main loop's own state. */
struct loop {
	int dirty;		/* a frame to draw */
	int cancelling;		/* Ctrl-C cancels the run going on */
	int interrupt;		/* SIGINT: Ctrl-C quit */
};

/* The Ctrl-C pressed since the last look: 1 to quit. */
static int take_interrupts(struct tui *t, struct loop *lp)
{
	int r = tui_interrupted(t, crt_take_interrupts(), &lp->cancelling);

	if (r & REACT_QUIT) {
		lp->interrupt = SIGINT;
		return 1;
	}
	if (r & REACT_DRAW)
		lp->dirty = 1;
	return 0;
}

/* Until a quit: draw what changed, wait for a key, the worker or a signal, and react. */
static void run_loop(struct tui *t, struct loop *lp)
{
	while (!crt_quit_signal()) {
		struct pollfd fds[4] = { { crt_fd(), POLLIN, 0 }, { -1, POLLIN, 0 },
		    { crt_signal_fd(), POLLIN, 0 }, { class_view_fd(), POLLIN, 0 } };
		int wait = practice_poll_timeout(), wait_class = class_view_timeout();
		struct crt_event ev;
		int n, r;

		if (!t->ws.busy)
			lp->cancelling = 0;
		if (take_interrupts(t, lp))
			return;
		if (lp->dirty) {
			tui_draw(t);
			lp->dirty = 0;
		}
		if (t->worker != NULL)
			fds[1].fd = worker_fd(t->worker);
		if (wait < 0 || (wait_class >= 0 && wait_class < wait))
			wait = wait_class;
		n = poll(fds, 4, wait);
		if (n < 0 && errno != EINTR)
			return;
		if (crt_quit_signal() || take_interrupts(t, lp))
			return;
		if (n > 0 && (fds[1].revents & POLLIN)) {
			worker_news(t);
			lp->dirty = 1;
		}
		/* A save of the file the student edits elsewhere, or a check that waited for the worker. */
		if (practice_tick(t) & REACT_DRAW)
			lp->dirty = 1;
		/* a submission arrived in the class's folder, or a verdict came in */
		if (class_view_tick(t) & REACT_DRAW)
			lp->dirty = 1;
		/* After EINTR too: a resize arrives as a key. */
		while (crt_read(&ev)) {
			r = tui_dispatch(t, &ev);
			if (r & REACT_QUIT)
				return;
			if (r & REACT_DRAW)
				lp->dirty = 1;
		}
	}
}

/* The screen back, the progress saved, the worker stopped, all freed: the exit status. */
static int finish(struct tui *t, int interrupt)
{
	struct error e;
	int rc = 0, sig = crt_quit_signal();

	if (sig == 0)
		sig = interrupt;
	crt_stop();
	study_keep_position(t);
	if (progress_save(&t->prog, &e) != 0) {
		fprintf(stderr, "cudatutor: %s\n", e.msg);
		rc = 1;
	}
	if (sig != 0)
		rc = 128 + sig;
	if (t->worker != NULL && worker_stop(t->worker, 3.0) != 0) {
		/* The GPU thread is stuck in the driver: leave without waiting for it. */
		fflush(NULL);
		_exit(rc);
	}
	/* Each screen frees what it holds. */
	while (t->depth > 0) {
		const struct screen *s = t->stack[--t->depth];
		if (s->close != NULL)
			s->close(t);
	}
	practice_free();
	class_view_free();
	study_free(t);
	progress_free(&t->prog);
	lesson_set_free(&t->set);
	return rc;
}

int tui_main(const struct tui_options *o)
{
	struct tui t;
	struct loop lp = { 0 };

	tui_set_screens(tui_screens, tui_nscreens);
	if (o->class_dir != NULL) {
		struct error e;

		if (class_view_start(&t, o->class_dir, o->class_exercise, o->present, &e) != 0) {
			fprintf(stderr, "cudatutor: %s\n", e.msg);
			return 1;
		}
	}
	if (start(&t, o) != 0) {
		class_view_free();
		return 1;
	}
	resume(&t, o);
	tui_draw(&t);
	start_worker(&t);
	run_loop(&t, &lp);
	return finish(&t, lp.interrupt);
}

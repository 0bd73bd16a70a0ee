/* Exercises in the tutor: the student's kernel written in an editor, checked on the worker thread. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exercise.h"
#include "i18n.h"
#include "session.h"
#include "tui/pane.h"
#include "tui/tui_internal.h"

/* What the exercises share across screens and lessons: the checks made, the file watched. */
static struct {
	struct worker_exercise **found;		/* the newest check of each exercise_defs row */
	/* with no editor set, the working copy looked at for saves */
	const struct exercise_def *watch;
	char *watch_path;
	struct timespec seen;			/* its time of change when last looked at */
	bool seen_exists;
	bool changed;				/* saved since: checked once the writing stops */
	double changed_at;
	const struct exercise_def *pending;	/* a check waiting for the worker */
} practice;

/* A save is checked once the file has not changed for this long: one save can be several writes. */
#define PRACTICE_QUIET_S 0.4
#define PRACTICE_POLL_MS 500

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int def_index(const struct exercise_def *def)
{
	return def != NULL ? (int)(def - exercise_defs) : -1;
}

const struct exercise_report *practice_report(const struct exercise_def *def)
{
	int i = def_index(def);

	if (practice.found == NULL || i < 0 || i >= exercise_def_count || practice.found[i] == NULL)
		return NULL;
	return &practice.found[i]->report;
}

const char *practice_watched(const struct exercise_def *def)
{
	return def != NULL && def == practice.watch ? practice.watch_path : NULL;
}

int practice_hints_shown(const struct tui *t, const struct lesson_exercise *x)
{
	const struct progress_exercise *p = progress_find_exercise(&t->prog, x->id);

	if (p == NULL)
		return 0;
	return p->hints_shown < x->nhints ? p->hints_shown : x->nhints;
}

/* ---- checking ---------------------------------------------------------------- */

void practice_check(struct tui *t, const struct exercise_def *def)
{
	const struct progress_exercise *p = progress_find_exercise(&t->prog, def->id);
	const struct lesson *l = lesson_find(&t->set, def->lesson);
	struct worker_job job;

	if (t->worker == NULL) {
		tui_message(t, STYLE_ERROR, _("Nothing can be checked here: the tutor's worker thread did not "
		    "start; use cudatutor check %s."), def->id);
		return;
	}
	if (t->ws.busy) {
		practice.pending = def;
		/* TRANSLATORS: %s is a key, e.g. "x" */
		tui_message(t, STYLE_MESSAGE, _("Your kernel is checked when the run going on ends (%s cancels the run)."),
		    tui_key(t, tui_key_cancel, 0));
		return;
	}
	memset(&job, 0, sizeof job);
	job.kind = WORKER_EXERCISE;
	job.lesson = l != NULL ? l : tui_lesson(t);
	job.exercise = def;
	if (p != NULL)
		job.progress = *p;
	if (worker_submit(t->worker, &job) != 0) {
		practice.pending = def;
		return;
	}
	practice.pending = NULL;
	/* Show it as going on now, before the thread says so. */
	t->ws.busy = 1;
	t->ws.job = job;
	t->ws.step = 0;
	t->ws.done = t->ws.total = 0;
}

void practice_recheck(const struct exercise_def *def)
{
	char *path = exercise_working_path(NULL, def->id);

	if (file_exists(path))
		practice.pending = def;
	free(path);
}

void practice_news(struct tui *t)
{
	struct worker_exercise *x = t->ws.exercise;
	const struct exercise_def *def = t->ws.job.exercise;
	char line[1024];
	int style, i;

	t->ws.exercise = NULL;
	if (!t->ws.finished || t->ws.job.kind != WORKER_EXERCISE) {
		worker_exercise_free(x);
		return;
	}
	if (x == NULL) {
		tui_message(t, STYLE_ERROR, _("Your kernel could not be checked: %s"),
		    t->ws.error[0] != '\0' ? t->ws.error : _("the check was cancelled"));
		/* the page shows no report of a file that is no longer the one checked */
		if (def != NULL && practice.found != NULL && !t->ws.cancelled) {
			i = def_index(def);
			worker_exercise_free(practice.found[i]);
			practice.found[i] = NULL;
		}
		return;
	}
	if (practice.found == NULL)
		practice.found = xcalloc((size_t)exercise_def_count, sizeof *practice.found);
	i = def_index(def);
	worker_exercise_free(practice.found[i]);
	practice.found[i] = x;
	/* The check kept a pass and a best time in a copy of the exercise's entry. */
	if (x->report.passed) {
		struct progress_exercise *p = progress_exercise(&t->prog, def->id);

		p->passed = true;
		if (x->report.new_best) {
			p->best_ms = x->progress.best_ms;
			snprintf(p->gpu, sizeof p->gpu, "%s", x->progress.gpu);
			snprintf(p->date, sizeof p->date, "%s", x->progress.date);
		}
		study_save(t);
	}
	style = pane_exercise_summary(&x->report, line, sizeof line);
	if (t->ws.cancelled)
		tui_message(t, STYLE_MESSAGE, _("Cancelled; so far: %s"), line);
	else
		tui_message(t, style, "%s", line);
}

/* ---- the editor, and the file watched without one -------------------------------- */

static const char *editor(void)
{
	const char *names[] = { "VISUAL", "EDITOR" };

	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		const char *v = getenv(names[i]);
		if (v != NULL && *v != '\0')
			return v;
	}
	return NULL;
}

/*
 * The editor on path, the screen lent to it; the shell splits its words
 * ("code --wait").  0 when it ended well; else -1 with a message.
 */
static int edit(struct tui *t, const char *command, const char *path)
{
	char *script = xasprintf("%s \"$1\"", command);
	struct sigaction dfl, old_tstp;
	int status = 0, err = 0;
	pid_t pid;

	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	crt_suspend();
	/* An editor that stops itself (Ctrl-Z) stops its whole process group: the tutor waits stopped too. */
	sigaction(SIGTSTP, &dfl, &old_tstp);
	pid = fork();
	if (pid == 0) {
		static const int reset[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE, SIGWINCH };
		sigset_t none;

		for (size_t i = 0; i < ARRAY_LEN(reset); i++)
			sigaction(reset[i], &dfl, NULL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execl("/bin/sh", "sh", "-c", script, "sh", path, (char *)NULL);
		_exit(127);
	}
	if (pid < 0)
		err = errno;
	while (pid > 0 && waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			err = errno;
			break;
		}
	}
	sigaction(SIGTSTP, &old_tstp, NULL);
	crt_resume();
	/* A Ctrl-C in the editor was the editor's. */
	crt_take_interrupts();
	free(script);
	if (err != 0) {
		tui_message(t, STYLE_ERROR, _("The editor could not be started (%s); your file is %s."),
		    strerror(err), path);
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		tui_message(t, STYLE_ERROR, _("The editor '%s' ended with status %d, so nothing was checked: "
		    "set $VISUAL or $EDITOR to an editor that works; your file is %s."), command,
		    WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), path);
		return -1;
	}
	return 0;
}

/* The watched file's time of change; false when it is not there. */
static bool look(struct timespec *when)
{
	struct stat st;

	if (practice.watch_path == NULL || stat(practice.watch_path, &st) != 0)
		return false;
	*when = st.st_mtim;
	return true;
}

static void watch(const struct exercise_def *def, char *path)
{
	free(practice.watch_path);
	practice.watch = def;
	practice.watch_path = path;
	practice.changed = false;
	practice.seen_exists = look(&practice.seen);
}

int practice_write(struct tui *t, const struct lesson_exercise *x)
{
	const char *command = editor();
	struct error e;
	bool created = false;
	char *path = exercise_start(NULL, x->id, &created, &e);

	if (path == NULL) {
		tui_message(t, STYLE_ERROR, "%s", e.msg);
		return REACT_DRAW;
	}
	if (command == NULL) {
		/* No editor to guess at: the student edits elsewhere, and each save is checked here. */
		tui_message(t, STYLE_MESSAGE, created ?
		    _("Your copy of the starting file is %s. With no $VISUAL or $EDITOR set, edit it in "
		    "another window: each time you save it, it is checked here.") :
		    _("Your file is %s. With no $VISUAL or $EDITOR set, edit it in another window: each time "
		    "you save it, it is checked here."), path);
		watch(x->def, path);
		return REACT_DRAW;
	}
	if (edit(t, command, path) == 0)
		practice_check(t, x->def);
	free(path);
	return REACT_DRAW;
}

int practice_poll_timeout(void)
{
	return practice.watch != NULL || practice.pending != NULL ? PRACTICE_POLL_MS : -1;
}

int practice_tick(struct tui *t)
{
	struct timespec when;
	bool there;

	if (practice.pending != NULL && !t->ws.busy) {
		practice_check(t, practice.pending);
		return REACT_DRAW;
	}
	if (practice.watch == NULL)
		return REACT_NONE;
	there = look(&when);
	if (there != practice.seen_exists || (there && (when.tv_sec != practice.seen.tv_sec ||
	    when.tv_nsec != practice.seen.tv_nsec))) {
		practice.seen_exists = there;
		practice.seen = when;
		practice.changed = there;
		practice.changed_at = now_s();
		return REACT_NONE;
	}
	if (practice.changed && now_s() - practice.changed_at >= PRACTICE_QUIET_S) {
		practice.changed = false;
		practice_check(t, practice.watch);
		return REACT_DRAW;
	}
	return REACT_NONE;
}

/* ---- hints ----------------------------------------------------------------------- */

int practice_hint(struct tui *t, const struct lesson_exercise *x, const char *again)
{
	int number = 0;
	const char *hint = exercise_next_hint(&t->prog, x, &number);

	if (hint == NULL) {
		tui_message(t, STYLE_MESSAGE, _("Every hint has been shown (%d); cudatutor solution %s prints ours."),
		    x->nhints, x->id);
		return REACT_DRAW;
	}
	study_save(t);
	if (number < x->nhints)
		/* TRANSLATORS: %s is a key, e.g. "H" */
		tui_message(t, STYLE_MESSAGE, _("Hint %d of %d, under the task; %s again for the next."), number,
		    x->nhints, again);
	else
		tui_message(t, STYLE_MESSAGE, _("Hint %d of %d, under the task: the last."), number, x->nhints);
	return REACT_DRAW;
}

void practice_free(void)
{
	for (int i = 0; practice.found != NULL && i < exercise_def_count; i++)
		worker_exercise_free(practice.found[i]);
	free(practice.found);
	free(practice.watch_path);
	memset(&practice, 0, sizeof practice);
}

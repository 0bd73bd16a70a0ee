/* check: compile an exercise with NVRTC, check its SASS, run and time it on the GPU. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "cli/cli_exercise.h"
#include "cmd/cmd.h"
#include "exercise.h"
#include "gpu_lock.h"
#include "i18n.h"

/* How much of a check's text report is out: nothing, the answers, the timing too, or all of it. */
enum shown { SHOWN_NOTHING, SHOWN_ANSWERS, SHOWN_TIMING, SHOWN_ALL };

/*
 * The answers as soon as they are in, before the timing (which takes
 * seconds): a student sees right or wrong at once.
 */
static void show_answers(void *ctx, const struct exercise_report *r)
{
	enum shown *shown = ctx;

	*shown = cli_print_exercise_answers(stdout, r) ? SHOWN_ANSWERS : SHOWN_ALL;
	fflush(stdout);
}

static void show_timing(void *ctx, const struct exercise_report *r)
{
	enum shown *shown = ctx;

	if (*shown == SHOWN_ANSWERS) {
		cli_print_exercise_timing(stdout, r);
		*shown = SHOWN_TIMING;
		fflush(stdout);
	}
}

/* Set by Ctrl-C (or SIGTERM) while --watch watches: the signal's number. */
static volatile sig_atomic_t stop;

/*
 * One check, printed; its exit status: 0 passed, EXIT_WRONG not yet,
 * EXIT_NOT_GRADED the SASS passes but no GPU ran it, 1
 * could not check.  *uses_shared (may be NULL): whether the kernel uses
 * shared memory.  A check that a signal stopped (its cuobjdump got the
 * Ctrl-C too) was cancelled, not failed: nothing of it is printed.
 */
static int check_once(struct cmd_ctx *c, const char *id)
{
	struct exercise_report r;
	struct measure_options o;
	struct progress p;
	struct error notice, e;
	enum shown shown = SHOWN_NOTHING;
	struct exercise_hooks hooks = { .answers = show_answers, .timed = show_timing, .ctx = &shown };
	int rc;

	session_measure_options(&o, 0);
	if (progress_load(&p, NULL, &notice) != 0)
		cmd_fail("%s", notice.msg);
	if (session_exercise_check(c->dir, id, c->file, true, c->size, c->seed, &o,
	    c->format == FORMAT_JSON ? NULL : &hooks, &p, &r, &e) != 0) {
		if (!stop)
			cmd_fail("%s", e.msg);
		progress_free(&p);
		return EXIT_FAILURE;
	}
	if (stop) {
		session_exercise_report_free(&r);
		progress_free(&p);
		return EXIT_FAILURE;
	}
	if (shown == SHOWN_ANSWERS)
		cli_print_exercise_timing(stdout, &r);
	if (shown == SHOWN_ANSWERS || shown == SHOWN_TIMING)
		cli_print_exercise_verdict(stdout, &r);
	else if (shown == SHOWN_NOTHING)
		cli_print_exercise_report(stdout, &r, c->format);
	fflush(stdout);
	/* --sanitize: each tool's whole report, every line it found */
	if (c->given[OPT_SANITIZE] && !r.gpu)
		printf("\n%s\n", _("--sanitize: compute-sanitizer not run: its tools watch the kernel as it runs, and no GPU ran it here."));
	for (int i = 0; c->given[OPT_SANITIZE] && i < r.ntools; i++)
		if (r.tools[i].report != NULL)
			printf(_("\ncompute-sanitizer --tool %s on %s:\n%s"), r.tools[i].name, id, r.tools[i].report);
	if (r.passed && progress_save(&p, &e) != 0)
		cmd_fail("%s", e.msg);
	/*
	 * Without a GPU (or on one the target cannot run on) a kernel whose
	 * SASS checks pass is not graded: a status of its own, so that a
	 * grading script keyed on the status never takes it for a pass.
	 */
	rc = r.passed ? 0 : session_exercise_graded(&r) ? EXIT_WRONG : EXIT_NOT_GRADED;
	session_exercise_report_free(&r);
	progress_free(&p);
	return rc;
}

static void on_signal(int sig)
{
	stop = sig;
}

/*
 * Check again whenever the file is saved: inotify on its directory (an
 * editor may write a new file and rename it over the old), and a quiet
 * moment first, since one save can be several writes.  Ctrl-C ends it,
 * during a check too: the status is then the signal's, as without --watch.
 */
static int watch(struct cmd_ctx *c, const char *id, const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	const char *name = slash != NULL ? slash + 1 : path;
	int fd = inotify_init1(IN_CLOEXEC), rc = 0;

	if (slash != NULL)
		*slash = '\0';
	else
		snprintf(dir, strlen(dir) + 1, ".");
	if (fd < 0 || inotify_add_watch(fd, dir, IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE) < 0) {
		cmd_fail(_("--watch: cannot watch %s (%s)"), dir, strerror(errno));
		free(dir);
		return EXIT_FAILURE;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	/* the step's process and its CUDA context wait from one save to the next */
	session_keep_worker(true);
	rc = check_once(c, id);
	if (!stop)
		printf(_("\nWatching %s: save it to check again, Ctrl-C to stop.\n"), path);
	fflush(stdout);
	while (!stop) {
		char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
		struct pollfd pfd = { fd, POLLIN, 0 };
		bool ours = false;
		ssize_t len;

		if (poll(&pfd, 1, 500) <= 0)
			continue;
		len = read(fd, buf, sizeof buf);
		for (char *q = buf; len > 0 && q < buf + len;) {
			struct inotify_event *ev = (struct inotify_event *)q;
			if (ev->len > 0 && strcmp(ev->name, name) == 0)
				ours = true;
			q += sizeof *ev + ev->len;
		}
		if (!ours)
			continue;
		/* debounce: wait until the writes have stopped for a moment */
		while (!stop && poll(&pfd, 1, 200) > 0)
			(void)read(fd, buf, sizeof buf);
		if (stop)
			break;
		printf("\n----\n");
		rc = check_once(c, id);
		if (!stop)
			printf(_("\nWatching %s: save it to check again, Ctrl-C to stop.\n"), path);
		fflush(stdout);
	}
	close(fd);
	free(dir);
	session_keep_worker(false);
	if (stop) {
		/* end as the signal would have ended it: the shell that waits sees a Ctrl-C */
		int sig = stop;

		fflush(NULL);
		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	}
	return rc;
}

static int check_exec(struct cmd_ctx *c)
{
	const struct exercise_def *def;
	struct error e;
	int rc;

	if (c->argc != 1) {
		cmd_fail(c->argc == 0 ? _("check needs an exercise: cudatutor check ID (see cudatutor exercise)") :
		    _("check takes one exercise; '%s' is extra"), c->argc > 1 ? c->argv[1] : "");
		return EXIT_USAGE;
	}
	if ((def = exercise_lookup(c->argv[0], &e)) == NULL) {
		cmd_fail("%s", e.msg);
		return EXIT_FAILURE;
	}
	/* class's checks share a GPU: the lock it gave, out of the tools' environment */
	if (gpu_lock_init(&e) != 0) {
		cmd_fail("%s", e.msg);
		return EXIT_FAILURE;
	}
	/* --sanitize: the tools at every size of the check, and their whole reports shown */
	session_exercise_tools_at_every_size(c->given[OPT_SANITIZE]);
	if (c->given[OPT_WATCH]) {
		char *path = c->file != NULL ? xstrdup(c->file) : exercise_working_path(c->dir, def->id);
		rc = watch(c, def->id, path);
		free(path);
		return rc;
	}
	if (getenv("CUDATUTOR_CHECK_CORRECTNESS_ONLY") != NULL || getenv("CUDATUTOR_CHECK_EXECUTED") != NULL ||
	    getenv("CUDATUTOR_CHECK_DRAM") != NULL) {
		/* under compute-sanitizer or ncu: the sizes only, no timing (it would take ages) */
		struct exercise_report r;
		struct measure_options o;

		session_measure_options(&o, 1);
		if (session_exercise_check(c->dir, def->id, c->file, false, c->size, c->seed, &o, NULL, NULL, &r,
		    &e) != 0) {
			cmd_fail("%s", e.msg);
			return EXIT_FAILURE;
		}
		cli_print_exercise_report(stdout, &r, FORMAT_TEXT);
		rc = r.passed ? 0 : EXIT_WRONG;
		session_exercise_report_free(&r);
		return rc;
	}
	return check_once(c, def->id);
}

const struct command cmd_check_entry = {
	.name = "check",
	.args = "ID",
	.summary = N_("compile your kernel for an exercise (NVRTC), check the technique\n"
	    "in its SASS, and on a GPU check its answers and time it beside ours"),
	.options = (const enum cmd_opt[]){ OPT_FILE, OPT_DIR, OPT_WATCH, OPT_SANITIZE, OPT_SIZE, OPT_SEED,
	    OPT_FORMAT, OPT_END },
	.formats = FORMATS_TEXT_JSON,
	.exec = check_exec,
};

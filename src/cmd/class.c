/* class: judge a folder of handed-in kernels again on this machine's GPUs, and rank them. */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "class.h"
#include "cli/cli_class.h"
#include "cmd/cmd.h"
#include "exercise.h"
#include "i18n.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = sig;
}

/* "judging 3 of 12 (2 from earlier looks)..." on a terminal, on one line. */
static void progress_line(const struct class_board *b, bool *shown)
{
	int done = 0, total = 0, cached = 0;

	if (!isatty(STDERR_FILENO))
		return;
	for (int i = 0; i < b->n; i++) {
		const struct class_entry *x = &b->entries[i];
		if (x->state == CLASS_BAD || x->state == CLASS_OLDER)
			continue;
		total++;
		done += x->state == CLASS_JUDGED;
		cached += x->state == CLASS_JUDGED && x->v.cached;
	}
	fputs("\r\033[K", stderr);
	fprintf(stderr, _("judged %d of %d (%d kept from an earlier look)..."), done, total, cached);
	*shown = true;
}

static int class_exec(struct cmd_ctx *c)
{
	struct class_board b;
	struct error e;
	bool shown = false, changed;
	int sig;

	if (c->argc != 1) {
		cmd_fail(c->argc == 0 ? _("class needs a folder: cudatutor class DIR, where the class's submissions are") :
		    _("class takes one folder; '%s' is extra"), c->argc > 1 ? c->argv[1] : "");
		return EXIT_USAGE;
	}
	if (c->exercise != NULL && exercise_lookup(c->exercise, &e) == NULL) {
		cmd_fail("--exercise: %s", e.msg);
		return EXIT_USAGE;
	}
	if (class_open(&b, c->argv[0], c->exercise, &e) != 0) {
		cmd_fail("%s", e.msg);
		return EXIT_FAILURE;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	class_scan(&b);
	progress_line(&b, &shown);
	while (!stop && class_judge(&b, 500, &changed) > 0)
		if (changed)
			progress_line(&b, &shown);
	if (shown)
		fprintf(stderr, "\r\033[K");
	sig = stop;
	if (!sig)
		cli_print_class(stdout, &b, c->format);
	class_close(&b);
	if (sig) {
		/* the checks going on were stopped with the board; the verdicts in are kept */
		fflush(NULL);
		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	}
	return 0;
}

const struct command cmd_class_entry = {
	.name = "class",
	.args = "DIR",
	.summary = N_("judge a class's handed-in kernels (cudatutor submit) again on this\n"
	    "machine's GPUs, one check each, and rank each exercise's passes"),
	.options = (const enum cmd_opt[]){ OPT_EXERCISE, OPT_FORMAT, OPT_END },
	.formats = FORMATS_TEXT_JSON_CSV,
	.exec = class_exec,
};

/* solution: our solution of an exercise, after the student says so. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "exercise.h"
#include "i18n.h"

/* Ask on the terminal; false without one (then --yes is the way). */
static bool confirmed(const char *id)
{
	char answer[16];

	if (!isatty(STDIN_FILENO))
		return false;
	fprintf(stderr, _("Show our solution of '%s'? Trying first teaches more (cudatutor hint %s). [y/N] "),
	    id, id);
	fflush(stderr);
	if (fgets(answer, sizeof answer, stdin) == NULL)
		return false;
	return answer[0] == 'y' || answer[0] == 'Y';
}

static int solution_exec(struct cmd_ctx *c)
{
	const struct exercise_def *def;
	struct error e;
	char *text;

	if (c->argc != 1) {
		cmd_fail(c->argc == 0 ?
		    _("solution needs an exercise: cudatutor solution ID (see cudatutor exercise)") :
		    _("solution takes one exercise"));
		return EXIT_USAGE;
	}
	if ((def = exercise_lookup(c->argv[0], &e)) == NULL) {
		cmd_fail("%s", e.msg);
		return EXIT_FAILURE;
	}
	if (!c->given[OPT_YES] && !confirmed(def->id)) {
		cmd_fail(isatty(STDIN_FILENO) ? _("not shown") :
		    _("solution asks first; with no terminal to ask on, add --yes"));
		return EXIT_FAILURE;
	}
	if ((text = exercise_solution(def->id, &e)) == NULL) {
		cmd_fail("%s", e.msg);
		return EXIT_FAILURE;
	}
	fputs(text, stdout);
	free(text);
	return 0;
}

const struct command cmd_solution_entry = {
	.name = "solution",
	.args = "ID",
	.summary = N_("our solution of an exercise, after asking"),
	.options = (const enum cmd_opt[]){ OPT_YES, OPT_END },
	.exec = solution_exec,
};

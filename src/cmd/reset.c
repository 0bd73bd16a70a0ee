/* reset: an exercise's working copy back to its starting file (each old one kept, numbered). */
#include "config.h"

#include <stdlib.h>

#include "cmd/cmd.h"
#include "exercise.h"
#include "i18n.h"

static int reset_exec(struct cmd_ctx *c)
{
	const struct exercise_def *def;
	struct error e;
	char *path, *backup;
	int rc;

	if (c->argc != 1) {
		cmd_fail(c->argc == 0 ? _("reset needs an exercise: cudatutor reset ID (see cudatutor exercise)") :
		    _("reset takes one exercise"));
		return EXIT_USAGE;
	}
	if ((def = exercise_lookup(c->argv[0], &e)) == NULL) {
		cmd_fail("%s", e.msg);
		return EXIT_FAILURE;
	}
	if ((rc = exercise_reset(c->dir, def->id, &backup, &e)) < 0) {
		cmd_fail("%s", e.msg);
		return EXIT_FAILURE;
	}
	path = exercise_working_path(c->dir, def->id);
	if (rc == EXERCISE_RESET_KEPT)
		printf(_("%s is the starting file again; what you had is kept as %s\n"), path, backup);
	else if (rc == EXERCISE_RESET_UNTOUCHED)
		printf(_("%s is the starting file already: nothing to reset\n"), path);
	else
		printf(_("%s is the starting file\n"), path);
	free(backup);
	free(path);
	return 0;
}

const struct command cmd_reset_entry = {
	.name = "reset",
	.args = "ID",
	.summary = N_("put an exercise's starting file back (yours is kept as ID.cu.~1~, ~2~, ...)"),
	.options = (const enum cmd_opt[]){ OPT_DIR, OPT_END },
	.exec = reset_exec,
};

/* exercise: the list of exercises, or one started: its task and its working copy. */
#include "config.h"

#include <stdlib.h>

#include "cli/cli_exercise.h"
#include "cmd/cmd.h"
#include "exercise.h"
#include "i18n.h"

static int exercise_exec(struct cmd_ctx *c)
{
	struct lesson_set set = { 0 };
	struct progress p;
	struct error notice, e;
	struct exercise_entry *list = NULL;
	int n, rc = EXIT_FAILURE;

	if (c->argc > 1) {
		cmd_fail(_("exercise takes one exercise; '%s' is extra"), c->argv[1]);
		return EXIT_USAGE;
	}
	if (c->argc == 1 && exercise_lookup(c->argv[0], &e) == NULL) {
		cmd_fail("%s", e.msg);
		return EXIT_FAILURE;
	}
	if (cmd_load_lessons(c->lang, &set) != 0)
		return EXIT_FAILURE;
	if (progress_load(&p, NULL, &notice) != 0)
		cmd_fail("%s", notice.msg);
	n = exercise_list(&set, &p, &list);
	if (c->argc == 0) {
		cli_print_exercises(stdout, list, n, c->format);
		rc = 0;
	} else {
		bool created = false;
		char *path = exercise_start(c->dir, c->argv[0], &created, &e);

		if (path == NULL) {
			cmd_fail("%s", e.msg);
		} else {
			for (int i = 0; i < n; i++)
				if (strcmp(list[i].def->id, c->argv[0]) == 0)
					cli_print_exercise_task(stdout, &list[i], path, created, c->format);
			/* started: it shows so in the list from now on */
			progress_exercise(&p, c->argv[0]);
			if (progress_save(&p, &e) != 0)
				cmd_fail("%s", e.msg);
			rc = 0;
		}
		free(path);
	}
	free(list);
	progress_free(&p);
	lesson_set_free(&set);
	return rc;
}

const struct command cmd_exercise_entry = {
	.name = "exercise",
	.args = "[ID]",
	.summary = N_("the exercises and how far you are; with ID, start one: its task,\n"
	    "and a working copy of its starting file to edit"),
	.options = (const enum cmd_opt[]){ OPT_DIR, OPT_FORMAT, OPT_LANG, OPT_END },
	.formats = FORMATS_TEXT_JSON,
	.exec = exercise_exec,
};

/* The full-screen tutor: what runs when no command is named. */
#include "config.h"

#include <stdlib.h>

#include "cmd/cmd.h"
#include "exercise.h"
#include "i18n.h"
#include "tui/tui_main.h"

static int tutor_exec(struct cmd_ctx *c)
{
	struct tui_options o = { 0 };
	struct error e;
	char *lang;
	int rc;

	if (c->argc > 0) {
		cmd_fail(_("unknown command '%s' (see cudatutor --help)"), c->argv[0]);
		return EXIT_USAGE;
	}
	lang = cmd_language(c->lang);
	o.present = c->given[OPT_PRESENT];
	o.class_dir = c->class_dir;
	o.class_exercise = c->exercise;
	if (c->exercise != NULL && c->class_dir == NULL) {
		cmd_fail("%s", _("--exercise goes with --class DIR: the class view's one exercise"));
		free(lang);
		return EXIT_USAGE;
	}
	if (c->exercise != NULL && exercise_lookup(c->exercise, &e) == NULL) {
		cmd_fail("--exercise: %s", e.msg);
		free(lang);
		return EXIT_USAGE;
	}
	o.lang = lang;
	rc = tui_main(&o);
	free(lang);
	return rc;
}

const struct command cmd_tutor_entry = {
	.summary = N_("With no command, opens the full-screen tutor where you left off."),
	.options = (const enum cmd_opt[]){ OPT_PRESENT, OPT_LANG, OPT_CLASS, OPT_EXERCISE, OPT_END },
	.exec = tutor_exec,
};

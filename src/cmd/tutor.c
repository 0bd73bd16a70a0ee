/* The full-screen tutor: what runs when no command is named. */
#include "config.h"

#include <stdlib.h>

#include "cmd/cmd.h"
#include "i18n.h"
#include "tui/tui_main.h"

static int tutor_exec(struct cmd_ctx *c)
{
	struct tui_options o = { 0 };
	char *lang;
	int rc;

	if (c->argc > 0) {
		cmd_fail(_("unknown command '%s' (see cudatutor --help)"), c->argv[0]);
		return EXIT_USAGE;
	}
	lang = cmd_language(c->lang);
	o.present = c->given[OPT_PRESENT];
	o.lang = lang;
	rc = tui_main(&o);
	free(lang);
	return rc;
}

const struct command cmd_tutor_entry = {
	.summary = N_("With no command, opens the full-screen tutor where you left off."),
	.options = (const enum cmd_opt[]){ OPT_PRESENT, OPT_LANG, OPT_END },
	.exec = tutor_exec,
};

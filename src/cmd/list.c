/* list: the lessons and their steps, or every kernel. */
#include "config.h"

#include <stdlib.h>

#include "cmd/cmd.h"
#include "i18n.h"

static int list_exec(struct cmd_ctx *c)
{
	struct lesson_set set;

	if (c->argc > 0) {
		cmd_fail(_("list takes no argument '%s'"), c->argv[0]);
		return EXIT_USAGE;
	}
	if (c->given[OPT_KERNELS]) {
		cli_print_kernels(stdout, c->format);
		return 0;
	}
	if (cmd_load_lessons(c->lang, &set) != 0)
		return EXIT_FAILURE;
	cli_print_lessons(stdout, &set, c->format);
	lesson_set_free(&set);
	return 0;
}

const struct command cmd_list_entry = {
	.name = "list",
	.summary = N_("the lessons and their steps (--kernels: every kernel)"),
	.options = (const enum cmd_opt[]){ OPT_KERNELS, OPT_FORMAT, OPT_LANG, OPT_END },
	.formats = FORMATS_TEXT_JSON_CSV,
	.exec = list_exec,
};

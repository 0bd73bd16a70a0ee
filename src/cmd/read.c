/* read: a lesson's text, for reading without the full-screen tutor. */
#include "config.h"

#include <stdlib.h>

#include "cmd/cmd.h"
#include "i18n.h"
#include "session.h"

static int read_exec(struct cmd_ctx *c)
{
	struct lesson_set set = { 0 };
	const struct lesson *l;
	char arch[16];
	int width = (int)c->width;

	if (c->argc != 1) {
		cmd_fail(_("read takes one lesson: cudatutor read LESSON (see cudatutor list)"));
		return EXIT_USAGE;
	}
	if ((l = cmd_open_lesson(c->lang, c->argv[0], c->step, &set)) == NULL) {
		lesson_set_free(&set);
		return EXIT_FAILURE;
	}
	cmd_arch(c, l->steps[0].kernel->module, arch, sizeof arch, NULL);
	if (width == 0) {
		/* a margin on narrow terminals; lines no longer than 98 on wide ones */
		int columns = cli_output_width();
		width = columns < 100 ? columns - 2 : 98;
	}
	cli_print_lesson(stdout, l, (int)c->step, arch, width);
	lesson_set_free(&set);
	return 0;
}

const struct command cmd_read_entry = {
	.name = "read",
	.args = "LESSON",
	.summary = N_("a lesson's text, for reading without the full-screen tutor"),
	.options = (const enum cmd_opt[]){ OPT_STEP, OPT_ARCH, OPT_WIDTH, OPT_LANG, OPT_END },
	.min_width = 20,
	.exec = read_exec,
};

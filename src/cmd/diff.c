/* diff: two kernels' instruction mixes and SASS, aligned line by line. */
#include "config.h"

#include <stdlib.h>

#include "cmd/cmd.h"
#include "compare.h"
#include "i18n.h"
#include "session.h"

static int diff_exec(struct cmd_ctx *c)
{
	struct compare cmp = { 0 };
	struct error e;
	char arch[16];
	int rc = EXIT_FAILURE;

	if (c->argc != 2) {
		cmd_fail(_("diff compares two kernels: cudatutor diff KERNEL_A KERNEL_B"));
		return EXIT_USAGE;
	}
	if (compare_resolve(&cmp, c->argv[0], c->argv[1], c->block, &e) != 0 ||
	    cmd_arch(c, cmp.a.kernel->module, arch, sizeof arch, &e) != 0 ||
	    compare_load(&cmp, arch, &e) != 0) {
		cmd_fail("%s", e.msg);
		goto out;
	}
	cli_print_diff(stdout, &cmp, c->width ? (int)c->width : cli_output_width(), c->format);
	rc = 0;
out:
	compare_free(&cmp);
	return rc;
}

const struct command cmd_diff_entry = {
	.name = "diff",
	.args = "KERNEL_A KERNEL_B",
	.summary = N_("two kernels' instruction mixes and SASS, aligned line by line"),
	.options = (const enum cmd_opt[]){ OPT_ARCH, OPT_BLOCK, OPT_FORMAT, OPT_WIDTH, OPT_END },
	.formats = FORMATS_TEXT_JSON,
	.min_width = 40,
	.exec = diff_exec,
};

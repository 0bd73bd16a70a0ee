/* banks: which shared-memory bank each lane of a warp reads at a stride. */
#include "config.h"

#include <stdlib.h>

#include "banks.h"
#include "cmd/cmd.h"
#include "i18n.h"

static int banks_exec(struct cmd_ctx *c)
{
	unsigned long long stride;
	struct banks_access a;

	if (c->argc < 1) {
		cmd_fail(_("banks needs a stride: cudatutor banks STRIDE (0 for every lane on one element)"));
		return EXIT_USAGE;
	}
	if (c->argc > 1) {
		cmd_fail(_("banks takes one stride; '%s' is extra"), c->argv[1]);
		return EXIT_USAGE;
	}
	if (parse_count(c->argv[0], &stride) != 0 || stride > 1024) {
		cmd_fail(_("banks: '%s' is not a stride from 0 to 1024 elements"), c->argv[0]);
		return EXIT_USAGE;
	}
	banks_compute((unsigned int)stride, c->bytes ? (unsigned int)c->bytes : 4, c->given[OPT_PAD], &a);
	cli_print_banks(stdout, &a, c->format);
	return 0;
}

const struct command cmd_banks_entry = {
	.name = "banks",
	.args = "STRIDE",
	.summary = N_("which shared-memory bank each lane of a warp reads at a stride"),
	.options = (const enum cmd_opt[]){ OPT_PAD, OPT_BYTES, OPT_FORMAT, OPT_END },
	.formats = FORMATS_TEXT_JSON,
	.exec = banks_exec,
};

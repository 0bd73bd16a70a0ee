/* show: a kernel's source, PTX, SASS, resources, instruction mix or occupancy. */
#include "config.h"

#include <stdlib.h>

#include "cmd/cmd.h"
#include "i18n.h"
#include "inspect.h"
#include "sass.h"
#include "session.h"

/* The instruction mix of t's SASS on arch, with its resources. */
static int show_stats(const struct inspect_target *t, const char *arch, enum cli_format format)
{
	struct kernel_resources res;
	struct sass_listing l;
	struct sass_mix m;
	struct error e;
	char *text = inspect_sass(t, arch, &e);

	if (text == NULL) {
		cmd_fail("%s", e.msg);
		return EXIT_FAILURE;
	}
	sass_parse(text, &l);
	sass_mix_of(&l, &m);
	cli_print_stats(stdout, t->symbol, arch, &m,
	    inspect_resources(t, arch, &res, &e) == 0 ? &res : NULL, format);
	sass_listing_free(&l);
	free(text);
	return 0;
}

/* The source, PTX or SASS as it is. */
static int show_text(const struct inspect_target *t, enum cmd_opt view, const char *arch)
{
	struct error e;
	char *text;

	if (view == OPT_PTX)
		text = inspect_ptx(t, &e);
	else if (view == OPT_SASS)
		text = inspect_sass(t, arch, &e);
	else
		text = inspect_source(t, &e);
	if (text == NULL) {
		cmd_fail("%s", e.msg);
		return EXIT_FAILURE;
	}
	fputs(text, stdout);
	free(text);
	return 0;
}

static int show_exec(struct cmd_ctx *c)
{
	enum cmd_opt view = c->choice != OPT_END ? c->choice : OPT_SOURCE;
	bool numbered = c->given[OPT_LINES] || c->given[OPT_LINE];
	struct kernel_resources res;
	struct inspect_target t;
	struct error e;
	char arch[16];

	if (c->argc < 1) {
		cmd_fail(_("show needs a kernel: cudatutor show KERNEL --sass (see cudatutor list --kernels)"));
		return EXIT_USAGE;
	}
	if (c->argc > 1) {
		cmd_fail(_("show takes one kernel; '%s' is extra"), c->argv[1]);
		return EXIT_USAGE;
	}
	if (inspect_resolve(c->argv[0], c->block, &t, &e) != 0) {
		cmd_fail("%s", e.msg);
		return EXIT_FAILURE;
	}
	snprintf(arch, sizeof arch, "%s", c->arch);
	/* the source and PTX are the same on every architecture */
	if (view != OPT_SOURCE && view != OPT_PTX && cmd_arch(c, t.kernel->module, arch, sizeof arch, &e) != 0) {
		cmd_fail("%s", e.msg);
		return EXIT_FAILURE;
	}
	switch (view) {
	case OPT_OCCUPANCY:
		if (cli_print_occupancy(stdout, &t, arch, c->format, &e) == 0)
			return 0;
		break;
	case OPT_STATS:
		return show_stats(&t, arch, c->format);
	case OPT_RESOURCES:
		if (inspect_resources(&t, arch, &res, &e) == 0) {
			cli_print_resources(stdout, t.symbol, arch, &res, c->format);
			return 0;
		}
		break;
	default:
		/* PTX has no line numbers to give */
		if (!numbered || view == OPT_PTX)
			return show_text(&t, view, arch);
		if (cli_print_numbered(stdout, &t, view == OPT_SASS, arch, (int)c->line, &e) == 0)
			return 0;
		break;
	}
	cmd_fail("%s", e.msg);
	return EXIT_FAILURE;
}

const struct command cmd_show_entry = {
	.name = "show",
	.args = "KERNEL",
	.summary = N_("a kernel's CUDA source, PTX, SASS, resource report, instruction\n"
	    "mix (--stats), or blocks and warps per multiprocessor for each\n"
	    "block size (--occupancy)"),
	.options = (const enum cmd_opt[]){ OPT_SOURCE, OPT_PTX, OPT_SASS, OPT_RESOURCES, OPT_STATS,
	    OPT_OCCUPANCY, OPT_ARCH, OPT_LINES, OPT_LINE, OPT_BLOCK, OPT_FORMAT, OPT_END },
	.formats = FORMATS_TEXT_JSON_CSV,
	.exec = show_exec,
};

/* roofs: how fast this GPU's memory and arithmetic can go at all, measured and from its spec. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli/cli_roofs.h"
#include "cmd/cmd.h"
#include "i18n.h"
#include "session.h"

/* The recorded file, or the newest in data/results/ (by its date) when file is NULL. */
static int recorded_file(const char *file, struct results_file *f, struct error *e)
{
	char path[512] = "", newest[40] = "";
	struct results_file each;

	if (file != NULL)
		return results_file_load(file, f, e);
	memset(f, 0, sizeof *f);
	while (results_next_file(path, NULL, path, sizeof path, e) == 0) {
		if (results_file_load(path, &each, e) != 0)
			continue;
		if (strcmp(each.date, newest) > 0) {
			snprintf(newest, sizeof newest, "%s", each.date);
			results_file_free(f);
			*f = each;
		} else {
			results_file_free(&each);
		}
	}
	if (newest[0] == '\0') {
		if (e->msg[0] == '\0')
			error_set(e, "%s", _("no recorded results in data/results"));
		return -1;
	}
	return 0;
}

static int roofs_exec(struct cmd_ctx *c)
{
	struct results_file f = { 0 };
	struct gpu_roofs r;
	struct gpu_desc g;
	struct gpu_clocks clocks;
	struct error e, note, fp32_error = { "" }, tensor_error = { "" };

	if (c->argc > 0) {
		cmd_fail(_("roofs takes no argument '%s'"), c->argv[0]);
		return EXIT_USAGE;
	}
	if (c->given[OPT_RECORDED] && c->output != NULL) {
		cmd_fail("%s", _("--output writes the roofs measured here into a file: it takes no --recorded"));
		return EXIT_USAGE;
	}
	if (session_live(c->given[OPT_RECORDED], &note)) {
		/* measured afresh: the cache is for runs, this command is asked for the figures */
		if (session_roofs(true, &r, &fp32_error, &tensor_error, &e) != 0) {
			cmd_fail("%s", e.msg);
			return EXIT_FAILURE;
		}
		if (fp32_error.msg[0] != '\0')
			cmd_fail(_("the FP32 ceiling did not run: %s"), fp32_error.msg);
		if (tensor_error.msg[0] != '\0')
			cmd_fail(_("the tensor ceiling did not run: %s"), tensor_error.msg);
		session_gpu_desc(&g);
		session_clocks(&clocks);
		if (c->output != NULL) {
			if (results_file_set_roofs(c->output, &g, &r, &e) != 0) {
				cmd_fail("%s", e.msg);
				return EXIT_FAILURE;
			}
			fprintf(stderr, _("wrote the roofs of %s into %s\n"), g.name, c->output);
		}
		cli_print_roofs(stdout, &g, &r, NULL, &clocks, c->format);
		return 0;
	}
	if (c->output != NULL) {
		cmd_fail(_("roofs --output needs a GPU: %s"), note.msg);
		return EXIT_FAILURE;
	}
	if (recorded_file(c->recorded_file, &f, &e) != 0) {
		cmd_fail("%s", e.msg);
		return EXIT_FAILURE;
	}
	if (note.msg[0] != '\0')
		cmd_fail(_("%s: showing the roofs recorded on %s on %.10s (not live numbers)"), note.msg,
		    f.gpu.name, f.date);
	cli_print_roofs(stdout, &f.gpu, &f.roofs, &f, NULL, c->format);
	results_file_free(&f);
	return 0;
}

const struct command cmd_roofs_entry = {
	.name = "roofs",
	.summary = N_("measure how fast this GPU's memory, FP32 arithmetic and BF16\n"
	    "tensor cores can go at all, beside what its clocks allow; with\n"
	    "--output, write them into a recorded file of this GPU; without a\n"
	    "GPU, or with --recorded, show the roofs recorded on one"),
	.options = (const enum cmd_opt[]){ OPT_FORMAT, OPT_RECORDED, OPT_OUTPUT, OPT_END },
	.formats = FORMATS_TEXT_JSON,
	.exec = roofs_exec,
};

/* metrics: the hardware counters of each step, live or recorded, and what each one means. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli/cli_metrics.h"
#include "cmd/cmd.h"
#include "i18n.h"
#include "session.h"

static int metrics_explain(struct cmd_ctx *c)
{
	enum cli_explain_format f = EXPLAIN_TEXT;

	if (strcmp(c->format_name, "json") == 0)
		f = EXPLAIN_JSON;
	else if (strcmp(c->format_name, "markdown") == 0)
		f = EXPLAIN_MARKDOWN;
	if (c->argc > 0) {
		cmd_fail(_("metrics --explain takes no lesson; '%s' is extra"), c->argv[0]);
		return EXIT_USAGE;
	}
	cli_metrics_explain(stdout, f);
	return 0;
}

static int metrics_exec(struct cmd_ctx *c)
{
	unsigned long long step = 0, size = c->size;
	unsigned int block = c->block;
	struct lesson_set set = { 0 };
	struct run_report r = { 0 };
	const struct lesson *l;
	struct lesson one;
	struct cmd_counters_progress p = { NULL, false };
	struct session_hooks hooks = { cmd_counters_begin, cmd_counters_done, &p };
	struct error note, e;
	int rc = EXIT_FAILURE, show, source;

	if (c->given[OPT_EXPLAIN])
		return metrics_explain(c);
	if (c->argc < 1) {
		cmd_fail(_("metrics needs a lesson: cudatutor metrics LESSON [STEP] (see cudatutor list)"));
		return EXIT_USAGE;
	}
	if (c->argc > 1 && (parse_count(c->argv[1], &step) != 0 || step == 0)) {
		cmd_fail(_("'%s' is not a step number (1, 2, ...)"), c->argv[1]);
		return EXIT_USAGE;
	}
	if (c->argc > 2) {
		cmd_fail(_("metrics takes a lesson and a step; '%s' is extra"), c->argv[2]);
		return EXIT_USAGE;
	}
	if ((l = cmd_open_lesson(c->lang, c->argv[0], step, &set)) == NULL)
		goto out;
	if (size == 0)
		size = session_default_size(l);
	if (block == 0)
		block = session_default_block(l);
	p.lesson = cmd_one_step(l, step, &one);	/* the steps read live */
	source = session_counters(&r, l, (int)step, size, block, c->given[OPT_RECORDED],
	    c->recorded_file, &hooks, &note, &e);
	if (source < 0) {
		cmd_fail("%s", e.msg);
		goto out;
	}
	if (source == SESSION_NO_GPU)
		cmd_fail(_("%s: showing counters recorded on %s on %.10s (not live numbers)"),
		    note.msg, r.gpu.name, r.recorded_date);
	else if (source == SESSION_NO_COUNTERS)
		cmd_fail(_("%s; showing counters recorded on %s on %.10s (not live numbers)"),
		    note.msg, r.gpu.name, r.recorded_date);
	/*
	 * A recorded report holds every step it was recorded with, found by
	 * kernel (a step added since shifts the numbers); a live one the step read.
	 */
	show = step == 0 ? -1 : 0;
	if (step != 0 && r.recorded) {
		const struct step_result *at = results_step_of(&r, l->steps[step - 1].kernel->name);

		if (at == NULL) {
			cmd_fail(_("the recorded run of '%s' has no step %d (%s), added since: record it again"),
			    l->id, (int)step, l->steps[step - 1].kernel->name);
			goto out;
		}
		show = (int)(at - r.steps);
		r.steps[show].step = (int)step;	/* numbered as the lesson is now */
	}
	cli_metrics_print(stdout, &r, l, show, c->format);
	rc = 0;
	/* Live: a step of ours whose counters could not be read is a failure to report. */
	for (int i = 0; i < r.nsteps && !r.recorded; i++)
		if (!r.steps[i].metrics.collected && !r.steps[i].library)
			rc = EXIT_FAILURE;
out:
	run_report_free(&r);
	lesson_set_free(&set);
	return rc;
}

const struct command cmd_metrics_entry = {
	.name = "metrics",
	.args = "LESSON [STEP]",
	.summary = N_("hardware counters of each step (DRAM throughput, load efficiency,\n"
	    "bank conflicts, occupancy, stalls), read by Nsight Compute's ncu;\n"
	    "without a GPU, those recorded on one; --explain: what each means"),
	.options = (const enum cmd_opt[]){ OPT_SIZE, OPT_BLOCK, OPT_FORMAT, OPT_RECORDED, OPT_LANG,
	    OPT_EXPLAIN, OPT_END },
	.formats = FORMATS_TEXT_JSON,
	.mode = OPT_EXPLAIN,
	.mode_formats = FORMATS_TEXT_JSON_MARKDOWN,
	.exec = metrics_exec,
};

/* run: every step of a lesson on this GPU, or the results recorded on one. */
#include "config.h"

#include <stdlib.h>

#include "cmd/cmd.h"
#include "i18n.h"
#include "session.h"

/* The exit status of a live run: a step that did not run, or gave a wrong answer, fails it. */
static int run_status(const struct run_report *r)
{
	int rc = 0;

	for (int i = 0; i < r->nsteps; i++)
		if (!r->recorded && (!r->steps[i].ran || (!r->steps[i].correct && !r->steps[i].wrong_by_design)))
			rc = r->steps[i].ran ? EXIT_WRONG : EXIT_FAILURE;
	return rc;
}

static int run_exec(struct cmd_ctx *c)
{
	unsigned long long size = c->size;
	unsigned int block = c->block;
	struct lesson_set set = { 0 };
	struct run_report r = { 0 };
	struct cmd_run_progress p;
	struct measure_options o;
	const struct lesson *l;
	struct lesson one;
	struct error note, e;
	int rc = EXIT_FAILURE, source;

	if (c->argc < 1) {
		cmd_fail(_("run needs a lesson: cudatutor run LESSON (see cudatutor list)"));
		return EXIT_USAGE;
	}
	if (c->argc > 1) {
		cmd_fail(_("run takes one lesson; '%s' is extra"), c->argv[1]);
		return EXIT_USAGE;
	}
	if ((l = cmd_open_lesson(c->lang, c->argv[0], c->step, &set)) == NULL)
		goto out;
	l = cmd_one_step(l, c->step, &one);
	if (size == 0)
		size = session_default_size(l);
	if (block == 0)
		block = session_default_block(l);
	cmd_run_progress(&p, l, (int)c->runs, &o);
	source = session_results(&r, l, size, block, c->given[OPT_RECORDED], c->recorded_file, &o,
	    &p.hooks, &note, &e);
	cmd_run_progress_end(&p);
	if (source < 0) {
		cmd_fail("%s", e.msg);
		goto out;
	}
	/* No GPU: say so once, with what is shown instead. */
	if (source == SESSION_NO_GPU)
		cmd_fail(_("%s: showing results recorded on %s on %.10s (not live numbers)"),
		    note.msg, r.gpu.name, r.recorded_date);
	if (c->step > 0 && !r.recorded)
		r.steps[0].step = (int)c->step;
	if (c->compare_file != NULL) {
		struct run_report other = { 0 };

		if (session_recorded(c->compare_file, l, r.size, r.block, &other, &e) != 0) {
			cmd_fail("%s", e.msg);
			goto out;
		}
		cli_print_comparison(stdout, &r, &other, l, c->format);
		run_report_free(&other);
	} else {
		cli_print_report(stdout, &r, l, c->format);
	}
	rc = run_status(&r);
out:
	run_report_free(&r);
	lesson_set_free(&set);
	return rc;
}

const struct command cmd_run_entry = {
	.name = "run",
	.args = "LESSON",
	.summary = N_("run every step of a lesson on this GPU and print the results;\n"
	    "without a GPU, or with --recorded, show results recorded on one"),
	.options = (const enum cmd_opt[]){ OPT_STEP, OPT_SIZE, OPT_BLOCK, OPT_FORMAT, OPT_RECORDED,
	    OPT_COMPARE, OPT_RUNS, OPT_LANG, OPT_END },
	.formats = FORMATS_TEXT_JSON_CSV,
	.exec = run_exec,
};

/* run: every step of a lesson on this GPU, or the results recorded on one. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

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

/*
 * One lesson into r, live or recorded; the GPU-less note once (*noted).
 * The exit status of its run; -1 when there is nothing to show.
 */
static int run_lesson(const struct cmd_ctx *c, const struct lesson *l, struct run_report *r,
    bool *noted)
{
	unsigned long long size = c->size;
	unsigned int block = c->block;
	struct cmd_run_progress p;
	struct measure_options o;
	struct error note, e;
	int source;

	if (size == 0)
		size = session_default_size(l);
	if (block == 0)
		block = session_default_block(l);
	cmd_run_progress(&p, l, (int)c->runs, &o);
	source = session_results(r, l, size, block, c->given[OPT_RECORDED], c->recorded_file, &o,
	    &p.hooks, &note, &e);
	cmd_run_progress_end(&p);
	if (source < 0) {
		cmd_fail("%s", e.msg);
		return -1;
	}
	/* No GPU: say so once, with what is shown instead. */
	if (source == SESSION_NO_GPU && !*noted) {
		cmd_fail(_("%s: showing results recorded on %s on %.10s (not live numbers)"),
		    note.msg, r->gpu.name, r->recorded_date);
		*noted = true;
	}
	if (c->step > 0 && !r->recorded)
		r->steps[0].step = (int)c->step;
	return run_status(r);
}

static int run_exec(struct cmd_ctx *c)
{
	struct lesson_set set = { 0 };
	struct run_report *r = NULL;
	const struct lesson **shown = NULL;
	struct lesson one;
	struct error e;
	bool noted = false;
	int rc = 0, n = 0;

	if (c->argc < 1) {
		cmd_fail(_("run needs a lesson: cudatutor run LESSON (see cudatutor list)"));
		return EXIT_USAGE;
	}
	if (c->argc > 1 && (c->step > 0 || c->compare_file != NULL)) {
		cmd_fail(_("--step and --compare take one lesson; '%s' is extra"), c->argv[1]);
		return EXIT_USAGE;
	}
	if (cmd_load_lessons(c->lang, &set) != 0)
		return EXIT_FAILURE;
	r = xcalloc((size_t)c->argc, sizeof *r);
	shown = xcalloc((size_t)c->argc, sizeof *shown);
	/* Several lessons share one worker process: CUDA starts once. */
	if (c->argc > 1)
		session_keep_worker(true);
	for (int i = 0; i < c->argc; i++) {
		const struct lesson *l = cmd_find_lesson(&set, c->argv[i], c->step);
		int st;

		if (l == NULL) {
			rc = EXIT_FAILURE;
			continue;
		}
		l = cmd_one_step(l, c->step, &one);
		st = run_lesson(c, l, &r[n], &noted);
		if (st < 0) {
			run_report_free(&r[n]);
			memset(&r[n], 0, sizeof r[n]);
			rc = EXIT_FAILURE;
			continue;
		}
		if (rc == 0)
			rc = st;
		shown[n++] = l;
	}
	session_keep_worker(false);
	if (n == 1 && c->compare_file != NULL) {
		struct run_report other = { 0 };

		if (session_recorded(c->compare_file, shown[0], r[0].size, r[0].block, &other, &e) != 0) {
			cmd_fail("%s", e.msg);
			rc = EXIT_FAILURE;
		} else {
			cli_print_comparison(stdout, &r[0], &other, shown[0], c->format);
		}
		run_report_free(&other);
	} else if (n > 0) {
		cli_print_reports(stdout, r, shown, n, c->format);
	}
	for (int i = 0; i < n; i++)
		run_report_free(&r[i]);
	free(r);
	free(shown);
	lesson_set_free(&set);
	return rc;
}

const struct command cmd_run_entry = {
	.name = "run",
	.args = "LESSON...",
	.summary = N_("run every step of a lesson (or of several) on this GPU and print\n"
	    "the results; without a GPU, or with --recorded, show results recorded\n"
	    "on one"),
	.options = (const enum cmd_opt[]){ OPT_STEP, OPT_SIZE, OPT_BLOCK, OPT_FORMAT, OPT_RECORDED,
	    OPT_COMPARE, OPT_RUNS, OPT_LANG, OPT_END },
	.formats = FORMATS_TEXT_JSON_CSV,
	.exec = run_exec,
};

/* sweep: steps of a lesson timed at each of several sizes (or blocks), drawn as a chart, recorded. */
#include "config.h"

#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_sweep.h"
#include "cmd/cmd.h"
#include "i18n.h"
#include "session.h"
#include "sweep.h"

/* Box drawing where the terminal speaks UTF-8, as roofline decides. */
static bool unicode_terminal(void)
{
	const char *ascii = getenv("CUDATUTOR_ASCII");

	return strcmp(nl_langinfo(CODESET), "UTF-8") == 0 && (ascii == NULL || ascii[0] == '\0');
}

/* The steps named after the lesson (0-based into steps), else every step: how many, or -1 after one line. */
static int chosen_steps(const struct cmd_ctx *c, const struct lesson *l, int *steps)
{
	int n = 0;

	for (int a = 1; a < c->argc; a++) {
		unsigned long long k;

		if (parse_count(c->argv[a], &k) != 0 || k == 0 || k > (unsigned long long)l->nsteps) {
			cmd_fail(_("'%s' is not a step of lesson '%s' (1 to %d)"), c->argv[a], l->id, l->nsteps);
			return -1;
		}
		steps[n++] = (int)k - 1;
	}
	for (int i = 0; n == 0 && i < l->nsteps; i++)
		steps[i] = i;
	return c->argc > 1 ? n : l->nsteps;
}

static void progress(void *ctx, int vi, int n, unsigned long long value, int step)
{
	const struct lesson *l = ctx;

	if (!isatty(STDERR_FILENO))
		return;
	fputs("\r\033[K", stderr);
	fprintf(stderr, _("sweep %s: %d of %d (%llu), step %d"), l->id, vi + 1, n, value, step + 1);
	fflush(stderr);
}

/* Live: run the sweep, and with --record write it; 0, or an exit status. */
static int sweep_live(struct cmd_ctx *c, const struct lesson *l, const int *steps, int nsteps,
    enum sweep_over over, struct sweep *s)
{
	unsigned long long *values = over == SWEEP_SIZE ? c->sizes : c->blocks, *made = NULL;
	int nvalues = over == SWEEP_SIZE ? c->nsizes : c->nblocks, rc = 0;
	struct sweep_hooks h = { progress, (void *)l };
	struct measure_options o;
	struct error e;

	if (values == NULL)
		nvalues = over == SWEEP_SIZE ? sweep_default_sizes(l, &made) : sweep_default_blocks(&made);
	sweep_measure_options(&o);
	if (sweep_run(l, steps, nsteps, over, values != NULL ? values : made, nvalues,
	    c->size ? c->size : session_default_size(l), c->block ? c->block : session_default_block(l), &o, &h,
	    s, &e) != 0) {
		cmd_fail("%s", e.msg);
		rc = EXIT_FAILURE;
	}
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K");
	free(made);
	if (rc == 0 && c->given[OPT_RECORD]) {
		char *path = c->output ? xstrdup(c->output) : session_recorded_file_of(&s->gpu);

		if (sweep_record(path, s, &e) != 0) {
			cmd_fail("%s", e.msg);
			rc = EXIT_FAILURE;
		} else {
			fprintf(stderr, _("wrote the %s sweep of %s on %s to %s\n"), sweep_over_text(over), l->id,
			    s->gpu.name, path);
		}
		free(path);
	}
	return rc;
}

/* The value a point is at: its size, or its block. */
static unsigned long long point_at(const struct sweep_point *p, enum sweep_over over)
{
	return over == SWEEP_SIZE ? p->size : p->block;
}

/*
 * A recorded sweep cut to the sizes (or blocks) asked for: each asked
 * for must be recorded, else one line says what the recording covers;
 * 0, or an exit status.
 */
static int keep_asked(const struct cmd_ctx *c, const struct lesson *l, enum sweep_over over, struct sweep *s)
{
	const unsigned long long *asked = over == SWEEP_SIZE ? c->sizes : c->blocks;
	int nasked = over == SWEEP_SIZE ? c->nsizes : c->nblocks;

	if (nasked <= 0)
		return 0;
	for (int a = 0; a < nasked; a++) {
		bool have = false;

		for (int i = 0; i < s->nsteps && !have; i++)
			for (int k = 0; k < s->steps[i].npoints && !have; k++)
				have = point_at(&s->steps[i].points[k], over) == asked[a];
		if (!have) {
			struct strbuf covers = { 0 };
			unsigned long long last = 0;

			for (int k = 0; s->nsteps > 0 && k < s->steps[0].npoints; k++) {
				char num[32];
				unsigned long long v = point_at(&s->steps[0].points[k], over);

				if (v == last)
					continue;
				snprintf(num, sizeof num, "%s%llu", covers.len ? " " : "", v);
				strbuf_add(&covers, num, strlen(num));
				last = v;
			}
			cmd_fail(_("the recorded sweep of '%s' has no point at %s %llu: it covers %s (a GPU sweeps any)"),
			    l->id, sweep_over_text(over), asked[a], covers.len ? covers.s : _("none"));
			strbuf_free(&covers);
			return EXIT_FAILURE;
		}
	}
	for (int i = 0; i < s->nsteps; i++) {
		struct sweep_step *st = &s->steps[i];
		int n = 0;

		for (int k = 0; k < st->npoints; k++)
			for (int a = 0; a < nasked; a++)
				if (point_at(&st->points[k], over) == asked[a]) {
					st->points[n++] = st->points[k];
					break;
				}
		st->npoints = n;
	}
	return 0;
}

/* Recorded: the sweep, and which of its steps were asked for; 0, or an exit status. */
static int sweep_recorded(struct cmd_ctx *c, const struct lesson *l, const int *steps, int nsteps,
    enum sweep_over over, struct sweep *s, bool **show)
{
	struct error e;
	int rc;

	if (sweep_find_recorded(c->recorded_file, l->id, over, s, &e) != 0) {
		cmd_fail("%s", e.msg);
		return EXIT_FAILURE;
	}
	/* --sizes or --blocks: the points asked for, where a GPU would run them */
	if ((rc = keep_asked(c, l, over, s)) != 0)
		return rc;
	*show = xcalloc((size_t)s->nsteps + 1, sizeof **show);
	for (int j = 0; j < nsteps; j++) {
		bool found = false;

		for (int i = 0; i < s->nsteps; i++)
			if (s->steps[i].step == steps[j] + 1)
				found = (*show)[i] = true;
		if (!found && c->argc > 1) {
			cmd_fail(_("the recorded sweep of '%s' has no step %d"), l->id, steps[j] + 1);
			return EXIT_FAILURE;
		}
	}
	return 0;
}

static int sweep_exec(struct cmd_ctx *c)
{
	struct lesson_set set = { 0 };
	struct sweep s = { 0 };
	const struct lesson *l;
	enum sweep_over over = c->given[OPT_BLOCKS] ? SWEEP_BLOCK : SWEEP_SIZE;
	struct error note;
	bool *show = NULL;
	int *steps = NULL, nsteps, rc;

	if (c->argc == 0) {
		cmd_fail(_("sweep needs a lesson: cudatutor sweep LESSON [STEP...] (see cudatutor list)"));
		return EXIT_USAGE;
	}
	if (c->given[OPT_SIZES] && c->given[OPT_BLOCKS]) {
		cmd_fail(_("sweep: give --sizes or --blocks, not both"));
		return EXIT_USAGE;
	}
	if (cmd_load_lessons(c->lang, &set) != 0)
		return EXIT_FAILURE;
	if ((l = cmd_find_lesson(&set, c->argv[0], 0)) == NULL) {
		lesson_set_free(&set);
		return EXIT_FAILURE;
	}
	steps = xcalloc((size_t)l->nsteps + (size_t)c->argc + 1, sizeof *steps);
	if ((nsteps = chosen_steps(c, l, steps)) < 0) {
		rc = EXIT_USAGE;
	} else if (session_live(c->given[OPT_RECORDED], &note)) {
		rc = sweep_live(c, l, steps, nsteps, over, &s);
	} else if (c->given[OPT_RECORD]) {
		cmd_fail(_("sweep --record needs a GPU: %s"), note.msg[0] != '\0' ? note.msg : _("--recorded was given"));
		rc = EXIT_FAILURE;
	} else {
		rc = sweep_recorded(c, l, steps, nsteps, over, &s, &show);
		if (rc == 0 && note.msg[0] != '\0')
			cmd_fail(_("%s: showing the sweep recorded on %s on %.10s (not live numbers)"), note.msg,
			    s.gpu.name, s.date);
	}
	if (rc == 0)
		cli_print_sweep(stdout, &s, show, c->width ? (int)c->width : cli_output_width(), unicode_terminal(),
		    c->format);
	free(show);
	free(steps);
	sweep_free(&s);
	lesson_set_free(&set);
	return rc;
}

const struct command cmd_sweep_entry = {
	.name = "sweep",
	.args = "LESSON [STEP...]",
	.summary = N_("time steps of a lesson (default: all) at each of several sizes,\n"
	    "or blocks, and draw the rate against them: where a kernel is\n"
	    "launch-bound, where its data fits in L2, where DRAM holds it;\n"
	    "live on this GPU, else as recorded (--record: keep it)"),
	.options = (const enum cmd_opt[]){ OPT_SIZES, OPT_BLOCKS, OPT_SIZE, OPT_BLOCK, OPT_RECORDED, OPT_RECORD,
	    OPT_OUTPUT, OPT_FORMAT, OPT_WIDTH, OPT_LANG, OPT_END },
	.formats = FORMATS_TEXT_JSON,
	.min_width = 40,
	.exec = sweep_exec,
};

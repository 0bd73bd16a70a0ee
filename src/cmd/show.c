/* show: a kernel's source, PTX, SASS, resources, instruction mix or occupancy. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "i18n.h"
#include "inspect.h"
#include "lesson.h"
#include "metrics.h"
#include "results.h"
#include "sass.h"
#include "session.h"
#include "tui/layout.h"

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
	cli_print_stats(stdout, t->symbol, arch, &m, sass_load_bytes_in_flight(&l),
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

/* A share of 100% as a bar of width cells (layout_bar's), padded to width. */
static void stall_bar(double pct, int width, char *buf, size_t len)
{
	int cols = layout_bar(pct, 100.0, width, 1, buf, len);
	size_t o = strlen(buf);

	for (; cols < width && o + 1 < len; cols++)
		buf[o++] = ' ', buf[o] = '\0';
}

/* The recorded step whose kernel is t's, with its samples: the lesson that has it, the run, the step. */
static const struct step_result *stalls_step(const struct cmd_ctx *c, const struct inspect_target *t,
    struct lesson_set *set, struct run_report *r, struct error *e)
{
	for (int j = 0; j < set->count; j++) {
		const struct lesson *l = &set->lessons[j];
		bool has = false;

		for (int i = 0; i < l->nsteps && !has; i++)
			has = l->steps[i].kernel == t->kernel;
		if (!has || l->error != NULL)
			continue;
		/* the file named, else each recorded file in turn until one has samples */
		for (char path[4096] = ""; c->recorded_file != NULL || results_next_file(path, NULL, path,
		    sizeof path, e) == 0;) {
			struct error why;

			if (session_recorded_counters(c->recorded_file ? c->recorded_file : path, l, 0, 0, r,
			    &why) == 0) {
				for (int i = 0; i < r->nsteps; i++)
					if (strcmp(r->steps[i].kernel, t->kernel->name) == 0 &&
					    r->steps[i].metrics.stalls.have)
						return &r->steps[i];
				run_report_free(r);
			} else if (c->recorded_file != NULL) {
				*e = why;
				return NULL;
			}
			if (c->recorded_file != NULL)
				break;
		}
		error_set(e, _("no warp-state samples were recorded for %s in lesson '%s' (%s): record them with cudatutor record --lessons %s --stalls on a GPU"),
		    t->kernel->name, l->id, c->recorded_file ? c->recorded_file : _("no recorded file has them"), l->id);
		return NULL;
	}
	error_set(e, _("%s is the kernel of no lesson: samples are recorded for the lessons' steps"), t->kernel->name);
	return NULL;
}

/*
 * --sass --stalls: the SASS with each line's share of the warps' samples
 * beside it (recorded), then the lines where they wait most, each with
 * what it waits for.
 */
static int show_stalls(struct cmd_ctx *c, const struct inspect_target *t, const char *arch)
{
	struct lesson_set set = { 0 };
	struct run_report r;
	const struct step_result *step;
	const struct stall_profile *p;
	struct sass_listing l;
	struct error e;
	char *text;
	int differ = 0;

	if (c->format == FORMAT_CSV) {
		cmd_fail("%s", _("--stalls prints text or JSON, not CSV"));
		return EXIT_USAGE;
	}
	if (cmd_load_lessons(c->lang, &set) != 0)
		return EXIT_FAILURE;
	if ((step = stalls_step(c, t, &set, &r, &e)) == NULL) {
		cmd_fail("%s", e.msg);
		lesson_set_free(&set);
		return EXIT_FAILURE;
	}
	p = &step->metrics.stalls;
	if ((text = inspect_sass(t, arch, &e)) == NULL) {
		cmd_fail("%s", e.msg);
		run_report_free(&r);
		lesson_set_free(&set);
		return EXIT_FAILURE;
	}
	sass_parse(text, &l);
	if (c->format == FORMAT_JSON) {
		json_t *lines = json_array();

		for (int k = 0; k < p->nlines; k++) {
			const struct stall_line *x = &p->lines[k];
			json_t *reasons = json_object();
			char meaning[256];

			metrics_stall_explain(x, &l, meaning, sizeof meaning);
			for (int q = 0; q < x->nreasons; q++)
				json_object_set_new(reasons, x->reasons[q].name, json_integer(x->reasons[q].samples));
			json_array_append_new(lines, json_pack("{s:I, s:s, s:i, s:f, s:o, s:s?}", "offset",
			    (json_int_t)x->offset, "sass", x->sass, "samples", x->samples, "pct",
			    metrics_stall_pct(p, x), "reasons", reasons, "waits_for", meaning[0] ? meaning : NULL));
		}
		json_t *j = json_pack("{s:s, s:s, s:i, s:s, s:s, s:I, s:o}", "kernel", t->kernel->name,
		    "lesson", r.lesson, "step", step->step, "gpu", r.gpu.name, "recorded", p->date[0] ? p->date : r.recorded_date,
		    "samples", (json_int_t)p->samples, "lines", lines);

		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
		fputc('\n', stdout);
		json_decref(j);
	} else {
		printf(_("%s (%s): where its warps wait, line by line: %lld warp-state samples that Nsight Compute took on %s (%s), step %d of %s\n\n"),
		    t->kernel->name, arch, p->samples, r.gpu.name, p->date[0] ? p->date : r.recorded_date, step->step,
		    r.lesson);
		for (int i = 0; i < l.count; i++) {
			const struct sass_insn *in = &l.insns[i];
			const struct stall_line *x = NULL;
			char insn[160], bar[64];

			for (int k = 0; k < p->nlines && x == NULL; k++)
				if (p->lines[k].offset == in->addr)
					x = &p->lines[k];
			sass_insn_text(in, insn, sizeof insn);
			if (x == NULL) {
				printf("%17s  /*%04x*/ %s\n", "", in->addr, insn);
				continue;
			}
			/* the line recorded must be this one: a build that differs moves every offset */
			differ += strstr(x->sass, in->opcode) == NULL;
			stall_bar(metrics_stall_pct(p, x), 8, bar, sizeof bar);
			printf("%6.1f%% %s  /*%04x*/ %s   <- %s\n", metrics_stall_pct(p, x), bar, in->addr, insn,
			    x->nreasons > 0 ? x->reasons[0].name : "");
		}
		printf("\n%s\n", _("Where the warps wait most (ncu's reason, and what the instruction waits for):"));
		for (int k = 0; k < p->nlines && k < 3; k++) {
			const struct stall_line *x = &p->lines[k];
			char meaning[256];

			metrics_stall_explain(x, &l, meaning, sizeof meaning);
			printf(_("  %5.1f%%  /*%04x*/ %s: %s %.0f%%"), metrics_stall_pct(p, x), x->offset, x->sass,
			    x->nreasons > 0 ? x->reasons[0].name : "?",
			    x->nreasons > 0 && x->samples > 0 ? 100.0 * x->reasons[0].samples / x->samples : 0);
			if (meaning[0] != '\0')
				printf(_("; it waits for %s"), meaning);
			printf("\n");
		}
		if (differ > 0)
			printf(_("\nThe SASS here is not the one recorded at %d of the lines sampled (another build or compiler): the samples are placed by offset, and ncu's text above is the recorded one.\n"),
			    differ);
	}
	sass_listing_free(&l);
	free(text);
	run_report_free(&r);
	lesson_set_free(&set);
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
	if (c->given[OPT_STALLS]) {
		if (view != OPT_SASS) {
			cmd_fail("%s", _("--stalls goes with --sass: the samples belong to SASS lines"));
			return EXIT_USAGE;
		}
		return show_stalls(c, &t, arch);
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
	    OPT_OCCUPANCY, OPT_STALLS, OPT_RECORDED, OPT_ARCH, OPT_LINES, OPT_LINE, OPT_BLOCK, OPT_FORMAT,
	    OPT_LANG, OPT_END },
	.formats = FORMATS_TEXT_JSON_CSV,
	.exec = show_exec,
};

/* The batch view of hardware counters: per lesson, per step, and what each one means. */
#include "config.h"

#include <string.h>

#include <jansson.h>

#include "cli_metrics.h"
#include "diagnosis.h"
#include "i18n.h"
#include "metrics.h"
#include "textwrap.h"

#define STALL_PREFIX "smsp__warp_issue_stalled_"
#define STALL_SUFFIX "_per_warp_active.pct"

/* "barrier" from smsp__warp_issue_stalled_barrier_per_warp_active.pct; the name otherwise. */
static const char *cli_metrics_stall_name(const char *ncu, char *buf, size_t len)
{
	size_t np = strlen(STALL_PREFIX), ns = strlen(STALL_SUFFIX), n = strlen(ncu);

	if (n > np + ns && strncmp(ncu, STALL_PREFIX, np) == 0 && strcmp(ncu + n - ns, STALL_SUFFIX) == 0)
		snprintf(buf, len, "%.*s", (int)(n - np - ns), ncu + np);
	else
		snprintf(buf, len, "%s", ncu);
	return buf;
}

/* Why a step has no counters, for people. */
static const char *no_counters(const struct step_result *s)
{
	if (s->metrics.note[0] != '\0')
		return s->metrics.note;
	if (s->library)
		return _("counters are read for the tutor's own kernels, not for library calls");
	return _("no counters for this step");
}

static void print_json(FILE *out, json_t *j)
{
	json_dumpf(j, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
	fputc('\n', out);
	json_decref(j);
}

/* ---- text ------------------------------------------------------------------ */

static void print_header(FILE *out, const struct run_report *r, const struct lesson *l, int step)
{
	char count[32];
	const char *tool = NULL;

	for (int i = 0; i < r->nsteps && tool == NULL; i++)
		if (r->steps[i].metrics.collected && r->steps[i].metrics.tool[0] != '\0')
			tool = r->steps[i].metrics.tool;
	if (step >= 0)
		fprintf(out, _("%s step %d: %s\n"), r->lesson, r->steps[step].step, r->steps[step].title);
	else
		fprintf(out, "%s%s%s\n", r->lesson, l && l->title ? ": " : "", l && l->title ? l->title : "");
	fprintf(out, _("GPU       %s (%s, driver %s)\n"), r->gpu.name, r->gpu.arch, r->gpu.driver);
	if (r->recorded)
		fprintf(out, _("RECORDED on %s, read from %s: these are not live numbers\n"),
		    r->recorded_date, r->recorded_file);
	if (step >= 0)
		fprintf(out, _("counters  %s: one launch of the step, replayed with the caches flushed\n"),
		    tool ? tool : "Nsight Compute");
	else
		fprintf(out, _("counters  %s: one launch of each step, replayed with the caches flushed\n"),
		    tool ? tool : "Nsight Compute");
	if (results_block_per_kernel(r))
		fprintf(out, _("size      %s elements, each kernel with its own block\n"),
		    cli_count(r->size, count, sizeof count));
	else
		fprintf(out, _("size      %s elements, block %u\n"), cli_count(r->size, count, sizeof count), r->block);
}

static int column_width(const struct metric_def *d)
{
	int w = d->unit == MU_PERCENT ? 6 : d->unit == MU_RATIO ? 5 : 7;
	int h = (int)strlen(d->column);

	return h > w ? h : w;
}

/* A value short enough for a column: no unit (the legend has it), counts as 16.8M. */
static const char *column_value(const struct step_metrics *m, int i, char *buf, size_t len)
{
	const struct metric_def *d = &metrics_table[i];
	double v;

	if (metrics_value(m, i, &v) != 0)
		return "n/a";
	switch (d->unit) {
	case MU_BYTES_PER_SECOND:
		snprintf(buf, len, "%.1f", v / 1e9);
		break;
	case MU_PERCENT:
		snprintf(buf, len, "%.1f%%", v);
		break;
	case MU_COUNT:
	case MU_BYTES:
		if (v < 1e4)
			snprintf(buf, len, "%.0f", v);
		else if (v < 1e6)
			snprintf(buf, len, "%.1fK", v / 1e3);
		else if (v < 1e9)
			snprintf(buf, len, "%.1fM", v / 1e6);
		else
			snprintf(buf, len, "%.1fG", v / 1e9);
		break;
	default:
		metrics_format(d, v, buf, len);
		break;
	}
	return buf;
}

static void print_table(FILE *out, const struct run_report *r)
{
	char buf[64], name[64];

	fprintf(out, "\n %2s  %-*s", "#", textwrap_field(_("kernel"), 31), _("kernel"));
	for (int i = 0; i < metrics_count; i++)
		if (metrics_table[i].column != NULL)
			fprintf(out, " %*s", column_width(&metrics_table[i]), metrics_table[i].column);
	fprintf(out, "  %s\n", _("top stall"));
	for (int k = 0; k < r->nsteps; k++) {
		const struct step_result *s = &r->steps[k];
		int top;

		fprintf(out, " %2d  %-31.31s", s->step, s->kernel);
		if (!s->metrics.collected) {
			fprintf(out, " %s\n", no_counters(s));
			continue;
		}
		for (int i = 0; i < metrics_count; i++)
			if (metrics_table[i].column != NULL)
				fprintf(out, " %*s", column_width(&metrics_table[i]),
				    column_value(&s->metrics, i, buf, sizeof buf));
		if (metrics_top_stalls(&s->metrics, &top, 1) == 1) {
			double v;
			metrics_value(&s->metrics, top, &v);
			fprintf(out, "  %s %.0f%%\n",
			    cli_metrics_stall_name(metrics_table[top].ncu, name, sizeof name), v);
		} else {
			fputs("  n/a\n", out);
		}
	}
	fprintf(out, _("\ncolumns (Nsight Compute metric; K, M, G: thousands, millions, billions):\n"));
	for (int i = 0; i < metrics_count; i++) {
		const struct metric_def *d = &metrics_table[i];
		char src[256], label[160];
		if (d->column == NULL)
			continue;
		snprintf(label, sizeof label, "%s%s%s%s", _(d->label), *metrics_unit_name(d->unit) ? " (" : "",
		    metrics_unit_name(d->unit), *metrics_unit_name(d->unit) ? ")" : "");
		fprintf(out, "  %-9s %-*s %s\n", d->column, textwrap_field(label, 36), label,
		    metrics_source(d, src, sizeof src));
	}
	/* xgettext:no-c-format */
	const char *stall = _("largest stall reason (% of warp time)");
	fprintf(out, "  %-*s %-*s %s\n", textwrap_field(_("top stall"), 9), _("top stall"),
	    textwrap_field(stall, 36), stall, STALL_PREFIX "<reason>" STALL_SUFFIX);
	fprintf(out, _("\nCounter runs replay the kernel: their times are not the step's (see cudatutor run).\n"
	    "Every counter of one step: cudatutor metrics %s STEP; what each one means: cudatutor metrics --explain\n"),
	    r->lesson);
}

static void print_row(FILE *out, const struct step_metrics *m, int i)
{
	const struct metric_def *d = &metrics_table[i];
	char buf[64], src[256];
	double v;

	fprintf(out, "  %-*s %16s  %s\n", textwrap_field(_(d->label), 40), _(d->label),
	    metrics_value(m, i, &v) == 0 ? metrics_format(d, v, buf, sizeof buf) : "n/a",
	    metrics_source(d, src, sizeof src));
}

/* What could be gained (diagnosis_headroom): its sentences that have figures, one a line. */
static void print_headroom(FILE *out, const struct run_report *r, int i)
{
	struct headroom h;
	int n = 0;

	diagnosis_headroom(r, i, true, &h);
	for (int k = 0; k < HEADROOM_SAID; k++)
		if (h.said[k][0] != '\0') {
			if (n++ == 0)
				fprintf(out, "\n%s\n", _("What could be gained, from what was measured"));
			fprintf(out, "  %s\n", h.said[k]);
		}
}

static void print_step(FILE *out, const struct run_report *r, int i)
{
	const struct step_result *s = &r->steps[i];
	int shown[METRICS_MAX], n;

	fprintf(out, _("kernel    %s\n"), s->kernel);
	if (!s->metrics.collected) {
		fprintf(out, "\n%s\n", no_counters(s));
		return;
	}
	/* the units it keeps busy, busiest first: the one that binds, as ncu's speed of light names it */
	if (s->nbusy > 0) {
		fputs(_("busiest  "), out);
		for (int i = 0; i < s->nbusy; i++)
			fprintf(out, "%s%s %.1f%%", i ? ", " : " ", _(s->busy[i].name), s->busy[i].pct);
		fputc('\n', out);
	}
	print_headroom(out, r, i);
	for (int g = MG_DRAM; g <= MG_INST; g++) {
		fprintf(out, "\n%s\n", _(metrics_group_label((enum metric_group)g)));
		for (int i = 0; i < metrics_count; i++)
			if (metrics_table[i].group == (enum metric_group)g)
				print_row(out, &s->metrics, i);
		if (g == MG_GLOBAL && metrics_no_global_loads(&s->metrics))
			fprintf(out, "  %s\n", metrics_no_global_loads_note());
	}
	fprintf(out, "\n%s%s\n", _(metrics_group_label(MG_STALL)), _(", largest first"));
	n = metrics_stalls_shown(&s->metrics, 6, shown, METRICS_MAX);
	for (int j = 0; j < n; j++)
		print_row(out, &s->metrics, shown[j]);
	fprintf(out, _("\nOne launch replayed by the profiler: its times are not the step's (see cudatutor run).\n"
	    "All stall reasons: --format json; what each counter means: cudatutor metrics --explain\n"));
}

/* ---- JSON ------------------------------------------------------------------ */

static json_t *metric_json(const struct metric_def *d, const struct step_metrics *m, int i)
{
	char src[256];
	json_t *o = json_object();
	double v;

	json_object_set_new(o, "label", json_string(_(d->label)));
	json_object_set_new(o, "ncu", d->ncu ? json_string(d->ncu) : json_null());
	if (d->ncu == NULL)
		json_object_set_new(o, "formula", json_string(metrics_source(d, src, sizeof src)));
	json_object_set_new(o, "nvprof", d->nvprof ? json_string(d->nvprof) : json_null());
	json_object_set_new(o, "group", json_string(metrics_group_label(d->group)));
	json_object_set_new(o, "unit", json_string(metrics_unit_name(d->unit)));
	if (m != NULL) {
		if (metrics_value(m, i, &v) == 0)
			json_object_set_new(o, "value", json_real(d->unit == MU_BYTES_PER_SECOND ? v / 1e9 : v));
		else
			json_object_set_new(o, "value", json_null());
	}
	return o;
}

/* diagnosis_headroom's figures, null where unknown, and its sentences in English */
static json_t *headroom_json(const struct run_report *r, int i)
{
	struct headroom h;
	json_t *o = json_object();

	diagnosis_headroom(r, i, false, &h);
#define FIGURE(key, v) json_object_set_new(o, key, (v) > 0 ? json_real(v) : json_null())
	FIGURE("dram_moved_bytes", h.moved_bytes);
	FIGURE("ideal_bytes", h.ideal_bytes);
	json_object_set_new(o, "faster_step", h.faster_step > 0 ? json_integer(h.faster_step) : json_null());
	FIGURE("faster_times", h.faster_times);
	FIGURE("library_times", h.library_times);
	FIGURE("waves", h.waves_n);
	FIGURE("achieved_occupancy_pct", h.achieved_pct);
#undef FIGURE
	json_t *said = json_array();

	for (int k = 0; k < HEADROOM_SAID; k++)
		json_array_append_new(said, json_string(h.said[k]));
	json_object_set_new(o, "said", said);
	return o;
}

static json_t *step_json(const struct run_report *r, int i)
{
	const struct step_result *s = &r->steps[i];
	json_t *o = json_object();

	json_object_set_new(o, "step", json_integer(s->step));
	json_object_set_new(o, "title", json_string(s->title));
	json_object_set_new(o, "kernel", json_string(s->kernel));
	json_object_set_new(o, "library", json_boolean(s->library));
	if (s->metrics.collected) {
		json_t *list = json_array(), *stalls = json_array();
		int top[METRICS_MAX], n;
		char name[64];

		for (int i = 0; i < metrics_count; i++)
			json_array_append_new(list, metric_json(&metrics_table[i], &s->metrics, i));
		n = metrics_top_stalls(&s->metrics, top, METRICS_MAX);
		for (int j = 0; j < n; j++)
			json_array_append_new(stalls, json_string(cli_metrics_stall_name(metrics_table[top[j]].ncu,
			    name, sizeof name)));
		json_t *busy = json_array();

		for (int i = 0; i < s->nbusy; i++)
			json_array_append_new(busy, json_pack("{s:s, s:f}", "unit", s->busy[i].name, "pct", s->busy[i].pct));
		json_object_set_new(o, "busiest", busy);
		json_object_set_new(o, "headroom", headroom_json(r, i));
		json_object_set_new(o, "tool", json_string(s->metrics.tool));
		json_object_set_new(o, "metrics", list);
		json_object_set_new(o, "stalls_largest_first", stalls);
	} else {
		json_object_set_new(o, "metrics", json_null());
		json_object_set_new(o, "note", json_string(no_counters(s)));
	}
	return o;
}

void cli_metrics_print(FILE *out, const struct run_report *r, const struct lesson *l, int step,
    enum cli_format f)
{
	if (f == FORMAT_JSON) {
		json_t *o = results_report_json_head(r), *steps = json_array();

		json_object_set_new(o, "size", json_integer((json_int_t)r->size));
		json_object_set_new(o, "block", json_integer(r->block));
		json_object_set_new(o, "block_per_kernel", json_boolean(results_block_per_kernel(r)));
		for (int i = 0; i < r->nsteps; i++)
			if (step < 0 || i == step)
				json_array_append_new(steps, step_json(r, i));
		json_object_set_new(o, "steps", steps);
		print_json(out, o);
		return;
	}
	print_header(out, r, l, step);
	if (step < 0)
		print_table(out, r);
	else
		print_step(out, r, step);
}

/* ---- what each metric means ---------------------------------------------------- */

/* A Markdown table cell: pipes escaped, and underscores outside code ("__syncthreads"). */
void cli_metrics_progress(FILE *out, int i, int n, const char *kernel)
{
	fprintf(out, "\r\033[K  %s %d/%d  %s", _("counters"), i + 1, n, kernel);
}

static void md_cell(FILE *out, const char *s, int code)
{
	fputs(code ? " `" : " ", out);
	for (; *s; s++) {
		if (*s == '|' || (!code && *s == '_'))
			fputc('\\', out);
		fputc(*s, out);
	}
	fputs(code ? "` |" : " |", out);
}

void cli_metrics_explain(FILE *out, enum cli_explain_format f)
{
	char src[256];

	if (f == EXPLAIN_JSON) {
		json_t *list = json_array();
		for (int i = 0; i < metrics_count; i++) {
			json_t *o = metric_json(&metrics_table[i], NULL, i);
			json_object_set_new(o, "meaning", json_string(_(metrics_table[i].meaning)));
			json_array_append_new(list, o);
		}
		print_json(out, list);
		return;
	}
	if (f == EXPLAIN_MARKDOWN) {
		/* Written into doc/metrics.md; a test keeps the two the same.  Not translated. */
		for (int g = MG_DRAM; g <= MG_STALL; g++) {
			fprintf(out, "%s### %s\n\n", g == MG_DRAM ? "" : "\n",
			    metrics_group_label((enum metric_group)g));
			fputs("| shown as | Nsight Compute metric | nvprof (reference texts) | unit | what it says |\n"
			    "|---|---|---|---|---|\n", out);
			for (int i = 0; i < metrics_count; i++) {
				const struct metric_def *d = &metrics_table[i];
				if (d->group != (enum metric_group)g)
					continue;
				fputc('|', out);
				md_cell(out, d->label, 0);
				md_cell(out, metrics_source(d, src, sizeof src), 1);
				if (d->nvprof != NULL) {
					/* the name as code, a remark after it as text */
					size_t n = strcspn(d->nvprof, " ");
					fprintf(out, " `%.*s`%s |", (int)n, d->nvprof, d->nvprof + n);
				} else {
					md_cell(out, "-", 0);
				}
				md_cell(out, *metrics_unit_name(d->unit) ? metrics_unit_name(d->unit) : "-", 0);
				md_cell(out, d->meaning, 0);
				fputc('\n', out);
			}
		}
		return;
	}
	fprintf(out, _("The counters cudatutor shows for each step: what each says, the Nsight Compute\n"
	    "metric it reads (ncu --metrics NAME), and the nvprof metric the reference texts used.\n"));
	for (int g = MG_DRAM; g <= MG_STALL; g++) {
		fprintf(out, "\n%s\n", _(metrics_group_label((enum metric_group)g)));
		for (int i = 0; i < metrics_count; i++) {
			const struct metric_def *d = &metrics_table[i];
			const char *unit = metrics_unit_name(d->unit);
			if (d->group != (enum metric_group)g)
				continue;
			fprintf(out, "  %s%s%s%s\n", _(d->label), *unit ? " (" : "", unit, *unit ? ")" : "");
			fprintf(out, "      ncu     %s\n", metrics_source(d, src, sizeof src));
			fprintf(out, "      nvprof  %s\n", d->nvprof ? d->nvprof : _("(none)"));
			fprintf(out, "      %s\n", _(d->meaning));
		}
	}
}

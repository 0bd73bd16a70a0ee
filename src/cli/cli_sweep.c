/* A sweep on the command line (see cli_sweep.h). */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_sweep.h"
#include "i18n.h"
#include "textwrap.h"
#include "util.h"

/* Rows of plot for a chart width columns wide, as the roofline takes them. */
static int chart_height(int width)
{
	int h = width / 4;

	return h < 10 ? 10 : h > 30 ? 30 : h;
}

static bool shown(const bool *show, int i)
{
	return show == NULL || show[i];
}

static void print_json(FILE *out, const struct sweep *s, const bool *show)
{
	json_t *o = sweep_to_json(s), *steps = json_array(), *l2 = json_array(), *all = json_object_get(o, "steps");
	double at[4];
	int n = sweep_l2_sizes(s, show, at, (int)ARRAY_LEN(at));
	double floor_ms = sweep_launch_floor_ms(s, show);
	char *text;

	json_object_set_new(o, "gpu", results_gpu_to_json(&s->gpu));
	json_object_set_new(o, "recorded", json_boolean(s->recorded));
	if (s->recorded)
		json_object_set_new(o, "recorded_file", json_string(s->recorded_file));
	for (int k = 0; k < n; k++)
		json_array_append_new(l2, json_real(at[k]));
	/* the sizes where a shown step's working set fills the L2 */
	json_object_set_new(o, "l2_sizes", l2);
	/* the fastest run of the shown steps: no point lies above bytes over this time */
	json_object_set_new(o, "launch_floor_ms", floor_ms > 0 ? json_real(floor_ms) : json_null());
	for (int i = 0; i < s->nsteps; i++)
		if (shown(show, i))
			json_array_append(steps, json_array_get(all, (size_t)i));
	json_object_set_new(o, "steps", steps);
	text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
	fprintf(out, "%s\n", text);
	free(text);
	json_decref(o);
}

/* The marks and the steps they stand for, as many a line as fit. */
static void print_marks(FILE *out, const struct sweep *s, const bool *show, int width)
{
	int col = 0;

	for (int i = 0; i < s->nsteps; i++) {
		const struct sweep_step *st = &s->steps[i];
		int w = 5 + (int)strlen(st->kernel);

		if (!shown(show, i))
			continue;
		if (col > 0 && col + w > width - 1) {
			fputc('\n', out);
			col = 0;
		}
		fprintf(out, "%s  %c %s", col > 0 ? " " : "", canvas_mark(st->step), st->kernel);
		col += w;
	}
	if (col > 0)
		fputc('\n', out);
}

static void print_legend(FILE *out, const struct sweep *s, const bool *show, int width, int markers, bool unicode)
{
	double at[4];
	int n = sweep_l2_sizes(s, show, at, (int)ARRAY_LEN(at));
	double floor_ms = sweep_launch_floor_ms(s, show);
	char l2[32];

	print_marks(out, s, show, width);
	fprintf(out, "%s", _("  *: several steps in one place; dots join the points of a step\n"));
	if (s->over == SWEEP_SIZE && s->gpu.l2_bytes == 0)
		fprintf(out, "%s", _("  no L2 line: the L2 size of this GPU is not recorded (sweep again on it)\n"));
	else if (s->over == SWEEP_SIZE && markers < n)
		fprintf(out, "%s", _("  some L2 lines fall outside the sizes swept\n"));
	format_bytes((double)s->gpu.l2_bytes, l2, sizeof l2);
	for (int k = 0; k < n; k++)
		fprintf(out, _("  L2: at 2^%.1f elements, %.0f bytes an element fill its %s L2\n"), log2(at[k]),
		    (double)s->gpu.l2_bytes / at[k], l2);
	if (n > 0) {
		fprintf(out, "%s", _("  (right of an L2 line the step's data no longer fits in L2: DRAM serves it)\n"));
		fprintf(out, "%s", _("  L2 is kept from one run to the next: left of a line, L2 serves the data\n"));
	}
	if (floor_ms > 0)
		/* TRANSLATORS: the rising line of a size sweep; "%.1f %s": the fastest run's time, "µs" (or "us") */
		fprintf(out, _("  rising line: launch floor; no run took under %.1f %s, no point lies above it\n"),
		    1000 * floor_ms, unicode ? "µs" : "us");
}

/* One table: a row per value, a column per shown step (as many as fit a width), rates or times. */
static void print_table(FILE *out, const struct sweep *s, const bool *show, int width, bool times)
{
	int per = (width - 8) / 10, first = 0;

	if (per < 1)
		per = 1;
	while (first < s->nsteps) {
		int cols[64], nc = 0, i;

		for (i = first; i < s->nsteps && nc < per && nc < 64; i++)
			if (shown(show, i))
				cols[nc++] = i;
		first = i;
		if (nc == 0)
			break;
		{
			const char *head = s->over == SWEEP_SIZE ? _("size") : _("block");

			fprintf(out, "%-*s", textwrap_field(head, 8), head);
		}
		for (int c = 0; c < nc; c++)
			fprintf(out, "%10c", canvas_mark(s->steps[cols[c]].step));
		fputc('\n', out);
		for (int k = 0; k < s->steps[cols[0]].npoints; k++) {
			const struct sweep_point *p0 = &s->steps[cols[0]].points[k];
			char label[24];

			if (s->over == SWEEP_SIZE)
				results_count(p0->size, label, sizeof label);
			else
				snprintf(label, sizeof label, "%u", p0->block);
			fprintf(out, "%-8s", label);
			for (int c = 0; c < nc; c++) {
				const struct sweep_step *st = &s->steps[cols[c]];
				const struct sweep_point *p = k < st->npoints ? &st->points[k] : NULL;

				if (p == NULL || !p->ran)
					fprintf(out, "%10s", "-");
				else
					fprintf(out, times ? "%10.4f" : "%10.1f", times ? p->median_ms : p->rate);
			}
			fputc('\n', out);
		}
	}
}

void cli_print_sweep(FILE *out, const struct sweep *s, const bool *show, int width, bool unicode,
    enum cli_format f)
{
	struct canvas_lines chart;
	const char *unit = sweep_unit(s);
	int markers;

	if (f == FORMAT_JSON) {
		print_json(out, s, show);
		return;
	}
	if (s->over == SWEEP_SIZE)
		fprintf(out, _("%s, swept over sizes at block %u on %s\n"), s->lesson, s->block, s->gpu.name);
	else
		fprintf(out, _("%s, swept over blocks at size %llu on %s\n"), s->lesson, s->size, s->gpu.name);
	if (s->recorded)
		fprintf(out, _("RECORDED on %.10s, read from %s: these are not live numbers\n"), s->date,
		    s->recorded_file);
	sweep_draw(s, show, width, chart_height(width), unicode, &chart, &markers);
	fprintf(out, "%s\n", unit != NULL ? unit : _("GB/s or GFLOP/s, each step's own"));
	for (int i = 0; i < chart.nlines; i++)
		fprintf(out, "%s\n", chart.lines[i]);
	canvas_lines_free(&chart);
	{
		const char *title = s->over == SWEEP_SIZE ? _("elements (log2)") : _("threads per block (log2)");
		int pad = (width > 10 ? width - 1 : 10) - textwrap_columns(title, strlen(title));

		fprintf(out, "%*s%s\n", pad > 0 ? pad : 0, "", title);
	}
	print_legend(out, s, show, width, markers, unicode);
	fprintf(out, "\n%s\n", unit != NULL ? unit : _("rate"));
	print_table(out, s, show, width, false);
	fprintf(out, "\n%s\n", _("time, ms (median)"));
	print_table(out, s, show, width, true);
}

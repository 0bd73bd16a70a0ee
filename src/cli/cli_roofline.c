/* A lesson's roofline on the command line (see cli_roofline.h). */
#include "config.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_roofline.h"
#include "i18n.h"
#include "roofline.h"
#include "textwrap.h"

/* Rows of plot for a chart width columns wide: about a third, within reason. */
static int chart_height(int width)
{
	int h = width / 4;

	return h < 10 ? 10 : h > 30 ? 30 : h;
}

static int points_of(const struct run_report *r, bool other, struct roofline_point *p, int at)
{
	for (int i = 0; i < r->nsteps; i++) {
		const struct roof_point *q = &r->steps[i].roof;

		if (!r->steps[i].ran || !q->have)
			continue;
		p[at].mark = canvas_mark(r->steps[i].step);
		p[at].intensity = q->intensity;
		p[at].gflops = q->gflops;
		p[at].other = other;
		at++;
	}
	return at;
}

/* The BF16 tensor roof the tensor-core steps are held to: measured, or the spec's where it was not. */
static void print_tensor_roof(FILE *out, const struct gpu_roofs *g)
{
	bool measured;
	double roof = roofs_tensor_roof(g, &measured);

	if (measured)
		fprintf(out, _("        BF16 tensor %9.0f GFLOP/s measured, %9.0f GFLOP/s in the spec\n"), roof,
		    g->tensor_spec_gflops);
	else
		fprintf(out, _("        BF16 tensor %9.0f GFLOP/s in the spec: no tensor ceiling measured on this\n"
		    "        GPU, so the tensor-core steps are held to the spec's figure (dotted)\n"), roof);
}

static void print_legend(FILE *out, const struct run_report *r, const struct run_report *other, bool unicode)
{
	const struct gpu_roofs *g = &r->roofs;
	int unplaced = 0;

	fprintf(out, _("roofs   DRAM %9.1f GB/s measured, %9.1f GB/s in theory\n"), g->dram_measured_gbps,
	    g->dram_theoretical_gbps);
	fprintf(out, _("        FP32 %9.0f GFLOP/s measured, %9.0f GFLOP/s in theory\n"), g->fp32_measured_gflops,
	    g->fp32_theoretical_gflops);
	if (results_has_tensor_steps(r))
		print_tensor_roof(out, g);
	fprintf(out, "%s", _("        solid lines: the measured roofs; dotted: the theoretical ones\n"));
	fprintf(out, _("        %s the ridge, %.1f FLOP/byte: left of it a step can go no faster than\n"
	    "        DRAM brings its bytes, right of it no faster than the FP32 lanes work\n"),
	    unicode ? "\u25b2" : "^", roofs_ridge(g, true) > 0 ? roofs_ridge(g, true) : roofs_ridge(g, false));
	if (results_has_tensor_steps(r))
		fprintf(out, _("        %s the tensor ridge, %.1f FLOP/byte: right of it a tensor-core\n"
		    "        step can go no faster than the BF16 tensor cores work (the TENSOR roof)\n"),
		    unicode ? "\u25b2" : "^", roofs_tensor_ridge(g));
	if (other != NULL)
		fprintf(out, _("        +: the same steps recorded on %s\n"), other->gpu.name);
	fputc('\n', out);
	for (int i = 0; i < r->nsteps; i++) {
		const struct step_result *s = &r->steps[i];
		const struct roof_point *q = &s->roof;

		if (!s->ran || !q->have || !(q->intensity > 0 && q->gflops > 0)) {
			unplaced++;
			continue;
		}
		/* "tensor" and "issue" are wider than "dram" and "fp32": the kernel's field gives the columns up */
		fprintf(out, "  %c %-*s %8.3f FLOP/B %9.1f GFLOP/s %-4s %5.1f%%%s\n", canvas_mark(s->step),
		    textwrap_field(s->kernel, 33 - (int)(strlen(roofs_limiter_name(q->limiter)) > 4 ?
		    strlen(roofs_limiter_name(q->limiter)) : 4)), s->kernel, q->intensity, q->gflops, roofs_limiter_name(q->limiter),
		    q->pct_of_roof, q->roof_exceeded ? _("  (faster than the roof: a measurement error)") : "");
	}
	if (unplaced > 0) {
		fprintf(out, "%s", _("not on the chart (not run, or no arithmetic counted for it):"));
		for (int i = 0; i < r->nsteps; i++) {
			const struct roof_point *q = &r->steps[i].roof;

			if (!r->steps[i].ran || !q->have || !(q->intensity > 0 && q->gflops > 0))
				fprintf(out, " %d %s", r->steps[i].step, r->steps[i].kernel);
		}
		fputc('\n', out);
	}
	fprintf(out, "%s", _("  (columns: the step, its FLOP per byte of device memory, its GFLOP/s,\n"
	    "  the roof that holds it back, and its percentage of that roof, the measured\n"
	    "  one where there is one)\n"));
}

static void print_json(FILE *out, const struct run_report *r, const struct lesson *l)
{
	json_t *o = json_object(), *pts = json_array();
	char *s;

	json_object_set_new(o, "lesson", json_string(l->id));
	json_object_set_new(o, "gpu", json_string(r->gpu.name));
	json_object_set_new(o, "recorded", json_boolean(r->recorded));
	if (r->recorded)
		json_object_set_new(o, "recorded_file", json_string(r->recorded_file));
	json_object_set_new(o, "size", json_integer((json_int_t)r->size));
	json_object_set_new(o, "block", json_integer(r->block));
	json_object_set_new(o, "roofs", roofs_to_json(&r->roofs));
	json_object_set_new(o, "ridge", roofs_ridge(&r->roofs, true) > 0 ?
	    json_real(roofs_ridge(&r->roofs, true)) : json_null());
	json_object_set_new(o, "ridge_theoretical", roofs_ridge(&r->roofs, false) > 0 ?
	    json_real(roofs_ridge(&r->roofs, false)) : json_null());
	/* the tensor-core steps' roof, drawn for their lesson alone */
	if (results_has_tensor_steps(r)) {
		bool measured;
		double roof = roofs_tensor_roof(&r->roofs, &measured);

		json_object_set_new(o, "tensor_roof", roof > 0 ? json_real(roof) : json_null());
		json_object_set_new(o, "tensor_roof_source", roof > 0 ? json_string(measured ? "measured" : "spec") :
		    json_null());
		json_object_set_new(o, "ridge_tensor", roofs_tensor_ridge(&r->roofs) > 0 ?
		    json_real(roofs_tensor_ridge(&r->roofs)) : json_null());
	}
	for (int i = 0; i < r->nsteps; i++) {
		const struct step_result *st = &r->steps[i];
		const struct roof_point *q = &st->roof;
		json_t *p = json_object();
		bool placed = st->ran && q->have && q->intensity > 0 && q->gflops > 0;

		json_object_set_new(p, "step", json_integer(st->step));
		json_object_set_new(p, "kernel", json_string(st->kernel));
		json_object_set_new(p, "mark", json_stringn(&(char){ canvas_mark(st->step) }, 1));
		json_object_set_new(p, "placed", json_boolean(placed));
		json_object_set_new(p, "intensity", q->have ? json_real(q->intensity) : json_null());
		json_object_set_new(p, "gflops", q->have ? json_real(q->gflops) : json_null());
		json_object_set_new(p, "limiter", q->have && roofs_limiter_name(q->limiter) ?
		    json_string(roofs_limiter_name(q->limiter)) : json_null());
		json_object_set_new(p, "roof", q->have && q->roof > 0 ? json_real(q->roof) : json_null());
		json_object_set_new(p, "pct_of_roof", q->have && q->roof > 0 ? json_real(q->pct_of_roof) : json_null());
		json_object_set_new(p, "roof_exceeded", json_boolean(q->have && q->roof_exceeded));
		json_array_append_new(pts, p);
	}
	json_object_set_new(o, "points", pts);
	s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
	fprintf(out, "%s\n", s);
	free(s);
	json_decref(o);
}

int cli_print_roofline(FILE *out, const struct run_report *r, const struct run_report *other,
    const struct lesson *l, int width, bool unicode, enum cli_format f)
{
	struct roofline_point *p;
	struct canvas_lines chart;
	char *spots;
	int n;

	if (!r->roofs.have) {
		fprintf(stderr, _("%s holds no roofs of %s to draw the roofline against: on that GPU, "
		    "'cudatutor roofs --output FILE' adds them\n"), r->recorded ? r->recorded_file : _("this run"),
		    r->gpu.name);
		return -1;
	}
	if (f == FORMAT_JSON) {
		print_json(out, r, l);
		return 0;
	}
	p = xcalloc((size_t)r->nsteps + (other != NULL ? (size_t)other->nsteps : 0) + 1, sizeof *p);
	n = points_of(r, false, p, 0);
	if (other != NULL)
		n = points_of(other, true, p, n);
	roofline_draw_roofs(&r->roofs, results_has_tensor_steps(r), p, n, width, chart_height(width), unicode, &chart,
	    NULL);
	spots = roofline_spots(p, n, unicode);
	free(p);
	fprintf(out, _("%s, the roofline on %s\n"), l->id, r->gpu.name);
	if (r->recorded)
		fprintf(out, _("RECORDED on %.10s, read from %s: these are not live numbers\n"), r->recorded_date,
		    r->recorded_file);
	fprintf(out, "%s\n", _("GFLOP/s"));
	for (int i = 0; i < chart.nlines; i++)
		fprintf(out, "%s\n", chart.lines[i]);
	fprintf(out, "%*s\n", width > 10 ? width - 1 : 10, _("FLOP per byte"));
	canvas_lines_free(&chart);
	if (spots != NULL) {
		char *wrapped = textwrap(spots, width);

		fprintf(out, "%s\n", wrapped);
		free(wrapped);
	}
	free(spots);
	print_legend(out, r, other, unicode);
	return 0;
}

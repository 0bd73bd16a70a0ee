/* The roofline screen: every step of the open lesson against the roofs of the GPU its results come from. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnosis.h"
#include "i18n.h"
#include "roofline.h"
#include "session.h"
#include "tui/tui_internal.h"

/* Without a GPU, the recorded results of the whole lesson, read once for its size and block. */
static struct {
	int li;
	unsigned long long size;
	unsigned int block;
	bool tried;
	struct run_report rec;
	bool have;
	char error[1024];
} cache = { .li = -1 };

/*
 * What to draw: the results the lesson screen shows; where it shows none
 * yet without a GPU (it reveals recorded steps one at a time), the
 * recorded ones of every step.  NULL and *why when there are none.
 */
static const struct run_report *report_of(struct tui *t, const char **why)
{
	const struct run_report *r = study_report(t);
	struct error e;

	*why = NULL;
	if (r != NULL)
		return r;
	if (tui_gpu(t) != SESSION_GPU_ABSENT) {
		*why = _("Its results are not here yet: run every step of the lesson first.");
		return NULL;
	}
	if (cache.li != study_li(t) || cache.size != study_size(t) || cache.block != study_block(t) || !cache.tried) {
		run_report_free(&cache.rec);
		memset(&cache, 0, sizeof cache);
		cache.li = study_li(t);
		cache.size = study_size(t);
		cache.block = study_block(t);
		cache.tried = true;
		if (session_recorded(NULL, tui_lesson(t), cache.size, cache.block, &cache.rec, &e) == 0)
			cache.have = true;
		else
			snprintf(cache.error, sizeof cache.error, "%s", e.msg);
	}
	if (!cache.have)
		*why = cache.error;
	return cache.have ? &cache.rec : NULL;
}

/* The first step the legend lists, as the student scrolled it; -1: around the page's step. */
static int legend_top = -1;

/* Rows the legend under the chart would take: the roofs (the tensor roof's too), then one a step. */
static int legend_rows(const struct run_report *r)
{
	return 1 + (r != NULL && results_has_tensor_steps(r)) + (r != NULL ? r->nsteps : 0);
}

/* The tensor-core steps' roof in a line: measured, or the spec's where it was not. */
static int draw_tensor_legend(struct tui *t, const struct gpu_roofs *g, int y)
{
	char buf[512], *fit;
	bool measured;
	double roof = roofs_tensor_roof(g, &measured);

	if (measured)
		snprintf(buf, sizeof buf, _("tensor (BF16) %.0f GFLOP/s measured, %.0f spec; %s ridge %.1f FLOP/B"),
		    roof, g->tensor_spec_gflops, t->unicode ? "\xe2\x96\xb2" : "^", roofs_tensor_ridge(g));
	else
		snprintf(buf, sizeof buf, _("tensor (BF16) %.0f GFLOP/s from the spec, dotted; %s ridge %.1f FLOP/B"),
		    roof, t->unicode ? "\xe2\x96\xb2" : "^", roofs_tensor_ridge(g));
	fit = layout_ellipsize(buf, crt_cols() - 2, 0, t->unicode);
	crt_text(y, 1, crt_cols() - 2, STYLE_DIM, fit);
	free(fit);
	return y + 1;
}

/*
 * The roofs in a line, the cells that hold several steps (spots, may be
 * NULL) in another, then a line a step: as many as rows allow, those
 * around the step on the lesson's page first (it is drawn in bold).
 */
static void draw_legend(struct tui *t, const struct run_report *r, const char *spots, int y, int rows)
{
	const struct gpu_roofs *g = &r->roofs;
	int cols = crt_cols(), shown = rows - 1, first = 0;
	char buf[512], *fit;

	snprintf(buf, sizeof buf, _("DRAM %.0f GB/s measured (%.0f in theory), FP32 %.0f GFLOP/s measured (%.0f); "
	    "%s ridge %.1f FLOP/byte; solid: measured, dotted: theory"), g->dram_measured_gbps,
	    g->dram_theoretical_gbps, g->fp32_measured_gflops, g->fp32_theoretical_gflops, t->unicode ? "\xe2\x96\xb2" : "^",
	    roofs_ridge(g, true) > 0 ? roofs_ridge(g, true) : roofs_ridge(g, false));
	fit = layout_ellipsize(buf, cols - 2, 0, t->unicode);
	crt_text(y++, 1, cols - 2, STYLE_DIM, fit);
	free(fit);
	if (results_has_tensor_steps(r) && shown > 1) {
		y = draw_tensor_legend(t, g, y);
		shown--;
	}
	/* which steps a "1×4" stands for (drawn once, where they are), wrapped, leaving a row for a step */
	if (spots != NULL) {
		struct layout_run run = { spots, STYLE_NORMAL };
		struct layout_line *lines;
		int n = layout_wrap(&run, 1, cols - 2, &lines);

		for (int i = 0; i < n && shown > 1; i++, shown--) {
			char *text = layout_line_text(&lines[i]);

			crt_text(y++, 1, cols - 2, STYLE_NORMAL, text);
			free(text);
		}
		layout_lines_free(lines, n);
	}
	/* what holds the page's step back, whole, while a row is left for the steps (the page's first) */
	if (study_page(t) > 0 && study_page(t) <= r->nsteps && shown > 3) {
		struct diagnosis d;
		char text[1024];

		if (diagnose_in_run(r, study_page(t) - 1, &d)) {
			struct layout_run run[2] = { { buf, STYLE_STRONG }, { text, STYLE_NORMAL } };
			struct layout_line *lines;
			int n;

			snprintf(buf, sizeof buf, _("Step %d: "), study_page(t));
			diagnosis_text(&d, tui_lesson(t)->id, true, text, sizeof text);
			n = layout_wrap(run, 2, cols - 2, &lines);
			for (int i = 0; i < n && shown > 1; i++, shown--) {
				int x = 1;

				for (int k = 0; k < lines[i].nspans; k++)
					x += crt_text(y, x, cols - 1 - x, lines[i].spans[k].style, lines[i].spans[k].text);
				y++;
			}
			layout_lines_free(lines, n);
		}
	}
	if (shown < r->nsteps && legend_top >= 0)
		first = legend_top;
	else if (shown < r->nsteps && study_page(t) > 0)
		first = study_page(t) - 1 - shown / 2;
	if (first > r->nsteps - shown)
		first = r->nsteps - shown;
	if (first < 0)
		first = 0;
	if (legend_top >= 0)
		legend_top = first;
	for (int i = first; i < r->nsteps && i < first + shown; i++) {
		const struct step_result *s = &r->steps[i];
		const struct roof_point *q = &s->roof;

		if (s->ran && q->have && q->intensity > 0 && q->gflops > 0)
			snprintf(buf, sizeof buf, _("%c %-29s %7.3f FLOP/B %8.1f GFLOP/s %s %5.1f%%%s"),
			    canvas_mark(s->step), s->kernel, q->intensity, q->gflops, roofs_limiter_name(q->limiter),
			    q->pct_of_roof, q->roof_exceeded ? _(" (faster than the roof: a measurement error)") : "");
		else
			snprintf(buf, sizeof buf, _("%c %-29s not on the chart (not run, or no arithmetic counted)"),
			    canvas_mark(s->step), s->kernel);
		fit = layout_ellipsize(buf, cols - 2, 0, t->unicode);
		crt_text(y, 1, cols - 2, s->step == study_page(t) ? STYLE_STRONG : STYLE_NORMAL, fit);
		free(fit);
		/* more steps above or below: the arrows say which way to scroll */
		if (i == first && first > 0)
			crt_text(y, cols - 1, 1, STYLE_DIM, t->unicode ? "\xe2\x86\x91" : "^");
		if (i == first + shown - 1 && i < r->nsteps - 1)
			crt_text(y, cols - 1, 1, STYLE_DIM, t->unicode ? "\xe2\x86\x93" : "v");
		y++;
	}
}

static void draw_roofline(struct tui *t)
{
	const struct lesson *l = tui_lesson(t);
	const char *why;
	const struct run_report *r = report_of(t, &why);
	int cols = crt_cols(), rows = crt_rows(), chart_h, y = 2;
	const struct run_report *a, *b;
	struct roofline_point *p;
	struct canvas_lines chart;
	char where[512], *spots;
	int n = 0;

	snprintf(where, sizeof where, _("%s %s roofline"), l->id, t->unicode ? "\xc2\xb7" : "-");
	tui_draw_header(t, where);
	if (r == NULL || !r->roofs.have) {
		crt_text(y, 1, cols - 2, STYLE_STRONG, _("No roofs to draw this lesson against."));
		crt_text(y + 1, 1, cols - 2, STYLE_NORMAL, r == NULL ? why :
		    _("These results hold no roofs of their GPU: 'cudatutor roofs --output FILE' on that GPU adds them."));
		tui_draw_footer(t, rows - 1);
		return;
	}
	/* the GPU and the date, as every view that shows these results names them */
	if (r->recorded)
		snprintf(where, sizeof where, _("GFLOP/s, recorded on %s on %.10s"), tui_gpu_short(r->gpu.name),
		    r->recorded_date);
	else
		snprintf(where, sizeof where, _("GFLOP/s, live on %s"), tui_gpu_short(r->gpu.name));
	crt_text(1, 1, cols - 2, STYLE_DIM, where);
	if (study_comparison(t, &a, &b)) {
		snprintf(where, sizeof where, _("+: the same steps on %s"), tui_gpu_short(b->gpu.name));
		crt_text(1, cols - 1 - layout_width(where), layout_width(where), STYLE_DIM, where);
	}
	/*
	 * The chart takes half the screen at least, more where the legend
	 * needs less; the legend has the rest (its axis and labels, the unit,
	 * the roofs' line and the key line take 5 rows besides).
	 */
	chart_h = rows - y - 5 - legend_rows(r);
	if (chart_h < rows / 2)
		chart_h = rows / 2;
	if (chart_h > 40)
		chart_h = 40;
	/* with o, another GPU's recorded steps too, as '+' under these */
	if (!study_comparison(t, &a, &b))
		b = NULL;
	p = xcalloc((size_t)r->nsteps + (b != NULL ? (size_t)b->nsteps : 0) + 1, sizeof *p);
	for (int pass = 0; pass < 2; pass++) {
		const struct run_report *q = pass == 0 ? r : b;

		for (int i = 0; q != NULL && i < q->nsteps; i++)
			if (q->steps[i].ran && q->steps[i].roof.have) {
				p[n].mark = canvas_mark(q->steps[i].step);
				p[n].intensity = q->steps[i].roof.intensity;
				p[n].gflops = q->steps[i].roof.gflops;
				p[n].other = pass == 1;
				n++;
			}
	}
	roofline_draw_roofs(&r->roofs, results_has_tensor_steps(r), p, n, cols - 2, chart_h, t->unicode, &chart, NULL);
	spots = roofline_spots(p, n, t->unicode);
	free(p);
	for (int i = 0; i < chart.nlines && y < rows - 2; i++)
		crt_text(y++, 1, cols - 2, i < chart.nlines - 2 ? STYLE_NORMAL : STYLE_DIM, chart.lines[i]);
	canvas_lines_free(&chart);
	if (y < rows - 2) {
		int w = layout_width(_("FLOP per byte"));

		crt_text(y++, cols - 1 - w, w, STYLE_DIM, _("FLOP per byte"));
	}
	draw_legend(t, r, spots, y, rows - 1 - y);
	free(spots);
	tui_draw_footer(t, rows - 1);
}

static int roofline_open(struct tui *t, const struct screen_arg *arg)
{
	(void)arg;
	legend_top = -1;
	return tui_lesson(t) != NULL ? 0 : -1;
}

/* Up and down: the list of steps under the chart, one row at a time. */
static int key_list(struct tui *t, const struct crt_event *ev, int arg)
{
	const char *why;
	const struct run_report *r = report_of(t, &why);

	(void)ev;
	if (r == NULL)
		return REACT_NONE;
	if (legend_top < 0)
		legend_top = study_page(t) > 0 ? study_page(t) - 1 : 0;
	legend_top += arg;
	if (legend_top < 0)
		legend_top = 0;
	if (legend_top > r->nsteps - 1)
		legend_top = r->nsteps - 1;
	return REACT_DRAW;
}

static const struct key_binding roofline_keys[] = {
	{ "\xe2\x86\x91 \xe2\x86\x93  k j", N_("scroll the list of steps under the chart"), "\xe2\x86\x91\xe2\x86\x93",
	  N_("steps"), { CRT_KEY_UP, 'k' }, key_list, -1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_DOWN, 'j' }, key_list, 1 },
	{ "o", N_("another GPU's recorded steps beside these, as +; again: the next GPU, then back to one"), "o",
	  N_("other GPU"), { 'o', 'O' }, study_key_other, 0 },
	{ "Esc  Backspace  R", N_("back"), "Esc", N_("back"), { CRT_KEY_ESC, CRT_KEY_BACKSPACE, 'R' },
	  tui_key_back, 0 },
};

const struct screen screen_roofline = {
	.id = SCREEN_ROOFLINE,
	.name = "roofline", .place = SCREEN_ASIDE, .open = roofline_open,
	.draw = draw_roofline,
	.keys = roofline_keys, .nkeys = (int)ARRAY_LEN(roofline_keys),
};

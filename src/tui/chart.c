/* The open lesson's results as a table and bar chart, or beside another GPU's: lesson and presenter screens. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnosis.h"
#include "i18n.h"
#include "tui/pane.h"
#include "tui/tui_internal.h"

/* ---- the results table and chart ------------------------------------------------ */

enum { C_STEP, C_KERNEL, C_MS, C_IQR, C_GBPS, C_COPY, C_ROOF, C_FIRST, C_PREV, C_CHECK, C_BAR, C_REGS,
	C_OCC, C_COUNT };

static void cell(int y, int x, int w, int style, const char *text, int right)
{
	int tw;

	if (w <= 0)
		return;
	tw = layout_width(text);
	if (right && tw < w)
		x += w - tw;
	crt_text(y, x, w, style, text);
}

static int speed_style(double v)
{
	if (v >= 1.05)
		return STYLE_GOOD;
	if (v > 0 && v <= 0.95)
		return STYLE_BAD;
	return STYLE_NORMAL;
}

/* The largest figure the bars of a unit are measured against (time: of all steps). */
static double bar_scale(const struct tui *t, const struct run_report *r, int time,
    enum experiment_unit unit)
{
	const struct lesson *l = tui_lesson(t);
	double m = time || results_yardstick(unit) != YARDSTICK_COPY ? 0 : r->copy_gbps;

	for (int k = 0; l != NULL && k < l->nsteps; k++) {
		const struct step_result *s = study_result(t, r, k);
		double v;

		if (s == NULL || !s->ran || (!time && s->unit != unit))
			continue;
		v = time ? s->median_ms : s->rate;
		if (v > m)
			m = v;
	}
	return m;
}

/* What the lesson's steps measure: GB/s, GFLOP/s, or both. */
static void lesson_units(const struct lesson *l, int *bytes, int *flops, int *shared)
{
	*bytes = *flops = *shared = 0;
	for (int k = 0; k < l->nsteps; k++) {
		enum experiment_unit u = l->steps[k].kernel->experiment->unit;
		*bytes |= u == UNIT_GBPS;
		*flops |= u == UNIT_GFLOPS;
		*shared |= u == UNIT_SHARED_GBPS;
	}
}

static void title_line(struct tui *t, struct layout_rect r, const struct run_report *rep)
{
	int x = r.x, w = r.w;
	char buf[512], params[128];

	crt_hline(r.y, r.x, r.w, STYLE_BORDER);
	x += 1;
	x += crt_text(r.y, x, w - (x - r.x), STYLE_PANEL_TITLE, _(" Results "));
	if (rep != NULL && rep->recorded) {
		x += crt_text(r.y, x, w - (x - r.x), STYLE_RECORDED, _(" RECORDED "));
		snprintf(buf, sizeof buf, _(" on %s (%s), %.10s "), tui_gpu_short(rep->gpu.name),
		    rep->gpu.arch, rep->recorded_date);
		x += crt_text(r.y, x, w - (x - r.x), STYLE_RECORDED, buf);
	} else if (rep != NULL) {
		x += crt_text(r.y, x, w - (x - r.x), STYLE_LIVE, _(" LIVE "));
		snprintf(buf, sizeof buf, " %s (%s) ", tui_gpu_short(rep->gpu.name), rep->gpu.arch);
		x += crt_text(r.y, x, w - (x - r.x), STYLE_NORMAL, buf);
	} else if (study_source(t) != SESSION_LIVE) {
		/* TRANSLATORS: %s is a key, e.g. "r" */
		snprintf(buf, sizeof buf, _(" no GPU: %s shows what was recorded "), tui_key(t, study_key_run, 0));
		x += crt_text(r.y, x, w - (x - r.x), STYLE_DIM, buf);
	} else {
		/* TRANSLATORS: the %s are keys, e.g. "r" and "a" */
		snprintf(buf, sizeof buf, _(" %s runs the step, %s runs them all "), tui_key(t, study_key_run, 0),
		    tui_key(t, study_key_run_all, 0));
		x += crt_text(r.y, x, w - (x - r.x), STYLE_DIM, buf);
	}
	snprintf(buf, sizeof buf, " %s ", study_params(t, params, sizeof params));
	if (x + layout_width(buf) + 2 <= r.x + w)
		crt_text(r.y, r.x + w - layout_width(buf) - 1, layout_width(buf), STYLE_NORMAL, buf);
}

/* The step exercise x of l writes: the first whose kernel is its target; -1 if none. */
static int target_step(const struct lesson *l, const struct lesson_exercise *x)
{
	for (int k = 0; k < l->nsteps; k++)
		if (strcmp(l->steps[k].kernel->name, x->def->target) == 0)
			return k;
	return -1;
}

int chart_rows(const struct tui *t, struct chart_row *rows, int max)
{
	const struct lesson *l = tui_lesson(t);
	int n = 0;

	for (int k = 0; l != NULL && k < l->nsteps; k++) {
		if (n < max)
			rows[n] = (struct chart_row){ k, NULL };
		n++;
		for (int x = 0; x < l->nexercises; x++)
			if (target_step(l, &l->exercises[x]) == k && practice_report(l->exercises[x].def) != NULL) {
				if (n < max)
					rows[n] = (struct chart_row){ k, l->exercises[x].def };
				n++;
			}
	}
	return n;
}

int chart_row_of(const struct tui *t, int k)
{
	int n = chart_rows(t, NULL, 0), at = k;
	struct chart_row *rows = xcalloc((size_t)n + 1, sizeof *rows);

	chart_rows(t, rows, n);
	for (int i = 0; i < n; i++)
		if (rows[i].step == k && rows[i].yours == NULL) {
			at = i;
			break;
		}
	free(rows);
	return at;
}

/* How many rows show the student's kernel for step k. */
static int yours_count(const struct chart_row *rows, int n, int k)
{
	int c = 0;

	for (int i = 0; i < n; i++)
		c += rows[i].step == k && rows[i].yours != NULL;
	return c;
}

/* Text across the row from column x: what a check found when there is no time to show. */
static void yours_note(int y, int x, int w, int style, const char *text, int unicode)
{
	char *fit = layout_ellipsize(text, w, 0, unicode);

	crt_text(y, x, w, style, fit);
	free(fit);
}

/*
 * A rate in at most 5 characters: 0.5, 12.3, 4096, 65536, and from
 * 100,000 on in thousands, 697k (a tensor step's GFLOP/s would not fit).
 */
static const char *rate_text(double v, char *buf, size_t len)
{
	if (v < 100)
		snprintf(buf, len, "%.1f", v);
	else if (v < 100000)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.0fk", v / 1000);
	return buf;
}

/* A step's time, its spread, its rate and the percentage of its yardstick: the same for ours and yours. */
static void figure_cells(int y, const int *x, const struct layout_column *c, const struct step_result *s,
    int ms_style)
{
	char buf[128];

	cell(y, x[C_MS], c[C_MS].width, ms_style, layout_ms(s->median_ms, buf, sizeof buf), 1);
	snprintf(buf, sizeof buf, s->spread_pct < 10 ? "%.1f%%" : "%.0f%%", s->spread_pct);
	cell(y, x[C_IQR], c[C_IQR].width, s->spread_pct > 10 ? STYLE_EXPECTED : STYLE_DIM, buf, 1);
	cell(y, x[C_GBPS], c[C_GBPS].width, STYLE_NORMAL, rate_text(s->rate, buf, sizeof buf), 1);
	if (s->pct > 0)
		snprintf(buf, sizeof buf, "%.0f%%", s->pct);
	else
		snprintf(buf, sizeof buf, "%s", s->unit == UNIT_SHARED_GBPS ? "smem" : "-");
	cell(y, x[C_COPY], c[C_COPY].width, STYLE_NORMAL, buf, 1);
	/*
	 * of the roof that limits it (roofs.h); "!": faster than that roof allows, a measurement
	 * error; "~": L2-sized or short, to read with care (its diagnosis says why)
	 */
	if (s->roof.have && s->roof.roof_exceeded)
		snprintf(buf, sizeof buf, "!");
	else if (s->roof.have && s->roof.pct_of_roof > 0)
		snprintf(buf, sizeof buf, "%.0f%%%s", s->roof.pct_of_roof, results_dram_caveat(s) ? "~" : "");
	else
		snprintf(buf, sizeof buf, "-");
	cell(y, x[C_ROOF], c[C_ROOF].width, s->roof.roof_exceeded ? STYLE_BAD : STYLE_NORMAL, buf, 1);
}

/* Registers and occupancy, in the columns a wide table has. */
static void resource_cells(int y, const int *x, const struct layout_column *c, const struct step_result *s)
{
	char buf[32];

	if (c[C_REGS].width > 0) {
		snprintf(buf, sizeof buf, "%d", s->registers);
		cell(y, x[C_REGS], c[C_REGS].width, STYLE_DIM, buf, 1);
	}
	if (c[C_OCC].width > 0) {
		snprintf(buf, sizeof buf, "%.0f%%", s->occupancy_pct);
		cell(y, x[C_OCC], c[C_OCC].width, STYLE_DIM, buf, 1);
	}
}

/* Why the student's kernel has no time to show, across the row; 0 when it has one. */
static int yours_unfinished(struct tui *t, const struct exercise_report *r, int y, int x, int w)
{
	const struct exercise_result *cc = &r->compiled;
	char buf[512], line[1024];
	int passed, judged;

	exercise_verdict_tally(&r->verdict, &passed, &judged);
	if (!cc->ok || cc->problem != NULL) {
		yours_note(y, x, w, STYLE_BAD, !cc->ok ? _("does not compile: see its exercise page") : cc->problem,
		    t->unicode);
	} else if (!r->sass_checked) {
		snprintf(buf, sizeof buf, _("compiled; the SASS could not be checked: %s"), r->sass_error);
		yours_note(y, x, w, STYLE_BAD, buf, t->unicode);
	} else if (!r->gpu) {
		snprintf(buf, sizeof buf, _("compiled, SASS checks %d/%d; running needs a GPU"), passed, judged);
		yours_note(y, x, w, r->verdict.passed ? STYLE_GOOD : STYLE_BAD, buf, t->unicode);
	} else if (!r->run.correct || !r->run.timed) {
		pane_exercise_summary(r, line, sizeof line);
		yours_note(y, x, w, STYLE_BAD, line, t->unicode);
	} else {
		return 0;
	}
	return 1;
}

/*
 * The student's kernel against the lesson's first step when that ran
 * beside it, in the same place; else as its check's own run measured it.
 * 0 when there is nothing to compare.
 */
static double yours_vs_first(struct tui *t, const struct run_report *rep, const struct exercise_report *r)
{
	const struct lesson *l = tui_lesson(t);
	const struct run_report *yr = &r->run.report;
	const struct step_result *s = &yr->steps[2], *first = study_result(t, rep, 0);

	if (first != NULL && first->ran && !rep->recorded && rep->size == yr->size && rep->block == yr->block &&
	    s->median_ms > 0)
		return first->median_ms / s->median_ms;
	if (l != NULL && strcmp(yr->steps[0].kernel, l->steps[0].kernel->name) == 0)
		return s->speedup_first;
	return 0;
}

/*
 * The student's kernel for an exercise: timed beside ours on a GPU, with
 * the same columns as the steps (vs prev: against ours, the row above);
 * else what was checked.
 */
static void yours_row(struct tui *t, const struct run_report *rep, const struct chart_row *row, int many,
    int y, const int *x, const struct layout_column *c, int right)
{
	const struct exercise_report *r = practice_report(row->yours);
	const struct run_report *yr = &r->run.report;
	const struct step_result *s;
	char buf[512], name[96];
	double vs_first, vs_ours;

	snprintf(name, sizeof name, many ? _("yours (%s)") : _("yours"), row->yours->id);
	cell(y, x[C_KERNEL], c[C_KERNEL].width, r->passed ? STYLE_GOOD : STYLE_STRONG, name, 0);
	if (yours_unfinished(t, r, y, x[C_MS], right - x[C_MS]))
		return;
	s = &yr->steps[2];
	figure_cells(y, x, c, s, STYLE_STRONG);
	vs_first = yours_vs_first(t, rep, r);
	vs_ours = yr->steps[1].ran && s->median_ms > 0 ? yr->steps[1].median_ms / s->median_ms : 0;
	if (vs_first > 0)
		snprintf(buf, sizeof buf, "%.2f%s", vs_first, t->unicode ? "\xc3\x97" : "x");
	else
		snprintf(buf, sizeof buf, "-");
	cell(y, x[C_FIRST], c[C_FIRST].width, speed_style(vs_first), buf, 1);
	snprintf(buf, sizeof buf, "%.2f%s", vs_ours, t->unicode ? "\xc3\x97" : "x");
	cell(y, x[C_PREV], c[C_PREV].width, speed_style(vs_ours), buf, 1);
	snprintf(buf, sizeof buf, "%s%s", t->unicode ? "\xe2\x9c\x93" : "ok",
	    c[C_CHECK].width >= 8 ? (r->passed ? _(" passed") : _(" slow")) : "");
	cell(y, x[C_CHECK], c[C_CHECK].width, r->passed ? STYLE_GOOD : STYLE_EXPECTED, buf, 0);
	resource_cells(y, x, c, s);
}

/*
 * Step k's kernel name in w columns; a control step's with its tag after
 * it, which stays whole where the name must be cut short.
 */
static char *step_name(const struct tui *t, const struct lesson *l, int k, int w)
{
	const char *tag = _("(control)");
	int tw = layout_width(tag) + 1;
	char *name, *out;
	size_t len;

	if (!l->steps[k].control || w <= tw + 4)
		return layout_ellipsize(l->steps[k].kernel->name, w, 1, t->unicode);
	name = layout_ellipsize(l->steps[k].kernel->name, w - tw, 1, t->unicode);
	len = strlen(name) + strlen(tag) + 2;
	out = xmalloc(len);
	snprintf(out, len, "%s %s", name, tag);
	free(name);
	return out;
}

/* The table's columns for a panel r wide (bars among them when inline_bars), and where each starts. */
static void table_columns(const struct lesson *l, struct layout_rect r, int inline_bars, struct layout_column *c,
    int *x)
{
	int kw = 12, px = r.x + 1, cap = 24;

	memset(c, 0, C_COUNT * sizeof *c);
	for (int k = 0; k < l->nsteps; k++) {
		int w = (int)strlen(l->steps[k].kernel->name);

		/* room for a control's tag, where the lesson has one */
		if (l->steps[k].control) {
			w += 1 + layout_width(_("(control)"));
			cap = 34;
		}
		if (w > kw)
			kw = w;
	}
	c[C_STEP] = (struct layout_column){ 3, 3, 10, 0, 0 };
	/*
	 * Where the columns do not all fit (80 columns, or the panel beside
	 * the text), the spread goes first: the name, the time, the rate and
	 * how far it is from its yardstick and its roof matter more.
	 */
	c[C_KERNEL] = (struct layout_column){ kw < 17 ? kw : 17, kw < cap ? kw : cap, 9, 0, 0 };
	c[C_MS] = (struct layout_column){ 7, 8, 7, 0, 0 };
	c[C_IQR] = (struct layout_column){ 5, 5, 1, 0, 0 };
	c[C_GBPS] = (struct layout_column){ 5, 6, 6, 0, 0 };
	c[C_COPY] = (struct layout_column){ 5, 5, 5, 0, 0 };
	c[C_ROOF] = (struct layout_column){ 5, 5, 5, 0, 0 };
	c[C_FIRST] = (struct layout_column){ 6, 7, 6, 0, 0 };
	c[C_PREV] = (struct layout_column){ 7, 7, 4, 0, 0 };
	c[C_CHECK] = (struct layout_column){ 2, 9, 8, 0, 0 };
	if (inline_bars)
		c[C_BAR] = (struct layout_column){ 8, 8, 2, 1, 0 };
	if (r.w >= 110) {
		c[C_REGS] = (struct layout_column){ 4, 4, 1, 0, 0 };
		c[C_OCC] = (struct layout_column){ 4, 4, 0, 0, 0 };
	}
	layout_columns(c, C_COUNT, r.w - 2, 1);
	for (int i = 0; i < C_COUNT; i++) {
		x[i] = px;
		if (c[i].width > 0)
			px += c[i].width + 1;
	}
}

/* Nothing to show, and why: in the panel, where there is room for it. */
static void nothing_recorded(struct tui *t, struct layout_rect r, int rows)
{
	struct layout_run run[] = { { _("Nothing recorded to show: "), STYLE_BAD },
	    { study_results_error(t), STYLE_NORMAL } };
	struct layout_line *lines;
	int n = layout_wrap(run, 2, r.w - 4, &lines);

	for (int i = 0; i < n && i < rows; i++) {
		int lx = r.x + 2;
		for (int k = 0; k < lines[i].nspans; k++)
			lx += crt_text(r.y + 1 + i, lx, r.x + r.w - 2 - lx, lines[i].spans[k].style,
			    lines[i].spans[k].text);
	}
	layout_lines_free(lines, n);
}

/* The header row: as the batch view, GFLOP/s and % of the library for arithmetic, GB/s and % of copy for bytes. */
static void header_row(struct tui *t, int y, const int *x, const struct layout_column *c)
{
	static const char *const heads[C_COUNT] = { "#", N_("kernel"), N_("ms"), N_("\xc2\xb1IQR"),
	    "GB/s", N_("%copy"), N_("%roof"), N_("vs 1st"), N_("vs prev"), N_("ok"), "", N_("regs"), N_("occ") };
	const char *rate_head, *pct_head;
	int bytes, flops, shared;

	lesson_units(tui_lesson(t), &bytes, &flops, &shared);
	/* GFLOP/s in a column of five is cut to "GFLOP/": GF/s there */
	rate_head = flops && !bytes && !shared ? (c[C_GBPS].width >= 7 ? "GFLOP/s" : "GF/s") : !flops ? "GB/s" : _("rate");
	pct_head = flops && !bytes && !shared ? _("%lib") : !flops ? _("%copy") : _("%ref");
	for (int i = 0; i < C_COUNT; i++) {
		const char *h = i == C_GBPS ? rate_head : i == C_COPY ? pct_head : i != C_BAR ? _(heads[i]) :
		    study_bars_time(t) ? _("time") : c[C_BAR].width >= 14 && !flops ? _("GB/s vs copy") : rate_head;
		cell(y, x[i], c[i].width, STYLE_H3, h, i >= C_MS && i != C_BAR && i != C_CHECK);
	}
}

/* Step k's row when it has no figures: not run yet, not recorded, or why it did not run.  0 if it has. */
static int step_without_figures(struct tui *t, const struct run_report *rep, const struct step_result *s, int k,
    int y, const int *x, const struct layout_column *c, int right)
{
	if (s == NULL) {
		if (rep != NULL && rep->recorded && study_revealed(t, k))
			/* The lesson has a step the recording predates. */
			crt_text(y, x[C_MS], right - x[C_MS], STYLE_DIM, _("not in the recorded results"));
		else
			cell(y, x[C_MS], c[C_MS].width, STYLE_DIM, t->unicode ? "\xc2\xb7" : ".", 1);
		return 1;
	}
	if (!s->ran) {
		char *err = xasprintf(_("did not run: %s"), s->error);
		int ex = x[C_MS], ew = right - ex;
		char *fit = layout_ellipsize(err, ew, 0, t->unicode);
		crt_text(y, ex, ew, STYLE_BAD, fit);
		free(fit);
		free(err);
		return 1;
	}
	return 0;
}

/* Step k's row; cur: it is the page's step; scale: the bars' full length for each unit. */
static void step_row(struct tui *t, const struct run_report *rep, int k, int cur, int y, const int *x,
    const struct layout_column *c, int right, const double *scale)
{
	const struct lesson *l = tui_lesson(t);
	const struct step_result *s = study_result(t, rep, k);
	int scale_time = study_bars_time(t);
	char buf[128];
	char *name;

	snprintf(buf, sizeof buf, "%s%2d", cur ? (t->unicode ? "\xe2\x96\xb8" : ">") : " ", k + 1);
	cell(y, x[C_STEP], c[C_STEP].width, cur ? STYLE_BAR_CURRENT : STYLE_DIM, buf, 0);
	name = step_name(t, l, k, c[C_KERNEL].width);
	cell(y, x[C_KERNEL], c[C_KERNEL].width, s == NULL ? STYLE_DIM : cur ? STYLE_STRONG : STYLE_NORMAL,
	    name, 0);
	free(name);
	if (step_without_figures(t, rep, s, k, y, x, c, right))
		return;
	figure_cells(y, x, c, s, STYLE_NORMAL);
	snprintf(buf, sizeof buf, "%.2f%s", s->speedup_first, t->unicode ? "\xc3\x97" : "x");
	cell(y, x[C_FIRST], c[C_FIRST].width, speed_style(s->speedup_first), buf, 1);
	snprintf(buf, sizeof buf, "%.2f%s", s->speedup_prev, t->unicode ? "\xc3\x97" : "x");
	cell(y, x[C_PREV], c[C_PREV].width, speed_style(s->speedup_prev), buf, 1);
	{
		const char *mark = s->correct ? (t->unicode ? "\xe2\x9c\x93" : "ok") :
		    (t->unicode ? "\xe2\x9c\x97" : "X");
		const char *word = s->correct ? "" : s->wrong_by_design ? _(" expected") : _(" WRONG");
		int st = s->correct ? STYLE_GOOD : s->wrong_by_design ? STYLE_EXPECTED : STYLE_BAD;
		snprintf(buf, sizeof buf, "%s%s", mark, c[C_CHECK].width >= 8 ? word : "");
		cell(y, x[C_CHECK], c[C_CHECK].width, st, buf, 0);
	}
	if (c[C_BAR].width > 0 && scale[scale_time ? UNIT_GBPS : s->unit] > 0) {
		char bar[512];
		double v = scale_time ? s->median_ms : s->rate;
		layout_bar(v, scale[scale_time ? UNIT_GBPS : s->unit], c[C_BAR].width,
		    t->unicode, bar, sizeof bar);
		cell(y, x[C_BAR], c[C_BAR].width, !s->correct && !s->wrong_by_design ? STYLE_BAR_BAD :
		    cur ? STYLE_BAR_CURRENT : STYLE_BAR, bar, 0);
	}
	if (!s->library)
		resource_cells(y, x, c, s);
}

/* The page's step's diagnosis, "Step N: ..." wrapped to width: its lines (*lines to free), or 0. */
static int diagnosis_wrap(const struct tui *t, int width, int current, struct layout_line **lines)
{
	const struct run_report *rep = study_report(t);
	const struct lesson *l = tui_lesson(t);
	const struct step_result *s;
	struct diagnosis d;
	char head[64], text[1024];

	*lines = NULL;
	if (l == NULL || rep == NULL || current < 1 || current > l->nsteps || width < 20 ||
	    (s = study_result(t, rep, current - 1)) == NULL || !s->ran || !diagnose_in_run(rep, (int)(s - rep->steps), &d))
		return 0;
	snprintf(head, sizeof head, _("Step %d: "), current);
	diagnosis_text(&d, l->id, true, text, sizeof text);
	{
		struct layout_run run[2] = { { head, STYLE_STRONG }, { text, STYLE_NORMAL } };

		return layout_wrap(run, 2, width, lines);
	}
}

int chart_diagnosis_lines(const struct tui *t, int width, int current)
{
	struct layout_line *lines;
	int n = diagnosis_wrap(t, width - 2, current, &lines);

	layout_lines_free(lines, n);
	return n < CHART_DIAGNOSIS_MAX ? n : CHART_DIAGNOSIS_MAX;
}

/* The diagnosis in the panel's last rows (as many as it has), under the table. */
static void diagnosis_rows(const struct tui *t, struct layout_rect r, int current, int rows)
{
	struct layout_line *lines;
	int n = diagnosis_wrap(t, r.w - 2, current, &lines);

	for (int i = 0; i < n && i < rows; i++) {
		int x = r.x + 1, y = r.y + r.h - rows + i;

		for (int k = 0; k < lines[i].nspans; k++)
			x += crt_text(y, x, r.x + r.w - 1 - x, lines[i].spans[k].style, lines[i].spans[k].text);
		/* more than the rows hold: say so where the last one ends */
		if (i == rows - 1 && n > rows)
			crt_text(y, x < r.x + r.w - 1 ? x : r.x + r.w - 2, 1, STYLE_DIM, t->unicode ? "\xe2\x80\xa6" : "+");
	}
	layout_lines_free(lines, n);
}

void chart_table(struct tui *t, struct layout_rect r, int inline_bars, int current, int diagnosis, int *top)
{
	const struct lesson *l = tui_lesson(t);
	const struct run_report *rep = study_report(t);
	struct layout_column c[C_COUNT];
	int x[C_COUNT], rows, nrows, right = r.x + r.w - 1;
	struct chart_row *list;
	double scale[3] = { 0, 0, 0 };

	if (l == NULL || r.h < 3)
		return;
	table_columns(l, r, inline_bars, c, x);
	title_line(t, r, rep);
	/* the diagnosis keeps its rows only while a step's row is left above it */
	if (diagnosis > r.h - 3)
		diagnosis = r.h - 3 > 0 ? r.h - 3 : 0;
	rows = r.h - 2 - diagnosis;
	if (rep == NULL && study_results_error(t)[0] != '\0') {
		nothing_recorded(t, r, rows);
		return;
	}
	header_row(t, r.y + 1, x, c);
	nrows = chart_rows(t, NULL, 0);
	list = xcalloc((size_t)nrows + 1, sizeof *list);
	chart_rows(t, list, nrows);
	*top = layout_scroll_clamp(*top, rows, nrows);
	for (int u = 0; u < 3 && rep != NULL; u++)
		scale[u] = bar_scale(t, rep, study_bars_time(t), (enum experiment_unit)u);
	for (int row = 0; row < rows && *top + row < nrows; row++) {
		const struct chart_row *cr = &list[*top + row];

		if (cr->yours != NULL)
			yours_row(t, rep, cr, yours_count(list, nrows, cr->step) > 1, r.y + 2 + row, x, c, right);
		else
			step_row(t, rep, cr->step, cr->step + 1 == current, r.y + 2 + row, x, c, right, scale);
	}
	if (nrows > rows) {
		if (*top > 0)
			crt_text(r.y + 2, r.x + r.w - 1, 1, STYLE_DIM, t->unicode ? "\xe2\x86\x91" : "^");
		if (*top + rows < nrows)
			crt_text(r.y + 1 + rows, r.x + r.w - 1, 1, STYLE_DIM, t->unicode ? "\xe2\x86\x93" : "v");
	}
	if (diagnosis > 0)
		diagnosis_rows(t, r, current, diagnosis);
	free(list);
}

void chart_bars(struct tui *t, struct layout_rect r, int current)
{
	const struct lesson *l = tui_lesson(t);
	const struct run_report *rep = study_report(t);
	int time = study_bars_time(t), nw = 24, vw = 9, bw, rows, bytes, flops, shared;
	double scale[3] = { 0, 0, 0 };
	char title[256], copy[64];
	const char *key = tui_key(t, study_key_bars, 0);

	if (l == NULL || r.h < 2)
		return;
	crt_hline(r.y, r.x, r.w, STYLE_BORDER);
	lesson_units(l, &bytes, &flops, &shared);
	/* TRANSLATORS: in these four, %s is a key, e.g. "b" */
	if (time)
		snprintf(title, sizeof title, _(" Time per run, ms: shorter is faster (%s: rate) "), key);
	else if (flops && !bytes && !shared)
		snprintf(title, sizeof title, _(" GFLOP/s: longer is faster (%s: time) "), key);
	else if (flops)
		snprintf(title, sizeof title, _(" GB/s or GFLOP/s, each on its own scale (%s: time) "), key);
	else
		snprintf(title, sizeof title, _(" Effective GB/s: longer is faster (%s: time) "), key);
	crt_text(r.y, r.x + 1, r.w - 2, STYLE_PANEL_TITLE, title);
	if (rep == NULL)
		return;
	for (int u = 0; u < 3; u++)
		scale[u] = bar_scale(t, rep, time, (enum experiment_unit)u);
	if (!time && bytes && rep->copy_gbps > 0) {
		snprintf(copy, sizeof copy, " %s copy %.0f GB/s ", t->unicode ? "\xe2\x94\x83" : "|",
		    rep->copy_gbps);
		if (layout_width(title) + layout_width(copy) + 4 < r.w)
			crt_text(r.y, r.x + r.w - layout_width(copy) - 1, r.w, STYLE_BAR_MARK, copy);
	}
	if (r.w < 60)
		nw = 14;
	bw = r.w - nw - vw - 5;
	rows = r.h - 1;
	for (int row = 0; row < rows && row < l->nsteps; row++) {
		int k = row, y = r.y + 1 + row, cur = k + 1 == current;
		const struct step_result *s = study_result(t, rep, k);
		char bar[1024], val[32], *name;
		int used = 0, mark;

		name = step_name(t, l, k, nw);
		snprintf(val, sizeof val, "%2d ", k + 1);
		crt_text(y, r.x + 1, 3, cur ? STYLE_BAR_CURRENT : STYLE_DIM, val);
		crt_text(y, r.x + 4, nw, s ? (cur ? STYLE_STRONG : STYLE_NORMAL) : STYLE_DIM, name);
		free(name);
		enum experiment_unit u = l->steps[k].kernel->experiment->unit;
		double sc = scale[time ? UNIT_GBPS : u];

		if (s != NULL && s->ran && sc > 0) {
			double v = time ? s->median_ms : s->rate;
			used = layout_bar(v, sc, bw, t->unicode, bar, sizeof bar);
			crt_text(y, r.x + 5 + nw, bw, !s->correct && !s->wrong_by_design ? STYLE_BAR_BAD :
			    cur ? STYLE_BAR_CURRENT : STYLE_BAR, bar);
			if (time)
				layout_ms(v, val, sizeof val);
			else if (v < 100000)
				snprintf(val, sizeof val, "%.0f", v);
			else
				snprintf(val, sizeof val, "%.0fk", v / 1000);
			crt_text(y, r.x + 6 + nw + used, vw, cur ? STYLE_STRONG : STYLE_NORMAL, val);
		} else if (s != NULL && !s->ran) {
			crt_text(y, r.x + 5 + nw, bw, STYLE_BAD, _("did not run"));
		}
		/* Where the copy bandwidth is: the ceiling a reduction can reach. */
		if (!time && results_yardstick(u) == YARDSTICK_COPY && rep->copy_gbps > 0 && sc > 0) {
			mark = (int)lround(rep->copy_gbps / sc * bw);
			if (mark >= bw)
				mark = bw - 1;
			if (mark > used + (used > 0 ? 6 : 0) || used == 0)
				crt_text(y, r.x + 5 + nw + mark, 1, STYLE_BAR_MARK,
				    t->unicode ? "\xe2\x94\x83" : "|");
		}
	}
}

/* ---- two GPUs side by side ----------------------------------------------------- */

/*
 * "A: H100 80GB HBM3, recorded 2026-11-25" at detail 0, then shorter: the
 * date alone, then the name alone, for a narrower title line.
 */
static void gpu_label(const struct run_report *r, const char *letter, int detail, char *buf, size_t len)
{
	const char *name = tui_gpu_short(r->gpu.name);

	if (!r->recorded && detail < 2)
		snprintf(buf, len, _("%s: %s, live"), letter, name);
	else if (detail == 0)
		snprintf(buf, len, _("%s: %s, recorded %.10s"), letter, name, r->recorded_date);
	else if (detail == 1)
		snprintf(buf, len, _("%s: %s, %.10s"), letter, name, r->recorded_date);
	else
		snprintf(buf, len, _("%s: %s"), letter, name);
}

/* Both GPUs in the title line, with as much of each as fits whole; the size and block when they fit too. */
static void compare_title(struct tui *t, struct layout_rect r, const struct run_report *a,
    const struct run_report *b)
{
	char la[320], lb[320], params[128], buf[330];
	int detail, pw, x = r.x + 1;

	crt_hline(r.y, r.x, r.w, STYLE_BORDER);
	snprintf(buf, sizeof buf, " %s ", study_params(t, params, sizeof params));
	pw = layout_width(buf) + 1;
	/*
	 * The size is worth more than the word "recorded", the dates more than
	 * the size: what a recorded number needs is its GPU and its date.
	 */
	for (int fit = 0; fit < 6; fit++) {
		static const int details[] = { 0, 1, 0, 1, 2, 2 }, with_size[] = { 1, 1, 0, 0, 1, 0 };

		detail = details[fit];
		gpu_label(a, "A", detail, la, sizeof la);
		gpu_label(b, "B", detail, lb, sizeof lb);
		if (layout_width(la) + layout_width(lb) + 7 + (with_size[fit] ? pw : 0) <= r.w) {
			pw = with_size[fit] ? pw : 0;
			break;
		}
		if (fit == 5)
			pw = 0;
	}
	if (pw > 0)
		crt_text(r.y, r.x + r.w - pw, pw - 1, STYLE_NORMAL, buf);
	snprintf(buf, sizeof buf, " %s ", la);
	x += crt_text(r.y, x, r.x + r.w - 1 - pw - x, a->recorded ? STYLE_RECORDED : STYLE_LIVE, buf) + 1;
	snprintf(buf, sizeof buf, " %s ", lb);
	crt_text(r.y, x, r.x + r.w - 1 - pw - x, STYLE_RECORDED, buf);
}

/* The comparison as lines at width; false when there is none to show. */
static bool compare_pane(const struct tui *t, int width, struct pane *p, int *head)
{
	const struct lesson *l = tui_lesson(t);
	const struct run_report *a, *b;
	const char **kernels;

	if (l == NULL || !study_comparison(t, &a, &b))
		return false;
	kernels = xcalloc((size_t)l->nsteps + 1, sizeof *kernels);
	for (int k = 0; k < l->nsteps; k++)
		kernels[k] = l->steps[k].kernel->name;
	pane_compare(a, b, tui_gpu_short(a->gpu.name), tui_gpu_short(b->gpu.name), kernels, l->nsteps,
	    study_page(t), width, t->unicode, p, head);
	free(kernels);
	return true;
}

int chart_compare_rows(const struct tui *t, int width)
{
	struct pane p;
	int head, n;

	if (!compare_pane(t, width - 2, &p, &head))
		return chart_rows(t, NULL, 0);
	/* layout_lesson adds a title line and a heading: the heading is one of the pane's lines */
	n = p.n - 1;
	pane_free(&p);
	return n;
}

int chart_compare_step(const struct tui *t, struct layout_rect r, int top, int y)
{
	struct pane p;
	int head, line = y - r.y - 1, k = -1;

	if (!compare_pane(t, r.w - 2, &p, &head))
		return -1;
	if (line >= head && line < r.h - 1 && top + line - head < p.n - head)
		k = top + line - head;
	pane_free(&p);
	return k;
}

static void draw_pane_line(const struct layout_line *ln, int y, int x, int w)
{
	int used = 0;

	for (int s = 0; s < ln->nspans && used < w; s++)
		used += crt_text(y, x + used, w - used, ln->spans[s].style, ln->spans[s].text);
}

void chart_compare(struct tui *t, struct layout_rect r, int *top)
{
	const struct run_report *a, *b;
	struct pane p;
	int head, rows;

	if (r.h < 3 || !study_comparison(t, &a, &b) || !compare_pane(t, r.w - 2, &p, &head))
		return;
	compare_title(t, r, a, b);
	/* the ratio and the heading stay; the steps scroll under them */
	for (int i = 0; i < head && i < r.h - 1; i++)
		draw_pane_line(&p.lines[i], r.y + 1 + i, r.x + 1, r.w - 2);
	rows = r.h - 1 - head > 0 ? r.h - 1 - head : 0;
	*top = layout_scroll_clamp(*top, rows, p.n - head);
	for (int i = 0; i < rows && head + *top + i < p.n; i++)
		draw_pane_line(&p.lines[head + *top + i], r.y + 1 + head + i, r.x + 1, r.w - 2);
	if (rows > 0 && p.n - head > rows) {
		if (*top > 0)
			crt_text(r.y + 1 + head, r.x + r.w - 1, 1, STYLE_DIM, t->unicode ? "\xe2\x86\x91" : "^");
		if (*top + rows < p.n - head)
			crt_text(r.y + r.h - 1, r.x + r.w - 1, 1, STYLE_DIM, t->unicode ? "\xe2\x86\x93" : "v");
	}
	pane_free(&p);
}

/* The lesson screen: the text step by step, the results as they land, running and parameters. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banks.h"
#include "cli.h"
#include "i18n.h"
#include "registry.h"
#include "runner.h"
#include "tui/tui_internal.h"

static const struct key_help lesson_keys[] = {
	{ "\xe2\x86\x90 \xe2\x86\x92  h l", N_("previous / next step"), "\xe2\x86\x90\xe2\x86\x92", N_("step"), CRT_KEY_RIGHT },
	{ "PgUp PgDn", N_("previous / next step (what presentation clickers send)"), NULL, NULL, 0 },
	{ "\xe2\x86\x91 \xe2\x86\x93  j k", N_("scroll the text"), NULL, NULL, 0 },
	{ "Space", N_("read on: the next screenful, then the next step"), NULL, NULL, 0 },
	{ "r  Enter", N_("run this step (no GPU: show its recorded result)"), "r", N_("run"), 'r' },
	{ "a", N_("run every step of the lesson"), "a", N_("all"), 'a' },
	{ "x  Esc", N_("cancel a run"), NULL, NULL, 0 },
	{ "s", N_("the step's SASS, with what the text points at highlighted"), "s", "SASS", 's' },
	{ "c", N_("the step's CUDA source"), "c", N_("source"), 'c' },
	{ "p", N_("the step's PTX"), NULL, NULL, 0 },
	{ "d", N_("this step's kernel against the previous step's: instruction mix and SASS, aligned"), "d",
	  N_("diff"), 'd' },
	{ "m", N_("this step's hardware counters; for a stride of the bank-conflicts lesson, its banks"), "m",
	  N_("counters"), 'm' },
	{ "+ -", N_("problem size up / down, in powers of two"), "+-", N_("size"), '+' },
	{ "] [", N_("block size up / down, among the values the kernel takes"), "[]", N_("block"), ']' },
	{ "b", N_("chart GB/s or time"), NULL, NULL, 0 },
	{ "P  F5", N_("presenter mode"), "P", N_("present"), 'P' },
	{ "Esc  Backspace", N_("back to the lessons"), "Esc", N_("lessons"), CRT_KEY_ESC },
};

/* ---- results ---------------------------------------------------------------- */

const struct run_report *view_lesson_report(const struct tui *t)
{
	if (t->ws.gpu == WORKER_GPU_READY)
		return t->have_live ? &t->live : NULL;
	return t->have_rec ? &t->rec : NULL;
}

static int step_index(const struct run_report *r, const struct lesson *l, int k)
{
	const char *name = l->steps[k].kernel->name;

	if (k < r->nsteps && strcmp(r->steps[k].kernel, name) == 0)
		return k;
	for (int i = 0; i < r->nsteps; i++)
		if (strcmp(r->steps[i].kernel, name) == 0)
			return i;
	return -1;
}

const struct step_result *view_lesson_step_result(const struct tui *t, const struct run_report *r, int k)
{
	const struct lesson *l = tui_lesson(t);
	const struct step_result *s;
	int i;

	if (r == NULL || l == NULL || k < 0 || k >= l->nsteps || (i = step_index(r, l, k)) < 0)
		return NULL;
	s = &r->steps[i];
	if (r->recorded)
		return k < PROGRESS_MAX_STEPS && t->revealed[k] ? s : NULL;
	if (s->ran || (s->error[0] != '\0' && strcmp(s->error, _("not run yet")) != 0))
		return s;
	return NULL;
}

/* A live report can be added to only while it has the lesson's steps, in order (lessons change). */
static int report_fits(const struct run_report *r, const struct lesson *l)
{
	if (r->nsteps != l->nsteps)
		return 0;
	for (int i = 0; i < l->nsteps; i++)
		if (strcmp(r->steps[i].kernel, l->steps[i].kernel->name) != 0)
			return 0;
	return 1;
}

static int lesson_matches(const struct tui *t, const struct run_report *r)
{
	const struct lesson *l = tui_lesson(t);

	return l != NULL && strcmp(r->lesson, l->id) == 0 && r->size == t->size && r->block == t->block;
}

void view_lesson_reload(struct tui *t)
{
	const struct lesson *l = tui_lesson(t);
	struct error e;

	run_report_free(&t->live);
	run_report_free(&t->rec);
	t->have_live = t->have_rec = t->rec_tried = false;
	t->rec_error[0] = '\0';
	if (l == NULL)
		return;
	if (t->ws.gpu == WORKER_GPU_READY) {
		const struct run_report *saved = progress_find_report(&t->prog, l->id, t->ws.desc.name,
		    t->size, t->block);
		if (saved != NULL && report_fits(saved, l)) {
			t->live = *saved;
			t->live.steps = xcalloc((size_t)saved->nsteps + 1, sizeof *saved->steps);
			memcpy(t->live.steps, saved->steps, (size_t)saved->nsteps * sizeof *saved->steps);
			t->have_live = true;
		}
		return;
	}
	if (t->ws.gpu == WORKER_GPU_ABSENT) {
		int any = 0;
		for (int k = 0; k < l->nsteps && k < PROGRESS_MAX_STEPS; k++)
			any |= t->revealed[k];
		if (!any)
			return;
		/* Steps shown before stay shown, at the new size or block when recorded there. */
		t->rec_tried = true;
		if (results_find_recorded(NULL, l->id, t->size, t->block, &t->rec, &e) == 0)
			t->have_rec = true;
		else
			snprintf(t->rec_error, sizeof t->rec_error, "%s", e.msg);
	}
}

/* ---- opening, moving ---------------------------------------------------------- */

void view_lesson_open(struct tui *t, int li, int page)
{
	const struct lesson *l;

	if (li < 0 || li >= t->set.count || t->set.lessons[li].error != NULL)
		return;
	if (li != t->li) {
		t->li = li;
		memset(t->revealed, 0, sizeof t->revealed);
		l = tui_lesson(t);
		/* What the lesson runs and was recorded at: a matrix lesson's size is its side. */
		t->size = runner_default_size(l);
		t->block = runner_default_block(l);
		/* Steps shown before (progress) are shown again. */
		for (int k = 0; k < l->nsteps && k < PROGRESS_MAX_STEPS; k++)
			t->revealed[k] = progress_is_done(&t->prog, l->id, k + 1);
		view_lesson_reload(t);
		t->results_top = 0;
	}
	view_lesson_set_page(t, page);
}

void view_lesson_set_page(struct tui *t, int page)
{
	const struct lesson *l = tui_lesson(t);

	if (l == NULL)
		return;
	if (page < 0)
		page = 0;
	if (page > l->nsteps)
		page = l->nsteps;
	if (page != t->page) {
		t->text_top = 0;
		t->chunk = 0;
	}
	t->page = page;
	progress_set_position(&t->prog, l->id, page);
	if (page > 0)
		t->results_top = layout_scroll_to(t->results_top, 3, l->nsteps, page - 1);
}

/* ---- running ----------------------------------------------------------------- */

static void mark_done(struct tui *t, const struct lesson *l, int first, int last)
{
	for (int k = first; k <= last; k++)
		progress_mark_done(&t->prog, l->id, k + 1);
}

static void run_recorded(struct tui *t, int first, int last)
{
	const struct lesson *l = tui_lesson(t);
	struct error e;

	if (!t->rec_tried) {
		t->rec_tried = true;
		if (results_find_recorded(NULL, l->id, t->size, t->block, &t->rec, &e) == 0)
			t->have_rec = true;
		else
			snprintf(t->rec_error, sizeof t->rec_error, "%s", e.msg);
	}
	if (!t->have_rec) {
		tui_message(t, STYLE_ERROR, _("No GPU, and nothing recorded to show: %s"), t->rec_error);
		return;
	}
	for (int k = first; k <= last && k < PROGRESS_MAX_STEPS; k++)
		t->revealed[k] = true;
	mark_done(t, l, first, last);
	tui_save(t);
	tui_message(t, STYLE_MESSAGE, _("RECORDED on %s on %.10s, not measured here (%s)"),
	    tui_gpu_short(t->rec.gpu.name), t->rec.recorded_date,
	    t->ws.gpu == WORKER_GPU_ABSENT ? t->ws.reason : _("no GPU"));
}

void view_lesson_run(struct tui *t, int first, int last)
{
	const struct lesson *l = tui_lesson(t);
	struct worker_job job;
	char why[256];

	if (l == NULL)
		return;
	if (t->ws.busy) {
		tui_message(t, STYLE_MESSAGE, _("A run is going on: wait for it, or press x to cancel it."));
		return;
	}
	if (first == last) {
		const struct kernel_def *k = l->steps[first].kernel;
		if (!(k->flags & KF_LIBRARY) && registry_check_block(k, t->block, why, sizeof why) != NULL) {
			tui_message(t, STYLE_ERROR, _("%s: [ and ] change the block size"), why);
			return;
		}
	}
	if (t->ws.gpu == WORKER_GPU_ABSENT || t->worker == NULL) {
		run_recorded(t, first, last);
		return;
	}
	memset(&job, 0, sizeof job);
	job.kind = WORKER_RUN;
	job.lesson = l;
	job.first = first;
	job.last = last;
	job.size = t->size;
	job.block = t->block;
	job.resume = t->have_live && report_fits(&t->live, l) ? &t->live : NULL;
	if (worker_submit(t->worker, &job) != 0) {
		tui_message(t, STYLE_MESSAGE, _("A run is going on: wait for it, or press x to cancel it."));
		return;
	}
	/* Show it as running now, before the thread says so. */
	t->ws.busy = 1;
	t->ws.job = job;
	t->ws.step = first;
	t->ws.done = t->ws.total = 0;
}

/* One line on how a step went, for the status line. */
static void step_summary(struct tui *t, const struct step_result *s)
{
	char ms[32], fig[128];

	if (!s->ran) {
		tui_message(t, STYLE_ERROR, _("Step %d did not run: %s"), s->step, s->error);
		return;
	}
	if (!s->correct) {
		if (s->wrong_by_design)
			tui_message(t, STYLE_MESSAGE, _("Step %d gave a wrong answer, as the lesson expects: %s"),
			    s->step, s->check_detail);
		else
			tui_message(t, STYLE_ERROR, _("Step %d gave a WRONG answer: %s"), s->step,
			    s->check_detail);
		return;
	}
	if (s->speedup_prev > 0 && s->step > 1)
		tui_message(t, STYLE_MESSAGE, _("Step %d: %s ms, %s; %.2fx the step before"),
		    s->step, layout_ms(s->median_ms, ms, sizeof ms), tui_step_figures(s, fig, sizeof fig),
		    s->speedup_prev);
	else
		tui_message(t, STYLE_MESSAGE, _("Step %d: %s ms, %s"), s->step,
		    layout_ms(s->median_ms, ms, sizeof ms), tui_step_figures(s, fig, sizeof fig));
}

void view_lesson_news(struct tui *t, const struct worker_state *old, struct run_report *fresh,
    int have_fresh)
{
	const struct worker_state *ws = &t->ws;
	const struct lesson *l = tui_lesson(t);
	int save = 0;

	if (old->gpu == WORKER_GPU_UNKNOWN && ws->gpu != WORKER_GPU_UNKNOWN)
		view_lesson_reload(t);
	if (have_fresh) {
		progress_put_report(&t->prog, fresh);
		for (int i = 0; i < fresh->nsteps; i++)
			if (fresh->steps[i].ran)
				progress_mark_done(&t->prog, fresh->lesson, fresh->steps[i].step);
		if (lesson_matches(t, fresh)) {
			run_report_free(&t->live);
			t->live = *fresh;
			fresh->steps = NULL;
			fresh->nsteps = 0;
			t->have_live = true;
		}
		save = 1;
	}
	if (ws->finished && ws->job.kind == WORKER_COUNTERS) {
		view_metrics_news(t);
	} else if (ws->finished) {
		const struct lesson *jl = ws->job.lesson;

		if (ws->no_gpu && jl == l && l != NULL) {
			run_recorded(t, ws->job.first, ws->job.last);
		} else if (ws->error[0] != '\0') {
			tui_message(t, STYLE_ERROR, _("The run could not start: %s"), ws->error);
		} else if (ws->cancelled) {
			tui_message(t, STYLE_MESSAGE, "%s", _("Cancelled; the results so far are kept."));
		} else if (jl == l && l != NULL && t->have_live) {
			const struct step_result *s = view_lesson_step_result(t, &t->live, ws->job.last);
			if (s != NULL)
				step_summary(t, s);
		}
	}
	if (save)
		tui_save(t);
}

/* ---- parameters --------------------------------------------------------------- */

static const struct kernel_def *page_kernel(const struct tui *t)
{
	const struct lesson *l = tui_lesson(t);

	if (l == NULL)
		return NULL;
	return l->steps[t->page > 0 ? t->page - 1 : 0].kernel;
}

const char *view_lesson_params(const struct tui *t, char *buf, size_t len)
{
	char count[32];

	snprintf(buf, len, _("size %s, block %u"), cli_count(t->size, count, sizeof count), t->block);
	return buf;
}

static int busy_refuses(struct tui *t)
{
	if (!t->ws.busy)
		return 0;
	tui_message(t, STYLE_MESSAGE, "%s", _("A run is going on: wait for it, or press x to cancel it."));
	return 1;
}

/* The smallest size + and - go to: a few warps' worth, or a small matrix. */
#define SIZE_LEAST 256ULL

void view_lesson_size(struct tui *t, int dir)
{
	const struct lesson *l = tui_lesson(t);
	unsigned long long s, top;
	char a[32], b[32], c[32];

	if (l == NULL || busy_refuses(t))
		return;
	top = runner_max_size(l);
	s = dir > 0 ? t->size * 2 : t->size / 2;
	if (s < SIZE_LEAST || s > top) {
		tui_message(t, STYLE_MESSAGE, _("The size goes from %s to %s, doubling or halving."),
		    cli_count(SIZE_LEAST, a, sizeof a), cli_count(top, b, sizeof b));
		return;
	}
	t->size = s;
	view_lesson_reload(t);
	tui_message(t, STYLE_MESSAGE, _("Size %s (%s to %s): r runs the step at this size."),
	    cli_count(s, c, sizeof c), cli_count(SIZE_LEAST, a, sizeof a), cli_count(top, b, sizeof b));
	if (t->ws.gpu == WORKER_GPU_ABSENT && t->rec_error[0] != '\0')
		tui_message(t, STYLE_MESSAGE, "%s", t->rec_error);
}

/* The block sizes k takes, among 32, 64, ... 1024. */
static int block_choices(const struct kernel_def *k, unsigned int *out)
{
	char why[256];
	int n = 0;

	for (unsigned int b = 32; b <= 1024; b *= 2)
		if ((k->flags & KF_LIBRARY) || registry_check_block(k, b, why, sizeof why) == NULL)
			out[n++] = b;
	return n;
}

void view_lesson_block(struct tui *t, int dir)
{
	const struct kernel_def *k = page_kernel(t);
	unsigned int choices[16], b = t->block;
	int n, i;
	char allowed[128] = "";

	if (k == NULL || busy_refuses(t))
		return;
	n = block_choices(k, choices);
	for (i = 0; i < n; i++)
		snprintf(allowed + strlen(allowed), sizeof allowed - strlen(allowed), "%s%u",
		    i ? " " : "", choices[i]);
	if (dir > 0) {
		for (i = 0; i < n && choices[i] <= t->block; i++)
			;
		if (i < n)
			b = choices[i];
	} else {
		for (i = n - 1; i >= 0 && choices[i] >= t->block; i--)
			;
		if (i >= 0)
			b = choices[i];
	}
	if (b == t->block) {
		tui_message(t, STYLE_MESSAGE, _("%s takes blocks of %s threads."), k->name, allowed);
		return;
	}
	t->block = b;
	view_lesson_reload(t);
	tui_message(t, STYLE_MESSAGE, _("Block %u (%s takes %s): r runs the step with it."), b, k->name,
	    allowed);
	if (t->ws.gpu == WORKER_GPU_ABSENT && t->rec_error[0] != '\0')
		tui_message(t, STYLE_MESSAGE, "%s", t->rec_error);
}

/* ---- the results table and chart ------------------------------------------------ */

enum { C_STEP, C_KERNEL, C_MS, C_IQR, C_GBPS, C_COPY, C_FIRST, C_PREV, C_CHECK, C_BAR, C_REGS,
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
	double m = time || unit != UNIT_GBPS ? 0 : r->copy_gbps;

	for (int k = 0; l != NULL && k < l->nsteps; k++) {
		const struct step_result *s = view_lesson_step_result(t, r, k);
		double v;

		if (s == NULL || !s->ran || (!time && tui_step_unit(s) != unit))
			continue;
		v = time ? s->median_ms : tui_step_rate(s);
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
	} else if (t->ws.gpu == WORKER_GPU_ABSENT) {
		x += crt_text(r.y, x, w - (x - r.x), STYLE_DIM, _(" no GPU: r shows what was recorded "));
	} else {
		x += crt_text(r.y, x, w - (x - r.x), STYLE_DIM, _(" r runs the step, a runs them all "));
	}
	snprintf(buf, sizeof buf, " %s ", view_lesson_params(t, params, sizeof params));
	if (x + layout_width(buf) + 2 <= r.x + w)
		crt_text(r.y, r.x + w - layout_width(buf) - 1, layout_width(buf), STYLE_NORMAL, buf);
}

void view_lesson_table(struct tui *t, struct layout_rect r, int inline_bars, int current)
{
	const struct lesson *l = tui_lesson(t);
	const struct run_report *rep = view_lesson_report(t);
	struct layout_column c[C_COUNT];
	static const char *const heads[C_COUNT] = { "#", N_("kernel"), N_("ms"), N_("\xc2\xb1IQR"),
	    "GB/s", N_("%copy"), N_("vs 1st"), N_("vs prev"), N_("ok"), "", N_("regs"), N_("occ") };
	int x[C_COUNT], kw = 12, rows, scale_time = t->bars_time, bytes, flops, shared;
	double scale[3] = { 0, 0, 0 };
	const char *rate_head, *pct_head;

	if (l == NULL || r.h < 3)
		return;
	memset(c, 0, sizeof c);
	for (int k = 0; k < l->nsteps; k++)
		if ((int)strlen(l->steps[k].kernel->name) > kw)
			kw = (int)strlen(l->steps[k].kernel->name);
	c[C_STEP] = (struct layout_column){ 3, 3, 10, 0, 0 };
	c[C_KERNEL] = (struct layout_column){ 12, kw < 24 ? kw : 24, 9, 0, 0 };
	c[C_MS] = (struct layout_column){ 7, 8, 7, 0, 0 };
	c[C_IQR] = (struct layout_column){ 5, 5, 3, 0, 0 };
	c[C_GBPS] = (struct layout_column){ 5, 6, 6, 0, 0 };
	c[C_COPY] = (struct layout_column){ 5, 5, 5, 0, 0 };
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
	{
		int px = r.x + 1;
		for (int i = 0; i < C_COUNT; i++) {
			x[i] = px;
			if (c[i].width > 0)
				px += c[i].width + 1;
		}
	}
	title_line(t, r, rep);
	rows = r.h - 2;
	if (rep == NULL && t->rec_error[0] != '\0') {
		/* Nothing to show, and why: in the panel, where there is room for it. */
		struct layout_run run[] = { { _("Nothing recorded to show: "), STYLE_BAD },
		    { t->rec_error, STYLE_NORMAL } };
		struct layout_line *lines;
		int n = layout_wrap(run, 2, r.w - 4, &lines);
		for (int i = 0; i < n && i < rows; i++) {
			int lx = r.x + 2;
			for (int k = 0; k < lines[i].nspans; k++)
				lx += crt_text(r.y + 1 + i, lx, r.x + r.w - 2 - lx, lines[i].spans[k].style,
				    lines[i].spans[k].text);
		}
		layout_lines_free(lines, n);
		return;
	}
	/* As the batch view: GFLOP/s and % of the library for arithmetic, GB/s and % of copy for bytes. */
	lesson_units(l, &bytes, &flops, &shared);
	rate_head = flops && !bytes && !shared ? "GFLOP/s" : !flops ? "GB/s" : _("rate");
	pct_head = flops && !bytes && !shared ? _("%lib") : !flops ? _("%copy") : _("%ref");
	for (int i = 0; i < C_COUNT; i++) {
		const char *h = i == C_GBPS ? rate_head : i == C_COPY ? pct_head : i != C_BAR ? _(heads[i]) :
		    scale_time ? _("time") : c[C_BAR].width >= 14 && !flops ? _("GB/s vs copy") : rate_head;
		cell(r.y + 1, x[i], c[i].width, STYLE_H3, h, i >= C_MS && i != C_BAR && i != C_CHECK);
	}
	t->results_top = layout_scroll_clamp(t->results_top, rows, l->nsteps);
	for (int u = 0; u < 3 && rep != NULL; u++)
		scale[u] = bar_scale(t, rep, scale_time, (enum experiment_unit)u);
	for (int row = 0; row < rows && t->results_top + row < l->nsteps; row++) {
		int k = t->results_top + row, y = r.y + 2 + row;
		const struct step_result *s = view_lesson_step_result(t, rep, k);
		int cur = k + 1 == current;
		char buf[128];
		char *name;

		snprintf(buf, sizeof buf, "%s%2d", cur ? (t->unicode ? "\xe2\x96\xb8" : ">") : " ", k + 1);
		cell(y, x[C_STEP], c[C_STEP].width, cur ? STYLE_BAR_CURRENT : STYLE_DIM, buf, 0);
		name = layout_ellipsize(l->steps[k].kernel->name, c[C_KERNEL].width, 1, t->unicode);
		cell(y, x[C_KERNEL], c[C_KERNEL].width, s == NULL ? STYLE_DIM : cur ? STYLE_STRONG : STYLE_NORMAL,
		    name, 0);
		free(name);
		if (s == NULL) {
			if (rep != NULL && rep->recorded && k < PROGRESS_MAX_STEPS && t->revealed[k])
				/* The lesson has a step the recording predates. */
				crt_text(y, x[C_MS], r.x + r.w - 1 - x[C_MS], STYLE_DIM,
				    _("not in the recorded results"));
			else
				cell(y, x[C_MS], c[C_MS].width, STYLE_DIM, t->unicode ? "\xc2\xb7" : ".", 1);
			continue;
		}
		if (!s->ran) {
			char *err = xasprintf(_("did not run: %s"), s->error);
			int ex = x[C_MS], ew = r.x + r.w - 1 - ex;
			char *fit = layout_ellipsize(err, ew, 0, t->unicode);
			crt_text(y, ex, ew, STYLE_BAD, fit);
			free(fit);
			free(err);
			continue;
		}
		cell(y, x[C_MS], c[C_MS].width, STYLE_NORMAL, layout_ms(s->median_ms, buf, sizeof buf), 1);
		snprintf(buf, sizeof buf, s->spread_pct < 10 ? "%.1f%%" : "%.0f%%", s->spread_pct);
		cell(y, x[C_IQR], c[C_IQR].width, s->spread_pct > 10 ? STYLE_EXPECTED : STYLE_DIM, buf, 1);
		{
			enum experiment_unit u = tui_step_unit(s);
			double rate = tui_step_rate(s);

			snprintf(buf, sizeof buf, rate < 100 ? "%.1f" : "%.0f", rate);
			cell(y, x[C_GBPS], c[C_GBPS].width, STYLE_NORMAL, buf, 1);
			if (u == UNIT_GBPS && s->pct_copy > 0)
				snprintf(buf, sizeof buf, "%.0f%%", s->pct_copy);
			else if (u == UNIT_GFLOPS && s->pct_library > 0)
				snprintf(buf, sizeof buf, "%.0f%%", s->pct_library);
			else
				snprintf(buf, sizeof buf, "%s", u == UNIT_SHARED_GBPS ? "smem" : "-");
			cell(y, x[C_COPY], c[C_COPY].width, STYLE_NORMAL, buf, 1);
		}
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
		if (c[C_BAR].width > 0 && scale[scale_time ? UNIT_GBPS : tui_step_unit(s)] > 0) {
			char bar[512];
			double v = scale_time ? s->median_ms : tui_step_rate(s);
			layout_bar(v, scale[scale_time ? UNIT_GBPS : tui_step_unit(s)], c[C_BAR].width,
			    t->unicode, bar, sizeof bar);
			cell(y, x[C_BAR], c[C_BAR].width, !s->correct && !s->wrong_by_design ? STYLE_BAR_BAD :
			    cur ? STYLE_BAR_CURRENT : STYLE_BAR, bar, 0);
		}
		if (c[C_REGS].width > 0 && !s->library) {
			snprintf(buf, sizeof buf, "%d", s->registers);
			cell(y, x[C_REGS], c[C_REGS].width, STYLE_DIM, buf, 1);
		}
		if (c[C_OCC].width > 0 && !s->library) {
			snprintf(buf, sizeof buf, "%.0f%%", s->occupancy_pct);
			cell(y, x[C_OCC], c[C_OCC].width, STYLE_DIM, buf, 1);
		}
	}
	if (l->nsteps > rows) {
		if (t->results_top > 0)
			crt_text(r.y + 2, r.x + r.w - 1, 1, STYLE_DIM, t->unicode ? "\xe2\x86\x91" : "^");
		if (t->results_top + rows < l->nsteps)
			crt_text(r.y + r.h - 1, r.x + r.w - 1, 1, STYLE_DIM, t->unicode ? "\xe2\x86\x93" : "v");
	}
}

void view_lesson_chart(struct tui *t, struct layout_rect r, int current)
{
	const struct lesson *l = tui_lesson(t);
	const struct run_report *rep = view_lesson_report(t);
	int time = t->bars_time, nw = 24, vw = 9, bw, rows, bytes, flops, shared;
	double scale[3] = { 0, 0, 0 };
	char title[256], copy[64];

	if (l == NULL || r.h < 2)
		return;
	crt_hline(r.y, r.x, r.w, STYLE_BORDER);
	lesson_units(l, &bytes, &flops, &shared);
	if (time)
		snprintf(title, sizeof title, "%s", _(" Time per run, ms: shorter is faster (b: rate) "));
	else if (flops && !bytes && !shared)
		snprintf(title, sizeof title, "%s", _(" GFLOP/s: longer is faster (b: time) "));
	else if (flops)
		snprintf(title, sizeof title, "%s", _(" GB/s or GFLOP/s, each on its own scale (b: time) "));
	else
		snprintf(title, sizeof title, "%s", _(" Effective GB/s: longer is faster (b: time) "));
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
		const struct step_result *s = view_lesson_step_result(t, rep, k);
		char bar[1024], val[32], *name;
		int used = 0, mark;

		name = layout_ellipsize(l->steps[k].kernel->name, nw, 1, t->unicode);
		snprintf(val, sizeof val, "%2d ", k + 1);
		crt_text(y, r.x + 1, 3, cur ? STYLE_BAR_CURRENT : STYLE_DIM, val);
		crt_text(y, r.x + 4, nw, s ? (cur ? STYLE_STRONG : STYLE_NORMAL) : STYLE_DIM, name);
		free(name);
		enum experiment_unit u = l->steps[k].kernel->experiment->unit;
		double sc = scale[time ? UNIT_GBPS : u];

		if (s != NULL && s->ran && sc > 0) {
			double v = time ? s->median_ms : tui_step_rate(s);
			used = layout_bar(v, sc, bw, t->unicode, bar, sizeof bar);
			crt_text(y, r.x + 5 + nw, bw, !s->correct && !s->wrong_by_design ? STYLE_BAR_BAD :
			    cur ? STYLE_BAR_CURRENT : STYLE_BAR, bar);
			if (time)
				layout_ms(v, val, sizeof val);
			else
				snprintf(val, sizeof val, "%.0f", v);
			crt_text(y, r.x + 6 + nw + used, vw, cur ? STYLE_STRONG : STYLE_NORMAL, val);
		} else if (s != NULL && !s->ran) {
			crt_text(y, r.x + 5 + nw, bw, STYLE_BAD, _("did not run"));
		}
		/* Where the copy bandwidth is: the ceiling a reduction can reach. */
		if (!time && u == UNIT_GBPS && rep->copy_gbps > 0 && sc > 0) {
			mark = (int)lround(rep->copy_gbps / sc * bw);
			if (mark >= bw)
				mark = bw - 1;
			if (mark > used + (used > 0 ? 6 : 0) || used == 0)
				crt_text(y, r.x + 5 + nw + mark, 1, STYLE_BAR_MARK,
				    t->unicode ? "\xe2\x94\x83" : "|");
		}
	}
}

/* ---- the screen -------------------------------------------------------------- */

/* Page lines of the open lesson at the text pane's width. */
static const struct markdown_doc *page_doc(struct tui *t, int width, int *first, int *count)
{
	const struct markdown_doc *d = tui_doc(t, &t->doc, t->li, width);

	markdown_page(d, t->page, first, count);
	return d;
}

static int text_width(const struct layout_rect *r)
{
	int w = r->w - 4;
	return w > 100 ? 100 : w;
}

static void draw_text(struct tui *t, struct layout_rect r)
{
	const struct lesson *l = tui_lesson(t);
	int tw = text_width(&r), first, count, total;
	const struct markdown_doc *d = page_doc(t, tw, &first, &count);
	int next = t->page < l->nsteps;

	total = count + (next ? 2 : 0);
	t->text_top = layout_scroll_clamp(t->text_top, r.h, total);
	for (int row = 0; row < r.h; row++) {
		int i = t->text_top + row, x = r.x + 2;

		if (i < count) {
			const struct layout_line *ln = &d->lines[first + i].line;
			for (int s = 0; s < ln->nspans; s++)
				x += crt_text(r.y + row, x, r.x + 2 + tw - x, ln->spans[s].style, ln->spans[s].text);
		} else if (next && i == count + 1) {
			char *hint = xasprintf(_("%s next: %s (%s)"), t->unicode ? "\xe2\x86\x92" : "->",
			    l->steps[t->page].title, t->page == 0 ? _("right arrow") : _("right arrow or Space"));
			crt_text(r.y + row, x, tw, STYLE_DIM, hint);
			free(hint);
		}
	}
	/* A scroll bar when the page does not fit. */
	if (total > r.h && r.h > 2) {
		int bx = r.x + r.w - 1;
		int thumb = r.h * r.h / total, pos;
		if (thumb < 1)
			thumb = 1;
		pos = (r.h - thumb) * t->text_top / (total - r.h);
		for (int i = 0; i < r.h; i++)
			crt_text(r.y + i, bx, 1, i >= pos && i < pos + thumb ? STYLE_BAR : STYLE_BORDER,
			    i >= pos && i < pos + thumb ? (t->unicode ? "\xe2\x94\x83" : "#") :
			    (t->unicode ? "\xe2\x94\x82" : "|"));
	}
}

static void where_text(const struct tui *t, char *buf, size_t len)
{
	const struct lesson *l = tui_lesson(t);

	if (t->page == 0)
		snprintf(buf, len, "%s %s %s", l->id, t->unicode ? "\xc2\xb7" : "-", l->title);
	else
		snprintf(buf, len, _("%s %s step %d/%d: %s"), l->id, t->unicode ? "\xc2\xb7" : "-", t->page,
		    l->nsteps, l->steps[t->page - 1].title);
}

static void draw_lesson(struct tui *t)
{
	const struct lesson *l = tui_lesson(t);
	struct lesson_layout lo;
	char where[512];

	layout_lesson(crt_cols(), crt_rows(), l->nsteps, &lo);
	where_text(t, where, sizeof where);
	tui_draw_header(t, where);
	draw_text(t, lo.text);
	if (lo.side_by_side)
		crt_vline(lo.text.y, lo.text.w, lo.text.h, STYLE_BORDER);
	view_lesson_table(t, lo.results, lo.chart_inline, t->page);
	if (!lo.chart_inline)
		view_lesson_chart(t, lo.chart, t->page);
	{
		struct banks_access banks;
		int sweep = t->page > 0 && banks_of_kernel(l->steps[t->page - 1].kernel->name, &banks) == 0;

		tui_draw_status(t, lo.status.y, sweep ?
		    _("m shows which bank each lane of a warp reads at this stride, and the conflicts counted.") :
		    t->ws.gpu == WORKER_GPU_ABSENT ?
		    _("No GPU: r shows this step's result as recorded on a real GPU; s shows its SASS.") :
		    _("r runs this step on the GPU, a runs them all; s shows its SASS."));
	}
	tui_draw_footer(t, lo.footer.y, &screen_lesson);
}

static int inside(const struct layout_rect *r, int y, int x)
{
	return y >= r->y && y < r->y + r->h && x >= r->x && x < r->x + r->w;
}

static int lesson_mouse(struct tui *t, const struct crt_event *ev)
{
	const struct lesson *l = tui_lesson(t);
	struct lesson_layout lo;
	int step = ev->button == CRT_WHEEL_UP ? -3 : ev->button == CRT_WHEEL_DOWN ? 3 : 0;

	layout_lesson(crt_cols(), crt_rows(), l->nsteps, &lo);
	if (inside(&lo.text, ev->y, ev->x) && step != 0) {
		t->text_top += step;
		if (t->text_top < 0)
			t->text_top = 0;
		return REACT_DRAW;
	}
	if (inside(&lo.results, ev->y, ev->x)) {
		if (step != 0) {
			t->results_top += step > 0 ? 1 : -1;
			if (t->results_top < 0)
				t->results_top = 0;
			return REACT_DRAW;
		}
		if (ev->button == CRT_CLICK && ev->y >= lo.results.y + 2) {
			int k = t->results_top + ev->y - lo.results.y - 2;
			if (k < l->nsteps) {
				view_lesson_set_page(t, k + 1);
				return REACT_DRAW;
			}
		}
	}
	if (!lo.chart_inline && inside(&lo.chart, ev->y, ev->x) && ev->button == CRT_CLICK &&
	    ev->y > lo.chart.y && ev->y - lo.chart.y - 1 < l->nsteps) {
		view_lesson_set_page(t, ev->y - lo.chart.y);
		return REACT_DRAW;
	}
	return REACT_NONE;
}

/* Keys the lesson and presenter screens share: running, code, parameters. */
int view_lesson_common_key(struct tui *t, const struct crt_event *ev)
{
	const struct lesson *l = tui_lesson(t);
	int step = t->page > 0 ? t->page - 1 : 0;

	switch (ev->key) {
	case 'r':
	case 'R':
	case CRT_KEY_ENTER:
		if (t->page == 0)
			view_lesson_set_page(t, 1);
		view_lesson_run(t, t->page - 1, t->page - 1);
		return REACT_DRAW;
	case 'a':
	case 'A':
		view_lesson_run(t, 0, l->nsteps - 1);
		return REACT_DRAW;
	case 'x':
	case 'X':
		if (!t->ws.busy)
			return REACT_NONE;
		worker_cancel(t->worker);
		tui_message(t, STYLE_MESSAGE, "%s", _("Cancelling..."));
		return REACT_DRAW;
	case 'c':
		view_code_open(t, CODE_SOURCE, step + 1);
		return REACT_DRAW;
	case 'd':
	case 'D':
		view_diff_open(t, t->page > 0 ? t->page : 2);
		return REACT_DRAW;
	case 'm':
	case 'M':
		view_metrics_open(t, step + 1);
		return REACT_DRAW;
	case 'p':
		view_code_open(t, CODE_PTX, step + 1);
		return REACT_DRAW;
	case 's':
	case 'S':
		view_code_open(t, CODE_SASS, step + 1);
		return REACT_DRAW;
	case '+':
	case '=':
		view_lesson_size(t, 1);
		return REACT_DRAW;
	case '-':
	case '_':
		view_lesson_size(t, -1);
		return REACT_DRAW;
	case ']':
		view_lesson_block(t, 1);
		return REACT_DRAW;
	case '[':
		view_lesson_block(t, -1);
		return REACT_DRAW;
	case 'b':
	case 'B':
		t->bars_time = !t->bars_time;
		return REACT_DRAW;
	default:
		return -1;
	}
}

static int lesson_key(struct tui *t, const struct crt_event *ev)
{
	const struct lesson *l = tui_lesson(t);
	int r;

	if (ev->key == CRT_KEY_MOUSE)
		return lesson_mouse(t, ev);
	if ((ev->key == CRT_KEY_ESC) && t->ws.busy) {
		worker_cancel(t->worker);
		tui_message(t, STYLE_MESSAGE, "%s", _("Cancelling..."));
		return REACT_DRAW;
	}
	r = view_lesson_common_key(t, ev);
	if (r >= 0)
		return r;
	switch (ev->key) {
	case CRT_KEY_RIGHT:
	case 'l':
	case 'n':
	case CRT_KEY_PGDN:
		if (t->page >= l->nsteps)
			return REACT_NONE;
		view_lesson_set_page(t, t->page + 1);
		return REACT_DRAW;
	case CRT_KEY_LEFT:
	case 'h':
	case 'N':
	case CRT_KEY_PGUP:
		if (t->page == 0)
			return REACT_NONE;
		view_lesson_set_page(t, t->page - 1);
		return REACT_DRAW;
	case CRT_KEY_DOWN:
	case 'j':
		t->text_top++;
		return REACT_DRAW;
	case CRT_KEY_UP:
	case 'k':
		if (t->text_top == 0)
			return REACT_NONE;
		t->text_top--;
		return REACT_DRAW;
	case ' ': {
		int first, count, total;
		struct lesson_layout lo;

		layout_lesson(crt_cols(), crt_rows(), l->nsteps, &lo);
		page_doc(t, text_width(&lo.text), &first, &count);
		total = count + (t->page < l->nsteps ? 2 : 0);
		if (t->text_top + lo.text.h < total) {
			t->text_top += lo.text.h - 1;
		} else if (t->page < l->nsteps) {
			view_lesson_set_page(t, t->page + 1);
		} else {
			return REACT_NONE;
		}
		return REACT_DRAW;
	}
	case CRT_KEY_HOME:
	case 'g':
		t->text_top = 0;
		return REACT_DRAW;
	case CRT_KEY_END:
	case 'G':
		t->text_top = 1 << 20;
		return REACT_DRAW;
	case 'P':
	case CRT_KEY_F(5):
		t->screen = &screen_present;
		t->chunk = 0;
		return REACT_DRAW;
	case CRT_KEY_ESC:
	case CRT_KEY_BACKSPACE:
		tui_save(t);
		t->list_sel = -1;
		t->screen = &screen_list;
		return REACT_DRAW;
	default:
		return REACT_NONE;
	}
}

const struct screen screen_lesson = {
	"lesson", draw_lesson, lesson_key, lesson_keys, (int)ARRAY_LEN(lesson_keys),
};

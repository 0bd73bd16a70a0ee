/* The counters view: a step's hardware counters, live or recorded, and for a stride its bank picture. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnosis.h"
#include "i18n.h"
#include "inspect.h"
#include "metrics.h"
#include "sass.h"
#include "registry.h"
#include "session.h"
#include "tui/pane.h"
#include "tui/tui_internal.h"

/* Counters read on this GPU for a step of a lesson, at the size and block they name. */
struct live_counters {
	bool have;
	int li;
	unsigned long long size;
	unsigned int block;
	struct step_metrics m;
	char error[1024];	/* the last reading failed: why */
};

/* The counters screen's own state: the step shown, and the counters read on this GPU. */
static struct {
	int step;		/* 1-based */
	int top;
	struct live_counters live[PROGRESS_MAX_STEPS];	/* kept while the tutor runs */
} metrics;

/* The counters read on this GPU for step k of the open lesson at its size and block, or NULL. */
static struct live_counters *live_of(struct tui *t, int k)
{
	struct live_counters *c;

	if (k < 0 || k >= PROGRESS_MAX_STEPS)
		return NULL;
	c = &metrics.live[k];
	if (c->li != study_li(t) || c->size != study_size(t) || c->block != study_block(t) || (!c->have && c->error[0] == '\0'))
		return NULL;
	return c;
}

/* What to show for step k: counters (live first, else recorded), and where they come from. */
struct shown {
	const struct step_metrics *m;
	int live;
	const struct run_report *rec;		/* when recorded */
	const struct step_result *step;		/* recorded: the step, its busiest units */
	const char *live_error;			/* the last reading on this GPU failed */
	const char *none;			/* no counters: why */
};

static void what_to_show(struct tui *t, int k, struct shown *s)
{
	const struct lesson *l = tui_lesson(t);
	const struct kernel_def *kd = l->steps[k].kernel;
	struct live_counters *lc = live_of(t, k);
	const struct run_report *rec;
	const char *rec_error;
	struct session_shown c;

	memset(s, 0, sizeof *s);
	if (lc != NULL && lc->error[0] != '\0')
		s->live_error = lc->error;
	if (lc != NULL && lc->have) {
		s->m = &lc->m;
		s->live = 1;
		return;
	}
	if (registry_is_library(kd)) {
		s->none = _("counters are read for the tutor's own kernels, not for library calls");
		return;
	}
	/* counters are read live a step at a time (above); else the recorded ones, as the session chooses */
	rec = study_counters(t, &rec_error);
	session_choose(&(struct session_have){ .gpu = tui_gpu(t), .no_gpu = t->ws.reason, .live_failed = "",
	    .recorded = rec, .recorded_error = rec_error }, &c);
	if (c.report != NULL) {
		for (int i = 0; i < c.report->nsteps; i++)
			if (strcmp(c.report->steps[i].kernel, kd->name) == 0) {
				const struct step_result *r = &c.report->steps[i];
				if (r->metrics.collected) {
					s->m = &r->metrics;
					s->rec = c.report;
					s->step = r;
					return;
				}
				if (r->metrics.note[0] != '\0') {
					s->none = r->metrics.note;
					return;
				}
			}
		s->none = _("the recorded results hold no counters for this step (record them on a GPU with 'cudatutor record')");
		return;
	}
	s->none = rec_error[0] != '\0' ? rec_error : _("no counters recorded for this lesson");
}

static int metrics_open(struct tui *t, const struct screen_arg *arg)
{
	const struct lesson *l = tui_lesson(t);
	int step = arg->step;

	if (l == NULL)
		return -1;
	if (step < 1)
		step = 1;
	if (step > l->nsteps)
		step = l->nsteps;
	if (step != metrics.step)
		metrics.top = 0;
	metrics.step = step;
	study_set_page(t, step);
	return 0;
}

/* Another step's counters, or this step's diff. */
static int show(struct tui *t, enum screen_id s, int step)
{
	return tui_switch(t, s, &(struct screen_arg){ step, CODE_SASS, 0 });
}

/* ---- drawing ------------------------------------------------------------------- */

static void add_wrapped(struct pane *p, const char *text, int style, int width)
{
	struct layout_run run = { text, style };
	struct layout_line *lines;
	int n = layout_wrap(&run, 1, width, &lines);

	p->lines = xrealloc(p->lines, (size_t)(p->n + n) * sizeof *p->lines);
	memcpy(p->lines + p->n, lines, (size_t)n * sizeof *lines);
	p->n += n;
	free(lines);
}

static void append(struct pane *to, struct pane *from)
{
	to->lines = xrealloc(to->lines, (size_t)(to->n + from->n + 1) * sizeof *to->lines);
	memcpy(to->lines + to->n, from->lines, (size_t)from->n * sizeof *from->lines);
	to->n += from->n;
	free(from->lines);
	from->lines = NULL;
	from->n = 0;
}

static void blank(struct pane *p)
{
	add_wrapped(p, "", STYLE_NORMAL, 10);
}

static int key_read(struct tui *t, const struct crt_event *ev, int arg);

/* The SASS of the kernel whose samples are shown, kept while it is the same kernel. */
static struct {
	char kernel[96];
	char *text;
	struct sass_listing listing;
	bool have;
} stall_sass;

static const struct sass_listing *sass_of(struct tui *t, const struct kernel_def *kd)
{
	struct inspect_target target;
	struct error e;
	char arch[16];

	if (strcmp(stall_sass.kernel, kd->name) == 0)
		return stall_sass.have ? &stall_sass.listing : NULL;
	if (stall_sass.have)
		sass_listing_free(&stall_sass.listing);
	free(stall_sass.text);
	memset(&stall_sass, 0, sizeof stall_sass);
	snprintf(stall_sass.kernel, sizeof stall_sass.kernel, "%s", kd->name);
	if (tui_arch(t, kd->module, arch, sizeof arch) == NULL)
		snprintf(arch, sizeof arch, "%s", "sm_90");
	if (inspect_resolve(kd->name, study_block(t), &target, &e) != 0 ||
	    (stall_sass.text = inspect_sass(&target, arch, &e)) == NULL)
		return NULL;
	sass_parse(stall_sass.text, &stall_sass.listing);
	stall_sass.have = true;
	return &stall_sass.listing;
}

/*
 * Where the warps wait most: the three SASS lines with most samples, each
 * with its share, ncu's largest reason and what the instruction waits for.
 */
static void where_they_wait(struct tui *t, const struct kernel_def *kd, const struct stall_profile *p, int width,
    struct pane *out)
{
	const struct sass_listing *sass = sass_of(t, kd);
	char buf[512], meaning[256];

	snprintf(buf, sizeof buf, _("Where the warps wait most, line by line (%lld warp-state samples, %.10s):"),
	    p->samples, p->date);
	add_wrapped(out, buf, STYLE_STRONG, width);
	for (int k = 0; k < p->nlines && k < 3; k++) {
		const struct stall_line *l = &p->lines[k];

		metrics_stall_explain(l, sass, meaning, sizeof meaning);
		snprintf(buf, sizeof buf, "%5.1f%%  /*%04x*/ %s  %s %s%s%s", metrics_stall_pct(p, l), l->offset, l->sass,
		    t->unicode ? "\xe2\x80\x94" : "-", l->nreasons > 0 ? l->reasons[0].name : "?",
		    meaning[0] ? ": " : "", meaning);
		add_wrapped(out, buf, STYLE_NORMAL, width);
	}
}

/* What could be gained (diagnosis_headroom), its sentences that have figures, under a heading. */
static void headroom(const struct run_report *r, int i, int width, struct pane *out)
{
	struct headroom h;
	int n = 0;

	diagnosis_headroom(r, i, true, &h);
	for (int k = 0; k < HEADROOM_SAID; k++)
		if (h.said[k][0] != '\0') {
			if (n++ == 0)
				add_wrapped(out, _("What could be gained, from what was measured"), STYLE_H3, width);
			add_wrapped(out, h.said[k], STYLE_NORMAL, width);
		}
	if (n > 0)
		blank(out);
}

/* Everything below the title, as one scrolling column. */
static void body(struct tui *t, const struct shown *s, int width, int height, struct pane *out)
{
	const struct lesson *l = tui_lesson(t);
	const struct kernel_def *kd = l->steps[metrics.step - 1].kernel;
	struct banks_access banks;
	struct pane part;
	char buf[1024], yet[256];
	const char *read = tui_key(t, key_read, 0);

	memset(out, 0, sizeof *out);
	if (s->live_error != NULL) {
		snprintf(buf, sizeof buf, _("Reading the counters on this GPU failed: %s"), s->live_error);
		add_wrapped(out, buf, STYLE_BAD, width);
		blank(out);
	}
	if (banks_of_kernel(kd->name, &banks) == 0) {
		const char *none;

		/* TRANSLATORS: %s is a key, e.g. "r" */
		snprintf(yet, sizeof yet, _("no counters for this step yet: %s reads them on this GPU"), read);
		none = tui_gpu(t) == SESSION_GPU_READY ? yet :
		    _("no counters recorded for this step");
		/* The whole picture on a small screen; on a tall one, room for the counters too. */
		int waves = height - 9 < (height / 2 > 8 ? height / 2 : 8) ? height - 9 : (height / 2 > 8 ? height / 2 : 8);

		if (waves < 4)
			waves = 4;
		if (waves > 32)
			waves = 32;
		pane_banks(&banks, s->m, none, width, waves, t->unicode, &part);
		append(out, &part);
		blank(out);
	}
	if (s->m != NULL) {
		if (s->step != NULL && s->step->nbusy > 0) {
			pane_busy_units(s->step->busy, s->step->nbusy, width, t->unicode, &part);
			append(out, &part);
			blank(out);
		}
		if (s->step != NULL && s->rec != NULL)
			headroom(s->rec, (int)(s->step - s->rec->steps), width, out);
		pane_counters(s->m, width, t->unicode, &part);
		append(out, &part);
		if (s->m->stalls.have) {
			blank(out);
			where_they_wait(t, kd, &s->m->stalls, width, out);
		}
		return;
	}
	add_wrapped(out, _("No counters for this step."), STYLE_STRONG, width);
	if (s->none != NULL)
		add_wrapped(out, s->none, STYLE_NORMAL, width);
	blank(out);
	buf[0] = '\0';
	if (tui_gpu(t) == SESSION_GPU_READY && !registry_is_library(kd))
		/* TRANSLATORS: %s is a key, e.g. "r" */
		snprintf(buf, sizeof buf, _("%s reads them on this GPU: Nsight Compute (ncu) runs this step as a child "
		    "and replays its kernel once per group of counters, which takes seconds."), read);
	else if (!registry_is_library(kd))
		/* TRANSLATORS: %s is a key, e.g. "r" */
		snprintf(buf, sizeof buf, _("On a machine with an NVIDIA GPU and Nsight Compute, %s reads them there; "
		    "'cudatutor record' keeps them with the results."), read);
	if (buf[0] != '\0')
		add_wrapped(out, buf, STYLE_DIM, width);
}

static void draw_title(struct tui *t, const struct metrics_layout *lo, const struct shown *s)
{
	int cols = crt_cols(), y = lo->title.y, x = 1;
	char buf[512], params[256];

	crt_hline(y, 0, cols, STYLE_BORDER);
	x += crt_text(y, x, cols - x, STYLE_PANEL_TITLE, _(" Counters "));
	if (s->m != NULL && s->live) {
		x += crt_text(y, x, cols - x, STYLE_LIVE, _(" LIVE "));
		snprintf(buf, sizeof buf, _(" %s on this GPU, one launch replayed "), s->m->tool);
		x += crt_text(y, x, cols - x, STYLE_LIVE, buf);
	} else if (s->m != NULL && s->rec != NULL) {
		x += crt_text(y, x, cols - x, STYLE_RECORDED, _(" RECORDED "));
		snprintf(buf, sizeof buf, _(" on %s (%s), %.10s "), tui_gpu_short(s->rec->gpu.name),
		    s->rec->gpu.arch, s->rec->recorded_date);
		x += crt_text(y, x, cols - x, STYLE_RECORDED, buf);
	}
	if (s->rec != NULL && s->m != NULL)
		study_params_at(t, s->rec->size, s->rec->block, params, sizeof params);
	else
		study_params(t, params, sizeof params);
	snprintf(buf, sizeof buf, " %s ", params);
	if (x + layout_width(buf) + 2 < cols)
		crt_text(y, cols - layout_width(buf) - 1, layout_width(buf), STYLE_DIM, buf);
}

static void draw_metrics(struct tui *t)
{
	const struct lesson *l = tui_lesson(t);
	const struct kernel_def *kd;
	struct metrics_layout lo;
	struct shown s;
	struct pane p;
	char where[512], hint[512];
	int x;

	if (metrics.step < 1 || metrics.step > l->nsteps)
		metrics.step = 1;
	kd = l->steps[metrics.step - 1].kernel;
	layout_metrics(crt_cols(), crt_rows(), &lo);
	snprintf(where, sizeof where, _("%s %s step %d/%d: %s"), l->id, t->unicode ? "\xc2\xb7" : "-",
	    metrics.step, l->nsteps, l->steps[metrics.step - 1].title);
	tui_draw_header(t, where);
	what_to_show(t, metrics.step - 1, &s);
	draw_title(t, &lo, &s);
	x = lo.info.x;
	x += crt_text(lo.info.y, x, lo.info.w, STYLE_CODE, kd->name);
	x += crt_text(lo.info.y, x, lo.info.x + lo.info.w - x, STYLE_DIM, t->unicode ? " \xe2\x80\x94 " : " - ");
	{
		char *fit = layout_ellipsize(_(kd->summary), lo.info.x + lo.info.w - x, 0, t->unicode);
		crt_text(lo.info.y, x, lo.info.x + lo.info.w - x, STYLE_NORMAL, fit);
		free(fit);
	}

	body(t, &s, lo.body.w, lo.body.h, &p);
	metrics.top = layout_scroll_clamp(metrics.top, lo.body.h, p.n);
	for (int row = 0; row < lo.body.h && metrics.top + row < p.n; row++) {
		const struct layout_line *ln = &p.lines[metrics.top + row];
		int used = 0;
		for (int k = 0; k < ln->nspans && used < lo.body.w; k++)
			used += crt_text(lo.body.y + row, lo.body.x + used, lo.body.w - used, ln->spans[k].style,
			    ln->spans[k].text);
	}
	if (p.n > lo.body.h) {
		if (metrics.top > 0)
			crt_text(lo.body.y, crt_cols() - 1, 1, STYLE_DIM, t->unicode ? "\xe2\x86\x91" : "^");
		if (metrics.top + lo.body.h < p.n)
			crt_text(lo.body.y + lo.body.h - 1, crt_cols() - 1, 1, STYLE_DIM, t->unicode ? "\xe2\x86\x93" : "v");
	}
	pane_free(&p);
	/* TRANSLATORS: %s is a key, e.g. "r" */
	snprintf(hint, sizeof hint, _("%s reads this step's counters on this GPU; 'cudatutor metrics --explain' says "
	    "what each one means."), tui_key(t, key_read, 0));
	tui_draw_status(t, lo.status.y, tui_gpu(t) == SESSION_GPU_READY ? hint :
	    _("Counters recorded on a real GPU; 'cudatutor metrics --explain' says what each one means."));
	tui_draw_footer(t, lo.footer.y);
}

/* ---- reading on this GPU ---------------------------------------------------------- */

static void read_counters(struct tui *t)
{
	const struct lesson *l = tui_lesson(t);
	const struct kernel_def *k = l->steps[metrics.step - 1].kernel;
	struct worker_job job;
	char why[256];

	if (t->ws.busy) {
		tui_say_busy(t);
		return;
	}
	if (tui_gpu(t) == SESSION_GPU_UNKNOWN) {
		tui_message(t, STYLE_MESSAGE, "%s", _("Still looking for the GPU: try again in a moment."));
		return;
	}
	if (tui_gpu(t) == SESSION_GPU_ABSENT || t->worker == NULL) {
		tui_message(t, STYLE_MESSAGE, _("No GPU here (%s): the counters shown are recorded ones."),
		    t->ws.reason);
		return;
	}
	if (registry_is_library(k)) {
		tui_message(t, STYLE_MESSAGE, "%s",
		    _("Counters are read for the tutor's own kernels, not for library calls."));
		return;
	}
	if (session_step_unfit(l, metrics.step - 1, study_size(t), study_block(t), why, sizeof why) != NULL) {
		/* TRANSLATORS: the second and third %s are keys, e.g. "[" and "]" */
		tui_message(t, STYLE_ERROR, _("%s: %s and %s change the block size"), why,
		    tui_key(t, study_key_block, -1), tui_key(t, study_key_block, 1));
		return;
	}
	memset(&job, 0, sizeof job);
	job.kind = WORKER_COUNTERS;
	job.lesson = l;
	job.first = job.last = metrics.step - 1;
	job.size = study_size(t);
	job.block = study_block(t);
	if (worker_submit(t->worker, &job) != 0) {
		tui_say_busy(t);
		return;
	}
	t->ws.busy = 1;
	t->ws.job = job;
	t->ws.step = job.first;
	t->ws.done = t->ws.total = 0;
}

/* A counters job ended: what it read, or why it could not. */
static void metrics_news(struct tui *t, enum tui_news what)
{
	const struct worker_state *ws = &t->ws;
	const struct lesson *jl = ws->job.lesson;
	int k = ws->job.first, li;
	struct live_counters *c;

	if (what != TUI_NEWS_JOB_DONE || ws->job.kind != WORKER_COUNTERS)
		return;
	if (jl == NULL || k < 0 || k >= PROGRESS_MAX_STEPS)
		return;
	if (ws->no_gpu) {
		tui_message(t, STYLE_ERROR, _("No GPU here: %s"), ws->error);
		return;
	}
	if (ws->cancelled || ws->counters_status == METRICS_CANCELLED) {
		tui_message(t, STYLE_MESSAGE, "%s", _("Cancelled: ncu and the step it ran were stopped."));
		return;
	}
	li = (int)(jl - t->set.lessons);
	c = &metrics.live[k];
	if (c->li != li || c->size != ws->job.size || c->block != ws->job.block)
		memset(c, 0, sizeof *c);
	c->li = li;
	c->size = ws->job.size;
	c->block = ws->job.block;
	if (ws->counters_status == METRICS_OK) {
		c->have = true;
		c->m = ws->counters;
		c->error[0] = '\0';
		tui_message(t, STYLE_MESSAGE, _("Step %d's counters, read with %s (one launch, replayed)."), k + 1,
		    c->m.tool);
	} else {
		/* Earlier counters of the step stay; the message says why these could not be read. */
		snprintf(c->error, sizeof c->error, "%s", ws->error);
		tui_message(t, STYLE_ERROR, "%s", ws->error);
	}
}

/* ---- keys ----------------------------------------------------------------------- */

/* The next step (dir 1) or the one before. */
static int key_step(struct tui *t, const struct crt_event *ev, int dir)
{
	(void)ev;
	if (dir > 0 ? metrics.step >= tui_lesson(t)->nsteps : metrics.step <= 1)
		return REACT_NONE;
	show(t, SCREEN_METRICS, metrics.step + dir);
	return REACT_DRAW;
}

static int key_line(struct tui *t, const struct crt_event *ev, int dir)
{
	(void)t;
	(void)ev;
	return tui_scroll(&metrics.top, dir);
}

static int key_screenful(struct tui *t, const struct crt_event *ev, int dir)
{
	struct metrics_layout lo;

	(void)t;
	(void)ev;
	layout_metrics(crt_cols(), crt_rows(), &lo);
	tui_scroll(&metrics.top, dir * (lo.body.h - 1));
	return REACT_DRAW;
}

/* The top, or (end 1) the bottom. */
static int key_ends(struct tui *t, const struct crt_event *ev, int end)
{
	(void)t;
	(void)ev;
	metrics.top = end ? 1 << 20 : 0;
	return REACT_DRAW;
}

static int key_read(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)ev;
	(void)arg;
	read_counters(t);
	return REACT_DRAW;
}

static int key_diff(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)ev;
	(void)arg;
	show(t, SCREEN_DIFF, metrics.step);
	return REACT_DRAW;
}

static int metrics_scroll(struct tui *t, int y, int x, int lines)
{
	(void)t;
	(void)y;
	(void)x;
	tui_scroll(&metrics.top, lines);
	return REACT_DRAW;
}

static const struct key_binding metrics_keys[] = {
	{ "\xe2\x86\x90 \xe2\x86\x92  h l", N_("previous / next step"), "\xe2\x86\x90\xe2\x86\x92", N_("step"),
	  { CRT_KEY_RIGHT, 'l' }, key_step, 1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_LEFT, 'h' }, key_step, -1 },
	{ "\xe2\x86\x91 \xe2\x86\x93  j k", N_("scroll"), NULL, NULL, { CRT_KEY_DOWN, 'j' }, key_line, 1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_UP, 'k' }, key_line, -1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_HOME, 'g' }, key_ends, 0 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_END, 'G' }, key_ends, 1 },
	{ "PgUp PgDn Space", N_("a screenful up / down"), NULL, NULL, { CRT_KEY_PGDN, ' ' }, key_screenful, 1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_PGUP }, key_screenful, -1 },
	{ "r  Enter", N_("read this step's counters on this GPU with Nsight Compute (ncu)"), "r", N_("read"),
	  { 'r', 'R', CRT_KEY_ENTER }, key_read, 0 },
	{ "x  Esc", N_("cancel a reading"), NULL, NULL, { 'x', 'X' }, tui_key_cancel, 0 },
	{ "d", N_("this step's kernel against the previous step's"), "d", N_("diff"), { 'd', 'D' }, key_diff, 0 },
	{ "Esc  Backspace", N_("back"), "Esc", N_("back"), { CRT_KEY_ESC, CRT_KEY_BACKSPACE }, tui_key_back, 0 },
};

/* The recorded counters are read again when it next opens. */
static void metrics_close(struct tui *t)
{
	study_forget_counters(t);
	if (stall_sass.have)
		sass_listing_free(&stall_sass.listing);
	free(stall_sass.text);
	memset(&stall_sass, 0, sizeof stall_sass);
}

const struct screen screen_metrics = {
	.id = SCREEN_METRICS,
	.name = "counters", .place = SCREEN_ASIDE, .open = metrics_open, .close = metrics_close,
	.draw = draw_metrics, .scroll = metrics_scroll, .news = metrics_news,
	.keys = metrics_keys, .nkeys = (int)ARRAY_LEN(metrics_keys),
};

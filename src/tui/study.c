/* The open lesson: its page, size and block, the results shown (live or recorded), and running its steps. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "session.h"
#include "tui/tui_internal.h"

/*
 * Another GPU's recorded results beside the ones shown (o): B, and the
 * recorded results A stands for while this GPU has run nothing.  Kept at
 * the open lesson's size and block.
 */
struct study_other {
	char file[512];			/* B's results file; "": one GPU */
	struct run_report b;		/* its run of the open lesson */
	bool have_b;
	struct run_report a;		/* the newest recorded run, for A when nothing is live */
	bool have_a;
	char why[1024];			/* what is missing, as one sentence for the message line */
};

/* The open lesson, which the lesson, presenter, code, diff and counters screens show. */
struct study {
	int li;				/* index in set.lessons; -1 none */
	int page;			/* 0: introduction, k: step k */
	struct doc_cache doc;		/* its text */
	unsigned long long size;
	unsigned int block;
	struct run_report live;		/* this GPU's results at size and block */
	bool have_live;
	struct run_report rec;		/* recorded ones, for no GPU */
	bool have_rec, rec_tried;
	char rec_error[1024];
	bool revealed[PROGRESS_MAX_STEPS];
	int bars_time;			/* the chart shows times, not GB/s */
	struct study_other other;	/* another GPU beside these (o) */
	int x_li, x;			/* the exercise screen's exercise: x of lesson x_li */
	/* the recorded counters at size and block (the counters screen), read when first asked for */
	struct run_report counters;
	bool have_counters, counters_tried;
	char counters_error[1024];
};

struct study *study_new(void)
{
	struct study *s = xcalloc(1, sizeof *s);

	s->li = -1;
	s->x_li = -1;
	s->doc.lesson = -1;
	s->size = RESULTS_DEFAULT_SIZE;
	s->block = RESULTS_DEFAULT_BLOCK;
	return s;
}

void study_free(struct tui *t)
{
	if (t->study == NULL)
		return;
	markdown_free(&t->study->doc.doc);
	run_report_free(&t->study->live);
	run_report_free(&t->study->rec);
	study_forget_counters(t);
	study_other_off(t);
	free(t->study);
	t->study = NULL;
}

struct lesson *tui_lesson(const struct tui *t)
{
	if (t->study->li < 0 || t->study->li >= t->set.count)
		return NULL;
	return &t->set.lessons[t->study->li];
}

int study_li(const struct tui *t)
{
	return t->study->li;
}

int study_page(const struct tui *t)
{
	return t->study->page;
}

unsigned long long study_size(const struct tui *t)
{
	return t->study->size;
}

unsigned int study_block(const struct tui *t)
{
	return t->study->block;
}

int study_bars_time(const struct tui *t)
{
	return t->study->bars_time;
}

bool study_revealed(const struct tui *t, int k)
{
	return k >= 0 && k < PROGRESS_MAX_STEPS && t->study->revealed[k];
}

const char *study_results_error(const struct tui *t)
{
	return t->study->rec_error;
}

static const char *count_arch(void *ctx, const struct kernel_def *k)
{
	static char buf[16];

	return tui_arch(ctx, k->module, buf, sizeof buf);
}

const struct markdown_doc *study_render(struct tui *t, struct doc_cache *c, int lesson, int width)
{
	if (c->lesson != lesson || c->width != width || c->block != study_block(t) ||
	    c->gpu != (int)tui_gpu(t) || c->doc.lines == NULL) {
		struct markdown_counts counts = { study_block(t), count_arch, t };

		markdown_free(&c->doc);
		c->lesson = lesson;
		c->width = width;
		c->block = study_block(t);
		c->gpu = (int)tui_gpu(t);
		if (lesson >= 0 && lesson < t->set.count)
			markdown_render(&t->set.lessons[lesson], width, t->unicode, &counts, &c->doc);
	}
	return &c->doc;
}


const struct markdown_doc *study_doc(struct tui *t, int width)
{
	return study_render(t, &t->study->doc, t->study->li, width);
}

void study_set_exercise(struct tui *t, int x)
{
	t->study->x_li = t->study->li;
	t->study->x = x;
}

int study_exercise(const struct tui *t)
{
	const struct study *s = t->study;
	const struct lesson *l = tui_lesson(t);

	return l != NULL && s->x_li == s->li && s->x >= 0 && s->x < l->nexercises ? s->x : -1;
}

/* Where the student is, for the next start: a step's page, or an exercise's. */
void study_keep_position(struct tui *t)
{
	const struct lesson *l = tui_lesson(t);
	int x = tui_on_stack(t, SCREEN_EXERCISE) ? study_exercise(t) : -1;

	if (l == NULL)
		return;
	if (x >= 0)
		progress_set_exercise_page(&t->prog, l->id, t->study->page, l->exercises[x].id);
	else
		progress_set_position(&t->prog, l->id, t->study->page);
}

void study_save(struct tui *t)
{
	struct error e;

	study_keep_position(t);
	if (progress_save(&t->prog, &e) != 0)
		tui_message(t, STYLE_ERROR, _("Progress cannot be saved: %s"), e.msg);
}

/* ---- results ---------------------------------------------------------------- */

void study_shown(const struct tui *t, struct session_shown *out)
{
	const struct study *s = t->study;
	enum session_gpu gpu = tui_gpu(t);

	session_choose(&(struct session_have){
		.gpu = gpu,
		.no_gpu = gpu == SESSION_GPU_ABSENT ? t->ws.reason : NULL,
		.live = s->have_live ? &s->live : NULL,
		.recorded = s->have_rec ? &s->rec : NULL,
		.recorded_error = s->rec_error,
	}, out);
}

const struct run_report *study_report(const struct tui *t)
{
	struct session_shown c;

	study_shown(t, &c);
	return c.report;
}

enum session_source study_source(const struct tui *t)
{
	struct session_shown c;

	study_shown(t, &c);
	return c.source;
}

const struct run_report *study_counters(struct tui *t, const char **error)
{
	struct study *s = t->study;
	const struct lesson *l = tui_lesson(t);
	struct error e;

	if (!s->counters_tried && l != NULL) {
		s->counters_tried = true;
		if (session_recorded_counters(NULL, l, s->size, s->block, &s->counters, &e) == 0)
			s->have_counters = true;
		else
			snprintf(s->counters_error, sizeof s->counters_error, "%s", e.msg);
	}
	*error = s->counters_error;
	return s->have_counters ? &s->counters : NULL;
}

void study_forget_counters(struct tui *t)
{
	run_report_free(&t->study->counters);
	t->study->have_counters = t->study->counters_tried = false;
	t->study->counters_error[0] = '\0';
}

static int step_index(const struct run_report *r, const struct lesson *l, int k)
{
	const char *name = l->steps[k].kernel->name;
	const struct step_result *s;

	if (k < r->nsteps && strcmp(r->steps[k].kernel, name) == 0)
		return k;
	s = results_step_of(r, name);
	return s != NULL ? (int)(s - r->steps) : -1;
}

const struct step_result *study_result(const struct tui *t, const struct run_report *r, int k)
{
	const struct lesson *l = tui_lesson(t);
	const struct step_result *s;
	int i;

	if (r == NULL || l == NULL || k < 0 || k >= l->nsteps || (i = step_index(r, l, k)) < 0)
		return NULL;
	s = &r->steps[i];
	if (r->recorded)
		return k < PROGRESS_MAX_STEPS && t->study->revealed[k] ? s : NULL;
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

	return l != NULL && strcmp(r->lesson, l->id) == 0 && r->size == t->study->size && r->block == t->study->block;
}

static void other_load(struct tui *t);

/* The results shown, taken again: live from the progress file, or recorded where steps were shown. */
static void reload_results(struct tui *t)
{
	const struct lesson *l = tui_lesson(t);
	struct error e;

	run_report_free(&t->study->live);
	run_report_free(&t->study->rec);
	t->study->have_live = t->study->have_rec = t->study->rec_tried = false;
	t->study->rec_error[0] = '\0';
	study_forget_counters(t);
	if (l == NULL)
		return;
	if (tui_gpu(t) == SESSION_GPU_READY) {
		const struct run_report *saved = progress_find_report(&t->prog, l->id, t->ws.desc.name,
		    t->study->size, t->study->block);
		if (saved != NULL && report_fits(saved, l)) {
			t->study->live = *saved;
			t->study->live.steps = xcalloc((size_t)saved->nsteps + 1, sizeof *saved->steps);
			memcpy(t->study->live.steps, saved->steps, (size_t)saved->nsteps * sizeof *saved->steps);
			t->study->have_live = true;
		}
		return;
	}
	if (tui_gpu(t) == SESSION_GPU_ABSENT) {
		int any = 0;
		for (int k = 0; k < l->nsteps && k < PROGRESS_MAX_STEPS; k++)
			any |= t->study->revealed[k];
		if (!any)
			return;
		/* Steps shown before stay shown, at the new size or block when recorded there. */
		t->study->rec_tried = true;
		if (session_recorded(NULL, l, t->study->size, t->study->block, &t->study->rec, &e) == 0)
			t->study->have_rec = true;
		else
			snprintf(t->study->rec_error, sizeof t->study->rec_error, "%s", e.msg);
	}
}

void study_reload(struct tui *t)
{
	reload_results(t);
	other_load(t);
}

/* ---- opening, moving ---------------------------------------------------------- */

void study_open(struct tui *t, int li, int page)
{
	const struct lesson *l;

	if (li < 0 || li >= t->set.count || t->set.lessons[li].error != NULL)
		return;
	if (li != t->study->li) {
		t->study->li = li;
		memset(t->study->revealed, 0, sizeof t->study->revealed);
		/* another lesson starts with one GPU: the other may not have recorded it */
		study_other_off(t);
		l = tui_lesson(t);
		/* What the lesson runs and was recorded at: a matrix lesson's size is its side. */
		t->study->size = session_default_size(l);
		t->study->block = session_default_block(l);
		/* Steps shown before (progress) are shown again. */
		for (int k = 0; k < l->nsteps && k < PROGRESS_MAX_STEPS; k++)
			t->study->revealed[k] = progress_is_done(&t->prog, l->id, k + 1);
		study_reload(t);
		tui_tell(t, TUI_NEWS_LESSON);
	}
	study_set_page(t, page);
}

void study_set_page(struct tui *t, int page)
{
	const struct lesson *l = tui_lesson(t);

	if (l == NULL)
		return;
	if (page < 0)
		page = 0;
	if (page > l->nsteps)
		page = l->nsteps;
	t->study->page = page;
	progress_set_position(&t->prog, l->id, page);
	tui_tell(t, TUI_NEWS_PAGE);
}

/* A page of the lesson: step page `page`, or with x >= 0 the page of exercise x. */
struct place {
	int page;
	int x;
};

/* The lesson's pages in order; the caller frees *out. */
static int places(const struct lesson *l, struct place **out)
{
	int n = 0;

	*out = xcalloc((size_t)(l->nsteps + l->nexercises + 1), sizeof **out);
	(*out)[n++] = (struct place){ 0, -1 };
	for (int k = 0; k <= l->nsteps; k++) {
		for (int x = 0; x < l->nexercises; x++)
			if (l->exercises[x].before_step == k)
				(*out)[n++] = (struct place){ k < l->nsteps ? k + 1 : l->nsteps, x };
		if (k < l->nsteps)
			(*out)[n++] = (struct place){ k + 1, -1 };
	}
	return n;
}

/* Where the page shown is among them. */
static int place_of(const struct tui *t, const struct place *p, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (x >= 0 ? p[i].x == x : p[i].x < 0 && p[i].page == t->study->page)
			return i;
	return 0;
}

int study_turn(struct tui *t, int x, int dir)
{
	const struct lesson *l = tui_lesson(t);
	struct place *p, to;
	int n, i;

	if (l == NULL)
		return REACT_NONE;
	n = places(l, &p);
	i = place_of(t, p, n, x) + dir;
	if (i < 0 || i >= n) {
		free(p);
		return REACT_NONE;
	}
	to = p[i];
	free(p);
	if (to.x >= 0)
		return tui_switch(t, SCREEN_EXERCISE, &(struct screen_arg){ to.page, CODE_SASS, to.x + 1 });
	study_set_page(t, to.page);
	if (tui_screen(t)->id != SCREEN_LESSON)
		tui_switch(t, SCREEN_LESSON, NULL);
	return REACT_DRAW;
}

const char *study_next_title(const struct tui *t, int x)
{
	const struct lesson *l = tui_lesson(t);
	const char *title = NULL;
	struct place *p;
	int n, i;

	if (l == NULL)
		return NULL;
	n = places(l, &p);
	i = place_of(t, p, n, x) + 1;
	if (i < n)
		title = p[i].x >= 0 ? l->exercises[p[i].x].title : l->steps[p[i].page - 1].title;
	free(p);
	return title;
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
	struct session_shown c;
	struct error e;

	if (!t->study->rec_tried) {
		t->study->rec_tried = true;
		if (session_recorded(NULL, l, t->study->size, t->study->block, &t->study->rec, &e) == 0)
			t->study->have_rec = true;
		else
			snprintf(t->study->rec_error, sizeof t->study->rec_error, "%s", e.msg);
	}
	if (!t->study->have_rec) {
		tui_message(t, STYLE_ERROR, _("No GPU, and nothing recorded to show: %s"), t->study->rec_error);
		return;
	}
	for (int k = first; k <= last && k < PROGRESS_MAX_STEPS; k++)
		t->study->revealed[k] = true;
	mark_done(t, l, first, last);
	study_save(t);
	study_shown(t, &c);
	/* one line at 80 columns: the results' title says the rest */
	tui_message(t, STYLE_MESSAGE, _("Recorded on %s, %.10s (%s)"),
	    tui_gpu_short(t->study->rec.gpu.name), t->study->rec.recorded_date,
	    c.note.msg[0] != '\0' ? c.note.msg : _("no GPU"));
}

void study_run(struct tui *t, int first, int last)
{
	const struct lesson *l = tui_lesson(t);
	struct worker_job job;
	char why[256];

	if (l == NULL)
		return;
	if (t->ws.busy) {
		tui_say_busy(t);
		return;
	}
	if (first == last) {
		if (session_step_unfit(l, first, t->study->size, t->study->block, why, sizeof why) != NULL) {
			/* TRANSLATORS: the second and third %s are keys, e.g. "[" and "]" */
			tui_message(t, STYLE_ERROR, _("%s: %s and %s change the block size"), why,
			    tui_key(t, study_key_block, -1), tui_key(t, study_key_block, 1));
			return;
		}
	}
	if (tui_gpu(t) == SESSION_GPU_ABSENT || t->worker == NULL) {
		run_recorded(t, first, last);
		return;
	}
	memset(&job, 0, sizeof job);
	job.kind = WORKER_RUN;
	job.lesson = l;
	job.first = first;
	job.last = last;
	job.size = t->study->size;
	job.block = t->study->block;
	job.resume = t->study->have_live && report_fits(&t->study->live, l) ? &t->study->live : NULL;
	if (worker_submit(t->worker, &job) != 0) {
		tui_say_busy(t);
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

void study_news(struct tui *t, const struct worker_state *old, struct run_report *fresh,
    int have_fresh)
{
	const struct worker_state *ws = &t->ws;
	const struct lesson *l = tui_lesson(t);
	int save = 0;

	if (old->gpu == SESSION_GPU_UNKNOWN && tui_gpu(t) != SESSION_GPU_UNKNOWN)
		study_reload(t);
	if (have_fresh) {
		progress_put_report(&t->prog, fresh);
		for (int i = 0; i < fresh->nsteps; i++)
			if (fresh->steps[i].ran)
				progress_mark_done(&t->prog, fresh->lesson, fresh->steps[i].step);
		if (lesson_matches(t, fresh)) {
			run_report_free(&t->study->live);
			t->study->live = *fresh;
			fresh->steps = NULL;
			fresh->nsteps = 0;
			t->study->have_live = true;
		}
		save = 1;
	}
	/* The counters screen hears of its own jobs (TUI_NEWS_JOB_DONE). */
	if (ws->finished && ws->job.kind == WORKER_RUN) {
		const struct lesson *jl = ws->job.lesson;

		if (ws->no_gpu && jl == l && l != NULL) {
			run_recorded(t, ws->job.first, ws->job.last);
		} else if (ws->error[0] != '\0') {
			tui_message(t, STYLE_ERROR, _("The run could not start: %s"), ws->error);
		} else if (ws->cancelled) {
			tui_message(t, STYLE_MESSAGE, "%s", _("Cancelled; the results so far are kept."));
		} else if (jl == l && l != NULL && t->study->have_live) {
			const struct step_result *s = study_result(t, &t->study->live, ws->job.last);
			if (s != NULL)
				step_summary(t, s);
		}
	}
	if (save)
		study_save(t);
}

/* ---- parameters --------------------------------------------------------------- */

const char *study_params_at(const struct tui *t, unsigned long long size, unsigned int block, char *buf,
    size_t len)
{
	char count[32];

	results_count(size, count, sizeof count);
	if (session_block_per_kernel(tui_lesson(t)))
		snprintf(buf, len, _("size %s, block per kernel"), count);
	else
		snprintf(buf, len, _("size %s, block %u"), count, block);
	return buf;
}

const char *study_params(const struct tui *t, char *buf, size_t len)
{
	return study_params_at(t, t->study->size, t->study->block, buf, len);
}

static int busy_refuses(struct tui *t)
{
	if (!t->ws.busy)
		return 0;
	tui_say_busy(t);
	return 1;
}

/* The smallest size + and - go to: a few warps' worth, or a small matrix. */
#define SIZE_LEAST 256ULL

static void change_size(struct tui *t, int dir)
{
	const struct lesson *l = tui_lesson(t);
	unsigned long long s, top;
	char a[32], b[32], c[32];

	if (l == NULL || busy_refuses(t))
		return;
	top = session_max_size(l);
	s = dir > 0 ? t->study->size * 2 : t->study->size / 2;
	if (s < SIZE_LEAST || s > top) {
		tui_message(t, STYLE_MESSAGE, _("The size goes from %s to %s, doubling or halving."),
		    results_count(SIZE_LEAST, a, sizeof a), results_count(top, b, sizeof b));
		return;
	}
	t->study->size = s;
	study_reload(t);
	/* TRANSLATORS: the last %s is a key, e.g. "r" */
	tui_message(t, STYLE_MESSAGE, _("Size %s (%s to %s): %s runs the step at this size."),
	    results_count(s, c, sizeof c), results_count(SIZE_LEAST, a, sizeof a), results_count(top, b, sizeof b),
	    tui_key(t, study_key_run, 0));
	if (tui_gpu(t) == SESSION_GPU_ABSENT && t->study->rec_error[0] != '\0')
		tui_message(t, STYLE_MESSAGE, "%s", t->study->rec_error);
	else if (t->study->other.why[0] != '\0')
		tui_message(t, STYLE_MESSAGE, "%s", t->study->other.why);
}

/* The block sizes k takes, among 32, 64, ... 1024. */
static int block_choices(const struct lesson *l, int i, unsigned int *out)
{
	char why[256];
	int n = 0;

	/* At the least size, only the block is in question. */
	for (unsigned int b = 32; b <= 1024; b *= 2)
		if (session_step_unfit(l, i, 1, b, why, sizeof why) == NULL)
			out[n++] = b;
	return n;
}

static void change_block(struct tui *t, int dir)
{
	const struct lesson *l = tui_lesson(t);
	const struct kernel_def *k;
	unsigned int choices[16], b = t->study->block;
	int n, i;
	char allowed[128] = "";

	if (l == NULL || busy_refuses(t))
		return;
	k = l->steps[t->study->page > 0 ? t->study->page - 1 : 0].kernel;
	n = block_choices(l, t->study->page > 0 ? t->study->page - 1 : 0, choices);
	for (i = 0; i < n; i++)
		snprintf(allowed + strlen(allowed), sizeof allowed - strlen(allowed), "%s%u",
		    i ? " " : "", choices[i]);
	if (dir > 0) {
		for (i = 0; i < n && choices[i] <= t->study->block; i++)
			;
		if (i < n)
			b = choices[i];
	} else {
		for (i = n - 1; i >= 0 && choices[i] >= t->study->block; i--)
			;
		if (i >= 0)
			b = choices[i];
	}
	if (b == t->study->block) {
		tui_message(t, STYLE_MESSAGE, _("%s takes blocks of %s threads."), k->name, allowed);
		return;
	}
	t->study->block = b;
	study_reload(t);
	/* TRANSLATORS: the last %s is a key, e.g. "r" */
	tui_message(t, STYLE_MESSAGE, _("Block %u (%s takes %s): %s runs the step with it."), b, k->name,
	    allowed, tui_key(t, study_key_run, 0));
	if (tui_gpu(t) == SESSION_GPU_ABSENT && t->study->rec_error[0] != '\0')
		tui_message(t, STYLE_MESSAGE, "%s", t->study->rec_error);
	else if (t->study->other.why[0] != '\0')
		tui_message(t, STYLE_MESSAGE, "%s", t->study->other.why);
}

/* ---- another GPU beside these --------------------------------------------------- */

/* What A stands for: this GPU's results when it has run any, else the newest recorded. */
static const struct run_report *other_base(const struct tui *t)
{
	if (tui_gpu(t) == SESSION_GPU_READY && t->study->have_live)
		return &t->study->live;
	return t->study->other.have_a ? &t->study->other.a : NULL;
}

/* other_base, reading the recorded results when there are no live ones: NULL and e when none. */
static const struct run_report *other_base_load(struct tui *t, struct error *e)
{
	const struct lesson *l = tui_lesson(t);

	error_clear(e);
	if (other_base(t) == NULL && l != NULL &&
	    session_recorded(NULL, l, t->study->size, t->study->block, &t->study->other.a, e) == 0)
		t->study->other.have_a = true;
	return other_base(t);
}

bool study_comparison(const struct tui *t, const struct run_report **a, const struct run_report **b)
{
	*a = other_base(t);
	*b = &t->study->other.b;
	return t->study->other.file[0] != '\0' && t->study->other.have_b && *a != NULL;
}

static void other_free(struct tui *t)
{
	run_report_free(&t->study->other.a);
	run_report_free(&t->study->other.b);
	t->study->other.have_a = t->study->other.have_b = false;
	t->study->other.why[0] = '\0';
}

void study_other_off(struct tui *t)
{
	other_free(t);
	t->study->other.file[0] = '\0';
}

/*
 * Why B's file gives no run of the lesson, in one sentence: the GPU it
 * was recorded on has none at this size and block, or the file cannot be
 * read (its own message says where).
 */
static void other_missing(struct tui *t, const struct lesson *l)
{
	struct results_file f;
	struct error e;
	char params[128];

	if (results_file_load(t->study->other.file, &f, &e) != 0) {
		snprintf(t->study->other.why, sizeof t->study->other.why, "%s", e.msg);
		return;
	}
	snprintf(t->study->other.why, sizeof t->study->other.why,
	    _("The results recorded on %s have no run of %s at %s, so the table shows one GPU."),
	    tui_gpu_short(f.gpu.name), l->id, study_params(t, params, sizeof params));
	results_file_free(&f);
}

/* A's and B's runs of the open lesson at its size and block, again; why says what is missing. */
static void other_load(struct tui *t)
{
	const struct lesson *l = tui_lesson(t);
	struct error e;

	other_free(t);
	if (l == NULL || t->study->other.file[0] == '\0')
		return;
	if (other_base_load(t, &e) == NULL) {
		snprintf(t->study->other.why, sizeof t->study->other.why, _("Nothing to put beside another GPU's results: %s"),
		    e.msg);
		return;
	}
	if (session_recorded(t->study->other.file, l, t->study->size, t->study->block, &t->study->other.b, &e) == 0)
		t->study->other.have_b = true;
	else
		other_missing(t, l);
}

/* ---- the keys of the lesson and presenter screens ---------------------------- */

int study_key_page(struct tui *t, const struct crt_event *ev, int dir)
{
	const struct lesson *l = tui_lesson(t);

	(void)ev;
	if (dir > 0 ? t->study->page >= l->nsteps : t->study->page == 0)
		return REACT_NONE;
	study_set_page(t, t->study->page + dir);
	return REACT_DRAW;
}

int study_key_run(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)ev;
	(void)arg;
	if (t->study->page == 0)
		study_set_page(t, 1);
	study_run(t, t->study->page - 1, t->study->page - 1);
	return REACT_DRAW;
}

int study_key_run_all(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)ev;
	(void)arg;
	study_run(t, 0, tui_lesson(t)->nsteps - 1);
	return REACT_DRAW;
}

/* The step the page is about: the first on the introduction. */
static int page_step(const struct tui *t)
{
	return t->study->page > 0 ? t->study->page : 1;
}

int study_key_code(struct tui *t, const struct crt_event *ev, int kind)
{
	(void)ev;
	tui_switch(t, SCREEN_CODE, &(struct screen_arg){ page_step(t), (enum code_kind)kind, 0 });
	return REACT_DRAW;
}

int study_key_diff(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)ev;
	(void)arg;
	/* The introduction's diff is the first that there is: steps 1 and 2. */
	tui_switch(t, SCREEN_DIFF, &(struct screen_arg){ t->study->page > 0 ? t->study->page : 2, CODE_SASS, 0 });
	return REACT_DRAW;
}

int study_key_counters(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)ev;
	(void)arg;
	tui_switch(t, SCREEN_METRICS, &(struct screen_arg){ page_step(t), CODE_SASS, 0 });
	return REACT_DRAW;
}

int study_key_size(struct tui *t, const struct crt_event *ev, int dir)
{
	(void)ev;
	change_size(t, dir);
	return REACT_DRAW;
}

int study_key_block(struct tui *t, const struct crt_event *ev, int dir)
{
	(void)ev;
	change_block(t, dir);
	return REACT_DRAW;
}

int study_key_bars(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)ev;
	(void)arg;
	t->study->bars_time = !t->study->bars_time;
	return REACT_DRAW;
}

int study_key_aside(struct tui *t, const struct crt_event *ev, int screen)
{
	(void)ev;
	tui_switch(t, (enum screen_id)screen, &(struct screen_arg){ 0 });
	return REACT_DRAW;
}

/*
 * The recorded files in turn, each but A's own: one GPU, then each other
 * GPU beside it, then one GPU again.  A file without this lesson at this
 * size still takes its turn, and says so: o then goes on to the next.
 */
int study_key_other(struct tui *t, const struct crt_event *ev, int arg)
{
	const struct lesson *l = tui_lesson(t);
	const struct run_report *a;
	char next[sizeof t->study->other.file];
	bool was_on = t->study->other.file[0] != '\0';
	struct error e;

	(void)ev;
	(void)arg;
	if (l == NULL)
		return REACT_NONE;
	if ((a = other_base_load(t, &e)) == NULL) {
		tui_message(t, STYLE_ERROR, _("Nothing to put beside another GPU's results: %s"), e.msg);
		return REACT_DRAW;
	}
	if (results_next_file(t->study->other.file, a->recorded ? a->recorded_file : NULL, next, sizeof next,
	    &e) != 0) {
		study_other_off(t);
		if (e.msg[0] != '\0')
			tui_message(t, STYLE_ERROR, "%s", e.msg);
		else if (!was_on)
			tui_message(t, STYLE_MESSAGE, "%s", _("No other GPU's results are recorded: 'cudatutor "
			    "record' on another GPU adds them to data/results."));
		else
			/* TRANSLATORS: %s is a key, e.g. "o" */
			tui_message(t, STYLE_MESSAGE, _("One GPU again: %s puts another GPU's recorded "
			    "results beside these."), tui_key(t, study_key_other, 0));
		return REACT_DRAW;
	}
	snprintf(t->study->other.file, sizeof t->study->other.file, "%s", next);
	other_load(t);
	if (t->study->other.have_b)
		tui_message(t, STYLE_MESSAGE, _("B: %s, recorded %.10s; B vs A: how many times as fast B ran "
		    "each step."), tui_gpu_short(t->study->other.b.gpu.name), t->study->other.b.recorded_date);
	else
		tui_message(t, STYLE_MESSAGE, "%s", t->study->other.why);
	return REACT_DRAW;
}

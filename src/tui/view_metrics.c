/* The counters view: a step's hardware counters, live or recorded, and for a stride its bank picture. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "i18n.h"
#include "registry.h"
#include "runner.h"
#include "tui/tui_internal.h"

static const struct key_help metrics_keys[] = {
	{ "\xe2\x86\x90 \xe2\x86\x92  h l", N_("previous / next step"), "\xe2\x86\x90\xe2\x86\x92", N_("step"),
	  CRT_KEY_RIGHT },
	{ "\xe2\x86\x91 \xe2\x86\x93  j k", N_("scroll"), NULL, NULL, 0 },
	{ "PgUp PgDn Space", N_("a screenful up / down"), NULL, NULL, 0 },
	{ "r  Enter", N_("read this step's counters on this GPU with Nsight Compute (ncu)"), "r", N_("read"), 'r' },
	{ "x  Esc", N_("cancel a reading"), NULL, NULL, 0 },
	{ "d", N_("this step's kernel against the previous step's"), "d", N_("diff"), 'd' },
	{ "Esc  Backspace", N_("back"), "Esc", N_("back"), CRT_KEY_ESC },
};

void view_metrics_free(struct tui *t)
{
	run_report_free(&t->mrec);
	t->have_mrec = false;
	t->mrec_li = -1;
}

static int has_counters(const struct run_report *r)
{
	for (int i = 0; i < r->nsteps; i++)
		if (r->steps[i].metrics.collected)
			return 1;
	return 0;
}

/*
 * The recorded counters of the open lesson: at its size and block, else
 * at its first size, where `cudatutor record` reads them.
 */
static void load_recorded(struct tui *t)
{
	const struct lesson *l = tui_lesson(t);
	struct error e, e2;

	if (t->mrec_li == t->li && t->mrec_size == t->size && t->mrec_block == t->block)
		return;
	view_metrics_free(t);
	t->mrec_li = t->li;
	t->mrec_size = t->size;
	t->mrec_block = t->block;
	t->mrec_error[0] = '\0';
	memset(&t->mrec, 0, sizeof t->mrec);
	if (results_find_recorded(NULL, l->id, t->size, t->block, &t->mrec, &e) == 0) {
		if (has_counters(&t->mrec)) {
			t->have_mrec = true;
			return;
		}
		snprintf(e.msg, sizeof e.msg, _("the results recorded on %s on %.10s hold no counters for lesson '%s' "
		    "(record them on a GPU with 'cudatutor record')"), t->mrec.gpu.name, t->mrec.recorded_date, l->id);
		run_report_free(&t->mrec);
	}
	memset(&t->mrec, 0, sizeof t->mrec);
	if (results_find_recorded(NULL, l->id, runner_default_size(l), runner_default_block(l), &t->mrec, &e2) == 0) {
		if (has_counters(&t->mrec)) {
			t->have_mrec = true;
			return;
		}
		run_report_free(&t->mrec);
	}
	memset(&t->mrec, 0, sizeof t->mrec);
	snprintf(t->mrec_error, sizeof t->mrec_error, "%s", e.msg);
}

/* The counters read on this GPU for step k of the open lesson at its size and block, or NULL. */
static struct live_counters *live_of(struct tui *t, int k)
{
	struct live_counters *c;

	if (k < 0 || k >= PROGRESS_MAX_STEPS)
		return NULL;
	c = &t->counters[k];
	if (c->li != t->li || c->size != t->size || c->block != t->block || (!c->have && c->error[0] == '\0'))
		return NULL;
	return c;
}

/* What to show for step k: counters (live first, else recorded), and where they come from. */
struct shown {
	const struct step_metrics *m;
	int live;
	const struct run_report *rec;		/* when recorded */
	const char *live_error;			/* the last reading on this GPU failed */
	const char *none;			/* no counters: why */
};

static void what_to_show(struct tui *t, int k, struct shown *s)
{
	const struct lesson *l = tui_lesson(t);
	const struct kernel_def *kd = l->steps[k].kernel;
	struct live_counters *c = live_of(t, k);

	memset(s, 0, sizeof *s);
	if (c != NULL && c->error[0] != '\0')
		s->live_error = c->error;
	if (c != NULL && c->have) {
		s->m = &c->m;
		s->live = 1;
		return;
	}
	if (kd->flags & KF_LIBRARY) {
		s->none = _("counters are read for the tutor's own kernels, not for library calls");
		return;
	}
	load_recorded(t);
	if (t->have_mrec) {
		for (int i = 0; i < t->mrec.nsteps; i++)
			if (strcmp(t->mrec.steps[i].kernel, kd->name) == 0) {
				const struct step_result *r = &t->mrec.steps[i];
				if (r->metrics.collected) {
					s->m = &r->metrics;
					s->rec = &t->mrec;
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
	s->none = t->mrec_error[0] != '\0' ? t->mrec_error : _("no counters recorded for this lesson");
}

void view_metrics_open(struct tui *t, int step)
{
	const struct lesson *l = tui_lesson(t);

	if (l == NULL)
		return;
	if (step < 1)
		step = 1;
	if (step > l->nsteps)
		step = l->nsteps;
	tui_open_aside(t, &screen_metrics);
	if (step != t->metrics_step)
		t->metrics_top = 0;
	t->metrics_step = step;
	view_lesson_set_page(t, step);
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

/* Everything below the title, as one scrolling column. */
static void body(struct tui *t, const struct shown *s, int width, int height, struct pane *out)
{
	const struct lesson *l = tui_lesson(t);
	const struct kernel_def *kd = l->steps[t->metrics_step - 1].kernel;
	struct banks_access banks;
	struct pane part;
	char buf[1024];

	memset(out, 0, sizeof *out);
	if (s->live_error != NULL) {
		snprintf(buf, sizeof buf, _("Reading the counters on this GPU failed: %s"), s->live_error);
		add_wrapped(out, buf, STYLE_BAD, width);
		blank(out);
	}
	if (banks_of_kernel(kd->name, &banks) == 0) {
		const char *none = t->ws.gpu == WORKER_GPU_READY ?
		    _("no counters for this step yet: r reads them on this GPU") :
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
		pane_counters(s->m, width, t->unicode, &part);
		append(out, &part);
		return;
	}
	add_wrapped(out, _("No counters for this step."), STYLE_STRONG, width);
	if (s->none != NULL)
		add_wrapped(out, s->none, STYLE_NORMAL, width);
	blank(out);
	if (t->ws.gpu == WORKER_GPU_READY && !(kd->flags & KF_LIBRARY))
		add_wrapped(out, _("r reads them on this GPU: Nsight Compute (ncu) runs this step as a child and "
		    "replays its kernel once per group of counters, which takes seconds."), STYLE_DIM, width);
	else if (!(kd->flags & KF_LIBRARY))
		add_wrapped(out, _("On a machine with an NVIDIA GPU and Nsight Compute, r reads them there; "
		    "'cudatutor record' keeps them with the results."), STYLE_DIM, width);
}

static void draw_title(struct tui *t, const struct metrics_layout *lo, const struct shown *s)
{
	int cols = crt_cols(), y = lo->title.y, x = 1;
	char buf[512], count[32];

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
		snprintf(buf, sizeof buf, _(" size %s, block %u "), cli_count(s->rec->size, count, sizeof count),
		    s->rec->block);
	else
		snprintf(buf, sizeof buf, _(" size %s, block %u "), cli_count(t->size, count, sizeof count), t->block);
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
	char where[512];
	int x;

	if (t->metrics_step < 1 || t->metrics_step > l->nsteps)
		t->metrics_step = 1;
	kd = l->steps[t->metrics_step - 1].kernel;
	layout_metrics(crt_cols(), crt_rows(), &lo);
	snprintf(where, sizeof where, _("%s %s step %d/%d: %s"), l->id, t->unicode ? "\xc2\xb7" : "-",
	    t->metrics_step, l->nsteps, l->steps[t->metrics_step - 1].title);
	tui_draw_header(t, where);
	what_to_show(t, t->metrics_step - 1, &s);
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
	t->metrics_top = layout_scroll_clamp(t->metrics_top, lo.body.h, p.n);
	for (int row = 0; row < lo.body.h && t->metrics_top + row < p.n; row++) {
		const struct layout_line *ln = &p.lines[t->metrics_top + row];
		int used = 0;
		for (int k = 0; k < ln->nspans && used < lo.body.w; k++)
			used += crt_text(lo.body.y + row, lo.body.x + used, lo.body.w - used, ln->spans[k].style,
			    ln->spans[k].text);
	}
	if (p.n > lo.body.h) {
		if (t->metrics_top > 0)
			crt_text(lo.body.y, crt_cols() - 1, 1, STYLE_DIM, t->unicode ? "\xe2\x86\x91" : "^");
		if (t->metrics_top + lo.body.h < p.n)
			crt_text(lo.body.y + lo.body.h - 1, crt_cols() - 1, 1, STYLE_DIM, t->unicode ? "\xe2\x86\x93" : "v");
	}
	pane_free(&p);
	tui_draw_status(t, lo.status.y, t->ws.gpu == WORKER_GPU_READY ?
	    _("r reads this step's counters on this GPU; 'cudatutor metrics --explain' says what each one means.") :
	    _("Counters recorded on a real GPU; 'cudatutor metrics --explain' says what each one means."));
	tui_draw_footer(t, lo.footer.y, &screen_metrics);
}

/* ---- reading on this GPU ---------------------------------------------------------- */

static void read_counters(struct tui *t)
{
	const struct lesson *l = tui_lesson(t);
	const struct kernel_def *k = l->steps[t->metrics_step - 1].kernel;
	struct worker_job job;
	char why[256];

	if (t->ws.busy) {
		tui_message(t, STYLE_MESSAGE, "%s", _("A run is going on: wait for it, or press x to cancel it."));
		return;
	}
	if (t->ws.gpu == WORKER_GPU_UNKNOWN) {
		tui_message(t, STYLE_MESSAGE, "%s", _("Still looking for the GPU: try again in a moment."));
		return;
	}
	if (t->ws.gpu == WORKER_GPU_ABSENT || t->worker == NULL) {
		tui_message(t, STYLE_MESSAGE, _("No GPU here (%s): the counters shown are recorded ones."),
		    t->ws.reason);
		return;
	}
	if (k->flags & KF_LIBRARY) {
		tui_message(t, STYLE_MESSAGE, "%s",
		    _("Counters are read for the tutor's own kernels, not for library calls."));
		return;
	}
	if (registry_check_block(k, t->block, why, sizeof why) != NULL) {
		tui_message(t, STYLE_ERROR, _("%s: [ and ] change the block size"), why);
		return;
	}
	memset(&job, 0, sizeof job);
	job.kind = WORKER_COUNTERS;
	job.lesson = l;
	job.first = job.last = t->metrics_step - 1;
	job.size = t->size;
	job.block = t->block;
	if (worker_submit(t->worker, &job) != 0) {
		tui_message(t, STYLE_MESSAGE, "%s", _("A run is going on: wait for it, or press x to cancel it."));
		return;
	}
	t->ws.busy = 1;
	t->ws.job = job;
	t->ws.step = job.first;
	t->ws.done = t->ws.total = 0;
}

void view_metrics_news(struct tui *t)
{
	const struct worker_state *ws = &t->ws;
	const struct lesson *jl = ws->job.lesson;
	int k = ws->job.first, li;
	struct live_counters *c;

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
	c = &t->counters[k];
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

static int metrics_key(struct tui *t, const struct crt_event *ev)
{
	const struct lesson *l = tui_lesson(t);
	struct metrics_layout lo;

	layout_metrics(crt_cols(), crt_rows(), &lo);
	if ((ev->key == 'x' || ev->key == 'X' || ev->key == CRT_KEY_ESC) && t->ws.busy) {
		worker_cancel(t->worker);
		tui_message(t, STYLE_MESSAGE, "%s", _("Cancelling..."));
		return REACT_DRAW;
	}
	switch (ev->key) {
	case CRT_KEY_RIGHT:
	case 'l':
		if (t->metrics_step >= l->nsteps)
			return REACT_NONE;
		view_metrics_open(t, t->metrics_step + 1);
		return REACT_DRAW;
	case CRT_KEY_LEFT:
	case 'h':
		if (t->metrics_step <= 1)
			return REACT_NONE;
		view_metrics_open(t, t->metrics_step - 1);
		return REACT_DRAW;
	case CRT_KEY_DOWN:
	case 'j':
		t->metrics_top++;
		return REACT_DRAW;
	case CRT_KEY_UP:
	case 'k':
		if (t->metrics_top == 0)
			return REACT_NONE;
		t->metrics_top--;
		return REACT_DRAW;
	case CRT_KEY_PGDN:
	case ' ':
		t->metrics_top += lo.body.h - 1;
		return REACT_DRAW;
	case CRT_KEY_PGUP:
		t->metrics_top -= lo.body.h - 1;
		if (t->metrics_top < 0)
			t->metrics_top = 0;
		return REACT_DRAW;
	case CRT_KEY_HOME:
	case 'g':
		t->metrics_top = 0;
		return REACT_DRAW;
	case CRT_KEY_END:
	case 'G':
		t->metrics_top = 1 << 20;
		return REACT_DRAW;
	case 'r':
	case 'R':
	case CRT_KEY_ENTER:
		read_counters(t);
		return REACT_DRAW;
	case 'd':
	case 'D':
		view_diff_open(t, t->metrics_step);
		return REACT_DRAW;
	case CRT_KEY_MOUSE:
		return tui_wheel_scroll(ev, &t->metrics_top) ? REACT_DRAW : REACT_NONE;
	case CRT_KEY_ESC:
	case CRT_KEY_BACKSPACE:
		tui_close_aside(t);
		return REACT_DRAW;
	case 'P':
	case CRT_KEY_F(5):
		t->screen = &screen_present;
		return REACT_DRAW;
	default:
		return REACT_NONE;
	}
}

const struct screen screen_metrics = {
	"counters", draw_metrics, metrics_key, metrics_keys, (int)ARRAY_LEN(metrics_keys),
};

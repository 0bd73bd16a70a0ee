/* Size and block sweeps (see sweep.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "canvas.h"
#include "i18n.h"
#include "kernel_def.h"
#include "session.h"
#include "sweep.h"
#include "util.h"

void sweep_free(struct sweep *s)
{
	for (int i = 0; i < s->nsteps; i++)
		free(s->steps[i].points);
	free(s->steps);
	memset(s, 0, sizeof *s);
}

const char *sweep_over_name(enum sweep_over o)
{
	return o == SWEEP_BLOCK ? "block" : "size";
}

const char *sweep_over_text(enum sweep_over o)
{
	return o == SWEEP_BLOCK ? _("block") : _("size");
}

/* ---- what to sweep ----------------------------------------------------- */

static int add_value(unsigned long long v, unsigned long long **out, int *n)
{
	if (*n >= 64)
		return -1;
	*out = xrealloc(*out, (size_t)(*n + 1) * sizeof **out);
	(*out)[(*n)++] = v;
	return 0;
}

static int compare_values(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

/* One count of a list: positive, and for blocks at most 1024. */
static int one_value(const char *t, bool blocks, unsigned long long *v, struct error *e)
{
	if (parse_count(t, v) != 0 || *v == 0) {
		error_set(e, blocks ? _("'%s' is not a block size (e.g. 64, 256, 1024)") :
		    _("'%s' is not a positive count of elements (e.g. 1024, 2^20, 16M)"), t);
		return -1;
	}
	if (blocks ? *v > 1024 : *v > (1ULL << 34)) {
		error_set(e, blocks ? _("'%s' is more than 1024 threads a block") :
		    _("'%s' is more elements than any lesson takes (at most 2^34)"), t);
		return -1;
	}
	return 0;
}

/* "A..B" or "A..B:F" into the values A, A x F, ... up to B. */
static int range_values(char *t, char *dots, bool blocks, unsigned long long **out, int *n, struct error *e)
{
	unsigned long long a, b, f = blocks ? 2 : 4;
	char *colon = strchr(dots + 2, ':');

	*dots = '\0';
	if (colon != NULL)
		*colon = '\0';
	if (one_value(t, blocks, &a, e) != 0 || one_value(dots + 2, blocks, &b, e) != 0)
		return -1;
	if (colon != NULL && (parse_count(colon + 1, &f) != 0 || f < 2 || f > 1024)) {
		error_set(e, _("'%s' is not a factor from 2 to 1024 between one value and the next"), colon + 1);
		return -1;
	}
	if (b < a) {
		error_set(e, _("%s..%s runs backwards: give the smaller first"), t, dots + 2);
		return -1;
	}
	for (unsigned long long v = a; v <= b; v *= f)
		if (add_value(v, out, n) != 0) {
			error_set(e, _("more than 64 values: take a larger factor (A..B:F)"));
			return -1;
		}
	return 0;
}

int sweep_parse_values(const char *s, bool blocks, unsigned long long **out, int *n, struct error *e)
{
	char *copy = xstrdup(s), *save = NULL;
	int rc = 0;

	*out = NULL;
	*n = 0;
	for (char *t = strtok_r(copy, ",", &save); t != NULL && rc == 0; t = strtok_r(NULL, ",", &save)) {
		char *dots = strstr(t, "..");
		unsigned long long v;

		if (dots != NULL)
			rc = range_values(t, dots, blocks, out, n, e);
		else if ((rc = one_value(t, blocks, &v, e)) == 0 && add_value(v, out, n) != 0) {
			error_set(e, _("more than 64 values: take a larger factor (A..B:F)"));
			rc = -1;
		}
	}
	free(copy);
	if (rc == 0 && *n == 0) {
		error_set(e, _("give a range such as 2^10..2^28, or values separated by commas"));
		rc = -1;
	}
	if (rc != 0) {
		free(*out);
		*out = NULL;
		*n = 0;
		return -1;
	}
	qsort(*out, (size_t)*n, sizeof **out, compare_values);
	return 0;
}

int sweep_default_sizes(const struct lesson *l, unsigned long long **out)
{
	unsigned long long max = l != NULL ? session_max_size(l) : 0;
	int n = 0;

	*out = NULL;
	for (unsigned long long v = 1ULL << 10; v <= 1ULL << 28; v *= 4)
		if (max == 0 || v <= max)
			add_value(v, out, &n);
	if (n == 0)
		add_value(max, out, &n);
	return n;
}

int sweep_default_blocks(unsigned long long **out)
{
	int n = 0;

	*out = NULL;
	for (unsigned long long v = 64; v <= 1024; v *= 2)
		add_value(v, out, &n);
	return n;
}

/* ---- running --------------------------------------------------------------- */

void sweep_measure_options(struct measure_options *o)
{
	measure_default_options(o);
	/*
	 * A point needs a median, not the last digit: a tenth of a second of
	 * runs, 3 to 30 of them, after a warm-up that stops at 50 ms.  Ten
	 * sizes of a 16-step lesson are then 160 points of about 0.2 s,
	 * plus making the inputs at the largest sizes.
	 */
	o->warmup = 2;
	o->warmup_seconds = 0.05;
	o->min_reps = 3;
	o->max_reps = 30;
	o->target_seconds = 0.1;
	/*
	 * L2 is not evicted between runs where the data fit in it: left of
	 * the L2 line they are read from there.  Right of it each run starts
	 * after a flush, as the lesson's table does (measure_keeps_l2).
	 */
	o->keep_l2 = true;
}

static void begin_sweep(const struct lesson *l, const int *steps, int nsteps, enum sweep_over over,
    int nvalues, unsigned long long size, unsigned int block, struct sweep *s)
{
	time_t now = time(NULL);

	memset(s, 0, sizeof *s);
	snprintf(s->lesson, sizeof s->lesson, "%s", l->id);
	s->over = over;
	s->size = over == SWEEP_BLOCK ? size : 0;
	s->block = over == SWEEP_SIZE ? block : 0;
	strftime(s->date, sizeof s->date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	session_gpu_desc(&s->gpu);
	s->nsteps = nsteps;
	s->steps = xcalloc((size_t)nsteps + 1, sizeof *s->steps);
	for (int j = 0; j < nsteps; j++) {
		const struct kernel_def *k = l->steps[steps[j]].kernel;

		s->steps[j].step = steps[j] + 1;
		snprintf(s->steps[j].kernel, sizeof s->steps[j].kernel, "%s", k->name);
		s->steps[j].unit = k->experiment->unit;
		s->steps[j].points = xcalloc((size_t)nvalues + 1, sizeof *s->steps[j].points);
	}
}

/* The point of step j at (size, block), from step i of r, which has just run (or could not). */
static void take_point(const struct lesson *l, int i, const struct run_report *r, const char *unfit,
    struct sweep_step *st)
{
	struct sweep_point *p = &st->points[st->npoints++];
	const struct step_result *q = &r->steps[i];
	const struct kernel_def *k = l->steps[i].kernel;
	struct step_params sp = { .size = r->size, .block = r->block };

	p->size = r->size;
	p->block = r->block;
	if (unfit != NULL || !q->ran) {
		utf8_copy(p->error, sizeof p->error, unfit != NULL ? unfit : q->error);
		return;
	}
	p->ran = true;
	p->correct = q->correct || q->wrong_by_design;
	p->reps = q->reps;
	p->median_ms = q->median_ms;
	p->rate = q->rate;
	if (k->experiment->work_bytes != NULL && r->size > 0)
		st->bytes_per_element = k->experiment->work_bytes(&sp) / (double)r->size;
}

int sweep_run(const struct lesson *l, const int *steps, int nsteps, enum sweep_over over,
    const unsigned long long *values, int nvalues, unsigned long long size, unsigned int block,
    const struct measure_options *o, const struct sweep_hooks *h, struct sweep *s, struct error *e)
{
	if (!session_live(false, e))
		return -1;
	begin_sweep(l, steps, nsteps, over, nvalues, size, block, s);
	/* one worker for the whole sweep: CUDA starts once, and the inputs are made once a size */
	session_keep_worker(true);
	for (int v = 0; v < nvalues; v++) {
		unsigned long long sz = over == SWEEP_SIZE ? values[v] : size;
		unsigned int bl = over == SWEEP_BLOCK ? (unsigned int)values[v] : block;
		struct run_report r;

		if (session_begin(&r, l, sz, bl, e) != 0) {
			session_keep_worker(false);
			sweep_free(s);
			return -1;
		}
		for (int j = 0; j < nsteps; j++) {
			char why[256];
			const char *unfit = session_step_unfit(l, steps[j], sz, bl, why, sizeof why);

			if (h != NULL && h->begins != NULL)
				h->begins(h->ctx, v, nvalues, values[v], steps[j]);
			if (unfit == NULL)
				session_run(&r, l, steps[j], steps[j], o, NULL);
			take_point(l, steps[j], &r, unfit, &s->steps[j]);
			if (o->cancel != NULL && *o->cancel)
				break;
		}
		run_report_free(&r);
		if (o->cancel != NULL && *o->cancel)
			break;
	}
	session_keep_worker(false);
	return 0;
}

/* ---- JSON -------------------------------------------------------------------- */

static json_t *point_to_json(const struct sweep_point *p)
{
	json_t *o = json_object();

	json_object_set_new(o, "size", json_integer((json_int_t)p->size));
	json_object_set_new(o, "block", json_integer(p->block));
	json_object_set_new(o, "ran", json_boolean(p->ran));
	if (p->ran) {
		json_object_set_new(o, "correct", json_boolean(p->correct));
		json_object_set_new(o, "reps", json_integer(p->reps));
		json_object_set_new(o, "median_ms", json_real(p->median_ms));
		json_object_set_new(o, "rate", json_real(p->rate));
	} else {
		json_object_set_new(o, "error", json_string(p->error));
	}
	return o;
}

json_t *sweep_to_json(const struct sweep *s)
{
	json_t *o = json_object(), *steps = json_array();

	json_object_set_new(o, "lesson", json_string(s->lesson));
	json_object_set_new(o, "over", json_string(sweep_over_name(s->over)));
	json_object_set_new(o, "date", json_string(s->date));
	if (s->over == SWEEP_SIZE)
		json_object_set_new(o, "block", json_integer(s->block));
	else
		json_object_set_new(o, "size", json_integer((json_int_t)s->size));
	json_object_set_new(o, "l2_bytes", s->gpu.l2_bytes > 0 ? json_integer((json_int_t)s->gpu.l2_bytes) :
	    json_null());
	for (int i = 0; i < s->nsteps; i++) {
		const struct sweep_step *st = &s->steps[i];
		json_t *j = json_object(), *pts = json_array();

		json_object_set_new(j, "step", json_integer(st->step));
		json_object_set_new(j, "kernel", json_string(st->kernel));
		json_object_set_new(j, "unit", json_string(results_unit_name(st->unit)));
		json_object_set_new(j, "bytes_per_element", json_real(st->bytes_per_element));
		for (int k = 0; k < st->npoints; k++)
			json_array_append_new(pts, point_to_json(&st->points[k]));
		json_object_set_new(j, "points", pts);
		json_array_append_new(steps, j);
	}
	json_object_set_new(o, "steps", steps);
	return o;
}

/* Damaged: one message for every way a sweep can be. */
static int damaged(const char *file, const char *what, struct error *e)
{
	error_set(e, _("%s: a sweep's '%s' is missing or wrong: the file is damaged; record the sweep again"),
	    file, what);
	return -1;
}

static bool whole(json_t *v, unsigned long long max, unsigned long long *out)
{
	if (!json_is_integer(v) || json_integer_value(v) < 0 || (unsigned long long)json_integer_value(v) > max)
		return false;
	*out = (unsigned long long)json_integer_value(v);
	return true;
}

static int point_from_json(json_t *o, const char *file, struct sweep_point *p, struct error *e)
{
	unsigned long long v;

	if (!json_is_object(o) || !whole(json_object_get(o, "size"), 1ULL << 40, &p->size))
		return damaged(file, "size", e);
	if (!whole(json_object_get(o, "block"), 1024, &v))
		return damaged(file, "block", e);
	p->block = (unsigned int)v;
	p->ran = json_is_true(json_object_get(o, "ran"));
	if (!p->ran) {
		snprintf(p->error, sizeof p->error, "%s", json_is_string(json_object_get(o, "error")) ?
		    json_string_value(json_object_get(o, "error")) : "");
		return 0;
	}
	p->correct = json_is_true(json_object_get(o, "correct"));
	if (!whole(json_object_get(o, "reps"), 1u << 30, &v))
		return damaged(file, "reps", e);
	p->reps = (int)v;
	p->median_ms = json_number_value(json_object_get(o, "median_ms"));
	p->rate = json_number_value(json_object_get(o, "rate"));
	if (!(p->median_ms > 0) || !(p->rate >= 0) || !isfinite(p->rate))
		return damaged(file, "median_ms", e);
	return 0;
}

static int unit_of(const char *name, enum experiment_unit *u)
{
	for (int k = UNIT_GBPS; k <= UNIT_SHARED_GBPS; k++)
		if (name != NULL && strcmp(name, results_unit_name((enum experiment_unit)k)) == 0) {
			*u = (enum experiment_unit)k;
			return 0;
		}
	return -1;
}

static int step_from_json(json_t *o, const char *file, struct sweep_step *st, struct error *e)
{
	json_t *pts = json_object_get(o, "points");
	unsigned long long v;

	if (!json_is_object(o) || !whole(json_object_get(o, "step"), 1000, &v) || v == 0)
		return damaged(file, "step", e);
	st->step = (int)v;
	if (!json_is_string(json_object_get(o, "kernel")))
		return damaged(file, "kernel", e);
	utf8_copy(st->kernel, sizeof st->kernel, json_string_value(json_object_get(o, "kernel")));
	if (unit_of(json_string_value(json_object_get(o, "unit")), &st->unit) != 0)
		return damaged(file, "unit", e);
	st->bytes_per_element = json_number_value(json_object_get(o, "bytes_per_element"));
	if (!json_is_array(pts) || json_array_size(pts) > 64)
		return damaged(file, "points", e);
	st->points = xcalloc(json_array_size(pts) + 1, sizeof *st->points);
	for (size_t k = 0; k < json_array_size(pts); k++, st->npoints++)
		if (point_from_json(json_array_get(pts, k), file, &st->points[k], e) != 0)
			return -1;
	return 0;
}

int sweep_from_json(json_t *o, const char *file, struct sweep *s, struct error *e)
{
	json_t *over, *steps;
	unsigned long long v = 0;

	memset(s, 0, sizeof *s);
	over = json_object_get(o, "over");
	if (!json_is_object(o) || !json_is_string(json_object_get(o, "lesson")))
		return damaged(file, "lesson", e);
	utf8_copy(s->lesson, sizeof s->lesson, json_string_value(json_object_get(o, "lesson")));
	if (!json_is_string(over) || (strcmp(json_string_value(over), "size") != 0 &&
	    strcmp(json_string_value(over), "block") != 0))
		return damaged(file, "over", e);
	s->over = strcmp(json_string_value(over), "block") == 0 ? SWEEP_BLOCK : SWEEP_SIZE;
	if (!json_is_string(json_object_get(o, "date")))
		return damaged(file, "date", e);
	utf8_copy(s->date, sizeof s->date, json_string_value(json_object_get(o, "date")));
	if (s->over == SWEEP_SIZE ? !whole(json_object_get(o, "block"), 1024, &v) :
	    !whole(json_object_get(o, "size"), 1ULL << 40, &s->size))
		return damaged(file, s->over == SWEEP_SIZE ? "block" : "size", e);
	if (s->over == SWEEP_SIZE)
		s->block = (unsigned int)v;
	if (!json_is_null(json_object_get(o, "l2_bytes")) &&
	    !whole(json_object_get(o, "l2_bytes"), 1ULL << 40, &s->gpu.l2_bytes))
		return damaged(file, "l2_bytes", e);
	steps = json_object_get(o, "steps");
	if (!json_is_array(steps) || json_array_size(steps) > 1000)
		return damaged(file, "steps", e);
	s->steps = xcalloc(json_array_size(steps) + 1, sizeof *s->steps);
	for (size_t i = 0; i < json_array_size(steps); i++, s->nsteps++)
		if (step_from_json(json_array_get(steps, i), file, &s->steps[i], e) != 0) {
			s->nsteps++;
			sweep_free(s);
			return -1;
		}
	return 0;
}

/* ---- recorded sweeps ---------------------------------------------------------- */

/* The sweep of lesson over `over` in f, read into s: 1, 0 if f has none, -1 and e if it is damaged. */
static int sweep_in_file(const struct results_file *f, const char *lesson, enum sweep_over over,
    struct sweep *s, struct error *e)
{
	for (size_t i = 0; f->sweeps != NULL && i < json_array_size(f->sweeps); i++) {
		json_t *o = json_array_get(f->sweeps, i);
		const char *name = json_string_value(json_object_get(o, "lesson"));
		const char *on = json_string_value(json_object_get(o, "over"));

		if (name == NULL || strcmp(name, lesson) != 0 || on == NULL || strcmp(on, sweep_over_name(over)) != 0)
			continue;
		if (sweep_from_json(o, f->path, s, e) != 0)
			return -1;
		s->recorded = true;
		utf8_copy(s->recorded_file, sizeof s->recorded_file, f->path);
		/* the GPU as the file names it; its L2 from the sweep, else from the file's gpu */
		{
			unsigned long long l2 = s->gpu.l2_bytes;

			s->gpu = f->gpu;
			if (l2 > 0)
				s->gpu.l2_bytes = l2;
		}
		return 1;
	}
	return 0;
}

int sweep_find_recorded(const char *file, const char *lesson, enum sweep_over over, struct sweep *s,
    struct error *e)
{
	char path[4096] = "";
	struct results_file f;
	int found = 0;

	memset(s, 0, sizeof *s);
	if (file != NULL) {
		if (results_file_load(file, &f, e) != 0)
			return -1;
		found = sweep_in_file(&f, lesson, over, s, e);
		results_file_free(&f);
		if (found == 0)
			error_set(e, _("%s holds no sweep of lesson '%s' over %s: on that GPU, "
			    "'cudatutor sweep %s --record' adds one"), file, lesson, sweep_over_text(over), lesson);
		return found == 1 ? 0 : -1;
	}
	/*
	 * The newest file's sweep, by the file's date: the GPU the results
	 * pane, the roofline and run show without a GPU (results_newest_gpu),
	 * not the first file by name.
	 */
	{
		char newest[40] = "";

		while (results_next_file(path, NULL, path, sizeof path, e) == 0) {
			struct error skip;
			struct sweep one;

			/* a file that cannot be read is another's problem: look on */
			if (results_file_load(path, &f, &skip) != 0)
				continue;
			if (strcmp(f.date, newest) > 0) {
				int rc = sweep_in_file(&f, lesson, over, &one, &skip);

				if (rc == 1) {
					if (found)
						sweep_free(s);
					*s = one;
					found = 1;
					snprintf(newest, sizeof newest, "%s", f.date);
				} else if (rc < 0 && !found) {
					*e = skip;	/* a damaged sweep: said, unless another file has one */
				}
			}
			results_file_free(&f);
		}
		if (found)
			error_clear(e);
		else if (e->msg[0] != '\0')
			return -1;
	}
	if (found == 0 && e->msg[0] == '\0')
		error_set(e, _("no recorded sweep of lesson '%s' over %s: on a GPU, 'cudatutor sweep %s --record' "
		    "records one"), lesson, sweep_over_text(over), lesson);
	return found == 1 ? 0 : -1;
}

/* The text of the file at path with s in its "sweeps" and the L2 in its "gpu"; NULL and e if not ours. */
static char *merged_text(const char *path, const struct sweep *s, struct error *e)
{
	struct results_file f;
	json_error_t jerr;
	json_t *root, *sweeps, *gpu;
	char *text;

	/* through the loader first: a file it cannot read is never written */
	if (results_file_load(path, &f, e) != 0)
		return NULL;
	if (strcmp(f.gpu.name, s->gpu.name) != 0) {
		error_set(e, _("%s was recorded on %s, not on this %s: a sweep goes into its own GPU's file"), path,
		    f.gpu.name, s->gpu.name);
		results_file_free(&f);
		return NULL;
	}
	results_file_free(&f);
	/* then as JSON, so that everything else in it is written back as it was */
	if ((root = json_load_file(path, 0, &jerr)) == NULL) {
		error_set(e, _("%s: cannot read the results file (%s)"), path, jerr.text);
		return NULL;
	}
	sweeps = json_object_get(root, "sweeps");
	if (!json_is_array(sweeps)) {
		sweeps = json_array();
		json_object_set_new(root, "sweeps", sweeps);
	}
	for (size_t i = json_array_size(sweeps); i-- > 0;) {
		json_t *o = json_array_get(sweeps, i);
		const char *name = json_string_value(json_object_get(o, "lesson"));
		const char *on = json_string_value(json_object_get(o, "over"));

		if (name != NULL && strcmp(name, s->lesson) == 0 && on != NULL &&
		    strcmp(on, sweep_over_name(s->over)) == 0)
			json_array_remove(sweeps, i);
	}
	json_array_append_new(sweeps, sweep_to_json(s));
	gpu = json_object_get(root, "gpu");
	if (s->gpu.l2_bytes > 0 && json_is_object(gpu) && json_object_get(gpu, "l2_bytes") == NULL)
		json_object_set_new(gpu, "l2_bytes", json_integer((json_int_t)s->gpu.l2_bytes));
	/* as results_file_save writes it */
	text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(8));
	json_decref(root);
	if (text == NULL)
		error_set(e, _("cannot format the results as JSON"));
	return text;
}

int sweep_record(const char *path, const struct sweep *s, struct error *e)
{
	char *text = merged_text(path, s, e), *with_nl;
	size_t n;
	int rc;

	if (text == NULL)
		return -1;
	n = strlen(text);
	with_nl = xmalloc(n + 2);
	memcpy(with_nl, text, n);
	memcpy(with_nl + n, "\n", 2);
	rc = file_write_atomic(path, with_nl, n + 1, e);
	free(with_nl);
	free(text);
	return rc;
}

/* ---- the chart ------------------------------------------------------------------ */

double sweep_launch_floor_ms(const struct sweep *s, const bool *show)
{
	double floor_ms = 0;

	if (s->over != SWEEP_SIZE)
		return 0;
	for (int i = 0; i < s->nsteps; i++) {
		if (s->steps[i].unit != UNIT_GBPS)
			return 0;
		if ((show != NULL && !show[i]) || !(s->steps[i].bytes_per_element > 0))
			continue;
		for (int k = 0; k < s->steps[i].npoints; k++) {
			const struct sweep_point *q = &s->steps[i].points[k];

			if (q->ran && q->median_ms > 0 && (floor_ms == 0 || q->median_ms < floor_ms))
				floor_ms = q->median_ms;
		}
	}
	return floor_ms;
}

const char *sweep_unit(const struct sweep *s)
{
	for (int i = 1; i < s->nsteps; i++)
		if (s->steps[i].unit != s->steps[0].unit)
			return NULL;
	return s->nsteps > 0 ? results_unit_name(s->steps[0].unit) : "GB/s";
}

/*
 * The bytes per element of the shown steps, each once (two within a
 * percent of each other are one), up to max, in the steps' order.
 */
static int distinct_bytes_per_element(const struct sweep *s, const bool *show, double *bpe, int max)
{
	int n = 0;

	for (int i = 0; i < s->nsteps; i++) {
		double b = s->steps[i].bytes_per_element;
		bool seen = false;

		if ((show != NULL && !show[i]) || !(b > 0))
			continue;
		for (int k = 0; k < n; k++)
			seen = seen || fabs(b - bpe[k]) < 0.01 * bpe[k];
		if (!seen && n < max)
			bpe[n++] = b;
	}
	return n;
}

int sweep_l2_sizes(const struct sweep *s, const bool *show, double *sizes, int max)
{
	int n;

	if (s->over != SWEEP_SIZE || s->gpu.l2_bytes == 0)
		return 0;
	/* a working set of bpe bytes an element fills the L2 at l2 / bpe elements */
	n = distinct_bytes_per_element(s, show, sizes, max);
	for (int k = 0; k < n; k++)
		sizes[k] = (double)s->gpu.l2_bytes / sizes[k];
	for (int a = 1; a < n; a++)
		for (int b = a; b > 0 && sizes[b] < sizes[b - 1]; b--) {
			double t = sizes[b];

			sizes[b] = sizes[b - 1];
			sizes[b - 1] = t;
		}
	return n;
}

/* Columns of the y labels ("1000") and the axis beside them. */
#define SWEEP_LABEL_COLS 6

/* The column of a size or block: log2 across. */
static int value_col(const struct canvas *cv, double v)
{
	return canvas_sample_col(cv, log2(v));
}

/* The ranges (log2 of the size or block across, log10 of the rate up): every value across; whole decades up. */
static bool plot_ranges(struct canvas *cv, const struct sweep *s, const bool *show)
{
	double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;

	for (int i = 0; i < s->nsteps; i++)
		for (int k = 0; k < s->steps[i].npoints; k++) {
			const struct sweep_point *q = &s->steps[i].points[k];
			double x = log2(s->over == SWEEP_SIZE ? (double)q->size : (double)q->block);

			xlo = fmin(xlo, x);
			xhi = fmax(xhi, x);
			if ((show != NULL && !show[i]) || !q->ran || !(q->rate > 0))
				continue;
			ylo = fmin(ylo, q->rate);
			yhi = fmax(yhi, q->rate);
		}
	if (!isfinite(xlo) || !isfinite(ylo))
		return false;
	cv->xmin = xlo;
	cv->xmax = xhi > xlo ? xhi : xlo + 1;
	cv->ymin = floor(log10(ylo) + 1e-9);
	cv->ymax = ceil(log10(yhi) - 1e-9);
	if (cv->ymax <= cv->ymin)
		cv->ymax = cv->ymin + 1;
	return true;
}

/*
 * One step: dots between its points (if join), then its marks; a cell two
 * steps share says '*'.  Drawn as '.', its points only take cells no mark holds.
 */
static void plot_step(struct canvas *cv, const struct sweep *s, int i, char mark, bool join)
{
	const struct sweep_step *st = &s->steps[i];
	int px = -1, py = -1;

	for (int k = 0; k < st->npoints; k++) {
		const struct sweep_point *q = &st->points[k];
		int x, y;
		char *cell;

		if (!q->ran || !(q->rate > 0)) {
			px = -1;
			continue;
		}
		x = value_col(cv, s->over == SWEEP_SIZE ? (double)q->size : (double)q->block);
		y = canvas_sample_row(cv, log10(q->rate));
		for (int c = px + 1; join && px >= 0 && c < x; c++) {
			int r = (int)lround(py + (double)(y - py) * (c - px) / (x - px));

			cell = &canvas_at(cv, c, r)->ch;
			if (*cell == 0 || *cell == '|')
				*cell = '.';
		}
		cell = &canvas_at(cv, x, y)->ch;
		if (mark == '.')
			*cell = *cell == 0 || *cell == '|' || *cell == '/' ? '.' : *cell;
		else
			*cell = *cell == 0 || *cell == '.' || *cell == '|' || *cell == '/' || *cell == mark ? mark : '*';
		px = x;
		py = y;
	}
}

/* "1000", "10", "0.1": a power of ten of the rate in at most SWEEP_LABEL_COLS - 1 characters. */
static void rate_label(int decade, char *buf, size_t len)
{
	if (decade >= 6)
		snprintf(buf, len, "1e%d", decade);
	else if (decade >= 0)
		snprintf(buf, len, "%.0f", pow(10, decade));
	else
		snprintf(buf, len, "%.*f", -decade, pow(10, decade));
}

/* The plot's rows, each with its label where a decade falls, then the axis. */
static void render_rows(struct canvas *cv, struct canvas_lines *out)
{
	for (int d = (int)cv->ymin; d <= (int)cv->ymax; d++) {
		char label[16];

		rate_label(d, label, sizeof label);
		canvas_ylabel(cv, canvas_sample_row(cv, log10(pow(10, d))), label);
	}
	canvas_emit_rows(cv, out);
	canvas_emit_axis(cv, "", NULL, 0, out);
}

/* "2^20" for a size that is a power of two from 2^10 up, else the number: what the x axis counts. */
static void value_label(unsigned long long v, bool size, char *buf, size_t len)
{
	if (size && v >= 1024 && (v & (v - 1)) == 0)
		snprintf(buf, len, "2^%d", (int)log2((double)v));
	else
		snprintf(buf, len, "%llu", v);
}

/* The values' labels under the axis; the L2 lines' above the plot. */
static void render_labels(const struct canvas *cv, const struct sweep *s, const double *l2, int nl2,
    struct canvas_lines *out, bool above)
{
	char *line = canvas_label_line(cv);
	int free_from = 0;

	if (above) {
		for (int k = 0; k < nl2; k++)
			free_from = canvas_put_label(cv, line, value_col(cv, l2[k]), "L2", free_from);
		canvas_emit_label_line(cv, line, out);
		return;
	}
	for (int k = 0; s->nsteps > 0 && k < s->steps[0].npoints; k++) {
		const struct sweep_point *q = &s->steps[0].points[k];
		unsigned long long v = s->over == SWEEP_SIZE ? q->size : q->block;
		char label[24];

		value_label(v, s->over == SWEEP_SIZE, label, sizeof label);
		free_from = canvas_put_label(cv, line, value_col(cv, (double)v), label, free_from);
	}
	canvas_emit_label_line(cv, line, out);
}

/* The L2 lines, under everything: where a working set stops fitting.  Those inside the plot are kept in l2. */
static int draw_l2_lines(struct canvas *cv, const struct sweep *s, const bool *show, double *l2, int max)
{
	int n = 0, all = sweep_l2_sizes(s, show, l2, max);

	for (int k = 0; k < all; k++) {
		double x = log2(l2[k]);

		if (x < cv->xmin || x > cv->xmax)
			continue;
		l2[n++] = l2[k];
		for (int y = 0; y < cv->h; y++)
			canvas_at(cv, canvas_sample_col(cv, x), y)->ch = '|';
	}
	return n;
}

/*
 * The launch floor's rising line for each element size of the shown
 * steps: bytes_per_element x size over the floor, in GB/s.  In Unicode a
 * dot every third column of dots, unjoined, so that it reads as a bound
 * and not as one more step; in ASCII '/' in the cells it crosses.  Under
 * the points, over nothing else.
 */
static void draw_launch_lines(struct canvas *cv, const struct sweep *s, const bool *show, double floor_ms)
{
	double all[4], per_x = (cv->xmax - cv->xmin) / (cv->w - 1);
	int n = floor_ms > 0 ? distinct_bytes_per_element(s, show, all, (int)ARRAY_LEN(all)) : 0;

	for (int k = 0; k < n; k++) {
		double bpe = all[k];

		for (int px = 0; px < 2 * cv->w; px++) {
			/* dots 2c and 2c + 1 lie a quarter of a column either side of column c's value */
			double x = cv->xmin + (px / 2.0 - 0.25) * per_x;
			double y = log10(bpe * pow(2, x) / (floor_ms * 1e6));
			double row = (cv->ymax - y) / (cv->ymax - cv->ymin) * (cv->h - 1);
			struct canvas_cell *c;

			if (row < -0.5 || row > cv->h - 0.5)
				continue;
			if (cv->unicode) {
				if (px % 3 == 0)
					canvas_dot(cv, px, (int)lround(row * 4 + 1.5));
				continue;
			}
			c = px % 2 == 0 ? canvas_at(cv, px / 2, (int)lround(row)) : NULL;
			if (c != NULL && c->ch == 0)
				c->ch = '/';
		}
	}
}

/* The chart of the shown steps (show NULL: all), or of focus (>= 0) among all of them. */
static void draw(const struct sweep *s, const bool *show, int focus, int width, int height, bool unicode,
    struct canvas_lines *out, int *markers)
{
	struct canvas cv;
	double l2[4];
	bool *only = NULL;
	int nl2;

	memset(out, 0, sizeof *out);
	if (markers != NULL)
		*markers = 0;
	canvas_init(&cv, width - SWEEP_LABEL_COLS - 1 < 20 ? 20 : width - SWEEP_LABEL_COLS - 1, height < 5 ? 5 : height,
	    SWEEP_LABEL_COLS, unicode);
	if (!plot_ranges(&cv, s, focus >= 0 ? NULL : show)) {
		canvas_free(&cv);
		return;
	}
	if (focus >= 0) {
		only = xcalloc((size_t)s->nsteps + 1, sizeof *only);
		only[focus] = true;
	}
	nl2 = draw_l2_lines(&cv, s, focus >= 0 ? only : show, l2, (int)ARRAY_LEN(l2));
	draw_launch_lines(&cv, s, focus >= 0 ? only : show, sweep_launch_floor_ms(s, focus >= 0 ? only : show));
	free(only);
	if (markers != NULL)
		*markers = nl2;
	if (focus >= 0) {
		/* the focused step last, over the others' dots */
		for (int i = 0; i < s->nsteps; i++)
			if (i != focus)
				plot_step(&cv, s, i, '.', false);
		plot_step(&cv, s, focus, canvas_mark(s->steps[focus].step), false);
	} else {
		for (int i = 0; i < s->nsteps; i++)
			if (show == NULL || show[i])
				plot_step(&cv, s, i, canvas_mark(s->steps[i].step), true);
	}
	render_labels(&cv, s, l2, nl2, out, true);
	render_rows(&cv, out);
	render_labels(&cv, s, l2, nl2, out, false);
	canvas_free(&cv);
}

void sweep_draw(const struct sweep *s, const bool *show, int width, int height, bool unicode,
    struct canvas_lines *out, int *markers)
{
	draw(s, show, -1, width, height, unicode, out, markers);
}

void sweep_draw_focus(const struct sweep *s, int focus, int width, int height, bool unicode,
    struct canvas_lines *out, int *markers)
{
	draw(s, NULL, focus >= 0 && focus < s->nsteps ? focus : -1, width, height, unicode, out, markers);
}

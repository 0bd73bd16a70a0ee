/* Running a lesson's steps on the GPU into a run report: one path for every view. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "gpu.h"
#include "i18n.h"
#include "isolate.h"
#include "runner.h"

unsigned long long runner_default_size(const struct lesson *l)
{
	for (int i = 0; i < l->nsteps; i++)
		if (l->steps[i].kernel->experiment->default_size != 0)
			return l->steps[i].kernel->experiment->default_size;
	return RESULTS_DEFAULT_SIZE;
}

unsigned int runner_default_block(const struct lesson *l)
{
	for (int i = 0; i < l->nsteps; i++)
		if (l->steps[i].kernel->experiment->default_block != 0)
			return l->steps[i].kernel->experiment->default_block;
	return RESULTS_DEFAULT_BLOCK;
}

unsigned long long runner_max_size(const struct lesson *l)
{
	unsigned long long most = ~0ULL;

	for (int i = 0; i < l->nsteps; i++)
		if (l->steps[i].kernel->experiment->max_size < most)
			most = l->steps[i].kernel->experiment->max_size;
	return most;
}

void runner_gpu_desc(struct gpu_desc *g)
{
	const struct gpu_info *i = gpu_info();

	memset(g, 0, sizeof *g);
	if (i == NULL)
		return;
	snprintf(g->name, sizeof g->name, "%s", i->name);
	snprintf(g->arch, sizeof g->arch, "%s", i->arch);
	snprintf(g->driver, sizeof g->driver, "%s", i->driver);
	snprintf(g->cuda, sizeof g->cuda, "%d.%d", i->cuda_runtime_version / 1000,
	    i->cuda_runtime_version % 1000 / 10);
	g->sm_count = i->sm_count;
	g->memory_bytes = i->total_bytes;
}

int runner_begin(struct run_report *r, const struct lesson *l, unsigned long long size,
    unsigned int block, struct error *e)
{
	memset(r, 0, sizeof *r);
	if (gpu_init(e) != 0)
		return -1;
	snprintf(r->lesson, sizeof r->lesson, "%s", l->id);
	runner_gpu_desc(&r->gpu);
	r->size = size;
	r->block = block;
	if (runner_copy_bandwidth(false, &r->copy_gbps, e) != 0)
		return -1;
	r->nsteps = l->nsteps;
	r->steps = xcalloc((size_t)l->nsteps + 1, sizeof *r->steps);
	for (int i = 0; i < l->nsteps; i++) {
		struct step_result *s = &r->steps[i];
		s->step = i + 1;
		snprintf(s->title, sizeof s->title, "%s", l->steps[i].title);
		snprintf(s->kernel, sizeof s->kernel, "%s", l->steps[i].kernel->name);
		s->size = size;
		s->block = block;
		s->library = (l->steps[i].kernel->flags & KF_LIBRARY) != 0;
		s->wrong_by_design = (l->steps[i].kernel->flags & KF_WRONG_BY_DESIGN) != 0;
		snprintf(s->error, sizeof s->error, "%s", _("not run yet"));
	}
	return 0;
}

/*
 * The GPU work of the runner, each piece in a child process when
 * isolation is on (see isolate.h): a kernel that faults ends its child,
 * and the next step gets a fresh process and context.
 */
struct step_job {
	const struct kernel_def *k;
	struct step_params p;
	const struct measure_options *o;
};

static void child_progress(void *ctx, int done, int total)
{
	isolate_progress(ctx, done, total);
}

static int step_work(void *arg, void *result, struct isolate_channel *ch, struct error *e)
{
	const struct step_job *j = arg;
	struct measure_options o = *j->o;

	if (ch != NULL) {
		/* the parent watches the cancel flag and kills us; progress goes up the pipe */
		o.cancel = NULL;
		o.progress = child_progress;
		o.progress_ctx = ch;
	}
	return measure_step(j->k, &j->p, &o, result, e);
}

int runner_measure(const struct kernel_def *k, const struct step_params *p,
    const struct measure_options *o, struct measurement *m, struct error *e)
{
	struct step_job j = { k, *p, o };
	struct isolate_options io = { o->cancel, o->progress, o->progress_ctx };

	return isolate_run(step_work, &j, m, sizeof *m, &io, e);
}

struct fits_job {
	const struct lesson *l;
	struct step_params p;
};

static int fits_work(void *arg, void *result, struct isolate_channel *ch, struct error *e)
{
	const struct fits_job *j = arg;
	struct error why;

	(void)result;
	(void)ch;
	for (int i = 0; i < j->l->nsteps; i++)
		if (measure_check_fits(j->l->steps[i].kernel, &j->p, &why) != 0) {
			error_set(e, _("step %d of '%s': %s"), i + 1, j->l->id, why.msg);
			return -1;
		}
	return 0;
}

int runner_check_fits(const struct lesson *l, unsigned long long size, unsigned int block,
    struct error *e)
{
	struct fits_job j = { l, { size, block } };
	int unused;

	if (gpu_init(e) != 0)
		return -1;
	return isolate_run(fits_work, &j, &unused, sizeof unused, NULL, e);
}

static int copy_work(void *arg, void *result, struct isolate_channel *ch, struct error *e)
{
	(void)ch;
	return measure_copy_bandwidth(*(const bool *)arg, result, e);
}

int runner_copy_bandwidth(bool refresh, double *gbps, struct error *e)
{
	if (gpu_init(e) != 0)
		return -1;
	if (!refresh && measure_copy_bandwidth_cached(gbps))
		return 0;
	return isolate_run(copy_work, &refresh, gbps, sizeof *gbps, NULL, e);
}

int runner_step(struct run_report *r, const struct lesson *l, int i, const struct measure_options *o)
{
	struct step_result *s = &r->steps[i];
	struct step_params p = { r->size, r->block };
	struct measurement m;
	struct error e = { "" };

	s->ran = false;
	if (runner_measure(l->steps[i].kernel, &p, o, &m, &e) != 0) {
		snprintf(s->error, sizeof s->error, "%s", e.msg);
		results_derive(r);
		return -1;
	}
	s->ran = true;
	s->error[0] = '\0';
	s->grid = m.grid;
	s->reps = m.ms.n;
	s->median_ms = m.ms.median;
	s->q1_ms = m.ms.q1;
	s->q3_ms = m.ms.q3;
	s->min_ms = m.ms.min;
	s->max_ms = m.ms.max;
	s->spread_pct = stats_spread_pct(&m.ms);
	s->registers = m.registers;
	s->blocks_per_sm = m.blocks_per_sm;
	s->occupancy_pct = m.occupancy_pct;
	s->correct = m.check.correct;
	snprintf(s->check_detail, sizeof s->check_detail, "%s", m.check.detail);
	results_derive(r);
	return 0;
}

void runner_all(struct run_report *r, const struct lesson *l, const struct measure_options *o,
    void (*done)(void *ctx, const struct run_report *r, int i), void *ctx)
{
	for (int i = 0; i < r->nsteps; i++) {
		if (o->cancel != NULL && *o->cancel)
			break;
		runner_step(r, l, i, o);
		if (done != NULL)
			done(ctx, r, i);
	}
}

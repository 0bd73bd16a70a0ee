/* The session: every question a view asks, answered once. */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gpu.h"
#include "gpu_lock.h"
#include "host_buffer.h"
#include "i18n.h"
#include "inspect.h"
#include "isolate.h"
#include "metrics.h"
#include "nvml.h"
#include "paths.h"
#include "sass.h"
#include "session.h"

unsigned long long session_default_size(const struct lesson *l)
{
	for (int i = 0; i < l->nsteps; i++)
		if (l->steps[i].kernel->experiment->default_size != 0)
			return l->steps[i].kernel->experiment->default_size;
	return RESULTS_DEFAULT_SIZE;
}

unsigned int session_default_block(const struct lesson *l)
{
	for (int i = 0; i < l->nsteps; i++)
		if (l->steps[i].kernel->experiment->default_block != 0)
			return l->steps[i].kernel->experiment->default_block;
	return RESULTS_DEFAULT_BLOCK;
}

bool session_block_per_kernel(const struct lesson *l)
{
	bool own = false;

	for (int i = 0; l != NULL && i < l->nsteps; i++) {
		const struct kernel_def *k = l->steps[i].kernel;

		if (registry_is_library(k))
			continue;
		if (k->shape != SHAPE_TABLE)
			return false;
		own = true;
	}
	return own;
}

unsigned long long session_max_size(const struct lesson *l)
{
	unsigned long long most = ~0ULL;

	for (int i = 0; i < l->nsteps; i++)
		if (l->steps[i].kernel->experiment->max_size < most)
			most = l->steps[i].kernel->experiment->max_size;
	return most;
}

void session_gpu_desc(struct gpu_desc *g)
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
	g->l2_bytes = i->l2_bytes;
}

int session_begin(struct run_report *r, const struct lesson *l, unsigned long long size,
    unsigned int block, struct error *e)
{
	struct error ignored;

	memset(r, 0, sizeof *r);
	if (gpu_init(e) != 0)
		return -1;
	snprintf(r->lesson, sizeof r->lesson, "%s", l->id);
	session_gpu_desc(&r->gpu);
	r->size = size;
	r->block = block;
	if (session_copy_bandwidth(false, &r->copy_gbps, e) != 0)
		return -1;
	/* the roofs are extra: a report without them is still a report */
	if (session_roofs(false, &r->roofs, NULL, NULL, &ignored) != 0)
		memset(&r->roofs, 0, sizeof r->roofs);
	r->nsteps = l->nsteps;
	r->steps = xcalloc((size_t)l->nsteps + 1, sizeof *r->steps);
	for (int i = 0; i < l->nsteps; i++) {
		struct step_result *s = &r->steps[i];
		s->step = i + 1;
		snprintf(s->title, sizeof s->title, "%s", l->steps[i].title);
		snprintf(s->kernel, sizeof s->kernel, "%s", l->steps[i].kernel->name);
		s->size = size;
		s->block = block;
		s->library = registry_is_library(l->steps[i].kernel);
		s->wrong_by_design = (l->steps[i].kernel->flags & KF_WRONG_BY_DESIGN) != 0;
		s->control = l->steps[i].control;
		snprintf(s->error, sizeof s->error, "%s", _("not run yet"));
	}
	return 0;
}

/*
 * The GPU work of the session, in a child process when isolation is on
 * (see isolate.h): the steps of a run share one, the worker, and a kernel
 * that faults ends it, so the next step gets a fresh process and context.
 */
struct step_job {
	const struct kernel_def *k;	/* the registry's: the same in every process */
	struct step_params p;
	struct measure_options o;	/* a copy: the job travels by value to the worker */
};

static void child_progress(void *ctx, int done, int total)
{
	isolate_progress(ctx, done, total);
}

static int step_work(void *arg, void *result, struct isolate_channel *ch, struct error *e)
{
	const struct step_job *j = arg;
	struct measure_options o = j->o;

	if (ch != NULL) {
		/* the parent watches the cancel flag and kills us; progress goes up the pipe */
		o.cancel = NULL;
		o.progress = child_progress;
		o.progress_ctx = ch;
	}
	return measure_step(j->k, &j->p, &o, result, e);
}

int session_measure(const struct kernel_def *k, const struct step_params *p,
    const struct measure_options *o, struct measurement *m, struct error *e)
{
	struct step_job j = { k, *p, *o };
	struct isolate_options io = { .cancel = o->cancel, .time_limit = o->time_limit,
	    .progress = o->progress, .progress_ctx = o->progress_ctx };

	/* the steps of a run share the worker; session_run ends it */
	return isolate_run_in_worker(step_work, &j, sizeof j, m, sizeof *m, &io, e);
}

/* The module name the student's code is loaded under in the step's process. */
#define IMAGE_MODULE "exercise"

/*
 * A student's kernel as the worker gets it: all by value, the cubin's
 * bytes at the end (the worker was forked before they existed), and the
 * sizes to run it at: one to time it, or all of a check's for its answers.
 * The worker keeps its CUDA context between jobs, so a check in --watch
 * pays for the context once, not at every save.
 */
struct image_job {
	const struct kernel_def *target;	/* the registry's: the same in every process */
	struct measure_options o;
	unsigned long long seed;		/* the inputs' (see experiment_seed) */
	int n;
	struct exercise_size sizes[EXERCISE_MAX_SIZES];
	size_t image_size;
	unsigned char image[];
};

struct sizes_result {
	struct {
		bool correct;
		char detail[256];
	} at[EXERCISE_MAX_SIZES];
};

static struct image_job *image_job_new(const struct kernel_def *target, const void *image,
    size_t image_size, const struct exercise_size *sizes, int n, unsigned long long seed,
    const struct measure_options *o)
{
	struct image_job *j = xcalloc(1, sizeof *j + image_size);

	j->target = target;
	j->seed = seed;
	j->o = *o;
	j->o.cancel = NULL;		/* the parent watches it, and kills the worker */
	j->o.progress = NULL;
	j->o.progress_ctx = NULL;
	j->n = n;
	memcpy(j->sizes, sizes, (size_t)n * sizeof *sizes);
	j->image_size = image_size;
	memcpy(j->image, image, image_size);
	return j;
}

/*
 * target, its code taken from the job's image (loaded in this process,
 * over the one before): the same experiment, input, check and timing;
 * only the code differs.
 */
static int image_kernel(const struct image_job *j, struct kernel_def *k, struct error *e)
{
	if (gpu_module_from_image(IMAGE_MODULE, j->image, e) != 0)
		return -1;
	*k = *j->target;
	k->module = IMAGE_MODULE;
	return 0;
}

/* One timed size. */
static int image_work(void *arg, void *result, struct isolate_channel *ch, struct error *e)
{
	const struct image_job *j = arg;
	struct step_params p = { .size = j->sizes[0].size, .block = j->sizes[0].block, .seed = j->seed };
	struct measure_options o = j->o;
	struct kernel_def k;

	if (ch != NULL) {
		o.progress = child_progress;
		o.progress_ctx = ch;
	}
	if (image_kernel(j, &k, e) != 0)
		return -1;
	return measure_step(&k, &p, &o, result, e);
}

/*
 * Every size of a check, one run each, for its answers.  Before each size
 * the parent hears which one it is: should the process die or hang there,
 * the parent knows the size without running the others again.
 */
static int sizes_work(void *arg, void *result, struct isolate_channel *ch, struct error *e)
{
	const struct image_job *j = arg;
	struct sizes_result *r = result;
	struct kernel_def k;
	struct measurement m;

	if (image_kernel(j, &k, e) != 0)
		return -1;
	for (int i = 0; i < j->n; i++) {
		struct step_params p = { .size = j->sizes[i].size, .block = j->sizes[i].block, .seed = j->seed };

		if (ch != NULL)
			isolate_progress(ch, i, j->n);
		if (measure_step(&k, &p, &j->o, &m, e) != 0)
			return -1;
		r->at[i].correct = m.check.correct;
		snprintf(r->at[i].detail, sizeof r->at[i].detail, "%s", m.check.detail);
	}
	return 0;
}

/*
 * A step's measurement for code compiled at run time (a student's cubin):
 * its kernel of the target's name, launched by the target's experiment
 * exactly as the target is.  A fault, a crash or o->time_limit ends only
 * the step's process.
 */
static int session_measure_image(const struct kernel_def *target, const void *image, size_t image_size,
    const struct step_params *p, const struct measure_options *o, struct measurement *m,
    struct error *e)
{
	struct exercise_size one = { p->size, p->block, false };
	struct image_job *j;
	struct isolate_options io = { .cancel = o->cancel, .time_limit = o->time_limit,
	    .progress = o->progress, .progress_ctx = o->progress_ctx };
	int rc;

	if (gpu_init(e) != 0)
		return -1;
	j = image_job_new(target, image, image_size, &one, 1, p->seed, o);
	rc = isolate_run_in_worker(image_work, j, sizeof *j + image_size, m, sizeof *m, &io, e);
	free(j);
	return rc;
}

static bool exercise_is_matrix(const struct kernel_def *k);

/* A size whose runs take milliseconds at most: up to a million elements, a matrix of side 512. */
static bool exercise_size_is_small(const struct kernel_def *target, unsigned long long size)
{
	return size <= (exercise_is_matrix(target) ? 512 : 1ULL << 20);
}

/* Seconds a run at a small size may take (the others: the time limit given). */
#define EXERCISE_SMALL_TIME_LIMIT 2.0

/* Which size the answers' process was at when it last said. */
static void note_size(void *ctx, int done, int total)
{
	(void)total;
	*(int *)ctx = done;
}

/*
 * All sizes in the worker: one context and one module load for all, and
 * none at all when the worker is warm.  time_limit is each size's.  -1
 * when the process failed, with *at the size it was running.
 */
static int sizes_run(const struct kernel_def *target, const void *image, size_t image_size,
    const struct exercise_size *sizes, int n, unsigned long long seed, const struct measure_options *o,
    double time_limit, struct sizes_result *r, int *at, struct error *e)
{
	struct image_job *j = image_job_new(target, image, image_size, sizes, n, seed, o);
	double limits[EXERCISE_MAX_SIZES];
	struct isolate_options io = { .cancel = o->cancel, .time_limit = time_limit,
	    .limit_each_part = true, .progress = note_size, .progress_ctx = at, .part_limits = limits,
	    .nparts = n < EXERCISE_MAX_SIZES ? n : EXERCISE_MAX_SIZES };
	int rc;

	/*
	 * A kernel that never ends mostly never ends at the first size, one
	 * element: the small sizes, milliseconds of work at most, stop it
	 * after EXERCISE_SMALL_TIME_LIMIT, so that it costs 2 s of a class's
	 * GPU, not 10 (the others wait to time theirs: gpu_lock_exclusive).
	 */
	for (int i = 0; i < io.nparts; i++)
		limits[i] = exercise_size_is_small(target, sizes[i].size) ? EXERCISE_SMALL_TIME_LIMIT : time_limit;
	*at = 0;
	rc = isolate_run_in_worker(sizes_work, j, sizeof *j + image_size, r, sizeof *r, &io, e);
	free(j);
	return rc;
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

const char *session_step_unfit(const struct lesson *l, int i, unsigned long long size,
    unsigned int block, char *buf, size_t len)
{
	return registry_check_step(l->steps[i].kernel, size, block, buf, len);
}

int session_check_steps(const struct lesson *l, unsigned long long size, unsigned int block,
    struct error *e)
{
	char why[256];

	for (int i = 0; i < l->nsteps; i++)
		if (session_step_unfit(l, i, size, block, why, sizeof why) != NULL) {
			error_set(e, _("step %d of '%s': %s"), i + 1, l->id, why);
			return -1;
		}
	return 0;
}

int session_check_fits(const struct lesson *l, unsigned long long size, unsigned int block,
    struct error *e)
{
	struct fits_job j = { l, { .size = size, .block = block } };
	int unused;

	/* What the table knows first: a bad block or size needs no GPU to refuse. */
	if (session_check_steps(l, size, block, e) != 0)
		return -1;
	if (gpu_init(e) != 0)
		return -1;
	return isolate_run(fits_work, &j, &unused, sizeof unused, NULL, e);
}

static int copy_work(void *arg, void *result, struct isolate_channel *ch, struct error *e)
{
	(void)ch;
	return measure_copy_bandwidth(*(const bool *)arg, result, e);
}

int session_copy_bandwidth(bool refresh, double *gbps, struct error *e)
{
	if (gpu_init(e) != 0)
		return -1;
	if (!refresh && measure_copy_bandwidth_cached(gbps))
		return 0;
	return isolate_run(copy_work, &refresh, gbps, sizeof *gbps, NULL, e);
}

static int fp32_work(void *arg, void *result, struct isolate_channel *ch, struct error *e)
{
	(void)ch;
	return roofs_measure_fp32(*(const bool *)arg, result, e);
}

struct tensor_result {
	double gflops, random_gflops;
	enum roofs_tensor_kernel kernel;
};

static int tensor_work(void *arg, void *result, struct isolate_channel *ch, struct error *e)
{
	struct tensor_result *t = result;
	struct error ignored;

	(void)ch;
	if (roofs_measure_tensor(*(const bool *)arg, &t->gflops, &t->kernel, e) != 0)
		return -1;
	/* on random operands too, where wgmma measured it */
	if (t->kernel != TENSOR_WGMMA || roofs_measure_tensor_random(*(const bool *)arg, &t->random_gflops, &ignored) != 0)
		t->random_gflops = 0;
	return 0;
}

/* The tensor ceiling into r, in a process of its own as the FP32 one; why not into why. */
static void session_tensor(bool refresh, struct gpu_roofs *r, struct error *why)
{
	struct tensor_result t = { 0, 0, TENSOR_NONE };

	if (!refresh && roofs_tensor_cached(&r->tensor_measured_gflops, &r->tensor_kernel) &&
	    (r->tensor_kernel != TENSOR_WGMMA || roofs_tensor_random_cached(&r->tensor_random_gflops)))
		return;
	if (isolate_run(tensor_work, &refresh, &t, sizeof t, NULL, why) != 0) {
		r->tensor_measured_gflops = r->tensor_random_gflops = 0;
		r->tensor_kernel = TENSOR_NONE;
		return;
	}
	r->tensor_measured_gflops = t.gflops;
	r->tensor_random_gflops = t.random_gflops;
	r->tensor_kernel = t.kernel;
}

struct latency_result {
	double dram_ns, l2_ns;
};

static int latency_work(void *arg, void *result, struct isolate_channel *ch, struct error *e)
{
	struct latency_result *l = result;

	(void)ch;
	return roofs_measure_latency(*(const bool *)arg, &l->dram_ns, &l->l2_ns, e);
}

/* The DRAM roofs by mix, each 0 where its kernel fails: in the child, one after the other. */
static int mixes_work(void *arg, void *result, struct isolate_channel *ch, struct error *e)
{
	double *gbps = result;
	struct error ignored;

	(void)ch;
	(void)e;
	for (int m = MIX_READ; m < DRAM_MIXES; m++)
		if (measure_dram_mix((enum dram_mix)m, *(const bool *)arg, &gbps[m], &ignored) != 0)
			gbps[m] = 0;
	return 0;
}

/* The DRAM roofs by mix into r, in a process of their own; unknown (0) where they fail. */
static void session_dram_mixes(bool refresh, struct gpu_roofs *r)
{
	double gbps[DRAM_MIXES] = { 0 };
	struct error ignored;

	if (isolate_run(mixes_work, &refresh, gbps, sizeof gbps, NULL, &ignored) != 0)
		memset(gbps, 0, sizeof gbps);
	for (int m = MIX_READ; m < DRAM_MIXES; m++)
		r->dram_mix_gbps[m] = gbps[m];
}

/* The latency of a load into r, in a process of its own; unknown (0) if the chase fails. */
static void session_latency(bool refresh, struct gpu_roofs *r)
{
	struct latency_result l = { 0, 0 };
	struct error ignored;

	if (!refresh && roofs_latency_cached(&r->dram_latency_ns, &r->l2_latency_ns))
		return;
	if (isolate_run(latency_work, &refresh, &l, sizeof l, NULL, &ignored) != 0)
		l.dram_ns = l.l2_ns = 0;
	r->dram_latency_ns = l.dram_ns;
	r->l2_latency_ns = l.l2_ns;
}

int session_roofs(bool refresh, struct gpu_roofs *r, struct error *fp32_error, struct error *tensor_error,
    struct error *e)
{
	struct error tensor_why = { "" };

	const struct gpu_info *g;
	struct nvml_reading n;
	struct error ignored, why;
	int sm_mhz, mem_mhz, bus;

	memset(r, 0, sizeof *r);
	if (gpu_init(e) != 0)
		return -1;
	g = gpu_info();
	/* NVML's maximum clocks where it answers: the driver's attributes are the same, or older */
	if (nvml_read(g->uuid, &n, &ignored) == 0 && n.sm_clock_max_mhz > 0 && n.mem_clock_max_mhz > 0) {
		sm_mhz = n.sm_clock_max_mhz;
		mem_mhz = n.mem_clock_max_mhz;
		bus = n.bus_width_bits > 0 ? n.bus_width_bits : g->bus_width_bits;
		snprintf(r->clock_source, sizeof r->clock_source, "nvml");
	} else {
		sm_mhz = g->sm_clock_max_khz / 1000;
		mem_mhz = g->mem_clock_max_khz / 1000;
		bus = g->bus_width_bits;
		snprintf(r->clock_source, sizeof r->clock_source, "cuda");
	}
	roofs_theoretical(r, g->arch, g->sm_count, sm_mhz, mem_mhz, bus);
	if (session_copy_bandwidth(refresh, &r->dram_measured_gbps, e) != 0)
		return -1;
	session_dram_mixes(refresh, r);
	session_tensor(refresh, r, &tensor_why);
	session_latency(refresh, r);
	if (tensor_error != NULL)
		*tensor_error = tensor_why;
	if (!refresh && roofs_fp32_cached(&r->fp32_measured_gflops))
		return 0;
	if (isolate_run(fp32_work, &refresh, &r->fp32_measured_gflops, sizeof r->fp32_measured_gflops,
	    NULL, &why) != 0) {
		r->fp32_measured_gflops = 0;
		if (fp32_error != NULL)
			*fp32_error = why;
	}
	return 0;
}

void session_clocks(struct gpu_clocks *c)
{
	const struct gpu_info *g = gpu_info();
	struct nvml_reading n;
	struct error ignored;

	memset(c, 0, sizeof *c);
	c->temperature_c = -1;
	if (g == NULL || nvml_read(g->uuid, &n, &ignored) != 0)
		return;
	c->have = true;
	c->sm_mhz = n.sm_clock_mhz;
	c->mem_mhz = n.mem_clock_mhz;
	c->temperature_c = n.temperature_c;
}

void session_measure_options(struct measure_options *o, int runs)
{
	measure_default_options(o);
	if (runs > 0) {
		const char *warmup = getenv("CUDATUTOR_WARMUP");

		/*
		 * ncu skips exactly these launches and profiles the next; the
		 * counters of a whole lesson ask for none (see metrics.c).
		 */
		o->warmup = warmup != NULL && strcmp(warmup, "0") == 0 ? 0 : METRICS_SKIP_LAUNCHES;
		o->warmup_seconds = 0;
		o->min_reps = o->max_reps = runs;
	}
}

/*
 * Run step i into r->steps[i] and derive the figures again.  A step that
 * cannot run (bad block size, too large, a kernel fault) is kept with
 * ran = false and its error; the others go on.  Returns 0 if it ran.
 */
static int session_step(struct run_report *r, const struct lesson *l, int i, const struct measure_options *o)
{
	struct step_result *s = &r->steps[i];
	struct step_params p = { .size = r->size, .block = r->block };
	struct measurement m;
	struct error e = { "" };

	s->ran = false;
	if (session_measure(l->steps[i].kernel, &p, o, &m, &e) != 0) {
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

int session_run_lesson(struct run_report *r, const struct lesson *l, unsigned long long size,
    unsigned int block, const struct measure_options *o, const struct session_hooks *h,
    struct error *e)
{
	if (session_check_fits(l, size, block, e) != 0 || session_begin(r, l, size, block, e) != 0)
		return -1;
	session_run(r, l, 0, l->nsteps - 1, o, h);
	return 0;
}

static bool keep_worker;

static void worker_end(void)
{
	isolate_worker_end();
	host_buffers_release();
}

void session_keep_worker(bool keep)
{
	keep_worker = keep;
	if (!keep)
		worker_end();
}

int session_run(struct run_report *r, const struct lesson *l, int first, int last,
    const struct measure_options *o, const struct session_hooks *h)
{
	int ran = 0;

	session_clocks(&r->clocks_start);
	for (int i = first; i <= last && i < r->nsteps; i++) {
		struct step_result before = r->steps[i];

		if (o->cancel != NULL && *o->cancel)
			break;
		if (h != NULL && h->step_begins != NULL)
			h->step_begins(h->ctx, i);
		session_step(r, l, i, o);
		/* the clock its timed runs ended at: the clock boosts and throttles as the GPU warms */
		{
			struct gpu_clocks c;

			session_clocks(&c);
			r->steps[i].sm_clock_mhz = c.have && r->steps[i].ran ? c.sm_mhz : 0;
		}
		if (o->cancel != NULL && *o->cancel && !r->steps[i].ran) {
			/* A cancelled step keeps what it had before. */
			r->steps[i] = before;
			results_derive(r);
			break;
		}
		ran++;
		if (h != NULL && h->step_done != NULL)
			h->step_done(h->ctx, r, i);
	}
	session_clocks(&r->clocks_end);
	/* no process of ours holds the GPU, or gigabytes of inputs, between runs */
	if (!keep_worker)
		worker_end();
	return ran;
}

/* ---- live or recorded ---------------------------------------------------- */

bool session_live(bool recorded_asked, struct error *e)
{
	e->msg[0] = '\0';
	if (recorded_asked)
		return false;
	return gpu_init(e) == 0;
}

/*
 * A recorded run numbered as the lesson numbers its steps today: a lesson
 * that has gained steps since the recording (a control put in before a
 * rung) shows each recorded kernel under its own step, where the number
 * stored with it names another kernel now.  The lesson only inserts
 * steps, so the recorded order stays the lesson's order.
 */
static void number_as_lesson(struct run_report *r, const struct lesson *l)
{
	for (int i = 0; i < r->nsteps; i++)
		for (int j = 0; j < l->nsteps; j++)
			if (strcmp(r->steps[i].kernel, l->steps[j].kernel->name) == 0) {
				r->steps[i].step = j + 1;
				break;
			}
}

int session_recorded(const char *file, const struct lesson *l, unsigned long long size,
    unsigned int block, struct run_report *r, struct error *e)
{
	if (results_find_recorded(file, l->id, size, block, r, e) != 0)
		return -1;
	number_as_lesson(r, l);
	return 0;
}

bool session_has_counters(const struct run_report *r)
{
	for (int i = 0; i < r->nsteps; i++)
		if (r->steps[i].metrics.collected)
			return true;
	return false;
}

int session_recorded_counters(const char *file, const struct lesson *l, unsigned long long size,
    unsigned int block, struct run_report *r, struct error *e)
{
	struct error none;

	if (session_recorded(file, l, size, block, r, e) == 0) {
		if (session_has_counters(r))
			return 0;
		error_set(e, _("the results recorded on %s on %.10s hold no counters for lesson '%s' "
		    "(record them on a GPU with 'cudatutor record')"), r->gpu.name, r->recorded_date, l->id);
		run_report_free(r);
	}
	/* record reads counters at the lesson's first size only: show those */
	if ((size != session_default_size(l) || block != session_default_block(l)) &&
	    session_recorded(file, l, session_default_size(l), session_default_block(l), r, &none) == 0) {
		if (session_has_counters(r))
			return 0;
		run_report_free(r);
	}
	memset(r, 0, sizeof *r);
	return -1;
}

void session_choose(const struct session_have *in, struct session_shown *out)
{
	bool live = !in->recorded_asked && in->gpu != SESSION_GPU_ABSENT;

	memset(out, 0, sizeof *out);
	if (live && in->live_failed == NULL) {
		out->report = in->live;
		out->source = SESSION_LIVE;
		return;
	}
	if (live)
		error_set(&out->note, "%s", in->live_failed);
	else if (!in->recorded_asked && in->no_gpu != NULL)
		error_set(&out->note, "%s", in->no_gpu);
	out->source = in->recorded_asked ? SESSION_RECORDED : live ? SESSION_NO_COUNTERS : SESSION_NO_GPU;
	if (in->recorded != NULL) {
		out->report = in->recorded;
		out->file = in->recorded->recorded_file;
	} else if (live) {
		out->error = out->note;
	} else if (in->recorded_asked || out->note.msg[0] == '\0') {
		error_set(&out->error, "%s", in->recorded_error != NULL ? in->recorded_error : "");
	} else {
		error_set(&out->error, _("%s, and %s"), out->note.msg,
		    in->recorded_error != NULL ? in->recorded_error : "");
	}
}

/* The choice made, into the caller's r, note and e: its source, or -1. */
static int take_shown(const struct session_shown *c, struct run_report *r, struct run_report *rec,
    struct error *note, struct error *e)
{
	*note = c->note;
	if (c->report == NULL) {
		*e = c->error;
		run_report_free(rec);
		return -1;
	}
	if (c->report == rec)
		*r = *rec;
	return (int)c->source;
}

/* What the choice has in hand without a GPU: why there is none, and the recorded report or why not. */
static void without_gpu(struct session_have *in, const struct error *note, const struct run_report *rec,
    const struct error *why)
{
	in->gpu = SESSION_GPU_ABSENT;
	in->no_gpu = note->msg;
	in->recorded = rec;
	in->recorded_error = why->msg;
}

int session_results(struct run_report *r, const struct lesson *l, unsigned long long size,
    unsigned int block, bool recorded_asked, const char *file, const struct measure_options *o,
    const struct session_hooks *h, struct error *note, struct error *e)
{
	struct run_report rec = { 0 };
	struct session_have in = { .recorded_asked = recorded_asked };
	struct session_shown c;
	struct error why = { "" };

	memset(r, 0, sizeof *r);
	if (session_live(recorded_asked, note)) {
		if (session_run_lesson(r, l, size, block, o, h, e) != 0)
			return -1;
		in.gpu = SESSION_GPU_READY;
		in.live = r;
	} else {
		without_gpu(&in, note, session_recorded(file, l, size, block, &rec, &why) == 0 ? &rec : NULL, &why);
	}
	session_choose(&in, &c);
	return take_shown(&c, r, &rec, note, e);
}

int session_counters(struct run_report *r, const struct lesson *l, int only,
    unsigned long long size, unsigned int block, bool recorded_asked, const char *file,
    const struct session_hooks *h, struct error *note, struct error *e)
{
	struct lesson one = *l;
	struct run_report rec = { 0 };
	struct session_have in = { .recorded_asked = recorded_asked };
	struct session_shown c;
	struct error why = { "" };

	memset(r, 0, sizeof *r);
	if (session_live(recorded_asked, note)) {
		if (only > 0) {
			one.steps = &l->steps[only - 1];
			one.nsteps = 1;
		}
		if (session_check_steps(&one, size, block, e) != 0)
			return -1;
		in.gpu = SESSION_GPU_READY;
		if (session_live_counters(r, &one, only, size, block, h, note) == 0) {
			in.live = r;
		} else {
			/* no ncu, or counters locked: those recorded with the results, from the newest file */
			in.live_failed = note->msg;
			if (session_recorded_counters(NULL, l, size, block, &rec, &why) == 0)
				in.recorded = &rec;
		}
	} else {
		without_gpu(&in, note, session_recorded_counters(file, l, size, block, &rec, &why) == 0 ? &rec : NULL,
		    &why);
	}
	session_choose(&in, &c);
	return take_shown(&c, r, &rec, note, e);
}

/* ---- which SASS ---------------------------------------------------------- */

int session_arch(const char *module, const char *live_arch, char *buf, size_t len,
    struct error *e)
{
	static char recorded_arch[16];
	static bool recorded_tried;
	const char *from = live_arch;
	char *archs, *last = NULL;
	int major, minor;

	if (from == NULL) {
		/* the GPU the student will see timings of: the newest recorded one */
		if (!recorded_tried) {
			struct gpu_desc g;
			struct error why;

			recorded_tried = true;
			if (results_newest_gpu(&g, &why) == 0)
				snprintf(recorded_arch, sizeof recorded_arch, "%s", g.arch);
		}
		if (recorded_arch[0] != '\0')
			from = recorded_arch;
	}
	if (from != NULL && sscanf(from, "sm_%1d%1d", &major, &minor) == 2) {
		if (inspect_arch_for(module, major, minor, buf, len, e) == 0)
			return 0;
		if (live_arch != NULL)
			return -1;	/* this GPU runs JIT-compiled PTX: no SASS to show */
	}
	archs = inspect_sass_archs(module, e);
	if (archs == NULL)
		return -1;
	for (char *a = strtok(archs, " "); a != NULL; a = strtok(NULL, " "))
		last = a;
	if (last != NULL)
		snprintf(buf, len, "%s", last);
	else
		error_set(e, _("kernels/%s.sass holds no SASS"), module);
	free(archs);
	return last != NULL ? 0 : -1;
}

int session_arch_here(const char *module, char *buf, size_t len, struct error *e)
{
	struct error none;
	const char *live = session_live(false, &none) ? gpu_info()->arch : NULL;

	return session_arch(module, live, buf, len, e);
}

void session_counts_arch(const char *module, char *buf, size_t len)
{
	struct error e;

	if (session_arch_here(module, buf, len, &e) != 0)
		snprintf(buf, len, "%s", SESSION_FALLBACK_ARCH);
}

/* ---- counters ------------------------------------------------------------ */

/*
 * Beside a step's counters, what its SASS says of Little's law: the bytes
 * of global loads one of its threads has in flight (on the arch the
 * counters were read on); 0 where its SASS cannot be read.
 */
static void read_load_bytes_in_flight(const struct kernel_def *k, unsigned int block, struct step_metrics *m)
{
	struct inspect_target t;
	struct sass_listing l;
	struct error e;
	char arch[16], *text;

	if (!m->collected || inspect_resolve(k->name, block, &t, &e) != 0 ||
	    session_arch_here(k->module, arch, sizeof arch, &e) != 0 || (text = inspect_sass(&t, arch, &e)) == NULL)
		return;
	sass_parse(text, &l);
	m->load_bytes_in_flight = sass_load_bytes_in_flight(&l);
	sass_listing_free(&l);
	free(text);
}

enum metrics_status session_step_counters(struct metrics_session *ms, const struct lesson *l,
    int i, int step_number, unsigned long long size, unsigned int block, struct step_metrics *m,
    struct error *e)
{
	const struct kernel_def *k = l->steps[i].kernel;
	char symbol[160];
	struct metrics_target t = { .lesson = l->id, .lang = l->lang, .step = step_number,
	    .size = size, .block = block, .symbol = registry_symbol(k, block, symbol, sizeof symbol) };
	enum metrics_status st;

	memset(m, 0, sizeof *m);
	e->msg[0] = '\0';
	if (registry_is_library(k)) {
		snprintf(m->note, sizeof m->note, "%s",
		    _("counters are read for the tutor's own kernels, not for library calls"));
		return METRICS_OK;
	}
	st = metrics_collect(ms, &t, m, e);
	read_load_bytes_in_flight(k, block, m);
	return st;
}

/*
 * session_step_counters into s->metrics, at s's size and block: a failure
 * other than locked counters becomes the step's note.
 */
static enum metrics_status session_read_counters(struct metrics_session *ms, const struct lesson *l,
    int i, int step_number, struct step_result *s, struct error *e)
{
	struct error why = { "" };
	enum metrics_status st = session_step_counters(ms, l, i, step_number, s->size, s->block,
	    &s->metrics, &why);

	/* Locked counters end the reading; any other failure is this step's alone. */
	if (st == METRICS_LOCKED)
		*e = why;
	else if (st != METRICS_OK)
		snprintf(s->metrics.note, sizeof s->metrics.note, "%s", why.msg);
	return st;
}

int session_live_counters(struct run_report *r, const struct lesson *l, int only,
    unsigned long long size, unsigned int block, const struct session_hooks *h, struct error *e)
{
	struct metrics_session ms;

	if (session_begin(r, l, size, block, e) != 0)
		return -1;
	if (metrics_session_begin(&ms, e) != 0) {
		run_report_free(r);
		return -1;
	}
	for (int i = 0; i < l->nsteps; i++) {
		int number = only > 0 ? only : i + 1;
		enum metrics_status st;

		r->steps[i].step = number;
		if (h != NULL && h->step_begins != NULL)
			h->step_begins(h->ctx, i);
		st = session_read_counters(&ms, l, i, number, &r->steps[i], e);
		if (h != NULL && h->step_done != NULL)
			h->step_done(h->ctx, r, i);
		if (st == METRICS_LOCKED) {
			metrics_session_end(&ms);
			run_report_free(r);
			return -1;
		}
	}
	metrics_session_end(&ms);
	return 0;
}

/* ---- recording ----------------------------------------------------------- */

int session_record_sizes(const struct lesson *l, unsigned long long sizes[2])
{
	/* a matrix lesson's size is the side: 4096 is its large point */
	unsigned long long large = session_default_size(l) <= 8192 ? 4096 : 1ULL << 28;
	int n = 0;

	sizes[n++] = session_default_size(l);
	/* a second, larger point, where the lesson takes it */
	if (large != sizes[0] && large <= session_max_size(l))
		sizes[n++] = large;
	/*
	 * A lesson at the large point already (the tensor cores'): its
	 * largest, where A and B no longer fit in L2 and cuBLAS meets the
	 * power cap.
	 */
	else if (large == sizes[0] && session_max_size(l) > large && session_max_size(l) <= 8192)
		sizes[n++] = session_max_size(l);
	return n;
}

char *session_record_path(const struct gpu_desc *g)
{
	char slug[256];

	results_slug(g->name, slug, sizeof slug);
	/* Beside the recorded results of a source tree; else here. */
	if (strcmp(paths_source_root(), PKGDATADIR) != 0) {
		char *dir = paths_source("data/results");
		if (access(dir, W_OK) == 0) {
			char *path = xasprintf("%s/%s.json", dir, slug);
			free(dir);
			return path;
		}
		free(dir);
	}
	return xasprintf("%s.json", slug);
}

char *session_recorded_file_of(const struct gpu_desc *g)
{
	char path[4096] = "";
	struct error e;

	while (results_next_file(path, NULL, path, sizeof path, &e) == 0) {
		struct results_file f;
		bool same;

		if (results_file_load(path, &f, &e) != 0)
			continue;
		same = strcmp(f.gpu.name, g->name) == 0;
		results_file_free(&f);
		if (same)
			return xstrdup(path);
	}
	return session_record_path(g);
}

enum metrics_status session_lessons_counters(struct metrics_session *ms,
    const struct lesson *const *ls, int n, unsigned long long size, unsigned int block,
    struct step_metrics *const *m, struct error *e)
{
	const char **ids = xcalloc((size_t)n + 1, sizeof *ids);
	int total = 0, k = 0;
	const char **symbols;
	char (*names)[160];
	struct step_metrics *all;
	enum metrics_status st;

	for (int j = 0; j < n; j++)
		total += ls[j]->nsteps;
	symbols = xcalloc((size_t)total + 1, sizeof *symbols);
	names = xcalloc((size_t)total + 1, sizeof *names);
	all = xcalloc((size_t)total + 1, sizeof *all);
	for (int j = 0; j < n; j++) {
		unsigned int b = block ? block : session_default_block(ls[j]);

		ids[j] = ls[j]->id;
		for (int i = 0; i < ls[j]->nsteps; i++, k++)
			if (!registry_is_library(ls[j]->steps[i].kernel))
				symbols[k] = registry_symbol(ls[j]->steps[i].kernel, b, names[k], sizeof names[k]);
	}
	{
		struct metrics_target t = { .lesson = ids[0], .lang = ls[0]->lang, .step = 0,
		    .size = size, .block = block, .symbols = symbols, .nsymbols = total,
		    .lessons = n > 1 ? ids : NULL, .nlessons = n > 1 ? n : 0 };

		e->msg[0] = '\0';
		st = metrics_collect(ms, &t, all, e);
	}
	k = 0;
	for (int j = 0; j < n; j++)
		for (int i = 0; i < ls[j]->nsteps; i++, k++) {
			m[j][i] = all[k];
			if (symbols[k] != NULL)
				read_load_bytes_in_flight(ls[j]->steps[i].kernel, block ? block : session_default_block(ls[j]),
				    &m[j][i]);
			if (symbols[k] == NULL)
				snprintf(m[j][i].note, sizeof m[j][i].note, "%s",
				    _("counters are read for the tutor's own kernels, not for library calls"));
			else if (st == METRICS_OK && !m[j][i].collected)
				snprintf(m[j][i].note, sizeof m[j][i].note, "%s",
				    _("ncu profiled no launch of this step's kernel (did the step fail?)"));
		}
	free(all);
	free(names);
	free(symbols);
	free(ids);
	return st;
}

/* ---- exercises ------------------------------------------------------------ */

/* A matrix experiment's size is its side, and its default says so. */
static bool exercise_is_matrix(const struct kernel_def *k)
{
	return k->shape == SHAPE_TILES ||
	    (k->experiment->default_size != 0 && k->experiment->default_size <= 8192);
}

/* Elements a block covers (its chunk), or for a matrix the side of its tile. */
static unsigned long long exercise_chunk(const struct kernel_def *k, unsigned int block)
{
	unsigned long long c = (unsigned long long)block * (k->per_thread ? k->per_thread : 1), t = 1;

	if (!exercise_is_matrix(k))
		return c;
	while ((t + 1) * (t + 1) <= c)
		t++;
	return t;
}

/* Add (size, block) to the list once, where the target takes it. */
static void add_size(const struct kernel_def *k, unsigned long long size, unsigned int block,
    bool random, struct exercise_size *sizes, int *n, int max)
{
	char why[256];

	if (*n >= max || size == 0 || size > k->experiment->max_size ||
	    registry_check_step(k, size, block, why, sizeof why) != NULL)
		return;
	for (int j = 0; j < *n; j++)
		if (sizes[j].size == size && sizes[j].block == block)
			return;
	sizes[*n].size = size;
	sizes[*n].block = block;
	sizes[*n].random = random;
	(*n)++;
}

/*
 * The other blocks the target takes, one of each kind a task allows: the
 * smallest, one that is not a power of two (three warps), half the
 * default, the largest.  A kernel written for one block size only (a
 * block of 512 assumed, a power of two where any multiple of 32 is
 * allowed) meets one it was not written for.  Returns how many (at most 4).
 */
static int exercise_other_blocks(const struct kernel_def *k, unsigned int block, unsigned int *out)
{
	unsigned int try[] = { k->min_block, 96, block / 2, k->max_block };
	char why[256];
	int n = 0;

	if (k->shape == SHAPE_TABLE)
		return 0;	/* its experiment's table sets the block: --block is not its */
	for (size_t i = 0; i < ARRAY_LEN(try); i++) {
		bool seen = try[i] == block;

		for (int j = 0; j < n; j++)
			seen |= out[j] == try[i];
		if (!seen && try[i] >= k->min_block && try[i] <= k->max_block &&
		    registry_check_step(k, exercise_is_matrix(k) ? 67 : 1000, try[i], why, sizeof why) == NULL)
			out[n++] = try[i];
	}
	return n;
}

/*
 * Elements past what any GPU's grid holds at once (2048 threads on each of
 * 160 multiprocessors, more than a Hopper has): a grid-stride kernel's
 * grid is capped to fill the GPU once, so only a size past it loops, and
 * only then can its tail go wrong; a kernel of one block a chunk runs
 * more blocks than fit at once.
 */
#define EXERCISE_FULL_GPU_THREADS (2048ULL * 160)

void session_exercise_size_words(const struct exercise_size_check *z, char *buf, size_t len)
{
	if (z->reversed)
		snprintf(buf, len, _("size %llu, block %u, its blocks started in reverse order"), z->size, z->block);
	else if (z->held)
		snprintf(buf, len, _("size %llu, block %u, in reverse order with half of the GPU held by another kernel"),
		    z->size, z->block);
	else if (z->random)
		snprintf(buf, len, _("size %llu, block %u (drawn at random)"), z->size, z->block);
	else
		snprintf(buf, len, _("size %llu, block %u"), z->size, z->block);
}

unsigned long long session_exercise_random_size(const struct kernel_def *target, unsigned int block,
    unsigned long long seed)
{
	unsigned long long c = exercise_chunk(target, block), state = seed | 1;
	unsigned long long r = ((unsigned long long)experiment_random(&state) << 16) ^ experiment_random(&state);

	/* up to a few chunks (a few tiles a side), never a multiple of one */
	return 1 + r % (exercise_is_matrix(target) ? 3 * c : 6 * c);
}

int session_exercise_sizes(const struct kernel_def *target, unsigned long long lesson_size,
    unsigned int block, unsigned long long random_size, struct exercise_size *sizes, int max)
{
	unsigned long long c = exercise_chunk(target, block);
	unsigned int parts = target->per_thread > 1 ? target->per_thread : 1, blocks[4];
	int n = 0, nb;

	add_size(target, 1, block, false, sizes, &n, max);
	if (exercise_is_matrix(target)) {
		/* around the tile, and every remainder of the side modulo 4 */
		add_size(target, c - 1, block, false, sizes, &n, max);
		add_size(target, c + 1, block, false, sizes, &n, max);
		add_size(target, 2 * c + 2, block, false, sizes, &n, max);
		add_size(target, 2 * c + 3, block, false, sizes, &n, max);
	} else {
		/* just below and above a multiple of the chunk, past the first block */
		add_size(target, 3 * c - 1, block, false, sizes, &n, max);
		add_size(target, 3 * c + 1, block, false, sizes, &n, max);
		/* a remainder in each part of the last block's chunk (at most 8 parts) */
		for (unsigned int i = 0, m = parts < 8 ? parts : 8; m > 1 && i < m; i++) {
			unsigned long long part = (unsigned long long)i * (parts - 1) / (m - 1);
			add_size(target, 2 * c + part * block + block / 2 + 1, block, false, sizes, &n, max);
		}
		/* every remainder modulo the elements a thread takes (a vector's width, at most 8) */
		for (unsigned int r = 1; r < parts && r < 8; r++)
			add_size(target, 4 * c + r, block, false, sizes, &n, max);
	}
	if (random_size != 0)
		add_size(target, random_size, block, true, sizes, &n, max);
	nb = exercise_other_blocks(target, block, blocks);
	for (int b = 0; b < nb; b++) {
		unsigned long long c2 = exercise_chunk(target, blocks[b]);

		add_size(target, exercise_is_matrix(target) ? c2 + 1 : 3 * c2 - 1, blocks[b], false, sizes, &n, max);
		add_size(target, exercise_is_matrix(target) ? 2 * c2 + 3 : 3 * c2 + 1, blocks[b], false, sizes, &n, max);
	}
	if (!exercise_is_matrix(target)) {
		/* past a full GPU, with a tail in the middle of a thread's elements */
		unsigned long long full = EXERCISE_FULL_GPU_THREADS * parts;

		add_size(target, 2 * full + c / 2 + (parts > 1 ? parts / 2 : 0) + 1, block, false, sizes, &n, max);
		if (nb > 0)
			add_size(target, 2 * full + exercise_chunk(target, blocks[0]) / 2 + 1, blocks[0], false, sizes,
			    &n, max);
	}
	add_size(target, lesson_size, block, false, sizes, &n, max);
	return n;
}

/* One step of the exercise's report: what session_begin would have made. */
static void exercise_step(struct step_result *s, int number, const char *title,
    const struct kernel_def *k, unsigned long long size, unsigned int block)
{
	memset(s, 0, sizeof *s);
	s->step = number;
	snprintf(s->title, sizeof s->title, "%s", title);
	snprintf(s->kernel, sizeof s->kernel, "%s", k->name);
	s->size = size;
	s->block = block;
	s->wrong_by_design = (k->flags & KF_WRONG_BY_DESIGN) != 0;
}

static void exercise_fill(struct step_result *s, const struct measurement *m)
{
	s->ran = true;
	s->grid = m->grid;
	s->reps = m->ms.n;
	s->median_ms = m->ms.median;
	s->q1_ms = m->ms.q1;
	s->q3_ms = m->ms.q3;
	s->min_ms = m->ms.min;
	s->max_ms = m->ms.max;
	s->spread_pct = stats_spread_pct(&m->ms);
	s->registers = m->registers;
	s->blocks_per_sm = m->blocks_per_sm;
	s->occupancy_pct = m->occupancy_pct;
	s->correct = m->check.correct;
	snprintf(s->check_detail, sizeof s->check_detail, "%s", m->check.detail);
}

/*
 * The sides a check under ncu reads device-memory bytes at
 * (CUDATUTOR_CHECK_DRAM=a,b) into sizes; how many (0: not such a check).
 */
static int dram_sizes(unsigned long long sizes[EXERCISE_DRAM_SIZES])
{
	const char *v = getenv("CUDATUTOR_CHECK_DRAM");
	int n = 0;

	for (char *end; v != NULL && *v != '\0' && n < EXERCISE_DRAM_SIZES; v = *end == ',' ? end + 1 : end) {
		sizes[n] = strtoull(v, &end, 10);
		if (end == v || sizes[n] == 0)
			break;
		n++;
	}
	return n;
}

/*
 * A student's kernel at every size its geometry asks for, one run each,
 * all in the worker.  Should the worker's process fail (a fault, the time
 * limit), it said which size it was at: that size gets the failure, the
 * sizes before it are run again in a fresh one, the rest not at all.
 * drawn: random_size was drawn, not given.  -1 only when cancelled.
 */
static int exercise_answers(const struct kernel_def *target, const void *image, size_t image_size,
    unsigned long long size, unsigned int block, unsigned long long random_size, bool drawn,
    unsigned long long seed, double time_limit, const struct measure_options *o, struct exercise_run *out, struct error *e)
{
	struct exercise_size sizes[EXERCISE_MAX_SIZES];
	struct measure_options quick = *o;
	struct sizes_result *all;
	struct error why;
	unsigned long long dram[EXERCISE_DRAM_SIZES];
	int at, ran, ndram;

	quick.warmup = 1;
	quick.warmup_seconds = 0;
	quick.min_reps = quick.max_reps = 1;
	quick.time_limit = time_limit;
	out->nsizes = session_exercise_sizes(target, size, block, random_size, sizes, EXERCISE_MAX_SIZES);
	for (int i = 0; !drawn && i < out->nsizes; i++)
		sizes[i].random = false;
	if ((ndram = dram_sizes(dram)) > 0) {
		/* under ncu, reading device-memory bytes: those sizes alone, one launch each (see exercise_executed) */
		for (int i = 0; i < ndram; i++)
			sizes[i] = (struct exercise_size){ dram[i], block, false };
		out->nsizes = ndram;
		quick.warmup = 0;
	} else if (getenv("CUDATUTOR_CHECK_EXECUTED") != NULL) {
		/* under ncu, reading what ran: the lesson's size alone (see exercise_executed) */
		sizes[0] = (struct exercise_size){ size, block, false };
		out->nsizes = 1;
	} else if (getenv("CUDATUTOR_CHECK_SMALL") != NULL) {
		/* under a compute-sanitizer tool (see exercise_tools): the sizes it takes in seconds */
		int kept = 0;

		for (int i = 0; i < out->nsizes; i++)
			if (exercise_size_is_small(target, sizes[i].size))
				sizes[kept++] = sizes[i];
		out->nsizes = kept;
	}
	out->correct = out->nsizes > 0;
	for (int i = 0; i < out->nsizes; i++) {
		out->sizes[i].size = sizes[i].size;
		out->sizes[i].block = sizes[i].block;
		out->sizes[i].random = sizes[i].random;
	}
	all = xcalloc(1, sizeof *all);
	ran = out->nsizes;
	if (sizes_run(target, image, image_size, sizes, out->nsizes, seed, &quick, time_limit, all, &at,
	    &why) != 0) {
		if (o->cancel != NULL && *o->cancel) {
			free(all);
			error_set(e, "%s", _("cancelled"));
			return -1;
		}
		snprintf(out->sizes[at].error, sizeof out->sizes[at].error, "%.500s", why.msg);
		out->correct = false;
		out->nsizes = at + 1;
		ran = at;
		if (at > 0 && sizes_run(target, image, image_size, sizes, at, seed, &quick, time_limit, all, &at,
		    &why) != 0)
			ran = 0;	/* no longer the same failure: those sizes stay unknown */
	}
	for (int i = 0; i < ran; i++) {
		out->sizes[i].ran = true;
		out->sizes[i].correct = all->at[i].correct;
		snprintf(out->sizes[i].detail, sizeof out->sizes[i].detail, "%s", all->at[i].detail);
		out->correct &= out->sizes[i].correct;
	}
	free(all);
	return 0;
}

/* Then timed like every step, beside the step it starts from and the reference. */
static int exercise_timing(const struct kernel_def *target, const struct kernel_def *start_from,
    const void *image, size_t image_size, unsigned long long size, unsigned int block,
    unsigned long long seed, double time_limit, const struct measure_options *o, struct exercise_run *out,
    struct error *e)
{
	struct measure_options full = *o;
	struct run_report *r = &out->report;
	struct measurement m;
	struct error why;

	memset(r, 0, sizeof *r);
	snprintf(r->lesson, sizeof r->lesson, "%s", "exercise");
	session_gpu_desc(&r->gpu);
	r->size = size;
	r->block = block;
	if (session_copy_bandwidth(false, &r->copy_gbps, e) != 0)
		return -1;
	/* the roofs, as a lesson's run has them: the yours row is placed against them too */
	if (session_roofs(false, &r->roofs, NULL, NULL, &why) != 0)
		memset(&r->roofs, 0, sizeof r->roofs);
	r->nsteps = 3;
	r->steps = xcalloc(4, sizeof *r->steps);
	exercise_step(&r->steps[0], 1, _("the step it starts from"), start_from, size, block);
	exercise_step(&r->steps[1], 2, _("the reference step"), target, size, block);
	exercise_step(&r->steps[2], 3, _("yours"), target, size, block);
	full.time_limit = time_limit * 10;
	out->retimed = out->impossible = false;
	for (int i = 0; i < 3; i++) {
		/* the three on the same inputs, the check's */
		struct step_params p = { .size = size, .block = block, .seed = seed };
		int rc = i < 2 ? session_measure(i == 0 ? start_from : target, &p, &full, &m, &why) :
		    session_measure_image(target, image, image_size, &p, &full, &m, &why);

		if (rc != 0) {
			snprintf(r->steps[i].error, sizeof r->steps[i].error, "%.500s", why.msg);
			continue;
		}
		exercise_fill(&r->steps[i], &m);
	}
	out->timed = r->steps[1].ran && r->steps[2].ran;
	/*
	 * Just past the slack: the reference and yours timed once more each,
	 * and each keeps its faster median, so that a kernel as fast as ours
	 * is never failed by one noisy measurement (both are treated alike).
	 */
	if (session_exercise_retime_wanted(out)) {
		for (int i = 1; i < 3; i++) {
			struct step_params p = { .size = size, .block = block, .seed = seed };
			struct step_result again = r->steps[i];	/* its title, kernel and size; the times anew */

			if ((i == 1 ? session_measure(target, &p, &full, &m, &why) :
			    session_measure_image(target, image, image_size, &p, &full, &m, &why)) != 0)
				continue;
			exercise_fill(&again, &m);
			session_exercise_keep_faster(&r->steps[i], &again);
		}
		out->retimed = true;
	}
	results_derive(r);
	session_exercise_time_verdict(out);
	return 0;
}

const char *session_exercise_ratio_text(double ratio, char *buf, size_t len)
{
	for (int digits = 2;; digits++) {
		snprintf(buf, len, "%.*f", digits, ratio);
		/* past the slack never reads as the slack itself: 1.1523 is "1.152", not "1.15" */
		if (digits >= 6 || !(ratio > SESSION_EXERCISE_SLACK) || strtod(buf, NULL) > SESSION_EXERCISE_SLACK)
			return buf;
	}
}

bool session_exercise_retime_wanted(const struct exercise_run *out)
{
	const struct step_result *ours = &out->report.steps[1], *yours = &out->report.steps[2];

	return out->timed && ours->median_ms > 0 && yours->median_ms > SESSION_EXERCISE_SLACK * ours->median_ms &&
	    yours->median_ms <= SESSION_EXERCISE_RETIME * ours->median_ms;
}

void session_exercise_keep_faster(struct step_result *kept, const struct step_result *again)
{
	if (again->correct && again->median_ms < kept->median_ms)
		*kept = *again;
}

void session_exercise_time_verdict(struct exercise_run *out)
{
	const struct step_result *s = out->report.steps;
	const struct roof_point *ours = &s[1].roof, *yours = &s[2].roof;

	out->ratio = out->start_ratio = 0;
	out->impossible = out->fast_enough = false;
	if (!out->timed || s[1].median_ms <= 0)
		return;
	out->ratio = s[2].median_ms / s[1].median_ms;
	out->start_ratio = s[0].ran ? s[0].median_ms / s[1].median_ms : 0;
	/*
	 * Faster than this GPU can do the work, where ours is not: it did not
	 * do the work it was timed on (an answer kept from an earlier run and
	 * copied out, say).
	 */
	out->impossible = yours->have && yours->roof_exceeded && !(ours->have && ours->roof_exceeded);
	out->fast_enough = s[2].correct && out->ratio <= SESSION_EXERCISE_SLACK && !out->impossible;
}

static void session_exercise_run_free(struct exercise_run *r)
{
	run_report_free(&r->report);
}

/*
 * The check under ncu at the sides sizes ended with status (not 0): the
 * student's answers at one of them were wrong (3), or it did not run.  A
 * size of the check's, failed: the first, the other named in its words.
 */
static void dram_size_failed(struct exercise_report *out, const unsigned long long *sizes, int status)
{
	struct exercise_size_check *z;
	const struct kernel_def *target = registry_find(out->def->target);

	if (out->run.nsizes >= EXERCISE_MAX_SIZES)
		out->run.nsizes = EXERCISE_MAX_SIZES - 1;
	z = &out->run.sizes[out->run.nsizes++];
	memset(z, 0, sizeof *z);
	z->size = sizes[0];
	z->block = target->experiment->default_block ? target->experiment->default_block : RESULTS_DEFAULT_BLOCK;
	z->ran = status == 3;
	if (z->ran)
		snprintf(z->detail, sizeof z->detail, _("wrong at %llu or %llu, where its device-memory reads were "
		    "measured (check --size N --seed %llu shows which)"), sizes[0], sizes[1], out->seed);
	else
		snprintf(z->error, sizeof z->error, _("it did not end right (exit %d) at %llu or %llu, where its "
		    "device-memory reads were measured (check --size N --seed %llu repeats it)"), status, sizes[0],
		    sizes[1], out->seed);
	out->run.correct = false;
}

/* The arguments of a check run again under a tool: the same file and inputs (seed: room for the number). */
static void check_args(const struct exercise_def *def, const char *dir, const char *file, unsigned long long seed,
    char seed_text[32], const char *args[10])
{
	int n = 0;

	snprintf(seed_text, 32, "%llu", seed);
	args[n++] = def->id;
	args[n++] = "--seed";
	args[n++] = seed_text;
	if (file != NULL) {
		args[n++] = "--file";
		args[n++] = file;
	}
	if (dir != NULL) {
		args[n++] = "--dir";
		args[n++] = dir;
	}
	args[n] = NULL;
}

/*
 * The technique where it ran: ncu reads which instructions of the
 * student's kernel executed at the lesson's size, and the exercise's
 * checks count those alone.  A technique placed in a branch never taken
 * passes the SASS checks, not these.
 */
static void exercise_executed(const struct exercise_def *def, const char *dir, const char *file,
    volatile int *cancel, struct exercise_report *out)
{
	struct metrics_session ms = { 0 };
	struct exercise_result ran;
	const char *args[10];
	char *sass = NULL, seed[32];
	double *counts = NULL;
	struct error why;

	check_args(def, dir, file, out->seed, seed, args);
	if (metrics_session_begin(&ms, &why) != 0) {
		snprintf(out->executed_note, sizeof out->executed_note, "%.500s", why.msg);
		return;
	}
	ms.cancel = cancel;
	if (metrics_executed_sass(&ms, def->target, args, &sass, &counts, &why) != METRICS_OK) {
		snprintf(out->executed_note, sizeof out->executed_note, "%.500s", why.msg);
		metrics_session_end(&ms);
		return;
	}
	metrics_session_end(&ms);
	ran = out->compiled;		/* the same file, PTX and registers; only the SASS differs */
	ran.sass = sass;
	ran.sass_counts = counts;
	/* one count a line of the listing */
	for (const char *q = sass; q != NULL && (q = strchr(q, '\n')) != NULL; q++)
		ran.nsass_counts++;
	if (exercise_check_sass(def, &ran, &out->executed, &why) == 0)
		out->executed_checked = true;
	else
		snprintf(out->executed_note, sizeof out->executed_note, "%.500s", why.msg);
	free(sass);
	free(counts);
}

/*
 * What the blocks read, for a row with such a check (c), once the rest has
 * passed: ncu reads the device-memory bytes of the student's kernel and
 * ours at the check's sizes (metrics_dram_reads), and the check is judged
 * again on them in out->executed.  Else out->unjudged says why not, or a
 * size fails where the answers there were wrong.
 */
static void exercise_dram(const struct exercise_def *def, const struct exercise_check *c, const char *dir,
    const char *file, volatile int *cancel, struct exercise_report *out)
{
	unsigned long long sizes[EXERCISE_DRAM_SIZES];
	struct exercise_result r = { 0 };
	struct metrics_session ms = { 0 };
	const char *args[10];
	char seed[32];
	struct error why;
	enum metrics_status st;
	int status = -1;

	exercise_dram_sizes(c, sizes);
	check_args(def, dir, file, out->seed, seed, args);
	if (metrics_session_begin(&ms, &why) != 0) {
		snprintf(out->unjudged, sizeof out->unjudged, _("its device-memory reads could not be read: %.400s"),
		    why.msg);
		return;
	}
	ms.cancel = cancel;
	st = metrics_dram_reads(&ms, def->target, args, sizes, EXERCISE_DRAM_SIZES, r.dram_yours, r.dram_ours,
	    &status, &why);
	metrics_session_end(&ms);
	if (status > 0) {
		/* sizes the answers were not checked at: wrong there is wrong */
		dram_size_failed(out, sizes, status);
		return;
	}
	if (st != METRICS_OK) {
		snprintf(out->unjudged, sizeof out->unjudged, _("its device-memory reads at n = %llu and %llu could not "
		    "be read: %.400s"), sizes[0], sizes[1], why.msg);
		return;
	}
	out->executed.passed = true;
	for (int i = 0; i < out->executed.count; i++) {
		struct exercise_check_outcome *o = &out->executed.checks[i];

		if (o->check == c)
			exercise_judge_dram(c, &r, o);
		out->executed.passed &= o->passed;
	}
}

/* exercise_executed in a thread of its own, beside the tools, and its seconds. */
struct executed_job {
	const struct exercise_def *def;
	const char *dir, *file;
	volatile int *cancel;
	struct exercise_report *out;
	double seconds;
	pthread_t thread;
};

static void *executed_run(void *arg)
{
	struct executed_job *j = arg;
	double t0 = now_seconds();

	exercise_executed(j->def, j->dir, j->file, j->cancel, j->out);
	j->seconds = now_seconds() - t0;
	return NULL;
}

unsigned long long session_exercise_draw_seed(void)
{
	unsigned long long state = (unsigned long long)time(NULL) * 2654435761ULL ^
	    ((unsigned long long)getpid() << 32) ^ (unsigned long long)clock();

	/* at most 9 digits: a number a student copies into --seed without a slip */
	return 1 + ((unsigned long long)experiment_random(&state) % 999999999ULL);
}

static bool tools_at_every_size;

void session_exercise_tools_at_every_size(bool every)
{
	tools_at_every_size = every;
}

/* The first thing a tool found: its first "========= " line that is not its banner or summary. */
static void tool_first_error(const char *report, char *buf, size_t len)
{
	snprintf(buf, len, "%s", _("it found errors (its report says which)"));
	for (const char *line = report; line != NULL && *line != '\0';) {
		const char *end = strchr(line, '\n');
		size_t n = end != NULL ? (size_t)(end - line) : strlen(line);

		if (strncmp(line, "========= ", 10) == 0 && n > 10 && line[10] != ' ' &&
		    strncmp(line + 10, "COMPUTE-SANITIZER", 17) != 0 && strncmp(line + 10, "ERROR SUMMARY", 13) != 0 &&
		    strncmp(line + 10, "RACECHECK SUMMARY", 17) != 0) {
			snprintf(buf, len, "%.*s", (int)(n - 10 < len - 1 ? n - 10 : len - 1), line + 10);
			return;
		}
		line = end != NULL ? end + 1 : NULL;
	}
}

/* How many instructions of the SASS have one of the nops opcodes in ops; -1 where there is no SASS. */
static int count_opcodes(const char *sass, const char *const *ops, size_t nops)
{
	struct sass_listing l;
	int n = 0;

	if (sass == NULL)
		return -1;
	sass_parse(sass, &l);
	for (size_t i = 0; i < nops; i++)
		n += sass_count(&l, ops[i]);
	sass_listing_free(&l);
	return n;
}

/* Does the kernel use shared memory or a barrier: what racecheck and synccheck watch? */
static bool uses_shared_or_barriers(const char *sass)
{
	static const char *const ops[] = { "LDS", "STS", "ATOMS", "LDSM", "STSM", "LDGSTS", "BAR", "SYNCS",
	    "UTMALDG", "HGMMA" };

	/* without SASS it cannot tell: let them look */
	return count_opcodes(sass, ops, ARRAY_LEN(ops)) != 0;
}

/* Do blocks of this kernel meet through global memory's atomics (a ticket, a counter)? */
static bool uses_global_atomics(const char *sass)
{
	static const char *const ops[] = { "ATOMG", "ATOM", "RED" };

	return count_opcodes(sass, ops, ARRAY_LEN(ops)) > 0;
}

/* One tool over a check, in a thread of its own: the three run side by side. */
struct tool_job {
	const char *const *args;
	volatile int *cancel;
	struct exercise_tool *t;
	enum metrics_status st;
	struct error why;
};

static void *tool_run(void *arg)
{
	struct tool_job *j = arg;

	j->st = metrics_sanitize(j->t->name, j->args, !tools_at_every_size, &j->t->report, &j->t->clean, j->cancel,
	    &j->why);
	return NULL;
}

/*
 * compute-sanitizer over the check's own sizes and inputs (its seed):
 * memcheck on every kernel, synccheck and racecheck on one that uses
 * shared memory or barriers.  A race the GPU forgives nearly always (a
 * last warp without __syncwarp, a tile refilled while a slow warp reads
 * it) gives right answers; racecheck sees it.  The tools run at once, each
 * in its own process (they check answers, not time: sharing the GPU costs
 * them nothing but seconds).  Each tool's verdict goes in out->tools; a
 * hazard fails the check.
 */
static void exercise_tools(const struct exercise_def *def, const char *dir, const char *file,
    unsigned long long size, volatile int *cancel, struct exercise_report *out)
{
	static const char *const names[] = { "memcheck", "synccheck", "racecheck" };
	bool shared = uses_shared_or_barriers(out->compiled.sass);
	struct tool_job jobs[ARRAY_LEN(names)];
	pthread_t threads[ARRAY_LEN(names)];
	bool started[ARRAY_LEN(names)] = { false };
	char seed[32], size_arg[32];
	const char *args[12];
	int n = 0;

	snprintf(seed, sizeof seed, "%llu", out->seed);
	snprintf(size_arg, sizeof size_arg, "%llu", size);
	args[n++] = def->id;
	args[n++] = "--seed";
	args[n++] = seed;
	if (size != 0) {
		args[n++] = "--size";
		args[n++] = size_arg;
	}
	if (file != NULL) {
		args[n++] = "--file";
		args[n++] = file;
	}
	if (dir != NULL) {
		args[n++] = "--dir";
		args[n++] = dir;
	}
	args[n] = NULL;
	out->ntools = (int)ARRAY_LEN(names);
	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		struct exercise_tool *t = &out->tools[i];

		snprintf(t->name, sizeof t->name, "%s", names[i]);
		if (i > 0 && !shared) {
			snprintf(t->note, sizeof t->note, "%s", _("not run: the kernel uses no shared memory and no barrier"));
			continue;
		}
		jobs[i] = (struct tool_job){ .args = args, .cancel = cancel, .t = t };
		started[i] = pthread_create(&threads[i], NULL, tool_run, &jobs[i]) == 0;
		if (!started[i])
			tool_run(&jobs[i]);
	}
	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		struct exercise_tool *t = &out->tools[i];

		if (i > 0 && !shared)
			continue;
		if (started[i])
			pthread_join(threads[i], NULL);
		if (jobs[i].st == METRICS_OK) {
			t->ran = true;
			if (!t->clean)
				tool_first_error(t->report, t->note, sizeof t->note);
		} else {
			free(t->report);
			t->report = NULL;
			t->clean = false;
			if (jobs[i].st != METRICS_CANCELLED)
				snprintf(t->note, sizeof t->note, _("not run: %.480s"), jobs[i].why.msg);
		}
	}
}

/* Seconds one run of a student's kernel may take before it counts as an endless loop. */
#define EXERCISE_TIME_LIMIT 10.0

/* The SASS of the compiled kernel, read and checked (in a thread of its own while the GPU runs it). */
struct sass_job {
	const struct exercise_def *def;
	struct exercise_report *out;
};

static void *sass_check(void *arg)
{
	struct sass_job *j = arg;
	struct exercise_report *out = j->out;
	struct error why;

	exercise_read_sass(&out->compiled);
	if (exercise_check_sass(j->def, &out->compiled, &out->verdict, &why) == 0)
		out->sass_checked = true;
	else
		snprintf(out->sass_error, sizeof out->sass_error, "%.500s", why.msg);
	return NULL;
}

/*
 * The answers again at the same sizes and inputs, with something CUDA
 * leaves free changed (the order blocks start in, how many run at once):
 * the first wrong size joins out->run.sizes, marked by mark(), and fails
 * the check.  true: it ran; else note says why not.
 */
static bool answers_again(const struct kernel_def *target, const void *image, size_t image_size,
    unsigned long long size, unsigned int block, unsigned long long extra_size, bool drawn, double time_limit,
    const struct measure_options *o, void (*mark)(struct exercise_size_check *z), char *note, size_t note_len,
    struct exercise_report *out)
{
	struct exercise_run *again = xcalloc(1, sizeof *again);
	struct error why;
	bool ran = false;

	if (exercise_answers(target, image, image_size, size, block, extra_size, drawn, out->seed, time_limit, o,
	    again, &why) != 0) {
		snprintf(note, note_len, _("not run: %.480s"), why.msg);
	} else {
		ran = true;
		for (int i = 0; i < again->nsizes; i++) {
			struct exercise_size_check *z = &again->sizes[i];

			if (z->ran && z->correct)
				continue;
			mark(z);
			if (out->run.nsizes < EXERCISE_MAX_SIZES)
				out->run.sizes[out->run.nsizes++] = *z;
			else
				out->run.sizes[EXERCISE_MAX_SIZES - 1] = *z;
			out->run.correct = false;
			break;
		}
	}
	run_report_free(&again->report);
	free(again);
	return ran;
}

static void mark_reversed(struct exercise_size_check *z)
{
	z->reversed = true;
}

static void mark_held(struct exercise_size_check *z)
{
	z->held = true;
}

/*
 * Blocks may start in any order, but the GPU starts them nearly in index
 * order, so a kernel that counts on block 0 going first (a counter it
 * resets when it starts) is right at every size.  A kernel whose blocks
 * meet through global atomics is therefore run again at the same sizes
 * and inputs with its blocks numbered from the other end, so that block 0
 * starts last (exercise_build_reversed).
 *
 * Nor does CUDA promise that a launch's blocks all run at once, and the
 * check's grids never hold more blocks than the GPU runs at once: all of
 * them start within a microsecond or two, so even in reverse order block
 * 0 starts long before any other ends, and a kernel whose blocks wait for
 * each other (a barrier across the grid, spun on a global counter) is
 * right on a GPU with nothing else to run.  Right in reverse order, the
 * same reversed build runs once more while another kernel holds half of
 * the GPU's multiprocessors (gpu_hold_sms): its blocks then run only as
 * they fit in the other half, block 0 among the last, after others have
 * ended.  A wait across the grid never ends there, and costs this much of
 * the time limit.
 */
#define EXERCISE_HELD_TIME_LIMIT 5.0

static void exercise_reordered(const struct kernel_def *target, unsigned long long size, unsigned int block,
    unsigned long long extra_size, bool drawn, const struct measure_options *o, struct exercise_report *out)
{
	struct measure_options beside = *o;
	struct nvrtc_result built;
	struct error why;
	double t0 = now_seconds();

	if (exercise_build_reversed(&out->compiled, &built, &why) != 0) {
		snprintf(out->reversed_note, sizeof out->reversed_note, _("not run: %.480s"), why.msg);
		return;
	}
	out->reversed_ran = answers_again(target, built.cubin, built.cubin_size, size, block, extra_size, drawn,
	    EXERCISE_TIME_LIMIT, o, mark_reversed, out->reversed_note, sizeof out->reversed_note, out);
	out->seconds.reversed = now_seconds() - t0;
	if (out->reversed_ran && out->run.correct) {
		t0 = now_seconds();
		beside.hold = 0.5;
		out->held_ran = answers_again(target, built.cubin, built.cubin_size, size, block, extra_size, drawn,
		    EXERCISE_HELD_TIME_LIMIT, &beside, mark_held, out->held_note, sizeof out->held_note, out);
		out->seconds.held = now_seconds() - t0;
	}
	nvrtc_result_free(&built);
}

/*
 * This check is one run again under compute-sanitizer or ncu, for what
 * the tool reads (exercise_tools, exercise_executed): the answers, or the
 * instructions executed.  The SASS is the first check's to judge; read
 * here, it would start two more processes (cuobjdump and nvdisasm) for
 * the tool to attach to, for nothing.
 */
static bool run_again_for_a_tool(void)
{
	return getenv("CUDATUTOR_CHECK_EXECUTED") != NULL || getenv("CUDATUTOR_CHECK_CORRECTNESS_ONLY") != NULL ||
	    getenv("CUDATUTOR_CHECK_DRAM") != NULL;
}

/*
 * The answers on the GPU, with the SASS read and checked meanwhile (each
 * takes about half a second: together they take the longer of the two),
 * then the timing.  The worker is started before the thread, so that no
 * process is forked while the thread may hold a lock.  -1 and e when
 * nothing could run.
 */
static int exercise_on_gpu(const struct exercise_def *def, const struct kernel_def *target,
    const struct kernel_def *start, unsigned long long size, unsigned int block,
    unsigned long long extra_size, bool drawn, bool timing, const struct measure_options *o,
    const struct exercise_hooks *h, struct exercise_report *out, struct error *e)
{
	unsigned long long seed = out->seed;
	const void *image = out->compiled.nvrtc.cubin;
	size_t image_size = out->compiled.nvrtc.cubin_size;
	struct sass_job sj = { def, out };
	struct error why;
	unsigned long long dram[EXERCISE_DRAM_SIZES];
	pthread_t t;
	bool threaded;
	double t0;
	int rc, ndram;

	/* beside other checks of a class on this GPU: they may run kernels too, but not time them */
	gpu_lock_shared();
	t0 = now_seconds();
	threaded = false;
	out->sass_skipped = run_again_for_a_tool();
	if (!out->sass_skipped) {
		threaded = isolate_worker_warm(&why) == 0 && pthread_create(&t, NULL, sass_check, &sj) == 0;
		if (!threaded)
			sass_check(&sj);
	}
	rc = exercise_answers(target, image, image_size, size, block, extra_size, drawn, seed,
	    EXERCISE_TIME_LIMIT, o, &out->run, e);
	if (threaded)
		pthread_join(t, NULL);
	out->seconds.answers = now_seconds() - t0;
	if (rc != 0)
		goto done;
	if ((ndram = dram_sizes(dram)) > 0) {
		/* then ours once at each size, on the same inputs, for ncu to read after the student's */
		struct measure_options once = *o;
		struct measurement m;

		once.warmup = 0;
		once.warmup_seconds = 0;
		once.min_reps = once.max_reps = 1;
		once.time_limit = EXERCISE_TIME_LIMIT;
		for (int i = 0; i < ndram && rc == 0; i++) {
			struct step_params sp = { .size = dram[i], .block = block, .seed = seed };

			rc = session_measure(target, &sp, &once, &m, e);
		}
		goto done;
	}
	/* not under a tool or ncu (see exercise_tools), which run the check again for what they read */
	if (out->run.correct && !out->sass_skipped && uses_global_atomics(out->compiled.sass))
		exercise_reordered(target, size, block, extra_size, drawn, o, out);
	if (h != NULL && h->answers != NULL)
		h->answers(h->ctx, out);
	/*
	 * In a class, a kernel its SASS has already failed is not timed: its
	 * time cannot change the verdict, and timing takes the GPU from every
	 * other check of the class (gpu_lock_exclusive).  Checked alone, its
	 * time is shown beside ours.
	 */
	if (out->run.correct && timing && !(gpu_lock_given() && out->sass_checked && !out->verdict.passed)) {
		/* the GPU alone while the three are timed; the tools that follow share it again */
		t0 = now_seconds();
		gpu_lock_exclusive();
		rc = exercise_timing(target, start, image, image_size, size, block, seed, EXERCISE_TIME_LIMIT,
		    o, &out->run, e);
		gpu_lock_shared();
		out->seconds.timing = now_seconds() - t0;
	}
done:
	if (!keep_worker)
		worker_end();
	return rc;
}

/* The student's file (file, else the working copy in dir) built into out->compiled: 0, or -1 and e. */
static int exercise_compile_here(const struct exercise_def *def, const struct kernel_def *target,
    const char *dir, const char *file, struct exercise_report *out, struct error *e)
{
	char arch[16];
	struct error why;
	int rc;

	/* the SASS the student compares with ours: the same architecture the views show (see exercise_arch) */
	if (session_arch_here(target->module, arch, sizeof arch, &why) != 0)
		snprintf(arch, sizeof arch, "%s", SESSION_FALLBACK_ARCH);
	/* a file checked where it is: its cubin in the cache, nothing in the exercises' folder */
	rc = file != NULL ? exercise_build_file(def, file, arch, NULL, &out->compiled, e) :
	    exercise_build(dir, def->id, arch, &out->compiled, e);
	if (rc != 0)
		exercise_result_free(&out->compiled);	/* what it began to fill (its path) */
	return rc;
}

int session_exercise_check(const char *dir, const char *id, const char *file, bool timing,
    unsigned long long extra_size, unsigned long long seed, const struct measure_options *o,
    const struct exercise_hooks *h, struct progress *p, struct exercise_report *out, struct error *e)
{
	const struct exercise_def *def;
	const struct kernel_def *target, *start;
	struct error why;
	unsigned int block;
	bool given_size;

	memset(out, 0, sizeof *out);
	if ((def = exercise_lookup(id, e)) == NULL)
		return -1;
	out->def = def;
	target = registry_find(def->target);
	start = registry_find(def->start_from);
	if (target == NULL || start == NULL) {
		error_set(e, _("exercise '%s' names a kernel the tutor does not have"), id);
		return -1;
	}
	if (exercise_compile_here(def, target, dir, file, out, e) != 0)
		return -1;
	if (!out->compiled.ok || out->compiled.problem != NULL) {
		exercise_read_sass(&out->compiled);
		return 0;
	}
	/* no GPU, or one the target cannot run on (sm_90a elsewhere): the SASS is all that is checked */
	if (!session_live(false, &why) ||
	    registry_check_gpu(target, gpu_info()->cc_major, gpu_info()->cc_minor, why.msg, sizeof why.msg) != NULL) {
		struct sass_job sj = { def, out };

		sass_check(&sj);
		snprintf(out->no_gpu, sizeof out->no_gpu, "%.500s", why.msg);
		return 0;
	}
	block = target->experiment->default_block ? target->experiment->default_block : RESULTS_DEFAULT_BLOCK;
	/* one seed for the check: its inputs and its random size, printed so that --seed repeats them */
	out->seed = seed != 0 ? seed : session_exercise_draw_seed();
	given_size = extra_size != 0;
	if (extra_size == 0)
		extra_size = session_exercise_random_size(target, block, out->seed);
	out->gpu = true;	/* as the hook sees it; taken back below if nothing could run */
	if (exercise_on_gpu(def, target, start, target->experiment->default_size ?
	    target->experiment->default_size : RESULTS_DEFAULT_SIZE, block, extra_size, !given_size, timing,
	    o, h, out, &why) != 0) {
		gpu_lock_release();
		out->gpu = false;
		snprintf(out->no_gpu, sizeof out->no_gpu, "%.500s", why.msg);
		return 0;
	}
	out->passed = ((out->sass_checked && out->verdict.passed) || out->sass_skipped) && out->run.correct &&
	    (!timing || out->run.fast_enough);
	if (h != NULL && h->timed != NULL && out->run.timed)
		h->timed(h->ctx, out);
	/*
	 * The tools see what right answers hide: races, accesses out of
	 * bounds, barriers misused; ncu, whether the technique's instructions
	 * executed (a pass is earned where the kernel ran).  They take
	 * seconds, so they run only where they can still change the verdict:
	 * not on a check already failed by its SASS or its time; and side by
	 * side, each in processes of its own, since they read answers and
	 * instruction counts, not times.
	 */
	if (out->passed && timing && !out->sass_skipped) {
		struct executed_job ej = { .def = def, .dir = dir, .file = file, .cancel = o->cancel, .out = out };
		/* the row's check of what the blocks read, if it has one */
		const struct exercise_check *reads = exercise_dram_check(def);
		bool side_by_side = pthread_create(&ej.thread, NULL, executed_run, &ej) == 0;
		double t0 = now_seconds();

		exercise_tools(def, dir, file, given_size ? extra_size : 0, o->cancel, out);
		out->seconds.tools = now_seconds() - t0;
		if (side_by_side)
			pthread_join(ej.thread, NULL);
		else
			executed_run(&ej);
		out->seconds.executed = ej.seconds;
		for (int i = 0; i < out->ntools; i++)
			if (out->tools[i].ran && !out->tools[i].clean)
				out->passed = false;
		if (h != NULL && h->tools != NULL)
			h->tools(h->ctx, out);
		if (out->executed_checked && !out->executed.passed)
			out->passed = false;
		/*
		 * What the blocks read, last and with the GPU alone: ncu's
		 * device-memory counters count the bytes of every kernel that runs
		 * meanwhile, a tool's or another check's.
		 */
		if (out->passed && out->executed_checked && reads != NULL) {
			t0 = now_seconds();
			gpu_lock_exclusive();
			exercise_dram(def, reads, dir, file, o->cancel, out);
			gpu_lock_shared();
			out->seconds.dram = now_seconds() - t0;
			if (!out->executed.passed || !out->run.correct)
				out->passed = false;
		}
		/* a technique only a run shows, not read: no verdict either way */
		if (out->passed && reads != NULL && out->unjudged[0] == '\0' &&
		    !(out->executed_checked && exercise_dram_judged(&out->executed) != NULL))
			snprintf(out->unjudged, sizeof out->unjudged, _("its device-memory reads could not be read: %.400s"),
			    out->executed_note[0] ? out->executed_note : _("Nsight Compute did not run"));
		if (out->unjudged[0] != '\0')
			out->passed = false;
	}
	gpu_lock_release();
	if (p != NULL && out->passed) {
		const struct step_result *yours = &out->run.report.steps[2];
		char date[40];
		time_t now = time(NULL);

		strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
		progress_exercise_passed(p, def->id);
		out->new_best = progress_exercise_time(p, def->id, yours->median_ms,
		    out->run.report.gpu.name, date);
	}
	return 0;
}

bool session_exercise_graded(const struct exercise_report *r)
{
	return !r->compiled.ok || r->compiled.problem != NULL || (r->sass_checked && !r->verdict.passed) ||
	    (r->gpu && r->unjudged[0] == '\0');
}

void session_exercise_reason(const struct exercise_report *r, char *buf, size_t len)
{
	char what[256], line[512];

	buf[0] = '\0';
	if (!r->compiled.ok) {
		exercise_first_error(r->compiled.diagnostics, line, sizeof line);
		snprintf(buf, len, _("does not compile: %s"), line);
		return;
	}
	if (r->compiled.problem != NULL) {
		snprintf(buf, len, "%s", r->compiled.problem);
		return;
	}
	if (!r->sass_checked && !r->sass_skipped) {
		snprintf(buf, len, _("its SASS could not be checked: %s"), r->sass_error);
		return;
	}
	for (int i = 0; !r->verdict.passed && i < r->verdict.count; i++) {
		const struct exercise_check_outcome *o = &r->verdict.checks[i];

		if (!o->passed && !o->hint) {
			exercise_check_describe(o, what, sizeof what);
			snprintf(buf, len, _("SASS: %s: %s"), what, o->message);
			return;
		}
	}
	if (!r->gpu) {
		snprintf(buf, len, _("not graded: %s"), r->no_gpu);
		return;
	}
	for (int i = 0; i < r->run.nsizes; i++) {
		const struct exercise_size_check *z = &r->run.sizes[i];

		if (z->reversed && (!z->ran || !z->correct)) {
			snprintf(buf, len, _("wrong with its blocks started in reverse order (blocks may start in any "
			    "order), at size %llu, block %u: %s"), z->size, z->block, !z->ran ? z->error : z->detail);
			return;
		}
		if (z->held && (!z->ran || !z->correct)) {
			snprintf(buf, len, _("wrong in reverse order while another kernel held half of the GPU (a "
			    "launch's blocks need not all run at once), at size %llu, block %u: %s"), z->size, z->block,
			    !z->ran ? z->error : z->detail);
			return;
		}
		if (!z->ran || !z->correct) {
			snprintf(buf, len, _("wrong at size %llu, block %u: %s"), z->size, z->block,
			    !z->ran ? z->error : z->detail);
			return;
		}
	}
	if (r->run.timed && r->run.impossible) {
		snprintf(buf, len, "%s", _("faster than this GPU can do the work: it did not do the work it was timed on"));
		return;
	}
	if (r->run.timed && !r->run.fast_enough) {
		char ratio[16];

		snprintf(buf, len, _("%sx the reference's time (passing asks for at most %.2fx)"),
		    session_exercise_ratio_text(r->run.ratio, ratio, sizeof ratio), SESSION_EXERCISE_SLACK);
		return;
	}
	for (int i = 0; i < r->ntools; i++) {
		if (r->tools[i].ran && !r->tools[i].clean) {
			snprintf(buf, len, "%s: %s", r->tools[i].name, r->tools[i].note);
			return;
		}
	}
	for (int i = 0; r->executed_checked && i < r->executed.count; i++) {
		const struct exercise_check_outcome *o = &r->executed.checks[i];

		if (!o->passed && !o->hint) {
			exercise_check_describe(o, what, sizeof what);
			snprintf(buf, len, _("where it ran: %s"), what);
			return;
		}
	}
	if (r->unjudged[0] != '\0')
		snprintf(buf, len, _("not graded: %s"), r->unjudged);
}

void session_exercise_report_free(struct exercise_report *r)
{
	for (int i = 0; i < r->ntools; i++)
		free(r->tools[i].report);
	exercise_result_free(&r->compiled);
	session_exercise_run_free(&r->run);
}

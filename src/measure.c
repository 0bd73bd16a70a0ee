/* Measuring: warm-up, timed repetitions, statistics, the check, copy bandwidth. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "i18n.h"
#include "measure.h"
#include "paths.h"

/* The L2 eviction buffer: allocated once, several times the L2's size. */
static void *flush_buf;
static size_t flush_bytes;
static int *flush_sink;
static void *flush_kernel;

void measure_default_options(struct measure_options *o)
{
	memset(o, 0, sizeof *o);
	o->warmup = 3;
	o->warmup_seconds = 0.3;
	o->min_reps = 5;
	o->max_reps = 200;
	o->target_seconds = 0.5;
}

static size_t flush_size(void)
{
	size_t l2 = gpu_info()->l2_bytes;
	size_t want = 4 * (l2 ? l2 : (size_t)64 << 20);

	return want < ((size_t)64 << 20) ? (size_t)64 << 20 : want;
}

static int flush_init(struct error *e)
{
	if (flush_buf != NULL)
		return 0;

	if (gpu_kernel("measure", "flush_l2_read", &flush_kernel, e) != 0)
		return -1;
	flush_bytes = flush_size();
	if (gpu_malloc(&flush_buf, flush_bytes, e) != 0)
		return -1;
	if (gpu_malloc((void **)&flush_sink, sizeof(int), e) != 0 ||
	    gpu_fill(flush_buf, 0, flush_bytes, e) != 0 ||
	    gpu_synchronize(e) != 0) {
		gpu_free(flush_buf);
		flush_buf = NULL;
		return -1;
	}
	return 0;
}

static int flush_l2(struct error *e)
{
	unsigned long long n4 = flush_bytes / 16;
	void *args[] = { &flush_buf, &n4, &flush_sink };

	return gpu_launch(flush_kernel, (unsigned int)gpu_info()->sm_count * 4, 512, 0, args, e);
}

int measure_check_fits(const struct kernel_def *k, const struct step_params *p, struct error *e)
{
	const struct experiment *x = k->experiment;
	size_t free_bytes = 0, total_bytes = 0, need;
	char need_s[32], free_s[32], why[256];

	if (registry_check_step(k, p->size, p->block, why, sizeof why) != NULL) {
		error_set(e, "%s", why);
		return -1;
	}
	if (gpu_mem_info(&free_bytes, &total_bytes, e) != 0)
		return -1;
	need = x->device_bytes(k, p) + (flush_buf == NULL ? flush_size() : 0);
	/* Leave a little for the runtime and libraries. */
	if (need > free_bytes - free_bytes / 20) {
		error_set(e, _("size %llu needs %s on the GPU but only %s is free: use a smaller --size"),
		    p->size, format_bytes((double)need, need_s, sizeof need_s),
		    format_bytes((double)free_bytes, free_s, sizeof free_s));
		return -1;
	}
	return 0;
}

/*
 * One launch, beside the co-running load where the options ask for one
 * (hold: multiprocessors it holds): the load starts first and ends once
 * the launch is done.
 */
static int launch(const struct experiment *x, void *state, int hold, struct error *e)
{
	if (hold == 0)
		return x->launch(state, e);
	if (gpu_hold_sms(hold, e) != 0)
		return -1;
	if (x->launch(state, e) != 0 || gpu_synchronize(e) != 0) {
		gpu_hold_release(NULL);
		return -1;
	}
	return gpu_hold_release(e);
}

/*
 * The runs before timing; returns the wall time of one prepared run, and
 * the first run's time between two events, as a timed run takes it.
 * With a budget, stops once the runs so far have used it (after one at
 * least): a kernel that takes seconds needs no second warm-up.  The wall
 * time of a run is that of the runs after the first, where there are
 * any: the first carries what happens once (a library choosing its
 * kernel, a module loading), and counting it gave cuBLAS alone 25 timed
 * runs where a lesson's run, its library already loaded, gave it 200, so
 * that its median was taken before the power cap lowered the clock.
 */
static int warm_up(const struct experiment *x, void *state, int runs, double budget, bool keep_l2,
    int hold, double *seconds_per_rep, double *first_ms, struct error *e)
{
	struct gpu_timers *t = runs > 0 ? gpu_timers_new(1, e) : NULL;
	double t0 = now_seconds(), t1 = 0;
	int done = 0, rc = -1;

	if (runs > 0 && t == NULL)
		return -1;
	while (done < runs) {
		if (x->prepare(state, e) != 0 || (!keep_l2 && flush_l2(e) != 0) ||
		    (done == 0 && gpu_timer_start(t, 0, e) != 0) || launch(x, state, hold, e) != 0 ||
		    (done == 0 && gpu_timer_stop(t, 0, e) != 0))
			goto out;
		/* Each run alone, as the timed runs are (see timed_runs); the first always, to time the others */
		if ((budget > 0 || done == 0) && gpu_synchronize(e) != 0)
			goto out;
		if (done++ == 0)
			t1 = now_seconds();
		if (budget > 0 && now_seconds() - t0 > budget)
			break;
	}
	if (gpu_synchronize(e) != 0)
		goto out;
	*seconds_per_rep = done > 1 ? (now_seconds() - t1) / (done - 1) : now_seconds() - t0;
	*first_ms = 0;
	if (done > 0 && gpu_timer_ms(t, 0, first_ms, e) != 0)
		goto out;
	rc = 0;
out:
	gpu_timers_free(t);
	return rc;
}

static int timed_runs(const struct experiment *x, void *state, int reps, int hold,
    const struct measure_options *o, double *times, struct error *e)
{
	struct gpu_timers *t = gpu_timers_new(reps, e);
	int rc = -1;

	if (t == NULL)
		return -1;
	for (int i = 0; i < reps; i++) {
		if (o->cancel != NULL && *o->cancel) {
			error_set(e, _("cancelled"));
			goto out;
		}
		if (x->prepare(state, e) != 0 || (!o->keep_l2 && flush_l2(e) != 0) ||
		    gpu_timer_start(t, i, e) != 0 || launch(x, state, hold, e) != 0 ||
		    gpu_timer_stop(t, i, e) != 0)
			goto out;
		/*
		 * Each run starts on an idle GPU, as under Nsight Compute: with
		 * runs queued one behind another, a kernel of 20 us started up
		 * to a microsecond late now and then (an IQR of 4% on the H100,
		 * against 1.2% with this wait, for a few microseconds a run).
		 */
		if (gpu_synchronize(e) != 0)
			goto out;
		if (o->progress != NULL && ((i + 1) % 16 == 0 || i + 1 == reps))
			o->progress(o->progress_ctx, i + 1, reps);
	}
	for (int i = 0; i < reps; i++)
		if (gpu_timer_ms(t, i, &times[i], e) != 0)
			goto out;
	rc = 0;
out:
	gpu_timers_free(t);
	return rc;
}

/*
 * CUDATUTOR_TRACE set: one line on stderr per step, the wall time of each
 * phase, to see where a run's time goes; and the median of the first and
 * of the last quarter of the timed runs, to see whether the times drift.
 */
static void trace_step(const struct kernel_def *k, const struct step_params *p, const double *t,
    const double *times, int reps)
{
	static int on = -1;
	int q = reps / 4;

	if (on < 0)
		on = getenv("CUDATUTOR_TRACE") != NULL;
	if (!on)
		return;
	fprintf(stderr, "trace: %s %llu: setup %.3f s, warm-up %.3f s, %d runs %.3f s, check %.3f s, teardown %.3f s",
	    k->name, p->size, t[1] - t[0], t[2] - t[1], reps, t[3] - t[2], t[4] - t[3], t[5] - t[4]);
	if (q >= 2) {
		struct stats first, last;

		stats_compute(times, q, &first);
		stats_compute(times + reps - q, q, &last);
		fprintf(stderr, "; first quarter %.4f ms, last %.4f ms", first.median, last.median);
	}
	fputc('\n', stderr);
}

size_t measure_element_bytes(const struct experiment *x)
{
	if (strcmp(x->element, "char") == 0)
		return 1;
	if (strcmp(x->element, "half") == 0)
		return 2;
	return 4;	/* int, float, and the rows of float matrices, words and flags */
}

void measure_guard_detail(const struct gpu_guard_hit *hit, size_t element_bytes, char *buf, size_t len)
{
	if (element_bytes == 0)
		element_bytes = 1;
	snprintf(buf, len, _("wrote out of bounds: element %llu of a buffer of %llu (%zu-byte elements) "
	    "was written, past its end"), (unsigned long long)(hit->offset / element_bytes),
	    (unsigned long long)(hit->buffer_bytes / element_bytes), element_bytes);
}

/*
 * After the runs: did the kernel write past the end of a buffer?  Then the
 * check fails, naming the element, whatever the output's own check says.
 */
static int guard_verdict(const struct experiment *x, struct check_result *check, struct error *e)
{
	struct gpu_guard_hit hit;
	char where[200];

	if (gpu_guard_check(&hit, e) != 0)
		return -1;
	if (!hit.hit)
		return 0;
	measure_guard_detail(&hit, measure_element_bytes(x), where, sizeof where);
	if (check->correct)
		snprintf(check->detail, sizeof check->detail, "%s", where);
	else {
		char rest[sizeof check->detail];

		snprintf(rest, sizeof rest, "%s", check->detail);
		snprintf(check->detail, sizeof check->detail, "%.199s; %.54s", where, rest);
	}
	check->correct = false;
	return 0;
}

bool measure_keeps_l2(bool keep_l2, double bytes, unsigned long long l2)
{
	return keep_l2 && l2 > 0 && bytes <= (double)l2;
}

int measure_step(const struct kernel_def *k, const struct step_params *p,
    const struct measure_options *asked, struct measurement *m, struct error *e)
{
	const struct experiment *x = k->experiment;
	struct measure_options options = *asked, *o = &options;
	double per_rep = 0, first_ms = 0, *times = NULL, t[6] = { 0 };
	char why[256];
	void *state;
	int reps = 0, reuse, hold = 0, rc = -1;

	memset(m, 0, sizeof *m);
	if (gpu_init(e) != 0)
		return -1;
	if (gpu_broken()) {
		error_set(e, "%s", _("an earlier kernel failed and took this process's GPU context with it: run again"));
		return -1;
	}
	if (registry_check_gpu(k, gpu_info()->cc_major, gpu_info()->cc_minor, why, sizeof why) != NULL) {
		error_set(e, "%s", why);
		return -1;
	}
	if (measure_check_fits(k, p, e) != 0 || flush_init(e) != 0)
		return -1;
	o->keep_l2 = measure_keeps_l2(o->keep_l2, x->work_bytes(p), gpu_info()->l2_bytes);
	if (o->hold > 0) {
		hold = (int)(o->hold * gpu_info()->sm_count);
		hold = hold < 1 ? 1 : hold >= gpu_info()->sm_count ? gpu_info()->sm_count - 1 : hold;
	}
	t[0] = now_seconds();
	state = x->setup(k, p, e);
	if (state == NULL)
		return -1;
	t[1] = now_seconds();
	{
		const struct experiment_run *run = state;
		unsigned int block = run->block ? run->block : p->block;

		m->grid = run->grid;
		if (run->kernel != NULL &&
		    (gpu_kernel_registers(run->kernel, &m->registers, e) != 0 ||
		     gpu_blocks_per_sm(run->kernel, block, run->shared_bytes, &m->blocks_per_sm, e) != 0))
			goto out;
		if (gpu_info()->max_threads_per_sm > 0)
			m->occupancy_pct = 100.0 * m->blocks_per_sm * block / gpu_info()->max_threads_per_sm;
	}

	if (gpu_guard_arm(e) != 0 ||
	    warm_up(x, state, o->warmup, o->warmup_seconds, o->keep_l2, hold, &per_rep, &first_ms, e) != 0)
		goto out;
	t[2] = now_seconds();
	reps = per_rep > 0 ? (int)(o->target_seconds / per_rep) : o->max_reps;
	if (reps < o->min_reps)
		reps = o->min_reps;
	if (reps > o->max_reps)
		reps = o->max_reps;
	/*
	 * A run longer than the whole budget (the deliberately slow steps at
	 * 2^28 take seconds): its one warm-up run, prepared and timed as the
	 * others are, counts as the first of the few.  What a warm-up settles
	 * costs microseconds beside seconds, and one early run cannot move a
	 * median of five.  Where warm-ups are counted exactly (ncu) this
	 * never happens: they have no budget.
	 */
	reuse = o->warmup_seconds > 0 && per_rep > o->target_seconds && first_ms > 0 && reps > 1;
	times = xcalloc((size_t)reps, sizeof *times);
	if (reuse)
		times[0] = first_ms;
	if (timed_runs(x, state, reps - reuse, hold, o, times + reuse, e) != 0)
		goto out;
	stats_compute(times, reps, &m->ms);
	t[3] = now_seconds();
	if (x->check(state, &m->check, e) != 0 || guard_verdict(x, &m->check, e) != 0)
		goto out;
	t[4] = now_seconds();
	rc = 0;
out:
	x->teardown(state);
	if (rc == 0) {
		t[5] = now_seconds();
		trace_step(k, p, t, times, reps);
	}
	free(times);
	return rc;
}

/* ---- copy bandwidth ---------------------------------------------------- */

/*
 * The copy bandwidth, and the DRAM rate of each mix, measured on each GPU
 * and kept between runs under a name (see paths_gpu_figure_read).  The
 * copy's is a name of its own since each copy is timed after the L2 is
 * flushed, as the steps are, so that a figure timed the old way (back to
 * back) is measured again.
 */
#define COPY_FIGURE "copy-bandwidth-flushed"

static int cache_read(const char *figure, double *gbps)
{
	const struct gpu_info *g = gpu_info();

	return paths_gpu_figure_read(figure, g->uuid, g->driver, gbps);
}

static void cache_write(const char *figure, double gbps)
{
	const struct gpu_info *g = gpu_info();

	paths_gpu_figure_write(figure, g->uuid, g->driver, gbps);
}

int measure_copy_bandwidth_cached(double *gbps)
{
	return gpu_info() != NULL && cache_read(COPY_FIGURE, gbps);
}

/*
 * A yardstick's runs of op, timed as timed_runs times a step: each after
 * the L2 is flushed (the flush writing back what the run before left
 * dirty, outside the window) and on an idle GPU.  Timed back to back, the
 * copy yardstick paid for the write-back the steps did not: the H100's
 * half8 add at 2^24 ran at 110% of it.
 */
static int timed_after_flush(int reps, int (*op)(void *ctx, struct error *e), void *ctx, double *ms,
    struct error *e)
{
	struct gpu_timers *t = gpu_timers_new(reps, e);
	int rc = -1;

	if (t == NULL)
		return -1;
	for (int i = 0; i < reps; i++)
		if (flush_l2(e) != 0 || gpu_timer_start(t, i, e) != 0 || op(ctx, e) != 0 ||
		    gpu_timer_stop(t, i, e) != 0 || gpu_synchronize(e) != 0)
			goto out;
	for (int i = 0; i < reps; i++)
		if (gpu_timer_ms(t, i, &ms[i], e) != 0)
			goto out;
	rc = 0;
out:
	gpu_timers_free(t);
	return rc;
}

/* One device-to-device copy, as timed_after_flush times it. */
struct copy_job {
	void *dst;
	const void *src;
	size_t bytes;
};

static int one_copy(void *ctx, struct error *e)
{
	const struct copy_job *j = ctx;

	return gpu_copy_on_device(j->dst, j->src, j->bytes, e);
}

/* One launch of a stream kernel, as timed_after_flush times it. */
struct stream_job {
	void *kernel;
	unsigned int grid, block;
	void **args;
};

static int one_stream(void *ctx, struct error *e)
{
	const struct stream_job *j = ctx;

	return gpu_launch(j->kernel, j->grid, j->block, 0, j->args, e);
}

/* The stream kernel of a mix, its buffers (up to three) and how many bytes one run moves. */
static const struct {
	const char *kernel, *figure;
	int buffers, moved;		/* buffers of `bytes`; buffers' worth moved a run */
} mixes[DRAM_MIXES] = {
	[MIX_READ] = { "stream_read", "dram-read", 1, 1 },
	[MIX_ADD] = { "stream_read2_write1", "dram-read2-write1", 3, 3 },
	[MIX_WRITE] = { "stream_write", "dram-write", 1, 1 },
};

int measure_dram_mix(enum dram_mix mix, bool refresh, double *gbps, struct error *e)
{
	enum { REPS = 30, BLOCK = 512 };
	size_t free_bytes = 0, total_bytes = 0, bytes = (size_t)512 << 20;
	unsigned long long n4;
	double times[REPS];
	void *kernel, *buf[3] = { NULL, NULL, NULL }, *args[4];
	int blocks = 0, zero = 0, rc = -1, nb;
	unsigned int grid;
	struct stats s;
	const struct gpu_info *g;

	if (mix <= MIX_COPY || mix >= DRAM_MIXES) {
		error_set(e, "measure_dram_mix: no stream kernel for mix %d", (int)mix);
		return -1;
	}
	nb = mixes[mix].buffers;
	if (gpu_init(e) != 0)
		return -1;
	g = gpu_info();
	if (!refresh && cache_read(mixes[mix].figure, gbps))
		return 0;
	if (gpu_mem_info(&free_bytes, &total_bytes, e) != 0 || flush_init(e) != 0 ||
	    gpu_kernel("measure", mixes[mix].kernel, &kernel, e) != 0 ||
	    gpu_blocks_per_sm(kernel, BLOCK, 0, &blocks, e) != 0)
		return -1;
	while (bytes > ((size_t)16 << 20) && (size_t)nb * bytes > free_bytes / 2)
		bytes /= 2;
	n4 = bytes / 16;
	grid = (unsigned int)((blocks > 0 ? blocks : 1) * g->sm_count);
	for (int i = 0; i < nb; i++)
		if (gpu_malloc(&buf[i], bytes, e) != 0 || gpu_fill(buf[i], 0, bytes, e) != 0)
			goto out;
	/* the arguments each kernel takes, in its order */
	if (mix == MIX_READ) {
		args[0] = &buf[0], args[1] = &n4, args[2] = &flush_sink;
	} else if (mix == MIX_ADD) {
		args[0] = &buf[0], args[1] = &buf[1], args[2] = &buf[2], args[3] = &n4;
	} else {
		args[0] = &buf[0], args[1] = &n4, args[2] = &zero;
	}
	for (int i = 0; i < 3; i++)
		if (gpu_launch(kernel, grid, BLOCK, 0, args, e) != 0)
			goto out;
	if (timed_after_flush(REPS, one_stream, &(struct stream_job){ kernel, grid, BLOCK, args }, times, e) != 0)
		goto out;
	stats_compute(times, REPS, &s);
	*gbps = (double)mixes[mix].moved * (double)bytes / (s.median * 1e-3) / 1e9;
	cache_write(mixes[mix].figure, *gbps);
	rc = 0;
out:
	for (int i = 0; i < nb; i++)
		gpu_free(buf[i]);
	return rc;
}

int measure_copy_bandwidth(bool refresh, double *gbps, struct error *e)
{
	enum { REPS = 30 };
	size_t free_bytes = 0, total_bytes = 0, bytes = (size_t)512 << 20;
	double times[REPS];
	struct stats s;
	void *src = NULL, *dst = NULL;
	int rc = -1;

	if (gpu_init(e) != 0)
		return -1;
	if (!refresh && cache_read(COPY_FIGURE, gbps))
		return 0;
	if (gpu_mem_info(&free_bytes, &total_bytes, e) != 0)
		return -1;
	while (bytes > ((size_t)16 << 20) && 2 * bytes > free_bytes / 2)
		bytes /= 2;
	if (flush_init(e) != 0 || gpu_malloc(&src, bytes, e) != 0 || gpu_malloc(&dst, bytes, e) != 0)
		goto out;
	if (gpu_fill(src, 1, bytes, e) != 0 || gpu_fill(dst, 2, bytes, e) != 0)
		goto out;
	for (int i = 0; i < 3; i++)
		if (gpu_copy_on_device(dst, src, bytes, e) != 0)
			goto out;
	if (timed_after_flush(REPS, one_copy, &(struct copy_job){ dst, src, bytes }, times, e) != 0)
		goto out;
	stats_compute(times, REPS, &s);
	*gbps = 2.0 * (double)bytes / (s.median * 1e-3) / 1e9;
	cache_write(COPY_FIGURE, *gbps);
	rc = 0;
out:
	gpu_free(src);
	gpu_free(dst);
	return rc;
}

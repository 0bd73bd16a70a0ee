/* Experiment: y = 2 * x over n floats, a kernel whose speed is bytes in flight. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "experiments/experiments.h"
#include "gpu.h"
#include "host_buffer.h"
#include "i18n.h"
#include "kernel_def.h"

#define STREAM_SEED 20230911ULL

struct stream_state {
	struct experiment_run run;	/* first: see experiment.h */
	const struct kernel_def *k;
	struct step_params p;
	float *d_x, *d_y;
	const float *x;		/* in a host buffer (see host_buffer.h), not ours to free */
};

/* Over every processor (see experiment_parallel): one random number a float. */
struct stream_job {
	const float *x, *y;
	float *fill;
	unsigned long long seed;
	struct experiment_mismatch found[EXPERIMENT_MAX_BANDS];
};

static void fill_band(void *ctx, int band, unsigned long long lo, unsigned long long hi)
{
	struct stream_job *j = ctx;
	unsigned long long state = experiment_random_skip(j->seed, lo);

	(void)band;
	for (unsigned long long i = lo; i < hi; i++)
		/* uniform in [-1, 1): doubling is exact */
		j->fill[i] = (float)((int)(experiment_random(&state) >> 8) - (1 << 23)) / (float)(1 << 23);
}

static void check_band(void *ctx, int band, unsigned long long lo, unsigned long long hi)
{
	struct stream_job *j = ctx;
	struct experiment_mismatch *m = &j->found[band];

	m->bad = 0;
	for (unsigned long long i = lo; i < hi; i++) {
		float want = 2.0f * j->x[i];
		if (memcmp(&j->y[i], &want, sizeof want) != 0) {
			if (m->bad == 0)
				m->first = i;
			m->bad++;
		}
	}
}

void stream_fill(float *x, unsigned long long n, unsigned long long seed)
{
	struct stream_job j = { .fill = x, .seed = seed };

	experiment_parallel(n, fill_band, &j);
}

void stream_check(const float *x, const float *y, unsigned long long n, struct check_result *out)
{
	struct stream_job *j = xcalloc(1, sizeof *j);
	struct experiment_mismatch m;

	j->x = x;
	j->y = y;
	m = experiment_mismatch_merge(j->found, experiment_parallel(n, check_band, j));
	free(j);
	experiment_mismatch_report(m, n, out);
}

static double stream_work_bytes(const struct step_params *p)
{
	return (double)p->size * 2 * sizeof(float);	/* read x, write y */
}

static double stream_flops(const struct step_params *p)
{
	return (double)p->size;
}

static size_t stream_device_bytes(const struct kernel_def *k, const struct step_params *p)
{
	(void)k;
	return (size_t)(p->size * 2 * sizeof(float));
}

static void stream_teardown(void *state)
{
	struct stream_state *s = state;

	if (s == NULL)
		return;
	gpu_free(s->d_x);
	gpu_free(s->d_y);
	free(s);
}

static void *stream_setup(const struct kernel_def *k, const struct step_params *p, struct error *e)
{
	struct stream_state *s = xcalloc(1, sizeof *s);
	size_t bytes = p->size * sizeof(float);
	char symbol[128], key[64];
	bool ready;
	float *x;

	s->k = k;
	s->p = *p;
	registry_symbol(k, p->block, symbol, sizeof symbol);
	if (gpu_kernel(k->module, symbol, &s->run.kernel, e) != 0 ||
	    experiment_grid(k, p, s->run.kernel, &s->run.grid, e) != 0)
		goto fail;
	if (gpu_malloc((void **)&s->d_x, bytes, e) != 0 ||
	    gpu_malloc((void **)&s->d_y, bytes, e) != 0)
		goto fail;
	/* made once for all the steps of a run at this size */
	snprintf(key, sizeof key, "stream %llu x %llx", p->size, p->seed);
	x = host_buffer(HOST_INPUT_A, key, bytes, &ready, e);
	if (x == NULL) {
		error_set(e, _("cannot allocate %llu floats on the host: try a smaller --size"), p->size);
		goto fail;
	}
	if (!ready)
		stream_fill(x, p->size, experiment_seed(p, STREAM_SEED));
	if (gpu_copy_to_device(s->d_x, x, bytes, e) != 0)
		goto fail;
	s->x = x;
	return s;
fail:
	stream_teardown(s);
	return NULL;
}

static int stream_prepare(void *state, struct error *e)
{
	struct stream_state *s = state;

	/* NaN everywhere: an element the kernel skips cannot pass the check. */
	return gpu_fill(s->d_y, 0xff, s->p.size * sizeof(float), e);
}

static int stream_launch(void *state, struct error *e)
{
	struct stream_state *s = state;
	unsigned int n = (unsigned int)s->p.size;
	void *args[] = { &s->d_x, &s->d_y, &n };

	return gpu_launch(s->run.kernel, s->run.grid, s->p.block, 0, args, e);
}

static int stream_check_run(void *state, struct check_result *out, struct error *e)
{
	struct stream_state *s = state;
	float *y = experiment_download(s->d_y, s->p.size, sizeof(float), _("floats"), e);

	if (y == NULL)
		return -1;
	stream_check(s->x, y, s->p.size, out);
	return 0;
}

const struct experiment experiment_stream = {
	.name = "stream",
	.element = "float",
	.unit = UNIT_GBPS,
	.max_size = 1ULL << 31,		/* unsigned n in the kernels */
	/*
	 * Big enough that even the kernel with the fewest, largest blocks runs
	 * many waves of them; blocks of 256 let register use show in occupancy
	 * (at 1024, a kernel over 64 registers cannot launch at all).
	 */
	.default_size = 1ULL << 26,
	.default_block = 256,
	.work_bytes = stream_work_bytes,
	.work_flops = stream_flops,
	.device_bytes = stream_device_bytes,
	.setup = stream_setup,
	.prepare = stream_prepare,
	.launch = stream_launch,
	.check = stream_check_run,
	.teardown = stream_teardown,
};

/* Experiment: z = x + y over n floats. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "experiments/experiments.h"
#include "gpu.h"
#include "i18n.h"
#include "registry.h"

#define VEC_ADD_SEED 20200702ULL

struct vec_add_state {
	struct experiment_run run;	/* first: see experiment.h */
	const struct kernel_def *k;
	struct step_params p;
	float *d_x, *d_y, *d_z;
	float *reference;
};

void vec_add_fill(float *x, float *y, unsigned long long n, unsigned long long seed)
{
	for (unsigned long long i = 0; i < n; i++) {
		/* uniform in [-1, 1), exactly representable */
		x[i] = (float)((int)(experiment_random(&seed) >> 8) - (1 << 23)) / (float)(1 << 23);
		y[i] = (float)((int)(experiment_random(&seed) >> 8) - (1 << 23)) / (float)(1 << 23);
	}
}

void vec_add_reference(const float *x, const float *y, float *z, unsigned long long n)
{
	for (unsigned long long i = 0; i < n; i++)
		z[i] = x[i] + y[i];
}

void vec_add_check(const float *z, const float *reference, unsigned long long n,
    struct check_result *out)
{
	unsigned long long bad = 0, first = 0;

	/* Bit for bit: one IEEE add gives the same float on both sides. */
	for (unsigned long long i = 0; i < n; i++) {
		if (memcmp(&z[i], &reference[i], sizeof(float)) != 0) {
			if (bad == 0)
				first = i;
			bad++;
		}
	}
	out->correct = bad == 0;
	if (out->correct)
		snprintf(out->detail, sizeof out->detail, _("all %llu elements equal the CPU's"), n);
	else
		snprintf(out->detail, sizeof out->detail,
		    _("%llu of %llu elements differ, the first at index %llu"), bad, n, first);
}

static double vec_add_work_bytes(const struct step_params *p)
{
	return (double)p->size * 3 * sizeof(float);	/* read x and y, write z */
}

static double vec_add_flops(const struct step_params *p)
{
	return (double)p->size;
}

static size_t vec_add_device_bytes(const struct kernel_def *k, const struct step_params *p)
{
	(void)k;
	return (size_t)(p->size * 3 * sizeof(float));
}

static void vec_add_teardown(void *state)
{
	struct vec_add_state *s = state;

	if (s == NULL)
		return;
	gpu_free(s->d_x);
	gpu_free(s->d_y);
	gpu_free(s->d_z);
	free(s->reference);
	free(s);
}

static void *vec_add_setup(const struct kernel_def *k, const struct step_params *p, struct error *e)
{
	struct vec_add_state *s = xcalloc(1, sizeof *s);
	size_t bytes = p->size * sizeof(float);
	float *x = NULL, *y = NULL;
	char symbol[128];

	s->k = k;
	s->p = *p;
	registry_symbol(k, p->block, symbol, sizeof symbol);
	if (gpu_kernel(k->module, symbol, &s->run.kernel, e) != 0 ||
	    experiment_grid(k, p, s->run.kernel, &s->run.grid, e) != 0)
		goto fail;
	if (gpu_malloc((void **)&s->d_x, bytes, e) != 0 ||
	    gpu_malloc((void **)&s->d_y, bytes, e) != 0 ||
	    gpu_malloc((void **)&s->d_z, bytes, e) != 0)
		goto fail;
	x = malloc(bytes);
	y = malloc(bytes);
	s->reference = malloc(bytes);
	if (x == NULL || y == NULL || s->reference == NULL) {
		error_set(e, _("cannot allocate %llu floats on the host: try a smaller --size"), p->size);
		goto fail;
	}
	vec_add_fill(x, y, p->size, VEC_ADD_SEED);
	vec_add_reference(x, y, s->reference, p->size);
	if (gpu_copy_to_device(s->d_x, x, bytes, e) != 0 ||
	    gpu_copy_to_device(s->d_y, y, bytes, e) != 0)
		goto fail;
	free(x);
	free(y);
	return s;
fail:
	free(x);
	free(y);
	vec_add_teardown(s);
	return NULL;
}

static int vec_add_prepare(void *state, struct error *e)
{
	struct vec_add_state *s = state;

	/* NaN everywhere: an element the kernel skips cannot pass the check. */
	return gpu_fill(s->d_z, 0xff, s->p.size * sizeof(float), e);
}

static int vec_add_launch(void *state, struct error *e)
{
	struct vec_add_state *s = state;
	int n = (int)s->p.size;
	void *args[] = { &s->d_x, &s->d_y, &s->d_z, &n };

	return gpu_launch(s->run.kernel, s->run.grid, s->p.block, 0, args, e);
}

static int vec_add_check_run(void *state, struct check_result *out, struct error *e)
{
	struct vec_add_state *s = state;
	float *z = malloc(s->p.size * sizeof(float));

	if (z == NULL) {
		error_set(e, _("cannot allocate %llu floats on the host: try a smaller --size"), s->p.size);
		return -1;
	}
	if (gpu_copy_to_host(z, s->d_z, s->p.size * sizeof(float), e) != 0) {
		free(z);
		return -1;
	}
	vec_add_check(z, s->reference, s->p.size, out);
	free(z);
	return 0;
}

const struct experiment experiment_vec_add = {
	.name = "vec_add",
	.element = "float",
	.unit = UNIT_GBPS,
	.max_size = 1ULL << 30,	/* int indices: i + stride must not overflow */
	.work_bytes = vec_add_work_bytes,
	.work_flops = vec_add_flops,
	.device_bytes = vec_add_device_bytes,
	.setup = vec_add_setup,
	.prepare = vec_add_prepare,
	.launch = vec_add_launch,
	.check = vec_add_check_run,
	.teardown = vec_add_teardown,
};

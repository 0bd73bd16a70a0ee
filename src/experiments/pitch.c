/* Experiment: C = A B for n x n floats, in packed rows or in pitched rows. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/experiments.h"
#include "gpu.h"
#include "i18n.h"
#include "kernel_def.h"

#define PITCH_SEED 20230301ULL

struct pitch_state {
	struct experiment_run run;	/* first: see experiment.h */
	const struct kernel_def *k;
	struct step_params p;
	int pitched;			/* rows from cudaMallocPitch, else packed */
	size_t pitch;			/* bytes from one row's start to the next */
	float *d_a, *d_b, *d_c;
	int64_t *r, *expected;		/* the check's vectors: see pitch_check */
};

void pitch_fill(float *a, float *b, unsigned long long n, unsigned long long seed)
{
	/* eighths from -4 to 4: every product and every partial sum is exact */
	for (unsigned long long i = 0; i < n * n; i++) {
		a[i] = (float)((int)(experiment_random(&seed) % 65) - 32) / PITCH_SCALE;
		b[i] = (float)((int)(experiment_random(&seed) % 65) - 32) / PITCH_SCALE;
	}
}

void pitch_check_vectors(const float *a, const float *b, unsigned long long n,
    unsigned long long seed, int64_t *r, int64_t *expected)
{
	int64_t *br = xmalloc(n * sizeof *br);

	for (int v = 0; v < PITCH_CHECK_VECTORS; v++) {
		int64_t *rv = r + v * n;

		for (unsigned long long j = 0; j < n; j++)
			rv[j] = experiment_random(&seed) >> 12;	/* 20 random bits */
		/* (8 A) ((8 B) r), in exact integers: n^2 work, not n^3 */
		for (unsigned long long k = 0; k < n; k++) {
			int64_t s = 0;
			for (unsigned long long j = 0; j < n; j++)
				s += (int64_t)(b[k * n + j] * PITCH_SCALE) * rv[j];
			br[k] = s;
		}
		for (unsigned long long i = 0; i < n; i++) {
			int64_t s = 0;
			for (unsigned long long k = 0; k < n; k++)
				s += (int64_t)(a[i * n + k] * PITCH_SCALE) * br[k];
			expected[v * n + i] = s;
		}
	}
	free(br);
}

void pitch_check(const float *c, unsigned long long n, const int64_t *r,
    const int64_t *expected, struct check_result *out)
{
	double bound = 16.0 * (double)n;	/* |sum of n products of numbers up to 4| */
	const float scale = PITCH_SCALE * PITCH_SCALE;	/* every answer is a multiple of 1/64 */
	unsigned long long odd = 0, bad_rows = 0, first = 0;

	/* Every element must be a value the product can have (NaN is the poison). */
	for (unsigned long long i = 0; i < n * n; i++) {
		if (!(fabs(c[i]) <= bound) || c[i] * scale != floorf(c[i] * scale)) {
			if (odd == 0)
				first = i;
			odd++;
		}
	}
	if (odd != 0) {
		out->correct = false;
		snprintf(out->detail, sizeof out->detail,
		    _("%llu of %llu elements are no possible answer, the first at row %llu, column %llu: %g"),
		    odd, n * n, first / n, first % n, (double)c[first]);
		return;
	}
	/*
	 * Freivalds' check: C r = A (B r) for random vectors r.  A wrong row
	 * of C passes one vector with a chance of at most 2^-20, so two
	 * vectors make a miss less likely than one in a trillion, at n^2 cost.
	 */
	for (unsigned long long i = 0; i < n; i++) {
		int row_bad = 0;
		for (int v = 0; v < PITCH_CHECK_VECTORS && !row_bad; v++) {
			int64_t s = 0;
			for (unsigned long long j = 0; j < n; j++)
				s += (int64_t)(c[i * n + j] * scale) * r[v * n + j];
			row_bad = s != expected[v * n + i];
		}
		if (row_bad) {
			if (bad_rows == 0)
				first = i;
			bad_rows++;
		}
	}
	out->correct = bad_rows == 0;
	if (out->correct)
		snprintf(out->detail, sizeof out->detail,
		    _("all %llu rows agree with the CPU exactly (C r = A (B r) for %d random r)"),
		    n, PITCH_CHECK_VECTORS);
	else
		snprintf(out->detail, sizeof out->detail,
		    _("%llu of %llu rows are wrong, the first is row %llu"), bad_rows, n, first);
}

static double pitch_work_bytes(const struct step_params *p)
{
	return (double)p->size * (double)p->size * 3 * sizeof(float);	/* A, B read once, C written */
}

static double pitch_flops(const struct step_params *p)
{
	return 2.0 * (double)p->size * (double)p->size * (double)p->size;
}

static size_t pitch_device_bytes(const struct kernel_def *k, const struct step_params *p)
{
	/* pitched rows are padded: allow a generous 1 KiB a row */
	size_t row = (size_t)p->size * sizeof(float) + (k->pitched ? 1024 : 0);

	return 3 * row * (size_t)p->size;
}

static void pitch_teardown(void *state)
{
	struct pitch_state *s = state;

	if (s == NULL)
		return;
	gpu_free(s->d_a);
	gpu_free(s->d_b);
	gpu_free(s->d_c);
	free(s->r);
	free(s->expected);
	free(s);
}

/* Three n x n matrices on the GPU, packed or pitched; A and B filled from the host. */
static int pitch_upload(struct pitch_state *s, const float *a, const float *b, struct error *e)
{
	size_t n = (size_t)s->p.size, row = n * sizeof(float);

	if (!s->pitched) {
		s->pitch = row;
		return gpu_malloc((void **)&s->d_a, row * n, e) != 0 ||
		    gpu_malloc((void **)&s->d_b, row * n, e) != 0 ||
		    gpu_malloc((void **)&s->d_c, row * n, e) != 0 ||
		    gpu_copy_to_device(s->d_a, a, row * n, e) != 0 ||
		    gpu_copy_to_device(s->d_b, b, row * n, e) != 0 ? -1 : 0;
	}
	{
		size_t pitch_b = 0, pitch_c = 0;

		if (gpu_malloc_pitch((void **)&s->d_a, &s->pitch, row, n, e) != 0 ||
		    gpu_malloc_pitch((void **)&s->d_b, &pitch_b, row, n, e) != 0 ||
		    gpu_malloc_pitch((void **)&s->d_c, &pitch_c, row, n, e) != 0)
			return -1;
		/* the kernel takes one pitch for all three */
		if (pitch_b != s->pitch || pitch_c != s->pitch) {
			error_set(e, _("cudaMallocPitch gave rows of %zu, %zu and %zu bytes for the same width: the kernel needs one"),
			    s->pitch, pitch_b, pitch_c);
			return -1;
		}
		return gpu_copy_2d_to_device(s->d_a, s->pitch, a, row, row, n, e) != 0 ||
		    gpu_copy_2d_to_device(s->d_b, s->pitch, b, row, row, n, e) != 0 ? -1 : 0;
	}
}

static void *pitch_setup(const struct kernel_def *k, const struct step_params *p, struct error *e)
{
	struct pitch_state *s = NULL;
	unsigned long long n = p->size, tiles_x, tiles_y;
	float *a = NULL, *b = NULL;
	char symbol[128];

	s = xcalloc(1, sizeof *s);
	s->k = k;
	s->p = *p;
	/*
	 * An exercise's check (a seed): sides of remainder 1 modulo 4 get rows
	 * packed n floats apart, a pitch no multiple of 16, as a pitch a kernel
	 * is given may be; a float4 path taken without the test the task asks
	 * for (pitch % 16 == 0) then faults.  The other sides stay pitched.
	 */
	s->pitched = k->pitched && !(p->seed != 0 && n % 4 == 1);
	registry_symbol(k, p->block, symbol, sizeof symbol);
	if (gpu_kernel(k->module, symbol, &s->run.kernel, e) != 0)
		goto fail;
	/* a tile of 32 columns by block / 32 rows per block */
	tiles_x = (n + 31) / 32;
	tiles_y = (n + p->block / 32 - 1) / (p->block / 32);
	if (tiles_x * tiles_y > 0x7fffffffULL) {
		error_set(e, _("%llu rows need more blocks than a grid can hold: use a larger --block"), n);
		goto fail;
	}
	s->run.grid = (unsigned int)(tiles_x * tiles_y);

	a = malloc(n * n * sizeof(float));
	b = malloc(n * n * sizeof(float));
	if (a == NULL || b == NULL) {
		error_set(e, _("cannot allocate two %llu x %llu matrices on the host: try a smaller --size"),
		    n, n);
		goto fail;
	}
	pitch_fill(a, b, n, experiment_seed(p, PITCH_SEED));
	s->r = xmalloc(PITCH_CHECK_VECTORS * n * sizeof *s->r);
	s->expected = xmalloc(PITCH_CHECK_VECTORS * n * sizeof *s->expected);
	pitch_check_vectors(a, b, n, experiment_seed(p, PITCH_SEED + 1), s->r, s->expected);
	if (pitch_upload(s, a, b, e) != 0)
		goto fail;
	free(a);
	free(b);
	return s;
fail:
	free(a);
	free(b);
	pitch_teardown(s);
	return NULL;
}

static int pitch_prepare(void *state, struct error *e)
{
	struct pitch_state *s = state;

	/* NaN in every element, padding included: an unwritten one fails the check */
	return gpu_fill(s->d_c, 0xff, s->pitch * (size_t)s->p.size, e);
}

static int pitch_launch(void *state, struct error *e)
{
	struct pitch_state *s = state;
	int n = (int)s->p.size;
	void *rows_args[] = { &s->d_a, &s->d_b, &s->d_c, &n };
	void *pitched_args[] = { &s->d_a, &s->d_b, &s->d_c, &n, &s->pitch };

	/* the layout (s->pitched) and the arguments are apart: one kernel runs on both layouts */
	return gpu_launch(s->run.kernel, s->run.grid, s->p.block, 0,
	    (s->k->flags & KF_PITCH_ARG) ? pitched_args : rows_args, e);
}

static int pitch_check_run(void *state, struct check_result *out, struct error *e)
{
	struct pitch_state *s = state;
	size_t n = (size_t)s->p.size, row = n * sizeof(float);
	float *c = malloc(row * n);
	int rc;

	if (c == NULL) {
		error_set(e, _("cannot allocate a %zu x %zu matrix on the host: try a smaller --size"), n, n);
		return -1;
	}
	if (s->pitched)
		rc = gpu_copy_2d_to_host(c, row, s->d_c, s->pitch, row, n, e);
	else
		rc = gpu_copy_to_host(c, s->d_c, row * n, e);
	if (rc == 0) {
		pitch_check(c, n, s->r, s->expected, out);
		if (out->correct && s->pitched) {
			size_t len = strlen(out->detail);
			snprintf(out->detail + len, sizeof out->detail - len,
			    _("; rows %zu bytes apart, %zu of them used"), s->pitch, row);
		}
	}
	free(c);
	return rc;
}

const struct experiment experiment_pitch = {
	.name = "pitch",
	.element = "row",
	.unit = UNIT_GFLOPS,
	.max_size = PITCH_MAX_N,	/* room to explore; larger multiplies take long to time */
	.default_size = 1000,
	.work_bytes = pitch_work_bytes,
	.work_flops = pitch_flops,
	.device_bytes = pitch_device_bytes,
	.setup = pitch_setup,
	.prepare = pitch_prepare,
	.launch = pitch_launch,
	.check = pitch_check_run,
	.teardown = pitch_teardown,
};

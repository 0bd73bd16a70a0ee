/* Experiment: C = A * B for square row-major float matrices, by our kernels and by cuBLAS. */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiments/experiments.h"
#include "experiments/yardsticks.h"
#include "gpu.h"
#include "i18n.h"
#include "registry.h"

#define MATMUL_SEED 20190615ULL
#define MATMUL_TILE 32		/* columns of C per block, as in kernels/matmul.cu */

/* The size of this experiment is the dimension n of the n x n matrices. */
struct matmul_state {
	struct experiment_run run;	/* first: see experiment.h */
	const struct kernel_def *k;
	struct step_params p;
	int n;
	float *d_a, *d_b, *d_c;
	float *reference, *scale;	/* n * n each */
	struct yardstick_cublas *blas;
};

void matmul_fill(float *m, unsigned long long count, unsigned long long seed)
{
	for (unsigned long long i = 0; i < count; i++)
		/* uniform in [-1, 1), exactly representable */
		m[i] = (float)((int)(experiment_random(&seed) >> 8) - (1 << 23)) / (float)(1 << 23);
}

/* ---- the CPU reference, in double, one band of rows per thread ------------ */

struct reference_job {
	const float *a, *b;
	int n, first, step;
	float *reference, *scale;
};

static void *reference_rows(void *arg)
{
	const struct reference_job *j = arg;
	int n = j->n;
	double *sum = xmalloc(2 * (size_t)n * sizeof *sum), *mag = sum + n;

	for (int i = j->first; i < n; i += j->step) {
		memset(sum, 0, 2 * (size_t)n * sizeof *sum);
		for (int k = 0; k < n; k++) {
			double aik = j->a[(size_t)i * n + k], abs_aik = fabs(aik);
			const float *brow = j->b + (size_t)k * n;
			for (int c = 0; c < n; c++) {
				sum[c] += aik * brow[c];
				mag[c] += abs_aik * fabsf(brow[c]);
			}
		}
		for (int c = 0; c < n; c++) {
			j->reference[(size_t)i * n + c] = (float)sum[c];
			j->scale[(size_t)i * n + c] = (float)mag[c];
		}
	}
	free(sum);
	return NULL;
}

void matmul_reference(const float *a, const float *b, int n, float *reference, float *scale)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int threads = cpus < 1 ? 1 : cpus > 64 ? 64 : (int)cpus;
	pthread_t tid[64];
	struct reference_job jobs[64];
	int started[64] = { 0 };

	if (n <= 0)
		return;
	if (threads > n)
		threads = n;
	for (int t = 0; t < threads; t++)
		jobs[t] = (struct reference_job){ a, b, n, t, threads, reference, scale };
	for (int t = 1; t < threads; t++)
		started[t] = pthread_create(&tid[t], NULL, reference_rows, &jobs[t]) == 0;
	reference_rows(&jobs[0]);
	for (int t = 1; t < threads; t++) {
		if (started[t])
			pthread_join(tid[t], NULL);
		else
			reference_rows(&jobs[t]);	/* no thread: its rows are done here */
	}
}

double matmul_tolerance(float scale, int n)
{
	/*
	 * A float sum of n products errs by about sqrt(n) roundings of the size
	 * of its terms, whatever the order of the additions; four times that,
	 * against the sum of the products' magnitudes, leaves a wide margin
	 * and still catches a missing or doubled term of any real size.
	 */
	return 4.0 * sqrt((double)n) * ldexp(1.0, -24) * scale + 1e-30;
}

void matmul_check(const float *c, const float *reference, const float *scale, int n,
    struct check_result *out)
{
	unsigned long long count = (unsigned long long)n * n, bad = 0, first = 0;
	double worst = 0;	/* the largest error as a fraction of its tolerance */

	for (unsigned long long i = 0; i < count; i++) {
		double err = fabs((double)c[i] - (double)reference[i]);
		double tol = matmul_tolerance(scale[i], n);

		if (!(err <= tol)) {	/* NaN, the poison, fails too */
			if (bad == 0)
				first = i;
			bad++;
		} else if (err / tol > worst) {
			worst = err / tol;
		}
	}
	out->correct = bad == 0;
	if (out->correct)
		snprintf(out->detail, sizeof out->detail,
		    _("all %llu elements match the CPU (double) within fp32 rounding; the largest error is %.0f%% of the tolerance"),
		    count, worst * 100.0);
	else
		snprintf(out->detail, sizeof out->detail,
		    _("%llu of %llu elements differ from the CPU beyond fp32 rounding, the first at row %llu, column %llu (%g, the CPU says %g)"),
		    bad, count, first / (unsigned long long)n, first % (unsigned long long)n,
		    (double)c[first], (double)reference[first]);
}

/* ---- the experiment ----------------------------------------------------------- */

static double matmul_work_bytes(const struct step_params *p)
{
	return 3.0 * (double)p->size * (double)p->size * sizeof(float);	/* A, B read; C written */
}

static double matmul_work_flops(const struct step_params *p)
{
	double n = (double)p->size;

	return 2.0 * n * n * n;		/* a multiply and an add per term */
}

static size_t matmul_device_bytes(const struct kernel_def *k, const struct step_params *p)
{
	size_t matrices = 3 * (size_t)p->size * (size_t)p->size * sizeof(float);

	/* cuBLAS allocates a workspace of its own */
	return matrices + (k->shape == SHAPE_LIBRARY ? (size_t)64 << 20 : 0);
}

unsigned int matmul_grid(unsigned long long n, unsigned int block, unsigned int outputs_per_thread)
{
	unsigned long long tiles_x = (n + MATMUL_TILE - 1) / MATMUL_TILE;
	unsigned long long rows = (unsigned long long)(block / 32) * (outputs_per_thread ? outputs_per_thread : 1);

	return (unsigned int)(tiles_x * ((n + rows - 1) / rows));
}

static void matmul_teardown(void *state)
{
	struct matmul_state *s = state;

	if (s == NULL)
		return;
	gpu_free(s->d_a);
	gpu_free(s->d_b);
	gpu_free(s->d_c);
	yardstick_cublas_close(s->blas);
	free(s->reference);
	free(s->scale);
	free(s);
}

static void *matmul_setup(const struct kernel_def *k, const struct step_params *p, struct error *e)
{
	struct matmul_state *s = xcalloc(1, sizeof *s);
	size_t count = (size_t)p->size * (size_t)p->size, bytes = count * sizeof(float);
	float *a = NULL, *b = NULL;

	s->k = k;
	s->p = *p;
	s->n = (int)p->size;
	if (k->shape == SHAPE_LIBRARY) {
		s->run.grid = 0;	/* a library call: no grid of ours */
		s->blas = yardstick_cublas_open(gpu_stream(), e);
		if (s->blas == NULL)
			goto fail;
	} else {
		char symbol[128];

		registry_symbol(k, p->block, symbol, sizeof symbol);
		if (gpu_kernel(k->module, symbol, &s->run.kernel, e) != 0)
			goto fail;
		s->run.grid = matmul_grid(p->size, p->block, k->per_thread);
	}
	if (gpu_malloc((void **)&s->d_a, bytes, e) != 0 ||
	    gpu_malloc((void **)&s->d_b, bytes, e) != 0 ||
	    gpu_malloc((void **)&s->d_c, bytes, e) != 0)
		goto fail;
	a = malloc(bytes);
	b = malloc(bytes);
	s->reference = malloc(bytes);
	s->scale = malloc(bytes);
	if (a == NULL || b == NULL || s->reference == NULL || s->scale == NULL) {
		error_set(e, _("cannot allocate three %llu x %llu float matrices on the host: try a smaller --size"),
		    p->size, p->size);
		goto fail;
	}
	matmul_fill(a, count, MATMUL_SEED);
	matmul_fill(b, count, MATMUL_SEED + 1);
	matmul_reference(a, b, s->n, s->reference, s->scale);
	if (gpu_copy_to_device(s->d_a, a, bytes, e) != 0 ||
	    gpu_copy_to_device(s->d_b, b, bytes, e) != 0)
		goto fail;
	free(a);
	free(b);
	return s;
fail:
	free(a);
	free(b);
	matmul_teardown(s);
	return NULL;
}

static int matmul_prepare(void *state, struct error *e)
{
	struct matmul_state *s = state;

	/* NaN everywhere: an element nobody writes cannot pass the check. */
	return gpu_fill(s->d_c, 0xff, (size_t)s->n * (size_t)s->n * sizeof(float), e);
}

static int matmul_launch(void *state, struct error *e)
{
	struct matmul_state *s = state;

	if (s->blas != NULL)
		return yardstick_cublas_sgemm(s->blas, s->n, s->d_a, s->d_b, s->d_c, e);
	void *args[] = { &s->d_a, &s->d_b, &s->d_c, &s->n };
	return gpu_launch(s->run.kernel, s->run.grid, s->p.block, 0, args, e);
}

static int matmul_check_run(void *state, struct check_result *out, struct error *e)
{
	struct matmul_state *s = state;
	float *c = experiment_download(s->d_c, (unsigned long long)s->n * s->n, sizeof(float),
	    _("floats of C"), e);

	if (c == NULL)
		return -1;
	matmul_check(c, s->reference, s->scale, s->n, out);
	free(c);
	return 0;
}

const struct experiment experiment_matmul = {
	.name = "matmul",
	.element = "row",
	.unit = UNIT_GFLOPS,
	/* the CPU reference is n^3 multiply-adds: 4096 takes seconds, 8192 minutes */
	.max_size = 4096,
	.default_size = 2048,
	.work_bytes = matmul_work_bytes,
	.work_flops = matmul_work_flops,
	.device_bytes = matmul_device_bytes,
	.setup = matmul_setup,
	.prepare = matmul_prepare,
	.launch = matmul_launch,
	.check = matmul_check_run,
	.teardown = matmul_teardown,
};

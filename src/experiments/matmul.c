/* Experiments: C = A * B for square row-major float matrices, by our kernels and by cuBLAS. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/experiments.h"
#include "experiments/yardsticks.h"
#include "gpu.h"
#include "host_buffer.h"
#include "i18n.h"
#include "kernel_def.h"

#define MATMUL_SEED 20190615ULL
#define MATMUL_TILE 32		/* columns of C per block, as in kernels/matmul.cu */
/*
 * Up to this side the reference is computed on the CPU, in double.  Above
 * it the CPU would take longer than the runs it checks (at 2048, 17
 * billion multiply-adds in each of a lesson's steps took seconds a step
 * and most of a record), so cuBLAS computes it on the GPU where it can be
 * loaded, once for all the steps of a run.  cuBLAS's own step is never
 * checked against itself: above this side the CPU computes, in double,
 * two elements of every row (all of C took 10 s at 4096), and checks
 * those.  Sides up to this one, and every side without cuBLAS, are
 * checked in full against the CPU.
 */
#define MATMUL_CPU_REFERENCE_MAX 512

/* The size of this experiment is the dimension n of the n x n matrices. */
struct matmul_state {
	struct experiment_run run;	/* first: see experiment.h */
	const struct kernel_def *k;
	struct step_params p;
	int n;
	float *d_a, *d_b, *d_c;
	/* n * n each (MATMUL_SAMPLES a row when sampled), in host buffers: not ours to free */
	const float *reference, *scale;
	bool reference_on_gpu;		/* computed by cuBLAS, not on the CPU */
	bool sampled;			/* only the elements of matmul_sample_column */
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
	int n;
	float *reference, *scale;
};

static void reference_rows(void *ctx, int band, unsigned long long lo, unsigned long long hi)
{
	const struct reference_job *j = ctx;
	int n = j->n;
	double *sum = xmalloc(2 * (size_t)n * sizeof *sum), *mag = sum + n;

	(void)band;
	for (unsigned long long i = lo; i < hi; i++) {
		memset(sum, 0, 2 * (size_t)n * sizeof *sum);
		for (int k = 0; k < n; k++) {
			double aik = j->a[i * n + k], abs_aik = fabs(aik);
			const float *brow = j->b + (size_t)k * n;
			for (int c = 0; c < n; c++) {
				sum[c] += aik * brow[c];
				mag[c] += abs_aik * fabsf(brow[c]);
			}
		}
		for (int c = 0; c < n; c++) {
			j->reference[i * n + c] = (float)sum[c];
			j->scale[i * n + c] = (float)mag[c];
		}
	}
	free(sum);
}

void matmul_reference(const float *a, const float *b, int n, float *reference, float *scale)
{
	struct reference_job j = { a, b, n, reference, scale };

	/* a row is n * n multiply-adds */
	if (n > 0)
		experiment_parallel_work((unsigned long long)n, (unsigned long long)n * n, reference_rows, &j);
}

unsigned int matmul_sample_column(unsigned int row, unsigned int n, int which)
{
	/* the mirror of the row, which meets every column once, and one spread by a hash */
	return which == 0 ? n - 1 - row : (unsigned int)(((unsigned long long)row * 2654435761u + 12345) % n);
}

struct sample_job {
	const float *a, *b;
	unsigned int n;
	float *reference, *scale;
};

static void sample_rows(void *ctx, int band, unsigned long long lo, unsigned long long hi)
{
	const struct sample_job *j = ctx;
	unsigned int n = j->n;

	(void)band;
	for (unsigned long long i = lo; i < hi; i++) {
		for (int w = 0; w < MATMUL_SAMPLES; w++) {
			unsigned int c = matmul_sample_column((unsigned int)i, n, w);
			double sum = 0, mag = 0;

			for (unsigned int k = 0; k < n; k++) {
				double aik = j->a[i * n + k], bkc = j->b[(size_t)k * n + c];
				sum += aik * bkc;
				mag += fabs(aik) * fabs(bkc);
			}
			j->reference[i * MATMUL_SAMPLES + w] = (float)sum;
			j->scale[i * MATMUL_SAMPLES + w] = (float)mag;
		}
	}
}

void matmul_reference_samples(const float *a, const float *b, int n, float *reference, float *scale)
{
	struct sample_job j = { a, b, (unsigned int)n, reference, scale };

	if (n > 0)
		experiment_parallel_work((unsigned long long)n, (unsigned long long)MATMUL_SAMPLES * n,
		    sample_rows, &j);
}

void matmul_check_samples(const float *c, const float *reference, const float *scale, int n,
    struct check_result *out)
{
	unsigned long long count = (unsigned long long)n * MATMUL_SAMPLES;
	struct experiment_tally t = { 0, 0, 0 };

	for (unsigned long long s = 0; s < count; s++) {
		unsigned long long row = s / MATMUL_SAMPLES;
		unsigned int col = matmul_sample_column((unsigned int)row, (unsigned int)n, (int)(s % MATMUL_SAMPLES));

		experiment_tally_add(&t, s, c[row * (unsigned long long)n + col], reference[s], matmul_tolerance(scale[s], n));
	}
	out->correct = t.bad == 0;
	if (out->correct) {
		snprintf(out->detail, sizeof out->detail,
		    _("%llu elements, two of every row, match the CPU (double) within fp32 rounding; the largest error is %.0f%% of the tolerance"),
		    count, t.worst * 100.0);
	} else {
		unsigned long long row = t.first / MATMUL_SAMPLES;
		unsigned int col = matmul_sample_column((unsigned int)row, (unsigned int)n, (int)(t.first % MATMUL_SAMPLES));

		snprintf(out->detail, sizeof out->detail,
		    _("%llu of %llu elements checked (two of every row) differ from the CPU beyond fp32 rounding, the first at row %llu, column %u (%g, the CPU says %g)"),
		    t.bad, count, row, col, (double)c[row * (unsigned long long)n + col], (double)reference[t.first]);
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
    bool reference_on_gpu, struct check_result *out)
{
	unsigned long long count = (unsigned long long)n * n;
	struct experiment_tally t = { 0, 0, 0 };
	/*
	 * cuBLAS's answer is a float sum too: the two differ by at most the
	 * sum of their errors, so each may be off by a tolerance.  (Its scale,
	 * a float sum of magnitudes, is within n roundings of exact: a
	 * relative 2.4e-4 at 4096, lost in the margin.)
	 */
	double allowed = reference_on_gpu ? 2.0 : 1.0;

	for (unsigned long long i = 0; i < count; i++)
		experiment_tally_add(&t, i, c[i], reference[i], allowed * matmul_tolerance(scale[i], n));
	out->correct = t.bad == 0;
	if (out->correct && reference_on_gpu)
		snprintf(out->detail, sizeof out->detail,
		    _("all %llu elements match cuBLAS within fp32 rounding of both; the largest error is %.0f%% of the tolerance"),
		    count, t.worst * 100.0);
	else if (out->correct)
		snprintf(out->detail, sizeof out->detail,
		    _("all %llu elements match the CPU (double) within fp32 rounding; the largest error is %.0f%% of the tolerance"),
		    count, t.worst * 100.0);
	else if (reference_on_gpu)
		snprintf(out->detail, sizeof out->detail,
		    _("%llu of %llu elements differ from cuBLAS beyond fp32 rounding, the first at row %llu, column %llu (%g, cuBLAS says %g)"),
		    t.bad, count, t.first / (unsigned long long)n, t.first % (unsigned long long)n,
		    (double)c[t.first], (double)reference[t.first]);
	else
		snprintf(out->detail, sizeof out->detail,
		    _("%llu of %llu elements differ from the CPU beyond fp32 rounding, the first at row %llu, column %llu (%g, the CPU says %g)"),
		    t.bad, count, t.first / (unsigned long long)n, t.first % (unsigned long long)n,
		    (double)c[t.first], (double)reference[t.first]);
}

bool matmul_reference_on_gpu(const struct kernel_def *k, unsigned long long n)
{
	return n > MATMUL_CPU_REFERENCE_MAX && k->shape != SHAPE_LIBRARY;
}

bool matmul_reference_sampled(const struct kernel_def *k, unsigned long long n)
{
	return n > MATMUL_CPU_REFERENCE_MAX && k->shape == SHAPE_LIBRARY;
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
	bool blas = k->shape == SHAPE_LIBRARY || matmul_reference_on_gpu(k, p->size);

	/* cuBLAS allocates a workspace of its own */
	return matrices + (blas ? (size_t)64 << 20 : 0);
}

unsigned int matmul_grid(unsigned long long n, unsigned int block, unsigned int outputs_per_thread)
{
	unsigned long long tiles_x = (n + MATMUL_TILE - 1) / MATMUL_TILE;
	unsigned long long rows = (unsigned long long)(block / 32) * (outputs_per_thread ? outputs_per_thread : 1);

	return (unsigned int)(tiles_x * ((n + rows - 1) / rows));
}

unsigned int matmul_tile_side(unsigned int block, unsigned int outputs_per_thread)
{
	unsigned long long area = (unsigned long long)block * outputs_per_thread;
	unsigned int side = (unsigned int)sqrt((double)area);

	while ((unsigned long long)side * side > area)
		side--;
	while ((unsigned long long)(side + 1) * (side + 1) <= area)
		side++;
	return (unsigned long long)side * side == area ? side : 0;
}

unsigned int matmul_tiles_grid(unsigned long long n, unsigned int side)
{
	unsigned long long tiles = (n + side - 1) / side;

	return (unsigned int)(tiles * tiles);
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
	free(s);
}

/*
 * The reference by cuBLAS, on the GPU buffers the runs use later: A * B,
 * and |A| * |B|, whose elements are the sums of the products' magnitudes
 * that the tolerance is measured against.  Leaves A and B on the GPU.
 */
static int matmul_reference_gpu(struct matmul_state *s, const float *a, const float *b,
    float *reference, float *scale, struct error *e)
{
	size_t count = (size_t)s->n * (size_t)s->n, bytes = count * sizeof(float);
	struct yardstick_cublas *blas = yardstick_cublas_open(gpu_stream(), e);
	float *magnitude;
	int rc = -1;

	if (blas == NULL)
		return -1;
	if (gpu_copy_to_device(s->d_a, a, bytes, e) != 0 ||
	    gpu_copy_to_device(s->d_b, b, bytes, e) != 0 ||
	    yardstick_cublas_sgemm(blas, s->n, s->d_a, s->d_b, s->d_c, e) != 0 ||
	    gpu_copy_to_host(reference, s->d_c, bytes, e) != 0)
		goto out;
	/* |A| and then |B| through one scratch buffer: each copy is done when it returns */
	if ((magnitude = host_buffer(HOST_RESULT, NULL, bytes, NULL, e)) == NULL)
		goto out;
	for (size_t i = 0; i < count; i++)
		magnitude[i] = fabsf(a[i]);
	if (gpu_copy_to_device(s->d_a, magnitude, bytes, e) != 0)
		goto out;
	for (size_t i = 0; i < count; i++)
		magnitude[i] = fabsf(b[i]);
	if (gpu_copy_to_device(s->d_b, magnitude, bytes, e) != 0 ||
	    yardstick_cublas_sgemm(blas, s->n, s->d_a, s->d_b, s->d_c, e) != 0 ||
	    gpu_copy_to_host(scale, s->d_c, bytes, e) != 0)
		goto out;
	rc = 0;
out:
	/* closed before the runs: the workspace it holds is not theirs */
	yardstick_cublas_close(blas);
	return rc;
}

/*
 * A and B, and what the check compares C with, made once for all the
 * steps of a run at this side that are checked the same way (see
 * host_buffer.h): A, B on the host, and reference and scale.
 */
static int matmul_inputs(struct matmul_state *s, const float **a, const float **b, struct error *e)
{
	size_t count = (size_t)s->n * (size_t)s->n, bytes = count * sizeof(float);
	size_t checked = s->sampled ? (size_t)s->n * MATMUL_SAMPLES : count;
	const char *how = s->sampled ? "samples" : "full";
	char key[4][96];
	bool ready[4];
	float *buf[4];

	for (int i = 0; i < 2; i++)
		snprintf(key[i], sizeof key[i], "matmul %d %s %llx", s->n, i == 0 ? "a" : "b", s->p.seed);
	for (int i = 2; i < 4; i++)
		snprintf(key[i], sizeof key[i], "matmul %d %s %s %s %llx", s->n, i == 2 ? "reference" : "scale", how,
		    s->reference_on_gpu ? "cublas" : "cpu", s->p.seed);
	if ((buf[0] = host_buffer(HOST_INPUT_A, key[0], bytes, &ready[0], e)) == NULL ||
	    (buf[1] = host_buffer(HOST_INPUT_B, key[1], bytes, &ready[1], e)) == NULL ||
	    (buf[2] = host_buffer(HOST_REFERENCE, key[2], checked * sizeof(float), &ready[2], e)) == NULL ||
	    (buf[3] = host_buffer(HOST_SCALE, key[3], checked * sizeof(float), &ready[3], e)) == NULL) {
		for (int i = HOST_INPUT_A; i <= HOST_SCALE; i++)
			host_buffer_forget((enum host_slot)i);
		error_set(e, _("cannot allocate three %llu x %llu float matrices on the host: try a smaller --size"),
		    s->p.size, s->p.size);
		return -1;
	}
	*a = buf[0];
	*b = buf[1];
	s->reference = buf[2];
	s->scale = buf[3];
	if (!ready[0] || !ready[1]) {
		matmul_fill(buf[0], count, experiment_seed(&s->p, MATMUL_SEED));
		matmul_fill(buf[1], count, experiment_seed(&s->p, MATMUL_SEED + 1));
		ready[2] = ready[3] = false;
	}
	if (ready[2] && ready[3])
		return 0;
	if (s->reference_on_gpu) {
		struct error why;

		if (matmul_reference_gpu(s, buf[0], buf[1], buf[2], buf[3], &why) == 0)
			return 0;
		/* without cuBLAS, the CPU does it, slowly */
		s->reference_on_gpu = false;
		host_buffer_forget(HOST_REFERENCE);
		host_buffer_forget(HOST_SCALE);
		return matmul_inputs(s, a, b, e);
	}
	if (s->sampled)
		matmul_reference_samples(buf[0], buf[1], s->n, buf[2], buf[3]);
	else
		matmul_reference(buf[0], buf[1], s->n, buf[2], buf[3]);
	return 0;
}

static void *matmul_setup(const struct kernel_def *k, const struct step_params *p, struct error *e)
{
	struct matmul_state *s = xcalloc(1, sizeof *s);
	size_t bytes = (size_t)p->size * (size_t)p->size * sizeof(float);
	const float *a, *b;

	s->k = k;
	s->p = *p;
	s->n = (int)p->size;
	s->reference_on_gpu = matmul_reference_on_gpu(k, p->size);
	s->sampled = matmul_reference_sampled(k, p->size);
	if (registry_is_library(k)) {
		s->run.grid = 0;	/* a library call: no grid of ours */
		s->blas = yardstick_cublas_open(gpu_stream(), e);
		if (s->blas == NULL)
			goto fail;
	} else {
		char symbol[128];

		registry_symbol(k, p->block, symbol, sizeof symbol);
		if (gpu_kernel(k->module, symbol, &s->run.kernel, e) != 0)
			goto fail;
		if (k->shape == SHAPE_TILES) {
			unsigned int side = matmul_tile_side(p->block, k->per_thread);

			if (side == 0) {
				error_set(e, _("%s: %u threads of %u outputs each make no square tile; fix its row in src/registry.c"),
				    k->name, p->block, k->per_thread);
				goto fail;
			}
			s->run.grid = matmul_tiles_grid(p->size, side);
		} else {
			s->run.grid = matmul_grid(p->size, p->block, k->per_thread);
		}
	}
	if (gpu_malloc((void **)&s->d_a, bytes, e) != 0 ||
	    gpu_malloc((void **)&s->d_b, bytes, e) != 0 ||
	    gpu_malloc((void **)&s->d_c, bytes, e) != 0)
		goto fail;
	if (matmul_inputs(s, &a, &b, e) != 0 ||
	    gpu_copy_to_device(s->d_a, a, bytes, e) != 0 ||
	    gpu_copy_to_device(s->d_b, b, bytes, e) != 0)
		goto fail;
	return s;
fail:
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
	if (s->sampled)
		matmul_check_samples(c, s->reference, s->scale, s->n, out);
	else
		matmul_check(c, s->reference, s->scale, s->n, s->reference_on_gpu, out);
	return 0;
}

const struct experiment experiment_matmul = {
	.name = "matmul",
	.element = "row",
	.unit = UNIT_GFLOPS,
	/*
	 * the CPU reference (cuBLAS's own step, or no cuBLAS) is n^3
	 * multiply-adds: 4096 takes seconds, 8192 minutes
	 */
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

/*
 * The register-tiling lesson's kernels: the same matrices, reference and
 * check, and the block every one of them is written for (256 threads) as
 * the lesson's default, which a lesson takes from its experiments.
 */
const struct experiment experiment_regtile = {
	.name = "regtile",
	.work = "matmul",	/* the same C = A B: compared with the tiles and cuBLAS */
	.element = "row",
	.unit = UNIT_GFLOPS,
	.max_size = 4096,
	.default_size = 2048,
	.default_block = 256,
	.work_bytes = matmul_work_bytes,
	.work_flops = matmul_work_flops,
	.device_bytes = matmul_device_bytes,
	.setup = matmul_setup,
	.prepare = matmul_prepare,
	.launch = matmul_launch,
	.check = matmul_check_run,
	.teardown = matmul_teardown,
};

/* Experiments: C = A * B on the tensor cores, BF16 inputs and FP32 sums, by our kernels and by cuBLAS. */
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

#define TENSOR_SEED 20170510ULL
/*
 * Up to this side the reference is the CPU's, in double, for every element;
 * above it cuBLAS's BF16 product on the GPU, as for the FP32 matrices
 * (see MATMUL_CPU_REFERENCE_MAX), and cuBLAS's own step is checked at
 * two elements of every row computed on the CPU.
 */
#define TENSOR_CPU_REFERENCE_MAX 512

/*
 * How each kernel launches: the tile of C a block computes (the grid is
 * one block per tile of the padded matrix, in a row), its threads, and
 * its dynamic shared memory.  The one place these numbers live; the
 * kernels in kernels/tensor.cu and kernels/tensor_hopper.cu are written
 * for them.
 */
static const struct tensor_launch tensor_launches[] = {
	{ "tc_wmma_global", 32, 32, 128, 0, 0, false, false, false },
	{ "tc_wmma_global_wide", 128, 128, 256, 0, 0, false, false, false },
	{ "tc_wmma_shared", 128, 128, 256, 0, 0, false, false, false },
	{ "tc_mma_ldmatrix_padded", 128, 128, 256, 0, 0, false, false, false },
	{ "tc_mma_ldmatrix", 128, 128, 256, 0, 0, false, false, false },
	{ "tc_mma_cp_async_one_stage", 128, 128, 256, 0, 0, false, false, false },
	/* 3 stages of a 128 x 32 tile of A and of Bt */
	{ "tc_mma_cp_async", 128, 128, 256, 3 * (128 * 32 + 128 * 32) * 2, 0, false, false, false },
	/* one stage of them brought by the TMA, and 1024 bytes to align it for the swizzle */
	{ "tc_mma_tma_one_stage", 128, 128, 256, (128 * 32 + 128 * 32) * 2 + 1024, 32, false, false, false },
	/* the same 3 stages brought by the TMA, and 1024 bytes to align them for the swizzle */
	{ "tc_mma_tma", 128, 128, 256, 3 * (128 * 32 + 128 * 32) * 2 + 1024, 32, false, false, false },
	{ "tc_wgmma_narrow", 128, 128, 256, 3 * (128 * 32 + 128 * 32) * 2 + 1024, 32, false, false, false },
	/* step 13's controls: one warpgroup on those 3 stages; then the stages 64 wide */
	{ "tc_wgmma_one_warpgroup", 128, 128, 128, 3 * (128 * 32 + 128 * 32) * 2 + 1024, 32, false, false, false },
	{ "tc_wgmma_wide_tiles", 128, 128, 128, 3 * (128 * 64 + 128 * 64) * 2 + 1024, 64, false, false, false },
	/* 4 stages of 64-wide tiles of A and Bt, and 1024 bytes to align them for the 128-byte swizzle */
	{ "tc_wgmma_tma", 128, 128, 128, 4 * (128 * 64 + 128 * 64) * 2 + 1024, 64, false, false, false },
	{ "tc_wgmma_pipelined", 128, 128, 128, 4 * (128 * 64 + 128 * 64) * 2 + 1024, 64, false, false, false },
	/* a producer warp's worth (128 threads) and two consumer warpgroups */
	{ "tc_wgmma_unspecialized", 128, 256, 384, 4 * (128 * 64 + 256 * 64) * 2 + 1024, 64, false, false, false },
	{ "tc_wgmma_warp_specialized", 128, 256, 384, 4 * (128 * 64 + 256 * 64) * 2 + 1024, 64, false, false, false },
	{ "tc_wgmma_grouped", 128, 256, 384, 4 * (128 * 64 + 256 * 64) * 2 + 1024, 64, false, false, false },
	{ "tc_wgmma_persistent", 128, 256, 384, 4 * (128 * 64 + 256 * 64) * 2 + 1024, 64, true, false, false },
	{ "tc_wgmma_cluster", 128, 256, 384, 4 * (128 * 64 + 256 * 64) * 2 + 1024, 64, true, true, false },
	/* and two buffers a consumer of a 64 x 32 chunk of C (8 KB each) */
	{ "tc_wgmma_tma_store", 128, 256, 384, 4 * (128 * 64 + 256 * 64) * 2 + 1024 + 4 * 8192, 64, true, true, true },
	{ "tc_wgmma_last_wave", 128, 256, 384, 4 * (128 * 64 + 256 * 64) * 2 + 1024 + 4 * 8192, 64, true, true, true },
};

const struct tensor_launch *tensor_launch_find(const char *kernel)
{
	for (size_t i = 0; i < ARRAY_LEN(tensor_launches); i++)
		if (strcmp(tensor_launches[i].kernel, kernel) == 0)
			return &tensor_launches[i];
	return NULL;
}

unsigned long long tensor_padded(unsigned long long n)
{
	return (n + TENSOR_PAD - 1) / TENSOR_PAD * TENSOR_PAD;
}

uint16_t bf16_from_float(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof u);
	if ((u & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((u >> 16) | 0x40);	/* a NaN stays one */
	/* to nearest, ties to even: add half of the dropped part, and the kept lowest bit */
	u += 0x7fffu + ((u >> 16) & 1);
	return (uint16_t)(u >> 16);
}

float bf16_to_float(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;

	memcpy(&f, &u, sizeof f);
	return f;
}

void tensor_fill(uint16_t *m, int n, int np, unsigned long long seed)
{
	for (int i = 0; i < np; i++)
		for (int k = 0; k < np; k++) {
			float v = 0;

			/* uniform in [-1, 1) as the FP32 matrices, rounded to BF16; zeros in the padding */
			if (i < n && k < n)
				v = (float)((int)(experiment_random(&seed) >> 8) - (1 << 23)) / (float)(1 << 23);
			m[(size_t)i * np + k] = bf16_from_float(v);
		}
}

double tensor_tolerance(float scale, int k)
{
	/*
	 * The inputs are exact in BF16, so every product (8 bits by 8) is
	 * exact in FP32: only the additions round, and a sum of K terms in
	 * any order, each addition off by at most 2^-24 of what it adds up
	 * (2^-23 where the tensor cores truncate), errs by at most
	 * K 2^-23 times the sum of the terms' magnitudes.  Four times K 2^-24
	 * of that sum is the bound, whatever order a kernel adds in.
	 */
	return 4.0 * (double)k * ldexp(1.0, -24) * scale + 1e-30;
}

void tensor_check(const float *c, int ld, const float *reference, const float *scale, int n,
    bool reference_on_gpu, struct check_result *out)
{
	unsigned long long count = (unsigned long long)n * n;
	struct experiment_tally t = { 0, 0, 0 };
	/* cuBLAS's answer is a float sum too: each of the two may be off by the bound */
	double allowed = reference_on_gpu ? 2.0 : 1.0;

	for (unsigned long long i = 0; i < count; i++)
		experiment_tally_add(&t, i, c[(i / n) * ld + i % n], reference[i], allowed * tensor_tolerance(scale[i], n));
	out->correct = t.bad == 0;
	if (out->correct)
		snprintf(out->detail, sizeof out->detail,
		    reference_on_gpu ?
		    _("all %llu elements match cuBLAS BF16 within the FP32 sums' bound of both; the largest error is %.0f%% of it") :
		    _("all %llu elements match the CPU (double) within the FP32 sums' bound; the largest error is %.0f%% of it"),
		    count, t.worst * 100.0);
	else
		snprintf(out->detail, sizeof out->detail,
		    reference_on_gpu ?
		    _("%llu of %llu elements differ from cuBLAS BF16 beyond the FP32 sums' bound, the first at row %llu, column %llu (%g, cuBLAS says %g)") :
		    _("%llu of %llu elements differ from the CPU beyond the FP32 sums' bound, the first at row %llu, column %llu (%g, the CPU says %g)"),
		    t.bad, count, t.first / (unsigned long long)n, t.first % (unsigned long long)n,
		    (double)c[(t.first / n) * ld + t.first % n], (double)reference[t.first]);
}

void tensor_check_samples(const float *c, int ld, const float *reference, const float *scale, int n,
    struct check_result *out)
{
	unsigned long long count = (unsigned long long)n * MATMUL_SAMPLES;
	struct experiment_tally t = { 0, 0, 0 };

	for (unsigned long long s = 0; s < count; s++) {
		unsigned long long row = s / MATMUL_SAMPLES;
		unsigned int col = matmul_sample_column((unsigned int)row, (unsigned int)n, (int)(s % MATMUL_SAMPLES));

		experiment_tally_add(&t, s, c[row * ld + col], reference[s], tensor_tolerance(scale[s], n));
	}
	out->correct = t.bad == 0;
	if (out->correct) {
		snprintf(out->detail, sizeof out->detail,
		    _("%llu elements, two of every row, match the CPU (double) within the FP32 sums' bound; the largest error is %.0f%% of it"),
		    count, t.worst * 100.0);
	} else {
		unsigned long long row = t.first / MATMUL_SAMPLES;
		unsigned int col = matmul_sample_column((unsigned int)row, (unsigned int)n, (int)(t.first % MATMUL_SAMPLES));

		snprintf(out->detail, sizeof out->detail,
		    _("%llu of %llu elements checked (two of every row) differ from the CPU beyond the FP32 sums' bound, the first at row %llu, column %u (%g, the CPU says %g)"),
		    t.bad, count, row, col, (double)c[row * ld + col], (double)reference[t.first]);
	}
}

/* ---- the experiment ----------------------------------------------------------- */

struct tensor_state {
	struct experiment_run run;	/* first: see experiment.h */
	const struct kernel_def *k;
	const struct tensor_launch *launch;
	int n, np;			/* the side, and the side padded to TENSOR_PAD */
	unsigned long long seed;	/* the step's (see experiment_seed) */
	uint16_t *d_a, *d_bt;		/* BF16, np x np, zeros outside the n x n corner */
	float *d_c;			/* np x np */
	struct gpu_tensor_map map_a, map_bt, map_c;	/* for the sm_90a kernels; map_c where the TMA stores C */
	/* n * n each (MATMUL_SAMPLES a row when sampled), in host buffers: not ours to free */
	const float *reference, *scale;
	bool reference_on_gpu, sampled;
	struct yardstick_cublas *blas;
};

static bool reference_on_gpu(const struct kernel_def *k, unsigned long long n)
{
	return n > TENSOR_CPU_REFERENCE_MAX && k->shape != SHAPE_LIBRARY;
}

static double tensor_work_bytes(const struct step_params *p)
{
	/* A and B read, two bytes an element; C written, four */
	return 8.0 * (double)p->size * (double)p->size;
}

static double tensor_work_flops(const struct step_params *p)
{
	double n = (double)p->size;

	return 2.0 * n * n * n;		/* of the real side: the padding's zeros are not work */
}

static size_t tensor_device_bytes(const struct kernel_def *k, const struct step_params *p)
{
	size_t np = (size_t)tensor_padded(p->size), matrices = np * np * (2 + 2 + 4);
	bool blas = k->shape == SHAPE_LIBRARY || reference_on_gpu(k, p->size);

	/* cuBLAS allocates a workspace of its own */
	return matrices + (blas ? (size_t)64 << 20 : 0);
}

static void tensor_teardown(void *state)
{
	struct tensor_state *s = state;

	if (s == NULL)
		return;
	gpu_free(s->d_a);
	gpu_free(s->d_bt);
	gpu_free(s->d_c);
	yardstick_cublas_close(s->blas);
	free(s);
}

/*
 * The reference by cuBLAS on the GPU buffers, A and Bt already there: A B,
 * and |A| |B| (the sums of the products' magnitudes, the bound's scale),
 * the n x n corner of each.  Leaves |A| and |Bt| on the GPU: the caller
 * copies A and Bt up again.
 */
static int reference_gpu(struct tensor_state *s, const uint16_t *a, const uint16_t *bt, float *reference,
    float *scale, struct error *e)
{
	size_t count = (size_t)s->np * s->np, bytes = count * sizeof(uint16_t);
	size_t row = (size_t)s->n * sizeof(float), pitch = (size_t)s->np * sizeof(float);
	struct yardstick_cublas *blas = yardstick_cublas_open(gpu_stream(), e);
	uint16_t *magnitude;
	int rc = -1;

	if (blas == NULL)
		return -1;
	if (yardstick_cublas_gemm_bf16(blas, s->n, s->np, s->d_a, s->d_bt, s->d_c, e) != 0 ||
	    gpu_copy_2d_to_host(reference, row, s->d_c, pitch, row, (size_t)s->n, e) != 0)
		goto out;
	/* a BF16's magnitude is its bits without the sign: exact */
	if ((magnitude = host_buffer(HOST_RESULT, NULL, bytes, NULL, e)) == NULL)
		goto out;
	for (size_t i = 0; i < count; i++)
		magnitude[i] = a[i] & 0x7fff;
	if (gpu_copy_to_device(s->d_a, magnitude, bytes, e) != 0)
		goto out;
	for (size_t i = 0; i < count; i++)
		magnitude[i] = bt[i] & 0x7fff;
	if (gpu_copy_to_device(s->d_bt, magnitude, bytes, e) != 0 ||
	    yardstick_cublas_gemm_bf16(blas, s->n, s->np, s->d_a, s->d_bt, s->d_c, e) != 0 ||
	    gpu_copy_2d_to_host(scale, row, s->d_c, pitch, row, (size_t)s->n, e) != 0)
		goto out;
	rc = 0;
out:
	/* closed before the runs: the workspace it holds is not theirs */
	yardstick_cublas_close(blas);
	return rc;
}

/* The reference on the CPU, in double, through the FP32 matrices' code: A and B (not Bt) as floats. */
static void reference_cpu(const struct tensor_state *s, const uint16_t *a, const uint16_t *bt,
    float *reference, float *scale)
{
	size_t n = (size_t)s->n, np = (size_t)s->np;
	float *af = xmalloc(2 * n * n * sizeof *af), *bf = af + n * n;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < n; k++) {
			af[i * n + k] = bf16_to_float(a[i * np + k]);
			bf[k * n + i] = bf16_to_float(bt[i * np + k]);	/* B[k][i] = Bt[i][k] */
		}
	if (s->sampled)
		matmul_reference_samples(af, bf, s->n, reference, scale);
	else
		matmul_reference(af, bf, s->n, reference, scale);
	free(af);
}

/*
 * A and Bt, and what the check compares C with, made once for all the
 * steps of a run at this side that are checked the same way (see
 * host_buffer.h).
 */
static int tensor_inputs(struct tensor_state *s, const uint16_t **a, const uint16_t **bt, struct error *e)
{
	size_t bytes = (size_t)s->np * s->np * sizeof(uint16_t);
	size_t checked = s->sampled ? (size_t)s->n * MATMUL_SAMPLES : (size_t)s->n * s->n;
	const char *how = s->sampled ? "samples" : "full";
	char key[4][96];
	bool ready[4];
	void *buf[4];

	snprintf(key[0], sizeof key[0], "tensor %d a %llx", s->n, s->seed);
	snprintf(key[1], sizeof key[1], "tensor %d bt %llx", s->n, s->seed);
	for (int i = 2; i < 4; i++)
		snprintf(key[i], sizeof key[i], "tensor %d %s %s %s %llx", s->n, i == 2 ? "reference" : "scale", how,
		    s->reference_on_gpu ? "cublas" : "cpu", s->seed);
	if ((buf[0] = host_buffer(HOST_INPUT_A, key[0], bytes, &ready[0], e)) == NULL ||
	    (buf[1] = host_buffer(HOST_INPUT_B, key[1], bytes, &ready[1], e)) == NULL ||
	    (buf[2] = host_buffer(HOST_REFERENCE, key[2], checked * sizeof(float), &ready[2], e)) == NULL ||
	    (buf[3] = host_buffer(HOST_SCALE, key[3], checked * sizeof(float), &ready[3], e)) == NULL) {
		for (int i = HOST_INPUT_A; i <= HOST_SCALE; i++)
			host_buffer_forget((enum host_slot)i);
		error_set(e, _("cannot allocate the %llu x %llu BF16 matrices and their reference on the host: try a smaller --size"),
		    (unsigned long long)s->n, (unsigned long long)s->n);
		return -1;
	}
	*a = buf[0];
	*bt = buf[1];
	s->reference = buf[2];
	s->scale = buf[3];
	if (!ready[0] || !ready[1]) {
		tensor_fill(buf[0], s->n, s->np, experiment_seed(&(struct step_params){ .seed = s->seed }, TENSOR_SEED));
		tensor_fill(buf[1], s->n, s->np, experiment_seed(&(struct step_params){ .seed = s->seed }, TENSOR_SEED + 1));
		ready[2] = ready[3] = false;
	}
	if (ready[2] && ready[3])
		return 0;
	if (s->reference_on_gpu) {
		struct error why;

		/* cuBLAS computes it from A and Bt on the GPU */
		if (gpu_copy_to_device(s->d_a, *a, bytes, &why) == 0 &&
		    gpu_copy_to_device(s->d_bt, *bt, bytes, &why) == 0 &&
		    reference_gpu(s, *a, *bt, buf[2], buf[3], &why) == 0)
			return 0;
		/* without cuBLAS, the CPU does it, slowly */
		s->reference_on_gpu = false;
		host_buffer_forget(HOST_REFERENCE);
		host_buffer_forget(HOST_SCALE);
		return tensor_inputs(s, a, bt, e);
	}
	reference_cpu(s, *a, *bt, buf[2], buf[3]);
	return 0;
}

/* Our kernel, its launch row, and for the sm_90a kernels the two tensor maps. */
static int tensor_kernel(struct tensor_state *s, struct error *e)
{
	const struct kernel_def *k = s->k;
	const struct tensor_launch *t = tensor_launch_find(k->name);

	if (t == NULL) {
		error_set(e, _("%s has no launch row in src/experiments/tensor.c"), k->name);
		return -1;
	}
	s->launch = t;
	s->run.grid = (unsigned int)((s->np / t->tile_m) * (s->np / t->tile_n));
	s->run.block = t->threads;
	s->run.shared_bytes = t->shared_bytes;
	if (gpu_kernel(k->module, k->name, &s->run.kernel, e) != 0 ||
	    gpu_kernel_shared(s->run.kernel, t->shared_bytes, e) != 0)
		return -1;
	if (t->persistent) {
		/* as many blocks as run at once: one an SM, or every cluster of two the GPU can hold */
		int resident = gpu_info()->sm_count, clusters;

		if (t->cluster_pairs) {
			if (gpu_max_active_clusters(s->run.kernel, t->threads, t->shared_bytes, &clusters, e) != 0)
				return -1;
			resident = 2 * clusters;
		}
		if (resident > 0 && s->run.grid > (unsigned int)resident)
			s->run.grid = (unsigned int)resident;
	}
	if (t->box_k == 0)
		return 0;
	/* boxes box_k elements along k, a tile's rows tall (half a tile of Bt, where a cluster shares it) */
	if (gpu_tensor_map_bf16(&s->map_a, s->d_a, (unsigned long long)s->np, (unsigned long long)s->np,
	    t->box_k, t->tile_m, e) != 0 ||
	    gpu_tensor_map_bf16(&s->map_bt, s->d_bt, (unsigned long long)s->np, (unsigned long long)s->np,
	    t->box_k, t->cluster_pairs ? t->tile_n / 2 : t->tile_n, e) != 0)
		return -1;
	return t->c_by_tma ? gpu_tensor_map_f32(&s->map_c, s->d_c, (unsigned long long)s->np,
	    (unsigned long long)s->np, TENSOR_C_BOX_ROWS, e) : 0;
}

static void *tensor_setup(const struct kernel_def *k, const struct step_params *p, struct error *e)
{
	struct tensor_state *s = xcalloc(1, sizeof *s);
	size_t np2, bytes;
	const uint16_t *a, *bt;

	s->k = k;
	s->n = (int)p->size;
	s->seed = p->seed;
	s->np = (int)tensor_padded(p->size);
	np2 = (size_t)s->np * s->np;
	bytes = np2 * sizeof(uint16_t);
	s->reference_on_gpu = reference_on_gpu(k, p->size);
	s->sampled = p->size > TENSOR_CPU_REFERENCE_MAX && k->shape == SHAPE_LIBRARY;
	if (gpu_malloc((void **)&s->d_a, bytes, e) != 0 ||
	    gpu_malloc((void **)&s->d_bt, bytes, e) != 0 ||
	    gpu_malloc((void **)&s->d_c, np2 * sizeof(float), e) != 0)
		goto fail;
	if (registry_is_library(k)) {
		s->run.grid = 0;	/* a library call: no grid of ours */
		if ((s->blas = yardstick_cublas_open(gpu_stream(), e)) == NULL)
			goto fail;
	} else if (tensor_kernel(s, e) != 0) {
		goto fail;
	}
	if (tensor_inputs(s, &a, &bt, e) != 0 ||
	    gpu_copy_to_device(s->d_a, a, bytes, e) != 0 ||
	    gpu_copy_to_device(s->d_bt, bt, bytes, e) != 0)
		goto fail;
	return s;
fail:
	tensor_teardown(s);
	return NULL;
}

static int tensor_prepare(void *state, struct error *e)
{
	struct tensor_state *s = state;

	/* NaN everywhere: an element nobody writes cannot pass the check */
	return gpu_fill(s->d_c, 0xff, (size_t)s->np * s->np * sizeof(float), e);
}

static int tensor_launch(void *state, struct error *e)
{
	struct tensor_state *s = state;

	if (s->blas != NULL)
		return yardstick_cublas_gemm_bf16(s->blas, s->n, s->np, s->d_a, s->d_bt, s->d_c, e);
	/* the kernel's parameters, as its launch row says it takes them */
	void *maps_and_c[] = { s->map_a.bytes, s->map_bt.bytes, s->map_c.bytes, &s->d_c, &s->np };
	void *maps[] = { s->map_a.bytes, s->map_bt.bytes, &s->d_c, &s->np };
	void *pointers[] = { &s->d_a, &s->d_bt, &s->d_c, &s->np };

	return gpu_launch(s->run.kernel, s->run.grid, s->launch->threads, s->launch->shared_bytes,
	    s->launch->c_by_tma ? maps_and_c : s->launch->box_k != 0 ? maps : pointers, e);
}

static int tensor_check_run(void *state, struct check_result *out, struct error *e)
{
	struct tensor_state *s = state;
	float *c = experiment_download(s->d_c, (unsigned long long)s->np * s->np, sizeof(float),
	    _("floats of C"), e);

	if (c == NULL)
		return -1;
	if (s->sampled)
		tensor_check_samples(c, s->np, s->reference, s->scale, s->n, out);
	else
		tensor_check(c, s->np, s->reference, s->scale, s->n, s->reference_on_gpu, out);
	return 0;
}

const struct experiment experiment_tensor = {
	.name = "tensor",
	.element = "row",
	.unit = UNIT_GFLOPS,
	/* padded to 8192, three matrices take half a gigabyte; the CPU's samples for cuBLAS, seconds */
	.max_size = 8192,
	.default_size = 4096,
	.work_bytes = tensor_work_bytes,
	.work_flops = tensor_work_flops,
	.device_bytes = tensor_device_bytes,
	.setup = tensor_setup,
	.prepare = tensor_prepare,
	.launch = tensor_launch,
	.check = tensor_check_run,
	.teardown = tensor_teardown,
};

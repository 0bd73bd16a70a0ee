/* The experiments' CPU references and checks, without a GPU. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "experiments/experiments.h"
#include "paths.h"
#include "registry.h"

START_TEST(reduce_reference_is_exact)
{
	int data[1000];

	reduce_fill(data, 1000, 42);
	for (int i = 0; i < 1000; i++)
		ck_assert(data[i] >= 0 && data[i] <= 255);
	{
		int64_t sum = 0;
		for (int i = 0; i < 1000; i++)
			sum += data[i];
		ck_assert_int_eq(reduce_reference(data, 1000), sum);
	}
	/* the same seed gives the same data */
	{
		int again[1000];
		reduce_fill(again, 1000, 42);
		ck_assert_mem_eq(data, again, sizeof data);
	}
}
END_TEST

START_TEST(reduce_partials_that_add_up_pass)
{
	int partials[] = { 100, 200, 300 };
	struct check_result r;

	reduce_check_partials(partials, 3, 600, &r);
	ck_assert(r.correct);
	reduce_check_partials(partials, 3, 601, &r);
	ck_assert(!r.correct);
	ck_assert_ptr_nonnull(strstr(r.detail, "601"));
}
END_TEST

START_TEST(reduce_poisoned_partial_fails)
{
	/* A block that never wrote its partial leaves the 0xab poison. */
	int partials[] = { 100, (int)0xabababab, 300 };
	struct check_result r;

	reduce_check_partials(partials, 3, 100 + 250 + 300, &r);
	ck_assert(!r.correct);
}
END_TEST

START_TEST(reduce_sums_wrap_like_the_gpu)
{
	/* Partials summed modulo 2^32 agree with a 64-bit reference mod 2^32. */
	int partials[] = { 0x7fffffff, 0x7fffffff, 4 };
	struct check_result r;

	reduce_check_partials(partials, 3, 2LL * 0x7fffffff + 4, &r);
	ck_assert(r.correct);
	reduce_check_total(2LL * 0x7fffffff + 4, 2LL * 0x7fffffff + 4, &r);
	ck_assert(r.correct);
	reduce_check_total(3, 4, &r);
	ck_assert(!r.correct);
}
END_TEST

START_TEST(vec_add_check_is_bitwise)
{
	float x[64], y[64], z[64], ref[64];
	struct check_result r;

	vec_add_fill(x, y, 64, 7);
	vec_add_reference(x, y, ref, 64);
	memcpy(z, ref, sizeof z);
	vec_add_check(z, ref, 64, &r);
	ck_assert(r.correct);

	z[17] = nextafterf(z[17], 2.0f);	/* one ulp off */
	vec_add_check(z, ref, 64, &r);
	ck_assert(!r.correct);
	ck_assert_ptr_nonnull(strstr(r.detail, "17"));

	memcpy(z, ref, sizeof z);
	memset(&z[63], 0xff, sizeof z[63]);	/* the NaN poison, unwritten */
	vec_add_check(z, ref, 64, &r);
	ck_assert(!r.correct);
}
END_TEST

START_TEST(vec_add_inputs_are_in_range)
{
	float x[4096], y[4096];

	vec_add_fill(x, y, 4096, 1);
	for (int i = 0; i < 4096; i++) {
		ck_assert(x[i] >= -1.0f && x[i] < 1.0f);
		ck_assert(y[i] >= -1.0f && y[i] < 1.0f);
	}
	ck_assert(x[0] != x[1]);
}
END_TEST

/* ---- matmul ---------------------------------------------------------------- */

static void small_matrices(int n, float **a, float **b, float **ref, float **scale)
{
	*a = malloc((size_t)n * n * sizeof(float));
	*b = malloc((size_t)n * n * sizeof(float));
	*ref = malloc((size_t)n * n * sizeof(float));
	*scale = malloc((size_t)n * n * sizeof(float));
	matmul_fill(*a, (unsigned long long)n * n, 3);
	matmul_fill(*b, (unsigned long long)n * n, 4);
	matmul_reference(*a, *b, n, *ref, *scale);
}

START_TEST(matmul_reference_is_the_product)
{
	int n = 37;	/* not a multiple of the tile, more rows than most CPUs have cores */
	float *a, *b, *ref, *scale;

	small_matrices(n, &a, &b, &ref, &scale);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			double sum = 0, mag = 0;
			for (int k = 0; k < n; k++) {
				sum += (double)a[i * n + k] * b[k * n + j];
				mag += fabs((double)a[i * n + k] * b[k * n + j]);
			}
			ck_assert_float_eq(ref[i * n + j], (float)sum);
			ck_assert_double_eq_tol(scale[i * n + j], mag, mag * 1e-6);
		}
	for (int i = 0; i < n * n; i++)
		ck_assert(a[i] >= -1.0f && a[i] < 1.0f);
	free(a), free(b), free(ref), free(scale);
}
END_TEST

/* A float sum in any order passes; a missing term, a NaN or the poison fails. */
START_TEST(matmul_check_allows_fp32_rounding_only)
{
	int n = 256;
	float *a, *b, *ref, *scale, *c;
	struct check_result r;

	small_matrices(n, &a, &b, &ref, &scale);
	c = malloc((size_t)n * n * sizeof(float));
	for (int pass = 0; pass < 2; pass++) {
		/* as a GPU thread would: float fused multiply-adds, forwards or backwards */
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++) {
				float sum = 0;
				for (int t = 0; t < n; t++) {
					int k = pass ? n - 1 - t : t;
					sum = fmaf(a[i * n + k], b[k * n + j], sum);
				}
				c[i * n + j] = sum;
			}
		matmul_check(c, ref, scale, n, &r);
		ck_assert_msg(r.correct, "%s", r.detail);
	}
	{
		/* drop the largest term of one element */
		int i = 17, j = 200, worst = 0;
		for (int k = 1; k < n; k++)
			if (fabsf(a[i * n + k] * b[k * n + j]) > fabsf(a[i * n + worst] * b[worst * n + j]))
				worst = k;
		c[i * n + j] -= a[i * n + worst] * b[worst * n + j];
		matmul_check(c, ref, scale, n, &r);
		ck_assert(!r.correct);
		ck_assert_ptr_nonnull(strstr(r.detail, "row 17, column 200"));
		c[i * n + j] += a[i * n + worst] * b[worst * n + j];
	}
	memset(&c[n * n - 1], 0xff, sizeof(float));	/* the NaN poison, unwritten */
	matmul_check(c, ref, scale, n, &r);
	ck_assert(!r.correct);
	ck_assert_ptr_nonnull(strstr(r.detail, "1 of 65536"));
	free(a), free(b), free(ref), free(scale), free(c);
}
END_TEST

START_TEST(matmul_tolerance_grows_slowly)
{
	/* one product: within a few roundings of itself */
	ck_assert(matmul_tolerance(1.0f, 1) < 1e-6);
	ck_assert(matmul_tolerance(512.0f, 2048) < 1e-2);
	ck_assert(matmul_tolerance(512.0f, 2048) > matmul_tolerance(512.0f, 1024));
}
END_TEST

START_TEST(matmul_grid_covers_the_matrix)
{
	/* 32 x 32 tiles at 1024 threads; 4 outputs per thread make tiles 128 tall */
	ck_assert_uint_eq(matmul_grid(2048, 1024, 1), 64 * 64);
	ck_assert_uint_eq(matmul_grid(2048, 1024, 4), 64 * 16);
	ck_assert_uint_eq(matmul_grid(2048, 256, 1), 64 * 256);
	/* 33 columns need 2 tiles; 3 rows of threads need 11 tiles for 33 rows */
	ck_assert_uint_eq(matmul_grid(33, 96, 1), 2 * 11);
	ck_assert_uint_eq(matmul_grid(1, 32, 1), 1);
}
END_TEST

/* ---- the shared-memory sweep ------------------------------------------------- */

START_TEST(smem_sweep_reference_counts_valid_threads)
{
	int words[SMEM_SWEEP_WORDS], expected[3];
	int lane_sum[32], full = 0;
	struct check_result r;

	smem_sweep_fill(words, 9);
	for (int l = 0; l < 32; l++) {
		lane_sum[l] = 0;
		for (int k = 0; k < SMEM_SWEEP_READS; k++)
			lane_sum[l] += words[32 * l + k % 32];
		full += lane_sum[l];
	}
	/* 70 threads: two full warps, then 6 lanes of the third */
	smem_sweep_reference(words, 32, false, 70, 3, expected);
	ck_assert_int_eq(expected[0], full);
	ck_assert_int_eq(expected[1], full);
	ck_assert_int_eq(expected[2], lane_sum[0] + lane_sum[1] + lane_sum[2] + lane_sum[3] +
	    lane_sum[4] + lane_sum[5]);
	{
		int sums[3] = { expected[0], expected[1], expected[2] };
		smem_sweep_check(sums, expected, 3, &r);
		ck_assert(r.correct);
		sums[2] = (int)0xabababab;	/* the poison of an unwritten sum */
		smem_sweep_check(sums, expected, 3, &r);
		ck_assert(!r.correct);
		ck_assert_ptr_nonnull(strstr(r.detail, "warp 2"));
	}
	/* the broadcast: every lane reads the same 32 words */
	smem_sweep_reference(words, 0, false, 32, 1, expected);
	{
		int one = 0;
		for (int k = 0; k < SMEM_SWEEP_READS; k++)
			one += words[k % 32];
		ck_assert_int_eq(expected[0], 32 * one);
	}
	/* padded stride 32 reads the last word of the 32 x 33 array */
	ck_assert_uint_eq(smem_sweep_first_word(31, 32, true) + 31, SMEM_SWEEP_WORDS - 2);
}
END_TEST

/* The C side of the sweep agrees with kernels/banks.cu on its sizes. */
START_TEST(smem_sweep_matches_its_kernels)
{
	char *path = paths_source("kernels/banks.cu"), *text = file_read(path, NULL);
	char want[64];

	ck_assert_msg(text != NULL, "cannot read %s", path);
	snprintf(want, sizeof want, "#define SWEEP_READS %d\n", SMEM_SWEEP_READS);
	ck_assert_ptr_nonnull(strstr(text, want));
	ck_assert_ptr_nonnull(strstr(text, "#define SWEEP_WORDS (32 * 33)\n"));
	for (int i = 0; i < registry_kernel_count; i++) {
		unsigned int stride;
		bool padded;
		if (registry_kernels[i].experiment == &experiment_smem_sweep)
			ck_assert_msg(smem_sweep_case(registry_kernels[i].name, &stride, &padded) == 0,
			    "%s has no stride", registry_kernels[i].name);
	}
	ck_assert_int_eq(smem_sweep_case("reduce_unroll8", &(unsigned int){ 0 }, &(bool){ false }), -1);
	free(text);
	free(path);
}
END_TEST

/* ---- stream ------------------------------------------------------------------ */

START_TEST(stream_check_is_exact)
{
	float x[100], y[100];
	struct check_result r;

	stream_fill(x, 100, 5);
	for (int i = 0; i < 100; i++)
		y[i] = 2.0f * x[i];
	stream_check(x, y, 100, &r);
	ck_assert(r.correct);
	y[99] = nextafterf(y[99], 3.0f);
	stream_check(x, y, 100, &r);
	ck_assert(!r.correct);
	ck_assert_ptr_nonnull(strstr(r.detail, "index 99"));
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("experiments");
	TCase *tc = tcase_create("references");

	tcase_add_test(tc, reduce_reference_is_exact);
	tcase_add_test(tc, reduce_partials_that_add_up_pass);
	tcase_add_test(tc, reduce_poisoned_partial_fails);
	tcase_add_test(tc, reduce_sums_wrap_like_the_gpu);
	tcase_add_test(tc, vec_add_check_is_bitwise);
	tcase_add_test(tc, vec_add_inputs_are_in_range);
	tcase_add_test(tc, matmul_reference_is_the_product);
	tcase_add_test(tc, matmul_check_allows_fp32_rounding_only);
	tcase_add_test(tc, matmul_tolerance_grows_slowly);
	tcase_add_test(tc, matmul_grid_covers_the_matrix);
	tcase_add_test(tc, smem_sweep_reference_counts_valid_threads);
	tcase_add_test(tc, smem_sweep_matches_its_kernels);
	tcase_add_test(tc, stream_check_is_exact);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

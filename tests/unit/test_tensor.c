/* The tensor-core lesson's host side: BF16 inputs, padding, the bound of the check, the launch table. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "compare.h"
#include "experiments/experiments.h"
#include "inspect.h"
#include "lesson.h"
#include "registry.h"
#include "results.h"
#include "session.h"

/* To nearest, ties to even; exact values stay; NaN stays NaN. */
START_TEST(bf16_rounding)
{
	ck_assert_uint_eq(bf16_from_float(1.0f), 0x3f80);
	ck_assert_uint_eq(bf16_from_float(-2.0f), 0xc000);
	ck_assert(bf16_to_float(bf16_from_float(0.5f)) == 0.5f);
	/* 1 + 2^-8 is halfway between 1 and 1 + 2^-7: to the even one, 1 */
	ck_assert_uint_eq(bf16_from_float(1.0f + 0x1p-8f), 0x3f80);
	/* 1 + 3 * 2^-8 is halfway between 1 + 2^-7 and 1 + 2^-6: to the even one */
	ck_assert_uint_eq(bf16_from_float(1.0f + 3 * 0x1p-8f), 0x3f82);
	ck_assert_uint_eq(bf16_from_float(1.0f + 0x1p-8f + 0x1p-20f), 0x3f81);
	ck_assert(isnan(bf16_to_float(bf16_from_float(NAN))));
	for (int i = -300; i <= 300; i++) {
		float v = (float)i / 256.0f, r = bf16_to_float(bf16_from_float(v));

		ck_assert(fabsf(r - v) <= fabsf(v) * 0x1p-8f);
	}
}
END_TEST

/* Sides round up to multiples of 256; the padding is zeros and the corner in [-1, 1]. */
START_TEST(padding_and_fill)
{
	int n = 300, np = (int)tensor_padded(300);
	uint16_t *m = malloc((size_t)np * np * sizeof *m);
	int nonzero = 0;

	ck_assert_int_eq(np, 512);
	ck_assert_uint_eq(tensor_padded(256), 256);
	ck_assert_uint_eq(tensor_padded(1), 256);
	ck_assert_uint_eq(tensor_padded(4096), 4096);
	ck_assert_uint_eq(tensor_padded(1000), 1024);
	tensor_fill(m, n, np, 7);
	for (int i = 0; i < np; i++)
		for (int k = 0; k < np; k++) {
			float v = bf16_to_float(m[(size_t)i * np + k]);

			if (i >= n || k >= n)
				ck_assert_msg(m[(size_t)i * np + k] == 0, "padding at %d, %d is %g", i, k, v);
			else
				ck_assert(v >= -1.0f && v <= 1.0f);
			nonzero += v != 0;
		}
	ck_assert_int_gt(nonzero, n * n * 9 / 10);
	free(m);
}
END_TEST

/*
 * The check reads C with its padded stride, allows the bound and not
 * much more, and fails the poison (NaN) and a missing term.
 */
START_TEST(check_of_a_padded_c)
{
	enum { N = 3, LD = 5 };
	float c[N * LD], ref[N * N], scale[N * N];
	struct check_result r;

	for (int i = 0; i < N * LD; i++)
		c[i] = NAN;	/* the padding is never read */
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			ref[i * N + j] = (float)(i - j);
			scale[i * N + j] = 100.0f;
			c[i * LD + j] = (float)(i - j);
		}
	tensor_check(c, LD, ref, scale, N, false, &r);
	ck_assert_msg(r.correct, "%s", r.detail);
	/* within the bound: 4 K 2^-24 of the scale */
	c[1 * LD + 2] += (float)(0.9 * tensor_tolerance(100.0f, N));
	tensor_check(c, LD, ref, scale, N, false, &r);
	ck_assert_msg(r.correct, "%s", r.detail);
	c[1 * LD + 2] = ref[1 * N + 2] + 0.5f;	/* a term of real size, lost */
	tensor_check(c, LD, ref, scale, N, false, &r);
	ck_assert(!r.correct);
	ck_assert_msg(strstr(r.detail, "row 1, column 2") != NULL, "%s", r.detail);
	c[1 * LD + 2] = ref[1 * N + 2];
	c[2 * LD + 0] = NAN;
	tensor_check(c, LD, ref, scale, N, true, &r);
	ck_assert(!r.correct);
	ck_assert_msg(strstr(r.detail, "cuBLAS") != NULL, "%s", r.detail);
	ck_assert(tensor_tolerance(1.0f, 4096) == 4.0 * 4096 * ldexp(1.0, -24) + 1e-30);
}
END_TEST

/*
 * The sampled check (cuBLAS's own step, checked against the CPU at two
 * elements of each row): a right C passes, an error just inside the
 * bound passes, a term lost at one sample fails and is named by row and
 * column, the poison fails.
 */
START_TEST(sampled_check_of_a_padded_c)
{
	enum { N = 37, LD = 40 };
	float c[N * LD], ref[N * MATMUL_SAMPLES], scale[N * MATMUL_SAMPLES];
	unsigned int col = matmul_sample_column(5, N, 1);
	struct check_result r;
	char where[64];

	for (int i = 0; i < N; i++)
		for (int j = 0; j < LD; j++)
			c[i * LD + j] = j < N ? (float)(i - j) : NAN;	/* the padding is never read */
	for (int i = 0; i < N; i++)
		for (int w = 0; w < MATMUL_SAMPLES; w++) {
			ref[i * MATMUL_SAMPLES + w] = (float)(i - (int)matmul_sample_column(i, N, w));
			scale[i * MATMUL_SAMPLES + w] = 100.0f;
		}
	tensor_check_samples(c, LD, ref, scale, N, &r);
	ck_assert_msg(r.correct, "%s", r.detail);
	ck_assert_msg(strstr(r.detail, "74 elements, two of every row") != NULL, "%s", r.detail);
	c[5 * LD + col] += (float)(0.9 * tensor_tolerance(100.0f, N));
	tensor_check_samples(c, LD, ref, scale, N, &r);
	ck_assert_msg(r.correct, "%s", r.detail);
	c[5 * LD + col] += 0.5f;
	tensor_check_samples(c, LD, ref, scale, N, &r);
	ck_assert(!r.correct);
	snprintf(where, sizeof where, "row 5, column %u", col);
	ck_assert_msg(strstr(r.detail, where) != NULL && strstr(r.detail, "1 of 74") != NULL, "%s", r.detail);
	c[5 * LD + col] = (float)(5 - (int)col);
	c[36 * LD + matmul_sample_column(36, N, 0)] = NAN;
	tensor_check_samples(c, LD, ref, scale, N, &r);
	ck_assert(!r.correct);
}
END_TEST

/*
 * Every tensor-core kernel has its launch row; its tiles divide the
 * padding's multiple, its block is whole warps, its shared memory fits a
 * Hopper multiprocessor's block (227 KB).
 */
START_TEST(launch_table)
{
	int rows = 0;

	for (int i = 0; i < registry_kernel_count; i++) {
		const struct kernel_def *k = &registry_kernels[i];
		const struct tensor_launch *t;

		if (k->shape != SHAPE_TABLE)
			continue;
		rows++;
		ck_assert_ptr_eq(k->experiment, &experiment_tensor);
		t = tensor_launch_find(k->name);
		ck_assert_msg(t != NULL, "%s has no launch row", k->name);
		ck_assert_msg(TENSOR_PAD % t->tile_m == 0 && TENSOR_PAD % t->tile_n == 0,
		    "%s: tiles of %u x %u do not divide %d", k->name, t->tile_m, t->tile_n, TENSOR_PAD);
		ck_assert(t->threads % 32 == 0 && t->threads >= 32 && t->threads <= 1024);
		ck_assert(t->shared_bytes <= 227 * 1024);
	}
	ck_assert_int_eq(rows, 21);
	ck_assert_uint_eq(tensor_launch_find("tc_mma_cp_async")->shared_bytes, 49152);
	/* the TMA control: step 7's stages, and room to align them for the swizzle */
	ck_assert_uint_eq(tensor_launch_find("tc_mma_tma")->shared_bytes, 49152 + 1024);
	/* its control: one stage of the same tiles, the same boxes */
	ck_assert_uint_eq(tensor_launch_find("tc_mma_tma_one_stage")->shared_bytes, 49152 / 3 + 1024);
	ck_assert_uint_eq(tensor_launch_find("tc_mma_tma_one_stage")->box_k, 32);
	ck_assert_uint_eq(tensor_launch_find("tc_mma_tma")->box_k, 32);
	ck_assert_uint_eq(tensor_launch_find("tc_mma_cp_async")->box_k, 0);
	/* wgmma on the TMA control's tiles: the same stages, the same boxes */
	ck_assert_uint_eq(tensor_launch_find("tc_wgmma_narrow")->shared_bytes, 49152 + 1024);
	ck_assert_uint_eq(tensor_launch_find("tc_wgmma_narrow")->box_k, 32);
	/* step 12's controls: one warpgroup on the same stages; then those stages twice as wide */
	ck_assert_uint_eq(tensor_launch_find("tc_wgmma_one_warpgroup")->shared_bytes, 49152 + 1024);
	ck_assert_uint_eq(tensor_launch_find("tc_wgmma_one_warpgroup")->threads, 128);
	ck_assert_uint_eq(tensor_launch_find("tc_wgmma_one_warpgroup")->box_k, 32);
	ck_assert_uint_eq(tensor_launch_find("tc_wgmma_wide_tiles")->shared_bytes, 2 * 49152 + 1024);
	ck_assert_uint_eq(tensor_launch_find("tc_wgmma_wide_tiles")->box_k, 64);
	ck_assert_uint_eq(tensor_launch_find("tc_wgmma_tma")->shared_bytes, 132096);
	ck_assert_uint_eq(tensor_launch_find("tc_wgmma_warp_specialized")->shared_bytes, 197632);
	/* the rungs after it change no stage: the same shared memory; only the last two loop over tiles */
	ck_assert_uint_eq(tensor_launch_find("tc_wgmma_cluster")->shared_bytes, 197632);
	ck_assert(!tensor_launch_find("tc_wgmma_grouped")->persistent);
	ck_assert(tensor_launch_find("tc_wgmma_persistent")->persistent);
	ck_assert(!tensor_launch_find("tc_wgmma_persistent")->cluster_pairs);
	ck_assert(tensor_launch_find("tc_wgmma_cluster")->persistent && tensor_launch_find("tc_wgmma_cluster")->cluster_pairs);
	ck_assert(!tensor_launch_find("tc_wgmma_cluster")->c_by_tma);
	/* the epilogue's rung adds two 8 KB chunk buffers a consumer to the cluster's shared memory, and a map of C */
	ck_assert_uint_eq(tensor_launch_find("tc_wgmma_tma_store")->shared_bytes, 197632 + 4 * 8192);
	ck_assert(tensor_launch_find("tc_wgmma_tma_store")->cluster_pairs && tensor_launch_find("tc_wgmma_tma_store")->c_by_tma);
	/* the last wave's rung changes nothing in the launch: step 20's */
	const struct tensor_launch *last = tensor_launch_find("tc_wgmma_last_wave"), *store = tensor_launch_find("tc_wgmma_tma_store");
	ck_assert(last->tile_m == store->tile_m && last->tile_n == store->tile_n && last->threads == store->threads);
	ck_assert(last->shared_bytes == store->shared_bytes && last->box_k == store->box_k);
	ck_assert(last->persistent && last->cluster_pairs && last->c_by_tma);
	ck_assert_ptr_null(tensor_launch_find("matmul_naive"));
}
END_TEST

/* Any --block is taken; the sm_90a steps run on 9.0 alone, the others from 8.0. */
START_TEST(where_the_steps_run)
{
	const struct kernel_def *tma = registry_find("tc_wgmma_tma");
	const struct kernel_def *wmma = registry_find("tc_wmma_global");
	const struct kernel_def *blas = registry_find("cublas_gemm_bf16");
	char why[256];

	ck_assert_ptr_null(registry_check_step(wmma, 4096, 1024, why, sizeof why));
	ck_assert_ptr_null(registry_check_step(tma, 1000, 96, why, sizeof why));
	ck_assert_ptr_nonnull(registry_check_step(tma, 16384, 256, why, sizeof why));
	ck_assert_ptr_null(registry_check_gpu(tma, 9, 0, why, sizeof why));
	ck_assert_ptr_nonnull(registry_check_gpu(tma, 10, 0, why, sizeof why));
	ck_assert_msg(strstr(why, "compute capability 9.0") != NULL && strchr(why, '\n') == NULL, "%s", why);
	ck_assert_ptr_nonnull(registry_check_gpu(tma, 8, 9, why, sizeof why));
	ck_assert_ptr_null(registry_check_gpu(wmma, 8, 0, why, sizeof why));
	ck_assert_ptr_null(registry_check_gpu(wmma, 12, 0, why, sizeof why));
	ck_assert_ptr_nonnull(registry_check_gpu(wmma, 7, 5, why, sizeof why));
	ck_assert_ptr_null(registry_check_gpu(blas, 7, 5, why, sizeof why));
}
END_TEST

/* The lesson reads in both languages, runs at 4096 and is recorded at 8192 as well. */
START_TEST(the_lesson)
{
	static const char *const langs[] = { "en", "zh_CN" };
	/* the rungs, each control step just before the rung whose changes it splits */
	static const char *const kernels[] = { "tc_wmma_global", "tc_wmma_global_wide", "tc_wmma_shared",
	    "tc_mma_ldmatrix_padded", "tc_mma_ldmatrix", "tc_mma_cp_async_one_stage", "tc_mma_cp_async",
	    "tc_mma_tma_one_stage", "tc_mma_tma", "tc_wgmma_narrow", "tc_wgmma_one_warpgroup", "tc_wgmma_wide_tiles",
	    "tc_wgmma_tma", "tc_wgmma_pipelined", "tc_wgmma_unspecialized", "tc_wgmma_warp_specialized",
	    "tc_wgmma_grouped", "tc_wgmma_persistent", "tc_wgmma_cluster", "tc_wgmma_tma_store", "tc_wgmma_last_wave",
	    "cublas_gemm_bf16" };
	static const bool control[] = { false, true, false, true, false, true, false, true, true, true, true, true,
	    false, false, true, false, false, false, false, false, false, false };

	for (size_t g = 0; g < ARRAY_LEN(langs); g++) {
		struct lesson_set set;
		struct error e;
		const struct lesson *l;
		unsigned long long sizes[2];

		ck_assert_msg(lesson_load_all(langs[g], &set, &e) == 0, "%s", e.msg);
		l = lesson_find(&set, "tensor-cores");
		ck_assert_ptr_nonnull(l);
		ck_assert_msg(l->error == NULL, "%s", l->error);
		ck_assert_str_eq(l->lang, langs[g]);
		ck_assert_int_eq(l->nsteps, (int)ARRAY_LEN(kernels));
		for (int i = 0; i < l->nsteps; i++) {
			ck_assert_str_eq(l->steps[i].kernel->name, kernels[i]);
			ck_assert_msg(l->steps[i].control == control[i], "%s: control is %d", kernels[i],
			    l->steps[i].control);
		}
		ck_assert_uint_eq(session_default_size(l), 4096);
		ck_assert_int_eq(session_record_sizes(l, sizes), 2);
		ck_assert_uint_eq(sizes[0], 4096);
		ck_assert_uint_eq(sizes[1], 8192);
		/* each kernel launches with its table's block: the views say so, not the lesson's block */
		ck_assert(session_block_per_kernel(l));
		ck_assert(!session_block_per_kernel(lesson_find(&set, "register-tiling")));
		lesson_set_free(&set);
	}
}
END_TEST

/* A report of the lesson's steps launches no kernel with its block; one with any other kernel does. */
START_TEST(report_block_per_kernel)
{
	static const char *const kernels[] = { "tc_wmma_global", "tc_mma_cp_async",
	    "tc_wgmma_warp_specialized", "cublas_gemm_bf16" };
	struct step_result steps[ARRAY_LEN(kernels)];
	struct run_report r;

	memset(&r, 0, sizeof r);
	memset(steps, 0, sizeof steps);
	r.steps = steps;
	r.nsteps = (int)ARRAY_LEN(kernels);
	r.block = 1024;
	for (size_t i = 0; i < ARRAY_LEN(kernels); i++) {
		snprintf(steps[i].kernel, sizeof steps[i].kernel, "%s", kernels[i]);
		steps[i].library = registry_is_library(registry_find(kernels[i]));
	}
	ck_assert(results_block_per_kernel(&r));
	snprintf(steps[1].kernel, sizeof steps[1].kernel, "%s", "matmul_tiled_4x");
	ck_assert(!results_block_per_kernel(&r));
	/* the library alone: no kernel of ours, no block of its own */
	r.steps = &steps[3];
	r.nsteps = 1;
	ck_assert(!results_block_per_kernel(&r));
}
END_TEST

/* The build: the Hopper kernels carry sm_90a alone, the others nothing older than sm_80. */
START_TEST(built_for_their_architectures)
{
#ifdef HAVE_CUOBJDUMP
	struct error e;
	char *hopper = inspect_sass_archs("tensor_hopper", &e), *older;

	ck_assert_msg(hopper != NULL, "%s", e.msg);
	ck_assert_str_eq(hopper, "sm_90a");
	older = inspect_sass_archs("tensor", &e);
	ck_assert_msg(older != NULL, "%s", e.msg);
	for (char *a = strtok(older, " "); a != NULL; a = strtok(NULL, " "))
		ck_assert_msg(atoi(a + 3) >= 80, "kernels/tensor.fatbin has SASS for %s", a);
	free(hopper);
	free(older);
#endif
}
END_TEST

/* The mma.sync step against the wgmma step (d in the tutor): sm_90 on one side, sm_90a on the other. */
START_TEST(diff_across_sm_90a)
{
#ifdef HAVE_CUOBJDUMP
	static const char *const archs[] = { "sm_90", "sm_90a" };

	for (size_t i = 0; i < ARRAY_LEN(archs); i++) {
		struct compare c;
		struct error e;

		ck_assert_msg(compare_resolve(&c, "tc_mma_ldmatrix", "tc_wgmma_tma", 256, &e) == 0, "%s", e.msg);
		ck_assert_msg(compare_load(&c, archs[i], &e) == 0, "%s: %s", archs[i], e.msg);
		ck_assert(c.la.count > 0 && c.lb.count > 0);
		compare_free(&c);
	}
#endif
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("tensor");
	TCase *tc = tcase_create("tensor");

	tcase_add_test(tc, bf16_rounding);
	tcase_add_test(tc, padding_and_fill);
	tcase_add_test(tc, check_of_a_padded_c);
	tcase_add_test(tc, sampled_check_of_a_padded_c);
	tcase_add_test(tc, launch_table);
	tcase_add_test(tc, where_the_steps_run);
	tcase_add_test(tc, the_lesson);
	tcase_add_test(tc, report_block_per_kernel);
	tcase_add_test(tc, built_for_their_architectures);
	tcase_add_test(tc, diff_across_sm_90a);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

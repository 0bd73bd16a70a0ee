/* The register-tiling kernels as the build made them: what the lesson says of their SASS and resources. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "inspect.h"
#include "registry.h"
#include "sass.h"

/* The lesson's steps, the shared-memory lesson's last kernel first. */
static const char *const steps[] = {
	"matmul_tiled_4x", "matmul_1d_blocktile", "matmul_2d_blocktile", "matmul_2d_vectorized",
	"matmul_warptile", "matmul_warptile_double_buffer",
};

struct counts {
	int ffma, lds, lds128, ldg128, sts128, bar, stl, ldl;
};

/* Counts in a kernel's sm_90 SASS; 0 when the build has no SASS listings (no cuobjdump). */
static int sass_counts(const char *kernel, struct counts *c)
{
	struct inspect_target t;
	struct sass_listing l;
	struct error e;
	char *text;

	memset(c, 0, sizeof *c);
#ifndef HAVE_CUOBJDUMP
	(void)kernel;
	(void)t;
	(void)l;
	(void)e;
	(void)text;
	return 0;
#else
	ck_assert_msg(inspect_resolve(kernel, 256, &t, &e) == 0, "%s", e.msg);
	text = inspect_sass(&t, "sm_90", &e);
	ck_assert_msg(text != NULL, "%s", e.msg);
	sass_parse(text, &l);
	c->ffma = sass_count(&l, "FFMA");
	c->lds = sass_count(&l, "LDS");
	c->lds128 = sass_count(&l, "LDS.128");
	c->ldg128 = sass_count(&l, "LDG.E.128");
	c->sts128 = sass_count(&l, "STS.128");
	c->bar = sass_count(&l, "BAR.SYNC");
	c->stl = sass_count(&l, "STL");
	c->ldl = sass_count(&l, "LDL");
	sass_listing_free(&l);
	free(text);
	return 1;
#endif
}

/* Each step's multiply-adds per shared load go up, and the 2-D tiles reach 8 or more. */
START_TEST(ffma_per_shared_load_climbs)
{
	struct counts four, one_d, two_d;

	if (!sass_counts("matmul_tiled_4x", &four))
		return;
	sass_counts("matmul_1d_blocktile", &one_d);
	sass_counts("matmul_2d_blocktile", &two_d);
	ck_assert_int_gt(four.lds, 0);
	ck_assert_int_gt(one_d.lds, 0);
	ck_assert_int_gt(two_d.lds, 0);
	/* ratios compared without division: a/b > c/d as a*d > c*b */
	ck_assert_msg(one_d.ffma * four.lds > four.ffma * one_d.lds,
	    "1-D tiles: %d FFMA for %d LDS, no better than %d for %d", one_d.ffma, one_d.lds,
	    four.ffma, four.lds);
	ck_assert_msg(two_d.ffma >= 8 * two_d.lds, "2-D tiles: %d FFMA for %d LDS, fewer than 8 per load",
	    two_d.ffma, two_d.lds);
}
END_TEST

/*
 * The vectorized step: 16-byte global loads, every shared load 16 bytes
 * wide, B's piece stored whole; as many LDS.128 and FFMA as step 3.
 */
START_TEST(vectorized_step_has_wide_loads)
{
	struct counts two_d, vec;

	if (!sass_counts("matmul_2d_vectorized", &vec))
		return;
	sass_counts("matmul_2d_blocktile", &two_d);
	ck_assert_int_gt(vec.ldg128, 0);
	ck_assert_int_gt(vec.lds128, 0);
	ck_assert_int_eq(vec.lds128, vec.lds);
	ck_assert_int_gt(vec.sts128, 0);
	ck_assert_int_eq(two_d.ldg128, 0);	/* step 3 still copies one float at a time */
	ck_assert_int_eq(vec.lds128, two_d.lds128);
	ck_assert_int_eq(vec.ffma, two_d.ffma);
}
END_TEST

/* Warp tiles change addresses, not instructions; double buffering leaves one barrier in the loop. */
START_TEST(warp_tiles_and_double_buffer)
{
	struct counts vec, warp, dbuf;

	if (!sass_counts("matmul_warptile", &warp))
		return;
	sass_counts("matmul_2d_vectorized", &vec);
	sass_counts("matmul_warptile_double_buffer", &dbuf);
	ck_assert_int_eq(warp.lds128, vec.lds128);
	ck_assert_int_eq(warp.lds, vec.lds);
	ck_assert_int_eq(warp.ffma, vec.ffma);
	ck_assert_int_eq(warp.bar, 2);
	ck_assert_int_eq(dbuf.bar, 2);		/* one before the loop, one in it */
	ck_assert_int_eq(dbuf.lds128, warp.lds128);
	ck_assert_int_eq(dbuf.ffma, warp.ffma);
}
END_TEST

/*
 * For every architecture built: no spills, no local memory, at most 128
 * registers (two blocks of 256 threads per multiprocessor).
 */
START_TEST(no_kernel_spills)
{
	char archs[] = CUDATUTOR_CUDA_ARCHS;
	int checked = 0;

	for (char *save = NULL, *a = strtok_r(archs, " ", &save); a != NULL; a = strtok_r(NULL, " ", &save)) {
		char arch[16];

		snprintf(arch, sizeof arch, "sm_%s", a);
		for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
			struct inspect_target t;
			struct kernel_resources r;
			struct error e;

			ck_assert_msg(inspect_resolve(steps[i], 256, &t, &e) == 0, "%s", e.msg);
			ck_assert_msg(inspect_resources(&t, arch, &r, &e) == 0, "%s", e.msg);
			ck_assert_msg(r.spill_store_bytes == 0 && r.spill_load_bytes == 0,
			    "%s spills on %s: %d bytes stored, %d loaded", steps[i], arch,
			    r.spill_store_bytes, r.spill_load_bytes);
			ck_assert_msg(r.stack_bytes == 0, "%s has a %d-byte stack frame on %s", steps[i],
			    r.stack_bytes, arch);
			ck_assert_msg(r.registers > 0 && r.registers <= 128, "%s: %d registers on %s",
			    steps[i], r.registers, arch);
			checked++;
		}
	}
	ck_assert_int_gt(checked, 0);
#ifdef HAVE_CUOBJDUMP
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		struct counts c;

		sass_counts(steps[i], &c);
		ck_assert_msg(c.stl == 0 && c.ldl == 0, "%s: local memory in its SASS", steps[i]);
	}
#endif
}
END_TEST

/* The source view finds every kernel, with the helpers it calls. */
START_TEST(sources_with_their_helpers)
{
	static const struct {
		const char *kernel, *helper;
	} uses[] = {
		{ "matmul_1d_blocktile", "load_or_zero(" },
		{ "matmul_2d_blocktile", "outer_product(" },
		{ "matmul_2d_vectorized", "load4_or_zero(" },
		{ "matmul_warptile", "warp_tile_of_thread(" },
		{ "matmul_warptile_double_buffer", "tile_store(" },
	};

	for (size_t i = 0; i < sizeof uses / sizeof uses[0]; i++) {
		struct inspect_target t;
		struct error e;
		char *src, *signature = xasprintf(" %s(const float *a,", uses[i].kernel);

		ck_assert_msg(inspect_resolve(uses[i].kernel, 256, &t, &e) == 0, "%s", e.msg);
		src = inspect_source(&t, &e);
		ck_assert_msg(src != NULL, "%s", e.msg);
		ck_assert_msg(strstr(src, signature) != NULL, "%s: no definition", uses[i].kernel);
		ck_assert_msg(strstr(src, uses[i].helper) != NULL, "%s: no %s", uses[i].kernel,
		    uses[i].helper);
		free(signature);
		free(src);
	}
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("regtile");
	TCase *tc = tcase_create("regtile");

	tcase_add_test(tc, ffma_per_shared_load_climbs);
	tcase_add_test(tc, vectorized_step_has_wide_loads);
	tcase_add_test(tc, warp_tiles_and_double_buffer);
	tcase_add_test(tc, no_kernel_spills);
	tcase_add_test(tc, sources_with_their_helpers);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN_SASS(make_suite)

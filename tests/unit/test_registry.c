/* The kernel table: consistent with itself, with kernels/, and with the lessons. */
#include "config.h"

#include <string.h>

#include "check_main.h"
#include "experiments/experiments.h"
#include "lesson.h"
#include "paths.h"
#include "registry.h"
#include "session.h"

START_TEST(names_are_unique_and_rows_sound)
{
	for (int i = 0; i < registry_kernel_count; i++) {
		const struct kernel_def *k = &registry_kernels[i];

		ck_assert_ptr_nonnull(k->experiment);
		ck_assert_msg(k->min_block <= k->max_block && k->max_block <= 1024, "%s", k->name);
		ck_assert_msg(k->summary != NULL && k->summary[0] != '\0', "%s has no summary", k->name);
		/* the library rows are the yardsticks, whose code is not ours */
		ck_assert_msg(registry_is_library(k) ==
		    (strcmp(k->module, "yardstick_cub") == 0 || strcmp(k->module, "cublas") == 0),
		    "%s: a library row must be a yardstick, and a yardstick a library row", k->name);
		ck_assert_ptr_eq(registry_find(k->name), k);
		for (int j = i + 1; j < registry_kernel_count; j++)
			ck_assert_str_ne(k->name, registry_kernels[j].name);
	}
	ck_assert_ptr_null(registry_find("no_such_kernel"));
}
END_TEST

/* Every kernel of ours is really exported by its module, at every block size it takes. */
START_TEST(every_kernel_is_in_its_ptx)
{
	for (int i = 0; i < registry_kernel_count; i++) {
		const struct kernel_def *k = &registry_kernels[i];
		char *rel, *path, *ptx;

		if (registry_is_library(k))
			continue;
		rel = xasprintf("kernels/%s.ptx", k->module);
		path = paths_build(rel);
		ptx = file_read(path, NULL);
		ck_assert_msg(ptx != NULL, "cannot read %s", path);
		for (unsigned int b = k->min_block; b <= k->max_block; b *= 2) {
			char symbol[128], why[256], *entry;

			if (registry_check_step(k, 1, b, why, sizeof why) != NULL)
				continue;
			registry_symbol(k, b, symbol, sizeof symbol);
			entry = xasprintf(".entry %s(", symbol);
			ck_assert_msg(strstr(ptx, entry) != NULL, "%s is not in %s", symbol, path);
			free(entry);
		}
		free(ptx);
		free(path);
		free(rel);
	}
}
END_TEST

START_TEST(block_rules)
{
	const struct kernel_def *tmpl = registry_find("reduce_complete_unroll_template");
	const struct kernel_def *shfl = registry_find("reduce_warp_shuffle");
	char why[256], sym[128];

	ck_assert_ptr_null(registry_check_step(tmpl, 1, 256, why, sizeof why));
	ck_assert_ptr_nonnull(registry_check_step(tmpl, 1, 96, why, sizeof why));
	ck_assert_ptr_nonnull(strstr(why, "power of two"));
	ck_assert_ptr_nonnull(registry_check_step(tmpl, 1, 32, why, sizeof why));
	ck_assert_ptr_null(registry_check_step(shfl, 1, 96, why, sizeof why));
	ck_assert_ptr_nonnull(registry_check_step(shfl, 1, 100, why, sizeof why));
	ck_assert_str_eq(registry_symbol(tmpl, 512, sym, sizeof sym), "reduce_complete_unroll_template_512");
	ck_assert_str_eq(registry_symbol(shfl, 512, sym, sizeof sym), "reduce_warp_shuffle");
}
END_TEST

/*
 * A kernel written for one block size says so; a square-tile kernel's
 * threads and outputs make a square tile (its grid depends on it).
 */
START_TEST(fixed_blocks_and_square_tiles)
{
	const struct kernel_def *warp = registry_find("matmul_warptile");
	char why[256];
	int tiled = 0;

	ck_assert_ptr_null(registry_check_step(warp, 1, 256, why, sizeof why));
	ck_assert_ptr_nonnull(registry_check_step(warp, 1, 1024, why, sizeof why));
	ck_assert_msg(strstr(why, "exactly 256 threads, not 1024") != NULL, "%s", why);
	for (int i = 0; i < registry_kernel_count; i++) {
		const struct kernel_def *k = &registry_kernels[i];

		if (k->shape != SHAPE_TILES)
			continue;
		tiled++;
		ck_assert_msg(k->min_block == k->max_block, "%s takes more than one block size", k->name);
		ck_assert_msg(matmul_tile_side(k->min_block, k->per_thread) != 0,
		    "%s: %u threads of %u outputs make no square tile", k->name, k->min_block, k->per_thread);
	}
	ck_assert_int_ge(tiled, 4);
}
END_TEST

/* No kernel is left out of every lesson, and every English lesson loads. */
START_TEST(every_kernel_is_taught)
{
	struct lesson_set set;
	struct error e;

	ck_assert_msg(lesson_load_all("en", &set, &e) == 0, "%s", e.msg);
	for (int i = 0; i < set.count; i++)
		ck_assert_msg(set.lessons[i].error == NULL, "%s", set.lessons[i].error);
	for (int i = 0; i < registry_kernel_count; i++) {
		int used = 0;
		for (int l = 0; l < set.count; l++)
			for (int s = 0; s < set.lessons[l].nsteps; s++)
				used |= set.lessons[l].steps[s].kernel == &registry_kernels[i];
		ck_assert_msg(used, "no lesson step runs %s", registry_kernels[i].name);
	}
	lesson_set_free(&set);
}
END_TEST

/*
 * A lesson runs every step at one size and block, the first its steps'
 * experiments set: experiments that set one must agree, and every step
 * must take them.
 */
START_TEST(lessons_agree_on_defaults)
{
	struct lesson_set set;
	struct error e;

	ck_assert_msg(lesson_load_all("en", &set, &e) == 0, "%s", e.msg);
	for (int l = 0; l < set.count; l++) {
		const struct lesson *ls = &set.lessons[l];
		unsigned long long size = session_default_size(ls);
		unsigned int block = session_default_block(ls);

		for (int s = 0; s < ls->nsteps; s++) {
			const struct kernel_def *k = ls->steps[s].kernel;
			const struct experiment *x = k->experiment;
			char why[256];

			ck_assert_msg(x->default_size == 0 || x->default_size == size,
			    "lesson %s: step %d's experiment has another default size", ls->id, s + 1);
			ck_assert_msg(x->default_block == 0 || x->default_block == block,
			    "lesson %s: step %d's experiment has another default block", ls->id, s + 1);
			ck_assert_msg(x->default_size <= x->max_size, "%s: default above max", x->name);
			ck_assert_msg(size <= x->max_size, "lesson %s: step %d takes at most %llu", ls->id,
			    s + 1, x->max_size);
			ck_assert_msg(registry_is_library(k) || registry_check_step(k, 1, block, why, sizeof why) == NULL,
			    "lesson %s: %s", ls->id, why);
		}
	}
	lesson_set_free(&set);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("registry");
	TCase *tc = tcase_create("registry");

	tcase_add_test(tc, names_are_unique_and_rows_sound);
	tcase_add_test(tc, every_kernel_is_in_its_ptx);
	tcase_add_test(tc, block_rules);
	tcase_add_test(tc, fixed_blocks_and_square_tiles);
	tcase_add_test(tc, every_kernel_is_taught);
	tcase_add_test(tc, lessons_agree_on_defaults);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

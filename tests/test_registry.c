/* The kernel table: consistent with itself, with kernels/, and with the lessons. */
#include "config.h"

#include <string.h>

#include "check_main.h"
#include "lesson.h"
#include "paths.h"
#include "registry.h"

START_TEST(names_are_unique_and_rows_sound)
{
	for (int i = 0; i < registry_kernel_count; i++) {
		const struct kernel_def *k = &registry_kernels[i];

		ck_assert_ptr_nonnull(k->experiment);
		ck_assert_msg(k->min_block <= k->max_block && k->max_block <= 1024, "%s", k->name);
		ck_assert_msg(k->summary != NULL && k->summary[0] != '\0', "%s has no summary", k->name);
		ck_assert_msg(((k->flags & KF_LIBRARY) != 0) == (k->shape == SHAPE_LIBRARY),
		    "%s: library flag and shape disagree", k->name);
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

		if (k->flags & KF_LIBRARY)
			continue;
		rel = xasprintf("kernels/%s.ptx", k->module);
		path = paths_build(rel);
		ptx = file_read(path, NULL);
		ck_assert_msg(ptx != NULL, "cannot read %s", path);
		for (unsigned int b = k->min_block; b <= k->max_block; b *= 2) {
			char symbol[128], why[256], *entry;

			if (registry_check_block(k, b, why, sizeof why) != NULL)
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

	ck_assert_ptr_null(registry_check_block(tmpl, 256, why, sizeof why));
	ck_assert_ptr_nonnull(registry_check_block(tmpl, 96, why, sizeof why));
	ck_assert_ptr_nonnull(strstr(why, "power of two"));
	ck_assert_ptr_nonnull(registry_check_block(tmpl, 32, why, sizeof why));
	ck_assert_ptr_null(registry_check_block(shfl, 96, why, sizeof why));
	ck_assert_ptr_nonnull(registry_check_block(shfl, 100, why, sizeof why));
	ck_assert_str_eq(registry_symbol(tmpl, 512, sym, sizeof sym), "reduce_complete_unroll_template_512");
	ck_assert_str_eq(registry_symbol(shfl, 512, sym, sizeof sym), "reduce_warp_shuffle");
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

/* A lesson runs every step at one size and block: its steps must agree on the defaults. */
START_TEST(lessons_agree_on_defaults)
{
	struct lesson_set set;
	struct error e;

	ck_assert_msg(lesson_load_all("en", &set, &e) == 0, "%s", e.msg);
	for (int l = 0; l < set.count; l++) {
		const struct lesson *ls = &set.lessons[l];
		for (int s = 1; s < ls->nsteps; s++) {
			const struct experiment *a = ls->steps[0].kernel->experiment;
			const struct experiment *b = ls->steps[s].kernel->experiment;
			ck_assert_msg(a->default_size == b->default_size && a->default_block == b->default_block,
			    "lesson %s: steps 1 and %d differ in default size or block", ls->id, s + 1);
		}
		for (int s = 0; s < ls->nsteps; s++) {
			const struct kernel_def *k = ls->steps[s].kernel;
			const struct experiment *x = k->experiment;
			unsigned int block = x->default_block ? x->default_block : 1024;
			char why[256];
			ck_assert_msg(x->default_size <= x->max_size, "%s: default above max", x->name);
			ck_assert_msg((k->flags & KF_LIBRARY) || registry_check_block(k, block, why, sizeof why) == NULL,
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
	tcase_add_test(tc, every_kernel_is_taught);
	tcase_add_test(tc, lessons_agree_on_defaults);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

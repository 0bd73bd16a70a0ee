/* Paths: the catalogs of a program run from the build tree, before it is installed. */
#include "config.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "i18n.h"
#include "paths.h"
#include "util.h"

/* make copies po/'s catalogs into <build>/locale; without them, $(localedir). */
START_TEST(locale_dir_of_a_build_tree)
{
	char *built = paths_build("locale");

#if ENABLE_NLS
	ck_assert_msg(dir_exists(built), "make did not lay out the catalogs in %s", built);
#endif
	ck_assert_str_eq(paths_locale_dir(), dir_exists(built) ? built : LOCALEDIR);
	/* the same answer every time: bindtextdomain keeps the pointer */
	ck_assert_ptr_eq(paths_locale_dir(), paths_locale_dir());
	free(built);
}
END_TEST

/*
 * Bound there, the messages come out in Chinese under LANGUAGE=zh_CN
 * (test_paths_zh, which skips without NLS or a C.UTF-8 locale).
 */
START_TEST(chinese_catalog_is_found)
{
#if ENABLE_NLS
	const char *header;

	ck_assert_ptr_nonnull(setlocale(LC_ALL, "C.UTF-8"));
	setenv("LANGUAGE", "zh_CN", 1);
	ck_assert_ptr_nonnull(bindtextdomain(PACKAGE, paths_locale_dir()));
	ck_assert_ptr_nonnull(textdomain(PACKAGE));
	/* gettext("") is the catalog's header entry: which language it is */
	header = gettext("");
	ck_assert_msg(strstr(header, "Language: zh_CN") != NULL,
	    "no zh_CN catalog of %s under %s", PACKAGE, paths_locale_dir());
	ck_assert_str_ne(_("cancelled"), "cancelled");
#endif
}
END_TEST

/* A figure cached per GPU: each GPU's own line, another driver's is not this one's, a rewrite keeps the rest. */
START_TEST(a_figure_per_gpu)
{
	char dir[] = "/tmp/cudatutor-paths-XXXXXX";
	double v = 0;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	setenv("XDG_CACHE_HOME", dir, 1);
	ck_assert_int_eq(paths_gpu_figure_read("copy-bandwidth", "GPU-a", "580", &v), 0);
	paths_gpu_figure_write("copy-bandwidth", "GPU-a", "580", 2975.6);
	paths_gpu_figure_write("copy-bandwidth", "GPU-b", "580", 4187.5);
	ck_assert_int_eq(paths_gpu_figure_read("copy-bandwidth", "GPU-a", "580", &v), 1);
	ck_assert_double_eq_tol(v, 2975.6, 1e-9);
	ck_assert_int_eq(paths_gpu_figure_read("copy-bandwidth", "GPU-a", "590", &v), 0);
	paths_gpu_figure_write("copy-bandwidth", "GPU-a", "580", 3000.0);
	ck_assert_int_eq(paths_gpu_figure_read("copy-bandwidth", "GPU-a", "580", &v), 1);
	ck_assert_double_eq_tol(v, 3000.0, 1e-9);
	ck_assert_int_eq(paths_gpu_figure_read("copy-bandwidth", "GPU-b", "580", &v), 1);
	ck_assert_double_eq_tol(v, 4187.5, 1e-9);
	ck_assert_int_eq(paths_gpu_figure_read("fp32-peak", "GPU-b", "580", &v), 0);
	{
		char *d = paths_cache_dir(), *f = xasprintf("%s/copy-bandwidth", d);

		unlink(f);
		rmdir(d);
		rmdir(dir);
		free(f);
		free(d);
	}
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("paths");
	TCase *tc = tcase_create("paths");

	tcase_add_test(tc, locale_dir_of_a_build_tree);
	tcase_add_test(tc, a_figure_per_gpu);
	suite_add_tcase(s, tc);
	return s;
}

/* What needs the Chinese catalog and a C.UTF-8 locale. */
static Suite *make_zh_suite(void)
{
	Suite *s = suite_create("paths zh_CN");
	TCase *tc = tcase_create("zh");

	tcase_add_test(tc, chinese_catalog_is_found);
	suite_add_tcase(s, tc);
	return s;
}

/* Why the Chinese catalog cannot be tried here, or NULL. */
static const char *zh_missing(void)
{
	locale_t l;

#if !ENABLE_NLS
	return "built without NLS: no catalog to find";
#endif
	l = newlocale(LC_ALL_MASK, "C.UTF-8", (locale_t)0);
	if (l == (locale_t)0)
		return "no C.UTF-8 locale here";
	freelocale(l);
	return NULL;
}

/* Built twice (Makefile.am): test_paths, and test_paths_zh (CHECK_PART 1), which may skip. */
int main(void)
{
	if (CHECK_PART == 1)
		return check_main_part(make_zh_suite, zh_missing());
	return check_main_part(make_suite, NULL);
}

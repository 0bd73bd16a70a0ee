/* Paths: the catalogs of a program run from the build tree, before it is installed. */
#include "config.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>

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

/* Bound there, the messages come out in Chinese under LANGUAGE=zh_CN. */
START_TEST(chinese_catalog_is_found)
{
#if ENABLE_NLS
	const char *header;

	if (setlocale(LC_ALL, "C.UTF-8") == NULL) {
		fprintf(stderr, "skip: no C.UTF-8 locale here\n");
		return;
	}
	setenv("LANGUAGE", "zh_CN", 1);
	ck_assert_ptr_nonnull(bindtextdomain(PACKAGE, paths_locale_dir()));
	ck_assert_ptr_nonnull(textdomain(PACKAGE));
	/* gettext("") is the catalog's header entry: which language it is */
	header = gettext("");
	ck_assert_msg(strstr(header, "Language: zh_CN") != NULL,
	    "no zh_CN catalog of %s under %s", PACKAGE, paths_locale_dir());
	ck_assert_str_ne(_("cancelled"), "cancelled");
#else
	fprintf(stderr, "skip: built without NLS\n");
#endif
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("paths");
	TCase *tc = tcase_create("paths");

	tcase_add_test(tc, locale_dir_of_a_build_tree);
	tcase_add_test(tc, chinese_catalog_is_found);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

/* i18n_setup(): the locale asked for, or a UTF-8 one that draws its language, and the note. */
#include "config.h"

#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "i18n.h"
#include "paths.h"

/* A made-up locale: never installed, and its language is "xx_YY". */
#define MISSING "xx_YY.UTF-8"

/* Each test runs in its own child: the environment starts empty of locale variables. */
static void clear_locale_env(void)
{
	static const char *const vars[] = { "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES",
	    "LC_COLLATE", "LC_NUMERIC", "LC_TIME", "LC_MONETARY", "LANG", "LOCPATH" };

	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
		unsetenv(vars[i]);
}

static int installed(const char *name)
{
	locale_t l = newlocale(LC_ALL_MASK, name, (locale_t)0);

	if (l != (locale_t)0)
		freelocale(l);
	return l != (locale_t)0;
}

/* The fallback this machine has, or NULL: then the tests that need one skip. */
static const char *utf8_here(void)
{
	static const char *const names[] = { "C.UTF-8", "C.utf8", "en_US.UTF-8" };

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (installed(names[i]))
			return names[i];
	return NULL;
}

START_TEST(missing_locale_falls_back_to_utf8)
{
	const char *fallback = utf8_here(), *got;
	char note[256];

	if (fallback == NULL) {
		fprintf(stderr, "skip: no UTF-8 locale installed here\n");
		return;
	}
	clear_locale_env();
	setenv("LANG", MISSING, 1);
	got = i18n_setup(NULL, note, sizeof note);
	ck_assert_str_eq(got, fallback);
	ck_assert_str_eq(nl_langinfo(CODESET), "UTF-8");
	/* gettext reads LANGUAGE in C.UTF-8: the messages stay in the language asked for */
	ck_assert_ptr_nonnull(getenv("LANGUAGE"));
	ck_assert_str_eq(getenv("LANGUAGE"), "xx_YY");
	ck_assert_msg(strstr(note, MISSING) != NULL && strstr(note, fallback) != NULL,
	    "the note names neither locale: '%s'", note);
	ck_assert_str_eq(i18n_note(), note);
}
END_TEST

START_TEST(missing_locale_keeps_the_users_language)
{
	char note[256];

	if (utf8_here() == NULL)
		return;
	clear_locale_env();
	setenv("LANG", "en_US.UTF-8", 1);
	setenv("LC_MESSAGES", MISSING, 1);
	setenv("LANGUAGE", "fr", 1);
	(void)i18n_setup(NULL, note, sizeof note);
	ck_assert_str_eq(getenv("LANGUAGE"), "fr");
	/* the note names the locale that is missing, not LANG's */
	ck_assert_msg(strstr(note, MISSING) != NULL, "the note names another locale: '%s'", note);
}
END_TEST

START_TEST(installed_locale_is_used_as_it_is)
{
	const char *fallback = utf8_here();
	char note[256] = "left over";

	if (fallback == NULL)
		return;
	clear_locale_env();
	setenv("LANG", fallback, 1);
	ck_assert_str_eq(i18n_setup(NULL, note, sizeof note), fallback);
	ck_assert_str_eq(note, "");
	ck_assert_str_eq(i18n_note(), "");
	ck_assert_ptr_null(getenv("LANGUAGE"));
}
END_TEST

/* The C locale draws in ASCII, which is right for English. */
START_TEST(c_locale_stays_for_english)
{
	char note[256];

	clear_locale_env();
	setenv("LANG", "C", 1);
	ck_assert_str_eq(i18n_setup(NULL, note, sizeof note), "C");
	ck_assert_str_ne(nl_langinfo(CODESET), "UTF-8");
	ck_assert_str_eq(note, "");
	clear_locale_env();
	ck_assert_str_eq(i18n_setup("en", note, sizeof note), "C");
	ck_assert_str_eq(note, "");
}
END_TEST

/* Lessons in Chinese under C: UTF-8, so that they are drawn; --lang picks the messages' language too. */
START_TEST(c_locale_with_chinese_lessons_takes_utf8)
{
	const char *fallback = utf8_here();
	char note[256];

	if (fallback == NULL)
		return;
	clear_locale_env();
	setenv("LANG", "C", 1);
	ck_assert_str_eq(i18n_setup("zh_CN", note, sizeof note), fallback);
	ck_assert_str_eq(nl_langinfo(CODESET), "UTF-8");
	ck_assert_ptr_nonnull(getenv("LANGUAGE"));
	ck_assert_str_eq(getenv("LANGUAGE"), "zh_CN");
	ck_assert_msg(strstr(note, "zh_CN") != NULL, "the note does not say why: '%s'", note);

	clear_locale_env();
	setenv("LANGUAGE", "zh_CN", 1);
	ck_assert_str_eq(i18n_setup(NULL, note, sizeof note), fallback);
}
END_TEST

START_TEST(asked_language_in_order)
{
	clear_locale_env();
	ck_assert_ptr_null(i18n_asked(NULL));
	setenv("LANG", "de_DE.UTF-8", 1);
	ck_assert_str_eq(i18n_asked(NULL), "de_DE.UTF-8");
	setenv("LC_MESSAGES", "fr_FR.UTF-8", 1);
	ck_assert_str_eq(i18n_asked(NULL), "fr_FR.UTF-8");
	setenv("LC_ALL", "", 1);	/* empty: not set */
	ck_assert_str_eq(i18n_asked(NULL), "fr_FR.UTF-8");
	setenv("LANGUAGE", "zh_CN:en", 1);
	ck_assert_str_eq(i18n_asked(NULL), "zh_CN:en");
	ck_assert_str_eq(i18n_asked("en"), "en");
}
END_TEST

/* The whole point: LANG=zh_CN.UTF-8 where it is not installed still gives Chinese messages. */
START_TEST(missing_chinese_locale_speaks_chinese)
{
#if ENABLE_NLS
	char note[256];

	if (utf8_here() == NULL || installed("zh_CN.UTF-8")) {
		fprintf(stderr, "skip: zh_CN.UTF-8 is installed here, or no UTF-8 locale is\n");
		return;
	}
	clear_locale_env();
	setenv("LANG", "zh_CN.UTF-8", 1);
	ck_assert_ptr_nonnull(bindtextdomain(PACKAGE, paths_locale_dir()));
	ck_assert_ptr_nonnull(textdomain(PACKAGE));
	(void)i18n_setup(NULL, note, sizeof note);
	ck_assert_str_ne(_("cancelled"), "cancelled");
	ck_assert_msg(strstr(note, "zh_CN.UTF-8") != NULL && strncmp(note, "The locale", 10) != 0,
	    "the note is not in Chinese: '%s'", note);
#endif
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("i18n");
	TCase *tc = tcase_create("i18n");

	tcase_add_test(tc, missing_locale_falls_back_to_utf8);
	tcase_add_test(tc, missing_locale_keeps_the_users_language);
	tcase_add_test(tc, installed_locale_is_used_as_it_is);
	tcase_add_test(tc, c_locale_stays_for_english);
	tcase_add_test(tc, c_locale_with_chinese_lessons_takes_utf8);
	tcase_add_test(tc, asked_language_in_order);
	tcase_add_test(tc, missing_chinese_locale_speaks_chinese);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

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

/* The fallback this machine has, or NULL: then test_i18n_utf8, whose tests need one, skips. */
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

	ck_assert_ptr_nonnull(fallback);
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

	ck_assert_ptr_nonnull(utf8_here());
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

	ck_assert_ptr_nonnull(fallback);
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

	ck_assert_ptr_nonnull(fallback);
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

/*
 * The whole point: LANG=zh_CN.UTF-8 where it is not installed still gives
 * Chinese messages (test_i18n_zh, which skips without NLS, without a
 * UTF-8 locale, or where zh_CN.UTF-8 is installed).
 */
START_TEST(missing_chinese_locale_speaks_chinese)
{
#if ENABLE_NLS
	char note[256];

	ck_assert(utf8_here() != NULL && !installed("zh_CN.UTF-8"));
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

/* What needs no locale but C. */
static Suite *make_suite(void)
{
	Suite *s = suite_create("i18n");
	TCase *tc = tcase_create("i18n");

	tcase_add_test(tc, c_locale_stays_for_english);
	tcase_add_test(tc, asked_language_in_order);
	suite_add_tcase(s, tc);
	return s;
}

/* What needs a UTF-8 locale to fall back to. */
static Suite *make_utf8_suite(void)
{
	Suite *s = suite_create("i18n UTF-8");
	TCase *tc = tcase_create("utf8");

	tcase_add_test(tc, missing_locale_falls_back_to_utf8);
	tcase_add_test(tc, missing_locale_keeps_the_users_language);
	tcase_add_test(tc, installed_locale_is_used_as_it_is);
	tcase_add_test(tc, c_locale_with_chinese_lessons_takes_utf8);
	suite_add_tcase(s, tc);
	return s;
}

/* What needs the Chinese catalog, a UTF-8 locale, and no zh_CN.UTF-8 installed. */
static Suite *make_zh_suite(void)
{
	Suite *s = suite_create("i18n zh_CN");
	TCase *tc = tcase_create("zh");

	tcase_add_test(tc, missing_chinese_locale_speaks_chinese);
	suite_add_tcase(s, tc);
	return s;
}

/* Why the zh_CN test cannot be judged here, or NULL. */
static const char *zh_missing(void)
{
#if !ENABLE_NLS
	return "built without NLS: no catalog to speak Chinese from";
#endif
	if (utf8_here() == NULL)
		return "no UTF-8 locale installed here to fall back to";
	if (installed("zh_CN.UTF-8"))
		return "zh_CN.UTF-8 is installed here: a missing one cannot be tried";
	return NULL;
}

/*
 * Built three times (Makefile.am): test_i18n, test_i18n_utf8 (CHECK_PART
 * 1) and test_i18n_zh (CHECK_PART 2); the last two skip where the locales
 * they need are not as they need them.
 */
int main(void)
{
	if (CHECK_PART == 1)
		return check_main_part(make_utf8_suite, utf8_here() == NULL ?
		    "no UTF-8 locale (C.UTF-8, en_US.UTF-8) installed here to fall back to" : NULL);
	if (CHECK_PART == 2)
		return check_main_part(make_zh_suite, zh_missing());
	return check_main_part(make_suite, NULL);
}

/* The locale the program runs in: the user's, or a UTF-8 one that draws their language. */
#include "config.h"

#include <langinfo.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"

/* util.h is above this file (its messages are translated): not included. */
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Tried in this order when the locale asked for cannot be used. */
static const char *const utf8_locales[] = { "C.UTF-8", "C.utf8", "en_US.UTF-8" };

static char kept_note[512];

static bool set(const char *var)
{
	const char *v = getenv(var);

	return v != NULL && *v != '\0';
}

/* Installed here?  Asked without touching the program's own locale. */
static bool installed(const char *name)
{
	locale_t l = newlocale(LC_ALL_MASK, name, (locale_t)0);

	if (l == (locale_t)0)
		return false;
	freelocale(l);
	return true;
}

/* The locale setlocale(LC_ALL, "") could not load: LC_ALL's, a category's, or LANG's. */
static const char *missing_locale(void)
{
	static const char *const vars[] = { "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "LC_COLLATE",
	    "LC_NUMERIC", "LC_TIME", "LC_MONETARY", "LANG" };

	for (size_t i = 0; i < COUNT(vars); i++)
		if (set(vars[i]) && !installed(getenv(vars[i])))
			return getenv(vars[i]);
	return set("LANG") ? getenv("LANG") : "C";
}

/* "zh_CN" of "zh_CN.UTF-8", "de_DE@euro" or a LANGUAGE list "zh_CN:en"; "" for C and POSIX. */
static void language_of(const char *asked, char *buf, size_t len)
{
	snprintf(buf, len, "%s", asked != NULL ? asked : "");
	buf[strcspn(buf, ".@:")] = '\0';
	if (strcmp(buf, "C") == 0 || strcmp(buf, "POSIX") == 0)
		buf[0] = '\0';
}

static bool english(const char *asked)
{
	char lang[64];

	language_of(asked, lang, sizeof lang);
	return lang[0] == '\0' ||
	    (strncmp(lang, "en", 2) == 0 && (lang[2] == '\0' || lang[2] == '_' || lang[2] == '-'));
}

const char *i18n_asked(const char *lang_option)
{
	static const char *const vars[] = { "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG" };

	if (lang_option != NULL)
		return lang_option;
	for (size_t i = 0; i < COUNT(vars); i++)
		if (set(vars[i]))
			return getenv(vars[i]);
	return NULL;
}

const char *i18n_setup(const char *lang_option, char *note, size_t len)
{
	const char *got = setlocale(LC_ALL, ""), *fallback = NULL;
	char asked[128], lang[64];

	if (len > 0)
		note[0] = '\0';
	kept_note[0] = '\0';
	/* --lang names the language of the interface as well as of the lessons */
	if (lang_option != NULL && *lang_option != '\0')
		setenv("LANGUAGE", lang_option, 1);
	if (got != NULL) {
		const char *ctype = setlocale(LC_CTYPE, NULL);
		bool plain = strcmp(ctype, "C") == 0 || strcmp(ctype, "POSIX") == 0;

		/* a non-UTF-8 locale other than C was chosen on purpose: it stays */
		if (strcmp(nl_langinfo(CODESET), "UTF-8") == 0 || !plain || english(i18n_asked(lang_option)))
			return setlocale(LC_ALL, NULL);
		snprintf(asked, sizeof asked, "%s", ctype);
	} else {
		snprintf(asked, sizeof asked, "%s", missing_locale());
	}
	for (size_t i = 0; i < COUNT(utf8_locales) && fallback == NULL; i++)
		if (setlocale(LC_ALL, utf8_locales[i]) != NULL)
			fallback = utf8_locales[i];
	if (got != NULL && fallback == NULL)
		return setlocale(LC_ALL, NULL);	/* C, as asked: nothing better is installed */
	if (got == NULL && !set("LANGUAGE")) {
		/* the language of the messages asked for, which C.UTF-8 alone would not give */
		language_of(set("LC_ALL") ? getenv("LC_ALL") : set("LC_MESSAGES") ? getenv("LC_MESSAGES") :
		    getenv("LANG"), lang, sizeof lang);
		if (lang[0] != '\0')
			setenv("LANGUAGE", lang, 1);
	}
	if (fallback == NULL) {
		snprintf(kept_note, sizeof kept_note, _("The locale %s is not installed here, nor is any "
		    "UTF-8 locale: text is drawn in ASCII."), asked);
	} else if (got == NULL) {
		snprintf(kept_note, sizeof kept_note,
		    _("The locale %s is not installed here: the tutor uses %s instead."), asked, fallback);
	} else {
		language_of(i18n_asked(lang_option), lang, sizeof lang);
		snprintf(kept_note, sizeof kept_note,
		    _("The locale %s cannot draw lessons in %s: the tutor uses %s instead."), asked, lang,
		    fallback);
	}
	if (len > 0)
		snprintf(note, len, "%s", kept_note);
	return setlocale(LC_ALL, NULL);
}

const char *i18n_note(void)
{
	return kept_note;
}

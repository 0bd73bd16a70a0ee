/* Message translation through gettext, and the locale the program runs in. */
#ifndef CUDATUTOR_I18N_H
#define CUDATUTOR_I18N_H

#include <stddef.h>

#include "gettext.h"

#define _(s) gettext(s)
#define N_(s) gettext_noop(s)

/*
 * The locale from the environment, as setlocale(LC_ALL, "") sets it, but
 * never one that draws Chinese as '?':
 *   - when the locale asked for is not installed (LANG=zh_CN.UTF-8 in a
 *     container that has only C.UTF-8), the first installed of C.UTF-8,
 *     C.utf8 and en_US.UTF-8; LANGUAGE, when unset, then names the
 *     language asked for, since gettext reads LANGUAGE in any locale but C;
 *   - when the locale is C or POSIX (plain ASCII) but the lessons are in a
 *     language other than English (lang_option, else as i18n_asked() finds
 *     it), a UTF-8 one likewise.
 * Call it first, after bindtextdomain(): note gets one translated line on
 * which locale is used instead and why, or "" when it is the one asked for.
 * Returns the locale in use, as setlocale() names it.
 */
const char *i18n_setup(const char *lang_option, char *note, size_t len);

/* The note of the last i18n_setup(), for the tutor to show at start; "" if none. */
const char *i18n_note(void);

/*
 * The language the user asked for, as written: lang_option (--lang), else
 * the first set of LANGUAGE, LC_ALL, LC_MESSAGES and LANG; NULL if none is.
 */
const char *i18n_asked(const char *lang_option);

#endif

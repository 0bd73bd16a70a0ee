/* Message translation through gettext. */
#ifndef CUDATUTOR_I18N_H
#define CUDATUTOR_I18N_H

#include "gettext.h"

#define _(s) gettext(s)
#define N_(s) gettext_noop(s)

#endif

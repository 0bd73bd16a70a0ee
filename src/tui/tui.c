/* The full-screen tutor (ncursesw). */
#include "config.h"

#include <stdio.h>

#include "i18n.h"
#include "tui/tui.h"

int tui_main(const struct tui_options *o)
{
	(void)o;
	fputs(_("cudatutor: the full-screen tutor is not built yet; see cudatutor --help\n"), stderr);
	return 1;
}

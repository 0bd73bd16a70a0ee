/*
 * Preloaded by tests/screen/tui-robust.sh: each frame takes a third of a
 * second to reach the terminal, as on a slow link or under a sanitizer, so
 * that a resize lands while the tutor draws, just before it waits again.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <time.h>

int doupdate(void)
{
	int (*real)(void) = (int (*)(void))dlsym(RTLD_NEXT, "doupdate");
	struct timespec left = { 0, 333000000 };

	while (nanosleep(&left, &left) != 0)
		;
	return real();
}

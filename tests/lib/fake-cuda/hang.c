/*
 * A libcuda.so.1 whose loading hangs, like a driver that does not answer:
 * for tests/screen/tui-robust.sh, and for tests/cli/recorded.sh, which
 * asks whether anything loaded it at all.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

/*
 * The CUDA runtime opens libcuda.so.1 when it first looks for a GPU; this
 * one takes CUDATUTOR_TEST_HANG seconds (default 20) to load, and then has
 * none of the driver's functions, so the runtime finds no driver at all.
 * With CUDATUTOR_TEST_LOADED set, it first makes that file: the driver was
 * loaded.
 */
__attribute__((constructor)) static void hang(void)
{
	const char *s = getenv("CUDATUTOR_TEST_HANG"), *mark = getenv("CUDATUTOR_TEST_LOADED");
	unsigned int seconds = s != NULL ? (unsigned int)atoi(s) : 20;

	if (mark != NULL) {
		int fd = open(mark, O_WRONLY | O_CREAT, 0600);

		if (fd >= 0)
			close(fd);
	}
	while (seconds > 0)
		seconds = sleep(seconds);
}

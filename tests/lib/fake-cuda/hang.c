/* A libcuda.so.1 whose loading hangs, like a driver that does not answer: for tests/tui-robust.sh. */
#include <stdlib.h>
#include <unistd.h>

/*
 * The CUDA runtime opens libcuda.so.1 when it first looks for a GPU; this
 * one takes CUDATUTOR_TEST_HANG seconds (default 20) to load, and then has
 * none of the driver's functions, so the runtime finds no driver at all.
 */
__attribute__((constructor)) static void hang(void)
{
	const char *s = getenv("CUDATUTOR_TEST_HANG");
	unsigned int seconds = s != NULL ? (unsigned int)atoi(s) : 20;

	while (seconds > 0)
		seconds = sleep(seconds);
}

/* The main() every Check test program shares: run one suite, exit 0 or 1 (77: skipped). */
#ifndef CUDATUTOR_CHECK_MAIN_H
#define CUDATUTOR_CHECK_MAIN_H

#include <check.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Permissions stop everyone but root, and the tests may run as root: a
 * test about an unreadable file or a read-only directory calls this
 * first, to go on as nobody.  Each test runs in a forked child, so only
 * that test changes user.  0, or -1 (with a line saying why) when it
 * cannot: the test then skips its permission checks.
 */
static inline int check_drop_root(void)
{
	const char *fork_mode = getenv("CK_FORK");

	if (geteuid() != 0)
		return 0;
	if (fork_mode != NULL && strcmp(fork_mode, "no") == 0) {
		fprintf(stderr, "skip: a permission check as root needs CK_FORK=yes\n");
		return -1;
	}
	if (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0) {
		fprintf(stderr, "skip: a permission check: root cannot become nobody here\n");
		return -1;
	}
	return 0;
}

/*
 * Run the suite: the number of tests that failed.  Each test in a forked
 * child (unless CK_FORK=no says otherwise), or with in_process every test
 * in this process, each named in the log as it ends.
 */
static inline int check_run_how(Suite *s, int in_process)
{
	SRunner *sr = srunner_create(s);
	int failed;

	if (in_process)
		srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, in_process ? CK_VERBOSE : CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed;
}

static inline int check_run(Suite *s)
{
	return check_run_how(s, 0);
}

#define CHECK_MAIN(make_suite)                                          \
	int main(void)                                                  \
	{                                                               \
		return check_run(make_suite()) == 0 ? EXIT_SUCCESS : EXIT_FAILURE; \
	}

/*
 * The same for a program whose tests need a GPU (it includes gpu.h):
 * without one it says why and skips (exit 77); with one the tests run in
 * this process, since CUDA's state does not survive fork() (a forked test
 * would find the context gpu_init made unusable).
 */
#define CHECK_MAIN_GPU(make_suite)                                      \
	int main(void)                                                  \
	{                                                               \
		struct error e_;                                        \
									\
		if (gpu_init(&e_) != 0) {                               \
			printf("SKIP: %s\n", e_.msg);                   \
			return 77;                                      \
		}                                                       \
		return check_run_how(make_suite(), 1) == 0 ? EXIT_SUCCESS : EXIT_FAILURE; \
	}

/*
 * The same for a program whose checks read SASS listings: built without
 * cuobjdump those checks make no assertion, so the program reports SKIP
 * (exit 77), never a PASS it did not earn.
 */
#ifdef HAVE_CUOBJDUMP
#define CHECK_SASS_MISSING 0
#else
#define CHECK_SASS_MISSING 1
#endif
#define CHECK_MAIN_SASS(make_suite)                                     \
	int main(void)                                                  \
	{                                                               \
		if (check_run(make_suite()) != 0)                       \
			return EXIT_FAILURE;                            \
		if (CHECK_SASS_MISSING) {                               \
			fprintf(stderr, "skip: built without cuobjdump: the SASS checks did not run\n"); \
			return 77;                                      \
		}                                                       \
		return EXIT_SUCCESS;                                    \
	}

#endif

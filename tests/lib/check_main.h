/* The main() every Check test program shares: run one suite, exit 0 or 1 (77: skipped). */
#ifndef CUDATUTOR_CHECK_MAIN_H
#define CUDATUTOR_CHECK_MAIN_H

#include <check.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Check has no skip for one test: a test that returns early where the
 * machine lacks what it needs passes having checked nothing.  So tests
 * that need what a machine may lack (a GPU, a locale, a user the
 * permissions stop) go in a program of their own, which exits 77 (SKIP)
 * where that is missing, while the others still run and pass: a green
 * run means every test was judged.  Such a program is often the same
 * source built again with -DCHECK_PART=N (see Makefile.am), its main
 * running that part's suite.
 */
#ifndef CHECK_PART
#define CHECK_PART 0
#endif

/* How many times word occurs in text, one after another (a test's count of a mark or a register). */
static inline int check_occurrences(const char *text, const char *word)
{
	int n = 0;

	for (const char *q = text; (q = strstr(q, word)) != NULL; q += strlen(word))
		n++;
	return n;
}

/*
 * Permissions stop everyone but root, and the tests may run as root: a
 * test about an unreadable file or a read-only directory calls this
 * first, to go on as nobody.  Each test runs in a forked child, so only
 * that test changes user.  0, or -1 (with a line saying why) when it
 * cannot; the program of those tests asks check_permissions_missing()
 * first, and skips where they could not be judged.
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
 * Why tests of what permissions forbid cannot be judged here, or NULL.
 * As root each test drops to nobody in its forked child
 * (check_drop_root): that needs each test forked (not CK_FORK=no), and
 * a root allowed to change user, which a child tries first.
 */
static inline const char *check_permissions_missing(void)
{
	const char *fork_mode = getenv("CK_FORK");
	int status;
	pid_t pid;

	if (geteuid() != 0)
		return NULL;
	if (fork_mode != NULL && strcmp(fork_mode, "no") == 0)
		return "running as root, the permission tests need CK_FORK=yes to drop to nobody in each test";
	pid = fork();
	if (pid < 0)
		return "cannot fork to try dropping root";
	if (pid == 0)
		_exit(setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return "running as root, and root cannot become nobody here: root reads and writes "
		    "whatever the permissions say";
	return NULL;
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

/*
 * A program's main: where missing says why its tests cannot be judged
 * here, SKIP (77) and why; otherwise the suite, exit 0 or 1.
 */
static inline int check_main_part(Suite *(*make_suite)(void), const char *missing)
{
	if (missing != NULL) {
		printf("SKIP: %s\n", missing);
		return 77;
	}
	return check_run(make_suite()) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
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

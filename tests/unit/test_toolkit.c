/* The toolkit: its roots, a fake one under $CUDA_HOME, the message for a missing program. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "toolkit.h"
#include "util.h"

static char fake[64];

/* A toolkit tree in a temporary directory: bin/ with executable stubs of these programs. */
static void make_fake(const char *const *names, int n)
{
	char *bin;

	snprintf(fake, sizeof fake, "/tmp/cudatutor-test-toolkit-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(fake));
	bin = xasprintf("%s/bin", fake);
	ck_assert_int_eq(mkdir(bin, 0755), 0);
	for (int i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", bin, names[i]);
		FILE *f = fopen(path, "w");

		ck_assert_ptr_nonnull(f);
		fputs("#!/bin/sh\nexit 0\n", f);
		fclose(f);
		ck_assert_int_eq(chmod(path, 0755), 0);
		free(path);
	}
	free(bin);
}

static void remove_fake(const char *const *names, int n)
{
	for (int i = 0; i < n; i++) {
		char *path = xasprintf("%s/bin/%s", fake, names[i]);
		unlink(path);
		free(path);
	}
	{
		char *bin = xasprintf("%s/bin", fake);
		rmdir(bin);
		free(bin);
	}
	rmdir(fake);
}

/* Nothing but $CUDA_HOME to go by: no variable naming a program, an empty PATH. */
static void only_cuda_home(const char *root)
{
	unsetenv("NCU");
	unsetenv("CUOBJDUMP");
	unsetenv("NVDISASM");
	unsetenv("CUDA_ROOT");
	unsetenv("CUDA_PATH");
	setenv("CUDA_HOME", root, 1);
	setenv("PATH", "/nonexistent", 1);
}

START_TEST(roots_in_order)
{
	const char *roots[TOOLKIT_MAX_ROOTS];
	int n;

	setenv("CUDA_HOME", "/opt/a", 1);
	setenv("CUDA_ROOT", "/opt/a", 1);	/* the same root, once */
	setenv("CUDA_PATH", "/opt/b", 1);
	n = toolkit_roots(roots, TOOLKIT_MAX_ROOTS);
	ck_assert_int_ge(n, 3);
	ck_assert_str_eq(roots[0], "/opt/a");
	ck_assert_str_eq(roots[1], "/opt/b");
	/* then configure's and the usual place, the last of all */
	ck_assert_str_eq(roots[n - 1], "/usr/local/cuda");
	unsetenv("CUDA_HOME");
	unsetenv("CUDA_ROOT");
	unsetenv("CUDA_PATH");
	n = toolkit_roots(roots, TOOLKIT_MAX_ROOTS);
	ck_assert_int_ge(n, 1);
	ck_assert_str_eq(roots[n - 1], "/usr/local/cuda");
	ck_assert_int_eq(toolkit_roots(roots, 1), 1);
}
END_TEST

/* ncu and compute-sanitizer in $CUDA_HOME/bin are found there, off the PATH. */
START_TEST(cuda_home_is_searched)
{
	static const char *const names[] = { "ncu", "compute-sanitizer" };
	struct error e = { "" };
	char *path, *want;

	make_fake(names, 2);
	only_cuda_home(fake);
	path = toolkit_program(TOOLKIT_NCU, &e);
	want = xasprintf("%s/bin/ncu", fake);
	ck_assert_msg(path != NULL, "%s", e.msg);
	ck_assert_str_eq(path, want);
	free(path);
	free(want);
	path = toolkit_program(TOOLKIT_SANITIZER, &e);
	want = xasprintf("%s/bin/compute-sanitizer", fake);
	ck_assert_msg(path != NULL, "%s", e.msg);
	ck_assert_str_eq(path, want);
	free(path);
	free(want);
	/* the PATH comes before the roots */
	{
		char *bin = xasprintf("%s/bin", fake);

		setenv("CUDA_HOME", "/nonexistent", 1);
		setenv("PATH", bin, 1);
		path = toolkit_program(TOOLKIT_SANITIZER, &e);
		want = xasprintf("%s/compute-sanitizer", bin);
		ck_assert_msg(path != NULL, "%s", e.msg);
		ck_assert_str_eq(path, want);
		free(path);
		free(want);
		free(bin);
	}
	remove_fake(names, 2);
}
END_TEST

/* A stub that is not executable, or a directory of the name, is not a program. */
START_TEST(only_programs_count)
{
	static const char *const names[] = { "compute-sanitizer" };
	struct error e = { "" };
	char *stub, *path;

	make_fake(names, 1);
	only_cuda_home(fake);
	stub = xasprintf("%s/bin/compute-sanitizer", fake);
	ck_assert_int_eq(chmod(stub, 0644), 0);
	path = toolkit_program(TOOLKIT_SANITIZER, &e);
	if (path != NULL) {
		/* one in configure's toolkit or /usr/local/cuda, not the stub */
		ck_assert_str_ne(path, stub);
		free(path);
	}
	/* nor a directory of its name */
	ck_assert_int_eq(unlink(stub), 0);
	ck_assert_int_eq(mkdir(stub, 0755), 0);
	path = toolkit_program(TOOLKIT_SANITIZER, &e);
	if (path != NULL) {
		ck_assert_str_ne(path, stub);
		free(path);
	}
	ck_assert_int_eq(rmdir(stub), 0);
	fclose(fopen(stub, "w"));
	free(stub);
	remove_fake(names, 1);
}
END_TEST

/* Missing everywhere: one sentence that says where it was looked for and how to get it. */
START_TEST(missing_program_says_so)
{
	static const char *const none[] = { "nothing" };
	struct error e = { "" };
	char *path;

	make_fake(none, 1);
	only_cuda_home(fake);
	path = toolkit_program(TOOLKIT_SANITIZER, &e);
	if (path != NULL) {
		/* this machine has one in configure's toolkit or /usr/local/cuda */
		ck_assert(access(path, X_OK) == 0);
		free(path);
	} else {
		ck_assert_msg(strstr(e.msg, "compute-sanitizer was not found") != NULL, "%s", e.msg);
		ck_assert_msg(strstr(e.msg, "CUDA toolkit") != NULL, "%s", e.msg);
	}
	/* a variable naming a program that is not there: that, and nothing else */
	setenv("NCU", "/nonexistent/ncu", 1);
	ck_assert_ptr_null(toolkit_program(TOOLKIT_NCU, &e));
	ck_assert_msg(strstr(e.msg, "NCU is set to '/nonexistent/ncu'") != NULL, "%s", e.msg);
	setenv("NVDISASM", "no-such-nvdisasm", 1);
	ck_assert_ptr_null(toolkit_program(TOOLKIT_NVDISASM, &e));
	ck_assert_msg(strstr(e.msg, "NVDISASM=no-such-nvdisasm is not a program") != NULL, "%s", e.msg);
	remove_fake(none, 1);
}
END_TEST

START_TEST(missing_library_says_so)
{
	struct error e = { "" };
	char name[64];

	setenv("CUDATUTOR_NVRTC", "/nonexistent/libnvrtc.so", 1);
	ck_assert_ptr_null(toolkit_library(TOOLKIT_NVRTC, name, sizeof name, &e));
	ck_assert_msg(strstr(e.msg, "CUDATUTOR_NVRTC=/nonexistent/libnvrtc.so cannot be loaded") != NULL, "%s",
	    e.msg);
	unsetenv("CUDATUTOR_NVRTC");
}
END_TEST

/* The include directories of a toolkit tree: include/cccl before include, real paths, each once. */
START_TEST(nvrtc_includes_of_the_library_root)
{
	static const char *const none[] = { "nothing" };
	char **dirs, *lib64, *cccl, *include, *library;
	int n;

	make_fake(none, 1);
	lib64 = xasprintf("%s/lib64", fake);
	include = xasprintf("%s/include", fake);
	cccl = xasprintf("%s/include/cccl", fake);
	library = xasprintf("%s/libnvrtc.so.13", lib64);
	ck_assert_int_eq(mkdir(lib64, 0755), 0);
	ck_assert_int_eq(mkdir(include, 0755), 0);
	ck_assert_int_eq(mkdir(cccl, 0755), 0);
	fclose(fopen(library, "w"));
	dirs = toolkit_nvrtc_includes(library, &n);
	ck_assert_int_ge(n, 2);
	ck_assert_str_eq(dirs[0], cccl);
	ck_assert_str_eq(dirs[1], include);
	for (int i = 2; i < n; i++)
		ck_assert_str_ne(dirs[i], include);
	for (int i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
	unlink(library);
	rmdir(cccl);
	rmdir(include);
	rmdir(lib64);
	free(library);
	free(cccl);
	free(include);
	free(lib64);
	remove_fake(none, 1);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("toolkit");
	TCase *tc = tcase_create("toolkit");

	tcase_add_test(tc, roots_in_order);
	tcase_add_test(tc, cuda_home_is_searched);
	tcase_add_test(tc, only_programs_count);
	tcase_add_test(tc, missing_program_says_so);
	tcase_add_test(tc, missing_library_says_so);
	tcase_add_test(tc, nvrtc_includes_of_the_library_root);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

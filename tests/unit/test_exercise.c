/* Exercises: working copies, compiling with NVRTC, the SASS checks, hints; and every row of the table. */
#include "config.h"

#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "exercise_fixtures.h"
#include "cubin.h"
#include "exercise.h"
#include "i18n.h"
#include "paths.h"
#include "registry.h"

#define ARCH "sm_90"

static char dir[64];

/* A directory of its own for each test (each runs in a forked child). */
static void fresh_dir(void)
{
	snprintf(dir, sizeof dir, "/tmp/cudatutor-test-exercise-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* Remove what the test left, whole. */
static void remove_dir(void)
{
	if (dir[0] == '\0')
		return;
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	dir[0] = '\0';
}

static void compile_fixture(const struct exercise_def *def, const char *name, struct exercise_result *r)
{
	char *path = fixture_path(name);
	struct error e;

	ck_assert_msg(exercise_compile_file(def, path, ARCH, dir, r, &e) == 0, "%s", e.msg);
	free(path);
}

static const struct exercise_def *float4_def(void)
{
	const struct exercise_def *def = exercise_def_find("float4");

	ck_assert_ptr_nonnull(def);
	return def;
}

/* ---- compiling and checking ----------------------------------------------------------- */

START_TEST(float4_passes_scalar_fails)
{
	struct exercise_result r;
	struct exercise_verdict v;
	struct error e;

	fresh_dir();
	compile_fixture(float4_def(), "float4.cu", &r);
	ck_assert(r.ok);
	ck_assert_ptr_null(r.problem);
	ck_assert_str_eq(r.diagnostics, "");
	ck_assert_ptr_nonnull(strstr(r.ptx, ".entry vec_add_float4("));
	ck_assert_ptr_null(strstr(r.ptx, "fill"));	/* the target's entry alone */
	ck_assert_ptr_nonnull(r.nvrtc.cubin);
	if (!have_cuobjdump()) {
		ck_assert_ptr_null(r.sass);
		ck_assert_ptr_nonnull(strstr(r.sass_error, "cuobjdump"));
		ck_assert_int_ne(exercise_check_sass(float4_def(), &r, &v, &e), 0);
		exercise_result_free(&r);
		return;
	}
	ck_assert_msg(file_exists(r.cubin_path), "%s", r.cubin_path);
	ck_assert_ptr_nonnull(strstr(r.cubin_path, "/float4." ARCH ".cubin"));
	ck_assert(r.have_resources);
	ck_assert_int_gt(r.resources.registers, 0);
	ck_assert_msg(exercise_check_sass(float4_def(), &r, &v, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(v.count, 6);
	ck_assert(v.passed);
	ck_assert(v.checks[0].passed);
	ck_assert_int_ge(v.checks[0].found, 2);
	exercise_result_free(&r);

	compile_fixture(float4_def(), "scalar.cu", &r);
	ck_assert(r.ok);
	ck_assert_msg(exercise_check_sass(float4_def(), &r, &v, &e) == 0, "%s", e.msg);
	ck_assert(!v.passed);
	ck_assert(!v.checks[0].passed);
	ck_assert_int_eq(v.checks[0].found, 0);
	ck_assert_str_eq(v.checks[0].message, _(float4_def()->checks[0].message));
	ck_assert_ptr_nonnull(strstr(v.checks[0].message, "LDG.E.128"));
	exercise_result_free(&r);
}
END_TEST

/* Each kind of check, on a kernel with two loads before a barrier and one after. */
START_TEST(every_kind_of_check)
{
	static const struct exercise_def passes = {
		.id = "t", .lesson = "vectorize", .target = "vec_add_float4", .start_from = "vec_add_float",
		.checks = {
			{ CHECK_BEFORE, "LDG.E", "BAR.SYNC", 2, "two loads before the barrier" },
			{ CHECK_BEFORE, "LDG", NULL, 3, "three loads in all" },
			{ CHECK_NONE_AFTER, "STS", "BAR.SYNC", 0, "no shared store after the barrier" },
			{ CHECK_AT_MOST, "BAR", NULL, 1, "one barrier" },
			{ CHECK_AT_LEAST, "LDS", NULL, 1, "a shared load" },
			{ CHECK_MAX_REGISTERS, NULL, NULL, 255, "few registers" },
			{ CHECK_READS_PARAM, NULL, NULL, 4, "n is read" },
		},
	};
	static const struct exercise_def fails = {
		.id = "t", .lesson = "vectorize", .target = "vec_add_float4", .start_from = "vec_add_float",
		.checks = {
			{ CHECK_BEFORE, "LDG.E", "BAR.SYNC", 3, "three loads before the barrier" },
			{ CHECK_NONE_AFTER, "LDG", "BAR", 0, "no load after the barrier" },
			{ CHECK_AT_MOST, "LDG.E", NULL, 2, "at most two loads" },
			{ CHECK_AT_LEAST, "LDG.E.128", NULL, 1, "a wide load" },
			{ CHECK_MAX_REGISTERS, NULL, NULL, 4, "four registers" },
			{ CHECK_READS_PARAM, NULL, NULL, 5, "a fifth parameter is read" },
		},
	};
	struct exercise_result r;
	struct exercise_verdict v;
	struct error e;
	char text[128];

	if (!have_cuobjdump())
		return;
	fresh_dir();
	compile_fixture(&passes, "barrier.cu", &r);
	ck_assert_msg(exercise_check_sass(&passes, &r, &v, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(v.count, 7);
	for (int i = 0; i < v.count; i++)
		ck_assert_msg(v.checks[i].passed, "check %d (%s) failed, found %d", i, v.checks[i].message,
		    v.checks[i].found);
	ck_assert(v.passed);
	ck_assert_int_eq(v.checks[0].found, 2);
	ck_assert_int_eq(v.checks[1].found, 3);
	ck_assert_int_eq(v.checks[5].found, r.resources.registers);
	ck_assert_int_eq(v.checks[6].found, 1);
	exercise_check_describe(&v.checks[6], text, sizeof text);
	ck_assert_str_eq(text, "loads of parameter 4 (PTX ld.param): at least 1, found 1");
	exercise_check_describe(&v.checks[0], text, sizeof text);
	ck_assert_str_eq(text, "LDG.E before the first BAR.SYNC: at least 2, found 2");

	ck_assert_msg(exercise_check_sass(&fails, &r, &v, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(v.count, 6);
	ck_assert(!v.passed);
	for (int i = 0; i < v.count; i++)
		ck_assert_msg(!v.checks[i].passed, "check %d (%s) passed, found %d", i, v.checks[i].message,
		    v.checks[i].found);
	ck_assert_int_eq(v.checks[0].found, 2);
	ck_assert_int_eq(v.checks[1].found, 1);
	ck_assert_int_eq(v.checks[2].found, 3);
	ck_assert_int_eq(v.checks[3].found, 0);
	ck_assert_str_eq(v.checks[4].message, "four registers");
	ck_assert_int_eq(v.checks[5].found, 0);
	exercise_check_describe(&v.checks[1], text, sizeof text);
	ck_assert_str_eq(text, "LDG after the first BAR: none, found 1");
	exercise_check_describe(&v.checks[4], text, sizeof text);
	ck_assert_int_eq(strncmp(text, "registers: at most 4, found ", 28), 0);
	exercise_result_free(&r);
}
END_TEST

START_TEST(missing_symbol_is_said)
{
	struct exercise_result r;
	struct exercise_verdict v;
	struct error e;

	fresh_dir();
	/* vec_add_four, and vec_add_float4 without extern "C": a mangled name */
	compile_fixture(float4_def(), "renamed.cu", &r);
	ck_assert(r.ok);
	ck_assert_ptr_null(r.ptx);
	ck_assert_ptr_nonnull(r.problem);
	ck_assert_msg(strstr(r.problem, "defines no kernel vec_add_float4: kernels must keep the name "
	    "vec_add_float4 and its parameters") != NULL, "%s", r.problem);
	ck_assert_int_ne(exercise_check_sass(float4_def(), &r, &v, &e), 0);
	ck_assert_str_eq(e.msg, r.problem);
	exercise_result_free(&r);

	compile_fixture(float4_def(), "params.cu", &r);
	ck_assert(r.ok);
	ck_assert_ptr_nonnull(r.ptx);
	ck_assert_ptr_nonnull(r.problem);
	ck_assert_msg(strstr(r.problem, "takes other parameters than the tutor's vec_add_float4") != NULL,
	    "%s", r.problem);
	ck_assert_int_ne(exercise_check_sass(float4_def(), &r, &v, &e), 0);
	exercise_result_free(&r);
}
END_TEST

START_TEST(compile_errors_reported)
{
	struct exercise_result r;
	struct exercise_verdict v;
	struct error e;
	char *path = fixture_path("syntax.cu"), *want;

	fresh_dir();
	compile_fixture(float4_def(), "syntax.cu", &r);
	ck_assert(!r.ok);
	ck_assert_int_eq(r.nvrtc.errors.count, 2);
	ck_assert_int_eq(r.nvrtc.warnings.count, 2);
	want = xasprintf("%s:7:17: error: identifier \"yy\" is undefined\n\t\tz[i] = x[i] + yy[i];\n", path);
	ck_assert_msg(strncmp(r.diagnostics, want, strlen(want)) == 0, "%s", r.diagnostics);
	/* errors first, then the warnings */
	ck_assert_ptr_nonnull(strstr(r.diagnostics, ":9:2: error: expected a \";\""));
	ck_assert(strstr(r.diagnostics, ":9:2: error") < strstr(r.diagnostics, ":5:6: warning"));
	ck_assert_ptr_null(r.cubin_path);
	ck_assert_int_ne(exercise_check_sass(float4_def(), &r, &v, &e), 0);
	ck_assert_msg(strstr(e.msg, "did not compile") != NULL, "%s", e.msg);
	exercise_result_free(&r);
	free(want);
	free(path);
}
END_TEST

/*
 * A student's source is a regular file of at most 1 MiB: a pipe is not
 * waited on, a device (/dev/zero) not read for ever, a directory or a
 * large file not taken, each in one line that says what to do.
 */
START_TEST(source_is_a_small_regular_file)
{
	struct exercise_result r;
	struct error e;
	char *fifo, *big, *dirpath;
	FILE *f;

	fresh_dir();
	fifo = xasprintf("%s/float4.cu", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	/* nobody writes to it: the old read waited for ever */
	ck_assert_int_ne(exercise_compile_file(float4_def(), fifo, ARCH, dir, &r, &e), 0);
	ck_assert_msg(strstr(e.msg, "is not a regular file (a device, a pipe or a socket): give the path of the "
	    ".cu file with your kernel") != NULL, "%s", e.msg);
	exercise_result_free(&r);
	ck_assert_int_ne(exercise_compile_file(float4_def(), "/dev/null", ARCH, dir, &r, &e), 0);
	ck_assert_msg(strstr(e.msg, "/dev/null is not a regular file") != NULL, "%s", e.msg);
	exercise_result_free(&r);

	dirpath = xasprintf("%s/sub.cu", dir);
	ck_assert_int_eq(mkdir(dirpath, 0700), 0);
	ck_assert_int_ne(exercise_compile_file(float4_def(), dirpath, ARCH, dir, &r, &e), 0);
	ck_assert_msg(strstr(e.msg, "sub.cu is a directory: give the path of the .cu file with your kernel") != NULL,
	    "%s", e.msg);
	exercise_result_free(&r);

	/* one byte over the limit: a comment, so that it would compile */
	big = xasprintf("%s/big.cu", dir);
	f = fopen(big, "w");
	ck_assert_ptr_nonnull(f);
	fputs("//", f);
	for (unsigned i = 2; i < EXERCISE_MAX_SOURCE; i++)
		fputc('x', f);
	fputc('\n', f);
	fclose(f);
	ck_assert_int_ne(exercise_compile_file(float4_def(), big, ARCH, dir, &r, &e), 0);
	ck_assert_msg(strstr(e.msg, "big.cu is 1048577 bytes, more than a kernel's source (at most 1 MiB)") != NULL,
	    "%s", e.msg);
	exercise_result_free(&r);
	/* at the limit, it is read and compiled */
	ck_assert_int_eq(truncate(big, EXERCISE_MAX_SOURCE), 0);
	ck_assert_msg(exercise_compile_file(float4_def(), big, ARCH, dir, &r, &e) == 0, "%s", e.msg);
	ck_assert(r.ok);
	ck_assert_ptr_nonnull(r.problem);	/* a comment defines no kernel */
	exercise_result_free(&r);
	free(fifo);
	free(dirpath);
	free(big);
}
END_TEST

/* A NUL byte would cut the source where it is, without a word: it is an error at its line. */
START_TEST(nul_byte_is_an_error)
{
	static const char source[] = "extern \"C\" __global__ void vec_add_float4(const float *x, const float *y,\n"
	    "    float *z, unsigned long long n) {}\n// after\n  ab\0cd\nmore\n";
	struct exercise_result r;
	struct error e;
	char *path, *want;

	fresh_dir();
	path = xasprintf("%s/float4.cu", dir);
	ck_assert_int_eq(file_write_atomic(path, source, sizeof source - 1, &e), 0);
	ck_assert_msg(exercise_compile_file(float4_def(), path, ARCH, dir, &r, &e) == 0, "%s", e.msg);
	ck_assert(!r.ok);
	ck_assert_int_eq(r.nvrtc.errors.count, 1);
	ck_assert_int_eq(r.nvrtc.errors.d[0].line, 4);
	ck_assert_int_eq(r.nvrtc.errors.d[0].column, 5);
	want = xasprintf("%s:4:5: error: a NUL byte (\\x00) in the source, where the compiler would stop reading: "
	    "delete it (a .cu file is text)\n  ab\n    ^\n", path);
	ck_assert_str_eq(r.diagnostics, want);
	ck_assert_ptr_null(r.cubin_path);
	exercise_result_free(&r);
	free(want);
	free(path);
}
END_TEST

/*
 * A file checked where it is (no cubin directory named) leaves its cubin
 * in the cache: nothing in the exercises' folder, nothing beside the file.
 */
START_TEST(file_cubin_goes_to_the_cache)
{
	struct exercise_result r;
	struct error e;
	char *data, *cache, *path, *text, *folder, *prefix, *src = fixture_path("float4.cu");

	fresh_dir();
	data = xasprintf("%s/data", dir);
	cache = xasprintf("%s/cache", dir);
	setenv("XDG_DATA_HOME", data, 1);
	setenv("XDG_CACHE_HOME", cache, 1);
	path = xasprintf("%s/float4.cu", dir);
	text = file_read(src, NULL);
	ck_assert_int_eq(file_write_atomic(path, text, strlen(text), &e), 0);
	ck_assert_msg(exercise_compile_file(float4_def(), path, ARCH, NULL, &r, &e) == 0, "%s", e.msg);
	ck_assert(r.ok);
	ck_assert_ptr_nonnull(r.cubin_path);
	prefix = xasprintf("%s/cudatutor/cubins/float4-", cache);
	ck_assert_msg(strncmp(r.cubin_path, prefix, strlen(prefix)) == 0, "%s", r.cubin_path);
	ck_assert_ptr_nonnull(strstr(r.cubin_path, "." ARCH ".cubin"));
	ck_assert(file_exists(r.cubin_path));
	folder = exercise_dir(NULL);
	ck_assert_msg(!dir_exists(folder) && !dir_exists(data), "%s was made", folder);
	exercise_result_free(&r);
	/* by path, the same */
	ck_assert_msg(exercise_compile(NULL, path, ARCH, &r, &e) == 0, "%s", e.msg);
	ck_assert_msg(strncmp(r.cubin_path, prefix, strlen(prefix)) == 0, "%s", r.cubin_path);
	ck_assert(!dir_exists(data));
	exercise_result_free(&r);
	/* the working copy's cubin stays beside it */
	free(exercise_start(NULL, "float4", NULL, &e));
	ck_assert_msg(exercise_compile(NULL, "float4", ARCH, &r, &e) == 0, "%s", e.msg);
	ck_assert_ptr_nonnull(strstr(r.cubin_path, "/cudatutor/exercises/float4." ARCH ".cubin"));
	exercise_result_free(&r);
	unsetenv("XDG_DATA_HOME");
	unsetenv("XDG_CACHE_HOME");
	free(data);
	free(cache);
	free(path);
	free(text);
	free(folder);
	free(prefix);
	free(src);
}
END_TEST

/* The one-pass kernel with this body, written to name in the test's directory and compiled into r. */
static void compile_one_pass_body(const struct exercise_def *def, const char *name, const char *body,
    struct exercise_result *r)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *text = xasprintf("extern \"C\" __global__ void reduce_one_pass(int *g_idata, int *g_odata, unsigned int n,\n"
	    "    long long *total, unsigned int *blocks_done)\n"
	    "{\n"
	    "%s"
	    "}\n", body);
	struct error e;

	ck_assert_int_eq(file_write_atomic(path, text, strlen(text), &e), 0);
	ck_assert_msg(exercise_compile_file(def, path, ARCH, dir, r, &e) == 0, "%s", e.msg);
	ck_assert_msg(r->ok, "%s", r->diagnostics);
	free(text);
	free(path);
}

/*
 * The build a GPU runs again with its blocks in reverse order: it reads
 * blockIdx.x as gridDim.x - 1 - blockIdx.x, so its PTX reads the grid's
 * size (%nctaid.x) where the plain build read only the block's index.  A
 * file where the index cannot stand in (a variable of that name) is
 * refused with NVRTC's words, at the file's own line.
 */
START_TEST(reversed_build_numbers_blocks_from_the_end)
{
	const struct exercise_def *def = exercise_def_find("one-pass");
	struct exercise_result r;
	struct nvrtc_result rev;
	struct error e;
	char *path;

	fresh_dir();
	ck_assert_ptr_nonnull(def);
	path = xasprintf("%s/kernels/exercises/one-pass.solution.cu", getenv("CUDATUTOR_SRCDIR"));
	ck_assert_msg(exercise_compile_file(def, path, ARCH, dir, &r, &e) == 0, "%s", e.msg);
	ck_assert(r.ok);
	ck_assert_msg(exercise_build_reversed(&r, &rev, &e) == 0, "%s", e.msg);
	ck_assert(rev.ok);
	ck_assert_ptr_nonnull(rev.cubin);
	nvrtc_result_free(&rev);
	exercise_result_free(&r);
	free(path);

	/* a kernel that never reads the grid's size reads it once its blocks are numbered from the end */
	compile_one_pass_body(def, "index.cu", "    g_odata[blockIdx.x] = 1;\n", &r);
	ck_assert_msg(exercise_build_reversed(&r, &rev, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(check_occurrences(r.nvrtc.ptx, "%nctaid.x"), 0);
	ck_assert_int_eq(check_occurrences(rev.ptx, "%nctaid.x"), 1);
	nvrtc_result_free(&rev);
	exercise_result_free(&r);

	/* a variable named blockIdx: right in the plain build, an error in the reversed one, at the file's own line */
	compile_one_pass_body(def, "shadowed.cu", "    const unsigned int blockIdx = 0;\n    g_odata[blockIdx] = 0;\n", &r);
	ck_assert_int_eq(exercise_build_reversed(&r, &rev, &e), -1);
	ck_assert_msg(strstr(e.msg, "shadowed.cu:4:") != NULL, "%s", e.msg);
	exercise_result_free(&r);
}
END_TEST

/* ---- working copies ------------------------------------------------------------------------ */

START_TEST(working_copy_is_never_overwritten)
{
	struct error e;
	bool created = false;
	char *path, *start = exercise_starting_path("float4"), *text, *want = file_read(start, NULL);

	fresh_dir();
	ck_assert_ptr_nonnull(want);
	path = exercise_start(dir, "float4", &created, &e);
	ck_assert_msg(path != NULL, "%s", e.msg);
	ck_assert(created);
	ck_assert_ptr_nonnull(strstr(path, "/float4.cu"));
	text = file_read(path, NULL);
	ck_assert_str_eq(text, want);
	free(text);
	/* the student's work */
	ck_assert_int_eq(file_write_atomic(path, "// mine\n", 8, &e), 0);
	free(path);
	path = exercise_start(dir, "float4", &created, &e);
	ck_assert_ptr_nonnull(path);
	ck_assert(!created);
	text = file_read(path, NULL);
	ck_assert_str_eq(text, "// mine\n");
	free(text);
	free(path);
	ck_assert_ptr_null(exercise_start(dir, "nope", &created, &e));
	ck_assert_msg(strstr(e.msg, "unknown exercise 'nope': the exercises are neighbored-less") != NULL, "%s", e.msg);
	free(start);
	free(want);
}
END_TEST

/* Each reset keeps the student's file as the next numbered backup; an untouched one is left alone. */
START_TEST(reset_keeps_a_backup)
{
	struct error e;
	char *path, *backup, *text, *start = exercise_starting_path("float4"), *want = file_read(start, NULL);
	char *first, *second;

	fresh_dir();
	path = exercise_start(dir, "float4", NULL, &e);
	ck_assert_msg(path != NULL, "%s", e.msg);
	first = xasprintf("%s.~1~", path);
	second = xasprintf("%s.~2~", path);
	ck_assert_int_eq(file_write_atomic(path, "// mine\n", 8, &e), 0);
	ck_assert_int_eq(exercise_reset(dir, "float4", &backup, &e), EXERCISE_RESET_KEPT);
	ck_assert_str_eq(backup, first);
	free(backup);
	text = file_read(path, NULL);
	ck_assert_str_eq(text, want);
	free(text);
	text = file_read(first, NULL);
	ck_assert_ptr_nonnull(text);
	ck_assert_str_eq(text, "// mine\n");
	free(text);
	/* the starting file again: nothing to keep, nothing done */
	ck_assert_int_eq(exercise_reset(dir, "float4", &backup, &e), EXERCISE_RESET_UNTOUCHED);
	ck_assert_ptr_null(backup);
	ck_assert(!file_exists(second));
	/* a second version: kept beside the first, which stays */
	ck_assert_int_eq(file_write_atomic(path, "// mine again\n", 14, &e), 0);
	ck_assert_int_eq(exercise_reset(dir, "float4", &backup, &e), EXERCISE_RESET_KEPT);
	ck_assert_str_eq(backup, second);
	free(backup);
	text = file_read(second, NULL);
	ck_assert_str_eq(text, "// mine again\n");
	free(text);
	text = file_read(first, NULL);
	ck_assert_str_eq(text, "// mine\n");
	free(text);
	/* numbers go on from the highest there, even when an earlier one was removed */
	unlink(first);
	ck_assert_int_eq(file_write_atomic(path, "// third\n", 9, &e), 0);
	ck_assert_int_eq(exercise_reset(dir, "float4", &backup, &e), EXERCISE_RESET_KEPT);
	ck_assert_msg(strstr(backup, ".cu.~3~") != NULL, "%s", backup);
	free(backup);
	/* a reset with no working copy just makes one */
	unlink(path);
	ck_assert_int_eq(exercise_reset(dir, "float4", &backup, &e), EXERCISE_RESET_MADE);
	ck_assert_ptr_null(backup);
	ck_assert(file_exists(path));
	ck_assert_int_lt(exercise_reset(dir, "nope", &backup, &e), 0);
	free(first);
	free(second);
	free(path);
	free(start);
	free(want);
}
END_TEST

START_TEST(default_directory)
{
	char *d;

	setenv("XDG_DATA_HOME", "/tmp/some-data", 1);
	d = exercise_dir(NULL);
	ck_assert_str_eq(d, "/tmp/some-data/cudatutor/exercises");
	free(d);
	unsetenv("XDG_DATA_HOME");
	setenv("HOME", "/home/student", 1);
	d = exercise_working_path(NULL, "float4");
	ck_assert_str_eq(d, "/home/student/.local/share/cudatutor/exercises/float4.cu");
	free(d);
	d = exercise_working_path("/x", "float4");
	ck_assert_str_eq(d, "/x/float4.cu");
	free(d);
}
END_TEST

/* By id, the working copy; by path, the exercise its name says. */
START_TEST(compile_by_id_or_path)
{
	struct exercise_result r;
	struct error e;
	char *copy, *text, *float4 = fixture_path("float4.cu"), *scalar = fixture_path("scalar.cu");

	fresh_dir();
	ck_assert_int_ne(exercise_compile(dir, "float4", ARCH, &r, &e), 0);
	ck_assert_msg(strstr(e.msg, "no working copy yet") != NULL, "%s", e.msg);
	/* and the command that makes one */
	ck_assert_msg(strstr(e.msg, "start the exercise first: cudatutor exercise float4 --dir ") != NULL, "%s", e.msg);
	exercise_result_free(&r);
	free(exercise_start(dir, "float4", NULL, &e));
	ck_assert_msg(exercise_compile(dir, "float4", ARCH, &r, &e) == 0, "%s", e.msg);
	ck_assert(r.ok);
	ck_assert_ptr_eq(r.def, float4_def());
	ck_assert_str_eq(r.arch, ARCH);
	exercise_result_free(&r);

	copy = xasprintf("%s/float4.solution.cu", dir);
	text = file_read(float4, NULL);
	ck_assert_int_eq(file_write_atomic(copy, text, strlen(text), &e), 0);
	ck_assert_msg(exercise_compile(dir, copy, ARCH, &r, &e) == 0, "%s", e.msg);
	ck_assert(r.ok);
	ck_assert_ptr_eq(r.def, float4_def());
	ck_assert_str_eq(r.path, copy);
	exercise_result_free(&r);

	ck_assert_int_ne(exercise_compile(dir, "nope", ARCH, &r, &e), 0);
	ck_assert_msg(strstr(e.msg, "unknown exercise 'nope'") != NULL, "%s", e.msg);
	/* a file named after no exercise */
	ck_assert_int_ne(exercise_compile(dir, scalar, ARCH, &r, &e), 0);
	ck_assert_msg(strstr(e.msg, "cannot tell which exercise") != NULL, "%s", e.msg);
	ck_assert_int_ne(exercise_compile(dir, "/nonexistent/float4.cu", ARCH, &r, &e), 0);
	ck_assert_msg(strstr(e.msg, "cannot read /nonexistent/float4.cu") != NULL, "%s", e.msg);
	exercise_result_free(&r);
	free(copy);
	free(text);
	free(float4);
	free(scalar);
}
END_TEST

/* ---- hints, the list ------------------------------------------------------------------------ */

static const char lesson_text[] =
    "# Vectorized access\n\n## Scalar\n\n```step\nkernel: vec_add_float\n```\n\nOne float.\n\n"
    "## Exercise: four at once\n\n```exercise\nid: float4\n```\n\nMake it *wide*.\n\n"
    "### Hint\n\nfloat4.\n\n### Hint\n\nreinterpret_cast.\n\n"
    "## Four floats\n\n```step\nkernel: vec_add_float4\n```\n\nWide.\n";

START_TEST(hints_one_at_a_time)
{
	struct lesson l;
	struct progress p;
	struct error e;
	const char *hint;
	int number;

	ck_assert_msg(lesson_load_buffer(lesson_text, strlen(lesson_text), "t.md", "vectorize", &l, &e) == 0,
	    "%s", e.msg);
	memset(&p, 0, sizeof p);
	hint = exercise_next_hint(&p, &l.exercises[0], &number);
	ck_assert_str_eq(hint, "float4.");
	ck_assert_int_eq(number, 1);
	hint = exercise_next_hint(&p, &l.exercises[0], &number);
	ck_assert_str_eq(hint, "reinterpret_cast.");
	ck_assert_int_eq(number, 2);
	ck_assert_ptr_null(exercise_next_hint(&p, &l.exercises[0], &number));
	ck_assert_int_eq(number, 2);
	ck_assert_int_eq(progress_find_exercise(&p, "float4")->hints_shown, 2);
	progress_free(&p);
	lesson_free(&l);
}
END_TEST

START_TEST(list_joins_lessons_and_progress)
{
	struct lesson_set set = { 1, NULL };
	struct progress p;
	struct exercise_entry *list;
	struct error e;
	int n, k;

	set.lessons = xcalloc(1, sizeof *set.lessons);
	ck_assert_msg(lesson_load_buffer(lesson_text, strlen(lesson_text), "t.md", "vectorize", &set.lessons[0],
	    &e) == 0, "%s", e.msg);
	memset(&p, 0, sizeof p);
	progress_exercise_passed(&p, "float4");
	n = exercise_list(&set, &p, &list);
	ck_assert_int_eq(n, exercise_def_count);
	ck_assert_ptr_eq(list[0].def, &exercise_defs[0]);
	for (k = 0; k < n && list[k].def != float4_def(); k++)
		;
	ck_assert_int_lt(k, n);
	ck_assert_ptr_eq(list[k].lesson, &set.lessons[0]);
	ck_assert_ptr_nonnull(list[k].section);
	ck_assert_str_eq(list[k].section->task, "Make it *wide*.");
	ck_assert(list[k].progress->passed);
	free(list);
	n = exercise_list(NULL, NULL, &list);
	ck_assert_int_eq(n, exercise_def_count);
	ck_assert_ptr_null(list[0].section);
	ck_assert_ptr_null(list[0].progress);
	free(list);
	progress_free(&p);
	lesson_set_free(&set);
}
END_TEST

/* ---- every row of the table ----------------------------------------------------------------- */

/* Each row names real kernels and well-formed checks. */
START_TEST(table_rows_are_well_formed)
{
	ck_assert_int_ge(exercise_def_count, 1);
	for (int i = 0; i < exercise_def_count; i++) {
		const struct exercise_def *d = &exercise_defs[i];
		const struct kernel_def *target = registry_find(d->target);
		const struct kernel_def *start = registry_find(d->start_from);
		int nchecks = 0, nwork = 0;

		ck_assert_ptr_eq(exercise_def_find(d->id), d);
		ck_assert_msg(target != NULL, "%s: unknown target %s", d->id, d->target);
		ck_assert_msg(start != NULL, "%s: unknown start_from %s", d->id, d->start_from);
		ck_assert_msg(!(target->flags & KF_BLOCK_TEMPLATE) && !registry_is_library(target),
		    "%s: %s is a template or a library call, never an exercise", d->id, d->target);
		for (int k = 0; k < EXERCISE_MAX_CHECKS && d->checks[k].kind != CHECK_END; k++) {
			const struct exercise_check *c = &d->checks[k];

			nchecks++;
			ck_assert_msg(c->message != NULL && c->message[0] != '\0', "%s: check %d has no message",
			    d->id, k + 1);
			if (c->work)
				nwork++;
			if (c->kind == CHECK_MAX_REGISTERS) {
				ck_assert_msg(c->n > 0 && c->n <= 255, "%s: check %d", d->id, k + 1);
				continue;
			}
			if (c->kind == CHECK_READS_PARAM || c->kind == CHECK_DRAM_READS) {
				ck_assert_msg(c->op == NULL && c->n >= 1, "%s: check %d", d->id, k + 1);
				continue;
			}
			ck_assert_msg(c->op != NULL && exercise_op_is_valid(c->op), "%s: check %d: bad opcode",
			    d->id, k + 1);
			if (c->kind == CHECK_SHARE)
				ck_assert_msg(c->other != NULL && exercise_op_is_valid(c->other) && c->n > 0 && c->n <= 100,
				    "%s: check %d: a share of what, up to 100%%", d->id, k + 1);
			if (c->kind == CHECK_NONE_AFTER || (c->kind == CHECK_BEFORE && c->other != NULL))
				ck_assert_msg(c->other != NULL && lesson_is_opcode(c->other),
				    "%s: check %d: bad other opcode", d->id, k + 1);
		}
		ck_assert_msg(nchecks > 0, "%s has no checks", d->id);
		ck_assert_msg(nwork > 0, "%s has no check of the work", d->id);
		ck_assert_msg(nwork < nchecks, "%s has no check of the technique", d->id);
	}
}
END_TEST

/*
 * A row whose technique only a run shows (CHECK_DRAM_READS: what the
 * blocks read from device memory), on a file that does the work: every
 * check of the work passes, and the technique's check is shown, never
 * judged, on the compiled code.  On a GPU, tests/cli/check-dram-gpu.sh
 * holds the starting file and the near miss to failing it, and both
 * solutions to passing.
 */
static void run_judged(const struct exercise_def *d, const char *name, const struct exercise_verdict *v)
{
	for (int k = 0; k < v->count; k++) {
		if (d->checks[k].kind == CHECK_DRAM_READS)
			ck_assert_msg(v->checks[k].hint && v->checks[k].passed, "%s: check %d is judged on compiled code",
			    name, k + 1);
		else
			ck_assert_msg(v->checks[k].passed, "%s fails its check %d (found %d): %s", name, k + 1,
			    v->checks[k].found, v->checks[k].message);
	}
}

/*
 * For every row: the solution compiles and passes every check; the
 * starting file, untouched, compiles, does the work (passes every check
 * marked .work) and fails at least one check of the technique, with that
 * check's message.
 */
START_TEST(every_row_solution_passes_start_fails)
{
	int sass = have_cuobjdump();

	fresh_dir();
	for (int i = 0; i < exercise_def_count; i++) {
		const struct exercise_def *d = &exercise_defs[i];
		char *solution = exercise_solution_path(d->id), *start = exercise_starting_path(d->id);
		struct exercise_result r;
		struct exercise_verdict v;
		struct error e;
		int failed = 0;

		ck_assert_msg(exercise_compile_file(d, solution, ARCH, dir, &r, &e) == 0, "%s", e.msg);
		ck_assert_msg(r.ok, "%s does not compile:\n%s", solution, r.diagnostics);
		ck_assert_msg(r.problem == NULL, "%s", r.problem);
		ck_assert_msg(r.nvrtc.warnings.count == 0, "%s has warnings:\n%s", solution, r.diagnostics);
		if (sass) {
			ck_assert_msg(exercise_check_sass(d, &r, &v, &e) == 0, "%s", e.msg);
			for (int k = 0; k < v.count; k++)
				ck_assert_msg(v.checks[k].passed, "%s fails its check %d (found %d): %s", solution,
				    k + 1, v.checks[k].found, v.checks[k].message);
			ck_assert(v.passed);
		}
		exercise_result_free(&r);

		ck_assert_msg(exercise_compile_file(d, start, ARCH, dir, &r, &e) == 0, "%s", e.msg);
		ck_assert_msg(r.ok, "%s does not compile:\n%s", start, r.diagnostics);
		ck_assert_msg(r.problem == NULL, "%s", r.problem);
		if (sass && exercise_dram_check(d) != NULL) {
			/* a technique only a run shows: here the work passes and it is not judged (see run_judged) */
			ck_assert_msg(exercise_check_sass(d, &r, &v, &e) == 0, "%s", e.msg);
			run_judged(d, start, &v);
		} else if (sass) {
			ck_assert_msg(exercise_check_sass(d, &r, &v, &e) == 0, "%s", e.msg);
			ck_assert_msg(!v.passed, "%s passes every check untouched", start);
			for (int k = 0; k < v.count; k++)
				if (!v.checks[k].passed) {
					ck_assert_msg(!d->checks[k].work, "%s fails its check %d of the work (found %d): %s",
					    start, k + 1, v.checks[k].found, v.checks[k].message);
					failed++;
					ck_assert(v.checks[k].message[0] != '\0');
					ck_assert_str_eq(v.checks[k].message, _(d->checks[k].message));
				}
			ck_assert_int_ge(failed, 1);
		}
		exercise_result_free(&r);
		free(solution);
		free(start);
	}
}
END_TEST

/*
 * The row's kernel with the right name and parameters and nothing in its
 * body: the starting file up to the kernel's opening brace, then "}".
 * Written into dir; its path.
 */
static char *empty_kernel(const struct exercise_def *d)
{
	char *start = exercise_starting_path(d->id), *text = file_read(start, NULL), *path, *out;
	const char *kernel, *brace;
	struct error e;

	ck_assert_msg(text != NULL, "%s cannot be read", start);
	kernel = strstr(text, "extern \"C\" __global__");
	ck_assert_msg(kernel != NULL, "%s: no extern \"C\" kernel", start);
	brace = strchr(kernel, '{');
	ck_assert_ptr_nonnull(brace);
	out = xasprintf("%.*s\n}\n", (int)(brace - text + 1), text);
	path = xasprintf("%s/%s.empty.cu", dir, d->id);
	ck_assert_msg(file_write_atomic(path, out, strlen(out), &e) == 0, "%s", e.msg);
	free(out);
	free(text);
	free(start);
	return path;
}

/* Compile path for row d and check its SASS: 0 and v, or -1 where SASS cannot be read here. */
static int check_file(const struct exercise_def *d, const char *path, bool quiet, struct exercise_verdict *v)
{
	struct exercise_result r;
	struct error e;
	int sass = have_cuobjdump();

	ck_assert_msg(exercise_compile_file(d, path, ARCH, dir, &r, &e) == 0, "%s", e.msg);
	ck_assert_msg(r.ok, "%s does not compile:\n%s", path, r.diagnostics);
	ck_assert_msg(r.problem == NULL, "%s", r.problem);
	if (quiet)
		ck_assert_msg(r.nvrtc.warnings.count == 0, "%s has warnings:\n%s", path, r.diagnostics);
	if (sass)
		ck_assert_msg(exercise_check_sass(d, &r, v, &e) == 0, "%s", e.msg);
	exercise_result_free(&r);
	return sass ? 0 : -1;
}

/*
 * A second correct solution of every row, written differently (another
 * loop form, pointer idiom, no #pragma unroll, ...): a check must accept
 * every correct use of the technique, not only the way ours is written.
 */
START_TEST(every_row_other_solution_passes)
{
	char failed[4096] = "";

	fresh_dir();
	for (int i = 0; i < exercise_def_count; i++) {
		const struct exercise_def *d = &exercise_defs[i];
		char *name = xasprintf("%s.alt.cu", d->id), *path = fixture_path(name);
		struct exercise_verdict v;

		if (check_file(d, path, true, &v) == 0)
			for (int k = 0; k < v.count; k++)
				if (!v.checks[k].passed)
					snprintf(failed + strlen(failed), sizeof failed - strlen(failed),
					    "\n%s fails its check %d (found %d): %s", name, k + 1, v.checks[k].found,
					    v.checks[k].message);
		free(path);
		free(name);
	}
	ck_assert_msg(failed[0] == '\0', "%s", failed);
}
END_TEST

/*
 * Whether a near miss that fails check c, finding found, is near its
 * bound.  The mutation a near miss is there to catch is a bound moved
 * toward it: "at least 8" lowered to 4, "at most 0" raised to 1.  So:
 *
 * - at least n (CHECK_AT_LEAST, CHECK_BEFORE): found >= n / 2, rounded
 *   down, so that any bound lowered to half or less lets the near miss
 *   through (for n = 1 anything is near: the only lower bound is 0);
 * - at most n (CHECK_AT_MOST; CHECK_NONE_AFTER, which is at most 0):
 *   found <= 2n + 2, so that a bound raised to about twice lets it
 *   through (for n = 0, one or two of what is banned);
 * - registers (CHECK_MAX_REGISTERS): at most n + n / 2, half again the
 *   bound (registers are handed out 8 at a time, and 2n of 128 would be
 *   past the 255 any kernel has);
 * - a parameter read (CHECK_READS_PARAM) has no count: failing is near.
 */
static bool near_bound(const struct exercise_check *c, int found)
{
	switch (c->kind) {
	case CHECK_AT_LEAST:
	case CHECK_BEFORE:
		return found >= c->n / 2;
	case CHECK_AT_MOST:
		return found <= 2 * c->n + 2;
	case CHECK_NONE_AFTER:
		return found <= 2;
	case CHECK_MAX_REGISTERS:
		return found <= c->n + c->n / 2;
	default:
		return true;
	}
}

/*
 * Every row's near miss (fixtures/exercises/ID.nearmiss.cu): a kernel
 * that does the work right and the technique one step short (unrolled
 * by four where eight is asked, four shuffles where five, ...).  It
 * passes every check of the work and fails at least one of the
 * technique, and every check of the technique it fails it fails by
 * little (near_bound): a bound of the table moved toward what the near
 * miss has, which the starting file (far from every bound) and the
 * solutions (past it) would not notice, lets the near miss pass and
 * fails this test.
 */
START_TEST(every_row_near_miss_fails_near)
{
	char failed[8192] = "";

	fresh_dir();
	for (int i = 0; i < exercise_def_count; i++) {
		const struct exercise_def *d = &exercise_defs[i];
		char *name = xasprintf("%s.nearmiss.cu", d->id), *path = fixture_path(name);
		struct exercise_verdict v;
		int technique_failed = 0;

		if (check_file(d, path, true, &v) == 0 && exercise_dram_check(d) != NULL) {
			run_judged(d, name, &v);
		} else if (have_cuobjdump()) {
			for (int k = 0; k < v.count; k++) {
				char text[160];

				if (v.checks[k].passed)
					continue;
				exercise_check_describe(&v.checks[k], text, sizeof text);
				if (d->checks[k].work)
					snprintf(failed + strlen(failed), sizeof failed - strlen(failed),
					    "\n%s fails its check %d of the work (%s): %s", name, k + 1, text,
					    v.checks[k].message);
				else if (!near_bound(&d->checks[k], v.checks[k].found))
					snprintf(failed + strlen(failed), sizeof failed - strlen(failed),
					    "\n%s is no near miss of its check %d (%s)", name, k + 1, text);
				technique_failed += !d->checks[k].work;
			}
			if (technique_failed == 0)
				snprintf(failed + strlen(failed), sizeof failed - strlen(failed),
				    "\n%s passes every check of the technique: is a bound too loose?", name);
		}
		free(path);
		free(name);
	}
	ck_assert_msg(failed[0] == '\0', "%s", failed);
}
END_TEST

/*
 * A kernel with the right signature and an empty body does none of the
 * work: it fails a check of the work, not only one of the technique.
 */
START_TEST(every_row_empty_kernel_fails)
{
	char failed[1024] = "";

	fresh_dir();
	for (int i = 0; i < exercise_def_count; i++) {
		const struct exercise_def *d = &exercise_defs[i];
		char *path = empty_kernel(d);
		struct exercise_verdict v;
		int work_failed = 0;

		if (check_file(d, path, false, &v) == 0) {
			for (int k = 0; k < v.count; k++)
				work_failed += d->checks[k].work && !v.checks[k].passed;
			if (work_failed == 0)
				snprintf(failed + strlen(failed), sizeof failed - strlen(failed), " %s", d->id);
		}
		free(path);
	}
	ck_assert_msg(failed[0] == '\0', "an empty kernel fails no check of the work of:%s", failed);
}
END_TEST

/*
 * The check of device-memory reads at its bound, on figures as ncu would
 * give them at its two sizes: none read, a hint that passes; exactly 1.45
 * times ours at both, at the bound, passes; a byte more at one fails
 * (whole percent, rounded up); the worse of the two sizes is the one
 * judged and shown, whichever it is.
 */
START_TEST(dram_check_at_its_bound)
{
	const struct exercise_def *d = exercise_def_find("tile-order");
	const struct exercise_check *c = d != NULL ? exercise_dram_check(d) : NULL;
	struct exercise_result r = { .ok = true, .sass = (char *)"" };
	unsigned long long sizes[EXERCISE_DRAM_SIZES];
	struct exercise_verdict v;
	struct error e;
	char text[256];
	int k;

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(c->n, 145);
	exercise_dram_sizes(c, sizes);
	ck_assert(sizes[0] == 7936 && sizes[1] == 8192);
	k = (int)(c - d->checks);
	ck_assert_int_eq(exercise_check_sass(d, &r, &v, &e), 0);
	ck_assert(v.checks[k].hint && v.checks[k].passed);
	ck_assert_ptr_null(exercise_dram_judged(&v));
	exercise_check_describe(&v.checks[k], text, sizeof text);
	ck_assert_msg(strstr(text, "at n = 7936 and 8192") && strstr(text, "judged as it runs"), "%s", text);

	/* one size read, the other not: not judged */
	r.dram_ours[1] = 1.5e9;
	r.dram_yours[1] = 9e9;
	ck_assert_int_eq(exercise_check_sass(d, &r, &v, &e), 0);
	ck_assert(v.checks[k].hint && v.checks[k].passed);

	r.dram_ours[0] = 1.4e9;
	r.dram_yours[0] = 2.03e9;
	r.dram_yours[1] = 2.175e9;
	ck_assert_int_eq(exercise_check_sass(d, &r, &v, &e), 0);
	ck_assert(!v.checks[k].hint && v.checks[k].passed);
	ck_assert_ptr_eq(exercise_dram_judged(&v), &v.checks[k]);
	ck_assert_int_eq(v.checks[k].found, 145);

	r.dram_yours[1] = 2.175e9 + 1;
	ck_assert_int_eq(exercise_check_sass(d, &r, &v, &e), 0);
	ck_assert(!v.checks[k].passed && !v.passed);
	ck_assert_int_eq(v.checks[k].found, 146);
	ck_assert_str_eq(v.checks[k].message, _(c->message));

	r.dram_yours[0] = 2.176e9;
	r.dram_yours[1] = 2.385e9;
	ck_assert_int_eq(exercise_check_sass(d, &r, &v, &e), 0);
	ck_assert_int_eq(v.checks[k].found, 159);
	exercise_check_describe(&v.checks[k], text, sizeof text);
	ck_assert_msg(strstr(text, "found 159% at 8192 (2.38 GB against 1.50 GB)") != NULL, "%s", text);

	r.dram_yours[0] = 2.842e9;
	r.dram_yours[1] = 1.49e9;
	ck_assert_int_eq(exercise_check_sass(d, &r, &v, &e), 0);
	ck_assert(!v.checks[k].passed);
	exercise_check_describe(&v.checks[k], text, sizeof text);
	ck_assert_msg(strstr(text, "found 203% at 7936 (2.84 GB against 1.40 GB)") != NULL, "%s", text);

	r.dram_yours[0] = 1.16e9;
	r.dram_yours[1] = 1.237e9;
	ck_assert_int_eq(exercise_check_sass(d, &r, &v, &e), 0);
	ck_assert(v.checks[k].passed);
	ck_assert_int_eq(v.checks[k].found, 83);

	/* the same share at both sizes: the first is named */
	r.dram_yours[0] = 2.8e9;
	r.dram_yours[1] = 3.0e9;
	ck_assert_int_eq(exercise_check_sass(d, &r, &v, &e), 0);
	ck_assert(v.checks[k].found == 200 && v.checks[k].size == 7936);
}
END_TEST

/* A target built for sm_90a alone is compiled for sm_90a whatever the views show; others as asked. */
START_TEST(sm_90a_targets_get_sm_90a)
{
	const struct exercise_def *hopper = exercise_def_find("warp-specialize"), *mma = exercise_def_find("cp-async");

	ck_assert_ptr_nonnull(hopper);
	ck_assert_ptr_nonnull(mma);
	ck_assert_str_eq(exercise_arch(hopper, "sm_90"), "sm_90a");
	ck_assert_str_eq(exercise_arch(hopper, "sm_86"), "sm_90a");
	ck_assert_str_eq(exercise_arch(mma, "sm_86"), "sm_86");
	ck_assert_str_eq(exercise_arch(float4_def(), "sm_90"), "sm_90");
}
END_TEST

/* Asked for another GPU's architecture (a GPU that is not Hopper), NVRTC still compiles it for sm_90a. */
START_TEST(sm_90a_target_compiles_for_sm_90a)
{
	const struct exercise_def *hopper = exercise_def_find("warp-specialize");
	char *start = exercise_starting_path("warp-specialize");
	struct exercise_result r;
	struct error e;

	fresh_dir();
	ck_assert_msg(exercise_compile_file(hopper, start, "sm_80", dir, &r, &e) == 0, "%s", e.msg);
	ck_assert_msg(r.ok, "%s does not compile:\n%s", start, r.diagnostics);
	ck_assert_str_eq(r.arch, "sm_90a");
	ck_assert_ptr_nonnull(strstr(r.cubin_path, ".sm_90a.cubin"));
	exercise_result_free(&r);
	free(start);
}
END_TEST

START_TEST(solution_text)
{
	struct error e;
	char *text = exercise_solution("float4", &e);

	ck_assert_msg(text != NULL, "%s", e.msg);
	ck_assert_ptr_nonnull(strstr(text, "extern \"C\" __global__ void vec_add_float4("));
	free(text);
	ck_assert_ptr_null(exercise_solution("nope", &e));
}
END_TEST

/*
 * The verdict of one check on SASS text (no compile): a row of its own, as
 * the table writes one; counts (may be NULL) as ncu read them, one a line.
 */
static int judged_ran(const char *sass, const double *counts, int ncounts, struct exercise_check check,
    bool *passed, bool *hint)
{
	static struct exercise_def def = { .id = "judge", .target = "judged" };
	struct exercise_result r = { .ok = true, .sass = (char *)sass, .sass_counts = counts,
	    .nsass_counts = ncounts };
	struct exercise_verdict v;
	struct error e;

	def.checks[0] = check;
	def.checks[1] = (struct exercise_check){ CHECK_END };
	ck_assert_int_eq(exercise_check_sass(&def, &r, &v, &e), 0);
	*passed = v.passed;
	if (hint != NULL)
		*hint = v.checks[0].hint;
	return v.checks[0].found;
}

static int judged(const char *sass, struct exercise_check check, bool *passed)
{
	return judged_ran(sass, NULL, 0, check, passed, NULL);
}

/*
 * The technique in proportion, as it ran: one float4 load among scalar
 * ones moves few of the bytes.  The share weighs each load by its width
 * and by the threads that ran it; at 90% a kernel whose tail is scalar
 * passes and one whose main loop is scalar fails.  In the compiled code
 * alone it is a hint: shown, never failed.
 */
START_TEST(share_is_judged_as_it_ran)
{
	static const char sass[] =
	    "        /*0000*/                   LDG.E.128 R4, desc[UR4][R2.64] ;\n"
	    "        /*0010*/                   LDG.E R8, desc[UR4][R2.64] ;\n"
	    "        /*0020*/                   LD.E R9, desc[UR4][R2.64] ;\n"
	    "        /*0030*/                   LDS R10, [R0] ;\n"
	    "        /*0040*/                   EXIT ;\n";
	const struct exercise_check wide = { CHECK_SHARE, "LDG.E.128", "LDG", 90 };
	/* the main loop wide, a tail of scalars: 16 * 1000 bytes against 4 * (30 + 14) */
	const double tail[] = { 1000, 30, 14, 5000, 1 };
	/* one float4 among scalars: 16 * 32 against 4 * (100000 + 100000) */
	const double one[] = { 32, 100000, 100000, 5000, 1 };
	/* just under and just over 90%: 16 * 9 against 4 * 4 and 4 * 3 */
	const double under[] = { 9, 4, 0, 0, 1 }, over[] = { 9, 3, 0, 0, 1 };
	bool ok, hint;

	ck_assert_int_eq(judged_ran(sass, tail, 5, wide, &ok, &hint), 98);
	ck_assert(ok && !hint);
	ck_assert_int_eq(judged_ran(sass, one, 5, wide, &ok, &hint), 0);
	ck_assert(!ok && !hint);
	ck_assert_int_eq(judged_ran(sass, under, 5, wide, &ok, &hint), 90);
	ck_assert(ok);
	ck_assert_int_eq(judged_ran(sass, over, 5, wide, &ok, &hint), 92);
	ck_assert(ok);
	{
		const double below[] = { 9, 5, 0, 0, 1 };	/* 144 of 164: 87% */

		ck_assert_int_eq(judged_ran(sass, below, 5, wide, &ok, &hint), 87);
		ck_assert(!ok);
	}
	/* the compiled code alone: 16 of 24 bytes, a hint that never fails */
	ck_assert_int_eq(judged_ran(sass, NULL, 0, wide, &ok, &hint), 66);
	ck_assert(ok && hint);
}
END_TEST

/*
 * A check counts what the task means, however the student wrote it: a
 * load through a generic pointer (LD) is a global load of its width, a
 * store (ST) a global store, a generic atomic an ATOMG, and a barrier
 * that reduces (BAR.RED, __syncthreads_or(0)) is a barrier.  Shared and
 * local accesses, and a barrier's arrival alone (BAR.ARV), are not.
 */
START_TEST(judge_counts_what_the_check_means)
{
	static const char sass[] =
	    "        /*0000*/                   LD.E.128 R4, desc[UR4][R2.64] ;\n"
	    "        /*0010*/                   LDG.E R8, desc[UR4][R2.64] ;\n"
	    "        /*0020*/                   LDS R9, [R0] ;\n"
	    "        /*0030*/                   LDSM.16.M88.4 R12, [R0] ;\n"
	    "        /*0040*/                   BAR.ARV 0x0, 0x40 ;\n"
	    "        /*0050*/                   LD.E R10, desc[UR4][R2.64+0x10] ;\n"
	    "        /*0060*/                   BAR.RED.OR.DEFER_BLOCKING 0x0, !PT ;\n"
	    "        /*0070*/                   LDG.E R11, desc[UR4][R2.64+0x20] ;\n"
	    "        /*0080*/                   ST.E.64 desc[UR4][R6.64], R4 ;\n"
	    "        /*0090*/                   STS [R0], R4 ;\n"
	    "        /*00a0*/                   ATOM.E.ADD.STRONG.GPU PT, R3, desc[UR4][R6.64], R3 ;\n"
	    "        /*00b0*/                   EXIT ;\n";
	bool ok;

	ck_assert_int_eq(judged(sass, (struct exercise_check){ CHECK_AT_LEAST, "LDG.E.128", NULL, 1 }, &ok), 1);
	ck_assert(ok);
	ck_assert_int_eq(judged(sass, (struct exercise_check){ CHECK_AT_MOST, "LDG", NULL, 3 }, &ok), 4);
	ck_assert(!ok);
	/* just inside: the same four loads under a bound of four */
	judged(sass, (struct exercise_check){ CHECK_AT_MOST, "LDG", NULL, 4 }, &ok);
	ck_assert(ok);
	ck_assert_int_eq(judged(sass, (struct exercise_check){ CHECK_AT_LEAST, "STG.E.64", NULL, 1 }, &ok), 1);
	ck_assert_int_eq(judged(sass, (struct exercise_check){ CHECK_AT_LEAST, "STG", NULL, 1 }, &ok), 1);
	ck_assert_int_eq(judged(sass, (struct exercise_check){ CHECK_AT_LEAST, "ATOMG", NULL, 1 }, &ok), 1);
	ck_assert_int_eq(judged(sass, (struct exercise_check){ CHECK_AT_LEAST, "BAR.SYNC", NULL, 1 }, &ok), 1);
	ck_assert(ok);
	/* the loads before the first barrier stop at BAR.RED, not at BAR.ARV, nor at the end */
	ck_assert_int_eq(judged(sass, (struct exercise_check){ CHECK_BEFORE, "LDG.E", "BAR.SYNC", 3 }, &ok), 3);
	ck_assert(ok);
	ck_assert_int_eq(judged(sass, (struct exercise_check){ CHECK_BEFORE, "LDG.E", "BAR.SYNC", 4 }, &ok), 3);
	ck_assert(!ok);
	ck_assert_int_eq(judged(sass, (struct exercise_check){ CHECK_NONE_AFTER, "LDG", "BAR.SYNC" }, &ok), 1);
	ck_assert(!ok);
	/* alternatives */
	ck_assert_int_eq(judged(sass, (struct exercise_check){ CHECK_AT_LEAST, "STS|LDS", NULL, 2 }, &ok), 2);
	ck_assert(ok);
	ck_assert(exercise_op_is_valid("USHF.L|SHF.L"));
	ck_assert(!exercise_op_is_valid("USHF.L|"));
	ck_assert(!exercise_op_is_valid("USHF.L||SHF.L"));
	ck_assert(!exercise_op_is_valid("ushf"));
}
END_TEST

/*
 * A check .in_loop counts only what lies between a backward branch's
 * target and the branch: a stride built as 1u << s before the loop is no
 * doubling, a shift in the loop is; the listing's final self-branch is no
 * loop.
 */
START_TEST(in_loop_counts_inside_loops_only)
{
	static const char before[] =
	    "        /*0000*/                   USHF.L.U32 UR4, UR5, 0x1, URZ ;\n"
	    "        /*0010*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
	    "        /*0020*/                   LDS R2, [R0] ;\n"
	    "        /*0030*/                   USHF.R.U32.HI UR4, URZ, 0x1, UR4 ;\n"
	    "        /*0040*/               @P0 BRA 0x10 ;\n"
	    "        /*0050*/                   SHF.L.U32 R3, R2, 0x2, RZ ;\n"
	    "        /*0060*/                   EXIT ;\n"
	    "        /*0070*/                   BRA 0x70;\n";
	static const char inside[] =
	    "        /*0000*/                   MOV R1, c[0x0][0x28] ;\n"
	    "        /*0010*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
	    "        /*0020*/                   SHF.L.U32 R4, R4, 0x1, RZ ;\n"
	    "        /*0030*/                   BRA.U !UP0, 0x10 ;\n"
	    "        /*0040*/                   EXIT ;\n";
	const struct exercise_check doubled = { CHECK_AT_MOST, "USHF.L|SHF.L", NULL, 0, .in_loop = true };
	const struct exercise_check halved = { CHECK_AT_LEAST, "USHF.R|SHF.R", NULL, 1, .in_loop = true };
	bool ok;

	ck_assert_int_eq(judged(before, doubled, &ok), 0);
	ck_assert(ok);
	ck_assert_int_eq(judged(before, halved, &ok), 1);
	ck_assert(ok);
	/* the same shifts counted over the whole kernel */
	ck_assert_int_eq(judged(before, (struct exercise_check){ CHECK_AT_MOST, "USHF.L|SHF.L", NULL, 0 }, &ok), 2);
	ck_assert(!ok);
	ck_assert_int_eq(judged(inside, doubled, &ok), 1);
	ck_assert(!ok);
	ck_assert_int_eq(judged(inside, halved, &ok), 0);
	ck_assert(!ok);
}
END_TEST

/*
 * Each kind of check at its edge: a count of exactly n passes "at least"
 * and "at most" n, one more asked or found fails; a register count at the
 * bound passes and one over fails (and none read is an error, never a
 * pass); a parameter is read when its own name is loaded, not one that
 * starts the same; a loop runs from its target to its branch, both
 * included; a share of nothing moved is whole; the tally counts the
 * checks there are, hints left out.
 */
START_TEST(judge_at_every_edge)
{
	static const char sass[] =
	    "        /*0000*/                   LDG.E R8, desc[UR4][R2.64] ;\n"
	    "        /*0010*/                   SHF.L.U32 R4, R4, 0x1, RZ ;\n"
	    "        /*0020*/                   LDG.E R9, desc[UR4][R2.64] ;\n"
	    "        /*0030*/                   LDG.E R10, desc[UR4][R2.64] ;\n"
	    "        /*0040*/               @P0 BRA 0x10 ;\n"
	    "        /*0050*/                   SHF.L.U32 R5, R5, 0x1, RZ ;\n"
	    "        /*0060*/                   EXIT ;\n"
	    "        /*0070*/                   BRA 0x70;\n";
	static struct exercise_def def = { .id = "judge", .target = "judged" };
	struct exercise_result r = { .ok = true, .sass = (char *)sass, .have_resources = true };
	struct exercise_verdict v;
	struct error e;
	int passed, judged_n;
	bool ok;

	ck_assert_int_eq(judged(sass, (struct exercise_check){ CHECK_AT_LEAST, "LDG", NULL, 3 }, &ok), 3);
	ck_assert(ok);
	judged(sass, (struct exercise_check){ CHECK_AT_LEAST, "LDG", NULL, 4 }, &ok);
	ck_assert(!ok);
	judged(sass, (struct exercise_check){ CHECK_AT_MOST, "LDG", NULL, 3 }, &ok);
	ck_assert(ok);
	judged(sass, (struct exercise_check){ CHECK_AT_MOST, "LDG", NULL, 2 }, &ok);
	ck_assert(!ok);

	/* the loop: 0x10 (its target) to 0x40 (its branch); the last line's branch to itself is none */
	ck_assert_int_eq(judged(sass, (struct exercise_check){ CHECK_AT_LEAST, "SHF.L", NULL, 1, .in_loop = true }, &ok), 1);
	ck_assert_int_eq(judged(sass, (struct exercise_check){ CHECK_AT_LEAST, "LDG", NULL, 1, .in_loop = true }, &ok), 2);
	ck_assert_int_eq(judged(sass, (struct exercise_check){ CHECK_AT_LEAST, "BRA", NULL, 1, .in_loop = true }, &ok), 1);

	/* a share of bytes where nothing counts as the other: all of nothing */
	ck_assert_int_eq(judged(sass, (struct exercise_check){ CHECK_SHARE, "LDG.E.128", "LDS", 90 }, &ok), 100);
	ck_assert(ok);

	def.checks[0] = (struct exercise_check){ CHECK_MAX_REGISTERS, NULL, NULL, 64 };
	def.checks[1] = (struct exercise_check){ CHECK_READS_PARAM, NULL, NULL, 2 };
	def.checks[2] = (struct exercise_check){ CHECK_SHARE, "LDG.E.128", "LDG", 90 };	/* a hint: no counts */
	def.checks[3] = (struct exercise_check){ CHECK_END };
	r.resources.registers = 64;
	r.ptx = "ld.param.u64 %rd1, [judged_param_1];";
	ck_assert_int_eq(exercise_check_sass(&def, &r, &v, &e), 0);
	ck_assert(v.passed && v.count == 3 && v.checks[0].found == 64 && v.checks[1].found == 1);
	ck_assert(v.checks[2].hint && v.checks[2].passed);
	exercise_verdict_tally(&v, &passed, &judged_n);
	ck_assert_int_eq(judged_n, 2);
	ck_assert_int_eq(passed, 2);
	r.resources.registers = 65;
	r.ptx = "ld.param.u32 %r1, [judged_param_1+4];";
	ck_assert_int_eq(exercise_check_sass(&def, &r, &v, &e), 0);
	ck_assert(!v.passed && !v.checks[0].passed && v.checks[1].passed);
	exercise_verdict_tally(&v, &passed, &judged_n);
	ck_assert(judged_n == 2 && passed == 1);
	/* param 11 starts as param 1 does: not a read of it */
	r.resources.registers = 64;
	r.ptx = "ld.param.u64 %rd1, [judged_param_10];";
	ck_assert_int_eq(exercise_check_sass(&def, &r, &v, &e), 0);
	ck_assert(!v.passed && v.checks[1].found == 0);
	r.have_resources = false;
	ck_assert_int_eq(exercise_check_sass(&def, &r, &v, &e), -1);
	ck_assert_msg(strstr(e.msg, "no register count") != NULL, "%s", e.msg);
}
END_TEST

static Suite *make_suite(int with_nvrtc)
{
	Suite *s = suite_create("exercise");
	TCase *tc = tcase_create("files");

	tcase_add_checked_fixture(tc, NULL, remove_dir);

	tcase_add_test(tc, working_copy_is_never_overwritten);
	tcase_add_test(tc, reset_keeps_a_backup);
	tcase_add_test(tc, default_directory);
	tcase_add_test(tc, hints_one_at_a_time);
	tcase_add_test(tc, list_joins_lessons_and_progress);
	tcase_add_test(tc, table_rows_are_well_formed);
	tcase_add_test(tc, judge_counts_what_the_check_means);
	tcase_add_test(tc, in_loop_counts_inside_loops_only);
	tcase_add_test(tc, judge_at_every_edge);
	tcase_add_test(tc, share_is_judged_as_it_ran);
	tcase_add_test(tc, dram_check_at_its_bound);
	tcase_add_test(tc, solution_text);
	tcase_add_test(tc, sm_90a_targets_get_sm_90a);
	suite_add_tcase(s, tc);
	if (with_nvrtc) {
		tc = tcase_create("compile");
		tcase_add_checked_fixture(tc, NULL, remove_dir);
		tcase_set_timeout(tc, 180);
		tcase_add_test(tc, float4_passes_scalar_fails);
		tcase_add_test(tc, every_kind_of_check);
		tcase_add_test(tc, missing_symbol_is_said);
		tcase_add_test(tc, compile_errors_reported);
		tcase_add_test(tc, compile_by_id_or_path);
		tcase_add_test(tc, source_is_a_small_regular_file);
		tcase_add_test(tc, nul_byte_is_an_error);
		tcase_add_test(tc, file_cubin_goes_to_the_cache);
		tcase_add_test(tc, reversed_build_numbers_blocks_from_the_end);
		tcase_add_test(tc, every_row_solution_passes_start_fails);
		tcase_add_test(tc, every_row_other_solution_passes);
		tcase_add_test(tc, every_row_near_miss_fails_near);
		tcase_add_test(tc, every_row_empty_kernel_fails);
		tcase_add_test(tc, sm_90a_target_compiles_for_sm_90a);
		suite_add_tcase(s, tc);
	}
	return s;
}

int main(void)
{
	struct error e;
	int with_nvrtc = nvrtc_load(&e) == 0;
	SRunner *sr;
	int failed;

	if (!with_nvrtc)
		fprintf(stderr, "skip: %s\n", e.msg);
	sr = srunner_create(make_suite(with_nvrtc));
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	if (failed)
		return EXIT_FAILURE;
	/* the tests that read SASS returned early without cuobjdump: not a pass */
	return with_nvrtc && have_cuobjdump() ? EXIT_SUCCESS : 77;
}

/* NVRTC and the cubin's SASS: compiling, errors at file:line:col, the tools run without a shell. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_main.h"
#include "exercise_fixtures.h"
#include "cubin.h"
#include "exercise_table.h"
#include "nvrtc.h"
#include "paths.h"
#include "sass.h"
#include "toolkit.h"

static char *fixture(const char *name, char **path)
{
	char *text;

	*path = fixture_path(name);
	text = file_read(*path, NULL);
	ck_assert_msg(text != NULL, "cannot read %s", *path);
	return text;
}

/* ---- the log, without NVRTC -------------------------------------------------------- */

static const char canned_log[] =
    "k.cu(7): error: identifier \"yy\" is undefined\n"
    "  \t\tz[i] = x[i] + yy[i];\n"
    "  \t\t              ^\n"
    "\n"
    "k.cu(5): warning #177-D: variable \"unused\" was declared but never referenced\n"
    "  \tint unused = 3;\n"
    "  \t    ^\n"
    "\n"
    "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
    "\n"
    "k.cu(1): error: expression must have class type but it has type \"float\"\n"
    "  template <typename T> __device__ T f(T a) { return a.foo; }\n"
    "                                                     ^\n"
    "          detected during instantiation of \"T f(T) [with T=float]\" at line 2\n"
    "\n"
    "/usr/include/x.h(3): catastrophic error: cannot open source file \"y.h\"\n"
    "  #include \"y.h\"\n"
    "                ^\n"
    "\n"
    "3 errors detected in the compilation of \"k.cu\".\n";

START_TEST(log_parsed)
{
	const char *source = "template <typename T> __device__ T f(T a) { return a.foo; }\n"
	    "2\n3\n4\n\tint unused = 3;\n6\n\t\tz[i] = x[i] + yy[i];\n";
	struct nvrtc_diags errors, warnings;

	nvrtc_parse_log(canned_log, "k.cu", source, 1, &errors, &warnings);
	ck_assert_int_eq(errors.count, 3);
	ck_assert_int_eq(warnings.count, 1);
	ck_assert_str_eq(errors.d[0].file, "k.cu");
	ck_assert_int_eq(errors.d[0].line, 7);
	ck_assert_int_eq(errors.d[0].column, 17);
	ck_assert_str_eq(errors.d[0].message, "identifier \"yy\" is undefined");
	ck_assert_str_eq(errors.d[0].source_line, "\t\tz[i] = x[i] + yy[i];");
	ck_assert_ptr_null(errors.d[0].note);
	ck_assert_int_eq(errors.d[1].line, 1);
	ck_assert_int_eq(errors.d[1].column, 52);
	ck_assert_str_eq(errors.d[1].note, "detected during instantiation of \"T f(T) [with T=float]\" at line 2");
	/* another file's line comes from the log */
	ck_assert_str_eq(errors.d[2].file, "/usr/include/x.h");
	ck_assert_str_eq(errors.d[2].message, "cannot open source file \"y.h\"");
	ck_assert_str_eq(errors.d[2].source_line, "#include \"y.h\"");
	ck_assert_int_eq(errors.d[2].column, 15);
	ck_assert_int_eq(warnings.d[0].severity, NVRTC_DIAG_WARNING);
	ck_assert_int_eq(warnings.d[0].line, 5);
	ck_assert_int_eq(warnings.d[0].column, 6);
	ck_assert_str_eq(warnings.d[0].message,
	    "variable \"unused\" was declared but never referenced [#177-D]");
	nvrtc_diags_free(&errors);
	nvrtc_diags_free(&warnings);
}
END_TEST

/* A failure in no file(line) form is still one error, with NVRTC's words. */
START_TEST(log_without_lines)
{
	struct nvrtc_diags errors, warnings;

	nvrtc_parse_log("nvrtc: error: invalid value for --gpu-architecture (-arch)\n\n", "k.cu", "", 1,
	    &errors, &warnings);
	ck_assert_int_eq(errors.count, 1);
	ck_assert_int_eq(errors.d[0].line, 0);
	ck_assert_str_eq(errors.d[0].message, "nvrtc: error: invalid value for --gpu-architecture (-arch)");
	nvrtc_diags_free(&errors);
	nvrtc_diags_free(&warnings);
	/* an empty log of a success is nothing */
	nvrtc_parse_log("", "k.cu", "", 0, &errors, &warnings);
	ck_assert_int_eq(errors.count + warnings.count, 0);
}
END_TEST

/* gcc's form, the caret under the column: tabs kept, a Chinese character two columns. */
START_TEST(format_like_gcc)
{
	struct nvrtc_diag d = { NVRTC_DIAG_ERROR, "k.cu", 7, 17, "identifier \"yy\" is undefined",
		"\t\tz[i] = x[i] + yy[i];", NULL };
	struct nvrtc_diag wide = { NVRTC_DIAG_WARNING, "k.cu", 2, 14, "w", "/* 汉字 */ yy", "a note" };
	struct strbuf b = { 0 };

	nvrtc_format_diag(&d, &b);
	ck_assert_str_eq(b.s, "k.cu:7:17: error: identifier \"yy\" is undefined\n"
	    "\t\tz[i] = x[i] + yy[i];\n"
	    "\t\t              ^\n");
	strbuf_free(&b);
	nvrtc_format_diag(&wide, &b);
	ck_assert_str_eq(b.s, "k.cu:2:14: warning: w\n/* 汉字 */ yy\n"
	    "           ^\nk.cu:2:14: note: a note\n");
	strbuf_free(&b);
}
END_TEST

/*
 * The student's bytes never drive the terminal: an escape byte (or
 * another control character) in the line, the message or the note shows
 * as \x1b, the caret still under its column.
 */
START_TEST(control_characters_escaped)
{
	struct nvrtc_diag d = { NVRTC_DIAG_ERROR, "k.cu", 3, 12, "unrecognized token \"\x1b\"",
		"\x1b[2J\x1b[31m z\r = 1 \x7f;", "a C1 control: \xc2\x9b" };
	struct strbuf b = { 0 };

	nvrtc_format_diag(&d, &b);
	ck_assert_str_eq(b.s, "k.cu:3:12: error: unrecognized token \"\\x1b\"\n"
	    "\\x1b[2J\\x1b[31m z\\x0d = 1 \\x7f;\n"
	    "                 ^\n"
	    "k.cu:3:12: note: a C1 control: \\xc2\\x9b\n");
	strbuf_free(&b);
}
END_TEST

/* ---- NVRTC itself --------------------------------------------------------------------- */

START_TEST(good_file_compiles)
{
	char *path, *text = fixture("float4.cu", &path);
	struct nvrtc_result r;
	struct error e;
	char version[32];

	ck_assert_msg(nvrtc_version(version, sizeof version, &e) == 0, "%s", e.msg);
	ck_assert_int_ge(atoi(version), 12);
	ck_assert_msg(nvrtc_compile(text, path, "sm_90", &r, &e) == 0, "%s", e.msg);
	ck_assert_msg(r.ok, "%s", r.log);
	ck_assert_int_eq(r.errors.count, 0);
	ck_assert_int_eq(r.warnings.count, 0);
	ck_assert_ptr_nonnull(strstr(r.ptx, ".entry vec_add_float4("));
	ck_assert_ptr_nonnull(strstr(r.ptx, ".target sm_90"));
	ck_assert_uint_gt(r.cubin_size, 64);
	ck_assert_mem_eq(r.cubin, "\177ELF", 4);
	nvrtc_result_free(&r);
	free(text);
	free(path);
}
END_TEST

START_TEST(errors_say_where)
{
	char *path, *text = fixture("syntax.cu", &path);
	struct nvrtc_result r;
	struct error e;
	char *formatted, *want;

	ck_assert_msg(nvrtc_compile(text, path, "sm_90", &r, &e) == 0, "%s", e.msg);
	ck_assert(!r.ok);
	ck_assert_ptr_null(r.cubin);
	ck_assert_ptr_null(r.ptx);
	ck_assert_int_eq(r.errors.count, 2);
	ck_assert_str_eq(r.errors.d[0].file, path);
	ck_assert_int_eq(r.errors.d[0].line, 7);
	ck_assert_int_eq(r.errors.d[0].column, 17);
	ck_assert_str_eq(r.errors.d[0].source_line, "\t\tz[i] = x[i] + yy[i];");
	ck_assert_int_eq(r.errors.d[1].line, 9);
	ck_assert_int_eq(r.errors.d[1].column, 2);
	ck_assert_str_eq(r.errors.d[1].message, "expected a \";\"");
	/* the warnings apart: "unused" (line 5) and "w" (line 8) */
	ck_assert_int_eq(r.warnings.count, 2);
	ck_assert_int_eq(r.warnings.d[0].line, 5);
	ck_assert_int_eq(r.warnings.d[0].column, 6);
	formatted = nvrtc_format_diags(&r.errors);
	want = xasprintf("%s:7:17: error: identifier \"yy\" is undefined\n"
	    "\t\tz[i] = x[i] + yy[i];\n\t\t              ^\n"
	    "%s:9:2: error: expected a \";\"\n\tz[0] = w;\n\t^\n", path, path);
	ck_assert_str_eq(formatted, want);
	free(formatted);
	free(want);
	nvrtc_result_free(&r);
	free(text);
	free(path);
}
END_TEST

START_TEST(warnings_do_not_fail)
{
	char *path, *text = fixture("warning.cu", &path);
	struct nvrtc_result r;
	struct error e;

	ck_assert_msg(nvrtc_compile(text, path, "sm_90", &r, &e) == 0, "%s", e.msg);
	ck_assert(r.ok);
	ck_assert_int_eq(r.errors.count, 0);
	ck_assert_int_eq(r.warnings.count, 1);
	ck_assert_int_eq(r.warnings.d[0].line, 4);
	ck_assert_ptr_nonnull(strstr(r.warnings.d[0].message, "\"unused\""));
	nvrtc_result_free(&r);
	free(text);
	free(path);
}
END_TEST

/* The toolkit's headers: cooperative groups, libcu++ and CUB, as nvcc finds them. */
START_TEST(toolkit_headers_found)
{
	static const char *const sources[] = {
		"#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
		"extern \"C\" __global__ void k(float *p) { cg::thread_block b = cg::this_thread_block(); "
		"p[b.thread_rank()] = 1.0f; }\n",
		"#include <cuda/std/cstdint>\n#include <cuda/std/limits>\n"
		"extern \"C\" __global__ void k(cuda::std::uint32_t *p) { p[0] = cuda::std::numeric_limits<int>::max(); }\n",
		"#include <cub/cub.cuh>\n"
		"extern \"C\" __global__ void k(const float *in, float *out) {\n"
		"  typedef cub::BlockReduce<float, 128> R;\n  __shared__ typename R::TempStorage t;\n"
		"  float s = R(t).Sum(in[threadIdx.x]);\n  if (threadIdx.x == 0) *out = s;\n}\n",
	};

	for (size_t i = 0; i < ARRAY_LEN(sources); i++) {
		struct nvrtc_result r;
		struct error e;
		char *diags;

		ck_assert_msg(nvrtc_compile(sources[i], "k.cu", "sm_90", &r, &e) == 0, "%s", e.msg);
		diags = nvrtc_format_diags(&r.errors);
		ck_assert_msg(r.ok, "source %zu does not compile:\n%s", i, diags);
		free(diags);
		nvrtc_result_free(&r);
	}
}
END_TEST

/* #include <stdio.h> for printf: NVRTC has no host headers, and the diagnostics say what to do. */
START_TEST(stdio_include_explained)
{
	static const char *const headers[] = { "<stdio.h>", "<cstdio>" };

	for (size_t i = 0; i < ARRAY_LEN(headers); i++) {
		char *source = xasprintf("#include %s\nextern \"C\" __global__ void k() { printf(\"hi\\n\"); }\n",
		    headers[i]), *diags;
		struct nvrtc_result r;
		struct error e;

		ck_assert_msg(nvrtc_compile(source, "k.cu", "sm_90", &r, &e) == 0, "%s", e.msg);
		ck_assert(!r.ok);
		diags = nvrtc_format_diags(&r.errors);
		ck_assert_msg(strstr(diags, "k.cu:1:") == diags, "%s", diags);
		ck_assert_msg(strstr(diags, "note: printf needs no #include in device code: NVRTC has no host headers; "
		    "delete this line") != NULL, "%s", diags);
		free(diags);
		nvrtc_result_free(&r);
		free(source);
	}
}
END_TEST

START_TEST(bad_architectures)
{
	struct nvrtc_result r;
	struct error e;

	ck_assert_int_ne(nvrtc_compile("", "k.cu", "90", &r, &e), 0);
	ck_assert_msg(strstr(e.msg, "'90' is not a GPU architecture") != NULL, "%s", e.msg);
	ck_assert_int_ne(nvrtc_compile("", "k.cu", "sm_9x", &r, &e), 0);
	/* well formed, but no NVRTC compiles for it */
	ck_assert_int_ne(nvrtc_compile("", "k.cu", "sm_11", &r, &e), 0);
	ck_assert_msg(strstr(e.msg, "cannot compile for sm_11") != NULL, "%s", e.msg);
	nvrtc_result_free(&r);
}
END_TEST

/* $CUDATUTOR_NVRTC names the library, and only it is tried. */
START_TEST(library_named_by_environment)
{
	const char *fork_mode = getenv("CK_FORK");
	struct error e;

	if (fork_mode != NULL && strcmp(fork_mode, "no") == 0)
		return;		/* NVRTC is loaded already in this process */
	setenv("CUDATUTOR_NVRTC", "/nonexistent/libnvrtc.so", 1);
	ck_assert_int_ne(nvrtc_load(&e), 0);
	ck_assert_msg(strstr(e.msg, "CUDATUTOR_NVRTC=/nonexistent/libnvrtc.so cannot be loaded") != NULL,
	    "%s", e.msg);
	unsetenv("CUDATUTOR_NVRTC");
	ck_assert_msg(nvrtc_load(&e) == 0, "%s", e.msg);
}
END_TEST

/* ---- the cubin through cuobjdump and nvdisasm -------------------------------------------- */

START_TEST(cubin_read_back)
{
	char *path, *text = fixture("float4.cu", &path), *sass = NULL, *cubin;
	char dir[] = "/tmp/cudatutor-test-nvrtc-XXXXXX";
	struct nvrtc_result r;
	struct kernel_resources res;
	struct sass_listing l;
	struct error e;
	int found = 0, *lines = NULL, nlines = 0, in_file = 0;

	if (!have_cuobjdump())
		return;
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_msg(nvrtc_compile(text, path, "sm_90", &r, &e) == 0 && r.ok, "%s", e.msg);
	cubin = xasprintf("%s/float4.cubin", dir);
	ck_assert_msg(cubin_write(cubin, r.cubin, r.cubin_size, &e) == 0, "%s", e.msg);
	ck_assert_msg(cubin_sass(cubin, "vec_add_float4", "sm_90", &sass, &e) == 0, "%s", e.msg);
	ck_assert_ptr_nonnull(sass);
	sass_parse(sass, &l);
	ck_assert_int_ge(sass_count(&l, "LDG.E.128"), 2);
	ck_assert_int_ge(sass_count(&l, "STG.E.128"), 1);
	/* only this kernel's SASS: fill's stores are not in it */
	ck_assert_int_eq(sass_count(&l, "STG.E") - sass_count(&l, "STG.E.128"), 1);
	free(sass);
	ck_assert_msg(cubin_sass(cubin, "vec_add_float", "sm_90", &sass, &e) == 0, "%s", e.msg);
	ck_assert_ptr_null(sass);
	ck_assert_msg(cubin_resources(cubin, "vec_add_float4", &res, &found, &e) == 0, "%s", e.msg);
	ck_assert(found);
	ck_assert_int_gt(res.registers, 4);
	ck_assert_int_lt(res.registers, 256);
	ck_assert_msg(cubin_resources(cubin, "nothing", &res, &found, &e) == 0, "%s", e.msg);
	ck_assert(!found);
	{
		struct error why;
		char *nvdisasm = toolkit_program(TOOLKIT_NVDISASM, &why);

		if (nvdisasm != NULL) {
			ck_assert_msg(cubin_lines(cubin, "vec_add_float4", "sm_90", path, &lines, &nlines, &e) == 0,
			    "%s", e.msg);
			ck_assert_int_eq(nlines, l.count);
			for (int i = 0; i < nlines; i++) {
				ck_assert_int_le(lines[i], 16);
				in_file += lines[i] >= 2;
			}
			ck_assert_int_gt(in_file, nlines / 2);
			free(lines);
			free(nvdisasm);
		}
	}
	sass_listing_free(&l);
	unlink(cubin);
	rmdir(dir);
	free(cubin);
	nvrtc_result_free(&r);
	free(text);
	free(path);
}
END_TEST

/*
 * One nvdisasm -gi -c -pb gives the SASS cuobjdump gives, byte for byte
 * (branch targets as addresses), and the lines nvdisasm -gi gives: the
 * exercises' own solutions, loops and branches, a Hopper one on sm_90a.
 */
START_TEST(one_disassembly_for_both)
{
	static const struct { const char *id, *arch; } cases[] = {
		{ "unroll8", "sm_90" }, { "interleaved", "sm_90" }, { "bitpack-register", "sm_90" },
		{ "blocktile-2d", "sm_90" }, { "warp-specialize", "sm_90a" },
	};
	char dir[] = "/tmp/cudatutor-test-nvrtc-XXXXXX";
	struct error e, why;
	char *nvdisasm;

	if (!have_cuobjdump() || (nvdisasm = toolkit_program(TOOLKIT_NVDISASM, &why)) == NULL)
		return;
	free(nvdisasm);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct exercise_def *def = exercise_def_find(cases[i].id);
		char *rel = xasprintf("kernels/exercises/%s.solution.cu", cases[i].id), *path = paths_source(rel);
		char *text = file_read(path, NULL), *cubin = xasprintf("%s/%s.cubin", dir, cases[i].id);
		char *one = NULL, *two = NULL;
		int *l1 = NULL, *l2 = NULL, n1 = 0, n2 = 0;
		struct nvrtc_result r;

		ck_assert_ptr_nonnull(def);
		ck_assert_msg(text != NULL, "%s", path);
		ck_assert_msg(nvrtc_compile(text, path, cases[i].arch, &r, &e) == 0 && r.ok, "%s: %s", cases[i].id, e.msg);
		ck_assert_msg(cubin_write(cubin, r.cubin, r.cubin_size, &e) == 0, "%s", e.msg);
		ck_assert_msg(cubin_sass_and_lines(cubin, def->target, cases[i].arch, path, &one, &l1, &n1, &why, &e) == 0,
		    "%s", e.msg);
		ck_assert_msg(cubin_sass(cubin, def->target, cases[i].arch, &two, &e) == 0, "%s", e.msg);
		ck_assert_msg(cubin_lines(cubin, def->target, cases[i].arch, path, &l2, &n2, &e) == 0, "%s", e.msg);
		ck_assert_ptr_nonnull(one);
		ck_assert_msg(strcmp(one, two) == 0, "%s: the SASS differs:\n%s\n---\n%s", cases[i].id, one, two);
		ck_assert_msg(strstr(one, "BRA 0x") != NULL, "%s: no branch to an address:\n%s", cases[i].id, one);
		ck_assert_int_eq(n1, n2);
		ck_assert_int_gt(n1, 0);
		ck_assert(memcmp(l1, l2, (size_t)n1 * sizeof *l1) == 0);
		free(one);
		free(two);
		free(l1);
		free(l2);
		unlink(cubin);
		free(cubin);
		nvrtc_result_free(&r);
		free(text);
		free(path);
		free(rel);
	}
	rmdir(dir);
}
END_TEST

START_TEST(tools_named_by_environment)
{
	const char *old = getenv("CUOBJDUMP");
	char *saved = old ? xstrdup(old) : NULL;
	struct error e;
	char *tool;

	setenv("CUOBJDUMP", "/nonexistent/cuobjdump", 1);
	ck_assert_ptr_null(toolkit_program(TOOLKIT_CUOBJDUMP, &e));
	ck_assert_msg(strstr(e.msg, "CUOBJDUMP=/nonexistent/cuobjdump is not a program") != NULL, "%s", e.msg);
	/* by name, on PATH */
	setenv("NVDISASM", "true", 1);
	tool = toolkit_program(TOOLKIT_NVDISASM, &e);
	ck_assert_msg(tool != NULL, "%s", e.msg);
	ck_assert_ptr_nonnull(strstr(tool, "/true"));
	free(tool);
	unsetenv("NVDISASM");
	if (saved != NULL)
		setenv("CUOBJDUMP", saved, 1);
	else
		unsetenv("CUOBJDUMP");
	free(saved);
}
END_TEST

/* A tool that fails without a word: the error still says so, not "failed on FILE: ". */
START_TEST(silent_failure_is_said)
{
	struct error e;
	char *sass = NULL;

	setenv("CUOBJDUMP", "false", 1);
	ck_assert_int_ne(cubin_sass("/nonexistent.cubin", "k", "sm_90", &sass, &e), 0);
	ck_assert_ptr_null(sass);
	ck_assert_msg(strstr(e.msg, "failed on /nonexistent.cubin: it said nothing") != NULL, "%s", e.msg);
}
END_TEST

START_TEST(programs_run_without_a_shell)
{
	char *echo[] = { "echo", "a;", "$HOME", NULL };
	char *fail[] = { "sh", "-c", "echo out; echo err >&2; exit 3", NULL };
	char *missing[] = { "/nonexistent/program", NULL };
	char *out, *err;
	int status;
	struct error e;

	ck_assert_msg(cubin_run(echo, 30, &out, &err, &status, &e) == 0, "%s", e.msg);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_str_eq(out, "a; $HOME\n");	/* the arguments as they are: no shell saw them */
	ck_assert_str_eq(err, "");
	free(out);
	free(err);
	ck_assert_msg(cubin_run(fail, 30, &out, &err, &status, &e) == 0, "%s", e.msg);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 3);
	ck_assert_str_eq(out, "out\n");
	ck_assert_str_eq(err, "err\n");
	free(out);
	free(err);
	ck_assert_int_ne(cubin_run(missing, 30, &out, &err, &status, &e), 0);
	ck_assert_ptr_nonnull(strstr(e.msg, "/nonexistent/program"));
}
END_TEST

static Suite *make_suite(int with_nvrtc)
{
	Suite *s = suite_create("nvrtc");
	TCase *tc = tcase_create("log");

	tcase_add_test(tc, log_parsed);
	tcase_add_test(tc, log_without_lines);
	tcase_add_test(tc, format_like_gcc);
	tcase_add_test(tc, control_characters_escaped);
	tcase_add_test(tc, tools_named_by_environment);
	tcase_add_test(tc, programs_run_without_a_shell);
	tcase_add_test(tc, silent_failure_is_said);
	suite_add_tcase(s, tc);
	if (with_nvrtc) {
		tc = tcase_create("nvrtc");
		tcase_set_timeout(tc, 120);
		tcase_add_test(tc, good_file_compiles);
		tcase_add_test(tc, one_disassembly_for_both);
		tcase_add_test(tc, errors_say_where);
		tcase_add_test(tc, warnings_do_not_fail);
		tcase_add_test(tc, toolkit_headers_found);
		tcase_add_test(tc, stdio_include_explained);
		tcase_add_test(tc, bad_architectures);
		tcase_add_test(tc, library_named_by_environment);
		tcase_add_test(tc, cubin_read_back);
		suite_add_tcase(s, tc);
	}
	return s;
}

/* Can NVRTC be loaded?  Asked in a child, so each test starts with it unloaded. */
static int nvrtc_loads(void)
{
	pid_t pid = fork();
	int status = 0;

	if (pid == 0) {
		struct error e;
		if (nvrtc_load(&e) != 0) {
			fprintf(stderr, "skip: %s\n", e.msg);
			_exit(1);
		}
		_exit(0);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int main(void)
{
	int with_nvrtc = nvrtc_loads();
	SRunner *sr = srunner_create(make_suite(with_nvrtc));
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	if (failed)
		return EXIT_FAILURE;
	/* the tests that read SASS returned early without cuobjdump: not a pass */
	return with_nvrtc && have_cuobjdump() ? EXIT_SUCCESS : 77;
}

/* Source, PTX, SASS and resources of one kernel, from the build's artifacts. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "inspect.h"
#include "paths.h"
#include "registry.h"

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* A kernel with __launch_bounds__ between its return type and its name is still found. */
START_TEST(source_with_launch_bounds)
{
	static const char text[] =
	    "/* capped */\n"
	    "extern \"C\" __global__ void __launch_bounds__(256, 8) capped(int *p)\n"
	    "{\n    p[0] = 1;\n}\n"
	    "extern \"C\" __global__ void other(int *p) { capped(p); }\n";
	char *src = inspect_source_from_text(text, "capped");

	ck_assert_ptr_nonnull(src);
	ck_assert_ptr_nonnull(strstr(src, "/* capped */"));
	ck_assert_ptr_nonnull(strstr(src, "p[0] = 1;"));
	ck_assert_ptr_null(strstr(src, "other"));
	free(src);
}
END_TEST

/* So is one with __cluster_dims__ there too, as the tensor lesson's cluster steps are written. */
START_TEST(source_with_cluster_dims)
{
	static const char text[] =
	    "extern \"C\" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(384, 1) paired(\n"
	    "    int *p, int n)\n"
	    "{\n    p[0] = n;\n}\n";
	char *src = inspect_source_from_text(text, "paired");

	ck_assert_ptr_nonnull(src);
	ck_assert_ptr_nonnull(strstr(src, "p[0] = n;"));
	free(src);
}
END_TEST

/* Every kernel of ours shows its source (show KERNEL, the tutor's source view). */
START_TEST(every_kernel_has_its_source)
{
	for (int i = 0; i < registry_kernel_count; i++) {
		const struct kernel_def *k = &registry_kernels[i];
		struct inspect_target t;
		struct error e;
		char *src;

		if (registry_is_library(k))
			continue;
		ck_assert_msg(inspect_resolve(k->name, k->min_block > 256 ? k->min_block : 256, &t, &e) == 0,
		    "%s: %s", k->name, e.msg);
		src = inspect_source(&t, &e);
		ck_assert_msg(src != NULL, "%s: %s", k->name, e.msg);
		free(src);
	}
}
END_TEST

START_TEST(source_has_the_kernel_and_its_helpers)
{
	struct inspect_target t;
	struct error e;
	char *src;

	ck_assert_int_eq(inspect_resolve("reduce_unroll8", 0, &t, &e), 0);
	src = inspect_source(&t, &e);
	ck_assert_msg(src != NULL, "%s", e.msg);
	ck_assert_ptr_nonnull(strstr(src, "void reduce_unroll8("));
	ck_assert_ptr_nonnull(strstr(src, "fold_chunks("));	/* the helper it calls */
	ck_assert_ptr_null(strstr(src, "reduce_unroll4"));
	ck_assert_ptr_null(strstr(src, "warp_sum"));		/* a helper it does not call */
	free(src);

	/* the templated kernel: its wrapper, the template body, and what that calls */
	ck_assert_int_eq(inspect_resolve("reduce_complete_unroll_template", 256, &t, &e), 0);
	ck_assert_str_eq(t.symbol, "reduce_complete_unroll_template_256");
	src = inspect_source(&t, &e);
	ck_assert_msg(src != NULL, "%s", e.msg);
	ck_assert_ptr_nonnull(strstr(src, "template <unsigned int BLOCK>"));
	ck_assert_ptr_nonnull(strstr(src, "reduce_last_warp("));
	free(src);
}
END_TEST

START_TEST(ptx_of_one_kernel)
{
	struct inspect_target t;
	struct error e;
	char *ptx;

	ck_assert_int_eq(inspect_resolve("reduce_unroll8", 0, &t, &e), 0);
	ptx = inspect_ptx(&t, &e);
	ck_assert_msg(ptx != NULL, "%s", e.msg);
	ck_assert_ptr_nonnull(strstr(ptx, ".entry reduce_unroll8("));
	ck_assert_ptr_nonnull(strstr(ptx, "bar.sync"));
	ck_assert_ptr_nonnull(strstr(ptx, "ld.global"));
	ck_assert_ptr_null(strstr(ptx, "reduce_unroll4"));
	ck_assert_int_eq(ptx[strlen(ptx) - 2], '}');
	free(ptx);
}
END_TEST

/*
 * Count the instructions of a kernel in the raw cuobjdump text, the simple
 * way: every line with an address comment (slash, star, four hex digits), between
 * its "Function :" line and the next function, in the sm_90 section.
 */
static int raw_count(const char *sass, const char *symbol, const char *arch, int *ldg, int *bar)
{
	char *fn = xasprintf("Function : %s\n", symbol), *archline = xasprintf("arch = %s\n", arch);
	const char *a = strstr(sass, archline), *p, *end;
	int n = 0;

	*ldg = *bar = 0;
	ck_assert_ptr_nonnull(a);
	p = strstr(a, fn);
	ck_assert_ptr_nonnull(p);
	end = strstr(p + 1, "Function : ");
	if (end == NULL)
		end = p + strlen(p);
	for (const char *q = p; q < end; q = strchr(q, '\n') + 1) {
		const char *nl = strchr(q, '\n');
		char line[512];
		size_t len = (size_t)(nl - q) < sizeof line - 1 ? (size_t)(nl - q) : sizeof line - 1;
		memcpy(line, q, len);
		line[len] = '\0';
		const char *c = strstr(line, "/*");
		if (c != NULL && strlen(c) > 7 && c[6] == '*' && c[7] == '/' && strchr("0123456789abcdef", c[2])) {
			n++;
			*ldg += strstr(line, " LDG") != NULL;
			*bar += strstr(line, "BAR.SYNC") != NULL;
		}
	}
	free(fn);
	free(archline);
	return n;
}

START_TEST(sass_of_one_kernel)
{
	struct inspect_target t;
	struct error e;
	char *sass, *raw, *archs, *path;
	int ldg = 0, bar = 0, n;

#ifndef HAVE_CUOBJDUMP
	/* configure found no cuobjdump: the inspector must say how to get it */
	path = paths_build("kernels/reduce.sass");
	if (!file_exists(path)) {
		ck_assert_int_eq(inspect_resolve("reduce_unroll8", 0, &t, &e), 0);
		ck_assert_ptr_null(inspect_sass(&t, "sm_90", &e));
		ck_assert_ptr_nonnull(strstr(e.msg, "nvidia-cuda-cuobjdump"));
	}
	free(path);
	return;
#endif
	archs = inspect_sass_archs("reduce", &e);
	ck_assert_msg(archs != NULL, "%s", e.msg);
	ck_assert_msg(strstr(archs, "sm_90") != NULL, "archs: %s", archs);
	free(archs);

	ck_assert_int_eq(inspect_resolve("reduce_unroll8", 0, &t, &e), 0);
	sass = inspect_sass(&t, "sm_90", &e);
	ck_assert_msg(sass != NULL, "%s", e.msg);
	path = paths_build("kernels/reduce.sass");
	raw = file_read(path, NULL);
	ck_assert_ptr_nonnull(raw);
	n = raw_count(raw, "reduce_unroll8", "sm_90", &ldg, &bar);
	ck_assert_int_eq(count_lines(sass), n);
	ck_assert_int_ge(ldg, 8);		/* eight chunks folded */
	ck_assert_int_ge(bar, 2);
	ck_assert_ptr_null(strstr(sass, "Function"));
	ck_assert_ptr_null(strstr(sass, "/* 0x"));	/* encodings stripped */
	ck_assert_ptr_nonnull(strstr(sass, "EXIT"));
	free(sass);

	/* an architecture the fatbin does not hold */
	ck_assert_ptr_null(inspect_sass(&t, "sm_61", &e));
	ck_assert_ptr_nonnull(strstr(e.msg, "sm_61"));
	ck_assert_ptr_nonnull(strstr(e.msg, "sm_90"));
	free(raw);
	free(path);
}
END_TEST

START_TEST(resources_of_one_kernel)
{
	struct inspect_target t;
	struct kernel_resources r;
	struct error e;
	const char *res = "ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
	    "ptxas info    : Function properties for k\n"
	    "    16 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n"
	    "ptxas info    : Used 40 registers, used 1 barriers, 4096 bytes smem\n"
	    "ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
	    "ptxas info    : Used 38 registers, used 1 barriers\n";

	ck_assert_int_eq(inspect_resources_from_text(res, "k", "sm_90", &r), 0);
	ck_assert_int_eq(r.registers, 40);
	ck_assert_int_eq(r.barriers, 1);
	ck_assert_int_eq(r.shared_bytes, 4096);
	ck_assert_int_eq(r.stack_bytes, 16);
	ck_assert_int_eq(r.spill_store_bytes, 8);
	ck_assert_int_eq(r.spill_load_bytes, 4);
	ck_assert_int_eq(inspect_resources_from_text(res, "k", "sm_80", &r), 0);
	ck_assert_int_eq(r.registers, 38);
	ck_assert_int_ne(inspect_resources_from_text(res, "k", "sm_75", &r), 0);

	ck_assert_int_eq(inspect_resolve("reduce_warp_shuffle", 0, &t, &e), 0);
	ck_assert_msg(inspect_resources(&t, "sm_90", &r, &e) == 0, "%s", e.msg);
	ck_assert_int_gt(r.registers, 0);
	ck_assert_int_eq(r.shared_bytes, 128);	/* warp_sums[32] */
}
END_TEST

START_TEST(unknown_and_library_kernels)
{
	struct inspect_target t;
	struct error e;

	ck_assert_int_ne(inspect_resolve("reduce_nope", 0, &t, &e), 0);
	ck_assert_ptr_nonnull(strstr(e.msg, "reduce_nope"));
	ck_assert_int_ne(inspect_resolve("cub_device_reduce_sum", 0, &t, &e), 0);
	ck_assert_ptr_nonnull(strstr(e.msg, "library"));
}
END_TEST

START_TEST(line_map_from_text)
{
	const char *text =
	    "arch = sm_80\n.text.k:\n        /*0000*/ NOP ;\n"
	    "arch = sm_90\n"
	    ".text.other:\n        /*0000*/ EXIT ;\n"
	    ".text.k:\n"
	    "\t//## File \"/x/kernels/m.cu\", line 12\n"
	    "        /*0000*/ LDC R1, c[0x0][0x28] ;\n"
	    "\t//## File \"/usr/include/sm_30_intrinsics.hpp\", line 397 inlined at \"/x/kernels/m.cu\", line 40\n"
	    "\t//## File \"/x/kernels/m.cu\", line 40 inlined at \"/x/kernels/m.cu\", line 55\n"
	    "\t//## File \"/x/kernels/m.cu\", line 55\n"
	    "        /*0010*/ SHFL.DOWN PT, R3, R2, 0x10, 0x1f ;\n"
	    "        /*0020*/ IADD3 R3, R3, R2, RZ ;\n"
	    "\t//## File \"/x/kernels/m.cu\", line 41 inlined at \"/x/kernels/m.cu\", line 55\n"
	    "        /*0030*/ EXIT ;\n"
	    ".text.after:\n        /*0000*/ EXIT ;\n";
	int *lines = NULL, n = 0;

	ck_assert_int_eq(inspect_sass_lines_from_text(text, "k", "sm_90", "m", &lines, &n), 0);
	ck_assert_int_eq(n, 4);
	ck_assert_int_eq(lines[0], 12);
	ck_assert_int_eq(lines[1], 40);		/* the intrinsic, at its call in our file */
	ck_assert_int_eq(lines[2], 40);		/* no new location: the same line */
	ck_assert_int_eq(lines[3], 41);		/* innermost location wins */
	free(lines);
	ck_assert_int_ne(inspect_sass_lines_from_text(text, "k", "sm_75", "m", &lines, &n), 0);
	free(lines);
}
END_TEST

/* Every SHFL of the shuffle kernel comes from the source line that calls __shfl_down_sync. */
START_TEST(line_map_of_a_real_kernel)
{
#ifdef HAVE_LINE_MAP
	struct inspect_target t;
	struct error e;
	int *sass_lines = NULL, nsass = 0, *src_lines = NULL, nsrc = 0, shfl_line = 0, i = 0;
	char *src, *sass;

	ck_assert_int_eq(inspect_resolve("reduce_warp_shuffle", 0, &t, &e), 0);
	src = inspect_source_numbered(&t, &src_lines, &nsrc, &e);
	ck_assert_msg(src != NULL, "%s", e.msg);
	for (char *ls = src; ls != NULL && *ls; i++) {
		char *nl = strchr(ls, '\n');
		if (strstr(ls, "__shfl_down_sync(") != NULL && (nl == NULL || strstr(ls, "__shfl_down_sync(") < nl))
			shfl_line = src_lines[i];
		ls = nl ? nl + 1 : NULL;
	}
	ck_assert_int_gt(shfl_line, 0);
	sass = inspect_sass(&t, "sm_90", &e);
	ck_assert_msg(sass != NULL, "%s", e.msg);
	ck_assert_msg(inspect_sass_lines(&t, "sm_90", &sass_lines, &nsass, &e) == 0, "%s", e.msg);
	i = 0;
	for (char *ls = sass; ls != NULL && *ls; i++) {
		char *nl = strchr(ls, '\n');
		ck_assert_int_lt(i, nsass);
		if (strstr(ls, "SHFL.DOWN") != NULL && (nl == NULL || strstr(ls, "SHFL.DOWN") < nl))
			ck_assert_int_eq(sass_lines[i], shfl_line);
		ls = nl ? nl + 1 : NULL;
	}
	ck_assert_int_eq(i, nsass);
	free(src);
	free(sass);
	free(src_lines);
	free(sass_lines);
#endif
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("inspect");
	TCase *tc = tcase_create("inspect");

	tcase_add_test(tc, source_has_the_kernel_and_its_helpers);
	tcase_add_test(tc, source_with_launch_bounds);
	tcase_add_test(tc, source_with_cluster_dims);
	tcase_add_test(tc, every_kernel_has_its_source);
	tcase_add_test(tc, ptx_of_one_kernel);
	tcase_add_test(tc, sass_of_one_kernel);
	tcase_add_test(tc, resources_of_one_kernel);
	tcase_add_test(tc, unknown_and_library_kernels);
	tcase_add_test(tc, line_map_from_text);
	tcase_add_test(tc, line_map_of_a_real_kernel);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

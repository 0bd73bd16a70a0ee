/* Reading SASS: parsing, the instruction mix, and the aligned diff. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "compare.h"
#include "counts.h"
#include "registry.h"
#include "inspect.h"
#include "paths.h"
#include "sass.h"

static const char listing_a[] =
    "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
    "        /*0010*/                   LDG.E R2, desc[UR4][R2.64] ;\n"
    "        /*0020*/              @!P0 BRA 0x10 ;\n"
    "        /*0030*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
    "        /*0040*/                   STG.E desc[UR4][R4.64], R2 ;\n"
    "        /*0050*/                   EXIT ;\n";
static const char listing_b[] =
    "/*0000*/ LDC R1, c[0x0][0x28] ;\n"
    "/*0010*/ LDG.E.128 R4, desc[UR4][R2.64] ;\n"
    "/*0020*/ LDG.E.128 R8, desc[UR4][R6.64] ;\n"
    "/*0030*/ FADD R4, R4, R8 ;\n"
    "/*0040*/ STG.E.128 desc[UR4][R4.64], R4 ;\n"
    "/*0050*/ SHFL.DOWN PT, R3, R2, 0x10, 0x1f ;\n"
    "/*0060*/ EXIT ;\n";

START_TEST(parse_lines)
{
	struct sass_listing l;

	sass_parse(listing_a, &l);
	ck_assert_int_eq(l.count, 6);
	ck_assert_str_eq(l.insns[2].pred, "@!P0");
	ck_assert_str_eq(l.insns[2].opcode, "BRA");
	ck_assert_str_eq(l.insns[3].opcode, "BAR.SYNC.DEFER_BLOCKING");
	ck_assert_str_eq(l.insns[3].base, "BAR");
	ck_assert_uint_eq(l.insns[4].addr, 0x40);
	sass_listing_free(&l);
	sass_parse("not sass\n\n   \n", &l);
	ck_assert_int_eq(l.count, 0);
	sass_listing_free(&l);
}
END_TEST

START_TEST(mix_by_kind_and_width)
{
	struct sass_listing l;
	struct sass_mix m;

	sass_parse(listing_b, &l);
	sass_mix_of(&l, &m);
	ck_assert_int_eq(m.n[SASS_TOTAL], 7);
	ck_assert_int_eq(m.n[SASS_GLOBAL_LD128], 2);
	ck_assert_int_eq(m.n[SASS_GLOBAL_LD32], 0);
	ck_assert_int_eq(m.n[SASS_GLOBAL_ST128], 1);
	ck_assert_int_eq(m.n[SASS_SHUFFLE], 1);
	ck_assert_int_eq(m.n[SASS_FP32], 1);
	ck_assert_int_eq(sass_count(&l, "LDG"), 2);
	ck_assert_int_eq(sass_count(&l, "LDG.E.128"), 2);
	ck_assert_int_eq(sass_count(&l, "LDG.E.12"), 0);	/* whole modifiers only */
	sass_listing_free(&l);
}
END_TEST

START_TEST(diff_aligns_by_opcode)
{
	struct sass_listing a, b;
	struct sass_diff d;

	sass_parse(listing_a, &a);
	sass_parse(listing_b, &b);
	sass_diff(&a, &b, &d);
	/* LDC and EXIT are common; everything else differs */
	ck_assert_int_eq(d.kept, 2);
	ck_assert_int_eq(d.kept + d.removed, a.count);
	ck_assert_int_eq(d.kept + d.added, b.count);
	ck_assert_int_eq(d.rows[0].a, 0);
	ck_assert_int_eq(d.rows[0].b, 0);
	ck_assert_int_eq(d.rows[d.count - 1].a, a.count - 1);
	ck_assert_int_eq(d.rows[d.count - 1].b, b.count - 1);
	sass_diff_free(&d);
	sass_diff(&a, &a, &d);
	ck_assert_int_eq(d.kept, a.count);
	ck_assert_int_eq(d.added + d.removed, 0);
	sass_diff_free(&d);
	sass_listing_free(&a);
	sass_listing_free(&b);
}
END_TEST

START_TEST(text_rows_and_changes)
{
	struct sass_listing a, b;
	struct sass_mix ma, mb;
	struct sass_diff d;
	enum sass_kind kinds[SASS_KIND_COUNT];
	char buf[64];
	int n, first;

	sass_parse(listing_a, &a);
	sass_parse(listing_b, &b);
	sass_insn_text(&a.insns[2], buf, sizeof buf);
	ck_assert_str_eq(buf, "@!P0 BRA 0x10");
	sass_insn_text(&b.insns[1], buf, sizeof buf);
	ck_assert_str_eq(buf, "LDG.E.128 R4, desc[UR4][R2.64]");
	sass_insn_text(&b.insns[1], buf, 8);
	ck_assert_str_eq(buf, "LDG.E.1");

	/* the total, then what either kernel has, in the enum's order */
	sass_mix_of(&a, &ma);
	sass_mix_of(&b, &mb);
	n = sass_mix_rows(&ma, &mb, kinds);
	ck_assert_int_eq(kinds[0], SASS_TOTAL);
	ck_assert_int_eq(n, 9);		/* total, LD32, LD128, ST32, ST128, BAR, SHFL, BRA, FP32 */
	for (int i = 1; i < n; i++) {
		ck_assert_int_gt(kinds[i], kinds[i - 1]);
		ck_assert(ma.n[kinds[i]] != 0 || mb.n[kinds[i]] != 0);
	}
	ck_assert_int_eq(sass_mix_rows(&ma, &ma, kinds), 5);	/* total, LD32, ST32, BAR, BRA */

	/* runs of changes: LDC kept, then one run of changes, then EXIT kept */
	sass_diff(&a, &b, &d);
	first = sass_diff_next_change(&d, -1, 1);
	ck_assert_int_eq(first, 1);
	ck_assert_int_eq(sass_diff_next_change(&d, first, 1), -1);
	ck_assert_int_eq(sass_diff_next_change(&d, d.count, -1), first);
	ck_assert_int_eq(sass_diff_next_change(&d, first, -1), -1);
	ck_assert_int_eq(sass_diff_next_change(&d, 1000, -1), first);
	sass_diff_free(&d);
	sass_diff(&a, &a, &d);
	ck_assert_int_eq(sass_diff_next_change(&d, -1, 1), -1);
	sass_diff_free(&d);
	sass_listing_free(&a);
	sass_listing_free(&b);
}
END_TEST

/* What `diff` and the tutor's diff view read: two real kernels, the barriers the complete unroll adds. */
START_TEST(compare_real_kernels)
{
	struct compare c;
	struct error e;

	ck_assert_int_eq(compare_resolve(&c, "reduce_unroll_warp8", "no_such_kernel", 1024, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "no_such_kernel"));
	compare_free(&c);
	ck_assert_int_eq(compare_resolve(&c, "reduce_unroll_warp8", "reduce_complete_unroll_warp8", 1024, &e), 0);
	ck_assert_int_eq(compare_load(&c, "sm_61", &e), -1);	/* never built */
#ifdef HAVE_CUOBJDUMP
	ck_assert_ptr_nonnull(strstr(e.msg, "sm_61"));
#else
	ck_assert_ptr_nonnull(strstr(e.msg, "cuobjdump"));
#endif
	compare_free(&c);
#ifdef HAVE_CUOBJDUMP
	ck_assert_int_eq(compare_resolve(&c, "reduce_unroll_warp8", "reduce_complete_unroll_warp8", 1024, &e), 0);
	ck_assert_msg(compare_load(&c, "sm_90", &e) == 0, "%s", e.msg);
	ck_assert_str_eq(c.arch, "sm_90");
	ck_assert_int_eq(c.ma.n[SASS_TOTAL], c.la.count);
	ck_assert_int_eq(c.diff.kept + c.diff.removed, c.la.count);
	ck_assert_int_eq(c.diff.kept + c.diff.added, c.lb.count);
	ck_assert_int_gt(c.mb.n[SASS_BARRIER], c.ma.n[SASS_BARRIER]);
	ck_assert(c.have_res);
	ck_assert_int_gt(c.ra.registers, 0);
	compare_free(&c);
#endif
}
END_TEST

/*
 * The mix of a real kernel agrees with a count made here, independently,
 * from the raw cuobjdump text: lines of reduce_unroll8's sm_90 section
 * whose opcode (the first word after the address and predicate) starts so.
 */
START_TEST(mix_of_a_real_kernel)
{
#ifdef HAVE_CUOBJDUMP
	struct inspect_target t;
	struct error e;
	struct sass_listing l;
	struct sass_mix m;
	char *path = paths_build("kernels/reduce.sass"), *sass, *raw = file_read(path, NULL);
	const char *p, *end;
	int total = 0, ldg = 0, stg = 0, bar = 0, bra = 0;

	ck_assert_ptr_nonnull(raw);
	p = strstr(strstr(raw, "arch = sm_90\n"), "Function : reduce_unroll8\n");
	ck_assert_ptr_nonnull(p);
	end = strstr(p + 1, "Function : ");
	for (const char *q = strchr(p, '\n') + 1; q < end; q = strchr(q, '\n') + 1) {
		char op[64] = "", pred[16] = "";
		const char *c = strstr(q, "*/");
		if (strncmp(q, "        /*", 10) != 0 || c == NULL || c > strchr(q, '\n'))
			continue;
		if (sscanf(c + 2, " @%15s %63s", pred, op) != 2)
			sscanf(c + 2, " %63s", op);
		total++;
		ldg += strncmp(op, "LDG", 3) == 0;
		stg += strncmp(op, "STG", 3) == 0;
		bar += strncmp(op, "BAR", 3) == 0;
		bra += strcmp(op, "BRA") == 0 || strncmp(op, "BRA.", 4) == 0;
	}

	ck_assert_int_eq(inspect_resolve("reduce_unroll8", 0, &t, &e), 0);
	sass = inspect_sass(&t, "sm_90", &e);
	ck_assert_msg(sass != NULL, "%s", e.msg);
	sass_parse(sass, &l);
	sass_mix_of(&l, &m);
	ck_assert_int_eq(m.n[SASS_TOTAL], total);
	ck_assert_int_eq(m.n[SASS_GLOBAL_LD32] + m.n[SASS_GLOBAL_LD64] + m.n[SASS_GLOBAL_LD128], ldg);
	ck_assert_int_eq(m.n[SASS_GLOBAL_ST32], stg);
	ck_assert_int_eq(m.n[SASS_BARRIER], bar);
	ck_assert_int_eq(m.n[SASS_BRANCH], bra);
	ck_assert_int_ge(ldg, 8);
	sass_listing_free(&l);
	free(sass);
	free(raw);
	free(path);
#endif
}
END_TEST

/* Bytes in flight: the loads a thread issues before an instruction reads what one of them fills. */
static int in_flight_of(const char *text)
{
	struct sass_listing l;
	int n;

	sass_parse(text, &l);
	n = sass_load_bytes_in_flight(&l);
	sass_listing_free(&l);
	return n;
}

START_TEST(load_bytes_in_flight)
{
	/* the second 16-byte load's address, R6, is filled by the first (R4 to R7): it waits */
	ck_assert_int_eq(in_flight_of(listing_b), 16);
	/* one 4-byte load; the branch and barrier do not read R2, the store does */
	ck_assert_int_eq(in_flight_of(listing_a), 4);
	ck_assert_int_eq(in_flight_of("/*0000*/ EXIT ;\n"), 0);
	/* a float add: two loads, the add, the store; then the next element's two: 8 at a time */
	ck_assert_int_eq(in_flight_of(
	    "/*0000*/ LDG.E R8, desc[UR4][R4.64] ;\n"
	    "/*0010*/ LDG.E R11, desc[UR4][R6.64] ;\n"
	    "/*0020*/ IMAD.WIDE R4, R9, 0x4, R4 ;\n"
	    "/*0030*/ FADD R11, R8, R11 ;\n"
	    "/*0040*/ STG.E desc[UR4][R2.64], R11 ;\n"
	    "/*0050*/ LDG.E R8, desc[UR4][R4.64] ;\n"
	    "/*0060*/ LDG.E R13, desc[UR4][R6.64] ;\n"
	    "/*0070*/ FADD R13, R8, R13 ;\n"), 8);
	/* the last register of a wide load counts (R7 of LDG.E.128 R4); UR7 and R70 are others */
	ck_assert_int_eq(in_flight_of(
	    "/*0000*/ LDG.E.128 R4, desc[UR4][R2.64] ;\n"
	    "/*0010*/ IADD3 R70, UR7, 0x1, RZ ;\n"
	    "/*0020*/ LDG.E.64 R8, desc[UR4][R2.64+0x10] ;\n"
	    "/*0030*/ IADD3 R1, R7, 0x1, RZ ;\n"
	    "/*0040*/ LDG.E.U8 R12, desc[UR4][R2.64] ;\n"
	    "/*0050*/ PRMT R1, R12, 0x7610, R1 ;\n"), 24);
	/* a pointer chase: each load's address is the load before it */
	ck_assert_int_eq(in_flight_of(
	    "/*0000*/ LDG.E.64 R2, desc[UR4][R2.64] ;\n"
	    "/*0010*/ LDG.E.64 R2, desc[UR4][R2.64] ;\n"
	    "/*0020*/ LDG.E.64 R2, desc[UR4][R2.64] ;\n"), 8);
#ifdef HAVE_CUOBJDUMP
	{
		/* the lessons' kernels as built: eight 4-byte loads before the first add; two 16-byte ones */
		static const struct { const char *kernel; int bytes; } real[] = {
			{ "reduce_unroll8", 32 }, { "vec_add_float", 8 }, { "vec_add_float4", 32 },
			{ "add_grid_stride_unroll4", 8 }, { "add_grid_stride_unroll4_restrict", 32 },
		};

		for (size_t i = 0; i < sizeof real / sizeof real[0]; i++) {
			struct inspect_target t;
			struct error e;
			char *sass;

			ck_assert_int_eq(inspect_resolve(real[i].kernel, 0, &t, &e), 0);
			sass = inspect_sass(&t, "sm_90", &e);
			ck_assert_msg(sass != NULL, "%s", e.msg);
			ck_assert_msg(in_flight_of(sass) == real[i].bytes, "%s: %d bytes in flight", real[i].kernel,
			    in_flight_of(sass));
			free(sass);
		}
	}
#endif
}
END_TEST

/* Lesson text counts what the SASS holds, and never makes a number up. */
START_TEST(counts_in_text)
{
	const struct kernel_def *k = registry_find("reduce_warp_shuffle");
	char *s;

	s = counts_expand("no placeholders {{ here", k, 1024, "sm_90");
	ck_assert_str_eq(s, "no placeholders {{ here");
	free(s);
	s = counts_expand("{{count SHFL.DOWN}} shuffles", k, 1024, "sm_61");	/* not built */
	ck_assert_str_eq(s, "? shuffles");
	free(s);
	s = counts_expand("{{count shfl}}", k, 1024, "sm_90");			/* not an opcode */
	ck_assert_str_eq(s, "?");
	free(s);
#ifdef HAVE_CUOBJDUMP
	s = counts_expand("{{count SHFL.DOWN}} and {{count reduce_unroll8 SHFL}}", k, 1024, "sm_90");
	ck_assert_str_eq(s, "10 and 0");	/* two warp_sum calls of five rounds each */
	free(s);
#endif
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("sass");
	TCase *tc = tcase_create("sass");

	tcase_add_test(tc, parse_lines);
	tcase_add_test(tc, mix_by_kind_and_width);
	tcase_add_test(tc, diff_aligns_by_opcode);
	tcase_add_test(tc, text_rows_and_changes);
	tcase_add_test(tc, compare_real_kernels);
	tcase_add_test(tc, mix_of_a_real_kernel);
	tcase_add_test(tc, counts_in_text);
	tcase_add_test(tc, load_bytes_in_flight);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

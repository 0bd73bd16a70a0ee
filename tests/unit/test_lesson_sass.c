/*
 * What the lessons say of their kernels' SASS (sm_90), checked against the
 * SASS the build made: the instruction counts and orders the prose of
 * lessons/en and lessons/zh_CN quotes as fact.  Each test names the lesson
 * and the claim; a change of compiler that breaks one means the lesson's
 * sentence must change too.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "inspect.h"
#include "sass.h"

struct kernel_sass {
	char *text;
	struct sass_listing l;
};

/* A kernel's sm_90 SASS; 0 when the build has no SASS listings (no cuobjdump). */
static int load(const char *kernel, struct kernel_sass *k)
{
	memset(k, 0, sizeof *k);
#ifndef HAVE_CUOBJDUMP
	(void)kernel;
	return 0;
#else
	struct inspect_target t;
	struct error e;

	ck_assert_msg(inspect_resolve(kernel, 256, &t, &e) == 0, "%s", e.msg);
	k->text = inspect_sass(&t, "sm_90", &e);
	ck_assert_msg(k->text != NULL, "%s", e.msg);
	sass_parse(k->text, &k->l);
	return 1;
#endif
}

static void unload(struct kernel_sass *k)
{
	sass_listing_free(&k->l);
	free(k->text);
}

static int is(const struct sass_insn *i, const char *prefix)
{
	return sass_opcode_matches(i->opcode, prefix);
}

/* Does the instruction's own line (not the listing after it) hold needle? */
static int has(const struct sass_insn *i, const char *needle)
{
	char line[256];

	snprintf(line, sizeof line, "%.*s", i->text_len, i->text);
	return strstr(line, needle) != NULL;
}

/* A branch's target address, or -1. */
static long target_of(const struct sass_insn *i)
{
	const char *p;
	char line[256];

	if (strcmp(i->base, "BRA") != 0)
		return -1;

	snprintf(line, sizeof line, "%.*s", i->text_len, i->text);
	p = strstr(line, "BRA");
	p = p ? strstr(p, "0x") : NULL;
	return p ? strtol(p, NULL, 16) : -1;
}

static int index_at(const struct sass_listing *l, long addr)
{
	for (int i = 0; i < l->count; i++)
		if ((long)l->insns[i].addr == addr)
			return i;
	return -1;
}

/*
 * The n-th loop (0: the first) of the listing: from the target of a
 * backward branch to the branch, both included.  Returns 0 if none.
 */
static int loop(const struct sass_listing *l, int n, int *first, int *last)
{
	for (int i = 0; i < l->count; i++) {
		long t = target_of(&l->insns[i]);

		if (t >= 0 && t < (long)l->insns[i].addr && n-- == 0) {
			*first = index_at(l, t);
			*last = i;
			return *first >= 0;
		}
	}
	return 0;
}

static int count_in(const struct sass_listing *l, int from, int to, const char *prefix)
{
	int c = 0;

	for (int i = from; i <= to; i++)
		c += is(&l->insns[i], prefix);
	return c;
}

/* The first instruction at or after from with this prefix, or -1. */
static int next(const struct sass_listing *l, int from, int to, const char *prefix)
{
	for (int i = from; i <= to; i++)
		if (is(&l->insns[i], prefix))
			return i;
	return -1;
}

/*
 * Reduction, step 1: "the loop body is 32 instructions, and 17 of them work
 * out tid % (2*stride)" (from the I2F.U32.RP's neighbours to the last
 * fix-up, everything between the BSSY and the compare with zero); "only
 * the six instructions of the add ... run with lanes switched off".
 */
START_TEST(reduction_neighbored_division)
{
	struct kernel_sass k;
	int first, last, bssy, skip, bsync;

	if (!load("reduce_neighbored", &k))
		return;
	ck_assert(loop(&k.l, 0, &first, &last));
	ck_assert_int_eq(last - first + 1, 32);
	ck_assert_int_eq(count_in(&k.l, first, last, "I2F.U32.RP"), 1);
	ck_assert_int_eq(count_in(&k.l, first, last, "MUFU.RCP"), 1);
	ck_assert_int_eq(count_in(&k.l, first, last, "F2I"), 1);
	ck_assert_int_eq(count_in(&k.l, first, last, "IMAD.HI"), 2);
	bssy = next(&k.l, first, last, "BSSY");
	skip = next(&k.l, bssy, last, "BRA");		/* the branch around the add */
	ck_assert(bssy >= 0 && skip > bssy);
	ck_assert(is(&k.l.insns[skip - 1], "ISETP.NE"));	/* the remainder against zero */
	ck_assert_int_eq(skip - 1 - (bssy + 1), 17);
	bsync = next(&k.l, skip, last, "BSYNC");
	ck_assert_int_eq(bsync - skip - 1, 6);
	ck_assert_int_eq(count_in(&k.l, skip, bsync, "LDG"), 2);
	ck_assert_int_eq(count_in(&k.l, skip, bsync, "STG"), 1);
	ck_assert_int_eq(count_in(&k.l, first, last, "BAR.SYNC"), 1);
	unload(&k);
}
END_TEST

/* Step 2: "a multiply and a compare instead of a division ... from 32 instructions to 17". */
START_TEST(reduction_neighbored_less_no_division)
{
	struct kernel_sass k;
	int first, last, bssy, skip;

	if (!load("reduce_neighbored_less", &k))
		return;
	ck_assert(loop(&k.l, 0, &first, &last));
	ck_assert_int_eq(last - first + 1, 17);
	ck_assert_int_eq(count_in(&k.l, first, last, "MUFU"), 0);
	ck_assert_int_eq(count_in(&k.l, first, last, "I2F"), 0);
	ck_assert_int_eq(count_in(&k.l, first, last, "F2I"), 0);
	ck_assert_int_eq(count_in(&k.l, first, last, "IMAD.HI"), 0);
	bssy = next(&k.l, first, last, "BSSY");
	skip = next(&k.l, bssy, last, "BRA");
	ck_assert_int_eq(skip - bssy - 1, 2);
	ck_assert(is(&k.l.insns[bssy + 1], "IMAD"));
	ck_assert(is(&k.l.insns[bssy + 2], "ISETP"));
	unload(&k);
}
END_TEST

/*
 * Unrolling, step 1: six LDG, "the two of a full chunk; one on the grid's
 * last block's path; the two of the tree's loop; and thread 0's load of
 * the block's sum".
 */
START_TEST(unroll2_loads)
{
	struct kernel_sass k;
	int first, last, bar, full;

	if (!load("reduce_unroll2", &k))
		return;
	ck_assert_int_eq(sass_count(&k.l, "LDG.E"), 6);
	bar = next(&k.l, 0, k.l.count - 1, "BAR.SYNC");
	ck_assert_int_eq(count_in(&k.l, 0, bar, "LDG.E"), 3);
	full = next(&k.l, next(&k.l, 0, bar, "LDG.E") + 1, bar, "LDG.E");
	ck_assert(is(&k.l.insns[full + 1], "LDG.E"));	/* the full chunk's two, back to back */
	ck_assert(loop(&k.l, 0, &first, &last));
	ck_assert(first > bar);
	ck_assert_int_eq(count_in(&k.l, first, last, "LDG.E"), 2);
	ck_assert_int_eq(count_in(&k.l, last, k.l.count - 1, "LDG.E"), 1);
	unload(&k);
}
END_TEST

/*
 * Unrolling, the grid-stride add: "the unrolled body is LDG, LDG, FADD,
 * STG, four times over, each element's loads after the previous element's
 * store" (no __restrict__); the same with #pragma unroll 4.
 */
static void interleaved_body(const char *kernel)
{
	struct kernel_sass k;
	int first, last, n = 0;
	char seq[64] = "";

	if (!load(kernel, &k))
		return;
	/* the unrolled loop: the one with four FADD */
	for (int i = 0; loop(&k.l, i, &first, &last); i++)
		if (count_in(&k.l, first, last, "FADD") == 4)
			break;
	ck_assert_int_eq(count_in(&k.l, first, last, "FADD"), 4);
	for (int i = first; i <= last && n < 16; i++) {
		const struct sass_insn *in = &k.l.insns[i];

		if (is(in, "LDG") || is(in, "FADD") || is(in, "STG")) {
			strcat(seq, is(in, "LDG") ? "L" : is(in, "FADD") ? "F" : "S");
			n++;
		}
	}
	ck_assert_str_eq(seq, "LLFSLLFSLLFSLLFS");
	unload(&k);
}

START_TEST(grid_stride_add_interleaved)
{
	interleaved_body("add_grid_stride");
	interleaved_body("add_grid_stride_unroll4");
}
END_TEST

/*
 * Bank conflicts: the sweep's "64 LDS ... 31 three-input IADD3 that add
 * the 64 values up two at a time" (the lesson quotes the counts through
 * {{count}}; here, that the adds have three inputs).
 */
START_TEST(sweep_adds)
{
	struct kernel_sass k;

	if (!load("smem_stride_1", &k))
		return;
	ck_assert_int_eq(sass_count(&k.l, "LDS"), 64);
	ck_assert_int_eq(sass_count(&k.l, "IADD3"), 31);
	for (int i = 0; i < k.l.count; i++)
		if (is(&k.l.insns[i], "IADD3"))
			ck_assert_msg(!has(&k.l.insns[i], "RZ"), "an IADD3 with two inputs: %.*s",
			    k.l.insns[i].text_len, k.l.insns[i].text);
	unload(&k);
}
END_TEST

/* The offsets of a listing's LDS, in order: "[R2+UR4+0x4]" and "[R2+0x4]" both give 4. */
static void lds_offsets(const struct sass_listing *l, long *off, int *n, int *with_ur)
{
	*n = *with_ur = 0;
	for (int i = 0; i < l->count; i++) {
		char line[256];
		const char *b, *e, *p;

		if (!is(&l->insns[i], "LDS"))
			continue;
		snprintf(line, sizeof line, "%.*s", l->insns[i].text_len, l->insns[i].text);
		b = strchr(line, '[');
		e = b ? strchr(b, ']') : NULL;
		ck_assert(b && e);
		p = strstr(b, "0x");
		off[(*n)++] = p && p < e ? strtol(p, NULL, 16) : 0;
		*with_ur += strstr(b, "+UR") != NULL && strstr(b, "+UR") < e;
	}
}

/*
 * Bank conflicts, padding: "the 64 LDS kept with the same offsets (0 to
 * 0x7c) but not the same operands: [R2+UR4+...] at stride 32, [R2+...]
 * padded, the base folded in by an IMAD by 0x84".
 */
START_TEST(padded_lds_operands)
{
	struct kernel_sass a, b;
	long oa[128], ob[128], max = 0;
	int na, nb, ura, urb, imad84 = 0;

	if (!load("smem_stride_32", &a))
		return;
	load("smem_stride_32_padded", &b);
	lds_offsets(&a.l, oa, &na, &ura);
	lds_offsets(&b.l, ob, &nb, &urb);
	ck_assert_int_eq(na, 64);
	ck_assert_int_eq(nb, 64);
	for (int i = 0; i < 64; i++) {
		ck_assert_int_eq(oa[i], ob[i]);
		max = oa[i] > max ? oa[i] : max;
	}
	ck_assert_int_eq(max, 0x7c);
	ck_assert_int_eq(ura, 64);
	ck_assert_int_eq(urb, 0);
	for (int i = 0; i < b.l.count; i++)
		imad84 += strcmp(b.l.insns[i].opcode, "IMAD") == 0 && has(&b.l.insns[i], ", 0x84,");
	ck_assert_int_eq(imad84, 1);
	unload(&a);
	unload(&b);
}
END_TEST

/*
 * Vectorize, one char per access: "each pass of this loop loads two bytes
 * (two LDG.E.U8) and stores one before the next pass may load".
 */
START_TEST(char_loop_two_bytes_in_flight)
{
	struct kernel_sass k;
	int first, last, st;

	if (!load("vec_add_char", &k))
		return;
	ck_assert(loop(&k.l, 0, &first, &last));
	ck_assert_int_eq(count_in(&k.l, first, last, "LDG"), 2);
	ck_assert_int_eq(count_in(&k.l, first, last, "LDG.E.U8"), 2);
	ck_assert_int_eq(count_in(&k.l, first, last, "STG.E.U8"), 1);
	st = next(&k.l, first, last, "STG");
	ck_assert_int_eq(count_in(&k.l, st, last, "LDG"), 0);
	ck_assert(!loop(&k.l, 1, &first, &last));	/* no unrolled copy */
	unload(&k);
}
END_TEST

/*
 * Register tiling, step 3: "16 FFMA per LDS against step 2's 3.2, five
 * times as many" (per instruction; the lesson gives the passes from the
 * counters).
 */
START_TEST(regtile_ffma_per_lds)
{
	struct kernel_sass one_d, two_d;
	int f1, l1, f2, l2;

	if (!load("matmul_1d_blocktile", &one_d))
		return;
	load("matmul_2d_blocktile", &two_d);
	f1 = sass_count(&one_d.l, "FFMA");
	l1 = sass_count(&one_d.l, "LDS");
	f2 = sass_count(&two_d.l, "FFMA");
	l2 = sass_count(&two_d.l, "LDS");
	ck_assert_msg(10 * f1 == 32 * l1, "step 2: %d FFMA for %d LDS, not 3.2 per load", f1, l1);
	ck_assert_msg(f2 == 16 * l2, "step 3: %d FFMA for %d LDS, not 16 per load", f2, l2);
	ck_assert_int_eq(sass_count(&two_d.l, "LDS.128"), l2);
	unload(&one_d);
	unload(&two_d);
}
END_TEST

/*
 * Pitch: "the same length and the same loads, but not the same
 * instructions: ... a SHF.R.U64; the diff marks 28 instructions added and
 * 25 removed (besides padding NOPs), 15 of each in the unrolled main loop".
 */
START_TEST(pitch_code_differs)
{
	struct kernel_sass rows, pitched;
	struct sass_diff d;
	int first, last, ra, rb, added = 0, removed = 0, added_in_loop = 0, removed_in_loop = 0;

	if (!load("matmul_rows", &rows))
		return;
	load("matmul_pitched", &pitched);
	ck_assert_int_eq(sass_count(&rows.l, "LDG"), sass_count(&pitched.l, "LDG"));
	ck_assert_int_eq(sass_count(&pitched.l, "SHF.R.U64"), 1);
	ck_assert_int_eq(sass_count(&rows.l, "SHF.R.U64"), 0);
	sass_diff(&rows.l, &pitched.l, &d);
	ck_assert(loop(&rows.l, 0, &ra, &rb));
	ck_assert(loop(&pitched.l, 0, &first, &last));
	for (int i = 0; i < d.count; i++) {
		const struct sass_diff_row *r = &d.rows[i];

		if (r->a >= 0 && r->b >= 0)
			continue;
		if (r->b >= 0 && !is(&pitched.l.insns[r->b], "NOP")) {
			added++;
			added_in_loop += r->b >= first && r->b <= last;
		}
		if (r->a >= 0 && !is(&rows.l.insns[r->a], "NOP")) {
			removed++;
			removed_in_loop += r->a >= ra && r->a <= rb;
		}
	}
	ck_assert_int_eq(added, 28);
	ck_assert_int_eq(removed, 25);
	ck_assert_int_eq(added_in_loop, 15);
	ck_assert_int_eq(removed_in_loop, 15);
	sass_diff_free(&d);
	unload(&rows);
	unload(&pitched);
}
END_TEST

/*
 * Shared memory, step 2: "in the fully unrolled tile the compiler issues
 * 15 loads of B before the first FFMA" (after the store of A's row).
 */
START_TEST(shared_a_loads_before_ffma)
{
	struct kernel_sass k;
	int sts, ffma;

	if (!load("matmul_shared_a", &k))
		return;
	sts = next(&k.l, 0, k.l.count - 1, "STS");
	ffma = next(&k.l, sts, k.l.count - 1, "FFMA");
	ck_assert(sts >= 0 && ffma > sts);
	ck_assert_int_eq(count_in(&k.l, sts, ffma, "LDG"), 15);
	unload(&k);
}
END_TEST

/*
 * Reduction, the control step: "the loop has no I2F, no MUFU.RCP and no
 * IMAD.HI ... the test is one LOP3.LUT ... The loop body is 16
 * instructions"; and the same pairs as step 1: two loads and a store in
 * the add, one BAR.SYNC a round.
 */
START_TEST(reduction_mask_control)
{
	struct kernel_sass k;
	int first, last;

	if (!load("reduce_neighbored_mask", &k))
		return;
	ck_assert(loop(&k.l, 0, &first, &last));
	ck_assert_int_eq(last - first + 1, 16);
	ck_assert_int_eq(count_in(&k.l, first, last, "I2F"), 0);
	ck_assert_int_eq(count_in(&k.l, first, last, "MUFU"), 0);
	ck_assert_int_eq(count_in(&k.l, first, last, "F2I"), 0);
	ck_assert_int_eq(count_in(&k.l, first, last, "IMAD.HI"), 0);
	ck_assert_int_eq(count_in(&k.l, first, last, "LOP3.LUT"), 1);
	ck_assert_int_eq(count_in(&k.l, first, last, "LDG"), 2);
	ck_assert_int_eq(count_in(&k.l, first, last, "STG"), 1);
	ck_assert_int_eq(count_in(&k.l, first, last, "BAR.SYNC"), 1);
	unload(&k);
}
END_TEST

/*
 * Unrolling, the last warp's control: "as many loads and stores as the
 * last step's ... and not one .STRONG.SYS among them", where the last
 * step's volatile tree has them.
 */
START_TEST(last_warp_plain_control)
{
	struct kernel_sass vol, plain;

	if (!load("reduce_unroll_warp8", &vol))
		return;
	load("reduce_unroll_warp8_plain", &plain);
	ck_assert_int_eq(sass_count(&plain.l, "LDG.E"), sass_count(&vol.l, "LDG.E"));
	ck_assert_int_eq(sass_count(&plain.l, "STG.E"), sass_count(&vol.l, "STG.E"));
	ck_assert_int_gt(sass_count(&vol.l, "LDG.E.STRONG.SYS"), 0);
	ck_assert_int_gt(sass_count(&vol.l, "STG.E.STRONG.SYS"), 0);
	for (int i = 0; i < plain.l.count; i++)
		ck_assert_msg(!has(&plain.l.insns[i], "STRONG"), "a strong access: %.*s",
		    plain.l.insns[i].text_len, plain.l.insns[i].text);
	unload(&vol);
	unload(&plain);
}
END_TEST

/*
 * Unrolling, the __restrict__ control: "in the unrolled loop all eight
 * loads now come first, then the four FADD and their stores".
 */
START_TEST(grid_stride_restrict_loads_first)
{
	struct kernel_sass k;
	int first, last, loads = 0;

	if (!load("add_grid_stride_unroll4_restrict", &k))
		return;
	for (int i = 0; loop(&k.l, i, &first, &last); i++)
		if (count_in(&k.l, first, last, "FADD") == 4)
			break;
	ck_assert_int_eq(count_in(&k.l, first, last, "FADD"), 4);
	ck_assert_int_eq(count_in(&k.l, first, last, "LDG"), 8);
	for (int i = first; i <= last && !is(&k.l.insns[i], "FADD"); i++)
		loads += is(&k.l.insns[i], "LDG");
	ck_assert_int_eq(loads, 8);
	ck_assert_int_eq(count_in(&k.l, first, last, "LDG.E.CONSTANT"), 8);
	unload(&k);
}
END_TEST

/*
 * Pitch, the control: "Its code is matmul_pitched's, line for line (a
 * test checks that the compiler made the same instructions of both)".
 */
START_TEST(pitch_control_same_code)
{
	struct kernel_sass pitched, packed;

	if (!load("matmul_pitched", &pitched))
		return;
	load("matmul_pitched_packed", &packed);
	ck_assert_int_eq(packed.l.count, pitched.l.count);
	for (int i = 0; i < packed.l.count; i++) {
		const struct sass_insn *a = &pitched.l.insns[i], *b = &packed.l.insns[i];

		/* the whole line: address, instruction, operands and encoding */
		ck_assert_msg(a->text_len == b->text_len && memcmp(a->text, b->text, (size_t)a->text_len) == 0,
		    "instruction %d differs: %.*s / %.*s", i, a->text_len, a->text, b->text_len, b->text);
	}
	unload(&pitched);
	unload(&packed);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("lesson_sass");
	TCase *tc = tcase_create("lesson_sass");

	tcase_add_test(tc, reduction_neighbored_division);
	tcase_add_test(tc, reduction_neighbored_less_no_division);
	tcase_add_test(tc, unroll2_loads);
	tcase_add_test(tc, grid_stride_add_interleaved);
	tcase_add_test(tc, sweep_adds);
	tcase_add_test(tc, padded_lds_operands);
	tcase_add_test(tc, char_loop_two_bytes_in_flight);
	tcase_add_test(tc, regtile_ffma_per_lds);
	tcase_add_test(tc, pitch_code_differs);
	tcase_add_test(tc, shared_a_loads_before_ffma);
	tcase_add_test(tc, reduction_mask_control);
	tcase_add_test(tc, last_warp_plain_control);
	tcase_add_test(tc, grid_stride_restrict_loads_first);
	tcase_add_test(tc, pitch_control_same_code);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN_SASS(make_suite)

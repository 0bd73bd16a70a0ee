/*
 * What the tensor-core lesson says of its kernels' SASS, checked against
 * the build: HMMA in the mma.sync and WMMA steps, LDSM where ldmatrix
 * loads the fragments, LDGSTS where cp.async copies, HGMMA and UTMALDG in
 * the Hopper steps.  While kernels/tensor.cu or kernels/tensor_hopper.cu
 * still hold placeholder bodies (the word PLACEHOLDER in them), the
 * program skips (77): it becomes real when the kernels do.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "inspect.h"
#include "paths.h"
#include "sass.h"

/* kernel's SASS for arch, parsed into l: the text l points into, for the caller to free with l. */
static char *listing(const char *kernel, const char *arch, struct sass_listing *l)
{
	struct inspect_target t;
	struct error e;
	char *text;

	ck_assert_msg(inspect_resolve(kernel, 256, &t, &e) == 0, "%s", e.msg);
	text = inspect_sass(&t, arch, &e);
	ck_assert_msg(text != NULL, "%s", e.msg);
	sass_parse(text, l);
	return text;
}

/* How many of kernel's instructions in its SASS for arch start with each prefix. */
static int count(const char *kernel, const char *arch, const char *prefix)
{
	struct sass_listing l;
	char *text = listing(kernel, arch, &l);
	int n = sass_count(&l, prefix);

	sass_listing_free(&l);
	free(text);
	return n;
}

/* The index of kernel's first instruction starting with prefix, or -1. */
static int first(const char *kernel, const char *arch, const char *prefix)
{
	struct sass_listing l;
	char *text = listing(kernel, arch, &l);
	int at = -1;

	for (int i = 0; i < l.count && at < 0; i++)
		if (sass_opcode_matches(l.insns[i].opcode, prefix))
			at = i;
	sass_listing_free(&l);
	free(text);
	return at;
}

/* How many of kernel's instructions starting with prefix (NULL: any) have this text in their line. */
static int count_with(const char *kernel, const char *arch, const char *prefix, const char *words)
{
	struct sass_listing l;
	char *text = listing(kernel, arch, &l);
	int n = 0;

	for (int i = 0; i < l.count; i++) {
		char line[256];

		sass_insn_text(&l.insns[i], line, sizeof line);
		n += (prefix == NULL || sass_opcode_matches(l.insns[i].opcode, prefix)) && strstr(line, words) != NULL;
	}
	sass_listing_free(&l);
	free(text);
	return n;
}

/* How many of kernel's instructions have this text in their line: "WARPGROUP.DEPBAR.LE gsb0, 0x1". */
static int count_text(const char *kernel, const char *arch, const char *words)
{
	return count_with(kernel, arch, NULL, words);
}

static void has(const char *kernel, const char *arch, const char *prefix)
{
	ck_assert_msg(count(kernel, arch, prefix) > 0, "%s has no %s in its %s SASS", kernel, prefix, arch);
}

/* Steps 1, 3, 5 and 7: the tensor cores by HMMA, in their sm_90 code (what an H100 runs). */
START_TEST(hmma_in_every_warp_level_step)
{
	static const char *const k[] = { "tc_wmma_global", "tc_wmma_shared", "tc_mma_ldmatrix",
	    "tc_mma_cp_async" };

	for (size_t i = 0; i < ARRAY_LEN(k); i++)
		has(k[i], "sm_90", "HMMA");
}
END_TEST

/* ldmatrix in step 5 and step 7; cp.async (LDGSTS) in step 7, not in step 5. */
START_TEST(ldmatrix_and_cp_async)
{
	has("tc_mma_ldmatrix", "sm_90", "LDSM");
	has("tc_mma_cp_async", "sm_90", "LDSM");
	has("tc_mma_cp_async", "sm_90", "LDGSTS");
	ck_assert_int_eq(count("tc_mma_ldmatrix", "sm_90", "LDGSTS"), 0);
}
END_TEST

/*
 * What the lesson says the fragments' loads are: WMMA loads them by 4-byte
 * generic loads (LD.E), three for every two HMMA in step 3, from global
 * memory in step 1; ldmatrix, three LDSM for every eight HMMA in step 5,
 * whose tiles still pass through registers (LDG, STS).
 */
START_TEST(fragment_loads)
{
	int ld = count("tc_wmma_shared", "sm_90", "LD.E"), hmma = count("tc_wmma_shared", "sm_90", "HMMA");

	/* step 1: four 4-byte loads for every HMMA, each warp loading its own fragments */
	ck_assert_msg(count("tc_wmma_global", "sm_90", "LD.E") == 4 * count("tc_wmma_global", "sm_90", "HMMA"),
	    "tc_wmma_global: %d LD.E for %d HMMA", count("tc_wmma_global", "sm_90", "LD.E"),
	    count("tc_wmma_global", "sm_90", "HMMA"));
	ck_assert_msg(2 * ld == 3 * hmma, "tc_wmma_shared: %d LD.E for %d HMMA", ld, hmma);
	ck_assert_int_eq(count("tc_wmma_shared", "sm_90", "LDS"), 0);
	ck_assert_int_eq(count("tc_wmma_shared", "sm_90", "LDSM"), 0);
	ld = count("tc_mma_ldmatrix", "sm_90", "LDSM");
	hmma = count("tc_mma_ldmatrix", "sm_90", "HMMA");
	ck_assert_msg(8 * ld == 3 * hmma, "tc_mma_ldmatrix: %d LDSM for %d HMMA", ld, hmma);
	has("tc_mma_ldmatrix", "sm_90", "LDG.E");
	has("tc_mma_ldmatrix", "sm_90", "STS");
}
END_TEST

/* LDGSTS takes the place of LDG and STS in step 7; after it no thread moves the tiles. */
START_TEST(no_tile_through_registers)
{
	static const char *const k[] = { "tc_mma_cp_async", "tc_wgmma_tma", "tc_wgmma_warp_specialized" };

	for (size_t i = 0; i < ARRAY_LEN(k); i++) {
		const char *arch = i == 0 ? "sm_90" : "sm_90a";

		ck_assert_msg(count(k[i], arch, "LDG") == 0, "%s has LDG", k[i]);
		ck_assert_msg(count(k[i], arch, "STS") == 0, "%s has STS", k[i]);
	}
	ck_assert_int_eq(count("tc_wgmma_tma", "sm_90a", "LDSM"), 0);
	ck_assert_int_eq(count("tc_wgmma_warp_specialized", "sm_90a", "LDSM"), 0);
}
END_TEST

/*
 * Step 16 keeps one BAR.SYNC, before the roles split, and moves no
 * registers (no setmaxnreg: the lesson says its accumulators fit without);
 * step 13 meets at one every stage.
 */
START_TEST(one_barrier_before_the_split)
{
	ck_assert_int_eq(count("tc_wgmma_warp_specialized", "sm_90a", "BAR.SYNC"), 1);
	ck_assert_int_lt(first("tc_wgmma_warp_specialized", "sm_90a", "BAR.SYNC"),
	    first("tc_wgmma_warp_specialized", "sm_90a", "UTMALDG"));
	ck_assert_int_eq(count("tc_wgmma_warp_specialized", "sm_90a", "USETMAXREG"), 0);
	ck_assert_int_ge(count("tc_wgmma_tma", "sm_90a", "BAR.SYNC"), 2);
}
END_TEST

/*
 * The rungs after step 13 make one change each, and their SASS shows it.
 * Step 14 is step 13 with one wgmma group left in flight: the same
 * HGMMA, copies and barriers, and a wait for all but one group
 * (WARPGROUP.DEPBAR.LE gsb0, 0x1) where step 13 waits for all, inside its
 * loop, only once after it.  The unspecialized control waits as step 14
 * does.  Steps 17 and 18 run step 16's loop (the same HGMMA, copies,
 * waits and one barrier): step 17 changes only which tile a block takes;
 * step 18 loops over tiles, its consumers freeing each tile's last stage
 * after the loop over k (a second arrival on the empty barrier).
 */
START_TEST(each_rung_after_step_10_changes_one_thing)
{
	static const char *const same[] = { "HGMMA", "UTMALDG", "BAR.SYNC", "SYNCS.PHASECHK" };
	static const char *const after13[] = { "tc_wgmma_grouped", "tc_wgmma_persistent" };
	static const char *const wait1 = "WARPGROUP.DEPBAR.LE gsb0, 0x1", *const wait0 = "WARPGROUP.DEPBAR.LE gsb0, 0x0";

	for (size_t i = 0; i < ARRAY_LEN(same); i++)
		ck_assert_msg(count("tc_wgmma_pipelined", "sm_90a", same[i]) == count("tc_wgmma_tma", "sm_90a", same[i]),
		    "tc_wgmma_pipelined and tc_wgmma_tma differ in %s", same[i]);
	ck_assert_int_eq(count_text("tc_wgmma_tma", "sm_90a", wait1), 0);
	ck_assert_int_eq(count_text("tc_wgmma_tma", "sm_90a", wait0), 1);
	ck_assert_int_eq(count_text("tc_wgmma_pipelined", "sm_90a", wait1), 1);
	ck_assert_int_eq(count_text("tc_wgmma_pipelined", "sm_90a", wait0), 1);
	ck_assert_int_lt(first("tc_wgmma_pipelined", "sm_90a", "HGMMA"), first("tc_wgmma_pipelined", "sm_90a", "WARPGROUP.DEPBAR"));
	ck_assert_int_eq(count_text("tc_wgmma_unspecialized", "sm_90a", wait1), 1);
	for (size_t k = 0; k < ARRAY_LEN(after13); k++) {
		for (size_t i = 0; i < ARRAY_LEN(same); i++)
			ck_assert_msg(count(after13[k], "sm_90a", same[i]) == count("tc_wgmma_warp_specialized", "sm_90a", same[i]),
			    "%s and tc_wgmma_warp_specialized differ in %s", after13[k], same[i]);
		ck_assert_int_eq(count_text(after13[k], "sm_90a", wait1), 1);
		ck_assert_int_eq(count(after13[k], "sm_90a", "USETMAXREG"), 0);
	}
	ck_assert_int_eq(count("tc_wgmma_grouped", "sm_90a", "SYNCS.ARRIVE.TRANS64.A1T0"),
	    count("tc_wgmma_warp_specialized", "sm_90a", "SYNCS.ARRIVE.TRANS64.A1T0"));
	ck_assert_int_eq(count("tc_wgmma_persistent", "sm_90a", "SYNCS.ARRIVE.TRANS64.A1T0"),
	    count("tc_wgmma_warp_specialized", "sm_90a", "SYNCS.ARRIVE.TRANS64.A1T0") + 1);
}
END_TEST

/*
 * Step 19 is step 18 in clusters of two: the same HGMMA and waits; of its
 * two copies a stage, one multicast (Bt's half, to both blocks); every
 * local arrival on an empty barrier has a remote one beside it, on the
 * neighbour's; and the cluster meets (UCGABAR) where step 18's block
 * alone met at BAR.SYNC.
 */
START_TEST(clusters_share_bt_by_multicast)
{
	static const char *const same[] = { "HGMMA", "UTMALDG", "SYNCS.PHASECHK", "SYNCS.ARRIVE.TRANS64.A1T0" };

	for (size_t i = 0; i < ARRAY_LEN(same); i++)
		ck_assert_msg(count("tc_wgmma_cluster", "sm_90a", same[i]) == count("tc_wgmma_persistent", "sm_90a", same[i]),
		    "tc_wgmma_cluster and tc_wgmma_persistent differ in %s", same[i]);
	ck_assert_int_eq(count("tc_wgmma_cluster", "sm_90a", "UTMALDG.2D.MULTICAST"), 1);
	ck_assert_int_eq(count("tc_wgmma_persistent", "sm_90a", "UTMALDG.2D.MULTICAST"), 0);
	ck_assert_int_eq(count("tc_wgmma_cluster", "sm_90a", "SYNCS.ARRIVE.TRANS64.RED.A1T0"),
	    count("tc_wgmma_cluster", "sm_90a", "SYNCS.ARRIVE.TRANS64.A1T0"));
	has("tc_wgmma_cluster", "sm_90a", "UCGABAR_WAIT");
	ck_assert_int_eq(count("tc_wgmma_persistent", "sm_90a", "UCGABAR_WAIT"), 0);
	ck_assert_int_eq(count_text("tc_wgmma_cluster", "sm_90a", "WARPGROUP.DEPBAR.LE gsb0, 0x1"), 1);
}
END_TEST

/*
 * Step 20 is step 19 with C stored by the TMA: the same copies, multiply
 * and waits; no STG, but UTMASTG, and each consumer's warpgroup meets
 * at a named barrier (BAR.SYNC) around each chunk, where step 19 has no
 * BAR.SYNC at all.  A thread's 128 sums reach the chunks in 64 STS.64,
 * never a generic ST (which a plain pointer into the buffers compiles
 * to, slower).
 */
START_TEST(tma_stores_c)
{
	static const char *const same[] = { "HGMMA", "UTMALDG", "UTMALDG.2D.MULTICAST", "SYNCS.PHASECHK",
	    "SYNCS.ARRIVE.TRANS64.A1T0", "UCGABAR_WAIT" };

	for (size_t i = 0; i < ARRAY_LEN(same); i++)
		ck_assert_msg(count("tc_wgmma_tma_store", "sm_90a", same[i]) == count("tc_wgmma_cluster", "sm_90a", same[i]),
		    "tc_wgmma_tma_store and tc_wgmma_cluster differ in %s", same[i]);
	ck_assert_int_eq(count_text("tc_wgmma_tma_store", "sm_90a", "WARPGROUP.DEPBAR.LE gsb0, 0x1"), 1);
	ck_assert_int_ge(count("tc_wgmma_cluster", "sm_90a", "STG"), 64);
	ck_assert_int_eq(count("tc_wgmma_cluster", "sm_90a", "UTMASTG"), 0);
	ck_assert_int_eq(count("tc_wgmma_tma_store", "sm_90a", "STG"), 0);
	ck_assert_int_ge(count("tc_wgmma_tma_store", "sm_90a", "UTMASTG"), 1);
	ck_assert_int_eq(count("tc_wgmma_cluster", "sm_90a", "BAR.SYNC"), 0);
	ck_assert_int_ge(count("tc_wgmma_tma_store", "sm_90a", "BAR.SYNC"), 2);
	ck_assert_int_eq(count("tc_wgmma_tma_store", "sm_90a", "STS.64"), 64);
	ck_assert_int_eq(count("tc_wgmma_tma_store", "sm_90a", "ST"), 0);
}
END_TEST

/*
 * Step 21 is step 20 with the last wave in narrower pieces: besides the
 * whole tiles' HGMMA.64x256x16, four a stage (and four more where a
 * piece is a whole tile), four of each narrower width, 128 to 232
 * columns, with none in step 20; the piece's chunks stored by the TMA as
 * step 20's, and a 232-column piece's last 8 columns by two STG a
 * thread; the same STS.64 stores (64 a thread in a whole tile), no
 * generic ST.
 */
START_TEST(the_last_wave_in_narrower_pieces)
{
	static const char *const widths[] = { "HGMMA.64x128x16", "HGMMA.64x160x16", "HGMMA.64x192x16", "HGMMA.64x232x16" };

	for (size_t w = 0; w < ARRAY_LEN(widths); w++) {
		ck_assert_msg(count("tc_wgmma_last_wave", "sm_90a", widths[w]) == 4, "tc_wgmma_last_wave: %d %s",
		    count("tc_wgmma_last_wave", "sm_90a", widths[w]), widths[w]);
		ck_assert_int_eq(count("tc_wgmma_tma_store", "sm_90a", widths[w]), 0);
	}
	ck_assert_int_eq(count("tc_wgmma_last_wave", "sm_90a", "HGMMA.64x256x16"), 8);
	ck_assert_int_eq(count("tc_wgmma_tma_store", "sm_90a", "HGMMA.64x256x16"), 4);
	has("tc_wgmma_last_wave", "sm_90a", "UTMASTG");
	has("tc_wgmma_last_wave", "sm_90a", "UTMALDG.2D.MULTICAST");
	ck_assert_int_eq(count("tc_wgmma_last_wave", "sm_90a", "STG"), 2);
	ck_assert_int_eq(count("tc_wgmma_last_wave", "sm_90a", "ST"), 0);
	ck_assert_int_ge(count("tc_wgmma_last_wave", "sm_90a", "STS.64"), 64);
}
END_TEST

/*
 * The persistent steps (18 to 20) run tile after tile, and no moves zero
 * the sums between two: a tile's first HGMMA writes them, its scale-d a
 * predicate (", UP0" in its line).  Step 17, one tile a block, zeroes
 * them once, and none of its HGMMA carries one.
 */
START_TEST(a_tiles_first_wgmma_writes_its_sums)
{
	static const char *const persistent[] = { "tc_wgmma_persistent", "tc_wgmma_cluster", "tc_wgmma_tma_store" };

	for (size_t k = 0; k < ARRAY_LEN(persistent); k++)
		ck_assert_msg(count_with(persistent[k], "sm_90a", "HGMMA", ", UP") == 1,
		    "%s: no HGMMA (or more than one) with a scale-d predicate", persistent[k]);
	ck_assert_int_eq(count_with("tc_wgmma_grouped", "sm_90a", "HGMMA", ", UP"), 0);
	/* step 21: one in the whole tiles' loop, one in each of the last wave's five widths (256 among them) */
	ck_assert_int_eq(count_with("tc_wgmma_last_wave", "sm_90a", "HGMMA", ", UP"), 6);
}
END_TEST

/* Step 13 and the rungs after it: TMA copies and warpgroup multiply-adds, no warp-level HMMA. */
START_TEST(tma_and_wgmma_on_hopper)
{
	static const char *const k[] = { "tc_wgmma_tma", "tc_wgmma_pipelined", "tc_wgmma_warp_specialized",
	    "tc_wgmma_grouped", "tc_wgmma_persistent", "tc_wgmma_cluster", "tc_wgmma_tma_store", "tc_wgmma_last_wave" };

	for (size_t i = 0; i < ARRAY_LEN(k); i++) {
		has(k[i], "sm_90a", "HGMMA");
		has(k[i], "sm_90a", "UTMALDG");
		has(k[i], "sm_90a", "SYNCS");
		/* the mbarrier waits the lesson names */
		has(k[i], "sm_90a", "SYNCS.PHASECHK");
		ck_assert_int_eq(count(k[i], "sm_90a", "HMMA"), 0);
	}
}
END_TEST

/*
 * Each control step makes one of the two changes between its neighbours,
 * and its SASS shows which.  The wide WMMA control loads its fragments
 * from global memory, three LD.E for two HMMA as step 3 does from shared
 * memory, with no shared memory or barrier.  The padded control
 * multiplies as step 5 does (the same LDSM and HMMA) from tiles copied
 * as step 3 copies them (LDG, then STS).  The one-stage control copies
 * as step 7 does (LDGSTS, no LDG or STS) and multiplies as it does.  The
 * TMA control multiplies as step 7 does, its copies UTMALDG where step
 * 4's are LDGSTS; the narrow control copies as the TMA control does and
 * multiplies by HGMMA, with no LDSM or HMMA left; the two after it make
 * step 13's other changes, one each.  The unspecialized control runs
 * step 16's HGMMA with a barrier in its loop.
 */
START_TEST(each_control_changes_one_thing)
{
	static const char *const same[] = { "LDSM", "HMMA", "LDG", "STS" };
	int ld = count("tc_wmma_global_wide", "sm_90", "LD.E"), hmma = count("tc_wmma_global_wide", "sm_90", "HMMA");

	ck_assert_msg(hmma > 0 && 2 * ld == 3 * hmma, "tc_wmma_global_wide: %d LD.E for %d HMMA", ld, hmma);
	ck_assert_int_eq(count("tc_wmma_global_wide", "sm_90", "STS"), 0);
	ck_assert_int_eq(count("tc_wmma_global_wide", "sm_90", "BAR.SYNC"), 0);
	for (size_t i = 0; i < ARRAY_LEN(same); i++)
		ck_assert_msg(count("tc_mma_ldmatrix_padded", "sm_90", same[i]) == count("tc_mma_ldmatrix", "sm_90", same[i]),
		    "tc_mma_ldmatrix_padded and tc_mma_ldmatrix differ in %s", same[i]);
	has("tc_mma_ldmatrix_padded", "sm_90", "LDSM");
	ck_assert_int_eq(count("tc_mma_tma", "sm_90a", "LDSM"), count("tc_mma_cp_async", "sm_90", "LDSM"));
	ck_assert_int_eq(count("tc_mma_tma", "sm_90a", "HMMA"), count("tc_mma_cp_async", "sm_90", "HMMA"));
	has("tc_mma_tma", "sm_90a", "UTMALDG");
	has("tc_mma_cp_async_one_stage", "sm_90", "LDGSTS");
	ck_assert_int_eq(count("tc_mma_cp_async_one_stage", "sm_90", "LDG"), 0);
	ck_assert_int_eq(count("tc_mma_cp_async_one_stage", "sm_90", "STS"), 0);
	ck_assert_int_eq(count("tc_mma_cp_async_one_stage", "sm_90", "LDSM"), count("tc_mma_cp_async", "sm_90", "LDSM"));
	ck_assert_int_eq(count("tc_mma_cp_async_one_stage", "sm_90", "HMMA"), count("tc_mma_cp_async", "sm_90", "HMMA"));
	/*
	 * The one-stage TMA control: step 6's multiply (the same LDSM and HMMA),
	 * its copies two UTMALDG on one mbarrier (one SYNCS.EXCH) where step 6's
	 * are LDGSTS; the TMA control then makes three (three SYNCS.EXCH).
	 */
	ck_assert_int_eq(count("tc_mma_tma_one_stage", "sm_90a", "LDSM"), count("tc_mma_cp_async_one_stage", "sm_90", "LDSM"));
	ck_assert_int_eq(count("tc_mma_tma_one_stage", "sm_90a", "HMMA"), count("tc_mma_cp_async_one_stage", "sm_90", "HMMA"));
	ck_assert_int_eq(count("tc_mma_tma_one_stage", "sm_90a", "LDGSTS"), 0);
	ck_assert_int_eq(count("tc_mma_tma_one_stage", "sm_90a", "UTMALDG"), 2);
	ck_assert_int_eq(count("tc_mma_tma_one_stage", "sm_90a", "SYNCS.EXCH"), 1);
	ck_assert_int_eq(count("tc_mma_tma", "sm_90a", "SYNCS.EXCH"), 3);
	ck_assert_int_eq(count("tc_wgmma_narrow", "sm_90a", "UTMALDG"), count("tc_mma_tma", "sm_90a", "UTMALDG"));
	has("tc_wgmma_narrow", "sm_90a", "HGMMA");
	ck_assert_int_eq(count("tc_wgmma_narrow", "sm_90a", "LDSM"), 0);
	ck_assert_int_eq(count("tc_wgmma_narrow", "sm_90a", "HMMA"), 0);
	ck_assert_int_eq(count("tc_mma_tma", "sm_90a", "LDGSTS"), 0);
	ck_assert_int_eq(count("tc_mma_tma", "sm_90a", "LDG"), 0);
	ck_assert_int_eq(count("tc_mma_tma", "sm_90a", "STS"), 0);
	/*
	 * Step 13's controls.  One warpgroup: the narrow control's copies,
	 * barriers and mbarriers, but both halves' HGMMA (twice as many) and
	 * stores from one warpgroup's threads (each thread twice the STG).
	 * Then 64-wide tiles: twice the HGMMA a stage again, all else as the
	 * one-warpgroup control.  Step 13 then differs by its stages: four
	 * mbarriers made (SYNCS.EXCH) where there were three.
	 */
	ck_assert_int_eq(count("tc_wgmma_one_warpgroup", "sm_90a", "HGMMA"), 2 * count("tc_wgmma_narrow", "sm_90a", "HGMMA"));
	ck_assert_int_eq(count("tc_wgmma_one_warpgroup", "sm_90a", "STG"), 2 * count("tc_wgmma_narrow", "sm_90a", "STG"));
	ck_assert_int_eq(count("tc_wgmma_wide_tiles", "sm_90a", "HGMMA"), 2 * count("tc_wgmma_one_warpgroup", "sm_90a", "HGMMA"));
	ck_assert_int_eq(count("tc_wgmma_tma", "sm_90a", "HGMMA"), count("tc_wgmma_wide_tiles", "sm_90a", "HGMMA"));
	{
		static const char *const kept[] = { "UTMALDG", "BAR.SYNC", "SYNCS.PHASECHK", "SYNCS.EXCH", "WARPGROUP.DEPBAR" };

		for (size_t i = 0; i < ARRAY_LEN(kept); i++) {
			ck_assert_msg(count("tc_wgmma_one_warpgroup", "sm_90a", kept[i]) == count("tc_wgmma_narrow", "sm_90a", kept[i]),
			    "tc_wgmma_one_warpgroup and tc_wgmma_narrow differ in %s", kept[i]);
			ck_assert_msg(count("tc_wgmma_wide_tiles", "sm_90a", kept[i]) == count("tc_wgmma_one_warpgroup", "sm_90a", kept[i]),
			    "tc_wgmma_wide_tiles and tc_wgmma_one_warpgroup differ in %s", kept[i]);
		}
	}
	ck_assert_int_eq(count("tc_wgmma_wide_tiles", "sm_90a", "STG"), count("tc_wgmma_one_warpgroup", "sm_90a", "STG"));
	ck_assert_int_eq(count("tc_wgmma_tma", "sm_90a", "SYNCS.EXCH"), count("tc_wgmma_wide_tiles", "sm_90a", "SYNCS.EXCH") + 1);
	ck_assert_int_eq(count("tc_wgmma_unspecialized", "sm_90a", "HGMMA"),
	    count("tc_wgmma_warp_specialized", "sm_90a", "HGMMA"));
	ck_assert_int_eq(count("tc_wgmma_unspecialized", "sm_90a", "USETMAXREG"), 0);
	ck_assert_int_ge(count("tc_wgmma_unspecialized", "sm_90a", "BAR.SYNC"), 2);
}
END_TEST

/* Does a kernel source still hold placeholder bodies? */
static int placeholder(const char *rel)
{
	char *path = paths_source(rel);
	size_t len = 0;
	char *text = file_read(path, &len);
	int p = text == NULL || strstr(text, "PLACEHOLDER") != NULL;

	free(text);
	free(path);
	return p;
}

static Suite *make_suite(void)
{
	Suite *s = suite_create("tensor_sass");
	TCase *tc = tcase_create("tensor_sass");

	/* each reads the SASS of many kernels through cuobjdump: seconds, more under AddressSanitizer */
	tcase_set_timeout(tc, 120);

	tcase_add_test(tc, hmma_in_every_warp_level_step);
	tcase_add_test(tc, ldmatrix_and_cp_async);
	tcase_add_test(tc, tma_and_wgmma_on_hopper);
	tcase_add_test(tc, fragment_loads);
	tcase_add_test(tc, no_tile_through_registers);
	tcase_add_test(tc, one_barrier_before_the_split);
	tcase_add_test(tc, each_control_changes_one_thing);
	tcase_add_test(tc, each_rung_after_step_10_changes_one_thing);
	tcase_add_test(tc, clusters_share_bt_by_multicast);
	tcase_add_test(tc, tma_stores_c);
	tcase_add_test(tc, a_tiles_first_wgmma_writes_its_sums);
	tcase_add_test(tc, the_last_wave_in_narrower_pieces);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (CHECK_SASS_MISSING) {
		fprintf(stderr, "skip: built without cuobjdump: the SASS checks did not run\n");
		return 77;
	}
	if (placeholder("kernels/tensor.cu") || placeholder("kernels/tensor_hopper.cu")) {
		fprintf(stderr, "skip: placeholder kernels in kernels/tensor.cu or kernels/tensor_hopper.cu\n");
		return 77;
	}
	return check_run(make_suite()) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

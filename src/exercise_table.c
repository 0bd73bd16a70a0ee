/* The one table of exercises: what each asks for, checked in the SASS (see doc/exercises.md). */
#include "config.h"

#include <string.h>

#include "exercise_table.h"
#include "i18n.h"
#include "util.h"

/*
 * Adding an exercise: its starting file and solution in kernels/exercises/,
 * its row here, and its section (task and hints) in each language of its
 * lesson.  Every count below was read from the SASS for sm_90: the
 * starting file fails at least one check, the solution passes them all.
 */
const struct exercise_def exercise_defs[] = {
	/* ---- reduction */
	{
		.id = "neighbored-less",
		.lesson = "reduction",
		.target = "reduce_neighbored_less",
		.start_from = "reduce_neighbored",
		.checks = {
			/* tid % (2*stride) by a stride unknown when compiling: I2F, MUFU.RCP, ... */
			{ CHECK_AT_MOST, "MUFU.RCP", NULL, 0,
			  N_("the loop still divides: tid % (2*stride) costs a division every round; hand pair number tid to thread tid instead") },
		},
	},
	{
		.id = "interleaved",
		.lesson = "reduction",
		.target = "reduce_interleaved",
		.start_from = "reduce_neighbored_less",
		.checks = {
			/* stride *= 2 is a shift left of a uniform register; halving has none */
			{ CHECK_AT_MOST, "USHF.L", NULL, 0,
			  N_("the stride still doubles every round (USHF.L, a shift left): start at half the block and halve it") },
		},
	},

	/* ---- unrolling */
	{
		.id = "unroll8",
		.lesson = "unrolling",
		.target = "reduce_unroll8",
		.start_from = "reduce_unroll2",
		.checks = {
			{ CHECK_BEFORE, "LDG.E", "BAR.SYNC", 8,
			  N_("each thread should issue eight global loads before the first barrier") },
		},
	},
	{
		.id = "warp-shuffle",
		.lesson = "unrolling",
		.target = "reduce_warp_shuffle",
		.start_from = "reduce_unroll8",
		.checks = {
			{ CHECK_AT_LEAST, "SHFL.DOWN", NULL, 5,
			  N_("no warp adds with shuffles yet: __shfl_down_sync with offsets 16, 8, 4, 2 and 1") },
			{ CHECK_AT_MOST, "BAR.SYNC", NULL, 1,
			  N_("more than one barrier: after the warps' shuffles, one __syncthreads() before the first warp adds the warp sums is enough") },
		},
	},

	/* ---- bitpack */
	{
		.id = "bitpack-register",
		.lesson = "bitpack",
		.target = "bitpack_register",
		.start_from = "bitpack_global_volatile",
		.checks = {
			{ CHECK_AT_MOST, "LDG", NULL, 0,
			  N_("the word is still loaded from global memory: build it in a local variable") },
			{ CHECK_AT_MOST, "STG", NULL, 1,
			  N_("more than one store to global memory: write out[tid] once, after the loop") },
		},
	},
	{
		.id = "bitpack-unroll",
		.lesson = "bitpack",
		.target = "bitpack_register_unrolled",
		.start_from = "bitpack_register",
		.checks = {
			/* the listing's final self-branch is the one BRA allowed */
			{ CHECK_AT_MOST, "BRA", NULL, 1,
			  N_("a branch back is left: the 32 rounds are still a loop") },
			{ CHECK_AT_MOST, "SHF.L", NULL, 0,
			  N_("flags are still shifted by a variable amount: unrolled, every bit's position is a constant") },
		},
	},

	/* ---- vectorize */
	{
		.id = "float4",
		.lesson = "vectorize",
		.target = "vec_add_float4",
		.start_from = "vec_add_float",
		.checks = {
			{ CHECK_AT_LEAST, "LDG.E.128", NULL, 2,
			  N_("x and y are not read 16 bytes at a time yet (LDG.E.128): load them as float4") },
			{ CHECK_AT_LEAST, "STG.E.128", NULL, 1,
			  N_("z is not written 16 bytes at a time yet (STG.E.128): store it as float4") },
		},
	},
	{
		.id = "char8",
		.lesson = "vectorize",
		.target = "vec_add_char8",
		.start_from = "vec_add_char",
		.checks = {
			{ CHECK_AT_LEAST, "LDG.E.64", NULL, 2,
			  N_("x and y are not read 8 bytes at a time yet (LDG.E.64): load packs of eight chars aligned to 8 bytes") },
			{ CHECK_AT_LEAST, "STG.E.64", NULL, 1,
			  N_("z is not written 8 bytes at a time yet (STG.E.64): store a whole pack of eight chars") },
		},
	},

	/* ---- shared-memory */
	{
		.id = "tile-ab",
		.lesson = "shared-memory",
		.target = "matmul_shared_ab",
		.start_from = "matmul_shared_a",
		.checks = {
			{ CHECK_AT_MOST, "LDG", NULL, 8,
			  N_("B is still read from global memory in the multiply-add loop: copy its tile into shared memory") },
			{ CHECK_AT_LEAST, "BAR.SYNC", NULL, 2,
			  N_("fewer than two block-wide barriers: __syncthreads() after the copy, and again before the next copy") },
		},
	},
	{
		.id = "tile-4x",
		.lesson = "shared-memory",
		.target = "matmul_tiled_4x",
		.start_from = "matmul_shared_ab",
		.checks = {
			{ CHECK_AT_LEAST, "FFMA", NULL, 128,
			  N_("fewer than 4 x 32 multiply-adds per tile: each thread should keep four sums, for four rows of C") },
			{ CHECK_AT_LEAST, "BAR.SYNC", NULL, 2,
			  N_("a barrier is missing: keep __syncthreads() after the copy and after the multiply-adds") },
		},
	},

	/* ---- bank-conflicts */
	{
		.id = "smem-sequential",
		.lesson = "bank-conflicts",
		.target = "reduce_shared_sequential",
		.start_from = "reduce_shared_strided",
		.checks = {
			{ CHECK_AT_MOST, "USHF.L", NULL, 0,
			  N_("the stride still doubles every round (USHF.L), so lanes read words 2*i apart: start at half the block and halve it") },
		},
	},
	{
		.id = "smem-padded",
		.lesson = "bank-conflicts",
		.target = "smem_stride_32_padded",
		.start_from = "smem_stride_32",
		.checks = {
			/* lane * 128 bytes is a shift; lane * 132 is not */
			{ CHECK_AT_MOST, "IMAD.SHL", NULL, 0,
			  N_("row l still starts at word 32*l (a multiply by 128 bytes, done as a shift: IMAD.SHL): pad the rows") },
			{ CHECK_AT_LEAST, "LDS", NULL, 64,
			  N_("fewer than 64 shared loads: keep the reads volatile, so that every one of them happens") },
		},
	},

	/* ---- pitch */
	{
		.id = "pitched",
		.lesson = "pitch",
		.target = "matmul_pitched",
		.start_from = "matmul_rows",
		.checks = {
			{ CHECK_AT_LEAST, "SHF.R.U64", NULL, 1,
			  N_("the pitch is never turned into floats (pitch / sizeof(float), a 64-bit shift: SHF.R.U64): rows are still found n floats apart") },
		},
	},
	{
		.id = "pitched-float4",
		.lesson = "pitch",
		.target = "matmul_pitched",
		.start_from = "matmul_pitched",
		.checks = {
			{ CHECK_AT_LEAST, "LDG.E.128", NULL, 1,
			  N_("A is still read one float at a time: read four with one float4 (LDG.E.128)") },
		},
	},

	/* ---- occupancy */
	{
		.id = "ilp4",
		.lesson = "occupancy",
		.target = "stream_ilp4",
		.start_from = "stream_ilp1",
		.checks = {
			{ CHECK_BEFORE, "LDG.E.128", "STG.E.128", 4,
			  N_("fewer than four 16-byte loads before the first store: load all four float4s first") },
		},
	},
	{
		.id = "launch-bounds",
		.lesson = "occupancy",
		.target = "stream_ilp16_capped",
		.start_from = "stream_ilp16",
		.checks = {
			{ CHECK_MAX_REGISTERS, NULL, NULL, 32,
			  N_("more than 32 registers per thread: promise at most 256 threads a block and ask for 8 blocks a multiprocessor") },
			{ CHECK_BEFORE, "LDG.E.128", "STG.E.128", 16,
			  N_("fewer than sixteen loads before the first store: change the launch bounds, not the loads") },
		},
	},

	/* ---- register-tiling */
	{
		.id = "vectorized-tiles",
		.lesson = "register-tiling",
		.target = "matmul_2d_vectorized",
		.start_from = "matmul_2d_blocktile",
		.checks = {
			{ CHECK_AT_LEAST, "LDG.E.128", NULL, 2,
			  N_("the tiles are still copied one float at a time: fetch one float4 of A and one of B per thread (LDG.E.128)") },
			{ CHECK_AT_LEAST, "STS.128", NULL, 1,
			  N_("B's float4 is not stored whole: one 16-byte store into its tile (STS.128)") },
		},
	},
	{
		.id = "double-buffer",
		.lesson = "register-tiling",
		.target = "matmul_warptile_double_buffer",
		.start_from = "matmul_warptile",
		.checks = {
			/* the first tiles' two loads before the loop, the next tiles' two in it */
			{ CHECK_BEFORE, "LDG.E.128", "FFMA", 4,
			  N_("the next tiles are not on their way before the multiply-adds start: load them into registers at the top of the loop") },
			{ CHECK_AT_MOST, "BAR.SYNC", NULL, 2,
			  N_("more than two barriers: with two buffers, one __syncthreads() before the loop and one per tile are enough") },
			{ CHECK_MAX_REGISTERS, NULL, NULL, 128,
			  N_("more than 128 registers per thread: only one block of 256 threads fits a multiprocessor; ask for two with __launch_bounds__(256, 2)") },
		},
	},
};

const int exercise_def_count = (int)ARRAY_LEN(exercise_defs);

const struct exercise_def *exercise_def_find(const char *id)
{
	for (int i = 0; i < exercise_def_count; i++)
		if (strcmp(exercise_defs[i].id, id) == 0)
			return &exercise_defs[i];
	return NULL;
}

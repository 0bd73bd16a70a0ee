/* The one table of exercises: what each asks for, checked in the SASS (see doc/exercises.md). */
#include "config.h"

#include <string.h>

#include "exercise_table.h"
#include "i18n.h"
#include "util.h"

/*
 * Adding an exercise: its starting file and solution in kernels/exercises/,
 * its row here, and its section (task and hints) in each language of its
 * lesson.  Every count below was read from the SASS for sm_90 (sm_90a
 * for a target built for it alone, as exercise_arch compiles it): the
 * starting file fails at least one check of the technique and passes every
 * check of the work (.work); a kernel with an empty body fails a check of
 * the work; our solution, and a second one written differently
 * (tests/fixtures/exercises/<id>.alt.cu), pass them all.
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
			/*
			 * A mask (tid & (2*stride - 1)) divides nothing, yet still picks
			 * the busy threads among all of them, so every warp diverges: the
			 * loop tests a bit pattern (LOP3), where the packed tree compares
			 * 2*stride*tid with the block.
			 */
			{ CHECK_AT_MOST, "LOP3", NULL, 0,
			  N_("the busy threads are still picked by a test of tid's bits (a mask), scattered over every warp: hand pair number tid to thread tid instead"),
			  .in_loop = true },
			/* the tree works in place in global memory: it loads, and it stores the sum */
			{ CHECK_AT_LEAST, "LDG", NULL, 1,
			  N_("the ints are never read from global memory (LDG)"), .work = true },
			{ CHECK_AT_LEAST, "BAR.SYNC", NULL, 1,
			  N_("no __syncthreads(): each round of the tree must wait for the round before"), .work = true },
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("the block's sum is never stored: thread 0 writes it to g_odata[blockIdx.x]"), .work = true },
		},
	},
	{
		.id = "interleaved",
		.lesson = "reduction",
		.target = "reduce_interleaved",
		.start_from = "reduce_neighbored_less",
		.checks = {
			/*
			 * stride *= 2 is a shift left in the loop; halving is a shift
			 * right there (a stride built as 1u << s before the loop is no
			 * doubling, and a doubling by a multiply has no halving)
			 */
			{ CHECK_AT_MOST, "USHF.L|SHF.L", NULL, 0,
			  N_("the stride still doubles every round (USHF.L, a shift left): start at half the block and halve it"),
			  .in_loop = true },
			{ CHECK_AT_LEAST, "USHF.R|SHF.R", NULL, 1,
			  N_("the stride is never halved in the loop (no shift right): start at half the block and halve it every round"),
			  .in_loop = true },
			/* the tree works in place in global memory: it loads, and it stores the sum */
			{ CHECK_AT_LEAST, "LDG", NULL, 1,
			  N_("the ints are never read from global memory (LDG)"), .work = true },
			{ CHECK_AT_LEAST, "BAR.SYNC", NULL, 1,
			  N_("no __syncthreads(): each round of the tree must wait for the round before"), .work = true },
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("the block's sum is never stored: thread 0 writes it to g_odata[blockIdx.x]"), .work = true },
		},
	},

	/* ---- unrolling */
	{
		.id = "unroll8",
		.lesson = "unrolling",
		.target = "reduce_unroll8",
		.start_from = "reduce_unroll2",
		.checks = {
			/* all eight in flight before the tree's first barrier; the tail's loads count too */
			{ CHECK_BEFORE, "LDG.E", "BAR.SYNC", 8,
			  N_("each thread should issue eight global loads before the first barrier") },
			/* without a barrier the count above would take every load in the kernel */
			{ CHECK_AT_LEAST, "BAR.SYNC", NULL, 1,
			  N_("no __syncthreads(): each round of the tree must wait for the round before"), .work = true },
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("the block's sum is never stored: thread 0 writes it to g_odata[blockIdx.x]"), .work = true },
		},
	},
	{
		.id = "warp-shuffle",
		.lesson = "unrolling",
		.target = "reduce_warp_shuffle",
		.start_from = "reduce_unroll8",
		.checks = {
			/* SHFL.DOWN from __shfl_down_sync, SHFL.BFLY from __shfl_xor_sync: both add a warp */
			{ CHECK_AT_LEAST, "SHFL", NULL, 5,
			  N_("no warp adds with shuffles yet: __shfl_down_sync (or __shfl_xor_sync) with offsets 16, 8, 4, 2 and 1") },
			{ CHECK_AT_MOST, "BAR.SYNC", NULL, 1,
			  N_("more than one barrier: after the warps' shuffles, one __syncthreads() before the first warp adds the warp sums is enough") },
			/* the grid-stride loads, the one barrier between the warps' sums and the first warp, the store */
			{ CHECK_AT_LEAST, "LDG", NULL, 1,
			  N_("the ints are never read from global memory (LDG)"), .work = true },
			{ CHECK_AT_LEAST, "BAR.SYNC", NULL, 1,
			  N_("no __syncthreads(): the first warp could read the warp sums before the other warps have stored them"), .work = true },
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("the block's sum is never stored: thread 0 writes it to g_odata[blockIdx.x]"), .work = true },
		},
	},

	{
		.id = "one-pass",
		.lesson = "unrolling",
		.target = "reduce_one_pass",
		.start_from = "reduce_warp_shuffle",
		.checks = {
			/*
			 * __threadfence() is MEMBAR.SC.GPU on sm_90 (with ERRBAR and
			 * CCTL beside it).  The order is the technique: a fence after
			 * the ticket (or none) lets the last block read a partial not
			 * yet visible, a race the GPU forgives nearly always and no
			 * tool sees, so the rule is stated on the SASS.
			 */
			{ CHECK_BEFORE, "MEMBAR", "ATOMG", 1,
			  N_("no __threadfence() (MEMBAR) before the ticket: a block could draw its ticket before its partial is visible to the last block") },
			/* a ticket's old value is read, so atomicAdd and atomicInc alike are ATOMG, never RED */
			{ CHECK_AT_LEAST, "ATOMG", NULL, 1,
			  N_("no ticket (ATOMG): thread 0 of each block adds 1 to *blocks_done with atomicAdd, and the old value tells it whether its block is the last") },
			{ CHECK_AT_LEAST, "STG.E.64", NULL, 1,
			  N_("the 64-bit total is never written: the last block stores the sum of all partials to *total") },
			/*
			 * The shuffle step the file starts from: its loads, its warp
			 * adds, its barrier, the store of the block's partial.  Whether
			 * the counter is reset only a GPU shows: the runs come one
			 * after another, and a counter left at gridDim.x makes the next
			 * run's total wrong.
			 */
			{ CHECK_AT_LEAST, "LDG", NULL, 1,
			  N_("the ints are never read from global memory (LDG)"), .work = true },
			{ CHECK_AT_LEAST, "SHFL", NULL, 5,
			  N_("fewer than five shuffles: keep the warp adds of the shuffle step, offsets 16, 8, 4, 2 and 1"), .work = true },
			{ CHECK_AT_LEAST, "BAR.SYNC", NULL, 1,
			  N_("no __syncthreads(): the first warp could read the warp sums before the other warps have stored them"), .work = true },
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("the block's sum is never stored: thread 0 writes it to g_odata[blockIdx.x]"), .work = true },
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
			/* the guard tid < n is one ISETP; comparing v with the thresholds needs another */
			{ CHECK_AT_LEAST, "ISETP", NULL, 2,
			  N_("the value is never compared with the thresholds (ISETP): bit b is set when it reaches bitpack_thresholds[b]"), .work = true },
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("the word is never stored: write it to out[tid]"), .work = true },
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
			/* the guard tid < n is one ISETP; comparing v with the thresholds needs another */
			{ CHECK_AT_LEAST, "ISETP", NULL, 2,
			  N_("the value is never compared with the thresholds (ISETP): bit b is set when it reaches bitpack_thresholds[b]"), .work = true },
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("the word is never stored: write it to out[tid]"), .work = true },
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
			/* in proportion, as it ran: the tail's few scalar loads aside, every byte comes 16 at a time */
			{ CHECK_SHARE, "LDG.E.128", "LDG", 90,
			  N_("most of x and y is still read a float at a time: the float4 loads must carry all but the tail") },
			/* at any width: two inputs are two loads, and the sums are adds */
			{ CHECK_AT_LEAST, "LDG", NULL, 2,
			  N_("x and y are never both read from global memory (LDG)"), .work = true },
			{ CHECK_AT_LEAST, "FADD", NULL, 1,
			  N_("x and y are never added (FADD)"), .work = true },
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("z is never written (STG)"), .work = true },
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
			{ CHECK_SHARE, "LDG.E.64", "LDG", 90,
			  N_("most of x and y is still read in narrower pieces: the 8-byte loads must carry all but the tail") },
			/* at any width: two inputs are two loads (byte adds take too many forms to count) */
			{ CHECK_AT_LEAST, "LDG", NULL, 2,
			  N_("x and y are never both read from global memory (LDG)"), .work = true },
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("z is never written (STG)"), .work = true },
		},
	},

	{
		.id = "half4",
		.lesson = "vectorize",
		.target = "vec_add_half4",
		.start_from = "vec_add_half",
		.checks = {
			/*
			 * Four halves are 8 bytes.  A struct of two __half2 is copied a
			 * member at a time (two LDG.E); __half2_raw members or a uint2
			 * move in one LDG.E.64.  The two-wide adds cannot be counted:
			 * the one-half kernel has HADD2 too (on the low half), and
			 * HFMA2.MMA also sets constants.
			 */
			{ CHECK_AT_LEAST, "LDG.E.64", NULL, 2,
			  N_("x and y are not read 8 bytes at a time yet (LDG.E.64): load four halves as one pack aligned to 8 bytes") },
			{ CHECK_AT_LEAST, "STG.E.64", NULL, 1,
			  N_("z is not written 8 bytes at a time yet (STG.E.64): store the four sums as one pack") },
			{ CHECK_SHARE, "LDG.E.64", "LDG", 90,
			  N_("most of x and y is still read in narrower pieces: the 8-byte loads must carry all but the tail") },
			/*
			 * The task's adds are two-wide (__hadd2): halves widened to
			 * float and added one at a time are FADD, which no half add is
			 */
			{ CHECK_AT_MOST, "FADD", NULL, 0,
			  N_("the halves are added one at a time in float (FADD): add them two at a time with __hadd2, as the task asks") },
			/* at any width: two inputs are two loads (an add is HADD2 or HFMA2.MMA, as the compiler likes) */
			{ CHECK_AT_LEAST, "LDG", NULL, 2,
			  N_("x and y are never both read from global memory (LDG)"), .work = true },
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("z is never written (STG)"), .work = true },
		},
	},

	/* ---- shared-memory */
	{
		.id = "tile-ab",
		.lesson = "shared-memory",
		.target = "matmul_shared_ab",
		.start_from = "matmul_shared_a",
		.checks = {
			/* the copy's loads of A and B, a few more where the compiler unrolls the copy of B */
			{ CHECK_AT_MOST, "LDG", NULL, 8,
			  N_("B is still read from global memory in the multiply-add loop: copy its tile into shared memory") },
			{ CHECK_AT_LEAST, "BAR.SYNC", NULL, 2,
			  N_("fewer than two block-wide barriers: __syncthreads() after the copy, and again before the next copy") },
			/* A and B are two arrays, so two loads at least; C is sums of products */
			{ CHECK_AT_LEAST, "LDG", NULL, 2,
			  N_("A and B are never both read from global memory (LDG)"), .work = true },
			{ CHECK_AT_LEAST, "FFMA", NULL, 1,
			  N_("no multiply-adds (FFMA): each element of C is a sum of products of A and B"), .work = true },
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("C is never written (STG)"), .work = true },
		},
	},
	{
		.id = "tile-4x",
		.lesson = "shared-memory",
		.target = "matmul_tiled_4x",
		.start_from = "matmul_shared_ab",
		.checks = {
			/*
			 * Four outputs a thread are four stores however the loop over k
			 * is unrolled; the count of FFMA depends on that unrolling.
			 */
			{ CHECK_AT_LEAST, "STG", NULL, 4,
			  N_("fewer than four stores to C: each thread should keep four sums and write four elements of C, in rows ty, ty + rows, ty + 2*rows and ty + 3*rows") },
			/* the starting file has both barriers already: they must stay */
			{ CHECK_AT_LEAST, "BAR.SYNC", NULL, 2,
			  N_("a barrier is missing: keep __syncthreads() after the copy and after the multiply-adds"), .work = true },
			{ CHECK_AT_LEAST, "LDG", NULL, 2,
			  N_("A and B are never both read from global memory (LDG)"), .work = true },
			{ CHECK_AT_LEAST, "FFMA", NULL, 1,
			  N_("no multiply-adds (FFMA): each element of C is a sum of products of A and B"), .work = true },
		},
	},

	/* ---- bank-conflicts */
	{
		.id = "smem-sequential",
		.lesson = "bank-conflicts",
		.target = "reduce_shared_sequential",
		.start_from = "reduce_shared_strided",
		.checks = {
			/* as in the interleaved exercise: the stride's doubling and halving, in the loop */
			{ CHECK_AT_MOST, "USHF.L|SHF.L", NULL, 0,
			  N_("the stride still doubles every round (USHF.L), so lanes read words 2*i apart: start at half the block and halve it"),
			  .in_loop = true },
			{ CHECK_AT_LEAST, "USHF.R|SHF.R", NULL, 1,
			  N_("the stride is never halved in the loop (no shift right): start at half the block and halve it every round"),
			  .in_loop = true },
			/* the copy into shared memory, the barrier between rounds, the store of the sum */
			{ CHECK_AT_LEAST, "LDG", NULL, 1,
			  N_("the ints are never read from global memory (LDG)"), .work = true },
			{ CHECK_AT_LEAST, "STS", NULL, 1,
			  N_("the ints are never copied into shared memory (STS)"), .work = true },
			{ CHECK_AT_LEAST, "BAR.SYNC", NULL, 1,
			  N_("no __syncthreads(): each round of the tree must wait for the round before"), .work = true },
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("the block's sum is never stored: thread 0 writes it to g_odata[blockIdx.x]"), .work = true },
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
			/* the 64 reads are what the step times: volatile keeps every one */
			{ CHECK_AT_LEAST, "LDS", NULL, 64,
			  N_("fewer than 64 shared loads: keep the reads volatile, so that every one of them happens"), .work = true },
			/* the tile filled, a barrier before it is read, the warp's sum stored */
			{ CHECK_AT_LEAST, "STS", NULL, 1,
			  N_("the tile is never filled from g_words (STS)"), .work = true },
			{ CHECK_AT_LEAST, "BAR.SYNC", NULL, 1,
			  N_("no __syncthreads() between filling the tile and reading it"), .work = true },
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("the warps' sums are never written to g_warp_sums (STG)"), .work = true },
		},
	},

	/* ---- pitch */
	{
		.id = "pitched",
		.lesson = "pitch",
		.target = "matmul_pitched",
		.start_from = "matmul_rows",
		.checks = {
			/*
			 * Whatever the idiom (pitch / sizeof(float), or a char pointer
			 * plus r * pitch), a kernel that finds pitched rows reads the
			 * pitch, its fifth parameter; the starting file never does.
			 */
			{ CHECK_READS_PARAM, NULL, NULL, 5,
			  N_("the pitch is never used: rows are still found n floats apart, but row r starts r * pitch bytes in") },
			{ CHECK_AT_LEAST, "LDG", NULL, 2,
			  N_("A and B are never both read from global memory (LDG)"), .work = true },
			{ CHECK_AT_LEAST, "FFMA", NULL, 1,
			  N_("no multiply-adds (FFMA): each element of C is a sum of products of A and B"), .work = true },
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("C is never written (STG)"), .work = true },
		},
	},
	{
		.id = "pitched-float4",
		.lesson = "pitch",
		.target = "matmul_pitched_float4",
		.start_from = "matmul_pitched",
		.checks = {
			{ CHECK_AT_LEAST, "LDG.E.128", NULL, 1,
			  N_("A is still read one float at a time: read four with one float4 (LDG.E.128)") },
			/* A's half of the bytes read comes 16 at a time; B's column is read a float at a time */
			{ CHECK_SHARE, "LDG.E.128", "LDG", 40,
			  N_("most of A is still read a float at a time: the float4 loads must carry A's rows") },
			/* the rows are pitched here too: the pitch is read, whatever the idiom */
			{ CHECK_READS_PARAM, NULL, NULL, 5,
			  N_("the pitch is never used: rows are still found n floats apart, but row r starts r * pitch bytes in"), .work = true },
			{ CHECK_AT_LEAST, "LDG", NULL, 2,
			  N_("A and B are never both read from global memory (LDG)"), .work = true },
			{ CHECK_AT_LEAST, "FFMA", NULL, 1,
			  N_("no multiply-adds (FFMA): each element of C is a sum of products of A and B"), .work = true },
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("C is never written (STG)"), .work = true },
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
			/* without a store the count above would take every load in the kernel */
			{ CHECK_AT_LEAST, "LDG", NULL, 1,
			  N_("x is never read (LDG)"), .work = true },
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("y is never written (STG)"), .work = true },
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
			/* the starting file's loads, which the exercise keeps as they are */
			{ CHECK_BEFORE, "LDG.E.128", "STG.E.128", 16,
			  N_("fewer than sixteen loads before the first store: change the launch bounds, not the loads"), .work = true },
			/* without a store the count above would take every load in the kernel */
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("y is never written (STG)"), .work = true },
		},
	},

	/* ---- register-tiling */
	{
		.id = "blocktile-2d",
		.lesson = "register-tiling",
		.target = "matmul_2d_blocktile",
		.start_from = "matmul_1d_blocktile",
		.checks = {
			/*
			 * An 8 x 8 block reads 8 values of A and 8 of B at each k: at
			 * most 128 shared loads for a tile of 8 values of K, one float
			 * at a time (32 LDS.128 as the compiler packs them; 10 with the
			 * loop over k kept rolled).  A column of 64 outputs reads 65
			 * values at each k: 136 loads even with A's rows read four
			 * values of K at a time.
			 */
			{ CHECK_AT_MOST, "LDS", NULL, 128,
			  N_("more than 128 shared loads (LDS): each value of A still feeds one multiply-add; with an 8 x 8 block of outputs a thread needs only 8 values of A and 8 of B at each k") },
			/* an 8 x 8 outer product at each k is 64 FFMA, however the loop over k is unrolled */
			{ CHECK_AT_LEAST, "FFMA", NULL, 64,
			  N_("fewer than 64 multiply-adds (FFMA): each thread adds the 8 x 8 outer product of its fragments at every k"), .work = true },
			/* the copy of the tiles, which the exercise keeps, and the store of C */
			{ CHECK_AT_LEAST, "LDG", NULL, 2,
			  N_("A and B are never both read from global memory (LDG)"), .work = true },
			{ CHECK_AT_LEAST, "STS", NULL, 1,
			  N_("the tiles are never copied into shared memory (STS)"), .work = true },
			{ CHECK_AT_LEAST, "BAR.SYNC", NULL, 2,
			  N_("a barrier is missing: keep __syncthreads() after the copy and after the multiply-adds"), .work = true },
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("C is never written (STG)"), .work = true },
		},
	},
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
			{ CHECK_SHARE, "LDG.E.128", "LDG", 90,
			  N_("most of the tiles is still copied a float at a time: the float4 loads must carry all but the edges") },
			/* an 8 x 8 outer product at each k is 64 FFMA, however the loop over k is unrolled */
			{ CHECK_AT_LEAST, "FFMA", NULL, 64,
			  N_("fewer than 64 multiply-adds (FFMA): each thread adds the 8 x 8 outer product of its fragments at every k"), .work = true },
			{ CHECK_AT_LEAST, "BAR.SYNC", NULL, 2,
			  N_("a barrier is missing: keep __syncthreads() after the copy and after the multiply-adds"), .work = true },
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("C is never written (STG)"), .work = true },
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
			/* an 8 x 8 outer product at each k is 64 FFMA, however the loop over k is unrolled */
			{ CHECK_AT_LEAST, "FFMA", NULL, 64,
			  N_("fewer than 64 multiply-adds (FFMA): each thread adds the 8 x 8 outer product of its fragments at every k"), .work = true },
			/* two buffers still need a barrier between a tile's copy and its reads */
			{ CHECK_AT_LEAST, "BAR.SYNC", NULL, 1,
			  N_("no __syncthreads(): the warps could read a tile before the whole block has stored it"), .work = true },
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("C is never written (STG)"), .work = true },
		},
	},

	/* ---- tensor-cores */
	{
		.id = "cp-async",
		.lesson = "tensor-cores",
		.target = "tc_mma_cp_async",
		.start_from = "tc_mma_ldmatrix",
		.checks = {
			{ CHECK_AT_LEAST, "LDGSTS", NULL, 1,
			  N_("the copies are not asynchronous yet: copy each 16-byte piece of the tiles with cp.async (LDGSTS), global to shared memory") },
			/* a tile read into registers and stored again is an LDG and an STS; cp.async is neither */
			{ CHECK_AT_MOST, "LDG", NULL, 0,
			  N_("the tiles still pass through registers (LDG): every piece of A and Bt goes to shared memory with cp.async") },
			/*
			 * Per tile of 32 of k each warp loads 4 pieces of A and 2
			 * pairs of pieces of B twice (12 ldmatrix) and issues 32
			 * mma.sync: the kept loop's counts; unrolled, more.
			 */
			{ CHECK_AT_LEAST, "HMMA", NULL, 32,
			  N_("fewer than 32 mma.sync (HMMA): keep the multiply of each tile as it is, 16 mma for each 16 of k"), .work = true },
			{ CHECK_AT_LEAST, "LDSM", NULL, 12,
			  N_("fewer than 12 ldmatrix (LDSM): keep the loads of the operands from the swizzled tiles as they are"), .work = true },
			/* the stages still need one barrier a tile: none is refilled while a warp reads it */
			{ CHECK_AT_LEAST, "BAR.SYNC", NULL, 1,
			  N_("no __syncthreads(): a warp could read a stage before the whole block's copies into it have landed, or refill one that others still read"), .work = true },
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("C is never written (STG)"), .work = true },
		},
	},
	{
		.id = "tma",
		.lesson = "tensor-cores",
		.target = "tc_mma_tma",
		/* the control step, whose body the starting file is */
		.start_from = "tc_mma_tma_one_stage",
		.checks = {
			/*
			 * mbarrier.init is SYNCS.EXCH.64: one per stage, made by one thread
			 * in a loop of a known count, which the compiler unrolls.
			 */
			{ CHECK_AT_LEAST, "SYNCS.EXCH", NULL, 3,
			  N_("fewer than three mbarriers made (mbarrier.init, SYNCS.EXCH): give each of three stages its own, so that two tiles are on their way while the warps multiply the third") },
			/*
			 * Copies started in two places: the first stages before the loop,
			 * the refills in it; each promises its barrier the bytes (expect_tx:
			 * SYNCS.ARRIVE.TRANS64).  One stage starts its copies in the loop alone.
			 */
			{ CHECK_AT_LEAST, "SYNCS.ARRIVE.TRANS64", NULL, 2,
			  N_("the copies start in one place only: before the loop, thread 0 starts the first two stages (barrier_expect_bytes, then the copies); in the loop it refills the stage the tile before used") },
			/* the control's work: the TMA's copies, the multiply, the barrier, the stores of C */
			{ CHECK_AT_LEAST, "UTMALDG", NULL, 2,
			  N_("A and Bt are never both copied by the TMA (UTMALDG): thread 0 copies a tile of each per stage"), .work = true },
			{ CHECK_AT_LEAST, "HMMA", NULL, 32,
			  N_("fewer than 32 mma.sync (HMMA): keep the multiply of each tile as it is"), .work = true },
			{ CHECK_AT_LEAST, "LDSM", NULL, 12,
			  N_("fewer than 12 ldmatrix (LDSM): keep the loads of the operands from the swizzled tiles as they are"), .work = true },
			{ CHECK_AT_LEAST, "BAR.SYNC", NULL, 1,
			  N_("no __syncthreads(): thread 0 could refill a stage that a warp still reads"), .work = true },
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("C is never written (STG)"), .work = true },
		},
	},
	{
		.id = "wgmma",
		.lesson = "tensor-cores",
		.target = "tc_wgmma_narrow",
		.start_from = "tc_mma_tma",
		.checks = {
			/* per stage each warpgroup issues one m64n128k16 for each 16 of k: two, however unrolled */
			{ CHECK_AT_LEAST, "HGMMA", NULL, 1,
			  N_("no wgmma (HGMMA) yet: let each warpgroup multiply its 64 rows of the stage by all 128 columns with wgmma m64n128k16, one for each 16 of k") },
			/* A from registers (the near miss: wgmma with ldmatrix'd A) is one LDSM a warp per 16 of k */
			{ CHECK_AT_MOST, "LDSM", NULL, 0,
			  N_("ldmatrix (LDSM) is left: wgmma reads A as well as Bt straight from shared memory, each through its descriptor; no fragment goes through registers") },
			{ CHECK_AT_MOST, "HMMA", NULL, 0,
			  N_("mma.sync (HMMA) is left: every multiply of the tile is a warpgroup's wgmma") },
			/* the TMA control's copies and stages stay as they are */
			{ CHECK_AT_LEAST, "UTMALDG", NULL, 2,
			  N_("A and Bt are never both loaded by the TMA (UTMALDG): keep the copies as they are"), .work = true },
			{ CHECK_AT_LEAST, "BAR.SYNC", NULL, 1,
			  N_("no __syncthreads(): thread 0 could refill a stage while a warpgroup's wgmma still reads it"), .work = true },
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("C is never written (STG)"), .work = true },
		},
	},
	{
		.id = "warp-specialize",
		.lesson = "tensor-cores",
		.target = "tc_wgmma_warp_specialized",
		/* the control step, whose body the starting file is */
		.start_from = "tc_wgmma_unspecialized",
		.checks = {
			/*
			 * No check of setmaxnreg: at this tile the consumers' accumulators fit
			 * in the 168 registers the block starts with (the unspecialized
			 * control holds them without it and spills nothing), so moving
			 * registers is no part of what the split buys.
			 */
			/*
			 * mbarrier.arrive with no bytes promised is SYNCS.ARRIVE.TRANS64.A1T0;
			 * the producer's arrivals that promise the TMA's bytes have no .A1T0.
			 */
			{ CHECK_AT_LEAST, "SYNCS.ARRIVE.TRANS64.A1T0", NULL, 1,
			  N_("the consumers never arrive on an mbarrier: give each stage a second mbarrier that says it is empty, the producer waits on it before refilling the stage") },
			/* the one __syncthreads() after the mbarriers are made; the starting file has another in the loop */
			{ CHECK_AT_MOST, "BAR.SYNC", NULL, 1,
			  N_("more than one barrier (BAR.SYNC): keep only the __syncthreads() after the mbarriers are made; in the loop the producer and the consumers meet through the mbarriers alone") },
			/* the control's work: the TMA's copies of A and Bt, the wgmma, the stores of C */
			{ CHECK_AT_LEAST, "UTMALDG", NULL, 2,
			  N_("A and Bt are never both loaded by the TMA (UTMALDG): the producer copies a tile of each per stage"), .work = true },
			/* per stage each consumer warpgroup multiplies 64 of k: four m64n256k16 */
			{ CHECK_AT_LEAST, "HGMMA", NULL, 4,
			  N_("fewer than four wgmma (HGMMA): per stage each consumer warpgroup issues four m64n256k16, one for each 16 of k"), .work = true },
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("C is never written (STG)"), .work = true },
		},
	},
	{
		.id = "tile-order",
		.lesson = "tensor-cores",
		.target = "tc_wgmma_grouped",
		/* the step before, whose body the starting file is */
		.start_from = "tc_wgmma_warp_specialized",
		.checks = {
			/*
			 * Which tile a block computes changes no instruction worth
			 * counting; it changes what the blocks running together read.
			 * Read on an H200 at 8192, caches flushed: ours (groups of 8
			 * tile-rows) 1.494 to 1.496 GB from device memory in three
			 * processes; squares of 8 x 8 tiles 126 to 132% of that,
			 * groups of 16 rows 83%; groups of 4 rows (the near miss) 159
			 * to 161%, of 2 rows 211 to 219%; row by row (the starting
			 * file) 3.46 to 5.48 GB, run to run.  At 7936: squares 122%,
			 * groups of 4 157%, row by row 181 to 291%.  Against ours,
			 * not the starting file: a grouped order reads the same to
			 * 0.5% each time, row by row does not.  The bound sits midway
			 * between the squares and groups of 4.  At 7680 (30 tiles a
			 * row) row by row reads only 155% of ours: too near the bound
			 * to judge there.
			 */
			{ CHECK_DRAM_READS, NULL, NULL, 145,
			  N_("the blocks running together read too much from device memory: number the tiles down groups of 8 tile-rows, so that the blocks running at once cover a squarer patch of C and share what they read in L2"),
			  .size = 8192 },
			/* the starting step's work: the TMA's copies of A and Bt, the wgmma, the stores of C */
			{ CHECK_AT_LEAST, "UTMALDG", NULL, 2,
			  N_("A and Bt are never both loaded by the TMA (UTMALDG): the producer copies a tile of each per stage"), .work = true },
			{ CHECK_AT_LEAST, "HGMMA", NULL, 4,
			  N_("fewer than four wgmma (HGMMA): per stage each consumer warpgroup issues four m64n256k16, one for each 16 of k"), .work = true },
			{ CHECK_AT_LEAST, "STG", NULL, 1,
			  N_("C is never written (STG)"), .work = true },
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

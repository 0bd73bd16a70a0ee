/*
 * Tensor cores on Hopper (sm_90a only): tiles brought into shared memory
 * by the Tensor Memory Accelerator, multiplied by warpgroup-wide wgmma.
 *
 * Same problem as kernels/tensor.cu: C = A * B, BF16 inputs, FP32 sums;
 * A row-major, B given transposed (Bt row-major), C row-major FP32, n a
 * multiple of 256.  A and Bt arrive as tensor maps the host makes with
 * cuTensorMapEncodeTiled: 2-D, BF16, the inner dimension k, boxes of 64
 * (k) by the tile's rows, 128-byte swizzle.  A 64-wide row of BF16 is 128
 * bytes, so the swizzle spreads the 8 rows of each 1024-byte group over
 * all the banks, and wgmma reads the tile in that same layout: its
 * shared-memory descriptor says "128-byte swizzle, 1024 bytes from one
 * group of 8 rows to the next".  (The TMA control's boxes are 32 by 128
 * with the 64-byte swizzle: the layout of kernels/tensor_mma.cuh.)  The
 * helpers, mbarriers, TMA and wgmma, are in kernels/hopper.cuh.
 *
 * The grid is one-dimensional: block b computes the tile of C at tile
 * row b / tiles_x, tile column b % tiles_x.
 */
#include <cuda.h>
#include <cuda_bf16.h>

#include "hopper.cuh"
#include "tensor_mma.cuh"

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
/* wgmma exists only on sm_90a: elsewhere these kernels are empty */
#define NO_HOPPER 1
#endif

/* ---- Control: step 6 with its copies made by the TMA ------------------------ */

/*
 * Step 6 (kernels/tensor.cu) with one change: the copies.  One stage, as
 * there: thread 0 asks the TMA for both tiles, the one mbarrier counts
 * their bytes, and every warp waits for tile t's phase (parity t & 1)
 * before it multiplies; after a barrier, thread 0 refills the stage.  The
 * tiles land in the 64-byte swizzle, swizzled()'s layout.  The TMA
 * control below changes only the stages, three where this has one: the
 * exercise "tma" starts from this kernel.
 */
extern "C" __global__ void __launch_bounds__(THREADS) tc_mma_tma_one_stage(const __grid_constant__ CUtensorMap map_a,
    const __grid_constant__ CUtensorMap map_bt, float *c, int n)
{
#ifndef NO_HOPPER
/* shared with kernels/exercises/: begin mma_tma_one_stage */
	extern __shared__ unsigned char smem[];
	__shared__ __align__(8) unsigned long long full;
	bf16 *tiles = aligned_tiles(smem);
	float acc[4][4][4] = {};
	int tiles_x = n / TILE, tiles_k = n / TK, lane = threadIdx.x & 31, warp = threadIdx.x / 32;
	int row0 = (blockIdx.x / tiles_x) * TILE, col0 = (blockIdx.x % tiles_x) * TILE;
	int wm = (warp / 4) * 64, wn = (warp % 4) * 32;

	if (threadIdx.x == 0) {
		barrier_init(&full, 1);
		asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
	}
	__syncthreads();
	for (int t = 0; t < tiles_k; t++) {
		if (threadIdx.x == 0) {
			barrier_expect_bytes(&full, 2 * TILE * TK * sizeof(bf16));
			tma_load(tiles, &map_a, &full, t * TK, row0);
			tma_load(tiles + TILE * TK, &map_bt, &full, t * TK, col0);
		}
		/* tile t's phase: both of its copies have landed */
		barrier_wait(&full, t & 1);
		mma_tile(tiles, tiles + TILE * TK, acc, wm, wn, lane);
		/* no warp reads the stage any more when thread 0 refills it */
		__syncthreads();
	}
	store_tile(c, n, row0 + wm, col0 + wn, acc, lane);
/* shared with kernels/exercises/: end mma_tma_one_stage */
#endif
}

/* ---- Control for step 13: step 7's block, its copies made by the TMA -------- */

/*
 * Step 7 (kernels/tensor.cu) with one change: the copies.  The same block
 * (8 warps, a 128 x 128 tile, mma.sync from ldmatrix), the same 3 stages
 * of 32-wide tiles in the same swizzled layout: the tensor maps' boxes are
 * 32 (k) by 128 rows with the 64-byte swizzle, which is swizzled()'s XOR
 * done by the copy engine (chunk bits 4-5 of the address XOR bits 7-8).
 * Thread 0 issues the copies and each stage's mbarrier says when they have
 * landed, where in step 7 every thread issued cp.async and waited for its
 * own groups.  Step 13 then changes the multiply (wgmma) and the block.
 */
/* shared with kernels/exercises/: begin tma_stage */
#define STAGES_TMA 3

/* Tile t of A and of Bt into stage t % STAGES_TMA, whose mbarrier counts their bytes. */
__device__ __forceinline__ void load_stage_tma(bf16 *tiles, unsigned long long *full, const CUtensorMap *map_a,
    const CUtensorMap *map_bt, int t, int row0, int col0)
{
	int s = t % STAGES_TMA;

	barrier_expect_bytes(&full[s], 2 * TILE * TK * sizeof(bf16));
	tma_load(tiles + s * 2 * TILE * TK, map_a, &full[s], t * TK, row0);
	tma_load(tiles + (s * 2 + 1) * TILE * TK, map_bt, &full[s], t * TK, col0);
}
/* shared with kernels/exercises/: end tma_stage */

extern "C" __global__ void __launch_bounds__(THREADS) tc_mma_tma(const __grid_constant__ CUtensorMap map_a,
    const __grid_constant__ CUtensorMap map_bt, float *c, int n)
{
#ifndef NO_HOPPER
/* shared with kernels/exercises/: begin mma_tma */
	extern __shared__ unsigned char smem[];
	__shared__ __align__(8) unsigned long long full[STAGES_TMA];
	bf16 *tiles = aligned_tiles(smem);
	float acc[4][4][4] = {};
	int tiles_x = n / TILE, tiles_k = n / TK, lane = threadIdx.x & 31, warp = threadIdx.x / 32;
	int row0 = (blockIdx.x / tiles_x) * TILE, col0 = (blockIdx.x % tiles_x) * TILE;
	int wm = (warp / 4) * 64, wn = (warp % 4) * 32;

	if (threadIdx.x == 0) {
		for (int s = 0; s < STAGES_TMA; s++)
			barrier_init(&full[s], 1);
		asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
		for (int t = 0; t < STAGES_TMA - 1 && t < tiles_k; t++)
			load_stage_tma(tiles, full, &map_a, &map_bt, t, row0, col0);
	}
	__syncthreads();
	for (int t = 0; t < tiles_k; t++) {
		int s = t % STAGES_TMA;

		barrier_wait(&full[s], (t / STAGES_TMA) & 1);
		/* the stage being refilled was read in the last iteration, before this barrier */
		__syncthreads();
		if (threadIdx.x == 0 && t + STAGES_TMA - 1 < tiles_k)
			load_stage_tma(tiles, full, &map_a, &map_bt, t + STAGES_TMA - 1, row0, col0);
		mma_tile(tiles + s * 2 * TILE * TK, tiles + (s * 2 + 1) * TILE * TK, acc, wm, wn, lane);
	}
	store_tile(c, n, row0 + wm, col0 + wn, acc, lane);
/* shared with kernels/exercises/: end mma_tma */
#endif
}

/* ---- Control for step 13: wgmma on the TMA control's block ----------------- */

/*
 * The TMA control above with one change: the multiply.  The same 256
 * threads, the same 3 stages of 32-wide tiles in the same 64-byte swizzle,
 * the same copies and barriers; but the two warpgroups each run wgmma
 * m64n128k16 on 64 rows of the tile, reading it from shared memory
 * through descriptors for that swizzle, where the eight warps loaded it
 * with ldmatrix and ran mma.sync.  The two controls after it, then step
 * 13, change the rest one at a time: one warpgroup, 64-wide tiles, four
 * stages.
 */
extern "C" __global__ void __launch_bounds__(THREADS) tc_wgmma_narrow(const __grid_constant__ CUtensorMap map_a,
    const __grid_constant__ CUtensorMap map_bt, float *c, int n)
{
#ifndef NO_HOPPER
/* shared with kernels/exercises/: begin wgmma_narrow */
	extern __shared__ unsigned char smem[];
	__shared__ __align__(8) unsigned long long full[STAGES_TMA];
	bf16 *tiles = aligned_tiles(smem);
	float d[64] = {};
	int tiles_x = n / TILE, tiles_k = n / TK, group = threadIdx.x / 128;
	int row0 = (blockIdx.x / tiles_x) * TILE, col0 = (blockIdx.x % tiles_x) * TILE;

	if (threadIdx.x == 0) {
		for (int s = 0; s < STAGES_TMA; s++)
			barrier_init(&full[s], 1);
		asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
		for (int t = 0; t < STAGES_TMA - 1 && t < tiles_k; t++)
			load_stage_tma(tiles, full, &map_a, &map_bt, t, row0, col0);
	}
	__syncthreads();
	for (int t = 0; t < tiles_k; t++) {
		int s = t % STAGES_TMA;
		const bf16 *a = tiles + s * 2 * TILE * TK + group * 64 * TK, *b = tiles + (s * 2 + 1) * TILE * TK;

		barrier_wait(&full[s], (t / STAGES_TMA) & 1);
		/* the stage being refilled was read in the last iteration, its wgmma waited for */
		__syncthreads();
		if (threadIdx.x == 0 && t + STAGES_TMA - 1 < tiles_k)
			load_stage_tma(tiles, full, &map_a, &map_bt, t + STAGES_TMA - 1, row0, col0);
		wgmma_fence();
		for (int k = 0; k < TK; k += 16)
			wgmma_64x128(d, wgmma_descriptor<64>(a + k), wgmma_descriptor<64>(b + k));
		wgmma_commit();
		wgmma_wait<0>();
	}
	store_accumulators<16>(c, n, row0 + group * 64, col0, d);
/* shared with kernels/exercises/: end wgmma_narrow */
#endif
}

/* ---- Controls for step 13: one warpgroup, then 64-wide tiles ---------------- */

/*
 * Step 13 changes three things of the wgmma control above: one warpgroup
 * multiplies the whole tile, the tiles of k are 64 wide (the 128-byte
 * swizzle) and there are four stages.  These two controls make them one
 * at a time, in the wgmma control's loop: tc_wgmma_one_warpgroup is it
 * with 128 threads, whose one warpgroup runs both 64-row halves
 * (d[2][64]); tc_wgmma_wide_tiles is that with W = 64.  Each block's
 * shared memory (3 stages of W-wide tiles) sets how many fit an SM: the
 * occupancy follows each change, it is no change of its own.
 */
template <int W>
__device__ __forceinline__ void load_stage_wide(bf16 *tiles, unsigned long long *full, const CUtensorMap *map_a,
    const CUtensorMap *map_bt, int t, int row0, int col0)
{
	int s = t % STAGES_TMA;

	barrier_expect_bytes(&full[s], 2 * TILE * W * sizeof(bf16));
	tma_load(tiles + s * 2 * TILE * W, map_a, &full[s], t * W, row0);
	tma_load(tiles + (s * 2 + 1) * TILE * W, map_bt, &full[s], t * W, col0);
}

template <int W>
__device__ __forceinline__ void one_warpgroup_tile(unsigned char *smem, unsigned long long *full,
    const CUtensorMap *map_a, const CUtensorMap *map_bt, float *c, int n)
{
	bf16 *tiles = aligned_tiles(smem);
	float d[2][64] = {};
	int tiles_x = n / TILE, tiles_k = n / W;
	int row0 = (blockIdx.x / tiles_x) * TILE, col0 = (blockIdx.x % tiles_x) * TILE;

	if (threadIdx.x == 0) {
		for (int s = 0; s < STAGES_TMA; s++)
			barrier_init(&full[s], 1);
		fence_async_proxy();
		for (int t = 0; t < STAGES_TMA - 1 && t < tiles_k; t++)
			load_stage_wide<W>(tiles, full, map_a, map_bt, t, row0, col0);
	}
	__syncthreads();
	for (int t = 0; t < tiles_k; t++) {
		int s = t % STAGES_TMA;
		const bf16 *a = tiles + s * 2 * TILE * W, *b = tiles + (s * 2 + 1) * TILE * W;

		barrier_wait(&full[s], (t / STAGES_TMA) & 1);
		__syncthreads();
		if (threadIdx.x == 0 && t + STAGES_TMA - 1 < tiles_k)
			load_stage_wide<W>(tiles, full, map_a, map_bt, t + STAGES_TMA - 1, row0, col0);
		wgmma_fence();
		for (int h = 0; h < 2; h++)
			for (int k = 0; k < W; k += 16)
				wgmma_64x128(d[h], wgmma_descriptor<2 * W>(a + h * 64 * W + k), wgmma_descriptor<2 * W>(b + k));
		wgmma_commit();
		wgmma_wait<0>();
	}
	store_accumulators<16>(c, n, row0, col0, d[0]);
	store_accumulators<16>(c, n, row0 + 64, col0, d[1]);
}

extern "C" __global__ void __launch_bounds__(128) tc_wgmma_one_warpgroup(const __grid_constant__ CUtensorMap map_a,
    const __grid_constant__ CUtensorMap map_bt, float *c, int n)
{
#ifndef NO_HOPPER
	extern __shared__ unsigned char smem[];
	__shared__ __align__(8) unsigned long long full[STAGES_TMA];

	one_warpgroup_tile<TK>(smem, full, &map_a, &map_bt, c, n);
#endif
}

extern "C" __global__ void __launch_bounds__(128) tc_wgmma_wide_tiles(const __grid_constant__ CUtensorMap map_a,
    const __grid_constant__ CUtensorMap map_bt, float *c, int n)
{
#ifndef NO_HOPPER
	extern __shared__ unsigned char smem[];
	__shared__ __align__(8) unsigned long long full[STAGES_TMA];

	one_warpgroup_tile<BK>(smem, full, &map_a, &map_bt, c, n);
#endif
}

/* ---- Step 13: TMA, mbarriers and wgmma; one warpgroup does everything ------- */

/*
 * 128 threads, one warpgroup, a 128 x 128 tile of C (two 64 x 128 wgmma
 * halves), STAGES5 tiles of k in flight.  Thread 0 asks the TMA for the
 * tiles; each stage's mbarrier completes when its bytes have landed.  The
 * warpgroup multiplies stage t, waits for its wgmma to finish, and only
 * then (after a barrier, so no warp still reads it) refills the stage
 * with tile t + STAGES5: the same threads copy and compute, in turn.
 * From tc_wgmma_wide_tiles it changes the stages, three to four.  Its
 * loop refills a stage right after the barrier that ends the stage's
 * wgmma, where the controls' loop does so after the same barrier at the
 * top of the next step (behind a wait for a stage that has landed): the
 * form step 14's one change needs.
 */
#define STAGES5 4
#define TILE5 128

extern "C" __global__ void __launch_bounds__(128) tc_wgmma_tma(const __grid_constant__ CUtensorMap map_a,
    const __grid_constant__ CUtensorMap map_bt, float *c, int n)
{
#ifndef NO_HOPPER
	extern __shared__ unsigned char smem[];
	__shared__ __align__(8) unsigned long long full[STAGES5];
	bf16 *sa = aligned_tiles(smem), *sb = sa + STAGES5 * TILE5 * BK;
	int tiles_x = n / TILE5, tiles_k = n / BK;
	int row0 = (blockIdx.x / tiles_x) * TILE5, col0 = (blockIdx.x % tiles_x) * TILE5;
	const unsigned int stage_bytes = 2 * TILE5 * BK * sizeof(bf16);
	float d[2][64] = {};

	if (threadIdx.x == 0) {
		for (int s = 0; s < STAGES5; s++)
			barrier_init(&full[s], 1);
		fence_async_proxy();
		for (int s = 0; s < STAGES5 && s < tiles_k; s++) {
			barrier_expect_bytes(&full[s], stage_bytes);
			tma_load(sa + s * TILE5 * BK, &map_a, &full[s], s * BK, row0);
			tma_load(sb + s * TILE5 * BK, &map_bt, &full[s], s * BK, col0);
		}
	}
	__syncthreads();
	for (int t = 0; t < tiles_k; t++) {
		int s = t % STAGES5;
		const bf16 *a = sa + s * TILE5 * BK, *b = sb + s * TILE5 * BK;

		barrier_wait(&full[s], (t / STAGES5) & 1);
		wgmma_fence();
		for (int h = 0; h < 2; h++)
			for (int k = 0; k < BK; k += 16)
				wgmma_64x128(d[h], wgmma_descriptor(a + h * 64 * BK + k), wgmma_descriptor(b + k));
		wgmma_commit();
		wgmma_wait<0>();
		__syncthreads();
		if (threadIdx.x == 0 && t + STAGES5 < tiles_k) {
			barrier_expect_bytes(&full[s], stage_bytes);
			tma_load(sa + s * TILE5 * BK, &map_a, &full[s], (t + STAGES5) * BK, row0);
			tma_load(sb + s * TILE5 * BK, &map_bt, &full[s], (t + STAGES5) * BK, col0);
		}
	}
	store_accumulators<16>(c, n, row0, col0, d[0]);
	store_accumulators<16>(c, n, row0 + 64, col0, d[1]);
#endif
}

/* ---- Step 14: one wgmma group in flight ----------------------------------- */

/*
 * Step 13 with one change: how long the warpgroup waits.  Step 13 waits
 * for the stage's wgmma to finish (wait_group 0) before the barrier, so
 * the tensor pipe drains every stage and, with one warpgroup an SM,
 * nothing else issues meanwhile.  Here the warpgroup waits only for the
 * group before (wait_group 1): tile t's wgmma still runs while thread 0
 * refills the stage that tile t - 1 used.
 */
extern "C" __global__ void __launch_bounds__(128) tc_wgmma_pipelined(const __grid_constant__ CUtensorMap map_a,
    const __grid_constant__ CUtensorMap map_bt, float *c, int n)
{
#ifndef NO_HOPPER
	extern __shared__ unsigned char smem[];
	__shared__ __align__(8) unsigned long long full[STAGES5];
	bf16 *sa = aligned_tiles(smem), *sb = sa + STAGES5 * TILE5 * BK;
	int tiles_x = n / TILE5, tiles_k = n / BK;
	int row0 = (blockIdx.x / tiles_x) * TILE5, col0 = (blockIdx.x % tiles_x) * TILE5;
	const unsigned int stage_bytes = 2 * TILE5 * BK * sizeof(bf16);
	float d[2][64] = {};

	if (threadIdx.x == 0) {
		for (int s = 0; s < STAGES5; s++)
			barrier_init(&full[s], 1);
		fence_async_proxy();
		for (int s = 0; s < STAGES5 && s < tiles_k; s++) {
			barrier_expect_bytes(&full[s], stage_bytes);
			tma_load(sa + s * TILE5 * BK, &map_a, &full[s], s * BK, row0);
			tma_load(sb + s * TILE5 * BK, &map_bt, &full[s], s * BK, col0);
		}
	}
	__syncthreads();
	for (int t = 0; t < tiles_k; t++) {
		int s = t % STAGES5;
		const bf16 *a = sa + s * TILE5 * BK, *b = sb + s * TILE5 * BK;

		barrier_wait(&full[s], (t / STAGES5) & 1);
		wgmma_fence();
		for (int h = 0; h < 2; h++)
			for (int k = 0; k < BK; k += 16)
				wgmma_64x128(d[h], wgmma_descriptor(a + h * 64 * BK + k), wgmma_descriptor(b + k));
		wgmma_commit();
		/* tile t - 1's group is done, tile t's may still run: t - 1's stage may be refilled */
		wgmma_wait<1>();
		__syncthreads();
		if (threadIdx.x == 0 && t > 0 && t - 1 + STAGES5 < tiles_k) {
			int r = (t - 1) % STAGES5;

			barrier_expect_bytes(&full[r], stage_bytes);
			tma_load(sa + r * TILE5 * BK, &map_a, &full[r], (t - 1 + STAGES5) * BK, row0);
			tma_load(sb + r * TILE5 * BK, &map_bt, &full[r], (t - 1 + STAGES5) * BK, col0);
		}
	}
	wgmma_wait<0>();
	store_accumulators<16>(c, n, row0, col0, d[0]);
	store_accumulators<16>(c, n, row0 + 64, col0, d[1]);
#endif
}

/* ---- Control for step 16: step 16's shape, without the split ---------------- */

/*
 * The exercise's starting file (kernels/exercises/warp-specialize.cu):
 * step 16's block (three warpgroups, a 128 x 256 tile, m64n256k16 in
 * warpgroups 1 and 2, STAGES6 stages), but step 14's rhythm: each
 * consumer keeps one wgmma group in flight, then the whole block meets at
 * __syncthreads() before thread 0 refills the stage the group before
 * used, and warpgroup 0 keeps its registers while it does almost nothing.
 * From step 14 it changes the block's shape alone; from it, step 16
 * changes only the split into a producer and consumers.
 */
#define STAGES6 4
#define TILE6_M 128
#define TILE6_N 256

extern "C" __global__ void __launch_bounds__(384, 1) tc_wgmma_unspecialized(
    const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_bt, float *c, int n)
{
#ifndef NO_HOPPER
/* shared with kernels/exercises/: begin unspecialized */
	extern __shared__ unsigned char smem[];
	__shared__ __align__(8) unsigned long long full[STAGES6];
	bf16 *sa = aligned_tiles(smem), *sb = sa + STAGES6 * TILE6_M * BK;
	int tiles_x = n / TILE6_N, tiles_k = n / BK, group = threadIdx.x / 128;
	int row0 = (blockIdx.x / tiles_x) * TILE6_M, col0 = (blockIdx.x % tiles_x) * TILE6_N;
	const unsigned int stage_bytes = (TILE6_M + TILE6_N) * BK * sizeof(bf16);
	float d[128] = {};

	if (threadIdx.x == 0) {
		for (int s = 0; s < STAGES6; s++)
			barrier_init(&full[s], 1);
		asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
		for (int s = 0; s < STAGES6 && s < tiles_k; s++) {
			barrier_expect_bytes(&full[s], stage_bytes);
			tma_load(sa + s * TILE6_M * BK, &map_a, &full[s], s * BK, row0);
			tma_load(sb + s * TILE6_N * BK, &map_bt, &full[s], s * BK, col0);
		}
	}
	__syncthreads();
	for (int t = 0; t < tiles_k; t++) {
		int s = t % STAGES6;

		if (group > 0) {
			const bf16 *a = sa + s * TILE6_M * BK + (group - 1) * 64 * BK, *b = sb + s * TILE6_N * BK;

			barrier_wait(&full[s], (t / STAGES6) & 1);
			wgmma_fence();
			for (int k = 0; k < BK; k += 16)
				wgmma_64x256(d, wgmma_descriptor(a + k), wgmma_descriptor(b + k));
			wgmma_commit();
			/* tile t - 1's group is done: after the barrier its stage may be refilled */
			wgmma_wait<1>();
		}
		__syncthreads();
		if (threadIdx.x == 0 && t > 0 && t - 1 + STAGES6 < tiles_k) {
			int r = (t - 1) % STAGES6;

			barrier_expect_bytes(&full[r], stage_bytes);
			tma_load(sa + r * TILE6_M * BK, &map_a, &full[r], (t - 1 + STAGES6) * BK, row0);
			tma_load(sb + r * TILE6_N * BK, &map_bt, &full[r], (t - 1 + STAGES6) * BK, col0);
		}
	}
	if (group > 0) {
		wgmma_wait<0>();
		store_accumulators<32>(c, n, row0 + (group - 1) * 64, col0, d);
	}
/* shared with kernels/exercises/: end unspecialized */
#endif
}

/* ---- Step 16: warp specialization ------------------------------------------ */

/*
 * 384 threads, three warpgroups: the first only feeds (one thread issues
 * the TMA copies), the other two only multiply, each 64 rows of a 128 x
 * 256 tile (m64n256k16), with STAGES6 stages between them.  Two mbarriers
 * a stage: `full` (the bytes have landed; the producer waits on nothing
 * but `empty`) and `empty` (all 8 consumer warps are done with it).  A
 * consumer keeps one group of wgmma running while it waits for the one
 * before, and frees that one's stage.  No setmaxnreg: the consumers'
 * accumulators fit in the registers __launch_bounds__ leaves them.
 */

/* shared with kernels/exercises/: begin stage_barriers */
/* The stage ring: `full` says its bytes have landed, `empty` that the 8 consumer warps are done with it. */
__device__ __forceinline__ void init_stage_barriers(unsigned long long *full, unsigned long long *empty)
{
	if (threadIdx.x == 0) {
		for (int s = 0; s < STAGES6; s++) {
			barrier_init(&full[s], 1);
			barrier_init(&empty[s], 8);
		}
		fence_async_proxy();
	}
	__syncthreads();
}
/* shared with kernels/exercises/: end stage_barriers */

extern "C" __global__ void __launch_bounds__(384, 1) tc_wgmma_warp_specialized(
    const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_bt, float *c, int n)
{
#ifndef NO_HOPPER
/* shared with kernels/exercises/: begin warp_specialized */
	extern __shared__ unsigned char smem[];
	__shared__ __align__(8) unsigned long long full[STAGES6], empty[STAGES6];
	bf16 *sa = aligned_tiles(smem), *sb = sa + STAGES6 * TILE6_M * BK;
	int tiles_x = n / TILE6_N, tiles_k = n / BK, group = threadIdx.x / 128;
	int row0 = (blockIdx.x / tiles_x) * TILE6_M, col0 = (blockIdx.x % tiles_x) * TILE6_N;

	init_stage_barriers(full, empty);
	if (group == 0) {
		if (threadIdx.x == 0)
			for (int t = 0; t < tiles_k; t++) {
				int s = t % STAGES6;

				/* a fresh barrier's "previous phase" counts as complete: the first round passes */
				barrier_wait(&empty[s], ((t / STAGES6) & 1) ^ 1);
				barrier_expect_bytes(&full[s], (TILE6_M + TILE6_N) * BK * sizeof(bf16));
				tma_load(sa + s * TILE6_M * BK, &map_a, &full[s], t * BK, row0);
				tma_load(sb + s * TILE6_N * BK, &map_bt, &full[s], t * BK, col0);
			}
	} else {
		float d[128] = {};
		int half = group - 1;

		for (int t = 0; t < tiles_k; t++) {
			int s = t % STAGES6;
			const bf16 *a = sa + s * TILE6_M * BK + half * 64 * BK, *b = sb + s * TILE6_N * BK;

			barrier_wait(&full[s], (t / STAGES6) & 1);
			wgmma_fence();
			for (int k = 0; k < BK; k += 16)
				wgmma_64x256(d, wgmma_descriptor(a + k), wgmma_descriptor(b + k));
			wgmma_commit();
			/* the group before this one is done: its stage may be refilled */
			wgmma_wait<1>();
			if (t > 0 && threadIdx.x % 32 == 0)
				barrier_arrive(&empty[(t - 1) % STAGES6]);
		}
		wgmma_wait<0>();
		store_accumulators<32>(c, n, row0 + half * 64, col0, d);
	}
/* shared with kernels/exercises/: end warp_specialized */
#endif
}

/* ---- Step 17: blocks in groups of tile-rows, for L2 ------------------------- */

/*
 * Step 16 with one change: which tile of C block b computes.  Blocks
 * start in order of their number, so the blocks running together are
 * neighbours in b.  Numbered row by row, 132 neighbours cover four rows
 * of 32 tiles at 8192: they read 4 x 128 rows of A and all 8192 rows of
 * Bt in every step of k.  Numbered down columns of GROUP_ROWS tile-rows,
 * they cover 8 rows of 16 or 17 tiles: 1024 rows of A and about 4200 of
 * Bt, so more of each copy is served by L2.
 */
/* shared with kernels/exercises/: begin grouped_tile */
#define GROUP_ROWS 8

/* The tile of C (its tile-row and tile-column) that block b computes, down each group of GROUP_ROWS tile-rows. */
__device__ __forceinline__ void grouped_tile(int b, int tiles_x, int tiles_y, int *row, int *col)
{
	int per_group = GROUP_ROWS * tiles_x, first = b / per_group * GROUP_ROWS;
	int rows = min(tiles_y - first, GROUP_ROWS), i = b % per_group;

	*row = first + i % rows;
	*col = i / rows;
}
/* shared with kernels/exercises/: end grouped_tile */

extern "C" __global__ void __launch_bounds__(384, 1) tc_wgmma_grouped(
    const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_bt, float *c, int n)
{
#ifndef NO_HOPPER
/* shared with kernels/exercises/: begin grouped */
	extern __shared__ unsigned char smem[];
	__shared__ __align__(8) unsigned long long full[STAGES6], empty[STAGES6];
	bf16 *sa = aligned_tiles(smem), *sb = sa + STAGES6 * TILE6_M * BK;
	int tiles_k = n / BK, group = threadIdx.x / 128, tile_row, tile_col;

	grouped_tile(blockIdx.x, n / TILE6_N, n / TILE6_M, &tile_row, &tile_col);
	int row0 = tile_row * TILE6_M, col0 = tile_col * TILE6_N;

	init_stage_barriers(full, empty);
	if (group == 0) {
		if (threadIdx.x == 0)
			for (int t = 0; t < tiles_k; t++) {
				int s = t % STAGES6;

				barrier_wait(&empty[s], ((t / STAGES6) & 1) ^ 1);
				barrier_expect_bytes(&full[s], (TILE6_M + TILE6_N) * BK * sizeof(bf16));
				tma_load(sa + s * TILE6_M * BK, &map_a, &full[s], t * BK, row0);
				tma_load(sb + s * TILE6_N * BK, &map_bt, &full[s], t * BK, col0);
			}
	} else {
		float d[128] = {};
		int half = group - 1;

		for (int t = 0; t < tiles_k; t++) {
			int s = t % STAGES6;
			const bf16 *a = sa + s * TILE6_M * BK + half * 64 * BK, *b = sb + s * TILE6_N * BK;

			barrier_wait(&full[s], (t / STAGES6) & 1);
			wgmma_fence();
			for (int k = 0; k < BK; k += 16)
				wgmma_64x256(d, wgmma_descriptor(a + k), wgmma_descriptor(b + k));
			wgmma_commit();
			wgmma_wait<1>();
			if (t > 0 && threadIdx.x % 32 == 0)
				barrier_arrive(&empty[(t - 1) % STAGES6]);
		}
		wgmma_wait<0>();
		store_accumulators<32>(c, n, row0 + half * 64, col0, d);
	}
/* shared with kernels/exercises/: end grouped */
#endif
}

/* ---- Step 18: one block an SM, its producer running ahead across tiles ------ */

/*
 * Step 17 with one change: the grid.  One block per SM (the launch row
 * says persistent), each taking tiles b, b + gridDim.x, ... in step 17's
 * order.  The stage ring runs on across tiles (step i of the block's
 * whole sequence is in stage i % STAGES6), so while the consumers wait
 * for their last wgmma and store a tile of C, the producer already
 * copies the next tile's first stages; in step 17 a new block starts
 * with empty stages after the old one has stored.  Between two tiles
 * nothing zeroes the sums: a tile's first wgmma writes them (its
 * scale-d is 0), where 128 moves a thread would hold the tensor cores
 * up at every tile.
 */
extern "C" __global__ void __launch_bounds__(384, 1) tc_wgmma_persistent(
    const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_bt, float *c, int n)
{
#ifndef NO_HOPPER
	extern __shared__ unsigned char smem[];
	__shared__ __align__(8) unsigned long long full[STAGES6], empty[STAGES6];
	bf16 *sa = aligned_tiles(smem), *sb = sa + STAGES6 * TILE6_M * BK;
	int tiles_x = n / TILE6_N, tiles_y = n / TILE6_M, tiles_k = n / BK, group = threadIdx.x / 128;
	int tiles = tiles_x * tiles_y, i = 0;	/* i: steps of k done by this block, over all its tiles */

	init_stage_barriers(full, empty);
	if (group == 0) {
		if (threadIdx.x == 0)
			for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
				int tile_row, tile_col;

				grouped_tile(tile, tiles_x, tiles_y, &tile_row, &tile_col);
				for (int t = 0; t < tiles_k; t++, i++) {
					int s = i % STAGES6;

					barrier_wait(&empty[s], ((i / STAGES6) & 1) ^ 1);
					barrier_expect_bytes(&full[s], (TILE6_M + TILE6_N) * BK * sizeof(bf16));
					tma_load(sa + s * TILE6_M * BK, &map_a, &full[s], t * BK, tile_row * TILE6_M);
					tma_load(sb + s * TILE6_N * BK, &map_bt, &full[s], t * BK, tile_col * TILE6_N);
				}
			}
	} else {
		int half = group - 1;

		for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
			float d[128];	/* the tile's first wgmma writes it */
			int tile_row, tile_col;

			grouped_tile(tile, tiles_x, tiles_y, &tile_row, &tile_col);
			for (int t = 0; t < tiles_k; t++, i++) {
				int s = i % STAGES6;
				const bf16 *a = sa + s * TILE6_M * BK + half * 64 * BK, *b = sb + s * TILE6_N * BK;

				barrier_wait(&full[s], (i / STAGES6) & 1);
				wgmma_fence();
				for (int k = 0; k < BK; k += 16)
					wgmma_64xn<TILE6_N>(d, wgmma_descriptor(a + k), wgmma_descriptor(b + k), t > 0 || k > 0);
				wgmma_commit();
				wgmma_wait<1>();
				if (t > 0 && threadIdx.x % 32 == 0)
					barrier_arrive(&empty[(i - 1) % STAGES6]);
			}
			/* the tile's last stage is freed once its group is done; the producer is already on the next tile */
			wgmma_wait<0>();
			if (threadIdx.x % 32 == 0)
				barrier_arrive(&empty[(i - 1) % STAGES6]);
			store_accumulators<32>(c, n, tile_row * TILE6_M + half * 64, tile_col * TILE6_N, d);
		}
	}
#endif
}

/* ---- Step 19: clusters of two blocks, Bt multicast ---------------------------- */

/*
 * Step 18 with one change: blocks run in clusters of 2 along M.  The two
 * blocks of a cluster compute vertically adjacent tiles (tile-rows 2r and
 * 2r + 1 of one tile column), so at each step of k they need the same
 * 256 x 64 of Bt.  Each block's producer copies its own 128 x 64 of A,
 * and half of Bt (rank 0 rows 0-127, rank 1 rows 128-255) multicast: the
 * TMA writes that half at the same offset in both blocks' shared memory
 * and counts its bytes on the `full` barrier at the same offset in both.
 * A cluster reads Bt from L2 once where two blocks read it twice.
 *
 * Tensor maps: map_a has boxes of 64 (k) x 128 rows, as in step 18, but
 * map_bt boxes of 64 (k) x 128 rows (TILE6_N / 2), half a tile.  The grid
 * is even (whole clusters), and n a multiple of 256, so tiles_y = n / 128
 * is even and the tile-rows pair up.
 */

/*
 * The ring of a cluster: each block's `full` still completes on its own
 * producer's one arrive (with the bytes of both halves), but `empty`
 * counts the 8 consumer warps of both blocks, since either producer
 * writes both blocks' stage.
 */
__device__ __forceinline__ void init_cluster_barriers(unsigned long long *full, unsigned long long *empty)
{
	if (threadIdx.x == 0) {
		for (int s = 0; s < STAGES6; s++) {
			barrier_init(&full[s], 1);
			barrier_init(&empty[s], 16);
		}
		/* the peer's TMA and consumer warps use these barriers too */
		asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
		fence_async_proxy();
	}
	/* no block multicasts or arrives on its peer before the peer's barriers exist */
	cluster_sync();
}

/* A consumer warp is done with a stage: both producers write it, so tell both. */
__device__ __forceinline__ void free_stage_pair(unsigned long long *empty, unsigned int peer)
{
	barrier_arrive(empty);
	barrier_arrive_cluster(empty, peer);
}

/* Step 20's way for a tile of C to leave (see step 20 below): through shared memory, stored by the TMA. */
#define C_CHUNK_COLS 32		/* 128 bytes of FP32: one swizzled row */
#define C_CHUNK_FLOATS (64 * C_CHUNK_COLS)

/* An 8-byte store that the compiler makes STS: through a generic pointer it is a slower ST.E. */
__device__ __forceinline__ void st_shared_float2(char *p, float2 v)
{
	asm volatile("st.shared.v2.f32 [%0], {%1, %2};\n" :: "r"(smem_address(p)), "f"(v.x), "f"(v.y) : "memory");
}

/* A consumer's 64 x 256 of C (its first C_CHUNKS chunks) from its accumulators, through its two buffers. */
template <int C_CHUNKS = TILE6_N / C_CHUNK_COLS>
__device__ __forceinline__ void store_tile_tma(const CUtensorMap *map_c, float *buffers, int row0, int col0,
    const float *d, int consumer)
{
	int t = threadIdx.x % 128, r = (t / 32) * 16 + (t % 32) / 4;
	/*
	 * A warp's 8-byte stores reach shared memory a half-warp at a time:
	 * rows r % 8 = 0..3, then 4..7.  Were every lane to write column
	 * group g, rows q and q ^ 1 would fill the same two swizzled pieces,
	 * two stores to each bank.  Lanes of odd rows write group g ^ 2
	 * instead, so a half-warp's 16 stores fill all 32 banks once.
	 */
	int flip = ((t % 32) / 4 % 2) * 2;

	for (int j = 0; j < C_CHUNKS; j++) {
		char *buf = (char *)(buffers + (j % 2) * C_CHUNK_FLOATS);

		/* the TMA has read this buffer's last chunk, two chunks ago */
		if (t == 0)
			tma_store_wait_read<1>();
		warpgroup_sync(1 + consumer);
		for (int g = 0; g < C_CHUNK_COLS / 8; g++) {
			/* this lane's group, and its sums: a select between two registers, never an indexed one */
			int mine = g ^ flip, byte = 4 * (8 * mine + 2 * (t % 4));
			int jj = j * (C_CHUNK_COLS / 8) + g, jj_flipped = j * (C_CHUNK_COLS / 8) + (g ^ 2);

			for (int h = 0; h < 2; h++) {
				int rr = r + 8 * h;
				float2 v = flip ? make_float2(d[4 * jj_flipped + 2 * h], d[4 * jj_flipped + 2 * h + 1]) :
				    make_float2(d[4 * jj + 2 * h], d[4 * jj + 2 * h + 1]);

				/* the 16-byte piece p of row rr sits at piece p ^ (rr % 8) */
				st_shared_float2(buf + rr * 128 + (((byte >> 4) ^ (rr % 8)) << 4) + byte % 16, v);
			}
		}
		fence_async_proxy();
		warpgroup_sync(1 + consumer);
		if (t == 0) {
			tma_store(map_c, buf, col0 + j * C_CHUNK_COLS, row0);
			tma_store_commit();
		}
	}
}

/*
 * Step 21's last wave (see step 21 below).  Pair-row r's tiles that come
 * at or after place `start` of the grouped order are its last ones, a
 * run up to the right edge: how many there are.
 */
__device__ __forceinline__ int last_tiles_of_row(int r, int start, int tiles_x, int pairs_y)
{
	int first = r / GROUP_ROWS * GROUP_ROWS, rows = min(pairs_y - first, GROUP_ROWS);
	/* tile (r, col) is at place first * tiles_x + col * rows + (r - first) */
	int before = start - first * tiles_x - (r - first);
	int col = before <= 0 ? 0 : (before + rows - 1) / rows;

	return max(tiles_x - col, 0);
}

/* The pieces `width` columns wide that cover `tiles` tiles of a pair-row. */
__device__ __forceinline__ int pieces_of(int tiles, int width)
{
	return (tiles * TILE6_N + width - 1) / width;
}

/* A cluster's piece of the last wave: 2 x 128 rows from pair-row pair_row, `width` columns from col0. */
struct last_wave_piece {
	int width;	/* 0: no piece for this cluster (or no last wave) */
	int pair_row, col0;
};

/*
 * The last wave's pieces: the narrowest width of 128, 160, 192 or 232
 * whose pieces, row by row, number at most the clusters (else whole
 * tiles, 256), and the piece of cluster `cluster` in that order.  All 32
 * lanes of a warp call it together: a lane a pair-row.
 */
__device__ __forceinline__ last_wave_piece plan_last_wave(int cluster, int clusters, int tiles_x, int pairs_y)
{
	int start = tiles_x * pairs_y / clusters * clusters, lane = threadIdx.x % 32;
	int n128 = 0, n160 = 0, n192 = 0, n232 = 0, width, before = 0;

	for (int r = lane; r < pairs_y; r += 32) {
		int tiles = last_tiles_of_row(r, start, tiles_x, pairs_y);

		n128 += pieces_of(tiles, 128);
		n160 += pieces_of(tiles, 160);
		n192 += pieces_of(tiles, 192);
		n232 += pieces_of(tiles, 232);
	}
	n128 = __reduce_add_sync(~0u, n128);
	n160 = __reduce_add_sync(~0u, n160);
	n192 = __reduce_add_sync(~0u, n192);
	n232 = __reduce_add_sync(~0u, n232);
	width = n128 <= clusters ? 128 : n160 <= clusters ? 160 : n192 <= clusters ? 192 : n232 <= clusters ? 232 : 256;
	for (int r0 = 0; r0 < pairs_y; r0 += 32) {
		int r = r0 + lane, tiles = r < pairs_y ? last_tiles_of_row(r, start, tiles_x, pairs_y) : 0;
		int k = pieces_of(tiles, width), upto = k;	/* upto: the pieces of rows r0 to r */

		for (int d = 1; d < 32; d *= 2) {
			int v = __shfl_up_sync(~0u, upto, d);

			upto += lane >= d ? v : 0;
		}
		/* the lane whose row holds the cluster's piece */
		unsigned int mine = __ballot_sync(~0u, cluster >= before + upto - k && cluster < before + upto);
		if (mine != 0) {
			int owner = __ffs(mine) - 1, col0 = (tiles_x - tiles) * TILE6_N + (cluster - (before + upto - k)) * width;

			return { width, __shfl_sync(~0u, r, owner), __shfl_sync(~0u, col0, owner) };
		}
		before += __shfl_sync(~0u, upto, 31);
	}
	return { 0, 0, 0 };
}

/* The producer's copies for one tile (or piece): A's rows from row0, Bt's half from bt_row0, into both blocks. */
__device__ __forceinline__ void load_tile_stages(bf16 *sa, bf16 *sb, unsigned long long *full,
    unsigned long long *empty, const CUtensorMap *map_a, const CUtensorMap *map_bt, unsigned int half_bt,
    int row0, int bt_row0, int tiles_k, int &i)
{
	for (int t = 0; t < tiles_k; t++, i++) {
		int s = i % STAGES6;

		/* both blocks' consumers are done with stage s: this half lands in both */
		barrier_wait(&empty[s], ((i / STAGES6) & 1) ^ 1);
		/*
		 * Own A and all of Bt.  The peer's half may land, and count, before
		 * this arrive: the phase survives, since only this arrive completes it.
		 */
		barrier_expect_bytes(&full[s], (TILE6_M + TILE6_N) * BK * sizeof(bf16));
		tma_load(sa + s * TILE6_M * BK, map_a, &full[s], t * BK, row0);
		/* a half is 128 rows of 128 bytes: it starts a 1024-byte swizzle group */
		tma_load_multicast(sb + s * TILE6_N * BK + half_bt, map_bt, &full[s], t * BK, bt_row0, 0x3);
	}
}

/* A consumer's 64 x N of one tile (or piece), freeing each stage in both blocks once its wgmma are done. */
template <int N>
__device__ __forceinline__ void multiply_tile(float d[128], const bf16 *sa, const bf16 *sb, unsigned long long *full,
    unsigned long long *empty, unsigned int peer, int half, int tiles_k, int &i)
{
	for (int t = 0; t < tiles_k; t++, i++) {
		int s = i % STAGES6;
		/* both halves of Bt are in place: the descriptors are step 18's */
		const bf16 *a = sa + s * TILE6_M * BK + half * 64 * BK, *b = sb + s * TILE6_N * BK;

		barrier_wait(&full[s], (i / STAGES6) & 1);
		wgmma_fence();
		for (int k = 0; k < BK; k += 16)
			wgmma_64xn<N>(d, wgmma_descriptor(a + k), wgmma_descriptor(b + k), t > 0 || k > 0);
		wgmma_commit();
		wgmma_wait<1>();
		if (t > 0 && threadIdx.x % 32 == 0)
			free_stage_pair(&empty[(i - 1) % STAGES6], peer);
	}
	wgmma_wait<0>();
	if (threadIdx.x % 32 == 0)
		free_stage_pair(&empty[(i - 1) % STAGES6], peer);
}

/*
 * A piece N columns wide of the last wave, multiplied and stored: its
 * whole chunks by the TMA (which leaves out columns past n), the 8
 * columns past them (N = 232) by the threads.
 */
template <int N>
__device__ __forceinline__ void last_wave_tile(float d[128], const bf16 *sa, const bf16 *sb,
    unsigned long long *full, unsigned long long *empty, unsigned int peer, int half, int tiles_k, int &i,
    const CUtensorMap *map_c, float *buffers, float *c, int n, int row0, int col0)
{
	multiply_tile<N>(d, sa, sb, full, empty, peer, half, tiles_k, i);
	store_tile_tma<N / C_CHUNK_COLS>(map_c, buffers, row0, col0, d, half);
	if constexpr (N % C_CHUNK_COLS != 0) {
		int t = threadIdx.x % 128, row = row0 + (t / 32) * 16 + (t % 32) / 4;
		int j = N / C_CHUNK_COLS * (C_CHUNK_COLS / 8), col = col0 + 8 * j + 2 * (t % 4);

		static_assert(N % C_CHUNK_COLS == 8, "one 8-column group past the chunks");
		if (col < n) {
			*(float2 *)(c + (size_t)row * n + col) = make_float2(d[4 * j], d[4 * j + 1]);
			*(float2 *)(c + (size_t)(row + 8) * n + col) = make_float2(d[4 * j + 2], d[4 * j + 3]);
		}
	}
}

/*
 * Steps 19, 20 and 21 are one body: C_BY_TMA is step 20's one change,
 * how a tile of C leaves (its own stores, or the TMA's from shared
 * memory); LAST_WAVE step 21's, the last wave in narrower pieces.
 */
template <bool C_BY_TMA, bool LAST_WAVE = false>
__device__ __forceinline__ void cluster_tiles(unsigned char *smem, unsigned long long *full,
    unsigned long long *empty, const CUtensorMap *map_a, const CUtensorMap *map_bt, const CUtensorMap *map_c,
    float *c, int n)
{
	bf16 *sa = aligned_tiles(smem), *sb = sa + STAGES6 * TILE6_M * BK;
	/* after the stages, 1024-byte aligned as the swizzle wants: step 20's two chunk buffers a consumer */
	float *c_buffers = (float *)(sb + STAGES6 * TILE6_N * BK);
	int tiles_x = n / TILE6_N, pairs_y = n / (2 * TILE6_M), tiles_k = n / BK, group = threadIdx.x / 128;
	int pairs = tiles_x * pairs_y, clusters = gridDim.x / 2, i = 0;
	/* step 21: the whole waves' pairs, then one piece each */
	int whole = LAST_WAVE ? pairs / clusters * clusters : pairs;
	unsigned int rank = cluster_rank(), peer = rank ^ 1, half_bt = rank * (TILE6_N / 2) * BK;

	init_cluster_barriers(full, empty);
	if (group == 0) {
		if (threadIdx.x == 0)
			/* both blocks of a cluster take the same pair-tiles: their rings step together */
			for (int p = blockIdx.x / 2; p < whole; p += clusters) {
				int pair_row, tile_col;

				grouped_tile(p, tiles_x, pairs_y, &pair_row, &tile_col);
				/* this block's tile-row, and its half of the tile's Bt */
				load_tile_stages(sa, sb, full, empty, map_a, map_bt, half_bt, (2 * pair_row + rank) * TILE6_M,
				    tile_col * TILE6_N + rank * (TILE6_N / 2), tiles_k, i);
			}
		/* the producer's warp plans the last wave when it gets there, stages ahead of the consumers */
		if (LAST_WAVE && threadIdx.x < 32) {
			__syncwarp();
			last_wave_piece piece = plan_last_wave(blockIdx.x / 2, clusters, tiles_x, pairs_y);

			/* 256 rows of Bt as for a whole tile: a piece uses its first `width` */
			if (threadIdx.x == 0 && piece.width != 0)
				load_tile_stages(sa, sb, full, empty, map_a, map_bt, half_bt,
				    (2 * piece.pair_row + rank) * TILE6_M, piece.col0 + rank * (TILE6_N / 2), tiles_k, i);
		}
	} else {
		int half = group - 1;
		float *buffers = c_buffers + half * 2 * C_CHUNK_FLOATS;
		/* the consumers plan it while their first stage is on its way */
		last_wave_piece piece = { 0, 0, 0 };

		if constexpr (LAST_WAVE)
			piece = plan_last_wave(blockIdx.x / 2, clusters, tiles_x, pairs_y);

		for (int p = blockIdx.x / 2; p < whole; p += clusters) {
			float d[128];	/* the tile's first wgmma writes it */
			int pair_row, tile_col, row0;

			grouped_tile(p, tiles_x, pairs_y, &pair_row, &tile_col);
			row0 = (2 * pair_row + rank) * TILE6_M;
			multiply_tile<TILE6_N>(d, sa, sb, full, empty, peer, half, tiles_k, i);
			if (C_BY_TMA)
				store_tile_tma(map_c, buffers, row0 + half * 64, tile_col * TILE6_N, d, half);
			else
				store_accumulators<32>(c, n, row0 + half * 64, tile_col * TILE6_N, d);
		}
		if constexpr (LAST_WAVE) {
			float d[128];
			int row0 = (2 * piece.pair_row + rank) * TILE6_M + half * 64;

			/* 256: whole tiles, where no narrower piece fits */
			switch (piece.width) {
			case 128:
				last_wave_tile<128>(d, sa, sb, full, empty, peer, half, tiles_k, i, map_c, buffers, c, n, row0,
				    piece.col0);
				break;
			case 160:
				last_wave_tile<160>(d, sa, sb, full, empty, peer, half, tiles_k, i, map_c, buffers, c, n, row0,
				    piece.col0);
				break;
			case 192:
				last_wave_tile<192>(d, sa, sb, full, empty, peer, half, tiles_k, i, map_c, buffers, c, n, row0,
				    piece.col0);
				break;
			case 232:
				last_wave_tile<232>(d, sa, sb, full, empty, peer, half, tiles_k, i, map_c, buffers, c, n, row0,
				    piece.col0);
				break;
			case 256:
				last_wave_tile<256>(d, sa, sb, full, empty, peer, half, tiles_k, i, map_c, buffers, c, n, row0,
				    piece.col0);
				break;
			}
		}
		/* the block's shared memory must outlive the TMA's last reads of it */
		if (C_BY_TMA && threadIdx.x % 128 == 0)
			tma_store_wait_read<0>();
	}
	/* no block exits while its peer may still arrive on its barriers */
	cluster_sync();
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(384, 1) tc_wgmma_cluster(
    const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_bt, float *c, int n)
{
#ifndef NO_HOPPER
	/* a kernel's shared memory sits at the same offsets in every block: multicast relies on it */
	extern __shared__ unsigned char smem[];
	__shared__ __align__(8) unsigned long long full[STAGES6], empty[STAGES6];

	cluster_tiles<false>(smem, full, empty, &map_a, &map_bt, NULL, c, n);
#endif
}

/* ---- Step 20: C through shared memory, stored by the TMA ------------------ */

/*
 * Step 19 with one change: how a tile of C leaves.  In step 19 each
 * consumer thread stores its 128 sums itself, 64 STG.E.64, and every SM
 * ends its tiles at about the same moment, so all of them store at once
 * while their tensor cores wait for the next tile's wgmma.  Here a
 * consumer writes its 64 x 256 of C in eight chunks of 64 x 32 into
 * shared memory, laid out as the TMA's 128-byte swizzle reads them, and
 * one of its threads hands each chunk to the TMA, which writes it to
 * global memory while the warpgroup goes on.  Two buffers a consumer:
 * a chunk is written while the TMA still reads the one before
 * (store_tile_tma, above; the rest is step 19's cluster_tiles).
 */
extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(384, 1) tc_wgmma_tma_store(
    const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_bt,
    const __grid_constant__ CUtensorMap map_c, float *c, int n)
{
#ifndef NO_HOPPER
	extern __shared__ unsigned char smem[];
	__shared__ __align__(8) unsigned long long full[STAGES6], empty[STAGES6];

	cluster_tiles<true>(smem, full, empty, &map_a, &map_bt, &map_c, c, n);
#endif
}

/* ---- Step 21: the last wave in narrower pieces -------------------------------- */

/*
 * Step 20 with one change: the last wave.  At 4096 there are 256 pairs
 * of tiles for 66 clusters (132 SMs): three whole waves, then 58 pairs,
 * which leave 8 clusters idle and the 58 busy for a whole pair's time.
 * Here the last wave's pairs are cut, row by row, into pieces narrower
 * than a tile (232 columns at 4096: 66 pieces), one a cluster, so the
 * wave takes 232/256 of a pair's time.  A piece's wgmma is 64 x N with N
 * its width; its Bt is copied as for a whole tile, 256 rows (past the
 * right edge the TMA fills zeros).  plan_last_wave, above, picks the
 * width and the piece; the rest is step 20's.
 */
extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(384, 1) tc_wgmma_last_wave(
    const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_bt,
    const __grid_constant__ CUtensorMap map_c, float *c, int n)
{
#ifndef NO_HOPPER
	extern __shared__ unsigned char smem[];
	__shared__ __align__(8) unsigned long long full[STAGES6], empty[STAGES6];

	cluster_tiles<true, true>(smem, full, empty, &map_a, &map_bt, &map_c, c, n);
#endif
}

/*
 * Tensor cores before Hopper's own instructions: C = A * B with BF16
 * inputs and FP32 sums, by warp-wide matrix instructions (WMMA, then
 * mma.sync in PTX).
 *
 * Every kernel here takes (a, bt, c, n): A is row-major n x n; B comes
 * transposed, Bt row-major (Bt[j * n + k] = B[k][j]), so that both
 * operands run along k in memory, which is how the tensor cores take
 * them; C is row-major n x n, in FP32.  n is a multiple of 256: the host
 * pads the inputs with zeros (a zero adds nothing to a sum) and reads back
 * the corner it asked for.  The grid is one-dimensional: block b computes
 * the tile of C at tile row b / tiles_x, tile column b % tiles_x.
 *
 * These need sm_80 or later (BF16 on the tensor cores); for an older
 * architecture in the build they compile to nothing.
 */
#include <cuda_bf16.h>
#include <mma.h>

#include "tensor_mma.cuh"

typedef __nv_bfloat16 bf16;

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#define TENSOR_CORES 1
#endif

/* ---- Step 1: WMMA, fragments loaded straight from global memory ------------ */

/*
 * Four warps a block, each one 16 x 16 tile of C: the block's tile is
 * 32 x 32.  At each k a warp loads a 16 x 16 piece of A and of B from
 * global memory into fragments and multiplies them: one HMMA-based
 * mma_sync.  Nothing is shared between the warps, so each piece of A is
 * read from L2 by every warp of its row of tiles.
 */
extern "C" __global__ void __launch_bounds__(128) tc_wmma_global(const bf16 *a, const bf16 *bt,
    float *c, int n)
{
#ifdef TENSOR_CORES
	using namespace nvcuda;
	int tiles_x = n / 32;
	int warp = threadIdx.x / 32;
	int row = (blockIdx.x / tiles_x) * 32 + (warp / 2) * 16;
	int col = (blockIdx.x % tiles_x) * 32 + (warp % 2) * 16;
	wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16, wmma::row_major> fa;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, bf16, wmma::col_major> fb;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;

	wmma::fill_fragment(acc, 0.0f);
	for (int k = 0; k < n; k += 16) {
		wmma::load_matrix_sync(fa, a + (size_t)row * n + k, n);
		/* column j of B is row j of Bt: B is column-major with leading dimension n */
		wmma::load_matrix_sync(fb, bt + (size_t)col * n + k, n);
		wmma::mma_sync(acc, fa, fb, acc);
	}
	wmma::store_matrix_sync(c + (size_t)row * n + col, acc, n, wmma::mem_row_major);
#endif
}

/* ---- Steps 2 to 7: a block's 128 x 128 of C (tensor_mma.cuh), warps 64 x 32 ---- */

typedef nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> wmma_sums;

/* A warp's 64 x 32 of C as 4 x 2 WMMA fragments of sums. */
__device__ __forceinline__ void wmma_zero(wmma_sums acc[4][2])
{
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 2; j++)
			nvcuda::wmma::fill_fragment(acc[i][j], 0.0f);
}

__device__ __forceinline__ void wmma_store(float *c, int n, int row0, int col0, wmma_sums acc[4][2])
{
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 2; j++)
			nvcuda::wmma::store_matrix_sync(c + (size_t)(row0 + 16 * i) * n + col0 + 16 * j, acc[i][j], n,
			    nvcuda::wmma::mem_row_major);
}

/*
 * Control for step 3: step 3's shape without its shared memory.  Eight
 * warps compute a block's 128 x 128 tile, each warp 64 x 32 of it with
 * eight fragments of sums, as in step 3, but every fragment is loaded
 * straight from global memory, as in step 1.  From step 1 it changes the
 * shape alone; from it, step 3 changes only where the fragments come from.
 */
extern "C" __global__ void __launch_bounds__(THREADS) tc_wmma_global_wide(const bf16 *a, const bf16 *bt,
    float *c, int n)
{
#ifdef TENSOR_CORES
	using namespace nvcuda;
	int tiles_x = n / TILE, warp = threadIdx.x / 32;
	int row = (blockIdx.x / tiles_x) * TILE + (warp / 4) * 64, col = (blockIdx.x % tiles_x) * TILE + (warp % 4) * 32;
	wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16, wmma::row_major> fa[4];
	wmma::fragment<wmma::matrix_b, 16, 16, 16, bf16, wmma::col_major> fb[2];
	wmma_sums acc[4][2];

	wmma_zero(acc);
	for (int k = 0; k < n; k += 16) {
		for (int i = 0; i < 4; i++)
			wmma::load_matrix_sync(fa[i], a + (size_t)(row + 16 * i) * n + k, n);
		for (int j = 0; j < 2; j++)
			wmma::load_matrix_sync(fb[j], bt + (size_t)(col + 16 * j) * n + k, n);
		for (int i = 0; i < 4; i++)
			for (int j = 0; j < 2; j++)
				wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
	}
	wmma_store(c, n, row, col, acc);
#endif
}

/* ---- Step 3: WMMA with the tiles staged in shared memory ------------------ */

/*
 * Each block copies a 128 x 32 tile of A and of Bt into shared memory with
 * 16-byte loads (two of each a thread), then its warps multiply from
 * there: every element of A is read from global memory once per block
 * rather than once per warp.  Rows are padded by 8 BF16 (16 bytes), so
 * the 16 rows a fragment load reads start in different banks.
 */
#define PAD_ROW (TK + 8)

/* Where chunk kc (8 BF16) of row r of a padded tile starts, in BF16 from the tile's start. */
__device__ __forceinline__ int padded(int r, int kc)
{
	return r * PAD_ROW + (kc << 3);
}

/*
 * The block's tiles of A and Bt at k0 into shared memory, through
 * registers (a 16-byte load, then a 16-byte store): chunk kc of row r
 * where the layout at (padded, or tensor_mma.cuh's swizzled) puts it.
 */
template <int (*at)(int r, int kc)>
__device__ __forceinline__ void copy_tiles(bf16 *sa, bf16 *sb, const bf16 *a, const bf16 *bt, int n, int row0,
    int col0, int k0)
{
	for (int i = 0; i < CHUNKS_PER_THREAD; i++) {
		int chunk = threadIdx.x + i * THREADS, r = chunk / (TK / 8), kc = chunk % (TK / 8);
		*(uint4 *)(sa + at(r, kc)) = *(const uint4 *)(a + (size_t)(row0 + r) * n + k0 + kc * 8);
		*(uint4 *)(sb + at(r, kc)) = *(const uint4 *)(bt + (size_t)(col0 + r) * n + k0 + kc * 8);
	}
}

extern "C" __global__ void __launch_bounds__(THREADS) tc_wmma_shared(const bf16 *a, const bf16 *bt,
    float *c, int n)
{
#ifdef TENSOR_CORES
	using namespace nvcuda;
	__shared__ __align__(128) bf16 sa[TILE][PAD_ROW], sb[TILE][PAD_ROW];
	int tiles_x = n / TILE;
	int row0 = (blockIdx.x / tiles_x) * TILE, col0 = (blockIdx.x % tiles_x) * TILE;
	int warp = threadIdx.x / 32, wm = (warp / 4) * 64, wn = (warp % 4) * 32;
	wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16, wmma::row_major> fa[4];
	wmma::fragment<wmma::matrix_b, 16, 16, 16, bf16, wmma::col_major> fb[2];
	wmma_sums acc[4][2];

	wmma_zero(acc);
	for (int k0 = 0; k0 < n; k0 += TK) {
		copy_tiles<padded>(&sa[0][0], &sb[0][0], a, bt, n, row0, col0, k0);
		__syncthreads();
		for (int kk = 0; kk < TK; kk += 16) {
			for (int i = 0; i < 4; i++)
				wmma::load_matrix_sync(fa[i], &sa[wm + 16 * i][kk], PAD_ROW);
			for (int j = 0; j < 2; j++)
				wmma::load_matrix_sync(fb[j], &sb[wn + 16 * j][kk], PAD_ROW);
			for (int i = 0; i < 4; i++)
				for (int j = 0; j < 2; j++)
					wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
		}
		__syncthreads();
	}
	wmma_store(c, n, row0 + wm, col0 + wn, acc);
#endif
}

/* ---- Steps 4 to 7: mma.sync, ldmatrix, an XOR-swizzled tile ---------------- */

/*
 * Control for step 5: step 5's instruction on step 3's layout.  The tiles
 * are copied as in step 3, into rows padded by 16 bytes, and multiplied
 * as in step 5, by mma.sync from ldmatrix (80-byte rows put the 8 rows an
 * ldmatrix reads in 8 different 16-byte bank groups too).  From step 3 it
 * changes the instruction alone; from it, step 5 changes only the layout,
 * padding to the XOR swizzle.
 */
extern "C" __global__ void __launch_bounds__(THREADS) tc_mma_ldmatrix_padded(const bf16 *a, const bf16 *bt,
    float *c, int n)
{
#ifdef TENSOR_CORES
	__shared__ __align__(128) bf16 sa[TILE * PAD_ROW], sb[TILE * PAD_ROW];
	float acc[4][4][4] = {};
	int tiles_x = n / TILE, lane = threadIdx.x & 31, warp = threadIdx.x / 32;
	int row0 = (blockIdx.x / tiles_x) * TILE, col0 = (blockIdx.x % tiles_x) * TILE;
	int wm = (warp / 4) * 64, wn = (warp % 4) * 32;

	for (int k0 = 0; k0 < n; k0 += TK) {
		copy_tiles<padded>(sa, sb, a, bt, n, row0, col0, k0);
		__syncthreads();
		mma_tile<padded>(sa, sb, acc, wm, wn, lane);
		__syncthreads();
	}
	store_tile(c, n, row0 + wm, col0 + wn, acc, lane);
#endif
}

/*
 * Step 5: the block's tiles go through registers into swizzled shared
 * memory (a 16-byte load, then a 16-byte store), then mma_tile: the
 * control above with swizzled in place of padded.
 */
extern "C" __global__ void __launch_bounds__(THREADS) tc_mma_ldmatrix(const bf16 *a, const bf16 *bt,
    float *c, int n)
{
#ifdef TENSOR_CORES
	__shared__ __align__(128) bf16 sa[TILE * TK], sb[TILE * TK];
	float acc[4][4][4] = {};
	int tiles_x = n / TILE, lane = threadIdx.x & 31, warp = threadIdx.x / 32;
	int row0 = (blockIdx.x / tiles_x) * TILE, col0 = (blockIdx.x % tiles_x) * TILE;
	int wm = (warp / 4) * 64, wn = (warp % 4) * 32;

	for (int k0 = 0; k0 < n; k0 += TK) {
		copy_tiles<swizzled>(sa, sb, a, bt, n, row0, col0, k0);
		__syncthreads();
		mma_tile<swizzled>(sa, sb, acc, wm, wn, lane);
		__syncthreads();
	}
	store_tile(c, n, row0 + wm, col0 + wn, acc, lane);
#endif
}

/*
 * Step 7: the copies are asynchronous (cp.async, LDGSTS in SASS: global
 * to shared without passing through registers), STAGES tiles deep: while
 * the warps multiply tile t, the copies of tiles t + 1 and t + 2 are in
 * flight.  Dynamic shared memory: STAGES * 2 * TILE * TK BF16.
 */
#define STAGES 3

/* 16 bytes from global memory to the shared-memory address dst, not through registers */
__device__ __forceinline__ void copy_async_16(unsigned int dst, const bf16 *src)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(dst), "l"(src));
}

__device__ __forceinline__ void copy_tiles_async(bf16 *sa, bf16 *sb, const bf16 *a, const bf16 *bt,
    int n, int row0, int col0, int k0)
{
	unsigned int a0 = smem_address(sa), b0 = smem_address(sb);

	for (int i = 0; i < CHUNKS_PER_THREAD; i++) {
		int chunk = threadIdx.x + i * THREADS, r = chunk / (TK / 8), kc = chunk % (TK / 8);
		copy_async_16(a0 + 2 * swizzled(r, kc), a + (size_t)(row0 + r) * n + k0 + kc * 8);
		copy_async_16(b0 + 2 * swizzled(r, kc), bt + (size_t)(col0 + r) * n + k0 + kc * 8);
	}
	asm volatile("cp.async.commit_group;\n" ::: "memory");
}

/*
 * Control for step 7: step 5 with its copies made by cp.async, and still
 * one stage.  Each tile goes from global to swizzled shared memory without
 * passing through registers, but the block waits for it at once (every
 * group landed), as step 5 waited for its loads: nothing overlaps the
 * copy yet.  From step 5 it changes how a tile is copied; from it, step 7
 * changes only the stages.
 */
extern "C" __global__ void __launch_bounds__(THREADS) tc_mma_cp_async_one_stage(const bf16 *a, const bf16 *bt,
    float *c, int n)
{
#ifdef TENSOR_CORES
	__shared__ __align__(128) bf16 sa[TILE * TK], sb[TILE * TK];
	float acc[4][4][4] = {};
	int tiles_x = n / TILE, lane = threadIdx.x & 31, warp = threadIdx.x / 32;
	int row0 = (blockIdx.x / tiles_x) * TILE, col0 = (blockIdx.x % tiles_x) * TILE;
	int wm = (warp / 4) * 64, wn = (warp % 4) * 32;

	for (int k0 = 0; k0 < n; k0 += TK) {
		copy_tiles_async(sa, sb, a, bt, n, row0, col0, k0);
		asm volatile("cp.async.wait_group 0;\n" ::: "memory");
		__syncthreads();
		mma_tile(sa, sb, acc, wm, wn, lane);
		__syncthreads();
	}
	store_tile(c, n, row0 + wm, col0 + wn, acc, lane);
#endif
}

extern "C" __global__ void __launch_bounds__(THREADS) tc_mma_cp_async(const bf16 *a, const bf16 *bt,
    float *c, int n)
{
#ifdef TENSOR_CORES
	extern __shared__ __align__(128) bf16 smem[];
	float acc[4][4][4] = {};
	int tiles_x = n / TILE, lane = threadIdx.x & 31, warp = threadIdx.x / 32;
	int row0 = (blockIdx.x / tiles_x) * TILE, col0 = (blockIdx.x % tiles_x) * TILE;
	int wm = (warp / 4) * 64, wn = (warp % 4) * 32, tiles_k = n / TK;

	for (int s = 0; s < STAGES - 1; s++)
		copy_tiles_async(smem + s * 2 * TILE * TK, smem + (s * 2 + 1) * TILE * TK, a, bt, n, row0,
		    col0, s * TK);
	for (int t = 0; t < tiles_k; t++) {
		int next = t + STAGES - 1, s = t % STAGES, ns = next % STAGES;

		/* all but the newest STAGES - 2 groups have landed: tile t is here */
		asm volatile("cp.async.wait_group %0;\n" :: "n"(STAGES - 2) : "memory");
		__syncthreads();
		/* the stage being refilled was read in the last iteration, before the barrier */
		if (next < tiles_k)
			copy_tiles_async(smem + ns * 2 * TILE * TK, smem + (ns * 2 + 1) * TILE * TK, a, bt, n,
			    row0, col0, next * TK);
		else
			asm volatile("cp.async.commit_group;\n" ::: "memory");
		mma_tile(smem + s * 2 * TILE * TK, smem + (s * 2 + 1) * TILE * TK, acc, wm, wn, lane);
	}
	store_tile(c, n, row0 + wm, col0 + wn, acc, lane);
#endif
}

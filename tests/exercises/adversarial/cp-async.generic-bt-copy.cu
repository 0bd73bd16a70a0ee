// expect: fail (sass) — only A travels by cp.async; every piece of Bt still passes through registers (a 16-byte load, then a store to shared memory), the load generic (LD, not LDG) because the pointer went through an asm move
/*
 * Counting game: the check wants at least one LDGSTS and no LDG at all.
 * A's copies give the LDGSTS; Bt's copies are loads into registers, but
 * generic ones, which today's count of LDG misses.  They read global
 * memory: a judge that counts them sees the tiles pass through
 * registers.
 */

/*
 * C = A * B, BF16 inputs, FP32 sums.  A is row-major n x n; B comes
 * transposed, Bt row-major (Bt[j * n + k] = B[k][j]); C is row-major FP32.
 * n is a multiple of 256 (the tutor pads the inputs with zeros).  Blocks
 * of exactly 256 threads (8 warps: 2 down, 4 across, each 64 x 32 of C);
 * block b computes the 128 x 128 tile of C at tile row b / (n / 128),
 * tile column b % (n / 128).  The launch gives the kernel 3 * 2 * 128 * 32 * 2 = 49152 bytes of
 * dynamic shared memory.
 */
#include <cuda_bf16.h>

typedef __nv_bfloat16 bf16;

#define TILE 128		/* the block's tile of C is TILE x TILE */
#define TK 32			/* k per tile of A and Bt */
#define THREADS 256		/* 8 warps: 2 down, 4 across; each warp 64 x 32 of C */
/* 16-byte pieces (8 BF16) in a tile of A or Bt, and per thread */
#define CHUNKS (TILE * TK / 8)
#define CHUNKS_PER_THREAD (CHUNKS / THREADS)

/* copied from kernels/smem.cuh: begin smem_address */
__device__ __forceinline__ unsigned int smem_address(const void *p)
{
	return (unsigned int)__cvta_generic_to_shared(p);
}
/* copied from kernels/smem.cuh: end smem_address */

/* copied from kernels/tensor_mma.cuh: begin swizzle_mma */
/*
 * A tile row is 32 BF16 = 64 bytes = four 16-byte chunks, with no padding:
 * the XOR below spreads the rows over the banks without spending shared
 * memory on it, as the TMA's 128-byte swizzle does in hardware on Hopper.
 * ldmatrix reads 8 rows of one chunk column at once; unswizzled, rows r
 * and r + 2 are 128 bytes apart and hit the same banks.  Storing chunk kc
 * of row r at chunk kc ^ ((r >> 1) & 3) puts the 8 rows in 8 different
 * 16-byte bank groups: one pass per 8 x 8 matrix.
 */
__device__ __forceinline__ int swizzled(int r, int kc)
{
	return r * TK + ((kc ^ ((r >> 1) & 3)) << 3);
}

/*
 * Four 8 x 8 BF16 matrices from shared memory; lane l gives the address of
 * one row, as a shared-memory address: 32 bits, so the address arithmetic
 * stays in 32 bits whichever compiler (nvcc, NVRTC) builds it.
 */
__device__ __forceinline__ void ldmatrix_x4(unsigned int r[4], unsigned int address)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
	    : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(address));
}

/* d += a * b for a 16 x 16 piece of A and a 16 x 8 piece of B: one HMMA.16816.F32.BF16 */
__device__ __forceinline__ void mma_16816(float d[4], const unsigned int a[4], const unsigned int b[2])
{
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
	    "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
	    : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
	    : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/*
 * One tile of k (32) from shared memory: each warp's 64 x 32 of C is 4 x 4
 * pieces of 16 x 8, so per 16 of k it loads 4 pieces of A (ldmatrix.x4
 * each), 2 pairs of pieces of B (ldmatrix.x4 each) and issues 16 mma.
 */
template <int (*at)(int r, int kc) = swizzled>
__device__ __forceinline__ void mma_tile(const bf16 *sa, const bf16 *sb, float acc[4][4][4],
    int wm, int wn, int lane)
{
	unsigned int a0 = smem_address(sa), b0 = smem_address(sb);

	for (int kk = 0; kk < TK; kk += 16) {
		unsigned int fa[4][4], fb[4][2];

		for (int i = 0; i < 4; i++)
			/* lanes 0-15: rows 0-15 at k, lanes 16-31: the same rows at k + 8 */
			ldmatrix_x4(fa[i], a0 + 2 * at(wm + 16 * i + (lane & 15), kk / 8 + (lane >> 4)));
		for (int j = 0; j < 4; j += 2) {
			unsigned int r[4];
			/* lanes 0-7 and 8-15: columns 0-7 at k and k + 8; 16-31: columns 8-15 */
			ldmatrix_x4(r, b0 + 2 * at(wn + 8 * j + (lane & 7) + ((lane >> 4) << 3),
			    kk / 8 + ((lane >> 3) & 1)));
			fb[j][0] = r[0], fb[j][1] = r[1], fb[j + 1][0] = r[2], fb[j + 1][1] = r[3];
		}
		for (int i = 0; i < 4; i++)
			for (int j = 0; j < 4; j++)
				mma_16816(acc[i][j], fa[i], fb[j]);
	}
}

/* The warp's 64 x 32 of C, from the accumulators' layout (two floats a row, rows lane/4 and +8). */
__device__ __forceinline__ void store_tile(float *c, int n, int row0, int col0, float acc[4][4][4], int lane)
{
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++) {
			int r = row0 + 16 * i + (lane >> 2), col = col0 + 8 * j + 2 * (lane & 3);
			*(float2 *)(c + (size_t)r * n + col) = make_float2(acc[i][j][0], acc[i][j][1]);
			*(float2 *)(c + (size_t)(r + 8) * n + col) = make_float2(acc[i][j][2], acc[i][j][3]);
		}
}
/* copied from kernels/tensor_mma.cuh: end swizzle_mma */

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

__device__ __forceinline__ const bf16 *opaque(const bf16 *p)
{
	asm("mov.b64 %0, %0;" : "+l"(p));
	return p;
}

__device__ __forceinline__ void copy_tiles_async(bf16 *sa, bf16 *sb, const bf16 *a, const bf16 *bt,
    int n, int row0, int col0, int k0)
{
	unsigned int a0 = smem_address(sa), b0 = smem_address(sb);

	const bf16 *btg = opaque(bt);
	(void)b0;
	for (int i = 0; i < CHUNKS_PER_THREAD; i++) {
		int chunk = threadIdx.x + i * THREADS, r = chunk / (TK / 8), kc = chunk % (TK / 8);
		copy_async_16(a0 + 2 * swizzled(r, kc), a + (size_t)(row0 + r) * n + k0 + kc * 8);
		/* Bt through registers: a generic 16-byte load (LD), then a store to shared memory */
		*(uint4 *)(sb + swizzled(r, kc)) = *(const uint4 *)(btg + (size_t)(col0 + r) * n + k0 + kc * 8);
	}
	asm volatile("cp.async.commit_group;\n" ::: "memory");
}

extern "C" __global__ void __launch_bounds__(THREADS) tc_mma_cp_async(const bf16 *a, const bf16 *bt,
    float *c, int n)
{
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
}

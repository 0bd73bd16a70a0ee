// expect: pass — groups of 16 tile-rows, not 8: the blocks running together cover a squarer patch still, and read less from device memory than ours

/*
 * C = A * B, BF16 inputs, FP32 sums, on Hopper (sm_90a).  A is row-major
 * n x n; B comes transposed, Bt row-major; C is row-major FP32; n is a
 * multiple of 256 (the tutor pads the inputs with zeros).  A and Bt arrive
 * as tensor maps: 2-D, BF16, inner dimension k, boxes of 64 (k) by 128
 * rows for A and by 256 rows for Bt, 128-byte swizzle.  Blocks of exactly
 * 384 threads (three warpgroups), one block for each 128 x 256 tile of C:
 * (n / 128) * (n / 256) blocks in a row, numbered by blockIdx.x alone.  The
 * launch gives the kernel 4 * (128 + 256) * 64 * 2 + 1024 = 197632 bytes
 * of dynamic shared memory: 4 stages of A and Bt, and room to align them.
 */
#include <cuda_bf16.h>

typedef __nv_bfloat16 bf16;
/* the driver's CUtensorMap: 128 opaque bytes, 64-byte aligned */
typedef struct __align__(64) { unsigned long long opaque[16]; } CUtensorMap;

/* copied from kernels/smem.cuh: begin smem_address */
__device__ __forceinline__ unsigned int smem_address(const void *p)
{
	return (unsigned int)__cvta_generic_to_shared(p);
}
/* copied from kernels/smem.cuh: end smem_address */

/* copied from kernels/hopper.cuh: begin hopper */
#define BK 64			/* k per stage: one 128-byte swizzled row */

/* ---- mbarriers, TMA (smem_address: kernels/smem.cuh) ------------------- */

/* An mbarrier that completes when `count` threads have arrived (and the bytes promised have landed). */
__device__ __forceinline__ void barrier_init(unsigned long long *bar, unsigned int count)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" :: "r"(smem_address(bar)), "r"(count));
}

/* Arrive, and promise the barrier `bytes` more bytes before this phase completes. */
__device__ __forceinline__ void barrier_expect_bytes(unsigned long long *bar, unsigned int bytes)
{
	asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
	    :: "r"(smem_address(bar)), "r"(bytes) : "memory");
}

__device__ __forceinline__ void barrier_arrive(unsigned long long *bar)
{
	asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" :: "r"(smem_address(bar)) : "memory");
}

/* Wait until the phase with this parity has completed. */
__device__ __forceinline__ void barrier_wait(unsigned long long *bar, unsigned int parity)
{
	unsigned int done = 0;

	while (!done)
		asm volatile("{\n.reg .pred p;\n"
		    "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
		    "selp.u32 %0, 1, 0, p;\n}\n"
		    : "=r"(done) : "r"(smem_address(bar)), "r"(parity) : "memory");
}

/* The TMA: copy the box at (k, row) of a tensor map into shared memory; the barrier counts its bytes. */
__device__ __forceinline__ void tma_load(void *dst, const CUtensorMap *map, unsigned long long *bar,
    int k, int row)
{
	asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
	    " [%0], [%1, {%3, %4}], [%2];\n"
	    :: "r"(smem_address(dst)), "l"(map), "r"(smem_address(bar)), "r"(k), "r"(row) : "memory");
}

/* ---- wgmma ------------------------------------------------------------- */

/*
 * A shared-memory matrix descriptor: the start address, 8 rows' bytes
 * between groups of 8 rows, and the swizzle of rows row_bytes long: 128
 * (bits 62-63 = 1, 1024 bytes a group) or 64 (bits 62-63 = 2, 512).
 * Moving 16 along k inside a row is moving the start by 32 bytes: the
 * hardware applies the swizzle to the address it computes.
 */
template <int row_bytes = 128>
__device__ __forceinline__ unsigned long long wgmma_descriptor(const bf16 *tile)
{
	unsigned long long d = 0;

	d |= (unsigned long long)((smem_address(tile) & 0x3ffff) >> 4);
	d |= (unsigned long long)(16 >> 4) << 16;
	d |= (unsigned long long)(8 * row_bytes >> 4) << 32;
	d |= (row_bytes == 128 ? 1ull : 2ull) << 62;
	return d;
}

/* Order this warpgroup's register writes before the wgmma that reads them. */
__device__ __forceinline__ void wgmma_fence(void)
{
	asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}

__device__ __forceinline__ void wgmma_commit(void)
{
	asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}

/* Wait until at most n of this warpgroup's committed groups are still running. */
template <int n> __device__ __forceinline__ void wgmma_wait(void)
{
	asm volatile("wgmma.wait_group.sync.aligned %0;\n" :: "n"(n) : "memory");
}

/* d += A * B for 64 rows of A and 128 rows of Bt, 16 of k: one HGMMA.64x128x16.F32.BF16 */
__device__ __forceinline__ void wgmma_64x128(float d[64], unsigned long long desc_a, unsigned long long desc_b)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
	    "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {"
	    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
	    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
	    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
	    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
	    "}, %64, %65, p, 1, 1, 0, 0;\n}\n"
	    : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
	    "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
	    "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
	    "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
	    "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
	    "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
	    "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
	    "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
	    : "l"(desc_a), "l"(desc_b));
}

/* d += A * B for 64 rows of A and 256 rows of Bt, 16 of k: one HGMMA.64x256x16.F32.BF16 */
__device__ __forceinline__ void wgmma_64x256(float d[128], unsigned long long desc_a, unsigned long long desc_b)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
	    "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {"
	    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
	    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
	    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
	    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
	    "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
	    "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
	    "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
	    "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
	    "}, %128, %129, p, 1, 1, 0, 0;\n}\n"
	    : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
	    "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
	    "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
	    "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
	    "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
	    "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
	    "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
	    "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
	    "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
	    "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
	    "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
	    "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
	    "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
	    "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
	    "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
	    "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
	    : "l"(desc_a), "l"(desc_b));
}

/* Rows of 64 BF16 in a tile, 1024-byte aligned (the 128-byte swizzle repeats every 8 rows). */
__device__ __forceinline__ bf16 *aligned_tiles(unsigned char *smem)
{
	return (bf16 *)(((unsigned long long)smem + 1023) & ~1023ull);
}

/*
 * A warpgroup's 64 x (8 * cols8) of C from its accumulators: in each
 * 8-column group, thread t holds rows t/4 and t/4 + 8 of its warp's 16,
 * two columns each.
 */
template <int cols8>
__device__ __forceinline__ void store_accumulators(float *c, int n, int row0, int col0, const float *d)
{
	int t = threadIdx.x % 128, row = row0 + (t / 32) * 16 + (t % 32) / 4;

	for (int j = 0; j < cols8; j++) {
		int col = col0 + 8 * j + 2 * (t % 4);
		*(float2 *)(c + (size_t)row * n + col) = make_float2(d[4 * j], d[4 * j + 1]);
		*(float2 *)(c + (size_t)(row + 8) * n + col) = make_float2(d[4 * j + 2], d[4 * j + 3]);
	}
}

/* Make this thread's writes to shared memory (tiles, mbarriers made) visible to the async proxy: the TMA, wgmma's reads. */
__device__ __forceinline__ void fence_async_proxy(void)
{
	asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}
/* copied from kernels/hopper.cuh: end hopper */

#define STAGES6 4
#define TILE6_M 128
#define TILE6_N 256

/* copied from kernels/tensor_hopper.cu: begin stage_barriers */
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
/* copied from kernels/tensor_hopper.cu: end stage_barriers */

/* Block b's tile down groups of 16 tile-rows: a taller group than ours. */
__device__ __forceinline__ void tile_of(int b, int tiles_x, int tiles_y, int *row, int *col)
{
	int first = b / (16 * tiles_x) * 16, rows = min(tiles_y - first, 16), i = b % (16 * tiles_x);

	*row = first + i % rows;
	*col = i / rows;
}

extern "C" __global__ void __launch_bounds__(384, 1) tc_wgmma_grouped(
    const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_bt, float *c, int n)
{
	extern __shared__ unsigned char smem[];
	__shared__ __align__(8) unsigned long long full[STAGES6], empty[STAGES6];
	bf16 *sa = aligned_tiles(smem), *sb = sa + STAGES6 * TILE6_M * BK;
	int tiles_k = n / BK, group = threadIdx.x / 128, tile_row, tile_col;

	tile_of(blockIdx.x, n / TILE6_N, n / TILE6_M, &tile_row, &tile_col);
	int row0 = tile_row * TILE6_M, col0 = tile_col * TILE6_N;

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
}

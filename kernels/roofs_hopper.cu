/*
 * The BF16 tensor ceiling on Hopper (sm_90a only: see Makefile.am): the
 * warpgroup-wide wgmma.mma_async that Hopper's tensor cores are fed by.
 * Each warpgroup (four warps) issues WGMMA_UNROLL wgmma m64n256k16 a loop
 * trip, each 2 x 64 x 256 x 16 = 524288 FLOPs, A and B read by the tensor
 * cores from shared memory through descriptors, the accumulator (64 x 256
 * FP32: 128 registers a thread) in registers.  The loop holds no load: the
 * tiles are filled once, before it, nearly constant (a few low bits
 * differ), or with random_operands random BF16: the tensor cores draw
 * more power on random bits, and under the GPU's power cap that costs
 * clock.  No check reads the sums; each thread writes its sum so that no
 * wgmma is dead code.  src/roofs.c counts the FLOPs.
 */

/* wgmma instructions a loop trip, between a fence and a commit. */
#define WGMMA_UNROLL 16

/* A: 64 x 16 BF16, B: 256 x 16, K-major, no swizzle: 8 x 16-byte core matrices. */
#define WGMMA_A_BYTES (64 * 16 * 2)
#define WGMMA_B_BYTES (256 * 16 * 2)

#include "hopper.cuh"

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
/* A random BF16 of x: random sign and mantissa, exponents 2^-4 to 2^3 (no zero, NaN or infinity). */
__device__ static unsigned short random_bf16(unsigned int x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return (unsigned short)((x & 0x807fu) | ((123u + (x >> 8) % 8u) << 7));
}

/*
 * A shared-memory matrix descriptor: start address, the byte offset
 * between core matrices along K (leading, 128: the next 8 x 16 bytes) and
 * along M or N (stride, 256: two core matrices further), no swizzle; each
 * field in units of 16 bytes.
 */
__device__ static unsigned long long wgmma_desc(const void *smem)
{
    unsigned long long addr = (unsigned long long)__cvta_generic_to_shared(smem);

    return ((addr >> 4) & 0x3fff) | ((128ull >> 4) << 16) | ((256ull >> 4) << 32);
}

#endif

extern "C" __global__ void __launch_bounds__(256, 1) tensor_wgmma_ceiling(float *out, int iters, unsigned int seed,
    int random_operands)
{
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    __shared__ __align__(128) unsigned short a[WGMMA_A_BYTES / 2];
    __shared__ __align__(128) unsigned short b[WGMMA_B_BYTES / 2];
    float d[128];

    for (int i = threadIdx.x; i < WGMMA_A_BYTES / 2; i += blockDim.x)
        a[i] = random_operands ? random_bf16(seed + i) : (unsigned short)(0x3c00u ^ ((seed + i) & 7u));
    for (int i = threadIdx.x; i < WGMMA_B_BYTES / 2; i += blockDim.x)
        b[i] = random_operands ? random_bf16(seed * 3u + 0x10000u + i) :
            (unsigned short)(0x3c00u ^ ((seed * 3u + i) & 7u));
#pragma unroll
    for (int j = 0; j < 128; j++)
        d[j] = 0.0f;
    /* the tiles written by the threads, then read by the tensor cores: the async proxy must see them */
    fence_async_proxy();
    __syncthreads();
    unsigned long long da = wgmma_desc(a), db = wgmma_desc(b);

    for (int i = 0; i < iters; i++) {
        wgmma_fence();
#pragma unroll
        for (int u = 0; u < WGMMA_UNROLL; u++)
            wgmma_64x256(d, da, db);
        wgmma_commit();
        /* one group in flight while the next is issued */
        wgmma_wait<1>();
    }
    wgmma_wait<0>();
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < 128; j++)
        s += d[j];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
#endif
}

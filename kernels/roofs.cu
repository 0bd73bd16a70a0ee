/* Ceiling kernels: what the GPU's arithmetic can do at all (see src/roofs.c). */

/* Independent chains per thread: far more than the four cycles an FFMA takes to retire. */
#define ROOFS_CHAINS 16
/* Steps of every chain per loop trip, unrolled: the loop's own instructions cost next to nothing. */
#define ROOFS_UNROLL 16

/*
 * The FP32 ceiling: iters x ROOFS_UNROLL x ROOFS_CHAINS fused multiply-adds
 * per thread, each chain independent of the others, so that every FP32
 * lane has an FFMA to issue on every clock.  m and c come as arguments so
 * the compiler cannot fold the chains away; each thread writes its sum,
 * one float, so that none of them is dead code.  src/roofs.c counts two
 * FLOPs per FFMA.
 */
extern "C" __global__ void fp32_ceiling(float *out, int iters, float m, float c)
{
    float a[ROOFS_CHAINS];
    unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;

#pragma unroll
    for (int j = 0; j < ROOFS_CHAINS; j++)
        a[j] = (float)(tid & 255) * 1e-3f + (float)j;
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < ROOFS_UNROLL; u++) {
#pragma unroll
            for (int j = 0; j < ROOFS_CHAINS; j++)
                a[j] = fmaf(a[j], m, c);
        }
    }
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < ROOFS_CHAINS; j++)
        s += a[j];
    out[tid] = s;
}

/* Independent accumulators per warp for the tensor ceiling: each mma's result is not the next one's input. */
#define MMA_ACC 8
/* mma instructions of every accumulator per loop trip, unrolled. */
#define MMA_UNROLL 8

/*
 * The BF16 tensor ceiling for sm_80 and later: iters x MMA_UNROLL x
 * MMA_ACC warp-wide mma.sync m16n8k16 (BF16 in, FP32 accumulate), each
 * 2 x 16 x 8 x 16 = 4096 FLOPs, back to back on independent accumulators
 * and with the fragments in registers: no load in the loop.  The
 * fragments come from seed so the compiler cannot fold them; each thread
 * writes its sum so that no mma is dead code.  src/roofs.c counts the
 * FLOPs.  Below sm_80 the body is empty (no BF16 mma there).
 */
extern "C" __global__ void tensor_mma_ceiling(float *out, int iters, unsigned int seed)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    unsigned int a0 = seed, a1 = seed ^ 0x3c003c00u, a2 = seed + threadIdx.x, a3 = seed ^ threadIdx.x;
    unsigned int b0 = seed * 3u, b1 = seed ^ 0x00003c00u;
    float acc[MMA_ACC][4];

#pragma unroll
    for (int j = 0; j < MMA_ACC; j++)
        acc[j][0] = acc[j][1] = acc[j][2] = acc[j][3] = 0.0f;
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < MMA_UNROLL; u++) {
#pragma unroll
            for (int j = 0; j < MMA_ACC; j++)
                asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                    "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                    : "+f"(acc[j][0]), "+f"(acc[j][1]), "+f"(acc[j][2]), "+f"(acc[j][3])
                    : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        }
    }
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < MMA_ACC; j++)
        s += acc[j][0] + acc[j][1] + acc[j][2] + acc[j][3];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
#endif
}

/*
 * The latency of a load: a chain of dependent loads, each index read
 * from where the last one pointed (src/roofs.c times n of them with one
 * thread).  chase_fill links element i to i + min + (a hash of i) % window,
 * modulo n: always forward, so a chase that stays short of n words never
 * meets a line twice, and the strides (4 to 8 KB in src/roofs.c) stay well
 * inside a 2 MiB page most of the time.
 */
extern "C" __global__ void chase_fill(unsigned int *chain, unsigned int n, unsigned int min,
    unsigned int window)
{
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned int h = i * 2654435761u;

        h ^= h >> 15;
        chain[i] = (unsigned int)(((unsigned long long)i + min + h % window) % n);
    }
}

/*
 * n dependent loads from *state on, the last index written back to
 * *state so that the next launch goes on where this one stopped.
 * __ldcg (ld.global.cg) caches in L2 only: no load is served by L1.
 * One load per trip, never unrolled: each address is the last load's value.
 */
extern "C" __global__ void pointer_chase(const unsigned int *chain, unsigned int *state, int n)
{
    unsigned int j = *state;

#pragma unroll 1
    for (int i = 0; i < n; i++)
        j = __ldcg(chain + j);
    *state = j;
}

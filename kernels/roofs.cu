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

// expect: fail (sass) — the halves move 8 bytes at a time, but each sum is made alone in float and rounded back: four one-wide adds, not the two __hadd2 the task asks for (the answers are right: double rounding is harmless here)
/*
 * The half of the task the SASS cannot see: the check counts the 8-byte
 * accesses, and the lesson says it cannot count the two-wide adds.  Each
 * half is widened to float, added, and rounded to half once, which gives
 * __hadd's answer, so every z[i] is right bit for bit.
 */
#include <cuda_fp16.h>

struct __align__(8) half4 {
    __half_raw h[4];
};

extern "C" __global__ void vec_add_half4(const __half *x, const __half *y, __half *z, int n)
{
    const half4 *x4 = reinterpret_cast<const half4 *>(x);
    const half4 *y4 = reinterpret_cast<const half4 *>(y);
    half4 *z4 = reinterpret_cast<half4 *>(z);
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    int packs = n / 4;

#pragma unroll 1
    for (int i = index; i < packs; i += stride) {
        half4 a = x4[i], b = y4[i], c;
#pragma unroll
        for (int k = 0; k < 4; k++)
            c.h[k] = __float2half_rn(__half2float(a.h[k]) + __half2float(b.h[k]));
        z4[i] = c;
    }
    int i = packs * 4 + index;
    if (i < n)
        z[i] = __float2half_rn(__half2float(x[i]) + __half2float(y[i]));
}

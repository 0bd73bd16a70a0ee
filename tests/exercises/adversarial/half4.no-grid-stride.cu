// expect: fail — one pack per thread and no loop, as if the grid covered n / 4 threads; it is sized to fill the GPU once, so at the lesson's size most of z is never written
/*
 * Geometry: the grid-stride loop forgotten.  Right at small sizes, where
 * every pack has a thread of its own.
 */
#include <cuda_fp16.h>

struct __align__(8) half4 {
    __half2_raw lo, hi;
};

extern "C" __global__ void vec_add_half4(const __half *x, const __half *y, __half *z, int n)
{
    const half4 *x4 = reinterpret_cast<const half4 *>(x);
    const half4 *y4 = reinterpret_cast<const half4 *>(y);
    half4 *z4 = reinterpret_cast<half4 *>(z);
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < n / 4) {
        half4 a = x4[i], b = y4[i], c;
        c.lo = __hadd2(a.lo, b.lo);
        c.hi = __hadd2(a.hi, b.hi);
        z4[i] = c;
    }
    if (i < n % 4)
        z[n / 4 * 4 + i] = __hadd(x[n / 4 * 4 + i], y[n / 4 * 4 + i]);
}

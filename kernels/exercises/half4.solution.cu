/* Exercise "half4" (lesson vectorize): our solution. */
#include <cuda_fp16.h>

/*
 * Four neighbouring halves on an 8-byte boundary: one 64-bit access moves
 * them.  The members are __half2_raw, plain bits: a struct of __half2
 * (which has copy operators of its own) is copied one member at a time,
 * two 4-byte accesses instead of one of 8.  Each converts to and from
 * __half2 where the adds need it.
 */
struct __align__(8) half4 {
    __half2_raw lo, hi;
};

/*
 * z = x + y for n halves; n is any size.  x, y and z come from
 * cudaMalloc, so pack i (halves 4i .. 4i + 3) is 8-byte aligned.  The grid
 * is sized for four halves per thread.
 */
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

        c.lo = __hadd2(a.lo, b.lo);	/* halves 0 and 1 in one add */
        c.hi = __hadd2(a.hi, b.hi);	/* halves 2 and 3 in another */
        z4[i] = c;
    }
    /* fewer than four halves left: one thread each */
    int i = packs * 4 + index;
    if (i < n)
        z[i] = __hadd(x[i], y[i]);
}

// expect: pass — each pack is one 64-bit load of x and of y and one 64-bit store, split into two __half2 by memcpy and added with two __hadd2; the tail one half each
/*
 * Correct but unusual: the pack is a plain unsigned long long, and the
 * bits are moved into __half2 with memcpy (which the compiler turns
 * into nothing).  Two two-wide adds per pack, as asked.
 */
#include <cuda_fp16.h>

extern "C" __global__ void vec_add_half4(const __half *x, const __half *y, __half *z, int n)
{
    const unsigned long long *x4 = reinterpret_cast<const unsigned long long *>(x);
    const unsigned long long *y4 = reinterpret_cast<const unsigned long long *>(y);
    unsigned long long *z4 = reinterpret_cast<unsigned long long *>(z);
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    int packs = n / 4;

#pragma unroll 1
    for (int i = index; i < packs; i += stride) {
        unsigned long long a = x4[i], b = y4[i], c;
        __half2 ha[2], hb[2], hc[2];

        memcpy(ha, &a, 8);
        memcpy(hb, &b, 8);
        hc[0] = __hadd2(ha[0], hb[0]);
        hc[1] = __hadd2(ha[1], hb[1]);
        memcpy(&c, hc, 8);
        z4[i] = c;
    }
    int i = packs * 4 + index;
    if (i < n)
        z[i] = __hadd(x[i], y[i]);
}

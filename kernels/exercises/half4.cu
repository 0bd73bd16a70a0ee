/* Exercise "half4" (lesson vectorize): four halves per access, added as two half2 pairs. */
#include <cuda_fp16.h>

/*
 * z = x + y for n halves (cuda_fp16.h's __half); n is any size, not always
 * a multiple of 4.  x, y and z come from cudaMalloc, so they are aligned
 * far beyond 8 bytes.  The grid is sized for four halves per thread, and
 * each thread walks the array with a grid-stride loop.  Every z[i] is
 * checked bit for bit.
 */
extern "C" __global__ void vec_add_half4(const __half *x, const __half *y, __half *z, int n)
{
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;

    /*
     * TODO: one half (2 bytes) per load and per store, and one add that
     * uses only the low half of a two-wide instruction.  Move four
     * neighbouring halves at a time instead, 8 bytes aligned to 8: one
     * load for x, one for y and one store for z per round, with the four
     * sums made as two __half2 adds.  The last n % 4 halves do not fill a
     * pack: add them one at a time after the loop.
     */
#pragma unroll 1
    for (int i = index; i < n; i += stride)
        z[i] = x[i] + y[i];
}

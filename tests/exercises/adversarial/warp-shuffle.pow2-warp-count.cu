// expect: fail — the first warp adds the warp sums over log2(warps) shuffle steps, right only when the number of warps is a power of two; the block may be any multiple of 32 (96 gives 3 warps, and the third is lost)
/*
 * Geometry: wrong only for blocks that are not a power of two.  With
 * 1024 or 512 threads (32 or 16 warps) the second round of shuffles is
 * right; with 96 it adds warps 0 and 1 and drops warp 2.  The target takes
 * every multiple of 32.
 */
extern "C" __global__ void reduce_warp_shuffle(int *g_idata, int *g_odata, unsigned int n)
{
    const int4 *in4 = reinterpret_cast<const int4 *>(g_idata);
    unsigned int n4 = n / 4;
    unsigned int stride = gridDim.x * blockDim.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int tid = threadIdx.x;
    int sum = 0;

    for (; i + stride < n4; i += 2 * stride) {
        int4 a = in4[i];
        int4 b = in4[i + stride];
        sum += (a.x + a.y) + (a.z + a.w) + (b.x + b.y) + (b.z + b.w);
    }
    if (i < n4) {
        int4 a = in4[i];
        sum += (a.x + a.y) + (a.z + a.w);
    }
    /* the up to three ints after the last whole int4 */
    if (blockIdx.x == 0 && tid < n - n4 * 4)
        sum += g_idata[n4 * 4 + tid];

    __shared__ int warp_sums[32];
    unsigned int lane = tid % 32, warp = tid / 32, warps = blockDim.x / 32;

#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = lane < warps ? warp_sums[lane] : 0;
        for (unsigned int offset = warps / 2; offset > 0; offset >>= 1)   /* only as far as there are warps */
            sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (lane == 0)
            g_odata[blockIdx.x] = sum;
    }
}

/* Exercise "warp-shuffle" (lesson unrolling): our solution. */

/* The 32 lanes' values added by shuffles; lane 0 ends with the warp's sum. */
__device__ __forceinline__ int warp_sum(int v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

/*
 * Each block writes one partial sum to g_odata[blockIdx.x]; the host adds
 * the partials.  The grid is sized to fill the GPU once, and each thread
 * first adds up its share of the n ints with a grid-stride loop of 16-byte
 * loads.  The input is only read.  blockDim.x is a multiple of 32 from 32
 * to 1024, not always a power of two.
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

    /* every warp is whole (the block is a multiple of 32), so a full mask is right */
    __shared__ int warp_sums[32];
    unsigned int lane = tid % 32, warp = tid / 32;

    sum = warp_sum(sum);
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = lane < blockDim.x / 32 ? warp_sums[lane] : 0;
        sum = warp_sum(sum);
        if (lane == 0)
            g_odata[blockIdx.x] = sum;
    }
}

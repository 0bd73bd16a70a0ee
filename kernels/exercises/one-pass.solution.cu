/* Exercise "one-pass" (lesson unrolling): our solution. */

/* The 32 lanes' values added by shuffles; lane 0 ends with the warp's sum. */
template <typename T>
__device__ __forceinline__ T warp_sum(T v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

/*
 * Each block adds its share of the n ints (a grid-stride loop of 16-byte
 * loads) with warp shuffles and writes one partial sum to
 * g_odata[blockIdx.x]; the last block to finish adds the partials into
 * *total, in 64 bits.  *blocks_done counts the blocks that are done; it is
 * 0 before the first launch, and each launch leaves it 0 for the next.
 * blockDim.x is a multiple of 32 from 32 to 1024.
 */
extern "C" __global__ void reduce_one_pass(int *g_idata, int *g_odata, unsigned int n,
                                           long long *total, unsigned int *blocks_done)
{
    const int4 *in4 = reinterpret_cast<const int4 *>(g_idata);
    unsigned int n4 = n / 4;
    unsigned int stride = gridDim.x * blockDim.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
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
    if (blockIdx.x == 0 && threadIdx.x < n - n4 * 4)
        sum += g_idata[n4 * 4 + threadIdx.x];

    /* every warp is whole (the block is a multiple of 32), so a full mask is right */
    __shared__ int warp_sums[32];
    __shared__ bool last_block;
    unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

    sum = warp_sum(sum);
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = lane < blockDim.x / 32 ? warp_sums[lane] : 0;
        sum = warp_sum(sum);
        if (lane == 0) {
            g_odata[blockIdx.x] = sum;
            /* the partial is visible everywhere before the ticket says it is there */
            __threadfence();
            last_block = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
        }
    }
    __syncthreads();
    if (!last_block)
        return;

    /* the last block: every partial is written; add them in 64 bits */
    long long t = 0;
    for (unsigned int b = threadIdx.x; b < gridDim.x; b += blockDim.x)
        t += __ldcg(&g_odata[b]);	/* from L2: another SM wrote it */
    t = warp_sum(t);
    __shared__ long long warp_totals[32];
    if (lane == 0)
        warp_totals[warp] = t;
    __syncthreads();
    if (warp == 0) {
        t = lane < blockDim.x / 32 ? warp_totals[lane] : 0;
        t = warp_sum(t);
        if (lane == 0) {
            *total = t;
            *blocks_done = 0;	/* ready for the next launch */
        }
    }
}

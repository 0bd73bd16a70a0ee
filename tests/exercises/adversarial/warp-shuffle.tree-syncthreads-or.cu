// expect: fail (sass) — the shared-memory tree is still there, a block barrier every round, written as __syncthreads_or(0) so that only one BAR.SYNC shows; only the last 32 sums are shuffled
/*
 * Counting game: the check allows one BAR.SYNC.  The tree's barriers
 * are __syncthreads_or(0), which the SASS writes BAR.RED: a full block
 * barrier all the same.  The five shuffles that meet the SHFL count add
 * only the last 32 values.  A judge that counts BAR.RED as the barrier it
 * is sees two barriers, one of them inside the tree's loop.
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

    __shared__ int partial[1024];
    unsigned int span = 32;

    partial[tid] = sum;
    __syncthreads();
    while (span < blockDim.x)
        span <<= 1;
    for (unsigned int s = span / 2; s >= 32; s >>= 1) {
        if (tid < s && tid + s < blockDim.x)
            partial[tid] += partial[tid + s];
        __syncthreads_or(0);                    /* a barrier under another name */
    }
    if (tid < 32) {
        sum = tid < blockDim.x ? partial[tid] : 0;
        for (int offset = 16; offset > 0; offset >>= 1)
            sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (tid == 0)
            g_odata[blockIdx.x] = sum;
    }
}

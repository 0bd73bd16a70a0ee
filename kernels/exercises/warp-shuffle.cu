/* Exercise "warp-shuffle" (lesson unrolling): add a block's sums with shuffles. */

/*
 * Each block writes one partial sum to g_odata[blockIdx.x]; the host adds
 * the partials.  The grid is sized to fill the GPU once, and each thread
 * first adds up its share of the n ints with a grid-stride loop of 16-byte
 * loads (written for you below).  The input is only read.  blockDim.x is a
 * multiple of 32 from 32 to 1024, not always a power of two.
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

    /*
     * TODO: the block adds its threads' sums with a tree in shared memory,
     * a barrier every round.  Replace it: let each warp add its 32 sums with
     * __shfl_down_sync (register to register, no barrier), have lane 0 of
     * each warp store the warp's sum in shared memory, wait once with
     * __syncthreads(), and let the first warp add those warp sums with
     * shuffles again.  The result, written by thread 0, must stay the same.
     */
    __shared__ int partial[1024];
    unsigned int span = 1;

    partial[tid] = sum;
    __syncthreads();
    while (span < blockDim.x)
        span <<= 1;
    for (unsigned int s = span / 2; s > 0; s >>= 1) {
        if (tid < s && tid + s < blockDim.x)
            partial[tid] += partial[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = partial[0];
}

/* Exercise "interleaved" (lesson reduction): turn the tree around. */

/*
 * Each block sums its chunk of blockDim.x ints, in place in global memory,
 * and writes one partial sum to g_odata[blockIdx.x]; the host adds the
 * partials.  The last block's ints past n are garbage, so they count as 0.
 * blockDim.x is a power of two from 64 to 1024.
 */
extern "C" __global__ void reduce_interleaved(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + tid;
    int *idata = g_idata + blockIdx.x * blockDim.x;

    if (idx >= n)
        idata[tid] = 0;
    __syncthreads();

    /*
     * TODO: the busy threads are packed low, but lane i reads element
     * 2 * stride * i, so as the stride grows the lanes of a warp read ints
     * further and further apart.  Run the tree the other way: start with a
     * stride of half the block and halve it each round, and let thread tid
     * add element tid + stride into element tid.
     */
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned int index = 2 * stride * tid;
        if (index < blockDim.x)
            idata[index] += idata[index + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

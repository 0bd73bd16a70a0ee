/* Exercise "neighbored-less" (lesson reduction): pack the busy threads together. */

/*
 * Each block sums its chunk of blockDim.x ints, in place in global memory,
 * and writes one partial sum to g_odata[blockIdx.x]; the host adds the
 * partials.  The last block's ints past n are garbage, so they count as 0.
 * blockDim.x is a power of two from 64 to 1024.
 */
extern "C" __global__ void reduce_neighbored_less(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + tid;
    int *idata = g_idata + blockIdx.x * blockDim.x;

    if (idx >= n)
        idata[tid] = 0;
    __syncthreads();

    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        /*
         * TODO: only threads with tid % (2 * stride) == 0 work here, so most
         * lanes of every warp sit idle, and the % costs a division each round.
         * Keep the same pairs (element i and element i + stride, for every i
         * that is a multiple of 2 * stride), but hand pair number tid to
         * thread tid: then the busy threads are the lowest numbered ones.
         */
        if ((tid % (2 * stride)) == 0)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

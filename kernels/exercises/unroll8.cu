/* Exercise "unroll8" (lesson unrolling): fold eight chunks before the tree. */

/*
 * Each block sums its part of g_idata and writes one partial sum to
 * g_odata[blockIdx.x]; the host adds the partials.  The grid is sized for
 * eight chunks of blockDim.x ints per block, so block b owns the ints from
 * b * blockDim.x * 8 on.  Only the grid's last block can reach past n.
 * The tree works in place in the block's first chunk, which it may
 * overwrite.  blockDim.x is a power of two from 64 to 1024.
 */
extern "C" __global__ void reduce_unroll8(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int block = blockDim.x;
    /*
     * TODO: this folds only two chunks, so with a grid sized for eight it
     * misses three quarters of the ints.  Fold all eight: thread tid adds the
     * eight ints that lie one block apart, from idx on, and issues all eight
     * loads before it adds anything.  Keep a guarded path for the grid's last
     * block, where some of the eight can lie at or past n.
     */
    unsigned int idx = blockIdx.x * block * 2 + tid;
    int *idata = g_idata + blockIdx.x * block * 2;
    int sum = 0;

    if (idx + block < n) {
        int a = g_idata[idx];
        int b = g_idata[idx + block];
        sum = a + b;
    } else if (idx < n) {
        sum = g_idata[idx];
    }
    idata[tid] = sum;
    __syncthreads();

    /* the interleaved tree over the folded chunk */
    for (unsigned int stride = block / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/* Exercise "unroll8" (lesson unrolling): our solution. */

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
    unsigned int idx = blockIdx.x * block * 8 + tid;
    int *idata = g_idata + blockIdx.x * block * 8;
    int sum = 0;

    if (idx + 7 * block < n) {
        /* eight independent loads, all in flight before the first add */
        int v[8];
#pragma unroll
        for (int k = 0; k < 8; k++)
            v[k] = g_idata[idx + k * block];
#pragma unroll
        for (int k = 0; k < 8; k++)
            sum += v[k];
    } else {
        for (int k = 0; k < 8; k++)
            if (idx + k * block < n)
                sum += g_idata[idx + k * block];
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

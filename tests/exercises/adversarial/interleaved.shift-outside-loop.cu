// expect: pass — the interleaved tree; its first stride is built once as 1u << s before the loop (blockDim.x is a power of two), and the loop only halves it
/*
 * Correct but unusual: the starting stride, half the block, is computed
 * from the block's log2 with a shift, outside the loop.  A shift left in
 * the SASS is then no sign of a doubling stride: only one inside the loop
 * would be.
 */
extern "C" __global__ void reduce_interleaved(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + tid;
    int *idata = g_idata + blockIdx.x * blockDim.x;
    unsigned int log2_block = __ffs(blockDim.x) - 1;   /* a power of two: its only set bit */

    if (idx >= n)
        idata[tid] = 0;
    __syncthreads();

    for (unsigned int stride = 1u << (log2_block - 1); stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

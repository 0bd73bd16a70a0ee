// expect: fail (sass) — the division is gone (a mask instead of %), but pair i is still done by thread i: the busy threads are not packed low, which is what the task asks for
/*
 * Counting game: the check looks for the division (MUFU.RCP) the %
 * costs.  Testing tid & (2*stride - 1) has no division, so the count is
 * met, yet the threads with work are as scattered as in the starting
 * file: this is the lesson's control step reduce_neighbored_mask, not
 * reduce_neighbored_less.
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
        if ((tid & (2 * stride - 1)) == 0)      /* the same test as %, without a division */
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

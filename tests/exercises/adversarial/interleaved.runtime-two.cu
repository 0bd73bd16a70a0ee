// expect: fail (sass) — the tree is not turned around: it is the starting file's neighbored tree, its doubling written as a multiply by a 2 the compiler cannot see, so no shift shows
/*
 * Counting game: the check looks for the doubling stride's shift
 * (USHF.L).  blockDim.y is 1 in every launch, but the compiler cannot
 * know it, so stride *= two is a multiply (IMAD), not a shift, and the
 * count is met.  Lane i still reads element 2 * stride * i.
 */
extern "C" __global__ void reduce_interleaved(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + tid;
    int *idata = g_idata + blockIdx.x * blockDim.x;
    unsigned int two = blockDim.y + 1;      /* 2 at run time, unknown when compiling */

    if (idx >= n)
        idata[tid] = 0;
    __syncthreads();

    for (unsigned int stride = 1; stride < blockDim.x; stride *= two) {
        unsigned int index = two * stride * tid;
        if (index < blockDim.x)
            idata[index] += idata[index + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

// expect: pass — the packed pairs of the solution with every barrier written as __syncthreads_or(0), a full block barrier (BAR.RED) as good as __syncthreads()
/*
 * Correct but unusual: __syncthreads_or(p) waits for every thread of the
 * block and orders their memory accesses exactly as __syncthreads() does;
 * it also ORs a predicate nobody reads.  The SASS says BAR.RED.OR, not
 * BAR.SYNC: a judge that counts barriers must count it as one.
 */
extern "C" __global__ void reduce_neighbored_less(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + tid;
    int *idata = g_idata + blockIdx.x * blockDim.x;

    if (idx >= n)
        idata[tid] = 0;
    __syncthreads_or(0);

    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned int index = 2 * stride * tid;
        if (index < blockDim.x)
            idata[index] += idata[index + stride];
        __syncthreads_or(0);
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

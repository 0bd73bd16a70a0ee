// expect: fail — correct, but slower than the task allows: 1.16x the reference's time on an H200, twice (the same pairs handed to the lowest threads, written as a while loop over a pointer to the pair, whose 64-bit compares cost time; no division, a barrier every round)
/*
 * Correct but unusual: the stride lives in a while loop, and each busy
 * thread finds its pair through a pointer it moves instead of an index.
 * Pair number tid starts at 2 * stride * tid, as the task asks.
 */
extern "C" __global__ void reduce_neighbored_less(int *g_idata, int *g_odata, unsigned int n)
{
    int *chunk = g_idata + blockIdx.x * blockDim.x;
    unsigned int tid = threadIdx.x;

    if (blockIdx.x * blockDim.x + tid >= n)
        chunk[tid] = 0;
    __syncthreads();

    unsigned int stride = 1;
    while (stride < blockDim.x) {
        int *left = chunk + 2 * stride * tid;   /* this thread's pair, packed low */
        if (left < chunk + blockDim.x)
            *left += *(left + stride);
        __syncthreads();
        stride += stride;
    }
    if (tid == 0)
        *(g_odata + blockIdx.x) = *chunk;
}

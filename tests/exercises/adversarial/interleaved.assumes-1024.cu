// expect: fail — the first stride is the constant 512, right only for blocks of 1024: with 512 threads the first round adds the next block's ints
/*
 * Geometry: written for the lesson's block of 1024 threads.  The target
 * takes any power of two from 64 to 1024; at 512, thread tid adds
 * idata[tid + 512], which belongs to the next block.
 */
extern "C" __global__ void reduce_interleaved(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + tid;
    int *idata = g_idata + blockIdx.x * blockDim.x;

    if (idx >= n)
        idata[tid] = 0;
    __syncthreads();

    for (unsigned int stride = 512; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

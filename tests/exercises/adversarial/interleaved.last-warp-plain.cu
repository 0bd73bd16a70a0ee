// expect: fail — the last warp's five rounds run with no barrier, no __syncwarp and no volatile: a data race the compiler and the GPU are both free to break
/*
 * Race the GPU usually forgives: once stride < 32 only the first warp
 * works, and the classic trick drops the barrier.  Through a plain
 * pointer nothing orders one lane's store before another lane's load (no
 * __syncwarp, warps are not lockstep since Volta), and the compiler may
 * keep or reorder the loads.
 */
extern "C" __global__ void reduce_interleaved(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + tid;
    int *idata = g_idata + blockIdx.x * blockDim.x;

    if (idx >= n)
        idata[tid] = 0;
    __syncthreads();

    for (unsigned int stride = blockDim.x / 2; stride >= 32; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        for (unsigned int stride = 16; stride > 0; stride >>= 1)
            idata[tid] += idata[tid + stride];      /* no barrier: "a warp is in lockstep" */
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

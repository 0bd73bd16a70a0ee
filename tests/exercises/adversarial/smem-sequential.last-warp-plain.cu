// expect: fail — the rounds below 32 run in the first warp with no barrier, no __syncwarp and a plain (not volatile) shared array: a race the compiler and the GPU may or may not forgive
/*
 * Race the GPU usually forgives: the classic warp-synchronous tail.  The
 * lanes of a warp are not in lockstep since Volta, and through a plain
 * pointer the compiler may keep s[tid] in a register or load s[tid + i]
 * early.
 */
extern "C" __global__ void reduce_shared_sequential(const int *g_idata, int *g_odata, unsigned int n)
{
    __shared__ int s[1024];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + tid;

    s[tid] = idx < n ? g_idata[idx] : 0;
    for (unsigned int i = blockDim.x / 2; i > 32; i >>= 1) {
        __syncthreads();
        if (tid < i)
            s[tid] += s[tid + i];
    }
    __syncthreads();
    if (tid < 32) {
        s[tid] += s[tid + 32];
        s[tid] += s[tid + 16];
        s[tid] += s[tid + 8];
        s[tid] += s[tid + 4];
        s[tid] += s[tid + 2];
        s[tid] += s[tid + 1];
    }
    if (tid == 0)
        g_odata[blockIdx.x] = s[0];
}

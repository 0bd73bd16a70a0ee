// expect: pass — eight loads one block apart, all before the first barrier, with a guarded tail: the loads are generic (LD) because the pointer went through an asm move, yet they read global memory
/*
 * Correct but unusual: the input pointer passes through an empty inline
 * asm, so the compiler can no longer prove it points into global memory
 * and emits generic loads (LD.E) instead of LDG.E.  They are the same
 * eight global loads in flight before the barrier; a judge that counts
 * global loads must count them.
 */
__device__ __forceinline__ const int *opaque(const int *p)
{
    asm("mov.b64 %0, %0;" : "+l"(p));
    return p;
}

extern "C" __global__ void reduce_unroll8(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x, block = blockDim.x;
    unsigned int idx = blockIdx.x * block * 8 + tid;
    int *idata = g_idata + blockIdx.x * block * 8;
    const int *in = opaque(g_idata);
    int sum = 0;

    if (idx + 7 * block < n) {
        int v[8];
#pragma unroll
        for (int k = 0; k < 8; k++)
            v[k] = in[idx + k * block];
#pragma unroll
        for (int k = 0; k < 8; k++)
            sum += v[k];
    } else {
        for (int k = 0; k < 8; k++)
            if (idx + k * block < n)
                sum += in[idx + k * block];
    }
    idata[tid] = sum;
    __syncthreads();

    for (unsigned int stride = block / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

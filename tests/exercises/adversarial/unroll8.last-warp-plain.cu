// expect: fail — the last warp is unrolled with no __syncwarp and no volatile: lanes read ints other lanes write with nothing ordering them, a race the GPU usually forgives
/*
 * Race the GPU usually forgives: the textbook "unroll the last warp"
 * written through a plain pointer.  Since Volta the lanes of a warp are
 * not in lockstep, and without volatile the compiler may keep values in
 * registers or reorder the loads: the CUDA guide calls this a race.
 */
extern "C" __global__ void reduce_unroll8(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x, block = blockDim.x;
    unsigned int idx = blockIdx.x * block * 8 + tid;
    int *idata = g_idata + blockIdx.x * block * 8;
    int sum = 0;

    if (idx + 7 * block < n) {
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

    for (unsigned int stride = block / 2; stride > 32; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        idata[tid] += idata[tid + 32];
        idata[tid] += idata[tid + 16];
        idata[tid] += idata[tid + 8];
        idata[tid] += idata[tid + 4];
        idata[tid] += idata[tid + 2];
        idata[tid] += idata[tid + 1];
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

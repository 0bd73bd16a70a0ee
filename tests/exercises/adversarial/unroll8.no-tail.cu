// expect: fail — the guarded path for the grid's last block is gone: where its eight ints reach past n, the block adds none of them
/*
 * Geometry: "forgets the tail".  Every block but the last folds eight
 * whole chunks; the last one, whose eight may reach past n, contributes
 * nothing, so every size that is not a multiple of 8 * blockDim.x is
 * short.
 */
extern "C" __global__ void reduce_unroll8(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x, block = blockDim.x;
    unsigned int idx = blockIdx.x * block * 8 + tid;
    int *idata = g_idata + blockIdx.x * block * 8;
    int sum = 0;

    if (idx + 7 * block < n) {
        int a0 = g_idata[idx], a1 = g_idata[idx + block];
        int a2 = g_idata[idx + 2 * block], a3 = g_idata[idx + 3 * block];
        int a4 = g_idata[idx + 4 * block], a5 = g_idata[idx + 5 * block];
        int a6 = g_idata[idx + 6 * block], a7 = g_idata[idx + 7 * block];
        sum = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
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

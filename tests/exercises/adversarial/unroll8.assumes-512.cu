// expect: fail — the tree is written out for blocks of exactly 512 threads; the target also runs at 1024 (the lesson's block), where half of the folded chunk is never added
/*
 * Geometry: the complete unroll with the block size hard-coded as 512.
 * Right at 512, wrong at 1024 (the ints from 512 on are dropped) and at
 * 64..256 (it adds ints past the chunk).
 */
extern "C" __global__ void reduce_unroll8(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x, block = blockDim.x;
    unsigned int idx = blockIdx.x * block * 8 + tid;
    volatile int *idata = g_idata + blockIdx.x * block * 8;
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

    if (tid < 256) idata[tid] += idata[tid + 256];
    __syncthreads();
    if (tid < 128) idata[tid] += idata[tid + 128];
    __syncthreads();
    if (tid < 64) idata[tid] += idata[tid + 64];
    __syncthreads();
    for (unsigned int s = 32; s > 0; s >>= 1) {
        if (tid < s)
            idata[tid] += idata[tid + s];
        __syncwarp();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

// expect: fail — the rounds are written out for a block of 1024 threads; at 512 the first round adds s[512..1023], words this block never wrote
/*
 * Geometry: a complete unroll with the block size assumed.  Right at
 * the lesson's 1024; at the second block size tried (512) the first
 * round reads shared memory nobody filled.
 */
extern "C" __global__ void reduce_shared_sequential(const int *g_idata, int *g_odata, unsigned int n)
{
    __shared__ int s[1024];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + tid;

    s[tid] = idx < n ? g_idata[idx] : 0;
    __syncthreads();
    if (tid < 512) s[tid] += s[tid + 512];
    __syncthreads();
    if (tid < 256) s[tid] += s[tid + 256];
    __syncthreads();
    if (tid < 128) s[tid] += s[tid + 128];
    __syncthreads();
    if (tid < 64) s[tid] += s[tid + 64];
    __syncthreads();
    if (tid < 32) s[tid] += s[tid + 32];
    __syncthreads();
    if (tid < 16) s[tid] += s[tid + 16];
    __syncthreads();
    if (tid < 8) s[tid] += s[tid + 8];
    __syncthreads();
    if (tid < 4) s[tid] += s[tid + 4];
    __syncthreads();
    if (tid < 2) s[tid] += s[tid + 2];
    __syncthreads();
    if (tid == 0)
        g_odata[blockIdx.x] = s[0] + s[1];
}

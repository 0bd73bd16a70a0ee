/* Exercise "smem-sequential" (lesson bank-conflicts): our solution. */

/*
 * Each block copies its blockDim.x ints into shared memory (0 past n),
 * sums them there, and writes one partial sum to g_odata[blockIdx.x]; the
 * host adds the partials.  blockDim.x is a power of two from 64 to 1024.
 */
extern "C" __global__ void reduce_shared_sequential(const int *g_idata, int *g_odata, unsigned int n)
{
    __shared__ int s[1024];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + tid;

    s[tid] = idx < n ? g_idata[idx] : 0;
    /* a warp's lanes read 32 consecutive words, one per bank, in every round */
    for (unsigned int i = blockDim.x / 2; i > 0; i >>= 1) {
        __syncthreads();
        if (tid < i)
            s[tid] += s[tid + i];
    }
    if (tid == 0)
        g_odata[blockIdx.x] = s[0];
}

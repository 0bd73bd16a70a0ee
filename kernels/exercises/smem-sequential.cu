/* Exercise "smem-sequential" (lesson bank-conflicts): a shared-memory tree without conflicts. */

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
    /*
     * TODO: in round i, lane l of a warp reads words 2*i*l and 2*i*l + i:
     * words 2*i apart, so 2, 4, ... up to 32 lanes ask one bank for
     * different words, and each load takes that many passes.  Change the
     * pairs so that a warp's lanes read consecutive words in every round:
     * start with i at half the block, halve it each round, and let thread
     * tid add s[tid + i] into s[tid].  Keep a barrier before each round.
     */
    for (unsigned int i = 1; i < blockDim.x; i *= 2) {
        __syncthreads();
        unsigned int index = 2 * i * tid;
        if (index < blockDim.x)
            s[index] += s[index + i];
    }
    if (tid == 0)
        g_odata[blockIdx.x] = s[0];
}

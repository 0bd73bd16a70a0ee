// expect: pass — the sequential pairs (s[tid] += s[tid + i], i halving from half the block), with the first i built once before the loop as 1u << (log2(blockDim.x) - 1)
/*
 * Correct but unusual: a shift left in the SASS, but outside the loop,
 * where it makes the starting stride; inside the loop the stride only
 * halves.  Lanes read consecutive words in every round.
 */
extern "C" __global__ void reduce_shared_sequential(const int *g_idata, int *g_odata, unsigned int n)
{
    __shared__ int s[1024];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + tid;
    unsigned int shift = 31 - __clz(blockDim.x);     /* log2 of a power of two */

    s[tid] = idx < n ? g_idata[idx] : 0;
    for (unsigned int i = 1u << (shift - 1); i > 0; i >>= 1) {
        __syncthreads();
        if (tid < i)
            s[tid] += s[tid + i];
    }
    if (tid == 0)
        g_odata[blockIdx.x] = s[0];
}

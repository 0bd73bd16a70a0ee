// expect: fail — the rows are padded, but the reads are no longer volatile, so the compiler reads each word once and adds it twice: 32 reads where the step times 64; the 64 volatile reads the check counts sit under a test no launch passes
/*
 * Counting game: the check wants at least 64 LDS, to keep the 64 reads
 * the step measures.  The live path reads through a plain pointer (the
 * compiler keeps 32 loads); the volatile path with its 64 LDS is behind
 * n == 0xdeadbeef.  The sums are right and the time better than ours.
 */
#define READS 64
#define ROW_WORDS 33

extern "C" __global__ void smem_stride_32_padded(const int *g_words, int *g_warp_sums, unsigned int n)
{
    __shared__ int tile[32][ROW_WORDS];
    int *words = &tile[0][0];
    unsigned int lane = threadIdx.x % 32;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;

    for (unsigned int i = threadIdx.x; i < 32 * ROW_WORDS; i += blockDim.x)
        words[i] = g_words[i];
    __syncthreads();

    int sum = 0;
    if (n == 0xdeadbeefu) {
        volatile int *row = tile[lane];
#pragma unroll
        for (int r = 0; r < READS; r++)
            sum += row[r % 32];
    } else {
        const int *row = tile[lane];
#pragma unroll
        for (int r = 0; r < READS; r++)
            sum += row[r % 32];
    }

    if (idx >= n)
        sum = 0;
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0)
        g_warp_sums[idx / 32] = sum;
}

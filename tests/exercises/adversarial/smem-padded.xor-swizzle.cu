// expect: fail — conflict-free and right, but by an XOR swizzle (row l's word k stored at column k ^ l), not by padding: the task asks for padded rows, and the swizzle costs an address computation per read
/*
 * Correct, conflict-free, not what was asked: the lesson's task is to
 * pad the rows so that a column falls in 32 banks.  Here the rows stay
 * 32 ints, and word k of row l (g_words[33 * l + k], the padded layout's
 * word, so the sums are the experiment's) is stored at column k ^ l.
 * Each of the 64 reads then needs its own XOR instead of a constant
 * offset from the row's start.
 */
#define READS 64

extern "C" __global__ void smem_stride_32_padded(const int *g_words, int *g_warp_sums, unsigned int n)
{
    __shared__ int tile[32][32];
    unsigned int lane = threadIdx.x % 32;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;

    for (unsigned int i = threadIdx.x; i < 32 * 32; i += blockDim.x) {
        unsigned int r = i / 32, k = i % 32;
        tile[r][k ^ r] = g_words[33 * r + k];
    }
    __syncthreads();

    volatile int *row = tile[lane];
    int sum = 0;
#pragma unroll
    for (int r = 0; r < READS; r++)
        sum += row[(r % 32) ^ lane];

    if (idx >= n)
        sum = 0;
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0)
        g_warp_sums[idx / 32] = sum;
}

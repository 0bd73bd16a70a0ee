// expect: pass — each row is a struct of 32 ints and one int of padding, so rows are 33 ints apart and start one bank apart; filled as one run of ints, 64 volatile reads
/*
 * Correct but unusual: the padding is a struct member, not a wider
 * array bound.  The layout is the usual padding's exactly.
 */
#define READS 64

struct padded_row {
    int word[32];
    int pad;            /* the 33rd int: the next row starts one bank later */
};

extern "C" __global__ void smem_stride_32_padded(const int *g_words, int *g_warp_sums, unsigned int n)
{
    __shared__ padded_row tile[32];
    int *words = reinterpret_cast<int *>(tile);
    unsigned int lane = threadIdx.x % 32;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;

    for (unsigned int i = threadIdx.x; i < sizeof tile / sizeof(int); i += blockDim.x)
        words[i] = g_words[i];
    __syncthreads();

    volatile int *row = tile[lane].word;
    int sum = 0;
#pragma unroll
    for (int r = 0; r < READS; r++)
        sum += row[r % 32];

    if (idx >= n)
        sum = 0;
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0)
        g_warp_sums[idx / 32] = sum;
}

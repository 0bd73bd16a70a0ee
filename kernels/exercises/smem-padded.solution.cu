/* Exercise "smem-padded" (lesson bank-conflicts): our solution. */

/*
 * Each block copies words of g_words into a shared tile of 32 rows, read
 * here as one run of ints: the tile's int i is g_words[i] (there are
 * 32 * 33 words, more than a 32 x 32 tile needs).  Then lane l of every
 * warp reads row l of the tile, 64 times: element r % 32 in its r-th read.
 * The warp adds up what its lanes read and writes one int to
 * g_warp_sums[warp]; threads at or past n count as zero.
 */
#define READS 64
#define WORDS (32 * 33)

/* 33 ints a row: row l starts at word 33*l, in bank l, so a column is one bank per lane */
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

    /* volatile: the compiler keeps all 64 reads, although the words do not change */
    volatile int *row = tile[lane];
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

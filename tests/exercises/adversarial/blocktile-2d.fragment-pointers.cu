// expect: pass — an 8 x 8 block of outputs a thread from register fragments, the copy and both barriers as they were; the loop over K is a while loop and the fragments are read through pointers stepped along the tiles
/*
 * Correct but unusual: pointer arithmetic into the shared tiles instead
 * of two-dimensional indexing, and a while loop over K.
 */

/*
 * C = A * B for n x n row-major floats; n is any size from 1 to 4096, not
 * always a multiple of anything.  Blocks of exactly 256 threads; block b
 * computes the 128 x 128 tile of C at column b % tiles_x and row
 * b / tiles_x, tiles_x = ceil(n / 128).  K moves 8 values at a time.
 * Tiles reaching past the edge of a matrix are filled with zeros, every
 * thread reaches every barrier, and only outputs inside C are stored.
 */

#define THREADS 256             /* the block this kernel is written for */
#define BK 8                    /* K per tile: the loop over K moves 8 columns of A at a time */
#define SIDE 128                /* the block's tile of C is 128 x 128 */
#define TM 8                    /* each thread: 8 rows ... */
#define TN 8                    /* ... by 8 columns of outputs, 64 sums in registers */

/* copied from kernels/regtile.cu: begin load_or_zero */
/* One element of a matrix, or zero past its edge. */
__device__ __forceinline__ float load_or_zero(const float *m, int row, int col, int n)
{
    return row < n && col < n ? m[row * n + col] : 0.0f;
}
/* copied from kernels/regtile.cu: end load_or_zero */

extern "C" __global__ void __launch_bounds__(THREADS) matmul_2d_blocktile(const float *a,
    const float *b, float *c, int n)
{
    __shared__ float a_tile[SIDE][BK];
    __shared__ float b_tile[BK][SIDE];
    int tiles_x = (n + SIDE - 1) / SIDE;
    int row0 = (blockIdx.x / tiles_x) * SIDE, col0 = (blockIdx.x % tiles_x) * SIDE;
    /* the copy: each thread one column of every 32nd row of A's tile, of every 2nd of B's */
    int a_row = threadIdx.x / BK, a_col = threadIdx.x % BK;
    int b_row = threadIdx.x / SIDE, b_col = threadIdx.x % SIDE;
    int tx = threadIdx.x % (SIDE / TN), ty = threadIdx.x / (SIDE / TN);
    float sum[TM][TN], a_frag[TM], b_frag[TN];

#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            sum[i][j] = 0.0f;
    int k0 = 0;
    const float *a_mine = &a_tile[ty * TM][0], *b_mine = &b_tile[0][tx * TN];
    while (k0 < n) {
#pragma unroll
        for (int q = 0; q < SIDE * BK / THREADS; q++) {
            int ar = a_row + q * (THREADS / BK), bk = b_row + q * (THREADS / SIDE);

            a_tile[ar][a_col] = load_or_zero(a, row0 + ar, k0 + a_col, n);
            b_tile[bk][b_col] = load_or_zero(b, k0 + bk, col0 + b_col, n);
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; k++) {
            /* 16 values into registers ... */
            const float *ap = a_mine + k, *bp = b_mine + k * SIDE;
#pragma unroll
            for (int i = 0; i < TM; i++, ap += BK)
                a_frag[i] = *ap;
#pragma unroll
            for (int j = 0; j < TN; j++)
                b_frag[j] = bp[j];
            /* ... feed 64 multiply-adds: each value of A meets 8 of B, and each of B 8 of A */
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++)
                    sum[i][j] += a_frag[i] * b_frag[j];
        }
        __syncthreads();
        k0 += BK;
    }
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) {
            int row = row0 + ty * TM + i, col = col0 + tx * TN + j;
            if (row < n && col < n)
                c[row * n + col] = sum[i][j];
        }
}

// expect: fail — the starting file's column of 64 outputs a thread, each value of A still feeding one multiply-add; only `#pragma unroll 1` on the loop over k was added, so the listing has fewer LDS than the check's limit while every k still runs its 64 loads of A
/*
 * Counting game: the check counts the LDS in the listing, at most 128.
 * Keeping the loop over k rolled writes its 65 loads once instead of 8
 * times; each k still reads 64 values of A from shared memory, one per
 * multiply-add.  The 8 x 8 block the task asks for is not there.
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
    int tx = threadIdx.x % SIDE, ty = threadIdx.x / SIDE;
    float sum[64];

#pragma unroll
    for (int i = 0; i < 64; i++)
        sum[i] = 0.0f;
    for (int k0 = 0; k0 < n; k0 += BK) {
#pragma unroll
        for (int q = 0; q < SIDE * BK / THREADS; q++) {
            int ar = a_row + q * (THREADS / BK), bk = b_row + q * (THREADS / SIDE);

            a_tile[ar][a_col] = load_or_zero(a, row0 + ar, k0 + a_col, n);
            b_tile[bk][b_col] = load_or_zero(b, k0 + bk, col0 + b_col, n);
        }
        __syncthreads();
#pragma unroll 1        /* the only change: the static count of LDS falls under 128 */
        for (int k = 0; k < BK; k++) {
            float bv = b_tile[k][tx];       /* one shared load ... */
#pragma unroll
            for (int i = 0; i < 64; i++)
                sum[i] += a_tile[ty * 64 + i][k] * bv;  /* ... and 64 more, one per multiply-add */
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 64; i++) {
        int row = row0 + ty * 64 + i, col = col0 + tx;
        if (row < n && col < n)
            c[row * n + col] = sum[i];
    }
}

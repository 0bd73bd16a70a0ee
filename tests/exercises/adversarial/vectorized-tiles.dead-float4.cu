// expect: fail — the starting file's scalar copy does all the work; a 16-byte copy (two LDG.E.128, one STS.128) was added under a test no launch passes, and A is not transposed nor the fragments read as float4s
/*
 * The starting file under another name, with dead technique: the
 * instructions the check counts are in a branch that is never taken.
 */

/*
 * C = A * B for n x n row-major floats; n is any size from 1 to 4096, not
 * always a multiple of anything.  Blocks of exactly 256 threads; block b
 * computes the 128 x 128 tile of C at column b % tiles_x and row
 * b / tiles_x, tiles_x = ceil(n / 128).  Tiles reaching past the edge of
 * a matrix are filled with zeros, every thread reaches every barrier, and
 * only outputs inside C are stored.
 */

#define THREADS 256             /* every kernel here is written for this block */
#define BK 8                    /* K per tile: the loop over K moves 8 columns of A at a time */

/* copied from kernels/regtile.cu: begin load_or_zero */
/* One element of a matrix, or zero past its edge. */
__device__ __forceinline__ float load_or_zero(const float *m, int row, int col, int n)
{
    return row < n && col < n ? m[row * n + col] : 0.0f;
}
/* copied from kernels/regtile.cu: end load_or_zero */

/* copied from kernels/regtile.cu: begin load4_store4 */
/*
 * Four consecutive elements of a row, from col on (col a multiple of 4),
 * zeros past the edge.  With n % 4 == 0 they are all inside or all
 * outside, and one 16-byte load fetches them; otherwise the address may
 * not be 16-byte aligned, and four scalar loads it is.
 */
__device__ __forceinline__ float4 load4_or_zero(const float *m, int row, int col, int n)
{
    if ((n & 3) == 0) {
        if (row < n && col < n)
            return *reinterpret_cast<const float4 *>(m + row * n + col);
        return make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    }
    return make_float4(load_or_zero(m, row, col, n), load_or_zero(m, row, col + 1, n),
        load_or_zero(m, row, col + 2, n), load_or_zero(m, row, col + 3, n));
}

/* Four outputs of a row of C, from col on: one 16-byte store where it is aligned and inside. */
__device__ __forceinline__ void store4(float *c, int row, int col, int n, float4 v)
{
    if (row >= n)
        return;
    if ((n & 3) == 0 && col + 3 < n) {
        *reinterpret_cast<float4 *>(c + row * n + col) = v;
        return;
    }
    if (col < n)
        c[row * n + col] = v.x;
    if (col + 1 < n)
        c[row * n + col + 1] = v.y;
    if (col + 2 < n)
        c[row * n + col + 2] = v.z;
    if (col + 3 < n)
        c[row * n + col + 3] = v.w;
}
/* copied from kernels/regtile.cu: end load4_store4 */

#define SIDE 128
#define TM 8
#define TN 8

/* copied from kernels/regtile.cu: begin outer_product */
/* The 8 x 8 outer product of a thread's fragments, added to its sums. */
__device__ __forceinline__ void outer_product(float (*sum)[TN], const float *a_frag,
    const float *b_frag)
{
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            sum[i][j] += a_frag[i] * b_frag[j];
}
/* copied from kernels/regtile.cu: end outer_product */

extern "C" __global__ void __launch_bounds__(THREADS) matmul_2d_vectorized(const float *a,
    const float *b, float *c, int n)
{
    __shared__ float a_tile[SIDE][BK];
    __shared__ float b_tile[BK][SIDE];
    int tiles_x = (n + SIDE - 1) / SIDE;
    int row0 = (blockIdx.x / tiles_x) * SIDE, col0 = (blockIdx.x % tiles_x) * SIDE;
    int tx = threadIdx.x % (SIDE / TN), ty = threadIdx.x / (SIDE / TN);
    /* the copy: each thread one column of every 32nd row of A's tile, of every 2nd of B's */
    int a_row = threadIdx.x / BK, a_col = threadIdx.x % BK;
    int b_row = threadIdx.x / SIDE, b_col = threadIdx.x % SIDE;
    float sum[TM][TN], a_frag[TM], b_frag[TN];

#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            sum[i][j] = 0.0f;
    for (int k0 = 0; k0 < n; k0 += BK) {
#pragma unroll
        for (int q = 0; q < SIDE * BK / THREADS; q++) {
            int ar = a_row + q * (THREADS / BK), bk = b_row + q * (THREADS / SIDE);

            a_tile[ar][a_col] = load_or_zero(a, row0 + ar, k0 + a_col, n);
            b_tile[bk][b_col] = load_or_zero(b, k0 + bk, col0 + b_col, n);
        }
        if (gridDim.z == 7) {           /* never (the grid is one-dimensional): the 16-byte copy the check counts */
            float4 av = load4_or_zero(a, row0 + threadIdx.x / 2, k0 + (threadIdx.x % 2) * 4, n);
            float4 bv = load4_or_zero(b, k0 + threadIdx.x / 32, col0 + (threadIdx.x % 32) * 4, n);
            *reinterpret_cast<float4 *>(&b_tile[threadIdx.x / 32][(threadIdx.x % 32) * 4]) = bv;
            a_tile[threadIdx.x / 2][(threadIdx.x % 2) * 4] += av.x + av.y + av.z + av.w;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; k++) {
#pragma unroll
            for (int i = 0; i < TM; i++)
                a_frag[i] = a_tile[ty * TM + i][k];
#pragma unroll
            for (int j = 0; j < TN; j++)
                b_frag[j] = b_tile[k][tx * TN + j];
            outer_product(sum, a_frag, b_frag);
        }
        __syncthreads();
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

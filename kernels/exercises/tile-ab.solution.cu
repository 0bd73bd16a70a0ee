/* Exercise "tile-ab" (lesson shared-memory): our solution. */

/*
 * C = A * B for n x n row-major floats; n is any size from 1 to 4096, not
 * always a multiple of 32.  The block is one-dimensional but is read as
 * rows of 32 threads: thread (tx, ty) = (threadIdx.x % 32, threadIdx.x / 32),
 * so one row of threads is one warp.  The grid is one-dimensional: block b
 * computes the tile of C 32 columns wide and blockDim.x / 32 rows tall at
 * column tile b % tiles_x and row tile b / tiles_x, tiles_x = ceil(n / 32).
 * blockDim.x is a multiple of 32 up to 1024.
 *
 * Threads outside C still help load tiles and still reach every barrier
 * (a barrier that some threads skip is undefined); only threads inside C
 * store.
 */
#define TILE 32
#define MAX_ROWS 32

extern "C" __global__ void matmul_shared_ab(const float *a, const float *b, float *c, int n)
{
    __shared__ float a_tile[MAX_ROWS][TILE];
    __shared__ float b_tile[TILE][TILE];
    int tiles_x = (n + TILE - 1) / TILE;
    int tx = threadIdx.x % 32, ty = threadIdx.x / 32, rows = blockDim.x / 32;
    int col = (blockIdx.x % tiles_x) * TILE + tx;
    int row = (blockIdx.x / tiles_x) * rows + ty;
    int a_row = min(row, n - 1), b_col = min(col, n - 1);   /* clamped: loads stay inside */
    float sum = 0.0f;

    for (int k0 = 0; k0 < n; k0 += TILE) {
        a_tile[ty][tx] = k0 + tx < n ? a[a_row * n + k0 + tx] : 0.0f;
        for (int r = ty; r < TILE; r += rows)
            b_tile[r][tx] = k0 + r < n ? b[(k0 + r) * n + b_col] : 0.0f;
        __syncthreads();        /* every warp's share of b_tile is written */
#pragma unroll
        for (int k = 0; k < TILE; k++)
            sum += a_tile[ty][k] * b_tile[k][tx];
        __syncthreads();        /* every warp is done with this b_tile */
    }
    if (row < n && col < n)
        c[row * n + col] = sum;
}

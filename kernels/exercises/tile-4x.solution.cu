/* Exercise "tile-4x" (lesson shared-memory): our solution. */

/*
 * C = A * B for n x n row-major floats; n is any size from 1 to 4096, not
 * always a multiple of 32.  The block is one-dimensional but is read as
 * rows of 32 threads: thread (tx, ty) = (threadIdx.x % 32, threadIdx.x / 32),
 * so one row of threads is one warp.  blockDim.x is a multiple of 32 up to
 * 1024.
 *
 * The grid is sized for FOUR outputs per thread: block b computes the tile
 * of C 32 columns wide and 4 * (blockDim.x / 32) rows tall at column tile
 * b % tiles_x and row tile b / tiles_x, tiles_x = ceil(n / 32).
 *
 * Threads outside C still help load tiles and still reach every barrier;
 * only threads inside C store.
 */
#define TILE 32
#define MAX_ROWS 32
#define OUTPUTS 4

extern "C" __global__ void matmul_tiled_4x(const float *a, const float *b, float *c, int n)
{
    __shared__ float a_tile[MAX_ROWS * OUTPUTS][TILE];
    __shared__ float b_tile[TILE][TILE];
    int tiles_x = (n + TILE - 1) / TILE;
    int tx = threadIdx.x % 32, ty = threadIdx.x / 32, rows = blockDim.x / 32;
    int col = (blockIdx.x % tiles_x) * TILE + tx;
    int row0 = (blockIdx.x / tiles_x) * (OUTPUTS * rows);      /* the block's first row of C */
    int b_col = min(col, n - 1);
    float sum[OUTPUTS];

#pragma unroll
    for (int i = 0; i < OUTPUTS; i++)
        sum[i] = 0.0f;
    for (int k0 = 0; k0 < n; k0 += TILE) {
        /* this thread's rows of C are ty, ty + rows, ...: copy those rows of A */
        for (int r = ty; r < OUTPUTS * rows; r += rows) {
            int a_row = min(row0 + r, n - 1);
            a_tile[r][tx] = k0 + tx < n ? a[a_row * n + k0 + tx] : 0.0f;
        }
        for (int r = ty; r < TILE; r += rows)
            b_tile[r][tx] = k0 + r < n ? b[(k0 + r) * n + b_col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++) {
            float bv = b_tile[k][tx];   /* one shared load feeds four multiply-adds */
#pragma unroll
            for (int i = 0; i < OUTPUTS; i++)
                sum[i] += a_tile[ty + i * rows][k] * bv;
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < OUTPUTS; i++) {
        int row = row0 + ty + i * rows;
        if (row < n && col < n)
            c[row * n + col] = sum[i];
    }
}

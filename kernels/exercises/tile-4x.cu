/* Exercise "tile-4x" (lesson shared-memory): four outputs per thread. */

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
    /*
     * TODO: this is the one-output tiled loop: each thread computes only
     * row row0 + ty, so the rows ty + rows, ty + 2 * rows and ty + 3 * rows
     * of the block's tile are never written.  Give each thread those four
     * elements of C, with four sums in registers: copy the four rows of A
     * the thread's warp needs into a_tile, and in the multiply-add loop
     * read b_tile[k][tx] once and use it for all four sums.  Keep both
     * barriers.
     */
    int row = row0 + ty;
    int a_row = min(row, n - 1);
    float sum = 0.0f;

    for (int k0 = 0; k0 < n; k0 += TILE) {
        a_tile[ty][tx] = k0 + tx < n ? a[a_row * n + k0 + tx] : 0.0f;
        for (int r = ty; r < TILE; r += rows)
            b_tile[r][tx] = k0 + r < n ? b[(k0 + r) * n + b_col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++)
            sum += a_tile[ty][k] * b_tile[k][tx];
        __syncthreads();
    }
    if (row < n && col < n)
        c[row * n + col] = sum;
}

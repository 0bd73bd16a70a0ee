/* Exercise "tile-ab" (lesson shared-memory): tile B as well, with block-wide barriers. */

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
    int tiles_x = (n + TILE - 1) / TILE;
    int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
    int col = (blockIdx.x % tiles_x) * TILE + tx;
    int row = (blockIdx.x / tiles_x) * (blockDim.x / 32) + ty;
    int a_row = min(row, n - 1), b_col = min(col, n - 1);   /* clamped: loads stay inside */
    float sum = 0.0f;

    /*
     * TODO: each warp keeps its row of A in shared memory, but every
     * multiply-add still loads an element of B from global memory, and
     * every row of threads in the block loads the same 32 x 32 tile of B.
     * Copy that tile into shared memory too (a b_tile[TILE][TILE], each row
     * of threads copying a share of its 32 rows, zeros past the edge of B),
     * and take B from there.  A warp then reads words that other warps
     * wrote, so __syncwarp() is no longer enough: the whole block must
     * wait after the copy, and again before the next copy overwrites a
     * tile that a slower warp may still be reading.
     */
    for (int k0 = 0; k0 < n; k0 += TILE) {
        a_tile[ty][tx] = k0 + tx < n ? a[a_row * n + k0 + tx] : 0.0f;
        __syncwarp();
        if (k0 + TILE <= n) {
#pragma unroll
            for (int k = 0; k < TILE; k++)
                sum += a_tile[ty][k] * b[(k0 + k) * n + b_col];
        } else {
            for (int k = 0; k < n - k0; k++)
                sum += a_tile[ty][k] * b[(k0 + k) * n + b_col];
        }
        __syncwarp();
    }
    if (row < n && col < n)
        c[row * n + col] = sum;
}

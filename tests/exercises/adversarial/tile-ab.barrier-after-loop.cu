// expect: fail — one barrier after the copy, none before the next copy overwrites the tiles (the second __syncthreads() sits after the loop): a fast warp can refill b_tile while a slow one still reads it
/*
 * Race the GPU usually forgives: the barrier count is right (two), but
 * the second one is after the loop, where it protects nothing.  A warp
 * that finishes its 32 multiply-adds early copies the next tile of B over
 * the one its neighbours are still reading.
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
    int a_row = min(row, n - 1), b_col = min(col, n - 1);
    float sum = 0.0f;

    for (int k0 = 0; k0 < n; k0 += TILE) {
        a_tile[ty][tx] = k0 + tx < n ? a[a_row * n + k0 + tx] : 0.0f;
        for (int r = ty; r < TILE; r += rows)
            b_tile[r][tx] = k0 + r < n ? b[(k0 + r) * n + b_col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++)
            sum += a_tile[ty][k] * b_tile[k][tx];
        /* no barrier here: the next copy may overwrite b_tile under a slower warp */
    }
    __syncthreads();
    if (row < n && col < n)
        c[row * n + col] = sum;
}

// expect: fail — the four rows a thread owns are ty, ty + 32, ty + 64, ty + 96: right for blocks of 1024 threads (32 rows of threads), wrong at 512, where rows is 16
/*
 * Geometry: the number of rows of threads hard-coded as 32.  At 512
 * threads a block's tile is 64 rows tall, yet threads write rows up to
 * ty + 96, into the next block's tile, and leave rows of their own empty.
 */
#define TILE 32
#define MAX_ROWS 32
#define OUTPUTS 4
#define ROWS 32

extern "C" __global__ void matmul_tiled_4x(const float *a, const float *b, float *c, int n)
{
    __shared__ float a_tile[MAX_ROWS * OUTPUTS][TILE];
    __shared__ float b_tile[TILE][TILE];
    int tiles_x = (n + TILE - 1) / TILE;
    int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
    int col = (blockIdx.x % tiles_x) * TILE + tx;
    int row0 = (blockIdx.x / tiles_x) * (OUTPUTS * (blockDim.x / 32));
    int b_col = min(col, n - 1);
    float sum[OUTPUTS] = {};

    for (int k0 = 0; k0 < n; k0 += TILE) {
#pragma unroll
        for (int i = 0; i < OUTPUTS; i++) {
            int a_row = min(row0 + ty + i * ROWS, n - 1);
            a_tile[ty + i * ROWS][tx] = k0 + tx < n ? a[a_row * n + k0 + tx] : 0.0f;
        }
        for (int r = ty; r < TILE; r += blockDim.x / 32)
            b_tile[r][tx] = k0 + r < n ? b[(k0 + r) * n + b_col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++) {
            float bv = b_tile[k][tx];
#pragma unroll
            for (int i = 0; i < OUTPUTS; i++)
                sum[i] += a_tile[ty + i * ROWS][k] * bv;
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < OUTPUTS; i++) {
        int row = row0 + ty + i * ROWS;
        if (row < n && col < n)
            c[row * n + col] = sum[i];
    }
}

// expect: fail — the starting file, one output per thread, with three more stores to C under a test no launch passes: the SASS has four STG, and three quarters of the block's tile are never written
/*
 * The starting file under another name, with dead technique: the check
 * counts four stores to C, and the three added ones sit behind
 * n == 0xdeadbeef.  On the next step's grid the rows ty + rows ... are
 * left as they were.
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
    int row0 = (blockIdx.x / tiles_x) * (OUTPUTS * rows);
    int b_col = min(col, n - 1);
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
    if (n == (int)0xdeadbeef)           /* never */
        for (int i = 1; i < OUTPUTS; i++)
            c[(row + i * rows) * n + col] = sum;
}

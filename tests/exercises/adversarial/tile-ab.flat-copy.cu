// expect: pass — the tile of B is copied by the whole block as one flat run of 1024 floats (element e to row e / 32, column e % 32), with the same zeros past the edge and both barriers in place
/*
 * Correct but unusual: a different tile loader.  Instead of each row of
 * threads taking every rows-th row of the tile, thread t copies elements
 * t, t + blockDim.x, ... of the tile read as one run; a warp still reads
 * 32 neighbouring floats of one row of B.
 */
#define TILE 32
#define MAX_ROWS 32

extern "C" __global__ void matmul_shared_ab(const float *a, const float *b, float *c, int n)
{
    __shared__ float a_tile[MAX_ROWS][TILE];
    __shared__ float b_tile[TILE * TILE];
    int tiles_x = (n + TILE - 1) / TILE;
    int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
    int col0 = (blockIdx.x % tiles_x) * TILE;
    int col = col0 + tx;
    int row = (blockIdx.x / tiles_x) * (blockDim.x / 32) + ty;
    int a_row = min(row, n - 1);
    float sum = 0.0f;

    for (int k0 = 0; k0 < n; k0 += TILE) {
        a_tile[ty][tx] = k0 + tx < n ? a[a_row * n + k0 + tx] : 0.0f;
        for (int e = threadIdx.x; e < TILE * TILE; e += blockDim.x) {
            int k = k0 + e / TILE, j = min(col0 + e % TILE, n - 1);
            b_tile[e] = k < n ? b[k * n + j] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++)
            sum += a_tile[ty][k] * b_tile[k * TILE + tx];
        __syncthreads();
    }
    if (row < n && col < n)
        c[row * n + col] = sum;
}

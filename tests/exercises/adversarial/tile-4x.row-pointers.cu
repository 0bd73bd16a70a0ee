// expect: pass — four sums a thread, rows ty, ty + rows, ty + 2*rows, ty + 3*rows, each b_tile value read once for the four; the rows of a_tile and the outputs reached through pointers stepped by rows
/*
 * Correct but unusual: pointer arithmetic instead of indexing, for the
 * rows of A the thread copies, the rows of a_tile it reads, and the
 * elements of C it writes.  Both barriers stay.
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
    int row0 = (blockIdx.x / tiles_x) * (OUTPUTS * rows) + ty;     /* this thread's first row */
    int b_col = min(col, n - 1);
    const float *mine = &a_tile[ty][0];         /* row i of mine is mine + i * rows * TILE */
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;

    for (int k0 = 0; k0 < n; k0 += TILE) {
        float *dst = &a_tile[ty][tx];
        for (int i = 0; i < OUTPUTS; i++, dst += rows * TILE) {
            const float *src = a + (size_t)min(row0 + i * rows, n - 1) * n + k0 + tx;
            *dst = k0 + tx < n ? *src : 0.0f;
        }
        for (int r = ty; r < TILE; r += rows)
            b_tile[r][tx] = k0 + r < n ? b[(k0 + r) * n + b_col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++) {
            float bv = b_tile[k][tx];
            const float *p = mine + k;
            s0 += p[0] * bv;
            s1 += p[rows * TILE] * bv;
            s2 += p[2 * rows * TILE] * bv;
            s3 += p[3 * rows * TILE] * bv;
        }
        __syncthreads();
    }
    float *out = c + (size_t)row0 * n + col;
    float s[OUTPUTS] = { s0, s1, s2, s3 };
    for (int i = 0; i < OUTPUTS; i++, out += (size_t)rows * n)
        if (row0 + i * rows < n && col < n)
            *out = s[i];
}

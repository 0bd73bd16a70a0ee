// expect: fail (sass) — B is still read from global memory in the multiply-add loop, one load per multiply-add, through a generic pointer (LD, not LDG); the b_tile the task asks for is never made
/*
 * Counting game: the check allows at most eight LDG.  The pointer to B
 * goes through an empty asm, so the multiply-add loop's 32 loads of B
 * are generic LD.E and today's count misses them.  A judge that counts
 * generic loads as the global loads they are sees far more than eight.
 */
#define TILE 32
#define MAX_ROWS 32

__device__ __forceinline__ const float *opaque(const float *p)
{
    asm("mov.b64 %0, %0;" : "+l"(p));
    return p;
}

extern "C" __global__ void matmul_shared_ab(const float *a, const float *b, float *c, int n)
{
    __shared__ float a_tile[MAX_ROWS][TILE];
    int tiles_x = (n + TILE - 1) / TILE;
    int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
    int col = (blockIdx.x % tiles_x) * TILE + tx;
    int row = (blockIdx.x / tiles_x) * (blockDim.x / 32) + ty;
    int a_row = min(row, n - 1), b_col = min(col, n - 1);
    const float *bg = opaque(b);
    float sum = 0.0f;

    for (int k0 = 0; k0 < n; k0 += TILE) {
        a_tile[ty][tx] = k0 + tx < n ? a[a_row * n + k0 + tx] : 0.0f;
        __syncthreads();
        if (k0 + TILE <= n) {
#pragma unroll
            for (int k = 0; k < TILE; k++)
                sum += a_tile[ty][k] * bg[(k0 + k) * n + b_col];
        } else {
#pragma unroll 1
            for (int k = 0; k < n - k0; k++)
                sum += a_tile[ty][k] * b[(k0 + k) * n + b_col];
        }
        __syncthreads();
    }
    if (row < n && col < n)
        c[row * n + col] = sum;
}

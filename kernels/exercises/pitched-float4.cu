/* Exercise "pitched-float4" (lesson pitch): read A four floats at a time. */

/*
 * C = A B for n x n floats, one element of C per thread.  A block covers a
 * tile of C 32 columns wide and blockDim.x / 32 rows tall, so each warp
 * takes 32 neighbouring columns of one row; block b takes tile column
 * b % tiles_x and tile row b / tiles_x, tiles_x = ceil(n / 32).
 *
 * A, B and C were allocated with cudaMallocPitch and filled with
 * cudaMemcpy2D: each row holds n floats, and the next row starts `pitch`
 * bytes after it (pitch >= n * sizeof(float); the bytes in between are
 * padding, never read).  All three share one pitch.
 */
__device__ __forceinline__ void matmul_tile(int n, int *row, int *col)
{
    int tiles_x = (n + 31) / 32;

    *col = (blockIdx.x % tiles_x) * 32 + threadIdx.x % 32;
    *row = (blockIdx.x / tiles_x) * (blockDim.x / 32) + threadIdx.x / 32;
}

extern "C" __global__ void matmul_pitched_float4(const float *a, const float *b, float *c, int n,
                                          size_t pitch)
{
    int ld = (int)(pitch / sizeof(float));     /* floats from one row's start to the next */
    int row, col;

    matmul_tile(n, &row, &col);
    /*
     * TODO: every round of the loop loads one float of A with a 4-byte
     * LDG.E, the same float for all 32 lanes.  cudaMallocPitch starts every
     * row on a generous boundary (see the pitch the check reports), so a
     * row of A can be read as float4s: one 16-byte LDG.E.128 for four
     * rounds.  Walk k four at a time with one float4 of A and four floats
     * of B, then finish the last n % 4 rounds one float at a time, as now.
     * Take the float4 path only when the pitch is a multiple of 16 bytes.
     */
    if (row < n && col < n) {
        float sum = 0.0f;
        for (int k = 0; k < n; k++)
            sum += a[row * ld + k] * b[k * ld + col];
        c[row * ld + col] = sum;
    }
}

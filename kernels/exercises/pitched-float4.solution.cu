/* Exercise "pitched-float4" (lesson pitch): our solution. */

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
    if (row < n && col < n) {
        const float *a_row = a + row * ld;
        float sum = 0.0f;
        int k = 0;

        /* rows that start on a 16-byte boundary can be read as float4s */
        if (pitch % 16 == 0) {
            const float4 *a4 = reinterpret_cast<const float4 *>(a_row);
            for (; k + 4 <= n; k += 4) {
                float4 av = a4[k / 4];
                sum += av.x * b[k * ld + col];
                sum += av.y * b[(k + 1) * ld + col];
                sum += av.z * b[(k + 2) * ld + col];
                sum += av.w * b[(k + 3) * ld + col];
            }
        }
        for (; k < n; k++)
            sum += a_row[k] * b[k * ld + col];
        c[row * ld + col] = sum;
    }
}

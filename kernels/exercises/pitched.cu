/* Exercise "pitched" (lesson pitch): index rows that cudaMallocPitch placed. */

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

extern "C" __global__ void matmul_pitched(const float *a, const float *b, float *c, int n,
                                          size_t pitch)
{
    int row, col;

    matmul_tile(n, &row, &col);
    /*
     * TODO: this is the packed kernel: it finds row r at r * n floats, as
     * if the rows followed each other with no gap, and never looks at
     * pitch.  Here row r starts r * pitch bytes in.  Turn the pitch into a
     * distance in floats once, before the loop, and use it for the rows of
     * A, B and C alike.
     */
    if (row < n && col < n) {
        float sum = 0.0f;
        for (int k = 0; k < n; k++)
            sum += a[row * n + k] * b[k * n + col];
        c[row * n + col] = sum;
    }
}

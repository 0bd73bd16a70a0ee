// expect: fail — the pitch is read (to return early on a zero pitch) but never used to find a row: rows are still n floats apart, wrong wherever cudaMallocPitch pads them
/*
 * Counting game: the check asks only whether the fifth parameter is
 * read, which this file does, once, for a test that never returns.  The
 * indexing is the packed kernel's.
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

    if (pitch == 0)         /* "the pitch is used" */
        return;
    matmul_tile(n, &row, &col);
    if (row < n && col < n) {
        float sum = 0.0f;
        for (int k = 0; k < n; k++)
            sum += a[row * n + k] * b[k * n + col];
        c[row * n + col] = sum;
    }
}

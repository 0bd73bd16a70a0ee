// expect: fail — every product is taken of A and B rounded to whole numbers (rintf) first: exact for the experiment's inputs, which are whole numbers from -4 to 4, and wrong for any other matrices
/*
 * Answers only tame inputs make right: an "integer multiply" that the
 * experiment cannot tell from the real one, since it fills A and B with
 * small whole numbers so that every float sum is exact.  The pitch is
 * used properly; the arithmetic is not C = A B.
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
    int ld = (int)(pitch / sizeof(float));
    int row, col;

    matmul_tile(n, &row, &col);
    if (row < n && col < n) {
        float sum = 0.0f;
        for (int k = 0; k < n; k++)
            sum = fmaf(rintf(a[row * ld + k]), rintf(b[k * ld + col]), sum);   /* whole numbers only */
        c[row * ld + col] = sum;
    }
}

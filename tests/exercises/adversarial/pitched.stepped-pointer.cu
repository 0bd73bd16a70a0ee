// expect: pass — rows found in bytes, as the Programming Guide does, but with one char pointer per matrix stepped by the pitch: B's column walks down pitch bytes a round
/*
 * Correct but unusual: no row * pitch multiply in the loop; the pointer
 * to B's element moves pitch bytes each k.
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
    if (row < n && col < n) {
        const float *a_row = reinterpret_cast<const float *>(reinterpret_cast<const char *>(a) + row * pitch);
        const char *b_at = reinterpret_cast<const char *>(b + col);
        float sum = 0.0f;

        for (int k = 0; k < n; k++, b_at += pitch)
            sum += a_row[k] * *reinterpret_cast<const float *>(b_at);
        reinterpret_cast<float *>(reinterpret_cast<char *>(c) + row * pitch)[col] = sum;
    }
}

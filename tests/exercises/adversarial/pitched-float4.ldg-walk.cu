// expect: fail — correct, but slower than the task allows: 1.39x the reference's time on an H200 (A read four floats at a time through __ldg of a float4 pointer, only when pitch % 16 == 0, walking k with a pointer; the last n % 4 rounds one float at a time)
/*
 * Correct but unusual: the 16-byte load goes through the read-only
 * path (__ldg, LDG.E.128.CONSTANT), and the loop walks a float4 pointer
 * and a B pointer instead of an index.
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
    int ld = (int)(pitch / sizeof(float));
    int row, col;

    matmul_tile(n, &row, &col);
    if (row < n && col < n) {
        const float *a_row = a + row * ld, *b_col = b + col;
        float sum = 0.0f;
        int k = 0;

        if (pitch % 16 == 0) {
            const float4 *p = reinterpret_cast<const float4 *>(a_row), *end = p + n / 4;
            for (; p < end; p++, b_col += 4 * ld) {
                float4 av = __ldg(p);
                sum += av.x * b_col[0];
                sum += av.y * b_col[ld];
                sum += av.z * b_col[2 * ld];
                sum += av.w * b_col[3 * ld];
            }
            k = n / 4 * 4;
        }
        for (; k < n; k++, b_col += ld)
            sum += a_row[k] * *b_col;
        c[row * ld + col] = sum;
    }
}

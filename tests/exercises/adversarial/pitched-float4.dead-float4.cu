// expect: fail — the pitched kernel of the last exercise, one float of A per round, with a float4 loop added under a test no pitch passes (pitch == 3): the LDG.E.128 is in the SASS and never runs
/*
 * The starting file under another name, with dead technique.  A float4
 * path guarded by pitch == 3 instead of pitch % 16 == 0 compiles to the
 * same loads and is never taken; all the work is the scalar loop's.
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
        const float *a_row = a + row * ld;
        float sum = 0.0f;
        int k = 0;

        if (pitch == 3) {
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

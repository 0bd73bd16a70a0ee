// expect: fail — the float4 path is taken without testing pitch % 16 == 0, which the task requires: every pitch seen so far is a multiple of 16, but cudaMallocPitch promises no number, and an odd pitch would fault
/*
 * Answers only tame inputs make right: the experiment's pitches are
 * always multiples of 16 bytes (512 or more), so the unguarded float4
 * loads are aligned and right on every GPU it runs on.  The task says to
 * take the float4 path only when pitch % 16 == 0.
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
        const float4 *a4 = reinterpret_cast<const float4 *>(a_row);    /* "always aligned" */
        float sum = 0.0f;
        int k = 0;

        for (; k + 4 <= n; k += 4) {
            float4 av = a4[k / 4];
            sum += av.x * b[k * ld + col];
            sum += av.y * b[(k + 1) * ld + col];
            sum += av.z * b[(k + 2) * ld + col];
            sum += av.w * b[(k + 3) * ld + col];
        }
        for (; k < n; k++)
            sum += a_row[k] * b[k * ld + col];
        c[row * ld + col] = sum;
    }
}

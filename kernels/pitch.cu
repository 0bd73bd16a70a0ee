/* Pitched memory: C = A B for n x n floats, rows packed or padded by cudaMallocPitch. */

/*
 * Each thread computes one element of C: row `row` of A times column `col`
 * of B.  A block covers a tile of C 32 columns wide and blockDim.x / 32
 * rows high, so each warp takes 32 neighbouring columns of one row, and
 * the first of them is a multiple of 32.  In every round k the warp reads
 * one float of A (the same for all 32 lanes) and 32 neighbouring floats of
 * row k of B: 128 bytes that start at column 32j.  Whether those 128
 * bytes start on a 128-byte boundary depends only on where row k starts,
 * and that is what this lesson changes.
 *
 * The grid is one line of blocks; block b takes tile column b % tiles_x
 * and tile row b / tiles_x.
 */
__device__ __forceinline__ void matmul_tile(int n, int *row, int *col)
{
    int tiles_x = (n + 31) / 32;

    *col = (blockIdx.x % tiles_x) * 32 + threadIdx.x % 32;
    *row = (blockIdx.x / tiles_x) * (blockDim.x / 32) + threadIdx.x / 32;
}

/*
 * Rows packed one after another, as cudaMalloc and cudaMemcpy leave them:
 * row r starts r * n floats in.  With n = 1000 a row is 4000 bytes, so
 * only every fourth row starts on a 128-byte boundary.
 */
extern "C" __global__ void matmul_rows(const float *a, const float *b, float *c, int n)
{
    int row, col;

    matmul_tile(n, &row, &col);
    if (row < n && col < n) {
        float sum = 0.0f;
        for (int k = 0; k < n; k++)
            sum += a[row * n + k] * b[k * n + col];
        c[row * n + col] = sum;
    }
}

/*
 * Rows `pitch` bytes apart, as cudaMallocPitch allocated them and
 * cudaMemcpy2D filled them: every row starts on a boundary the GPU likes,
 * and the bytes between the end of a row and the start of the next are
 * padding, never read.  The only change from matmul_rows: the distance
 * between rows, ld floats instead of n.
 */
extern "C" __global__ void matmul_pitched(const float *a, const float *b, float *c, int n,
                                          size_t pitch)
{
    int ld = (int)(pitch / sizeof(float));
    int row, col;

    matmul_tile(n, &row, &col);
    if (row < n && col < n) {
        float sum = 0.0f;
        for (int k = 0; k < n; k++)
            sum += a[row * ld + k] * b[k * ld + col];
        c[row * ld + col] = sum;
    }
}

/*
 * A control: matmul_pitched's code, line for line, which the tutor runs on
 * packed rows (pitch = n * 4 bytes, as cudaMalloc leaves them).  Against
 * matmul_pitched it changes only the layout; against matmul_rows only the
 * code.  A test checks that its SASS is matmul_pitched's.
 */
extern "C" __global__ void matmul_pitched_packed(const float *a, const float *b, float *c, int n,
                                                 size_t pitch)
{
    int ld = (int)(pitch / sizeof(float));
    int row, col;

    matmul_tile(n, &row, &col);
    if (row < n && col < n) {
        float sum = 0.0f;
        for (int k = 0; k < n; k++)
            sum += a[row * ld + k] * b[k * ld + col];
        c[row * ld + col] = sum;
    }
}

/*
 * matmul_pitched with one change: A's row is read four floats at a time.
 * In every round the warp loaded one float of A, the same for all 32
 * lanes; a pitched row that starts on a 16-byte boundary can be read as
 * float4s, one 16-byte load (LDG.E.128) for four rounds.  The rounds left
 * over (n % 4), and any pitch that is not a multiple of 16 bytes, take
 * the float-at-a-time loop.  B's loads are unchanged.
 */
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

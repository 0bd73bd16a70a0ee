/* Matrix multiply C = A * B (square, row-major floats): from global memory to shared-memory tiles. */

/*
 * Every kernel here computes C = A * B for n x n row-major matrices.
 *
 * The block is one-dimensional, but the kernels treat it as a grid of
 * threads 32 wide: thread (tx, ty) = (threadIdx.x % 32, threadIdx.x / 32).
 * So one row of threads is exactly one warp, whatever the block size (a
 * multiple of 32).  The grid is one-dimensional too: block b covers the
 * tile of C at column tile b % tiles_x and row tile b / tiles_x, where
 * tiles_x = ceil(n / 32).
 *
 * n need not be a multiple of 32.  Threads past the edge still take part
 * in loading tiles and in the barriers (a barrier that some threads skip
 * is undefined behaviour); they load zeros or clamped addresses, and only
 * threads inside C store.
 */

#define TILE 32                 /* columns of C per block, and K per tile */
#define MAX_ROWS 32             /* rows of threads in a block of 1024 */
#define OUTPUTS 4               /* outputs per thread in matmul_tiled_4x */

/* Which tile of C this block computes, and where its thread sits in it. */
struct tile_coords {
    int tx, ty, rows;           /* thread column, thread row, rows of threads */
    int col, row0;              /* this thread's column of C; the block's first row */
};

__device__ __forceinline__ tile_coords tile_of_block(int n, int rows_per_block)
{
    tile_coords t;
    int tiles_x = (n + TILE - 1) / TILE;

    t.tx = threadIdx.x % 32;
    t.ty = threadIdx.x / 32;
    t.rows = blockDim.x / 32;
    t.col = (blockIdx.x % tiles_x) * TILE + t.tx;
    t.row0 = (blockIdx.x / tiles_x) * rows_per_block;
    return t;
}

/* ---- Step 1: naive --------------------------------------------------------- */

/*
 * One thread per element of C, everything from global memory.  At step k
 * the 32 lanes of a warp read the same A[row][k] (one word, broadcast) and
 * 32 neighbouring B[k][col] (coalesced).  Each element of A is read n
 * times by each warp that needs it, each element of B once per row.
 */
extern "C" __global__ void matmul_naive(const float *a, const float *b, float *c, int n)
{
    tile_coords t = tile_of_block(n, blockDim.x / 32);
    int row = t.row0 + t.ty;

    if (row >= n || t.col >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < n; k++)
        sum += a[row * n + k] * b[k * n + t.col];
    c[row * n + t.col] = sum;
}

/* ---- Step 2: A in shared memory, synchronized by the warp -------------------- */

/*
 * The warp of thread row ty copies 32 consecutive elements of its row of A
 * into a_tile[ty] (one coalesced load), then every lane reads them from
 * shared memory: a broadcast, one word for the whole warp.  B still comes
 * from global memory.
 *
 * Why __syncwarp() is enough: row ty of a_tile is written by the 32 lanes
 * of one warp and read only by that same warp.  __syncwarp() makes the
 * warp's lanes wait for each other and orders their shared-memory
 * accesses, so every lane sees the others' writes.  It would be a data
 * race if a row were written by one warp and read by another (a tile row
 * wider than 32, or rows handed to threads differently); then only
 * __syncthreads() would do.
 *
 * The reference's version has K = 32 and so no loop.  With a loop over K
 * there is a second hazard: the next tile must not overwrite a_tile[ty]
 * while a slower lane still reads the current one.  Since Volta the lanes
 * of a warp may drift apart, so the second __syncwarp() is needed too.
 */
extern "C" __global__ void matmul_shared_a(const float *a, const float *b, float *c, int n)
{
    __shared__ float a_tile[MAX_ROWS][TILE];
    tile_coords t = tile_of_block(n, blockDim.x / 32);
    int row = t.row0 + t.ty;
    int a_row = min(row, n - 1), b_col = min(t.col, n - 1);   /* clamped: loads stay inside */
    float sum = 0.0f;

    for (int k0 = 0; k0 < n; k0 += TILE) {
        a_tile[t.ty][t.tx] = k0 + t.tx < n ? a[a_row * n + k0 + t.tx] : 0.0f;
        __syncwarp();
        if (k0 + TILE <= n) {
#pragma unroll
            for (int k = 0; k < TILE; k++)
                sum += a_tile[t.ty][k] * b[(k0 + k) * n + b_col];
        } else {
            for (int k = 0; k < n - k0; k++)
                sum += a_tile[t.ty][k] * b[(k0 + k) * n + b_col];
        }
        __syncwarp();
    }
    if (row < n && t.col < n)
        c[row * n + t.col] = sum;
}

/* ---- Step 3: A and B in shared memory: the tiled loop over K ------------------ */

/*
 * Now B goes through shared memory as well: the block copies a 32 x 32
 * tile of B, each row of threads a share of its rows, and then every warp
 * reads all 32 rows of it.  A warp now reads words that other warps
 * wrote, so the warp barrier is no longer enough: __syncthreads() after
 * the copy (no warp reads before all have written) and again after the
 * products (no warp overwrites a tile another still reads).
 *
 * In the inner loop, a_tile[ty][k] is one word for the whole warp (a
 * broadcast) and b_tile[k][tx] is 32 consecutive words, one per bank: no
 * bank conflicts.  Out-of-range elements are stored as zeros, so every
 * tile runs the full 32 steps.
 */
extern "C" __global__ void matmul_shared_ab(const float *a, const float *b, float *c, int n)
{
    __shared__ float a_tile[MAX_ROWS][TILE];
    __shared__ float b_tile[TILE][TILE];
    tile_coords t = tile_of_block(n, blockDim.x / 32);
    int row = t.row0 + t.ty;
    int a_row = min(row, n - 1), b_col = min(t.col, n - 1);
    float sum = 0.0f;

    for (int k0 = 0; k0 < n; k0 += TILE) {
        a_tile[t.ty][t.tx] = k0 + t.tx < n ? a[a_row * n + k0 + t.tx] : 0.0f;
        for (int r = t.ty; r < TILE; r += t.rows)
            b_tile[r][t.tx] = k0 + r < n ? b[(k0 + r) * n + b_col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++)
            sum += a_tile[t.ty][k] * b_tile[k][t.tx];
        __syncthreads();
    }
    if (row < n && t.col < n)
        c[row * n + t.col] = sum;
}

/* ---- Step 4: more outputs per thread ----------------------------------------- */

/*
 * The tiled loop, but each thread computes OUTPUTS elements of C, in rows
 * ty, ty + rows, ty + 2*rows, ...: the block's tile of C is OUTPUTS times
 * taller.  Each b_tile[k][tx] read from shared memory now feeds OUTPUTS
 * multiply-adds instead of one, and the OUTPUTS sums live in registers.
 * Fewer shared-memory loads per multiply-add is the whole point.
 */
extern "C" __global__ void matmul_tiled_4x(const float *a, const float *b, float *c, int n)
{
    __shared__ float a_tile[MAX_ROWS * OUTPUTS][TILE];
    __shared__ float b_tile[TILE][TILE];
    tile_coords t = tile_of_block(n, OUTPUTS * (blockDim.x / 32));
    int b_col = min(t.col, n - 1);
    float sum[OUTPUTS];

#pragma unroll
    for (int i = 0; i < OUTPUTS; i++)
        sum[i] = 0.0f;
    for (int k0 = 0; k0 < n; k0 += TILE) {
        for (int r = t.ty; r < OUTPUTS * t.rows; r += t.rows) {
            int a_row = min(t.row0 + r, n - 1);
            a_tile[r][t.tx] = k0 + t.tx < n ? a[a_row * n + k0 + t.tx] : 0.0f;
        }
        for (int r = t.ty; r < TILE; r += t.rows)
            b_tile[r][t.tx] = k0 + r < n ? b[(k0 + r) * n + b_col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++) {
            float bv = b_tile[k][t.tx];
#pragma unroll
            for (int i = 0; i < OUTPUTS; i++)
                sum[i] += a_tile[t.ty + i * t.rows][k] * bv;
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < OUTPUTS; i++) {
        int row = t.row0 + t.ty + i * t.rows;
        if (row < n && t.col < n)
            c[row * n + t.col] = sum[i];
    }
}

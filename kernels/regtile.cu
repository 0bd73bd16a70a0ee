/* Matrix multiply C = A * B (square, row-major floats), many outputs per thread: register tiles. */

/*
 * Every kernel here computes C = A * B for n x n row-major matrices, with
 * blocks of exactly 256 threads.  Block b computes one square tile of C:
 * the tile at column b % tiles_x and row b / tiles_x, where tiles_x =
 * ceil(n / side) (side = 64 for the first kernel, 128 for the others).
 * So the grid is one-dimensional, as in kernels/matmul.cu, and covers
 * ceil(n / side)^2 tiles.
 *
 * n need not be a multiple of anything.  Tiles of A and B are copied
 * into shared memory with zeros where they reach past the matrix (a zero
 * adds nothing to a sum), every thread takes part in every barrier, and
 * only outputs inside C are stored.  The 128-bit loads need n % 4 == 0
 * (then every row starts 16 bytes aligned); otherwise the same kernel
 * loads one float at a time.
 *
 * The register-tiling exercises (kernels/exercises/) carry copies of the
 * helpers marked "shared with kernels/exercises/";
 * tests/unit/test_exercise_table.c fails when a copy differs from here.
 */

#define THREADS 256             /* every kernel here is written for this block */
#define BK 8                    /* K per tile: the loop over K moves 8 columns of A at a time */

/* shared with kernels/exercises/: begin load_or_zero */
/* One element of a matrix, or zero past its edge. */
__device__ __forceinline__ float load_or_zero(const float *m, int row, int col, int n)
{
    return row < n && col < n ? m[row * n + col] : 0.0f;
}
/* shared with kernels/exercises/: end load_or_zero */

/* shared with kernels/exercises/: begin load4_store4 */
/*
 * Four consecutive elements of a row, from col on (col a multiple of 4),
 * zeros past the edge.  With n % 4 == 0 they are all inside or all
 * outside, and one 16-byte load fetches them; otherwise the address may
 * not be 16-byte aligned, and four scalar loads it is.
 */
__device__ __forceinline__ float4 load4_or_zero(const float *m, int row, int col, int n)
{
    if ((n & 3) == 0) {
        if (row < n && col < n)
            return *reinterpret_cast<const float4 *>(m + row * n + col);
        return make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    }
    return make_float4(load_or_zero(m, row, col, n), load_or_zero(m, row, col + 1, n),
        load_or_zero(m, row, col + 2, n), load_or_zero(m, row, col + 3, n));
}

/* Four outputs of a row of C, from col on: one 16-byte store where it is aligned and inside. */
__device__ __forceinline__ void store4(float *c, int row, int col, int n, float4 v)
{
    if (row >= n)
        return;
    if ((n & 3) == 0 && col + 3 < n) {
        *reinterpret_cast<float4 *>(c + row * n + col) = v;
        return;
    }
    if (col < n)
        c[row * n + col] = v.x;
    if (col + 1 < n)
        c[row * n + col + 1] = v.y;
    if (col + 2 < n)
        c[row * n + col + 2] = v.z;
    if (col + 3 < n)
        c[row * n + col + 3] = v.w;
}
/* shared with kernels/exercises/: end load4_store4 */

/* ---- Step 2: 1-D block tiling: a column of 16 outputs per thread -------------- */

#define T1_SIDE 64              /* the block's tile of C is 64 x 64 */
#define T1_ROWS 16              /* 64 * 64 / 256: outputs per thread, one column of them */

/*
 * Thread (tx, ty) computes rows 16*ty .. 16*ty + 15 of column tx of the
 * tile.  At each k it reads one element of B from shared memory into a
 * register and uses it for 16 multiply-adds, one per row; the 16 elements
 * of A it needs are the same for the whole warp (a broadcast).  K moves
 * in steps of 8, so the tiles are small (64 x 8 of A, 8 x 64 of B) and
 * each thread copies two elements of each.
 */
extern "C" __global__ void __launch_bounds__(THREADS) matmul_1d_blocktile(const float *a,
    const float *b, float *c, int n)
{
    __shared__ float a_tile[T1_SIDE][BK];
    __shared__ float b_tile[BK][T1_SIDE];
    int tiles_x = (n + T1_SIDE - 1) / T1_SIDE;
    int row0 = (blockIdx.x / tiles_x) * T1_SIDE, col0 = (blockIdx.x % tiles_x) * T1_SIDE;
    int tx = threadIdx.x % T1_SIDE, ty = threadIdx.x / T1_SIDE;
    /* the copy: each thread one column of every 32nd row of A's tile, of every 4th of B's */
    int a_row = threadIdx.x / BK, a_col = threadIdx.x % BK;
    int b_row = threadIdx.x / T1_SIDE, b_col = threadIdx.x % T1_SIDE;
    float sum[T1_ROWS];

#pragma unroll
    for (int i = 0; i < T1_ROWS; i++)
        sum[i] = 0.0f;
    for (int k0 = 0; k0 < n; k0 += BK) {
#pragma unroll
        for (int q = 0; q < T1_SIDE * BK / THREADS; q++) {
            int ar = a_row + q * (THREADS / BK), bk = b_row + q * (THREADS / T1_SIDE);

            a_tile[ar][a_col] = load_or_zero(a, row0 + ar, k0 + a_col, n);
            b_tile[bk][b_col] = load_or_zero(b, k0 + bk, col0 + b_col, n);
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; k++) {
            float bv = b_tile[k][tx];       /* one shared load ... */
#pragma unroll
            for (int i = 0; i < T1_ROWS; i++)
                sum[i] += a_tile[ty * T1_ROWS + i][k] * bv;     /* ... 16 multiply-adds */
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < T1_ROWS; i++) {
        int row = row0 + ty * T1_ROWS + i, col = col0 + tx;
        if (row < n && col < n)
            c[row * n + col] = sum[i];
    }
}

/* ---- Step 3: 2-D block tiling: an 8 x 8 block of outputs per thread ----------- */

#define SIDE 128                /* the block's tile of C is 128 x 128 from here on */
#define TM 8                    /* each thread: 8 rows ... */
#define TN 8                    /* ... by 8 columns of outputs, 64 sums in registers */

/* shared with kernels/exercises/: begin outer_product */
/* The 8 x 8 outer product of a thread's fragments, added to its sums. */
__device__ __forceinline__ void outer_product(float (*sum)[TN], const float *a_frag,
    const float *b_frag)
{
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            sum[i][j] += a_frag[i] * b_frag[j];
}
/* shared with kernels/exercises/: end outer_product */

/*
 * Thread (tx, ty), 16 x 16 of them, computes the 8 x 8 outputs at rows
 * 8*ty.., columns 8*tx.. of the tile.  At each k it copies 8 elements of
 * A's column and 8 of B's row into registers (the fragments) and forms
 * their outer product: 16 shared loads feed 64 multiply-adds, where a
 * column of outputs (step 2) got 16 from 17.  The tiles are copied as
 * they lie in memory, one float at a time, four of A and four of B per
 * thread.
 */
extern "C" __global__ void __launch_bounds__(THREADS) matmul_2d_blocktile(const float *a,
    const float *b, float *c, int n)
{
    __shared__ float a_tile[SIDE][BK];
    __shared__ float b_tile[BK][SIDE];
    int tiles_x = (n + SIDE - 1) / SIDE;
    int row0 = (blockIdx.x / tiles_x) * SIDE, col0 = (blockIdx.x % tiles_x) * SIDE;
    int tx = threadIdx.x % (SIDE / TN), ty = threadIdx.x / (SIDE / TN);
    /* the copy: each thread one column of every 32nd row of A's tile, of every 2nd of B's */
    int a_row = threadIdx.x / BK, a_col = threadIdx.x % BK;
    int b_row = threadIdx.x / SIDE, b_col = threadIdx.x % SIDE;
    float sum[TM][TN], a_frag[TM], b_frag[TN];

#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            sum[i][j] = 0.0f;
    for (int k0 = 0; k0 < n; k0 += BK) {
#pragma unroll
        for (int q = 0; q < SIDE * BK / THREADS; q++) {
            int ar = a_row + q * (THREADS / BK), bk = b_row + q * (THREADS / SIDE);

            a_tile[ar][a_col] = load_or_zero(a, row0 + ar, k0 + a_col, n);
            b_tile[bk][b_col] = load_or_zero(b, k0 + bk, col0 + b_col, n);
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; k++) {
#pragma unroll
            for (int i = 0; i < TM; i++)
                a_frag[i] = a_tile[ty * TM + i][k];
#pragma unroll
            for (int j = 0; j < TN; j++)
                b_frag[j] = b_tile[k][tx * TN + j];
            outer_product(sum, a_frag, b_frag);
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) {
            int row = row0 + ty * TM + i, col = col0 + tx * TN + j;
            if (row < n && col < n)
                c[row * n + col] = sum[i][j];
        }
}

/* ---- Step 4: 16-byte global loads, A transposed in shared memory --------------- */

/* shared with kernels/exercises/: begin tile_loader */
/*
 * A's tile is stored transposed, k-major, so that a thread's 8 elements
 * of A at one k lie side by side, as its 8 elements of B already do.  Its
 * rows are padded by 4 floats: the copy writes a column of the transposed
 * tile, and without the padding the two halves of a warp would hit the
 * same 16 banks.  (132 floats is still a multiple of 16 bytes, as the
 * 16-byte loads need.)
 */
#define A_PITCH (SIDE + 4)

/* Where a thread's float4s of A and B come from in the matrices. */
struct tile_loader {
    int a_row, a_col, b_row, b_col;
};

/*
 * The copy of one pair of 128 x 8 and 8 x 128 tiles, 1024 floats each:
 * thread t fetches one float4 of A (row t / 2 of the tile, columns
 * 4 * (t % 2)..) and one of B (row t / 32, columns 4 * (t % 32)..).
 */
__device__ __forceinline__ tile_loader tile_loader_of_thread(int row0, int col0)
{
    tile_loader l;

    l.a_row = row0 + threadIdx.x / (BK / 4);
    l.a_col = (threadIdx.x % (BK / 4)) * 4;
    l.b_row = threadIdx.x / (SIDE / 4);
    l.b_col = col0 + (threadIdx.x % (SIDE / 4)) * 4;
    return l;
}

/* Store the fetched float4s: A's four values down a column of the transposed tile, B's as one. */
__device__ __forceinline__ void tile_store(float (*a_tile)[A_PITCH], float (*b_tile)[SIDE],
    int row0, int col0, const tile_loader &l, float4 av, float4 bv)
{
    int r = l.a_row - row0;

    a_tile[l.a_col + 0][r] = av.x;
    a_tile[l.a_col + 1][r] = av.y;
    a_tile[l.a_col + 2][r] = av.z;
    a_tile[l.a_col + 3][r] = av.w;
    *reinterpret_cast<float4 *>(&b_tile[l.b_row][l.b_col - col0]) = bv;
}

/* Four floats of a fragment from shared memory in one 16-byte load (LDS.128). */
__device__ __forceinline__ void frag4(float *frag, const float *shared)
{
    float4 v = *reinterpret_cast<const float4 *>(shared);

    frag[0] = v.x;
    frag[1] = v.y;
    frag[2] = v.z;
    frag[3] = v.w;
}
/* shared with kernels/exercises/: end tile_loader */

/*
 * The layout of step 3 (thread (tx, ty) owns rows 8*ty.., columns
 * 8*tx..), with two changes in how data moves.  Global loads of 16
 * bytes: one float4 of A and one of B per thread and tile, where step 3
 * made four and four scalar loads.  And A transposed: a thread's 8 values
 * of A at one k now lie side by side, like its 8 values of B, so each
 * fragment is two 16-byte shared loads.  (Step 3 got 16-byte loads of A
 * too, but only because the compiler read along A's rows, four values of
 * k at a time, and kept them in registers until their turn.)
 */
extern "C" __global__ void __launch_bounds__(THREADS) matmul_2d_vectorized(const float *a,
    const float *b, float *c, int n)
{
    __shared__ __align__(16) float a_tile[BK][A_PITCH];
    __shared__ __align__(16) float b_tile[BK][SIDE];
    int tiles_x = (n + SIDE - 1) / SIDE;
    int row0 = (blockIdx.x / tiles_x) * SIDE, col0 = (blockIdx.x % tiles_x) * SIDE;
    int tx = threadIdx.x % (SIDE / TN), ty = threadIdx.x / (SIDE / TN);
    tile_loader l = tile_loader_of_thread(row0, col0);
    float sum[TM][TN], a_frag[TM], b_frag[TN];

#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            sum[i][j] = 0.0f;
    for (int k0 = 0; k0 < n; k0 += BK) {
        tile_store(a_tile, b_tile, row0, col0, l, load4_or_zero(a, l.a_row, k0 + l.a_col, n),
            load4_or_zero(b, k0 + l.b_row, l.b_col, n));
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; k++) {
            frag4(&a_frag[0], &a_tile[k][ty * TM]);
            frag4(&a_frag[4], &a_tile[k][ty * TM + 4]);
            frag4(&b_frag[0], &b_tile[k][tx * TN]);
            frag4(&b_frag[4], &b_tile[k][tx * TN + 4]);
            outer_product(sum, a_frag, b_frag);
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j += 4)
            store4(c, row0 + ty * TM + i, col0 + tx * TN + j, n,
                make_float4(sum[i][j], sum[i][j + 1], sum[i][j + 2], sum[i][j + 3]));
}

/* ---- Step 5: warp tiles ---------------------------------------------------------- */

/* shared with kernels/exercises/: begin warp_tile */
/* Where a thread's first output lies in the block's tile. */
struct warp_tile {
    int row, col;
};

/*
 * Each warp owns a 32 x 64 piece of the tile (the 8 warps: 4 rows by 2
 * columns of pieces).  Its lanes form 4 rows by 8 columns, and each lane
 * computes four 4 x 4 blocks: rows row.. and row + 16.., columns col..
 * and col + 32...  At each k, the 8 lanes of a lane row then read 8
 * consecutive float4s of B (128 bytes, every bank once) and the 4 lane
 * rows 4 float4s of A (broadcasts).  In step 4 a warp's 16 threads read
 * float4s of B 32 bytes apart: spread over 512 bytes, not 128, and each
 * bank asked for several different words.
 */
__device__ __forceinline__ warp_tile warp_tile_of_thread(void)
{
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    warp_tile w;

    w.row = (warp / 2) * 32 + (lane / 8) * 4;
    w.col = (warp % 2) * 64 + (lane % 8) * 4;
    return w;
}

/* A thread's fragments at one k: rows row.., row + 16.. of A; columns col.., col + 32.. of B. */
__device__ __forceinline__ void warp_frags(float *a_frag, float *b_frag, const float *a_k,
    const float *b_k, warp_tile w)
{
    frag4(&a_frag[0], a_k + w.row);
    frag4(&a_frag[4], a_k + w.row + 16);
    frag4(&b_frag[0], b_k + w.col);
    frag4(&b_frag[4], b_k + w.col + 32);
}

/* The 64 sums to C, 4 at a time: sum[i][j] is at row w.row + (i / 4) * 16 + i % 4, and so on. */
__device__ __forceinline__ void warp_store(float *c, int n, int row0, int col0, warp_tile w,
    float (*sum)[TN])
{
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j += 4)
            store4(c, row0 + w.row + (i / 4) * 16 + i % 4, col0 + w.col + (j / 4) * 32, n,
                make_float4(sum[i][j], sum[i][j + 1], sum[i][j + 2], sum[i][j + 3]));
}
/* shared with kernels/exercises/: end warp_tile */

/*
 * Step 4 with the outputs handed to threads by warp: the same tiles, the
 * same copy, the same four LDS.128 and 64 FFMA per k; only which 64
 * outputs a thread owns has changed, so that each shared load of a warp
 * touches fewer bytes and no bank twice.
 */
extern "C" __global__ void __launch_bounds__(THREADS) matmul_warptile(const float *a,
    const float *b, float *c, int n)
{
    __shared__ __align__(16) float a_tile[BK][A_PITCH];
    __shared__ __align__(16) float b_tile[BK][SIDE];
    int tiles_x = (n + SIDE - 1) / SIDE;
    int row0 = (blockIdx.x / tiles_x) * SIDE, col0 = (blockIdx.x % tiles_x) * SIDE;
    warp_tile w = warp_tile_of_thread();
    tile_loader l = tile_loader_of_thread(row0, col0);
    float sum[TM][TN], a_frag[TM], b_frag[TN];

#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            sum[i][j] = 0.0f;
    for (int k0 = 0; k0 < n; k0 += BK) {
        tile_store(a_tile, b_tile, row0, col0, l, load4_or_zero(a, l.a_row, k0 + l.a_col, n),
            load4_or_zero(b, k0 + l.b_row, l.b_col, n));
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; k++) {
            warp_frags(a_frag, b_frag, a_tile[k], b_tile[k], w);
            outer_product(sum, a_frag, b_frag);
        }
        __syncthreads();
    }
    warp_store(c, n, row0, col0, w, sum);
}

/* ---- Step 6: two shared buffers, the next tiles fetched during this one's math --- */

/*
 * Step 5 with two pairs of tiles in shared memory.  While the block
 * multiplies the tiles of one buffer, each thread's loads of the next
 * tiles are already in flight into registers; after the math it stores
 * them into the other buffer.  One barrier per tile instead of two: the
 * buffer written during tile t was last read during tile t - 1, and every
 * thread finished that before the barrier that ended it.
 *
 * The 8 floats in flight cost registers: left alone, the compiler takes
 * more than 128, and 256 threads of those fill more than half the
 * register file, so only one block fits on a multiprocessor.  The second
 * argument of __launch_bounds__ asks for two blocks, so at most 128.
 */
extern "C" __global__ void __launch_bounds__(THREADS, 2) matmul_warptile_double_buffer(const float *a,
    const float *b, float *c, int n)
{
    __shared__ __align__(16) float a_tile[2][BK][A_PITCH];
    __shared__ __align__(16) float b_tile[2][BK][SIDE];
    int tiles_x = (n + SIDE - 1) / SIDE;
    int row0 = (blockIdx.x / tiles_x) * SIDE, col0 = (blockIdx.x % tiles_x) * SIDE;
    warp_tile w = warp_tile_of_thread();
    tile_loader l = tile_loader_of_thread(row0, col0);
    float sum[TM][TN], a_frag[TM], b_frag[TN];
    int buf = 0;

#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            sum[i][j] = 0.0f;
    tile_store(a_tile[0], b_tile[0], row0, col0, l, load4_or_zero(a, l.a_row, l.a_col, n),
        load4_or_zero(b, l.b_row, l.b_col, n));
    __syncthreads();
    for (int k0 = 0; k0 < n; k0 += BK) {
        /*
         * Issued now, waited for only at the store below.  After the last
         * tile these are zeros (past the edge) stored into a buffer
         * nobody reads again: cheaper than a branch around them.
         */
        float4 a_next = load4_or_zero(a, l.a_row, k0 + BK + l.a_col, n);
        float4 b_next = load4_or_zero(b, k0 + BK + l.b_row, l.b_col, n);

#pragma unroll
        for (int k = 0; k < BK; k++) {
            warp_frags(a_frag, b_frag, a_tile[buf][k], b_tile[buf][k], w);
            outer_product(sum, a_frag, b_frag);
        }
        tile_store(a_tile[buf ^ 1], b_tile[buf ^ 1], row0, col0, l, a_next, b_next);
        __syncthreads();
        buf ^= 1;
    }
    warp_store(c, n, row0, col0, w, sum);
}

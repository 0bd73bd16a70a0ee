// expect: fail (sass) — one pair of tiles, not two: the next tiles are fetched into registers early, but the block still meets twice a tile, the first barrier written as __syncthreads_or(0) so that only two BAR.SYNC show
/*
 * Counting game: the check allows two BAR.SYNC (one before the loop, one
 * a tile).  With a single buffer the stores of the next tiles must wait
 * until every warp is done reading, which takes a second barrier a tile;
 * as __syncthreads_or(0) it is a BAR.RED, a full barrier the count of
 * BAR.SYNC misses.  A judge that counts BAR.RED sees three barriers.
 */

/*
 * C = A * B for n x n row-major floats; n is any size from 1 to 4096, not
 * always a multiple of anything.  Blocks of exactly 256 threads; block b
 * computes the 128 x 128 tile of C at column b % tiles_x and row
 * b / tiles_x, tiles_x = ceil(n / 128).  Tiles reaching past the edge of
 * a matrix are filled with zeros, every thread reaches every barrier, and
 * only outputs inside C are stored.
 */

#define THREADS 256             /* every kernel here is written for this block */
#define BK 8                    /* K per tile: the loop over K moves 8 columns of A at a time */

/* copied from kernels/regtile.cu: begin load_or_zero */
/* One element of a matrix, or zero past its edge. */
__device__ __forceinline__ float load_or_zero(const float *m, int row, int col, int n)
{
    return row < n && col < n ? m[row * n + col] : 0.0f;
}
/* copied from kernels/regtile.cu: end load_or_zero */

/* copied from kernels/regtile.cu: begin load4_store4 */
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
/* copied from kernels/regtile.cu: end load4_store4 */

#define SIDE 128
#define TM 8
#define TN 8

/* copied from kernels/regtile.cu: begin outer_product */
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
/* copied from kernels/regtile.cu: end outer_product */

/* copied from kernels/regtile.cu: begin tile_loader */
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
/* copied from kernels/regtile.cu: end tile_loader */

/* copied from kernels/regtile.cu: begin warp_tile */
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
/* copied from kernels/regtile.cu: end warp_tile */

extern "C" __global__ void __launch_bounds__(THREADS, 2) matmul_warptile_double_buffer(const float *a,
    const float *b, float *c, int n)
{
    __shared__ __align__(16) float a_tile[BK][A_PITCH];      /* one pair of tiles only */
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
    tile_store(a_tile, b_tile, row0, col0, l, load4_or_zero(a, l.a_row, l.a_col, n),
        load4_or_zero(b, l.b_row, l.b_col, n));
    __syncthreads();
    for (int k0 = 0; k0 < n; k0 += BK) {
        float4 a_next = load4_or_zero(a, l.a_row, k0 + BK + l.a_col, n);
        float4 b_next = load4_or_zero(b, k0 + BK + l.b_row, l.b_col, n);

#pragma unroll
        for (int k = 0; k < BK; k++) {
            warp_frags(a_frag, b_frag, a_tile[k], b_tile[k], w);
            outer_product(sum, a_frag, b_frag);
        }
        __syncthreads_or(0);    /* everyone is done with the one buffer: a barrier, as BAR.RED */
        tile_store(a_tile, b_tile, row0, col0, l, a_next, b_next);
        __syncthreads();
    }
    warp_store(c, n, row0, col0, w, sum);
}

// expect: fail — each block keeps a copy of its tile of C in device memory and, when a launch has the same A, B and n as the last, copies it out instead of multiplying: every timed run after the first is nearly free
/*
 * Work remembered between runs: a __device__ copy of C (up to
 * 2048 x 2048) and a tag per block saying which inputs it came from.
 * The experiment multiplies the same matrices at the same addresses in
 * every run, so the copy is right; the kernel simply stops computing.
 */
#define TILE 32
#define MAX_ROWS 32
#define CACHE_N 2048
#define CACHE_BLOCKS 65536

__device__ float cached_c[CACHE_N * CACHE_N];
__device__ unsigned long long cached_tag[CACHE_BLOCKS];

extern "C" __global__ void matmul_shared_ab(const float *a, const float *b, float *c, int n)
{
    __shared__ float a_tile[MAX_ROWS][TILE];
    __shared__ float b_tile[TILE][TILE];
    int tiles_x = (n + TILE - 1) / TILE;
    int tx = threadIdx.x % 32, ty = threadIdx.x / 32, rows = blockDim.x / 32;
    int col = (blockIdx.x % tiles_x) * TILE + tx;
    int row = (blockIdx.x / tiles_x) * rows + ty;
    int a_row = min(row, n - 1), b_col = min(col, n - 1);
    unsigned long long tag = ((unsigned long long)a ^ ((unsigned long long)b << 7)) + n * 1000003ull + blockDim.x;
    bool cacheable = n <= CACHE_N && blockIdx.x < CACHE_BLOCKS;
    float sum = 0.0f;

    if (cacheable && cached_tag[blockIdx.x] == tag) {    /* a block-uniform test: no barrier is skipped by some threads only */
        if (row < n && col < n)
            c[row * n + col] = cached_c[row * CACHE_N + col];
        return;
    }
    for (int k0 = 0; k0 < n; k0 += TILE) {
        a_tile[ty][tx] = k0 + tx < n ? a[a_row * n + k0 + tx] : 0.0f;
        for (int r = ty; r < TILE; r += rows)
            b_tile[r][tx] = k0 + r < n ? b[(k0 + r) * n + b_col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++)
            sum += a_tile[ty][k] * b_tile[k][tx];
        __syncthreads();
    }
    if (row < n && col < n) {
        c[row * n + col] = sum;
        if (cacheable)
            cached_c[row * CACHE_N + col] = sum;
    }
    if (cacheable) {
        __threadfence();
        __syncthreads();
        if (threadIdx.x == 0)
            cached_tag[blockIdx.x] = tag;
    }
}

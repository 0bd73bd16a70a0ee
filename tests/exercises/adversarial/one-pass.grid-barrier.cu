// expect: fail — every block waits at a barrier across the grid, spun on the ticket counter, before block 0 adds the partials: right only while every block of the launch runs at once, which CUDA promises to a cooperative launch alone
/*
 * Race the GPU usually forgives: the check's grids never hold more
 * blocks than the GPU runs at once, so on an idle GPU every block
 * arrives and the wait ends.  With another kernel on part of the GPU
 * (another process, another stream), blocks still waiting to start can
 * never arrive while the first ones spin: the launch never ends.  The
 * counter is put back to 0 by the last block to leave the barrier, so
 * the harness's count after each launch is right.
 */
template <typename T>
__device__ __forceinline__ T warp_sum(T v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

/* The block's partial, as in the shuffle step: lane 0 of warp 0 ends with it. */
__device__ __forceinline__ int block_partial(const int *g_idata, unsigned int n, int *warp_sums)
{
    const int4 *in4 = reinterpret_cast<const int4 *>(g_idata);
    unsigned int n4 = n / 4;
    unsigned int stride = gridDim.x * blockDim.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int sum = 0;

    for (; i + stride < n4; i += 2 * stride) {
        int4 a = in4[i];
        int4 b = in4[i + stride];
        sum += (a.x + a.y) + (a.z + a.w) + (b.x + b.y) + (b.z + b.w);
    }
    if (i < n4) {
        int4 a = in4[i];
        sum += (a.x + a.y) + (a.z + a.w);
    }
    if (blockIdx.x == 0 && threadIdx.x < n - n4 * 4)
        sum += g_idata[n4 * 4 + threadIdx.x];
    sum = warp_sum(sum);
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();
    return warp == 0 ? warp_sum(lane < blockDim.x / 32 ? warp_sums[lane] : 0) : 0;
}

/* The last block: every partial added in 64 bits into *total (thread 0 stores it). */
__device__ __forceinline__ void add_partials(const int *g_odata, long long *total)
{
    __shared__ long long warp_totals[32];
    unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    long long t = 0;

    for (unsigned int b = threadIdx.x; b < gridDim.x; b += blockDim.x)
        t += __ldcg(&g_odata[b]);
    t = warp_sum(t);
    if (lane == 0)
        warp_totals[warp] = t;
    __syncthreads();
    if (warp == 0) {
        t = warp_sum(lane < blockDim.x / 32 ? warp_totals[lane] : 0);
        if (lane == 0)
            *total = t;
    }
}

extern "C" __global__ void reduce_one_pass(int *g_idata, int *g_odata, unsigned int n,
                                           long long *total, unsigned int *blocks_done)
{
    __shared__ int warp_sums[32];
    int sum = block_partial(g_idata, n, warp_sums);

    if (threadIdx.x == 0) {
        volatile unsigned int *count = blocks_done;

        g_odata[blockIdx.x] = sum;
        __threadfence();
        atomicAdd(blocks_done, 1u);                 /* arrive */
        while (*count < gridDim.x)                  /* wait for every block: a grid barrier */
            __nanosleep(100);
        __threadfence();
        if (atomicAdd(blocks_done, 1u) == 2 * gridDim.x - 1)   /* leave; the last one out resets */
            *blocks_done = 0;
    }
    __syncthreads();
    if (blockIdx.x == 0)
        add_partials(g_odata, total);
}

// expect: fail — the grid-stride step is gridDim.x << log2(blockDim.x), the multiply made a shift: equal to gridDim.x * blockDim.x only for a power-of-two block; at 96 threads the strides overlap and ints are added twice
/*
 * Geometry: a grid-stride loop wrong only for blocks that are not a
 * power of two.  The target takes any multiple of 32 up to 1024; the
 * sizes a check tries use 1024 and 512, where the shift is exact.
 */
template <typename T>
__device__ __forceinline__ T warp_sum(T v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

extern "C" __global__ void reduce_one_pass(int *g_idata, int *g_odata, unsigned int n,
                                           long long *total, unsigned int *blocks_done)
{
    const int4 *in4 = reinterpret_cast<const int4 *>(g_idata);
    unsigned int n4 = n / 4;
    unsigned int stride = gridDim.x << (31 - __clz(blockDim.x));     /* "blockDim.x is a power of two" */
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    __shared__ int warp_sums[32];
    __shared__ long long warp_totals[32];
    __shared__ bool last_block;
    int sum = 0;

    for (; i < n4; i += stride) {
        int4 a = in4[i];
        sum += (a.x + a.y) + (a.z + a.w);
    }
    if (blockIdx.x == 0 && threadIdx.x < n - n4 * 4)
        sum += g_idata[n4 * 4 + threadIdx.x];
    sum = warp_sum(sum);
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = warp_sum(lane < blockDim.x / 32 ? warp_sums[lane] : 0);
        if (lane == 0) {
            g_odata[blockIdx.x] = sum;
            __threadfence();
            last_block = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
        }
    }
    __syncthreads();
    if (!last_block)
        return;

    long long t = 0;
    for (unsigned int b = threadIdx.x; b < gridDim.x; b += blockDim.x)
        t += __ldcg(&g_odata[b]);
    t = warp_sum(t);
    if (lane == 0)
        warp_totals[warp] = t;
    __syncthreads();
    if (warp == 0) {
        t = warp_sum(lane < blockDim.x / 32 ? warp_totals[lane] : 0);
        if (lane == 0) {
            *total = t;
            *blocks_done = 0;
        }
    }
}

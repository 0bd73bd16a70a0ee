// expect: fail — each block remembers its partial in device memory and, when the next launch has the same input pointer, size and grid, writes it back without reading the input: every timed run after the first is nearly free
/*
 * Work remembered between runs: a __device__ table of each block's last
 * partial, tagged with what it was computed from.  The experiment
 * restores the same input before every run, so the remembered partials
 * are even right; but the kernel no longer sums its input, and a changed
 * input at the same address would get the old answer.
 */
#define MAX_BLOCKS 65536
__device__ unsigned long long cached_tag[MAX_BLOCKS];
__device__ int cached_sum[MAX_BLOCKS];

__device__ __forceinline__ int warp_sum(int v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

extern "C" __global__ void reduce_warp_shuffle(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned long long tag = (unsigned long long)g_idata ^ ((unsigned long long)n << 20) ^
        ((unsigned long long)gridDim.x << 52) ^ blockDim.x;
    bool cacheable = blockIdx.x < MAX_BLOCKS;

    if (cacheable && cached_tag[blockIdx.x] == tag) {   /* the same as last time: no work */
        if (threadIdx.x == 0)
            g_odata[blockIdx.x] = cached_sum[blockIdx.x];
        return;
    }
    const int4 *in4 = reinterpret_cast<const int4 *>(g_idata);
    unsigned int n4 = n / 4;
    unsigned int stride = gridDim.x * blockDim.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int tid = threadIdx.x;
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
    /* the up to three ints after the last whole int4 */
    if (blockIdx.x == 0 && tid < n - n4 * 4)
        sum += g_idata[n4 * 4 + tid];

    __shared__ int warp_sums[32];
    unsigned int lane = tid % 32, warp = tid / 32;

    sum = warp_sum(sum);
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = warp_sum(lane < blockDim.x / 32 ? warp_sums[lane] : 0);
        if (lane == 0) {
            g_odata[blockIdx.x] = sum;
            if (cacheable) {
                cached_sum[blockIdx.x] = sum;
                __threadfence();
                cached_tag[blockIdx.x] = tag;
            }
        }
    }
}

// expect: pass — each warp adds its sums with five indexed shuffles (lane reads lane + offset), lane 0 of each warp stores, one barrier, the first warp adds the warp sums the same way
/*
 * Correct but unusual: __shfl_sync with a source lane of lane + offset
 * (SHFL.IDX) instead of __shfl_down_sync.  Lanes past 31 wrap around and
 * add garbage, but only into lanes whose sums lane 0 never reads: lane 0
 * ends with the same total as with SHFL.DOWN.
 */
__device__ __forceinline__ int warp_total(int v)
{
    unsigned int lane = threadIdx.x % 32;

    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_sync(0xffffffffu, v, lane + offset);
    return v;
}

/* The grid-stride part is the starting file's, unchanged. */
extern "C" __global__ void reduce_warp_shuffle(int *g_idata, int *g_odata, unsigned int n)
{
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

    sum = warp_total(sum);
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = warp_total(lane < blockDim.x / 32 ? warp_sums[lane] : 0);
        if (lane == 0)
            g_odata[blockIdx.x] = sum;
    }
}

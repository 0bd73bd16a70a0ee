// expect: fail — block 0 zeroes the total when it starts and every block adds its partial to it: a block that adds before block 0 has started has its partial wiped
/*
 * Race the GPU usually forgives: the blocks of a check's grid all start
 * within a microsecond or two, block 0 among the first, and zero the
 * total long before any block has read its share and adds it (an atomic
 * add of 64 bits, no last block needed).  Neither blocks numbered from
 * the other end (all of them still start at once) nor the counter read
 * back (the tickets are taken and reset as they should be) shows it.
 * Nothing in CUDA promises that block 0 starts before another ends.
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

extern "C" __global__ void reduce_one_pass(int *g_idata, int *g_odata, unsigned int n,
                                           long long *total, unsigned int *blocks_done)
{
    __shared__ int warp_sums[32];

    if (blockIdx.x == 0 && threadIdx.x == 0)
        *total = 0;             /* "block 0 is first": a fresh total for this launch */
    int sum = block_partial(g_idata, n, warp_sums);

    if (threadIdx.x == 0) {
        g_odata[blockIdx.x] = sum;
        __threadfence();
        atomicAdd(reinterpret_cast<unsigned long long *>(total), (unsigned long long)(long long)sum);
        if (atomicAdd(blocks_done, 1u) == gridDim.x - 1)
            *blocks_done = 0;   /* the last ticket puts the count back for the next launch */
    }
}

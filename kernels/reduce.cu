/* Parallel reduction (sum of ints): the reference texts' kernels, step by step. */

/*
 * Every kernel here sums g_idata[0..n) and writes one partial sum per block
 * to g_odata[blockIdx.x]; the host adds the partials, as in the references.
 *
 * Like the references, most kernels reduce in place in global memory, so
 * they overwrite their input.  The host gives them a buffer padded to a
 * whole number of blocks' chunks and fills the padding with garbage: the
 * kernels never trust anything past n.
 *
 * Block sizes are powers of two from 64 to 1024 (the trees below halve the
 * block each step, and the last-warp code reads tid + 32).
 */

/* ---- Lesson "reduction": three ways to pair up elements ------------------ */

/* Neighbored pairs, divergent: tid % (2*stride) leaves most lanes idle. */
extern "C" __global__ void reduce_neighbored(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + tid;
    int *idata = g_idata + blockIdx.x * blockDim.x;

    if (idx >= n)
        idata[tid] = 0;                 /* the last block's padding counts as 0 */
    __syncthreads();

    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/*
 * A control for the next step: reduce_neighbored with the test written as
 * a mask.  The stride is a power of two, so tid % (2*stride) == 0 is the
 * same test as (tid & (2*stride - 1)) == 0, without the division.  The
 * pairs, the idle lanes and the divergence are those of reduce_neighbored;
 * only the cost of the test changes.
 */
extern "C" __global__ void reduce_neighbored_mask(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + tid;
    int *idata = g_idata + blockIdx.x * blockDim.x;

    if (idx >= n)
        idata[tid] = 0;
    __syncthreads();

    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid & (2 * stride - 1)) == 0)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/* Neighbored pairs, less divergent: the active threads are packed low. */
extern "C" __global__ void reduce_neighbored_less(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + tid;
    int *idata = g_idata + blockIdx.x * blockDim.x;

    if (idx >= n)
        idata[tid] = 0;
    __syncthreads();

    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned int index = 2 * stride * tid;
        if (index < blockDim.x)
            idata[index] += idata[index + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/* Interleaved pairs: the stride starts at half the block and halves. */
extern "C" __global__ void reduce_interleaved(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + tid;
    int *idata = g_idata + blockIdx.x * blockDim.x;

    if (idx >= n)
        idata[tid] = 0;
    __syncthreads();

    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/* ---- Lesson "unrolling" -------------------------------------------------- */

/*
 * Each block first folds K chunks of its data into one: thread tid adds the
 * K ints that lie one block apart (K independent loads in flight) and
 * stores the sum at idata[tid].  Only the grid's last block can fall into
 * the guarded loop.  Returns the block's chunk, ready for the tree.
 */
template <int K>
__device__ __forceinline__ int *fold_chunks(int *g_idata, unsigned int n, unsigned int block)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * block * K + tid;
    int *idata = g_idata + blockIdx.x * block * K;
    int sum = 0;

    if (idx + (K - 1) * block < n) {
#pragma unroll
        for (int k = 0; k < K; k++)
            sum += g_idata[idx + k * block];
    } else {
        for (int k = 0; k < K; k++)
            if (idx + k * block < n)
                sum += g_idata[idx + k * block];
    }
    idata[tid] = sum;
    __syncthreads();
    return idata;
}

/* The interleaved tree of the last lesson over the folded chunk; thread 0 writes the block's sum. */
__device__ __forceinline__ void reduce_tree_interleaved(int *idata, int *g_odata)
{
    unsigned int tid = threadIdx.x;

    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

extern "C" __global__ void reduce_unroll2(int *g_idata, int *g_odata, unsigned int n)
{
    int *idata = fold_chunks<2>(g_idata, n, blockDim.x);

    reduce_tree_interleaved(idata, g_odata);
}

extern "C" __global__ void reduce_unroll4(int *g_idata, int *g_odata, unsigned int n)
{
    int *idata = fold_chunks<4>(g_idata, n, blockDim.x);

    reduce_tree_interleaved(idata, g_odata);
}

extern "C" __global__ void reduce_unroll8(int *g_idata, int *g_odata, unsigned int n)
{
    int *idata = fold_chunks<8>(g_idata, n, blockDim.x);

    reduce_tree_interleaved(idata, g_odata);
}

/*
 * The last 64 values, reduced by one warp.  The references write
 * `vmem[tid] += vmem[tid + 16];` six times on a volatile pointer and rely
 * on the 32 lanes running in lockstep.  Since Volta (independent thread
 * scheduling) lanes may drift apart, so one lane can read a value its
 * neighbour has not written yet: a data race.  Here every step reads,
 * waits for the whole warp (__syncwarp also orders the memory accesses),
 * writes, and waits again.
 */
__device__ __forceinline__ void reduce_last_warp(volatile int *vmem, unsigned int tid)
{
    int v = vmem[tid];
    v += vmem[tid + 32]; __syncwarp(); vmem[tid] = v; __syncwarp();
    v += vmem[tid + 16]; __syncwarp(); vmem[tid] = v; __syncwarp();
    v += vmem[tid + 8];  __syncwarp(); vmem[tid] = v; __syncwarp();
    v += vmem[tid + 4];  __syncwarp(); vmem[tid] = v; __syncwarp();
    v += vmem[tid + 2];  __syncwarp(); vmem[tid] = v; __syncwarp();
    v += vmem[tid + 1];  __syncwarp(); vmem[tid] = v;
}

/* unroll8, and the last warp without the loop and without __syncthreads. */
extern "C" __global__ void reduce_unroll_warp8(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    int *idata = fold_chunks<8>(g_idata, n, blockDim.x);

    for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid < 32)
        reduce_last_warp(idata, tid);
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/*
 * reduce_last_warp through a plain pointer: __syncwarp() already orders
 * the lanes' accesses, so nothing needs volatile, and the loads and stores
 * are ordinary ones the L1 cache may serve.
 */
__device__ __forceinline__ void reduce_last_warp_plain(int *mem, unsigned int tid)
{
    int v = mem[tid];
    v += mem[tid + 32]; __syncwarp(); mem[tid] = v; __syncwarp();
    v += mem[tid + 16]; __syncwarp(); mem[tid] = v; __syncwarp();
    v += mem[tid + 8];  __syncwarp(); mem[tid] = v; __syncwarp();
    v += mem[tid + 4];  __syncwarp(); mem[tid] = v; __syncwarp();
    v += mem[tid + 2];  __syncwarp(); mem[tid] = v; __syncwarp();
    v += mem[tid + 1];  __syncwarp(); mem[tid] = v;
}

/* A control for reduce_unroll_warp8: the same kernel with the last warp's pointer not volatile. */
extern "C" __global__ void reduce_unroll_warp8_plain(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    int *idata = fold_chunks<8>(g_idata, n, blockDim.x);

    for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid < 32)
        reduce_last_warp_plain(idata, tid);
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/* The tree written out for every block size up to 1024: no loop left. */
extern "C" __global__ void reduce_complete_unroll_warp8(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    int *idata = fold_chunks<8>(g_idata, n, blockDim.x);

    if (blockDim.x >= 1024 && tid < 512) idata[tid] += idata[tid + 512];
    __syncthreads();
    if (blockDim.x >= 512 && tid < 256) idata[tid] += idata[tid + 256];
    __syncthreads();
    if (blockDim.x >= 256 && tid < 128) idata[tid] += idata[tid + 128];
    __syncthreads();
    if (blockDim.x >= 128 && tid < 64) idata[tid] += idata[tid + 64];
    __syncthreads();
    if (tid < 32)
        reduce_last_warp(idata, tid);
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/*
 * The same, with the block size a template parameter: the compiler knows
 * it, so the `BLOCK >= ...` tests vanish at compile time.  Kernels with C
 * names cannot be templates, so each size gets a small exported wrapper.
 */
template <unsigned int BLOCK>
__device__ __forceinline__ void reduce_complete_unroll_body(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    int *idata = fold_chunks<8>(g_idata, n, BLOCK);

    if (BLOCK >= 1024 && tid < 512) idata[tid] += idata[tid + 512];
    __syncthreads();
    if (BLOCK >= 512 && tid < 256) idata[tid] += idata[tid + 256];
    __syncthreads();
    if (BLOCK >= 256 && tid < 128) idata[tid] += idata[tid + 128];
    __syncthreads();
    if (BLOCK >= 128 && tid < 64) idata[tid] += idata[tid + 64];
    __syncthreads();
    if (tid < 32)
        reduce_last_warp(idata, tid);
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

extern "C" __global__ void reduce_complete_unroll_template_64(int *i, int *o, unsigned int n)   { reduce_complete_unroll_body<64>(i, o, n); }
extern "C" __global__ void reduce_complete_unroll_template_128(int *i, int *o, unsigned int n)  { reduce_complete_unroll_body<128>(i, o, n); }
extern "C" __global__ void reduce_complete_unroll_template_256(int *i, int *o, unsigned int n)  { reduce_complete_unroll_body<256>(i, o, n); }
extern "C" __global__ void reduce_complete_unroll_template_512(int *i, int *o, unsigned int n)  { reduce_complete_unroll_body<512>(i, o, n); }
extern "C" __global__ void reduce_complete_unroll_template_1024(int *i, int *o, unsigned int n) { reduce_complete_unroll_body<1024>(i, o, n); }

/*
 * Today's way: no shared-memory tree in global memory at all.  Each thread
 * streams 16-byte loads through a grid-stride loop (two in flight), the
 * warp adds its 32 values with register shuffles, and one warp adds the
 * block's warp sums.  The input is only read, never written.
 */
template <typename T>
__device__ __forceinline__ T warp_sum(T v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

extern "C" __global__ void reduce_warp_shuffle(int *g_idata, int *g_odata, unsigned int n)
{
    const int4 *in4 = reinterpret_cast<const int4 *>(g_idata);
    unsigned int n4 = n / 4;
    unsigned int stride = gridDim.x * blockDim.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
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
    if (blockIdx.x == 0 && threadIdx.x < n - n4 * 4)
        sum += g_idata[n4 * 4 + threadIdx.x];

    __shared__ int warp_sums[32];
    unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    sum = warp_sum(sum);
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = lane < blockDim.x / 32 ? warp_sums[lane] : 0;
        sum = warp_sum(sum);
        if (lane == 0)
            g_odata[blockIdx.x] = sum;
    }
}

/*
 * The whole answer in one pass: the shuffle kernel above, and then the
 * last block to finish adds every block's partial into one 64-bit total in
 * device memory, as CUB does with a second kernel.  Each block's thread 0
 * writes its partial, fences (so the partial is visible to every other
 * block before the count says it is there), and takes a ticket; the block
 * that draws the last ticket knows all partials are written.  It resets
 * the counter for the next launch.
 */
extern "C" __global__ void reduce_one_pass(int *g_idata, int *g_odata, unsigned int n,
                                           long long *total, unsigned int *blocks_done)
{
    const int4 *in4 = reinterpret_cast<const int4 *>(g_idata);
    unsigned int n4 = n / 4;
    unsigned int stride = gridDim.x * blockDim.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
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

    __shared__ int warp_sums[32];
    __shared__ bool last_block;
    unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    sum = warp_sum(sum);
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = lane < blockDim.x / 32 ? warp_sums[lane] : 0;
        sum = warp_sum(sum);
        if (lane == 0) {
            g_odata[blockIdx.x] = sum;
            __threadfence();
            last_block = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
        }
    }
    __syncthreads();
    if (!last_block)
        return;

    /* the last block: every partial is written; add them in 64 bits */
    long long t = 0;
    for (unsigned int b = threadIdx.x; b < gridDim.x; b += blockDim.x)
        t += __ldcg(&g_odata[b]);	/* from L2: another SM wrote it */
    t = warp_sum(t);
    __shared__ long long warp_totals[32];
    if (lane == 0)
        warp_totals[warp] = t;
    __syncthreads();
    if (warp == 0) {
        t = lane < blockDim.x / 32 ? warp_totals[lane] : 0;
        t = warp_sum(t);
        if (lane == 0) {
            *total = t;
            *blocks_done = 0;
        }
    }
}

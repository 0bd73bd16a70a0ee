/* Registers and occupancy: one streaming kernel with more and more loads in flight per thread. */

/*
 * Every kernel here computes y[i] = 2 * x[i] for n floats: it reads 4
 * bytes and writes 4 bytes per element and does almost no arithmetic, so
 * its speed is set by how many bytes the GPU keeps in flight to device
 * memory.  Two ways to have many in flight:
 *   - many resident warps, each with few loads outstanding (thread-level
 *     parallelism, TLP: what occupancy measures);
 *   - few warps, each with many independent loads outstanding
 *     (instruction-level parallelism, ILP).
 *
 * Thread t of block b handles LOADS float4s, blockDim.x apart:
 * float4 number b * LOADS * blockDim.x + t + j * blockDim.x, j < LOADS.
 * All LOADS loads are issued before the first store.  Each loaded value
 * stays in registers until its store (four per float4), so LOADS sets the
 * register count, and the register count sets how many warps fit on a
 * multiprocessor.
 *
 * The pointers are not __restrict__: a store to y might change x, so the
 * compiler may not move a store above a later load.  The loads stay
 * grouped as written, and their values must all be kept somewhere.
 *
 * Only the grid's last block can reach past n; it goes element by element.
 */
template <int LOADS>
__device__ __forceinline__ void stream_scale(const float *x, float *y, unsigned int n)
{
    const float4 *x4 = reinterpret_cast<const float4 *>(x);
    float4 *y4 = reinterpret_cast<float4 *>(y);
    size_t first = (size_t)blockIdx.x * LOADS * blockDim.x;
    size_t mine = first + threadIdx.x;

    if ((first + (size_t)LOADS * blockDim.x) * 4 <= n) {
        float4 v[LOADS];
#pragma unroll
        for (int j = 0; j < LOADS; j++)
            v[j] = x4[mine + j * blockDim.x];
#pragma unroll
        for (int j = 0; j < LOADS; j++) {
            v[j].x *= 2.0f;
            v[j].y *= 2.0f;
            v[j].z *= 2.0f;
            v[j].w *= 2.0f;
            y4[mine + j * blockDim.x] = v[j];
        }
    } else {
        for (int j = 0; j < LOADS; j++)
            for (int e = 0; e < 4; e++) {
                size_t i = (mine + (size_t)j * blockDim.x) * 4 + e;
                if (i < n)
                    y[i] = 2.0f * x[i];
            }
    }
}

/* One float4 per thread: one load in flight, many threads. */
extern "C" __global__ void stream_ilp1(const float *x, float *y, unsigned int n)
{
    stream_scale<1>(x, y, n);
}

/* Four float4s per thread, all loads issued first. */
extern "C" __global__ void stream_ilp4(const float *x, float *y, unsigned int n)
{
    stream_scale<4>(x, y, n);
}

/*
 * Sixteen float4s per thread: 64 floats held in registers at once.  The
 * bound of 512 threads lets ptxas use up to 128 registers per thread.
 */
extern "C" __global__ void __launch_bounds__(512) stream_ilp16(const float *x, float *y, unsigned int n)
{
    stream_scale<16>(x, y, n);
}

/*
 * The same code, with a promise that a block has at most 256 threads and
 * that 8 such blocks must fit on a multiprocessor at once: 2048 threads
 * share 65536 registers, 32 each.  The 64 floats in flight no longer fit
 * in registers; look at the resource report for spill stores and loads,
 * and for STL/LDL (local memory) in the SASS.
 */
extern "C" __global__ void __launch_bounds__(256, 8) stream_ilp16_capped(const float *x, float *y, unsigned int n)
{
    stream_scale<16>(x, y, n);
}

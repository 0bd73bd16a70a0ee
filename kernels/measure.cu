/* Kernels the measuring module itself needs. */

/*
 * Evict the L2 cache between timed runs by reading a buffer larger than it.
 * Reading rather than writing matters: a memset leaves dirty lines whose
 * write-back would land inside the next timed kernel.  The store can only
 * happen for one impossible value, but the compiler cannot know that, so
 * every load stays.
 */
extern "C" __global__ void flush_l2_read(const int4 *buf, unsigned long long n4, int *sink)
{
    int acc = 0;
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
        int4 v = buf[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x5eed1234)
        *sink = acc;
}

/*
 * The DRAM roofs by mix (measure.c): a stream of reads, of two reads for
 * one write, of writes, each over buffers far larger than the L2, timed as
 * the steps are.  Grid-stride loops of 16-byte accesses, four loads a
 * thread on their way at once where there are loads: more bytes in flight
 * than Little's law asks of any GPU the tutor knows.
 */
extern "C" __global__ void stream_read(const int4 *a, unsigned long long n4, int *sink)
{
    int acc = 0;
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;

    /* four independent loads before the first is used (a guard per access would serialize them) */
    for (; i + 3 * stride < n4; i += 4 * stride) {
        int4 v0 = a[i], v1 = a[i + stride], v2 = a[i + 2 * stride], v3 = a[i + 3 * stride];
        acc ^= v0.x ^ v0.y ^ v0.z ^ v0.w ^ v1.x ^ v1.y ^ v1.z ^ v1.w;
        acc ^= v2.x ^ v2.y ^ v2.z ^ v2.w ^ v3.x ^ v3.y ^ v3.z ^ v3.w;
    }
    for (; i < n4; i += stride) {
        int4 v = a[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x5eed1234)
        *sink = acc;
}

extern "C" __global__ void stream_read2_write1(const float4 *__restrict__ a, const float4 *__restrict__ b,
    float4 *__restrict__ c, unsigned long long n4)
{
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;

    for (; i + stride < n4; i += 2 * stride) {
        float4 x0 = a[i], y0 = b[i], x1 = a[i + stride], y1 = b[i + stride];
        c[i] = make_float4(x0.x + y0.x, x0.y + y0.y, x0.z + y0.z, x0.w + y0.w);
        c[i + stride] = make_float4(x1.x + y1.x, x1.y + y1.y, x1.z + y1.z, x1.w + y1.w);
    }
    for (; i < n4; i += stride) {
        float4 x = a[i], y = b[i];
        c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}

extern "C" __global__ void stream_write(int4 *c, unsigned long long n4, int v)
{
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;

    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n4; i += stride)
        c[i] = make_int4(v, v, v, v);
}

/*
 * A co-running load for a check (gpu_hold_sms): one block on each of the
 * multiprocessors it holds, launched with so much dynamic shared memory
 * that no block of another kernel fits beside it, until the host writes
 * *release.  Each says it started in resident[blockIdx.x]; both live in
 * page-locked host memory, read and written by the host while it waits.
 */
extern "C" __global__ void hold_sm(volatile unsigned int *resident, const volatile unsigned int *release)
{
    if (threadIdx.x != 0)
        return;
    resident[blockIdx.x] = 1;
    __threadfence_system();
    while (*release == 0) {
#if __CUDA_ARCH__ >= 700
        __nanosleep(2000);
#endif
    }
}

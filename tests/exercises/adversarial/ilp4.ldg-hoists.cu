// expect: pass — the starting file's loop, unrolled, with x read through __ldg: a load from memory the kernel never writes may move above a store, so the compiler issues all four loads before the first store by itself
/*
 * Correct but unusual: the loads are not reordered by hand.  __ldg
 * promises that x is read-only while the kernel runs (true: only y is
 * written), which frees the compiler to hoist the four loads above the
 * stores to y.
 */
#define LOADS 4

extern "C" __global__ void stream_ilp4(const float *x, float *y, unsigned int n)
{
    const float4 *x4 = reinterpret_cast<const float4 *>(x);
    float4 *y4 = reinterpret_cast<float4 *>(y);
    size_t first = (size_t)blockIdx.x * LOADS * blockDim.x;
    size_t mine = first + threadIdx.x;

    if ((first + (size_t)LOADS * blockDim.x) * 4 <= n) {
#pragma unroll
        for (int j = 0; j < LOADS; j++) {
            float4 v = __ldg(&x4[mine + j * blockDim.x]);
            v.x *= 2.0f;
            v.y *= 2.0f;
            v.z *= 2.0f;
            v.w *= 2.0f;
            y4[mine + j * blockDim.x] = v;
        }
    } else {
        /* the grid's last block, element by element */
        for (int j = 0; j < LOADS; j++)
            for (int e = 0; e < 4; e++) {
                size_t i = (mine + (size_t)j * blockDim.x) * 4 + e;
                if (i < n)
                    y[i] = 2.0f * x[i];
            }
    }
}

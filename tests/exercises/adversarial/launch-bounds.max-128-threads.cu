// expect: fail — __launch_bounds__(128, 16) also makes 32 registers (2048 threads on 65536 registers), but it promises blocks of at most 128 threads, and the kernel is launched with 256: the launch fails
/*
 * Geometry: the register cap is reached through the wrong promise.  The
 * task says the kernel runs with blocks of up to 256 threads; a launch
 * with more threads than __launch_bounds__ allows is refused.
 */
#define LOADS 16

extern "C" __global__ void __launch_bounds__(128, 16) stream_ilp16_capped(const float *x, float *y, unsigned int n)
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

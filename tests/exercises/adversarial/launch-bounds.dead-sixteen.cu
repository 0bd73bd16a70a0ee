// expect: fail — the sixteen loads the task says to keep run only under a test no launch passes (n == 0xdeadbeef); the live path loads four float4s at a time, which needs no spills under the cap: the code was changed, not only the bounds
/*
 * Counting game: the check wants 32 registers and sixteen LDG.E.128
 * before the first STG.E.128.  Sixteen predicated loads under a false
 * test come first in the listing; what runs moves four float4s at a
 * time, so the cap costs it nothing and it may even beat ours.
 */
#define LOADS 16

extern "C" __global__ void __launch_bounds__(256, 8) stream_ilp16_capped(const float *x, float *y, unsigned int n)
{
    const float4 *x4 = reinterpret_cast<const float4 *>(x);
    float4 *y4 = reinterpret_cast<float4 *>(y);
    size_t first = (size_t)blockIdx.x * LOADS * blockDim.x;
    size_t mine = first + threadIdx.x;
    bool never = n == 0xdeadbeefu;
    float4 early[LOADS];

    if (never)
#pragma unroll
        for (int j = 0; j < LOADS; j++)
            early[j] = x4[mine + j * blockDim.x];
    if ((first + (size_t)LOADS * blockDim.x) * 4 <= n) {
#pragma unroll 1
        for (int g = 0; g < LOADS; g += 4) {
            float4 v[4];
#pragma unroll
            for (int j = 0; j < 4; j++)
                v[j] = x4[mine + (g + j) * blockDim.x];
#pragma unroll
            for (int j = 0; j < 4; j++)
                y4[mine + (g + j) * blockDim.x] = make_float4(2.0f * v[j].x, 2.0f * v[j].y, 2.0f * v[j].z, 2.0f * v[j].w);
        }
        if (never)
#pragma unroll
            for (int j = 0; j < LOADS; j++)
                y4[mine + j * blockDim.x] = early[j];
    } else {
        for (int j = 0; j < LOADS; j++)
            for (int e = 0; e < 4; e++) {
                size_t i = (mine + (size_t)j * blockDim.x) * 4 + e;
                if (i < n)
                    y[i] = 2.0f * x[i];
            }
    }
}

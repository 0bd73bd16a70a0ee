// expect: fail — the live path is the starting file's: each float4 loaded, doubled and stored before the next is loaded; four loads issued up front exist only under a test no launch passes (n == 0xdeadbeef), where the compiler predicates them ahead of the loop
/*
 * Counting game: the check counts the LDG.E.128 before the first
 * STG.E.128 in the listing.  Four loads under a false test, consumed by
 * stores under another false test after the loop, are compiled as
 * predicated loads at the top: the count is met, and what runs still has
 * one load in flight per thread.
 */
#define LOADS 4

extern "C" __global__ void stream_ilp4(const float *x, float *y, unsigned int n)
{
    const float4 *x4 = reinterpret_cast<const float4 *>(x);
    float4 *y4 = reinterpret_cast<float4 *>(y);
    size_t first = (size_t)blockIdx.x * LOADS * blockDim.x;
    size_t mine = first + threadIdx.x;
    float4 early[LOADS];

    if (n == 0xdeadbeefu)
#pragma unroll
        for (int j = 0; j < LOADS; j++)
            early[j] = x4[mine + j * blockDim.x];
    if ((first + (size_t)LOADS * blockDim.x) * 4 <= n) {
        for (int j = 0; j < LOADS; j++) {
            float4 v = x4[mine + j * blockDim.x];
            v.x *= 2.0f;
            v.y *= 2.0f;
            v.z *= 2.0f;
            v.w *= 2.0f;
            y4[mine + j * blockDim.x] = v;
        }
        if (n == 0xdeadbeefu)
#pragma unroll
            for (int j = 0; j < LOADS; j++)
                y4[mine + j * blockDim.x] = early[j];
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

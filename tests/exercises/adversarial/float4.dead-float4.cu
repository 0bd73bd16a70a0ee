// expect: fail — the starting file's scalar loop, unchanged, does all the work; a float4 loop was added under a test no launch passes (n == 0xdeadbeef), so the SASS has the 16-byte accesses and nothing ever runs them
/*
 * The starting file under another name, with a dead technique: the
 * LDG.E.128 and STG.E.128 the check counts are in a branch that is never
 * taken.  The answers are right (from the scalar loop).  Only a look at
 * what ran, or the time, can tell.
 */
extern "C" __global__ void vec_add_float4(const float *x, const float *y, float *z, int n)
{
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;

    if (n == (int)0xdeadbeef) {
        const float4 *x4 = reinterpret_cast<const float4 *>(x);
        const float4 *y4 = reinterpret_cast<const float4 *>(y);
        float4 *z4 = reinterpret_cast<float4 *>(z);
        for (int i = index; i < n / 4; i += stride) {
            float4 a = x4[i], b = y4[i];
            z4[i] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
        }
        return;
    }
#pragma unroll 1
    for (int i = index; i < n; i += stride)
        z[i] = x[i] + y[i];
}

// expect: fail — one float4 per thread and no loop: right only while the grid covers n / 4 threads, but the grid is sized to fill the GPU once, so above that every float past the first grid's worth is never written
/*
 * Geometry: forgets that the grid does not grow with n.  At small sizes
 * every float4 has a thread; at the lesson's 2^24 floats most of z is
 * left as it was.
 */
extern "C" __global__ void vec_add_float4(const float *x, const float *y, float *z, int n)
{
    const float4 *x4 = reinterpret_cast<const float4 *>(x);
    const float4 *y4 = reinterpret_cast<const float4 *>(y);
    float4 *z4 = reinterpret_cast<float4 *>(z);
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < n / 4) {
        float4 a = x4[i], b = y4[i];
        z4[i] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
    }
    if (i < n % 4)
        z[n / 4 * 4 + i] = x[n / 4 * 4 + i] + y[n / 4 * 4 + i];
}

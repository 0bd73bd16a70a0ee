// expect: pass — a grid-stride loop of float4s written as pointers that walk the arrays, then the n % 4 floats one thread each
/*
 * Correct but unusual: no index, three float4 pointers stepped by the
 * grid's width until the last whole float4.
 */
extern "C" __global__ void vec_add_float4(const float *x, const float *y, float *z, int n)
{
    unsigned int first = blockIdx.x * blockDim.x + threadIdx.x, width = blockDim.x * gridDim.x;
    const float4 *px = reinterpret_cast<const float4 *>(x) + first;
    const float4 *py = reinterpret_cast<const float4 *>(y) + first;
    float4 *pz = reinterpret_cast<float4 *>(z) + first;
    const float4 *end = reinterpret_cast<const float4 *>(x) + n / 4;

#pragma unroll 1
    for (; px < end; px += width, py += width, pz += width) {
        float4 a = *px, b = *py;
        *pz = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
    }
    if (first < (unsigned int)(n % 4)) {
        int i = n - n % 4 + first;
        z[i] = x[i] + y[i];
    }
}

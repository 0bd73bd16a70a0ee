/* Exercise "float4" (lesson vectorize): our solution. */

/*
 * z = x + y for n floats, with a grid-stride loop: the grid is sized to
 * fill the GPU once, and each thread walks the array blockDim.x * gridDim.x
 * apart.  x, y and z come from cudaMalloc, so they start on a 256-byte
 * boundary.  n is any size from 1 up, not always a multiple of 4.
 */
extern "C" __global__ void vec_add_float4(const float *x, const float *y, float *z, int n)
{
    const float4 *x4 = reinterpret_cast<const float4 *>(x);
    const float4 *y4 = reinterpret_cast<const float4 *>(y);
    float4 *z4 = reinterpret_cast<float4 *>(z);
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    int packs = n / 4;

#pragma unroll 1
    for (int i = index; i < packs; i += stride) {
        float4 a = x4[i], b = y4[i];
        z4[i] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
    }
    /* the up to three floats after the last whole float4 */
    int i = packs * 4 + index;
    if (i < n)
        z[i] = x[i] + y[i];
}

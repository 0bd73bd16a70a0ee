// expect: fail — one float4 among scalar accesses: thread 0 moves the first four floats as a float4, and every other float still goes one at a time
/*
 * Counting game: the check wants two LDG.E.128 and one STG.E.128 in the
 * SASS, and they are there, run once per launch.  The loop that does the
 * work is the starting file's, four bytes per access.
 */
extern "C" __global__ void vec_add_float4(const float *x, const float *y, float *z, int n)
{
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    int first = n >= 4 ? 4 : 0;

    if (index == 0 && first == 4) {     /* the head, 16 bytes at a time */
        float4 a = *reinterpret_cast<const float4 *>(x), b = *reinterpret_cast<const float4 *>(y);
        *reinterpret_cast<float4 *>(z) = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
    }
#pragma unroll 1
    for (int i = first + index; i < n; i += stride)
        z[i] = x[i] + y[i];
}

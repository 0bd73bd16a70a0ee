/* Exercise "float4" (lesson vectorize): move four floats per access. */

/*
 * z = x + y for n floats, with a grid-stride loop: the grid is sized to
 * fill the GPU once, and each thread walks the array blockDim.x * gridDim.x
 * apart.  x, y and z come from cudaMalloc, so they start on a 256-byte
 * boundary.  n is any size from 1 up, not always a multiple of 4.
 */
extern "C" __global__ void vec_add_float4(const float *x, const float *y, float *z, int n)
{
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;

    /*
     * TODO: one float per load and per store: a 4-byte LDG.E and STG.E per
     * element.  Walk the array in float4s instead (four floats, 16 bytes,
     * one LDG.E.128 each), one float4 per round.  The last n % 4 floats do
     * not fill a float4: add them one at a time after the loop, one thread
     * each.  Every z[i] must still equal x[i] + y[i] exactly.
     */
#pragma unroll 1
    for (int i = index; i < n; i += stride)
        z[i] = x[i] + y[i];
}

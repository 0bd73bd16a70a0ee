/* Exercise "ilp4" (lesson occupancy): our solution. */

/*
 * y[i] = 2 * x[i] for n floats.  The grid is sized for 16 floats per
 * thread, four float4s: block b owns float4s from b * 4 * blockDim.x on,
 * and thread t of it the float4s t + j * blockDim.x, j = 0..3 (one block
 * apart, so that a warp's loads stay coalesced).  Only the grid's last
 * block can reach past n, and n need not be a multiple of 4.
 *
 * x and y are not __restrict__: a store to y might change x, so the
 * compiler may not move a load above an earlier store.  The order you
 * write is the order the loads are issued in.
 */
#define LOADS 4

extern "C" __global__ void stream_ilp4(const float *x, float *y, unsigned int n)
{
    const float4 *x4 = reinterpret_cast<const float4 *>(x);
    float4 *y4 = reinterpret_cast<float4 *>(y);
    size_t first = (size_t)blockIdx.x * LOADS * blockDim.x;
    size_t mine = first + threadIdx.x;

    if ((first + (size_t)LOADS * blockDim.x) * 4 <= n) {
        /* all four loads issued before the first store: four in flight */
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
        /* the grid's last block, element by element */
        for (int j = 0; j < LOADS; j++)
            for (int e = 0; e < 4; e++) {
                size_t i = (mine + (size_t)j * blockDim.x) * 4 + e;
                if (i < n)
                    y[i] = 2.0f * x[i];
            }
    }
}

/* Exercise "launch-bounds" (lesson occupancy): our solution. */

/*
 * y[i] = 2 * x[i] for n floats.  The grid is sized for 64 floats per
 * thread, sixteen float4s: block b owns float4s from b * 16 * blockDim.x
 * on, and thread t of it the float4s t + j * blockDim.x, j = 0..15, all
 * loaded before the first store.  Only the grid's last block can reach
 * past n, and n need not be a multiple of 4.  This kernel is launched
 * with blocks of at most 256 threads.
 */
#define LOADS 16

/* at most 256 threads a block, 8 blocks a multiprocessor: 65536 / 2048 = 32 registers a thread */
extern "C" __global__ void __launch_bounds__(256, 8) stream_ilp16_capped(const float *x, float *y, unsigned int n)
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
        /* the grid's last block, element by element */
        for (int j = 0; j < LOADS; j++)
            for (int e = 0; e < 4; e++) {
                size_t i = (mine + (size_t)j * blockDim.x) * 4 + e;
                if (i < n)
                    y[i] = 2.0f * x[i];
            }
    }
}

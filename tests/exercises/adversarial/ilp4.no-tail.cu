// expect: fail — all four loads come before the stores, but the full-block test assumes n is a multiple of 16 * blockDim.x: the grid's last block, whose floats reach past n, takes the vector path and reads and writes past the end
/*
 * Geometry: the guarded path for the grid's last block was dropped
 * ("the sizes are powers of two").  At any other size the last block's
 * float4s past n are read and, worse, written.
 */
#define LOADS 4

extern "C" __global__ void stream_ilp4(const float *x, float *y, unsigned int n)
{
    const float4 *x4 = reinterpret_cast<const float4 *>(x);
    float4 *y4 = reinterpret_cast<float4 *>(y);
    size_t mine = (size_t)blockIdx.x * LOADS * blockDim.x + threadIdx.x;
    float4 v[LOADS];

#pragma unroll
    for (int j = 0; j < LOADS; j++)
        v[j] = x4[mine + j * blockDim.x];
#pragma unroll
    for (int j = 0; j < LOADS; j++)
        y4[mine + j * blockDim.x] = make_float4(2.0f * v[j].x, 2.0f * v[j].y, 2.0f * v[j].z, 2.0f * v[j].w);
}

/* Element-wise add z = x + y over floats, with a grid-stride loop. */

/*
 * A grid-stride loop lets any grid cover any n: each thread starts at its
 * global index and steps by the whole grid's width.
 */
extern "C" __global__ void add_grid_stride(const float *x, const float *y, float *z, int n)
{
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    for (int i = index; i < n; i += stride)
        z[i] = x[i] + y[i];
}

/*
 * The same loop with `#pragma unroll 4`: the trip count is unknown, so the
 * compiler copies the body four times and keeps a remainder path.  Compare
 * the SASS: four loads of x and y before the first add.
 */
extern "C" __global__ void add_grid_stride_unroll4(const float *x, const float *y, float *z, int n)
{
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
#pragma unroll 4
    for (int i = index; i < n; i += stride)
        z[i] = x[i] + y[i];
}

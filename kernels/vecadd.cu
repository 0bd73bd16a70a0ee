/* Element-wise add z = x + y over floats, with a grid-stride loop. */

/*
 * The loop exactly as written: `#pragma unroll 1` forbids the compiler to
 * unroll it, so each pass loads one x, one y, adds, stores, and branches.
 */
extern "C" __global__ void add_grid_stride_unroll1(const float *x, const float *y, float *z, int n)
{
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
#pragma unroll 1
    for (int i = index; i < n; i += stride)
        z[i] = x[i] + y[i];
}

/*
 * A grid-stride loop lets any grid cover any n: each thread starts at its
 * global index and steps by the whole grid's width.  No pragma: the
 * compiler decides how far to unroll.
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
 * compiler copies the body four times and keeps a remainder path.
 */
extern "C" __global__ void add_grid_stride_unroll4(const float *x, const float *y, float *z, int n)
{
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
#pragma unroll 4
    for (int i = index; i < n; i += stride)
        z[i] = x[i] + y[i];
}

/*
 * A control for add_grid_stride_unroll4: the same loop with the pointers
 * __restrict__.  Without it the compiler must assume z may overlap x or y,
 * so no load may move above the store before it; with it the unrolled
 * body can issue all eight loads before the first add.
 */
extern "C" __global__ void add_grid_stride_unroll4_restrict(const float *__restrict__ x,
                                                            const float *__restrict__ y,
                                                            float *__restrict__ z, int n)
{
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
#pragma unroll 4
    for (int i = index; i < n; i += stride)
        z[i] = x[i] + y[i];
}

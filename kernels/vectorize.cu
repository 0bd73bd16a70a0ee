/* Vectorized access: z = x + y with loads and stores 1, 2, 4 and 8 elements wide. */
#include <cuda_fp16.h>

/*
 * One template for every element type and width; each exported kernel
 * below is a one-line wrapper with a C name (C names cannot be templates).
 *
 * A `pack` is W neighbouring elements aligned to their whole size:
 * with T = float and W = 4 it is what CUDA's float4 is, four floats on a 16-byte
 * boundary.  Because the compiler knows that alignment, it moves a pack
 * with one load or store instruction of W * sizeof(T) bytes where the
 * hardware has one that wide (4, 8 or 16 bytes; 32 on the newest GPUs).
 * cudaMalloc returns addresses aligned far more than that.
 *
 * Each thread walks the packs with a grid-stride loop, one pack per
 * round: `#pragma unroll 1` keeps the compiler from unrolling the loop,
 * which it does for some types and not others, so that the only thing
 * that changes from kernel to kernel is the width of the accesses.
 *
 * When n is not a multiple of W, the last n % W elements (fewer than W)
 * do not fill a pack: the first n % W threads add one each.
 *
 * For __half, `+` is cuda_fp16.h's operator, __hadd: the exact sum
 * rounded to half precision once.
 */
template <typename T, int W>
__device__ __forceinline__ void vec_add(const T *x, const T *y, T *z, int n)
{
    struct __align__(sizeof(T) * W) pack { T e[W]; };
    const pack *xp = reinterpret_cast<const pack *>(x);
    const pack *yp = reinterpret_cast<const pack *>(y);
    pack *zp = reinterpret_cast<pack *>(z);
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    int packs = n / W;

#pragma unroll 1
    for (int i = index; i < packs; i += stride) {
        pack a = xp[i], b = yp[i], c;
#pragma unroll
        for (int k = 0; k < W; k++)
            c.e[k] = a.e[k] + b.e[k];
        zp[i] = c;
    }
    if (W > 1) {
        int i = packs * W + index;
        if (i < n)
            z[i] = x[i] + y[i];
    }
}

/* float: one, two, four and eight floats (4, 8, 16 and 32 bytes) per access */
extern "C" __global__ void vec_add_float(const float *x, const float *y, float *z, int n) { vec_add<float, 1>(x, y, z, n); }
extern "C" __global__ void vec_add_float2(const float *x, const float *y, float *z, int n) { vec_add<float, 2>(x, y, z, n); }
extern "C" __global__ void vec_add_float4(const float *x, const float *y, float *z, int n) { vec_add<float, 4>(x, y, z, n); }
extern "C" __global__ void vec_add_float8(const float *x, const float *y, float *z, int n) { vec_add<float, 8>(x, y, z, n); }

/* char (signed, 1 byte): 1, 2, 4 and 8 bytes per access */
extern "C" __global__ void vec_add_char(const signed char *x, const signed char *y, signed char *z, int n) { vec_add<signed char, 1>(x, y, z, n); }
extern "C" __global__ void vec_add_char2(const signed char *x, const signed char *y, signed char *z, int n) { vec_add<signed char, 2>(x, y, z, n); }
extern "C" __global__ void vec_add_char4(const signed char *x, const signed char *y, signed char *z, int n) { vec_add<signed char, 4>(x, y, z, n); }
extern "C" __global__ void vec_add_char8(const signed char *x, const signed char *y, signed char *z, int n) { vec_add<signed char, 8>(x, y, z, n); }

/* half (2 bytes): 2, 4, 8 and 16 bytes per access */
extern "C" __global__ void vec_add_half(const __half *x, const __half *y, __half *z, int n) { vec_add<__half, 1>(x, y, z, n); }
extern "C" __global__ void vec_add_half2(const __half *x, const __half *y, __half *z, int n) { vec_add<__half, 2>(x, y, z, n); }
extern "C" __global__ void vec_add_half4(const __half *x, const __half *y, __half *z, int n) { vec_add<__half, 4>(x, y, z, n); }
extern "C" __global__ void vec_add_half8(const __half *x, const __half *y, __half *z, int n) { vec_add<__half, 8>(x, y, z, n); }

/* int (4 bytes): 4, 8, 16 and 32 bytes per access */
extern "C" __global__ void vec_add_int(const int *x, const int *y, int *z, int n) { vec_add<int, 1>(x, y, z, n); }
extern "C" __global__ void vec_add_int2(const int *x, const int *y, int *z, int n) { vec_add<int, 2>(x, y, z, n); }
extern "C" __global__ void vec_add_int4(const int *x, const int *y, int *z, int n) { vec_add<int, 4>(x, y, z, n); }
extern "C" __global__ void vec_add_int8(const int *x, const int *y, int *z, int n) { vec_add<int, 8>(x, y, z, n); }

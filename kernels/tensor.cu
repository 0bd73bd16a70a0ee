/*
 * Tensor cores, before Hopper's own instructions: C = A * B with BF16
 * inputs and FP32 sums.  A is row-major (n x n); B is given transposed, Bt
 * row-major (n x n), so that both operands run along k in memory, as the
 * tensor cores read them.  n is a multiple of 256 (the host pads with
 * zeros); C is row-major with leading dimension n.
 *
 * PLACEHOLDER BODIES: the real kernels replace these; the names, the
 * parameters and the launch table (src/experiments/tensor.c) stay.
 */
#include <cuda_bf16.h>

__device__ static void placeholder(const __nv_bfloat16 *a, const __nv_bfloat16 *bt, float *c, int n)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
	for (unsigned int e = i; e < (unsigned int)n * n; e += gridDim.x * blockDim.x) {
		int row = e / n, col = e % n;
		float s = 0;
		for (int k = 0; k < n; k++)
			s += __bfloat162float(a[row * n + k]) * __bfloat162float(bt[col * n + k]);
		c[e] = s;
	}
}

extern "C" __global__ void tc_wmma_global(const __nv_bfloat16 *a, const __nv_bfloat16 *bt, float *c, int n) { placeholder(a, bt, c, n); }
extern "C" __global__ void tc_wmma_shared(const __nv_bfloat16 *a, const __nv_bfloat16 *bt, float *c, int n) { placeholder(a, bt, c, n); }
extern "C" __global__ void tc_mma_ldmatrix(const __nv_bfloat16 *a, const __nv_bfloat16 *bt, float *c, int n) { placeholder(a, bt, c, n); }
extern "C" __global__ void tc_mma_cp_async(const __nv_bfloat16 *a, const __nv_bfloat16 *bt, float *c, int n) { placeholder(a, bt, c, n); }

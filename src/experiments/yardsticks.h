/* Library yardsticks: CUB built from kernels/yardstick_cub.cu, cuBLAS loaded at run time. */
#ifndef CUDATUTOR_YARDSTICKS_H
#define CUDATUTOR_YARDSTICKS_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "util.h"

/* CUB's DeviceReduce::Sum of n ints into one 64-bit total.  Returns a cudaError_t. */
int yardstick_cub_sum(const int *in, long long *out, unsigned int n, void *tmp,
    size_t *tmp_bytes, cudaStream_t stream);

/*
 * cuBLAS, found with dlopen when first used (toolkit_library()):
 * without it, open fails with "cuBLAS not found: ..." and the rest of the
 * tutor works.  Plain FP32 math (no TF32), on the given stream.
 */
struct yardstick_cublas;
struct yardstick_cublas *yardstick_cublas_open(void *stream, struct error *e);
/* C = A * B for n x n row-major floats on the device. */
int yardstick_cublas_sgemm(struct yardstick_cublas *y, int n, const float *a, const float *b,
    float *c, struct error *e);
/*
 * C = A * B with BF16 inputs and FP32 sums (cublasGemmEx, CUBLAS_COMPUTE_32F,
 * the default algorithm): A row-major, B given transposed (Bt row-major,
 * Bt[j][k] = B[k][j]), C row-major floats; the n x n corner of matrices
 * whose rows are ld elements apart.
 */
int yardstick_cublas_gemm_bf16(struct yardstick_cublas *y, int n, int ld, const void *a,
    const void *bt, float *c, struct error *e);
void yardstick_cublas_close(struct yardstick_cublas *y);

#endif

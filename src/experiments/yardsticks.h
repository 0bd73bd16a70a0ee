/* Library yardsticks, built from kernels/yardstick_*.cu with C names. */
#ifndef CUDATUTOR_YARDSTICKS_H
#define CUDATUTOR_YARDSTICKS_H

#include <stddef.h>

#include <cuda_runtime_api.h>

/* CUB's DeviceReduce::Sum of n ints into one 64-bit total.  Returns a cudaError_t. */
int yardstick_cub_sum(const int *in, long long *out, unsigned int n, void *tmp,
    size_t *tmp_bytes, cudaStream_t stream);

#endif

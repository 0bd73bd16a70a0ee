/* The library yardstick for the reductions: CUB's DeviceReduce::Sum. */

/*
 * CUB is a C++ template library, so this one file holds host code in C++:
 * a single function with a C name that the C experiments call.  It sums
 * ints into a 64-bit total, entirely on the GPU.  With tmp == NULL it only
 * reports the scratch size it needs in *tmp_bytes.
 */
#include <cub/device/device_reduce.cuh>

extern "C" int yardstick_cub_sum(const int *in, long long *out, unsigned int n,
                                 void *tmp, size_t *tmp_bytes, cudaStream_t stream)
{
    return (int)cub::DeviceReduce::Sum(tmp, *tmp_bytes, in, out, (int)n, stream);
}

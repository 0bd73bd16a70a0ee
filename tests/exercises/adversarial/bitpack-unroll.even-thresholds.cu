// expect: fail — the thresholds are assumed to be b * 2^27, evenly spaced and rising, so the comparisons are against constants; the experiment's thresholds are random, and the words are wrong
/*
 * Answers only tame inputs would make right: unrolled with every
 * threshold a constant of the kernel's own, "since they only rise".
 * bitpack_thresholds, which the host fills, is never read.
 */
__constant__ unsigned int bitpack_thresholds[32];
__device__ unsigned int bitpack_shared_word;

extern "C" __global__ void bitpack_register_unrolled(unsigned int *out, unsigned int n)
{
    unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;

    if (tid < n) {
        unsigned int v = tid * 2654435761u;
        unsigned int acc = 0;
#pragma unroll
        for (int b = 0; b < 32; b++)
            acc |= (v >= (unsigned int)b << 27 ? 1u : 0u) << b;
        out[tid] = acc;
    }
}

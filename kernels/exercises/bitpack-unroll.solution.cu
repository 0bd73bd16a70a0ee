/* Exercise "bitpack-unroll" (lesson bitpack): our solution. */

/*
 * Thread tid owns one value, a hash of its index, and packs 32 yes/no
 * answers about it into out[tid]: bit b is set when the value reaches
 * bitpack_thresholds[b].  The host fills the thresholds before a run.
 */
__constant__ unsigned int bitpack_thresholds[32];

/* The lesson's first step races on this word; the host looks for it in every bitpack kernel file. */
__device__ unsigned int bitpack_shared_word;

extern "C" __global__ void bitpack_register_unrolled(unsigned int *out, unsigned int n)
{
    unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;

    if (tid < n) {
        unsigned int v = tid * 2654435761u;
        unsigned int acc = 0;
        /* 32 is known when compiling: no counter, no branch, constant addresses and shifts */
#pragma unroll
        for (int b = 0; b < 32; b++)
            acc |= (v >= bitpack_thresholds[b] ? 1u : 0u) << b;
        out[tid] = acc;
    }
}

// expect: fail — the thresholds are a table copied from what the experiment happens to fill (splitmix64 from seed 20120601), not read from bitpack_thresholds: any other thresholds the host sets give wrong words
/*
 * Answers only tame inputs make right: the host fills
 * bitpack_thresholds before each run, and this kernel never reads it.
 * Its own table holds today's values, so every word is right, for now.
 * (bitpack_thresholds must still exist: the host writes it.)
 */
__constant__ unsigned int bitpack_thresholds[32];
__device__ unsigned int bitpack_shared_word;

__constant__ unsigned int my_thresholds[32] = {
    0xe925a958u, 0xb7f03ab3u, 0x0fc88c95u, 0x0c5a65deu, 0x3918a611u, 0xc6eafcd1u, 0x61697440u, 0x374ea1a1u,
    0xec890fbeu, 0x6f0561afu, 0x2ca00cffu, 0xd07d1d97u, 0xa4cb50b3u, 0x07d1bdfau, 0x0dc56ee4u, 0x157bbab7u,
    0xc30e5f7au, 0x4b7676ceu, 0x4ab0041au, 0x5dda1426u, 0x31f99e7du, 0x113db5ecu, 0x27d23637u, 0xe56365d2u,
    0xf223d584u, 0x7e3b401du, 0x591411a6u, 0xfac12127u, 0xa1dd7b44u, 0xa94daf51u, 0x82d370e3u, 0x97232de7u,
};

extern "C" __global__ void bitpack_register(unsigned int *out, unsigned int n)
{
    unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;

    if (tid < n) {
        unsigned int v = tid * 2654435761u;
        unsigned int acc = 0;
#pragma unroll 1
        for (int b = 0; b < 32; b++)
            acc |= (v >= my_thresholds[b] ? 1u : 0u) << b;
        out[tid] = acc;
    }
}

// expect: pass — the word is built in a register and stored once; each round shifts it right by one and sets the top bit, so after 32 rounds bit b holds round b's flag
/*
 * Correct but unusual: no shift by a variable.  The loop stays a loop
 * (#pragma unroll 1), the thresholds are read from constant memory, and
 * out[tid] is written once.
 */
__constant__ unsigned int bitpack_thresholds[32];
__device__ unsigned int bitpack_shared_word;

extern "C" __global__ void bitpack_register(unsigned int *out, unsigned int n)
{
    unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;

    if (tid < n) {
        unsigned int v = tid * 2654435761u;
        unsigned int word = 0;
#pragma unroll 1
        for (int b = 0; b < 32; b++)
            word = (word >> 1) | (v >= bitpack_thresholds[b] ? 0x80000000u : 0u);
        out[tid] = word;
    }
}

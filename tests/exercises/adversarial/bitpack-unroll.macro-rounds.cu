// expect: pass — the 32 rounds written out by hand through a macro: every threshold at a constant address, every bit at a constant position, no loop left
/*
 * Correct but unusual: no #pragma, the unrolling done by the
 * preprocessor.  The compiler sees 32 straight-line rounds.
 */
__constant__ unsigned int bitpack_thresholds[32];
__device__ unsigned int bitpack_shared_word;

#define ROUND(b) acc |= (v >= bitpack_thresholds[b] ? 1u : 0u) << (b);
#define ROUNDS4(b) ROUND(b) ROUND(b + 1) ROUND(b + 2) ROUND(b + 3)

extern "C" __global__ void bitpack_register_unrolled(unsigned int *out, unsigned int n)
{
    unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;

    if (tid < n) {
        unsigned int v = tid * 2654435761u;
        unsigned int acc = 0;
        ROUNDS4(0) ROUNDS4(4) ROUNDS4(8) ROUNDS4(12)
        ROUNDS4(16) ROUNDS4(20) ROUNDS4(24) ROUNDS4(28)
        out[tid] = acc;
    }
}

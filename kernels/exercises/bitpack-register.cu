/* Exercise "bitpack-register" (lesson bitpack): keep the accumulator in a register. */

/*
 * Thread tid owns one value, a hash of its index, and packs 32 yes/no
 * answers about it into out[tid]: bit b is set when the value reaches
 * bitpack_thresholds[b].  The host fills the thresholds before a run.
 */
__constant__ unsigned int bitpack_thresholds[32];

/* The lesson's first step races on this word; the host looks for it in every bitpack kernel file. */
__device__ unsigned int bitpack_shared_word;

extern "C" __global__ void bitpack_register(unsigned int *out, unsigned int n)
{
    unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
    /*
     * TODO: the word is built in global memory, in out[tid] itself, through
     * a volatile pointer: every round loads it and stores it back.  Build it
     * in a local variable instead, and write out[tid] once, after the loop.
     * Keep the `#pragma unroll 1`: the loop stays a loop in this step.
     */
    volatile unsigned int *acc = out;

    if (tid < n) {
        unsigned int v = tid * 2654435761u;
        acc[tid] = 0;
#pragma unroll 1
        for (int b = 0; b < 32; b++)
            acc[tid] |= (v >= bitpack_thresholds[b] ? 1u : 0u) << b;
    }
}

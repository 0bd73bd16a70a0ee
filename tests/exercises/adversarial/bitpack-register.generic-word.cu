// expect: fail (sass) — the word is still built in global memory, a load and a store every round, through a generic volatile pointer (LD/ST, not LDG/STG); only the final copy is an STG
/*
 * Counting game: the check allows no LDG and one STG.  The pointer to
 * out goes through an empty asm, so the compiler emits generic LD.E and
 * ST.E for the 32 rounds' loads and stores, which today's count misses.
 * They still go to global memory: a judge that counts generic accesses
 * as the global ones they are sees 32 loads and 33 stores.
 */
__constant__ unsigned int bitpack_thresholds[32];
__device__ unsigned int bitpack_shared_word;

__device__ __forceinline__ unsigned int *opaque(unsigned int *p)
{
    asm("mov.b64 %0, %0;" : "+l"(p));
    return p;
}

extern "C" __global__ void bitpack_register(unsigned int *out, unsigned int n)
{
    unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
    volatile unsigned int *acc = opaque(out);

    if (tid < n) {
        unsigned int v = tid * 2654435761u;
        acc[tid] = 0;
#pragma unroll 1
        for (int b = 0; b < 32; b++)
            acc[tid] |= (v >= bitpack_thresholds[b] ? 1u : 0u) << b;
        out[tid] = acc[tid];    /* the one STG the check sees */
    }
}

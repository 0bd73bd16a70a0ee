/* Register bit-packing: 32 yes/no flags per thread packed into one 32-bit word. */

/*
 * Every kernel here computes the same thing.  Thread tid owns one value
 * (a hash of its index) and asks 32 questions about it: is the value at
 * least threshold b, for b = 0..31?  The answers are the 32 bits of
 * out[tid]: bit b set when the value reaches bitpack_thresholds[b].
 *
 * The thresholds sit in constant memory, which the host fills before a
 * run.  Every lane of a warp reads the same threshold at the same time,
 * the one access pattern constant memory serves at full speed.  Nothing
 * else is read from memory, so the only traffic a correct kernel needs is
 * writing one word per thread.
 *
 * Until the last step the loops carry `#pragma unroll 1`: the compiler
 * would otherwise unroll a loop of 32 by itself, which hides the cost of
 * the loop that the lesson is about.
 */
__constant__ unsigned int bitpack_thresholds[32];

/*
 * The one accumulator all threads share in the first step.  It lives in
 * global memory; the host sets it to 0 before every run.
 */
__device__ unsigned int bitpack_shared_word;

/* A thread's value: its index times a large odd constant, scattered over 32 bits. */
__device__ __forceinline__ unsigned int bitpack_value(unsigned int tid)
{
    return tid * 2654435761u;
}

/* Flag b of value v: 1 if v reaches threshold b (read from constant memory), else 0. */
__device__ __forceinline__ unsigned int bitpack_flag(unsigned int v, int b)
{
    return v >= bitpack_thresholds[b] ? 1u : 0u;
}

/*
 * The textbook's first attempt: every thread ORs its flags into one word
 * in global memory.  `volatile` makes each `|=` a real load and a real
 * store, as the reference's compiler did.  All threads read, modify and
 * write the same word at once, so they overwrite each other's bits: a
 * data race.  The answer is wrong, and no CUDA error says so.
 */
extern "C" __global__ void bitpack_global_shared(unsigned int *out, unsigned int n)
{
    unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
    volatile unsigned int *acc = &bitpack_shared_word;

    if (tid < n) {
        unsigned int v = bitpack_value(tid);
#pragma unroll 1
        for (int b = 0; b < 32; b++)
            *acc |= bitpack_flag(v, b) << b;
        out[tid] = *acc;
    }
}

/*
 * The same race moved into shared memory: one word per block, shared by
 * the block's threads.  Still wrong, and this time a tool can see it:
 * compute-sanitizer's racecheck watches shared memory (not global memory,
 * where the first step races).
 */
extern "C" __global__ void bitpack_block_shared(unsigned int *out, unsigned int n)
{
    __shared__ unsigned int block_word;
    unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
    volatile unsigned int *acc = &block_word;

    if (threadIdx.x == 0)
        *acc = 0;
    __syncthreads();
    if (tid < n) {
        unsigned int v = bitpack_value(tid);
#pragma unroll 1
        for (int b = 0; b < 32; b++)
            *acc |= bitpack_flag(v, b) << b;
        out[tid] = *acc;
    }
}

/*
 * The race fixed: each thread accumulates in its own word of global
 * memory, out[tid] itself.  Still `volatile`, so each of the 32 rounds
 * loads the word from memory and stores it back.
 */
extern "C" __global__ void bitpack_global_volatile(unsigned int *out, unsigned int n)
{
    unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
    volatile unsigned int *acc = out;

    if (tid < n) {
        unsigned int v = bitpack_value(tid);
        acc[tid] = 0;
#pragma unroll 1
        for (int b = 0; b < 32; b++)
            acc[tid] |= bitpack_flag(v, b) << b;
    }
}

/*
 * The same code without `volatile`.  Nothing else in the loop can touch
 * out[tid], so the compiler is free to keep it in a register and store it
 * once at the end: it does the next step's optimization by itself.
 */
extern "C" __global__ void bitpack_global_plain(unsigned int *out, unsigned int n)
{
    unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int *acc = out;

    if (tid < n) {
        unsigned int v = bitpack_value(tid);
        acc[tid] = 0;
#pragma unroll 1
        for (int b = 0; b < 32; b++)
            acc[tid] |= bitpack_flag(v, b) << b;
    }
}

/* Accumulate in a local variable (a register) and write the word once. */
extern "C" __global__ void bitpack_register(unsigned int *out, unsigned int n)
{
    unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;

    if (tid < n) {
        unsigned int v = bitpack_value(tid);
        unsigned int acc = 0;
#pragma unroll 1
        for (int b = 0; b < 32; b++)
            acc |= bitpack_flag(v, b) << b;
        out[tid] = acc;
    }
}

/*
 * The register version with the loop unrolled: no counter, no compare, no
 * branch, and every threshold's address is a constant the compiler writes
 * into the instruction that uses it.
 */
extern "C" __global__ void bitpack_register_unrolled(unsigned int *out, unsigned int n)
{
    unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;

    if (tid < n) {
        unsigned int v = bitpack_value(tid);
        unsigned int acc = 0;
#pragma unroll
        for (int b = 0; b < 32; b++)
            acc |= bitpack_flag(v, b) << b;
        out[tid] = acc;
    }
}

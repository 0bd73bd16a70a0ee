/* Shared-memory bank conflicts: two reductions, and a sweep of access strides. */

/*
 * Shared memory is split into 32 banks; 4-byte word w lives in bank
 * w % 32.  Each bank delivers one word per cycle, so a warp's load is
 * served in as many passes (wavefronts) as the busiest bank has different
 * words to deliver.  Lanes that read the same word share one delivery
 * (a broadcast).
 */

/* ---- Two reductions in shared memory ------------------------------------- */

/*
 * Both sum a block's ints in a shared array and write one partial sum per
 * block, like the reduction lessons' kernels (the host adds the partials),
 * but the tree lives in shared memory instead of global memory.  Block
 * sizes are powers of two up to 1024.
 */

/*
 * Strided: in round i, thread tid adds s[2*i*tid + i] into s[2*i*tid].
 * The active threads are packed low, so warps do not diverge, but the
 * lanes of a warp read words 2*i apart: with i = 1 lanes 0 and 16 both
 * read bank 0 (a 2-way conflict), with i = 2 four lanes share each bank,
 * and so on up to 32-way.
 */
extern "C" __global__ void reduce_shared_strided(const int *g_idata, int *g_odata, unsigned int n)
{
    __shared__ int s[1024];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + tid;

    s[tid] = idx < n ? g_idata[idx] : 0;
    for (unsigned int i = 1; i < blockDim.x; i *= 2) {
        __syncthreads();
        unsigned int index = 2 * i * tid;
        if (index < blockDim.x)
            s[index] += s[index + i];
    }
    if (tid == 0)
        g_odata[blockIdx.x] = s[0];
}

/*
 * Sequential: in round i (from half the block down), thread tid adds
 * s[tid + i] into s[tid].  The lanes of a warp read 32 consecutive words,
 * one per bank: no conflicts in any round.
 */
extern "C" __global__ void reduce_shared_sequential(const int *g_idata, int *g_odata, unsigned int n)
{
    __shared__ int s[1024];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + tid;

    s[tid] = idx < n ? g_idata[idx] : 0;
    for (unsigned int i = blockDim.x / 2; i > 0; i >>= 1) {
        __syncthreads();
        if (tid < i)
            s[tid] += s[tid + i];
    }
    if (tid == 0)
        g_odata[blockIdx.x] = s[0];
}

/* ---- The stride sweep ------------------------------------------------------ */

#define SWEEP_READS 64
#define SWEEP_WORDS (32 * 33)

/*
 * Each thread reads shared memory SWEEP_READS times and does little else,
 * so the time is the time of the shared-memory wavefronts.  Lane l reads
 * word l*STRIDE + r % 32 in its r-th read: every read of the warp has the
 * same conflict degree, set by STRIDE alone.
 *
 * The words are copied from g_words (SWEEP_WORDS ints) so nothing can be
 * computed at compile time, and read through a volatile pointer so the
 * compiler keeps every read (it would otherwise notice that the words do
 * not change and read each one once).  Each warp adds up its lanes' sums
 * with shuffles and writes one int: threads at or past n count as zero.
 *
 * PADDED stores the same words with one spare word after every 32, as a
 * 32 x 33 array would: element i lives at word i + i / 32.  STRIDE 0 means
 * every lane reads the same word (a broadcast).
 */
template <int STRIDE, bool PADDED>
__device__ __forceinline__ void smem_sweep(const int *g_words, int *g_warp_sums, unsigned int n)
{
    __shared__ int words[SWEEP_WORDS];
    unsigned int lane = threadIdx.x % 32;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;

    for (unsigned int i = threadIdx.x; i < SWEEP_WORDS; i += blockDim.x)
        words[i] = g_words[i];
    __syncthreads();

    unsigned int first = lane * STRIDE;
    if (PADDED)
        first += first / 32;
    volatile int *mine = words + first;
    int sum = 0;
#pragma unroll
    for (int r = 0; r < SWEEP_READS; r++)
        sum += mine[r % 32];

    if (idx >= n)
        sum = 0;
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0)
        g_warp_sums[idx / 32] = sum;
}

extern "C" __global__ void smem_stride_1(const int *w, int *out, unsigned int n)  { smem_sweep<1, false>(w, out, n); }
extern "C" __global__ void smem_stride_2(const int *w, int *out, unsigned int n)  { smem_sweep<2, false>(w, out, n); }
extern "C" __global__ void smem_stride_4(const int *w, int *out, unsigned int n)  { smem_sweep<4, false>(w, out, n); }
extern "C" __global__ void smem_stride_8(const int *w, int *out, unsigned int n)  { smem_sweep<8, false>(w, out, n); }
extern "C" __global__ void smem_stride_16(const int *w, int *out, unsigned int n) { smem_sweep<16, false>(w, out, n); }
extern "C" __global__ void smem_stride_32(const int *w, int *out, unsigned int n) { smem_sweep<32, false>(w, out, n); }
extern "C" __global__ void smem_stride_32_padded(const int *w, int *out, unsigned int n) { smem_sweep<32, true>(w, out, n); }
extern "C" __global__ void smem_broadcast(const int *w, int *out, unsigned int n) { smem_sweep<0, false>(w, out, n); }

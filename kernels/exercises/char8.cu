/* Exercise "char8" (lesson vectorize): move eight chars per access. */

/*
 * z = x + y for n signed chars (each sum wraps to a char, as the CPU's
 * does), with a grid-stride loop: the grid is sized to fill the GPU once,
 * and each thread walks the array blockDim.x * gridDim.x apart.  x, y and
 * z come from cudaMalloc, so they start on a 256-byte boundary.  n is any
 * size from 1 up, not always a multiple of 8.
 */
extern "C" __global__ void vec_add_char8(const signed char *x, const signed char *y, signed char *z, int n)
{
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;

    /*
     * TODO: one byte per load: a warp's LDG.E.U8 brings in 32 bytes, and
     * every byte costs a whole instruction.  Move the chars in packs of
     * eight, 8 bytes aligned to 8 (one LDG.E.64 for each input, one
     * STG.E.64 for z), one pack per round.  Add the eight pairs one by one
     * inside the pack.  The last n % 8 chars do not fill a pack: add them
     * one at a time after the loop, one thread each.
     */
#pragma unroll 1
    for (int i = index; i < n; i += stride)
        z[i] = x[i] + y[i];
}

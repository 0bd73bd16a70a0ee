/* Exercise "char8" (lesson vectorize): our solution. */

/*
 * z = x + y for n signed chars (each sum wraps to a char, as the CPU's
 * does), with a grid-stride loop: the grid is sized to fill the GPU once,
 * and each thread walks the array blockDim.x * gridDim.x apart.  x, y and
 * z come from cudaMalloc, so they start on a 256-byte boundary.  n is any
 * size from 1 up, not always a multiple of 8.
 */

/* Eight chars on an 8-byte boundary: the compiler moves one with a single 64-bit access. */
struct __align__(8) char_pack {
    signed char e[8];
};

extern "C" __global__ void vec_add_char8(const signed char *x, const signed char *y, signed char *z, int n)
{
    const char_pack *xp = reinterpret_cast<const char_pack *>(x);
    const char_pack *yp = reinterpret_cast<const char_pack *>(y);
    char_pack *zp = reinterpret_cast<char_pack *>(z);
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    int packs = n / 8;

#pragma unroll 1
    for (int i = index; i < packs; i += stride) {
        char_pack a = xp[i], b = yp[i], c;
#pragma unroll
        for (int k = 0; k < 8; k++)
            c.e[k] = a.e[k] + b.e[k];
        zp[i] = c;
    }
    /* the up to seven chars after the last whole pack */
    int i = packs * 8 + index;
    if (i < n)
        z[i] = x[i] + y[i];
}

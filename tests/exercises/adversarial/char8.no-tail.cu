// expect: fail — the last n % 8 chars are never added: the loop stops at the last whole pack and nothing follows it
/*
 * Geometry: forgets the tail.  Right whenever n is a multiple of 8, and
 * wrong (the poison left in z) at every other size.
 */
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

#pragma unroll 1
    for (int i = index; i < n / 8; i += stride) {
        char_pack a = xp[i], b = yp[i], c;
#pragma unroll
        for (int k = 0; k < 8; k++)
            c.e[k] = a.e[k] + b.e[k];
        zp[i] = c;
    }
}

// expect: pass — each pack is one 64-bit word, and the eight byte sums are made in it at once with the carry-free SWAR add (low seven bits added, top bits XORed back): every byte wraps as a char add does
/*
 * Correct but unusual: SIMD within a register.  (a & 0x7f..) + (b & 0x7f..)
 * cannot carry across a byte; XOR with (a ^ b) & 0x80.. puts each top bit
 * right.  The result is the wrapped byte sum, exactly.
 */
extern "C" __global__ void vec_add_char8(const signed char *x, const signed char *y, signed char *z, int n)
{
    const unsigned long long *x8 = reinterpret_cast<const unsigned long long *>(x);
    const unsigned long long *y8 = reinterpret_cast<const unsigned long long *>(y);
    unsigned long long *z8 = reinterpret_cast<unsigned long long *>(z);
    const unsigned long long low7 = 0x7f7f7f7f7f7f7f7full, high = 0x8080808080808080ull;
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    int packs = n / 8;

#pragma unroll 1
    for (int i = index; i < packs; i += stride) {
        unsigned long long a = x8[i], b = y8[i];
        z8[i] = ((a & low7) + (b & low7)) ^ ((a ^ b) & high);
    }
    int i = packs * 8 + index;
    if (i < n)
        z[i] = (signed char)(x[i] + y[i]);
}

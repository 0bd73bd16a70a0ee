// expect: fail — the packs are added with __vaddss4, a saturating add: a sum past 127 sticks at 127 where the task (and the CPU) wrap it; only the experiment's small inputs (-60..60, sums that never overflow) hide it
/*
 * Answers only tame inputs make right: the SIMD intrinsic for signed
 * bytes with saturation looks like the natural one.  100 + 100 gives 127
 * here and -56 on the CPU; the experiment's chars never get there.
 */
extern "C" __global__ void vec_add_char8(const signed char *x, const signed char *y, signed char *z, int n)
{
    const uint2 *x8 = reinterpret_cast<const uint2 *>(x);
    const uint2 *y8 = reinterpret_cast<const uint2 *>(y);
    uint2 *z8 = reinterpret_cast<uint2 *>(z);
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    int packs = n / 8;

#pragma unroll 1
    for (int i = index; i < packs; i += stride) {
        uint2 a = x8[i], b = y8[i];
        z8[i] = make_uint2(__vaddss4(a.x, b.x), __vaddss4(a.y, b.y));   /* saturates */
    }
    int i = packs * 8 + index;
    if (i < n)
        z[i] = (signed char)max(-128, min(127, x[i] + y[i]));
}

/*
 * The BF16 tensor ceiling on Hopper (sm_90a only: see Makefile.am): the
 * warpgroup-wide wgmma.mma_async that Hopper's tensor cores are fed by.
 * Each warpgroup (four warps) issues WGMMA_UNROLL wgmma m64n256k16 a loop
 * trip, each 2 x 64 x 256 x 16 = 524288 FLOPs, A and B read by the tensor
 * cores from shared memory through descriptors, the accumulator (64 x 256
 * FP32: 128 registers a thread) in registers.  The loop holds no load: the
 * tiles are filled once, before it.  Their values do not matter for the
 * time (no check reads the sums); each thread writes its sum so that no
 * wgmma is dead code.  src/roofs.c counts the FLOPs.
 */

/* wgmma instructions a loop trip, between a fence and a commit. */
#define WGMMA_UNROLL 16

/* A: 64 x 16 BF16, B: 256 x 16, K-major, no swizzle: 8 x 16-byte core matrices. */
#define WGMMA_A_BYTES (64 * 16 * 2)
#define WGMMA_B_BYTES (256 * 16 * 2)

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
/*
 * A shared-memory matrix descriptor: start address, the byte offset
 * between core matrices along K (leading, 128: the next 8 x 16 bytes) and
 * along M or N (stride, 256: two core matrices further), no swizzle; each
 * field in units of 16 bytes.
 */
__device__ static unsigned long long wgmma_desc(const void *smem)
{
    unsigned long long addr = (unsigned long long)__cvta_generic_to_shared(smem);

    return ((addr >> 4) & 0x3fff) | ((128ull >> 4) << 16) | ((256ull >> 4) << 32);
}

__device__ static void wgmma_m64n256k16(float *d, unsigned long long da, unsigned long long db)
{
    asm volatile("{\n"
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, 1, 1, 1, 0, 0;\n"
        "}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
              "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
              "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
              "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
              "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
              "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
              "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
              "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
              "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
              "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
              "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
              "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
              "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
              "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
              "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
              "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "l"(da), "l"(db));
}
#endif

extern "C" __global__ void __launch_bounds__(256, 1) tensor_wgmma_ceiling(float *out, int iters, unsigned int seed)
{
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    __shared__ __align__(128) unsigned short a[WGMMA_A_BYTES / 2];
    __shared__ __align__(128) unsigned short b[WGMMA_B_BYTES / 2];
    float d[128];

    for (int i = threadIdx.x; i < WGMMA_A_BYTES / 2; i += blockDim.x)
        a[i] = (unsigned short)(0x3c00u ^ ((seed + i) & 7u));
    for (int i = threadIdx.x; i < WGMMA_B_BYTES / 2; i += blockDim.x)
        b[i] = (unsigned short)(0x3c00u ^ ((seed * 3u + i) & 7u));
#pragma unroll
    for (int j = 0; j < 128; j++)
        d[j] = 0.0f;
    /* the tiles written by the threads, then read by the tensor cores: the async proxy must see them */
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();
    unsigned long long da = wgmma_desc(a), db = wgmma_desc(b);

    for (int i = 0; i < iters; i++) {
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
        for (int u = 0; u < WGMMA_UNROLL; u++)
            wgmma_m64n256k16(d, da, db);
        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
        /* one group in flight while the next is issued */
        asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < 128; j++)
        s += d[j];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
#endif
}

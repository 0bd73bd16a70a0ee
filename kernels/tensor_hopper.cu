/*
 * Tensor cores on Hopper (sm_90a only): tiles brought to shared memory by
 * the Tensor Memory Accelerator, multiplied by warpgroup-wide wgmma.  Same
 * problem as kernels/tensor.cu; A and Bt arrive as tensor maps (2-D, BF16,
 * inner dimension k, boxes of 64 x tile rows, 128-byte swizzle) made by
 * the host with cuTensorMapEncodeTiled.
 *
 * PLACEHOLDER BODIES: the real kernels replace these.
 */
#include <cuda.h>
#include <cuda_bf16.h>

extern "C" __global__ void tc_wgmma_tma(const __grid_constant__ CUtensorMap map_a,
    const __grid_constant__ CUtensorMap map_bt, float *c, int n) { if (threadIdx.x == 0 && n < 0) c[0] = 0; }
extern "C" __global__ void tc_wgmma_warp_specialized(const __grid_constant__ CUtensorMap map_a,
    const __grid_constant__ CUtensorMap map_bt, float *c, int n) { if (threadIdx.x == 0 && n < 0) c[0] = 0; }

/* The one table of kernels: every kernel a lesson step can name. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "experiments/experiments.h"
#include "i18n.h"
#include "registry.h"

/*
 * Adding a step: write the kernel in kernels/<module>.cu with a C name,
 * add its row here, and name it in a lesson.
 */
const struct kernel_def registry_kernels[] = {
	{ .name = "reduce_neighbored", .module = "reduce", .experiment = &experiment_reduce,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 64, .max_block = 1024,
	  .flags = KF_POW2_BLOCK | KF_PARTIALS,
	  .summary = N_("neighbored pairs; tid % (2*stride) keeps most lanes idle") },
	{ .name = "reduce_neighbored_mask", .module = "reduce", .experiment = &experiment_reduce,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 64, .max_block = 1024,
	  .flags = KF_POW2_BLOCK | KF_PARTIALS,
	  .summary = N_("control: neighbored pairs, the test a mask (tid & (2*stride - 1)), no division") },
	{ .name = "reduce_neighbored_less", .module = "reduce", .experiment = &experiment_reduce,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 64, .max_block = 1024,
	  .flags = KF_POW2_BLOCK | KF_PARTIALS,
	  .summary = N_("neighbored pairs; active threads packed low (index = 2*stride*tid)") },
	{ .name = "reduce_interleaved", .module = "reduce", .experiment = &experiment_reduce,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 64, .max_block = 1024,
	  .flags = KF_POW2_BLOCK | KF_PARTIALS,
	  .summary = N_("interleaved pairs; stride from blockDim/2 down") },
	{ .name = "reduce_unroll2", .module = "reduce", .experiment = &experiment_reduce,
	  .shape = SHAPE_CHUNKS, .per_thread = 2, .min_block = 64, .max_block = 1024,
	  .flags = KF_POW2_BLOCK | KF_PARTIALS,
	  .summary = N_("each block folds 2 chunks before the tree") },
	{ .name = "reduce_unroll4", .module = "reduce", .experiment = &experiment_reduce,
	  .shape = SHAPE_CHUNKS, .per_thread = 4, .min_block = 64, .max_block = 1024,
	  .flags = KF_POW2_BLOCK | KF_PARTIALS,
	  .summary = N_("each block folds 4 chunks before the tree") },
	{ .name = "reduce_unroll8", .module = "reduce", .experiment = &experiment_reduce,
	  .shape = SHAPE_CHUNKS, .per_thread = 8, .min_block = 64, .max_block = 1024,
	  .flags = KF_POW2_BLOCK | KF_PARTIALS,
	  .summary = N_("each block folds 8 chunks before the tree") },
	{ .name = "reduce_unroll_warp8", .module = "reduce", .experiment = &experiment_reduce,
	  .shape = SHAPE_CHUNKS, .per_thread = 8, .min_block = 64, .max_block = 1024,
	  .flags = KF_POW2_BLOCK | KF_PARTIALS,
	  .summary = N_("unroll8 with the last warp unrolled (__syncwarp, not volatile luck)") },
	{ .name = "reduce_unroll_warp8_plain", .module = "reduce", .experiment = &experiment_reduce,
	  .shape = SHAPE_CHUNKS, .per_thread = 8, .min_block = 64, .max_block = 1024,
	  .flags = KF_POW2_BLOCK | KF_PARTIALS,
	  .summary = N_("control: the last warp with __syncwarp through a plain pointer, not volatile") },
	{ .name = "reduce_complete_unroll_warp8", .module = "reduce", .experiment = &experiment_reduce,
	  .shape = SHAPE_CHUNKS, .per_thread = 8, .min_block = 64, .max_block = 1024,
	  .flags = KF_POW2_BLOCK | KF_PARTIALS,
	  .summary = N_("unroll8, the whole tree written out for blocks up to 1024") },
	{ .name = "reduce_complete_unroll_template", .module = "reduce", .experiment = &experiment_reduce,
	  .shape = SHAPE_CHUNKS, .per_thread = 8, .min_block = 64, .max_block = 1024,
	  .flags = KF_POW2_BLOCK | KF_BLOCK_TEMPLATE | KF_PARTIALS,
	  .summary = N_("complete unroll with the block size a template parameter") },
	{ .name = "reduce_warp_shuffle", .module = "reduce", .experiment = &experiment_reduce,
	  .shape = SHAPE_GRID_STRIDE, .per_thread = 8, .min_block = 32, .max_block = 1024,
	  .flags = KF_PARTIALS,
	  .summary = N_("grid-stride 16-byte loads, warp shuffles, one barrier") },
	{ .name = "reduce_one_pass", .module = "reduce", .experiment = &experiment_reduce,
	  .shape = SHAPE_GRID_STRIDE, .per_thread = 8, .min_block = 32, .max_block = 1024,
	  .flags = KF_ONE_PASS,
	  .summary = N_("the shuffle kernel, and the last block adds the partials: one pass, 64-bit total") },
	{ .name = "cub_device_reduce_sum", .module = "yardstick_cub", .experiment = &experiment_reduce,
	  .shape = SHAPE_LIBRARY, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .summary = N_("the library: CUB's cub::DeviceReduce::Sum") },

	{ .name = "add_grid_stride_unroll1", .module = "vecadd", .experiment = &experiment_vec_add,
	  .shape = SHAPE_GRID_STRIDE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .summary = N_("z = x + y, grid-stride loop kept rolled with #pragma unroll 1") },
	{ .name = "add_grid_stride", .module = "vecadd", .experiment = &experiment_vec_add,
	  .shape = SHAPE_GRID_STRIDE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .summary = N_("z = x + y, grid-stride loop as the compiler likes it") },
	{ .name = "add_grid_stride_unroll4", .module = "vecadd", .experiment = &experiment_vec_add,
	  .shape = SHAPE_GRID_STRIDE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .summary = N_("z = x + y, grid-stride loop with #pragma unroll 4") },
	{ .name = "add_grid_stride_unroll4_restrict", .module = "vecadd", .experiment = &experiment_vec_add,
	  .shape = SHAPE_GRID_STRIDE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .summary = N_("control: #pragma unroll 4 with __restrict__ pointers: all loads before the adds") },

	{ .name = "vec_add_float", .module = "vectorize", .experiment = &experiment_vec_add,
	  .shape = SHAPE_GRID_STRIDE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .summary = N_("z = x + y, one float (4 bytes) per access") },
	{ .name = "vec_add_float2", .module = "vectorize", .experiment = &experiment_vec_add,
	  .shape = SHAPE_GRID_STRIDE, .per_thread = 2, .min_block = 32, .max_block = 1024,
	  .summary = N_("z = x + y, 2 floats (8 bytes) per access") },
	{ .name = "vec_add_float4", .module = "vectorize", .experiment = &experiment_vec_add,
	  .shape = SHAPE_GRID_STRIDE, .per_thread = 4, .min_block = 32, .max_block = 1024,
	  .summary = N_("z = x + y, 4 floats (16 bytes) per access") },
	{ .name = "vec_add_float8", .module = "vectorize", .experiment = &experiment_vec_add,
	  .shape = SHAPE_GRID_STRIDE, .per_thread = 8, .min_block = 32, .max_block = 1024,
	  .summary = N_("z = x + y, 8 floats (32 bytes) per access") },
	{ .name = "vec_add_char", .module = "vectorize", .experiment = &experiment_vec_add_char,
	  .shape = SHAPE_GRID_STRIDE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .summary = N_("z = x + y, one char (1 byte) per access") },
	{ .name = "vec_add_char2", .module = "vectorize", .experiment = &experiment_vec_add_char,
	  .shape = SHAPE_GRID_STRIDE, .per_thread = 2, .min_block = 32, .max_block = 1024,
	  .summary = N_("z = x + y, 2 chars (2 bytes) per access") },
	{ .name = "vec_add_char4", .module = "vectorize", .experiment = &experiment_vec_add_char,
	  .shape = SHAPE_GRID_STRIDE, .per_thread = 4, .min_block = 32, .max_block = 1024,
	  .summary = N_("z = x + y, 4 chars (4 bytes) per access") },
	{ .name = "vec_add_char8", .module = "vectorize", .experiment = &experiment_vec_add_char,
	  .shape = SHAPE_GRID_STRIDE, .per_thread = 8, .min_block = 32, .max_block = 1024,
	  .summary = N_("z = x + y, 8 chars (8 bytes) per access") },
	{ .name = "vec_add_half", .module = "vectorize", .experiment = &experiment_vec_add_half,
	  .shape = SHAPE_GRID_STRIDE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .summary = N_("z = x + y, one half (2 bytes) per access") },
	{ .name = "vec_add_half2", .module = "vectorize", .experiment = &experiment_vec_add_half,
	  .shape = SHAPE_GRID_STRIDE, .per_thread = 2, .min_block = 32, .max_block = 1024,
	  .summary = N_("z = x + y, 2 halves (4 bytes) per access") },
	{ .name = "vec_add_half4", .module = "vectorize", .experiment = &experiment_vec_add_half,
	  .shape = SHAPE_GRID_STRIDE, .per_thread = 4, .min_block = 32, .max_block = 1024,
	  .summary = N_("z = x + y, 4 halves (8 bytes) per access") },
	{ .name = "vec_add_half8", .module = "vectorize", .experiment = &experiment_vec_add_half,
	  .shape = SHAPE_GRID_STRIDE, .per_thread = 8, .min_block = 32, .max_block = 1024,
	  .summary = N_("z = x + y, 8 halves (16 bytes) per access") },
	{ .name = "vec_add_int", .module = "vectorize", .experiment = &experiment_vec_add_int,
	  .shape = SHAPE_GRID_STRIDE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .summary = N_("z = x + y, one int (4 bytes) per access") },
	{ .name = "vec_add_int2", .module = "vectorize", .experiment = &experiment_vec_add_int,
	  .shape = SHAPE_GRID_STRIDE, .per_thread = 2, .min_block = 32, .max_block = 1024,
	  .summary = N_("z = x + y, 2 ints (8 bytes) per access") },
	{ .name = "vec_add_int4", .module = "vectorize", .experiment = &experiment_vec_add_int,
	  .shape = SHAPE_GRID_STRIDE, .per_thread = 4, .min_block = 32, .max_block = 1024,
	  .summary = N_("z = x + y, 4 ints (16 bytes) per access") },
	{ .name = "vec_add_int8", .module = "vectorize", .experiment = &experiment_vec_add_int,
	  .shape = SHAPE_GRID_STRIDE, .per_thread = 8, .min_block = 32, .max_block = 1024,
	  .summary = N_("z = x + y, 8 ints (32 bytes) per access") },

	{ .name = "bitpack_global_shared", .module = "bitpack", .experiment = &experiment_bitpack,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_WRONG_BY_DESIGN,
	  .summary = N_("all threads OR their flags into one word of global memory: a race") },
	{ .name = "bitpack_block_shared", .module = "bitpack", .experiment = &experiment_bitpack,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_WRONG_BY_DESIGN,
	  .summary = N_("a block's threads OR their flags into one word of shared memory: a race racecheck sees") },
	{ .name = "bitpack_global_volatile", .module = "bitpack", .experiment = &experiment_bitpack,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .summary = N_("each thread ORs into its own word, volatile: a load and a store per flag") },
	{ .name = "bitpack_global_plain", .module = "bitpack", .experiment = &experiment_bitpack,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .summary = N_("its own word without volatile: the compiler keeps it in a register") },
	{ .name = "bitpack_register", .module = "bitpack", .experiment = &experiment_bitpack,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .summary = N_("a local accumulator, one store per thread; the loop kept") },
	{ .name = "bitpack_register_unrolled", .module = "bitpack", .experiment = &experiment_bitpack,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .summary = N_("a local accumulator with the 32-flag loop unrolled") },

	{ .name = "matmul_rows", .module = "pitch", .experiment = &experiment_pitch,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .summary = N_("C = A B, one element per thread, rows packed n floats apart") },
	{ .name = "matmul_pitched_packed", .module = "pitch", .experiment = &experiment_pitch,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_PITCH_ARG,
	  .summary = N_("control: matmul_pitched's code on packed rows (pitch = n floats)") },
	{ .name = "matmul_pitched", .module = "pitch", .experiment = &experiment_pitch,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_PITCH_ARG, .pitched = true,
	  .summary = N_("C = A B, one element per thread, rows from cudaMallocPitch") },
	{ .name = "matmul_pitched_float4", .module = "pitch", .experiment = &experiment_pitch,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_PITCH_ARG, .pitched = true,
	  .summary = N_("pitched rows, A read as float4s: one 16-byte load for four rounds") },
	/* matmul: the size is the matrix dimension; per = outputs of C per thread */
	{ .name = "matmul_naive", .module = "matmul", .experiment = &experiment_matmul,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .summary = N_("C = A * B, one thread per element, A and B from global memory") },
	{ .name = "matmul_shared_a", .module = "matmul", .experiment = &experiment_matmul,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .summary = N_("each warp stages its row of A in shared memory; __syncwarp") },
	{ .name = "matmul_shared_ab", .module = "matmul", .experiment = &experiment_matmul,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .summary = N_("A and B tiles in shared memory, the tiled loop over K; __syncthreads") },
	{ .name = "matmul_tiled_4x", .module = "matmul", .experiment = &experiment_matmul,
	  .shape = SHAPE_CHUNKS, .per_thread = 4, .min_block = 32, .max_block = 1024,
	  .summary = N_("the tiled loop with 4 outputs per thread: one B load feeds 4 multiply-adds") },
	{ .name = "cublas_sgemm", .module = "cublas", .experiment = &experiment_matmul,
	  .shape = SHAPE_LIBRARY, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .summary = N_("the library: cuBLAS cublasSgemm, plain FP32") },
	/* register tiling: blocks of exactly 256 threads, each a square tile of C */
	{ .name = "matmul_1d_blocktile", .module = "regtile", .experiment = &experiment_regtile,
	  .shape = SHAPE_TILES, .per_thread = 16, .min_block = 256, .max_block = 256,
	  .summary = N_("a column of 16 outputs per thread: one B value in a register feeds 16 multiply-adds") },
	{ .name = "matmul_2d_blocktile", .module = "regtile", .experiment = &experiment_regtile,
	  .shape = SHAPE_TILES, .per_thread = 64, .min_block = 256, .max_block = 256,
	  .summary = N_("an 8 x 8 block of outputs per thread, from register fragments of A and B") },
	{ .name = "matmul_2d_vectorized", .module = "regtile", .experiment = &experiment_regtile,
	  .shape = SHAPE_TILES, .per_thread = 64, .min_block = 256, .max_block = 256,
	  .summary = N_("16-byte global loads; A transposed in shared memory, fragments read with LDS.128") },
	{ .name = "matmul_warptile", .module = "regtile", .experiment = &experiment_regtile,
	  .shape = SHAPE_TILES, .per_thread = 64, .min_block = 256, .max_block = 256,
	  .summary = N_("each warp owns a 32 x 64 piece of the tile: conflict-free 16-byte shared loads") },
	{ .name = "matmul_warptile_double_buffer", .module = "regtile", .experiment = &experiment_regtile,
	  .shape = SHAPE_TILES, .per_thread = 64, .min_block = 256, .max_block = 256,
	  .summary = N_("two shared buffers: the next tiles load while this one's are multiplied") },

	{ .name = "reduce_shared_strided", .module = "banks", .experiment = &experiment_reduce,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 64, .max_block = 1024,
	  .flags = KF_POW2_BLOCK | KF_PARTIALS,
	  .summary = N_("shared-memory tree, index = 2*i*tid: lanes 2*i words apart") },
	{ .name = "reduce_shared_sequential", .module = "banks", .experiment = &experiment_reduce,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 64, .max_block = 1024,
	  .flags = KF_POW2_BLOCK | KF_PARTIALS,
	  .summary = N_("shared-memory tree, s[tid] += s[tid + i]: consecutive words") },
	/* the sweep: the size is the number of threads, each reading 64 words */
	{ .name = "smem_stride_1", .module = "banks", .experiment = &experiment_smem_sweep,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .stride = 1,
	  .summary = N_("lane l reads word l + r: one bank per lane") },
	{ .name = "smem_stride_2", .module = "banks", .experiment = &experiment_smem_sweep,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .stride = 2,
	  .summary = N_("lane l reads word 2*l + r: 2-way bank conflicts") },
	{ .name = "smem_stride_4", .module = "banks", .experiment = &experiment_smem_sweep,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .stride = 4,
	  .summary = N_("lane l reads word 4*l + r: 4-way bank conflicts") },
	{ .name = "smem_stride_8", .module = "banks", .experiment = &experiment_smem_sweep,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .stride = 8,
	  .summary = N_("lane l reads word 8*l + r: 8-way bank conflicts") },
	{ .name = "smem_stride_16", .module = "banks", .experiment = &experiment_smem_sweep,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .stride = 16,
	  .summary = N_("lane l reads word 16*l + r: 16-way bank conflicts") },
	{ .name = "smem_stride_32", .module = "banks", .experiment = &experiment_smem_sweep,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .stride = 32,
	  .summary = N_("lane l reads word 32*l + r: every lane in one bank, 32-way") },
	{ .name = "smem_stride_32_padded", .module = "banks", .experiment = &experiment_smem_sweep,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .stride = 32, .padded = true,
	  .summary = N_("stride 32 in rows padded to 33 words: one bank per lane again") },
	{ .name = "smem_broadcast", .module = "banks", .experiment = &experiment_smem_sweep,
	  .shape = SHAPE_CHUNKS, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .stride = 0,
	  .summary = N_("every lane reads the same word: one broadcast") },

	/* occupancy: per = floats per thread (4 per float4 load) */
	{ .name = "stream_ilp1", .module = "occupancy", .experiment = &experiment_stream,
	  .shape = SHAPE_CHUNKS, .per_thread = 4, .min_block = 32, .max_block = 1024,
	  .summary = N_("y = 2x, one float4 load in flight per thread") },
	{ .name = "stream_ilp4", .module = "occupancy", .experiment = &experiment_stream,
	  .shape = SHAPE_CHUNKS, .per_thread = 16, .min_block = 32, .max_block = 1024,
	  .summary = N_("y = 2x, four float4 loads in flight per thread") },
	{ .name = "stream_ilp16", .module = "occupancy", .experiment = &experiment_stream,
	  .shape = SHAPE_CHUNKS, .per_thread = 64, .min_block = 32, .max_block = 512,
	  .summary = N_("y = 2x, sixteen float4 loads in flight: many registers") },
	{ .name = "stream_ilp16_capped", .module = "occupancy", .experiment = &experiment_stream,
	  .shape = SHAPE_CHUNKS, .per_thread = 64, .min_block = 32, .max_block = 256,
	  .summary = N_("stream_ilp16 under __launch_bounds__(256, 8): 32 registers, spills") },

	/*
	 * tensor cores: BF16 inputs, FP32 sums; the size is the matrix side
	 * (padded to a multiple of 256); block and shared memory come from
	 * the table in src/experiments/tensor.c
	 */
	{ .name = "tc_wmma_global", .module = "tensor", .experiment = &experiment_tensor,
	  .shape = SHAPE_TABLE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_SM80,
	  .summary = N_("WMMA: one warp per 16 x 16 tile of C, fragments loaded straight from global memory") },
	{ .name = "tc_wmma_global_wide", .module = "tensor", .experiment = &experiment_tensor,
	  .shape = SHAPE_TABLE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_SM80,
	  .summary = N_("control: step 3's 128 x 128 block of eight warps, fragments still loaded from global memory") },
	{ .name = "tc_wmma_shared", .module = "tensor", .experiment = &experiment_tensor,
	  .shape = SHAPE_TABLE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_SM80,
	  .summary = N_("WMMA from block tiles staged in shared memory with 16-byte loads") },
	{ .name = "tc_mma_ldmatrix_padded", .module = "tensor", .experiment = &experiment_tensor,
	  .shape = SHAPE_TABLE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_SM80,
	  .summary = N_("control: mma.sync and ldmatrix from step 3's padded tiles, not swizzled ones") },
	{ .name = "tc_mma_ldmatrix", .module = "tensor", .experiment = &experiment_tensor,
	  .shape = SHAPE_TABLE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_SM80,
	  .summary = N_("mma.sync m16n8k16, operands by ldmatrix from XOR-swizzled shared memory") },
	{ .name = "tc_mma_cp_async_one_stage", .module = "tensor", .experiment = &experiment_tensor,
	  .shape = SHAPE_TABLE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_SM80,
	  .summary = N_("control: step 5 with its copies made by cp.async, one stage, each waited for at once") },
	{ .name = "tc_mma_cp_async", .module = "tensor", .experiment = &experiment_tensor,
	  .shape = SHAPE_TABLE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_SM80,
	  .summary = N_("mma.sync fed by a 3-stage cp.async pipeline: copies overlap the math") },
	{ .name = "tc_mma_tma_one_stage", .module = "tensor_hopper", .experiment = &experiment_tensor,
	  .shape = SHAPE_TABLE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_SM90A,
	  .summary = N_("control: the one-stage control's tiles copied by the TMA, one mbarrier, waited for at once") },
	{ .name = "tc_mma_tma", .module = "tensor_hopper", .experiment = &experiment_tensor,
	  .shape = SHAPE_TABLE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_SM90A,
	  .summary = N_("control: the cp.async step with its copies made by the TMA, waited for on mbarriers") },
	{ .name = "tc_wgmma_narrow", .module = "tensor_hopper", .experiment = &experiment_tensor,
	  .shape = SHAPE_TABLE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_SM90A,
	  .summary = N_("control: the TMA control's block and tiles, multiplied by two warpgroups' wgmma") },
	{ .name = "tc_wgmma_one_warpgroup", .module = "tensor_hopper", .experiment = &experiment_tensor,
	  .shape = SHAPE_TABLE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_SM90A,
	  .summary = N_("control: the wgmma control's tiles and stages, multiplied by one warpgroup of 128 threads") },
	{ .name = "tc_wgmma_wide_tiles", .module = "tensor_hopper", .experiment = &experiment_tensor,
	  .shape = SHAPE_TABLE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_SM90A,
	  .summary = N_("control: one warpgroup on three stages of 64-wide tiles in the 128-byte swizzle") },
	{ .name = "tc_wgmma_tma", .module = "tensor_hopper", .experiment = &experiment_tensor,
	  .shape = SHAPE_TABLE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_SM90A,
	  .summary = N_("Hopper: TMA loads, an mbarrier, wgmma from shared memory; one consumer warpgroup") },
	{ .name = "tc_wgmma_pipelined", .module = "tensor_hopper", .experiment = &experiment_tensor,
	  .shape = SHAPE_TABLE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_SM90A,
	  .summary = N_("step 13 keeping one wgmma group in flight (wait_group 1) while a stage is refilled") },
	{ .name = "tc_wgmma_unspecialized", .module = "tensor_hopper", .experiment = &experiment_tensor,
	  .shape = SHAPE_TABLE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_SM90A,
	  .summary = N_("control: warp specialization's 128 x 256 tiles and three warpgroups, without the split") },
	{ .name = "tc_wgmma_warp_specialized", .module = "tensor_hopper", .experiment = &experiment_tensor,
	  .shape = SHAPE_TABLE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_SM90A,
	  .summary = N_("a producer warp issues TMA, two consumer warpgroups run wgmma on 128 x 256 tiles") },
	{ .name = "tc_wgmma_grouped", .module = "tensor_hopper", .experiment = &experiment_tensor,
	  .shape = SHAPE_TABLE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_SM90A,
	  .summary = N_("warp specialization with the blocks taking tiles down groups of 8 tile-rows, for L2") },
	{ .name = "tc_wgmma_persistent", .module = "tensor_hopper", .experiment = &experiment_tensor,
	  .shape = SHAPE_TABLE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_SM90A,
	  .summary = N_("one block per SM looping over tiles; its producer copies the next tile while the last is stored") },
	{ .name = "tc_wgmma_cluster", .module = "tensor_hopper", .experiment = &experiment_tensor,
	  .shape = SHAPE_TABLE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_SM90A,
	  .summary = N_("the persistent kernel in clusters of two blocks that share each tile of Bt by TMA multicast") },
	{ .name = "tc_wgmma_tma_store", .module = "tensor_hopper", .experiment = &experiment_tensor,
	  .shape = SHAPE_TABLE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_SM90A,
	  .summary = N_("the clusters' kernel with C written to shared memory and stored by the TMA, chunk by chunk") },
	{ .name = "tc_wgmma_last_wave", .module = "tensor_hopper", .experiment = &experiment_tensor,
	  .shape = SHAPE_TABLE, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .flags = KF_SM90A,
	  .summary = N_("the TMA-store kernel with the last wave's tiles cut narrower, so that every cluster has one") },
	{ .name = "cublas_gemm_bf16", .module = "cublas", .experiment = &experiment_tensor,
	  .shape = SHAPE_LIBRARY, .per_thread = 1, .min_block = 32, .max_block = 1024,
	  .summary = N_("the library: cuBLAS cublasGemmEx, BF16 inputs, FP32 compute") },
};

const int registry_kernel_count = (int)ARRAY_LEN(registry_kernels);

const struct kernel_def *registry_find(const char *name)
{
	for (int i = 0; i < registry_kernel_count; i++)
		if (strcmp(registry_kernels[i].name, name) == 0)
			return &registry_kernels[i];
	return NULL;
}

const char *registry_check_step(const struct kernel_def *k, unsigned long long size,
    unsigned int block, char *buf, size_t len)
{
	int pow2 = block != 0 && (block & (block - 1)) == 0;
	const struct experiment *x = k->experiment;

	/* a library, or a kernel of one block size that its experiment's table sets, takes any --block */
	if (!registry_is_library(k) && k->shape != SHAPE_TABLE && (block < k->min_block || block > k->max_block ||
	    ((k->flags & KF_POW2_BLOCK) && !pow2) || (block % 32) != 0)) {
		if (k->min_block == k->max_block)
			snprintf(buf, len, _("%s is written for blocks of exactly %u threads, not %u"),
			    k->name, k->min_block, block);
		else if (k->flags & KF_POW2_BLOCK)
			snprintf(buf, len, _("%s takes a block size that is a power of two from %u to %u, not %u"),
			    k->name, k->min_block, k->max_block, block);
		else
			snprintf(buf, len, _("%s takes a block size that is a multiple of 32 from %u to %u, not %u"),
			    k->name, k->min_block, k->max_block, block);
		return buf;
	}
	if (size == 0) {
		snprintf(buf, len, "%s", _("the size must be at least 1"));
		return buf;
	}
	if (size > x->max_size) {
		snprintf(buf, len, _("%s takes at most %llu %ss, not %llu: use a smaller --size"),
		    k->name, x->max_size, x->element, size);
		return buf;
	}
	return NULL;
}

const char *registry_check_gpu(const struct kernel_def *k, int cc_major, int cc_minor, char *buf,
    size_t len)
{
	/* sm_90a code runs on compute capability 9.0 and nowhere else, later GPUs included */
	if ((k->flags & KF_SM90A) && !(cc_major == 9 && cc_minor == 0)) {
		snprintf(buf, len, _("%s uses Hopper's wgmma and TMA (sm_90a): it runs on compute capability 9.0 only, not on this GPU's %d.%d"),
		    k->name, cc_major, cc_minor);
		return buf;
	}
	if ((k->flags & KF_SM80) && cc_major < 8) {
		snprintf(buf, len, _("%s needs BF16 tensor cores (compute capability 8.0 or newer), not this GPU's %d.%d"),
		    k->name, cc_major, cc_minor);
		return buf;
	}
	return NULL;
}

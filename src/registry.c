/* The one table of kernels: every kernel a lesson step can name. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "experiments/experiments.h"
#include "i18n.h"
#include "registry.h"

#define POW2 KF_POW2_BLOCK

/*
 * Adding a step: write the kernel in kernels/<module>.cu with a C name,
 * add its row here, and name it in a lesson.
 */
const struct kernel_def registry_kernels[] = {
	/* name                            module    experiment          shape              per  min  max  flags */
	{ "reduce_neighbored",            "reduce", &experiment_reduce, SHAPE_CHUNKS,       1, 64, 1024, POW2,
	  N_("neighbored pairs; tid % (2*stride) keeps most lanes idle") },
	{ "reduce_neighbored_less",       "reduce", &experiment_reduce, SHAPE_CHUNKS,       1, 64, 1024, POW2,
	  N_("neighbored pairs; active threads packed low (index = 2*stride*tid)") },
	{ "reduce_interleaved",           "reduce", &experiment_reduce, SHAPE_CHUNKS,       1, 64, 1024, POW2,
	  N_("interleaved pairs; stride from blockDim/2 down") },
	{ "reduce_unroll2",               "reduce", &experiment_reduce, SHAPE_CHUNKS,       2, 64, 1024, POW2,
	  N_("each block folds 2 chunks before the tree") },
	{ "reduce_unroll4",               "reduce", &experiment_reduce, SHAPE_CHUNKS,       4, 64, 1024, POW2,
	  N_("each block folds 4 chunks before the tree") },
	{ "reduce_unroll8",               "reduce", &experiment_reduce, SHAPE_CHUNKS,       8, 64, 1024, POW2,
	  N_("each block folds 8 chunks before the tree") },
	{ "reduce_unroll_warp8",          "reduce", &experiment_reduce, SHAPE_CHUNKS,       8, 64, 1024, POW2,
	  N_("unroll8 with the last warp unrolled (__syncwarp, not volatile luck)") },
	{ "reduce_complete_unroll_warp8", "reduce", &experiment_reduce, SHAPE_CHUNKS,       8, 64, 1024, POW2,
	  N_("unroll8, the whole tree written out for blocks up to 1024") },
	{ "reduce_complete_unroll_template", "reduce", &experiment_reduce, SHAPE_CHUNKS,    8, 64, 1024,
	  POW2 | KF_BLOCK_TEMPLATE,
	  N_("complete unroll with the block size a template parameter") },
	{ "reduce_warp_shuffle",          "reduce", &experiment_reduce, SHAPE_GRID_STRIDE,  8, 32, 1024, 0,
	  N_("grid-stride 16-byte loads, warp shuffles, one barrier") },
	{ "cub_device_reduce_sum",        "yardstick_cub", &experiment_reduce, SHAPE_LIBRARY, 1, 32, 1024,
	  KF_LIBRARY, N_("the library: CUB's cub::DeviceReduce::Sum") },

	{ "add_grid_stride_unroll1",      "vecadd", &experiment_vec_add, SHAPE_GRID_STRIDE, 1, 32, 1024, 0,
	  N_("z = x + y, grid-stride loop kept rolled with #pragma unroll 1") },
	{ "add_grid_stride",              "vecadd", &experiment_vec_add, SHAPE_GRID_STRIDE, 1, 32, 1024, 0,
	  N_("z = x + y, grid-stride loop as the compiler likes it") },
	{ "add_grid_stride_unroll4",      "vecadd", &experiment_vec_add, SHAPE_GRID_STRIDE, 1, 32, 1024, 0,
	  N_("z = x + y, grid-stride loop with #pragma unroll 4") },

	{ "vec_add_float",                  "vectorize", &experiment_vec_add, SHAPE_GRID_STRIDE, 1, 32, 1024, 0,
	  N_("z = x + y, one float (4 bytes) per access") },
	{ "vec_add_float2",                 "vectorize", &experiment_vec_add, SHAPE_GRID_STRIDE, 2, 32, 1024, 0,
	  N_("z = x + y, 2 floats (8 bytes) per access") },
	{ "vec_add_float4",                 "vectorize", &experiment_vec_add, SHAPE_GRID_STRIDE, 4, 32, 1024, 0,
	  N_("z = x + y, 4 floats (16 bytes) per access") },
	{ "vec_add_float8",                 "vectorize", &experiment_vec_add, SHAPE_GRID_STRIDE, 8, 32, 1024, 0,
	  N_("z = x + y, 8 floats (32 bytes) per access") },
	{ "vec_add_char",                   "vectorize", &experiment_vec_add_char, SHAPE_GRID_STRIDE, 1, 32, 1024, 0,
	  N_("z = x + y, one char (1 byte) per access") },
	{ "vec_add_char2",                  "vectorize", &experiment_vec_add_char, SHAPE_GRID_STRIDE, 2, 32, 1024, 0,
	  N_("z = x + y, 2 chars (2 bytes) per access") },
	{ "vec_add_char4",                  "vectorize", &experiment_vec_add_char, SHAPE_GRID_STRIDE, 4, 32, 1024, 0,
	  N_("z = x + y, 4 chars (4 bytes) per access") },
	{ "vec_add_char8",                  "vectorize", &experiment_vec_add_char, SHAPE_GRID_STRIDE, 8, 32, 1024, 0,
	  N_("z = x + y, 8 chars (8 bytes) per access") },
	{ "vec_add_half",                   "vectorize", &experiment_vec_add_half, SHAPE_GRID_STRIDE, 1, 32, 1024, 0,
	  N_("z = x + y, one half (2 bytes) per access") },
	{ "vec_add_half2",                  "vectorize", &experiment_vec_add_half, SHAPE_GRID_STRIDE, 2, 32, 1024, 0,
	  N_("z = x + y, 2 halves (4 bytes) per access") },
	{ "vec_add_half4",                  "vectorize", &experiment_vec_add_half, SHAPE_GRID_STRIDE, 4, 32, 1024, 0,
	  N_("z = x + y, 4 halves (8 bytes) per access") },
	{ "vec_add_half8",                  "vectorize", &experiment_vec_add_half, SHAPE_GRID_STRIDE, 8, 32, 1024, 0,
	  N_("z = x + y, 8 halves (16 bytes) per access") },
	{ "vec_add_int",                    "vectorize", &experiment_vec_add_int, SHAPE_GRID_STRIDE, 1, 32, 1024, 0,
	  N_("z = x + y, one int (4 bytes) per access") },
	{ "vec_add_int2",                   "vectorize", &experiment_vec_add_int, SHAPE_GRID_STRIDE, 2, 32, 1024, 0,
	  N_("z = x + y, 2 ints (8 bytes) per access") },
	{ "vec_add_int4",                   "vectorize", &experiment_vec_add_int, SHAPE_GRID_STRIDE, 4, 32, 1024, 0,
	  N_("z = x + y, 4 ints (16 bytes) per access") },
	{ "vec_add_int8",                   "vectorize", &experiment_vec_add_int, SHAPE_GRID_STRIDE, 8, 32, 1024, 0,
	  N_("z = x + y, 8 ints (32 bytes) per access") },

	{ "bitpack_global_shared",        "bitpack", &experiment_bitpack, SHAPE_CHUNKS,     1, 32, 1024,
	  KF_WRONG_BY_DESIGN, N_("all threads OR their flags into one word of global memory: a race") },
	{ "bitpack_block_shared",         "bitpack", &experiment_bitpack, SHAPE_CHUNKS,     1, 32, 1024,
	  KF_WRONG_BY_DESIGN, N_("a block's threads OR their flags into one word of shared memory: a race racecheck sees") },
	{ "bitpack_global_volatile",      "bitpack", &experiment_bitpack, SHAPE_CHUNKS,     1, 32, 1024, 0,
	  N_("each thread ORs into its own word, volatile: a load and a store per flag") },
	{ "bitpack_global_plain",         "bitpack", &experiment_bitpack, SHAPE_CHUNKS,     1, 32, 1024, 0,
	  N_("its own word without volatile: the compiler keeps it in a register") },
	{ "bitpack_register",             "bitpack", &experiment_bitpack, SHAPE_CHUNKS,     1, 32, 1024, 0,
	  N_("a local accumulator, one store per thread; the loop kept") },
	{ "bitpack_register_unrolled",    "bitpack", &experiment_bitpack, SHAPE_CHUNKS,     1, 32, 1024, 0,
	  N_("a local accumulator with the 32-flag loop unrolled") },

	{ "matmul_rows",                  "pitch",   &experiment_pitch,   SHAPE_CHUNKS,     1, 32, 1024, 0,
	  N_("C = A B, one element per thread, rows packed n floats apart") },
	{ "matmul_pitched",               "pitch",   &experiment_pitch,   SHAPE_CHUNKS,     1, 32, 1024, 0,
	  N_("C = A B, one element per thread, rows from cudaMallocPitch") },
	/* matmul: the size is the matrix dimension; per = outputs of C per thread */
	{ "matmul_naive",                 "matmul", &experiment_matmul, SHAPE_CHUNKS,       1, 32, 1024, 0,
	  N_("C = A * B, one thread per element, A and B from global memory") },
	{ "matmul_shared_a",              "matmul", &experiment_matmul, SHAPE_CHUNKS,       1, 32, 1024, 0,
	  N_("each warp stages its row of A in shared memory; __syncwarp") },
	{ "matmul_shared_ab",             "matmul", &experiment_matmul, SHAPE_CHUNKS,       1, 32, 1024, 0,
	  N_("A and B tiles in shared memory, the tiled loop over K; __syncthreads") },
	{ "matmul_tiled_4x",              "matmul", &experiment_matmul, SHAPE_CHUNKS,       4, 32, 1024, 0,
	  N_("the tiled loop with 4 outputs per thread: one B load feeds 4 multiply-adds") },
	{ "cublas_sgemm",                 "cublas", &experiment_matmul, SHAPE_LIBRARY,      1, 32, 1024,
	  KF_LIBRARY, N_("the library: cuBLAS cublasSgemm, plain FP32") },

	{ "reduce_shared_strided",        "banks",  &experiment_reduce, SHAPE_CHUNKS,       1, 64, 1024, POW2,
	  N_("shared-memory tree, index = 2*i*tid: lanes 2*i words apart") },
	{ "reduce_shared_sequential",     "banks",  &experiment_reduce, SHAPE_CHUNKS,       1, 64, 1024, POW2,
	  N_("shared-memory tree, s[tid] += s[tid + i]: consecutive words") },
	/* the sweep: the size is the number of threads, each reading 64 words */
	{ "smem_stride_1",                "banks",  &experiment_smem_sweep, SHAPE_CHUNKS,   1, 32, 1024, 0,
	  N_("lane l reads word l + r: one bank per lane") },
	{ "smem_stride_2",                "banks",  &experiment_smem_sweep, SHAPE_CHUNKS,   1, 32, 1024, 0,
	  N_("lane l reads word 2*l + r: 2-way bank conflicts") },
	{ "smem_stride_4",                "banks",  &experiment_smem_sweep, SHAPE_CHUNKS,   1, 32, 1024, 0,
	  N_("lane l reads word 4*l + r: 4-way bank conflicts") },
	{ "smem_stride_8",                "banks",  &experiment_smem_sweep, SHAPE_CHUNKS,   1, 32, 1024, 0,
	  N_("lane l reads word 8*l + r: 8-way bank conflicts") },
	{ "smem_stride_16",               "banks",  &experiment_smem_sweep, SHAPE_CHUNKS,   1, 32, 1024, 0,
	  N_("lane l reads word 16*l + r: 16-way bank conflicts") },
	{ "smem_stride_32",               "banks",  &experiment_smem_sweep, SHAPE_CHUNKS,   1, 32, 1024, 0,
	  N_("lane l reads word 32*l + r: every lane in one bank, 32-way") },
	{ "smem_stride_32_padded",        "banks",  &experiment_smem_sweep, SHAPE_CHUNKS,   1, 32, 1024, 0,
	  N_("stride 32 in rows padded to 33 words: one bank per lane again") },
	{ "smem_broadcast",               "banks",  &experiment_smem_sweep, SHAPE_CHUNKS,   1, 32, 1024, 0,
	  N_("every lane reads the same word: one broadcast") },

	/* occupancy: per = floats per thread (4 per float4 load) */
	{ "stream_ilp1",                  "occupancy", &experiment_stream, SHAPE_CHUNKS,    4, 32, 1024, 0,
	  N_("y = 2x, one float4 load in flight per thread") },
	{ "stream_ilp4",                  "occupancy", &experiment_stream, SHAPE_CHUNKS,   16, 32, 1024, 0,
	  N_("y = 2x, four float4 loads in flight per thread") },
	{ "stream_ilp16",                 "occupancy", &experiment_stream, SHAPE_CHUNKS,   64, 32,  512, 0,
	  N_("y = 2x, sixteen float4 loads in flight: many registers") },
	{ "stream_ilp16_capped",          "occupancy", &experiment_stream, SHAPE_CHUNKS,   64, 32,  256, 0,
	  N_("stream_ilp16 under __launch_bounds__(256, 8): 32 registers, spills") },
};

const int registry_kernel_count = (int)ARRAY_LEN(registry_kernels);

const struct kernel_def *registry_find(const char *name)
{
	for (int i = 0; i < registry_kernel_count; i++)
		if (strcmp(registry_kernels[i].name, name) == 0)
			return &registry_kernels[i];
	return NULL;
}

const char *registry_symbol(const struct kernel_def *k, unsigned int block, char *buf, size_t len)
{
	if (k->flags & KF_BLOCK_TEMPLATE)
		snprintf(buf, len, "%s_%u", k->name, block);
	else
		snprintf(buf, len, "%s", k->name);
	return buf;
}

const char *registry_check_block(const struct kernel_def *k, unsigned int block, char *buf,
    size_t len)
{
	int pow2 = block != 0 && (block & (block - 1)) == 0;

	if (block < k->min_block || block > k->max_block ||
	    ((k->flags & KF_POW2_BLOCK) && !pow2) || (block % 32) != 0) {
		if (k->flags & KF_POW2_BLOCK)
			snprintf(buf, len, _("%s takes a block size that is a power of two from %u to %u, not %u"),
			    k->name, k->min_block, k->max_block, block);
		else
			snprintf(buf, len, _("%s takes a block size that is a multiple of 32 from %u to %u, not %u"),
			    k->name, k->min_block, k->max_block, block);
		return buf;
	}
	return NULL;
}

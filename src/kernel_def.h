/* A kernel of the table: how it launches and which experiment runs it. */
#ifndef CUDATUTOR_KERNEL_DEF_H
#define CUDATUTOR_KERNEL_DEF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * The entry type alone, apart from registry.h's table: the experiments
 * read their kernel's entry, and the table names the experiments, so
 * both use this and neither the other.
 */
struct experiment;

enum launch_shape {
	SHAPE_CHUNKS,		/* grid = ceil(size / (block * per_thread)) */
	SHAPE_GRID_STRIDE,	/* grid = what fits on the GPU at once */
	/*
	 * A matrix of side size in square tiles, one block each: the tile's
	 * side is sqrt(block * per_thread), the grid ceil(size / side)^2.
	 */
	SHAPE_TILES,
	SHAPE_LIBRARY,		/* a library yardstick (CUB, cuBLAS), not a kernel of ours */
	/*
	 * Block, grid and dynamic shared memory from its experiment's own
	 * table (the tensor-core kernels): each is written for one block
	 * size, which --block does not change.
	 */
	SHAPE_TABLE,
};

enum kernel_flags {
	KF_POW2_BLOCK = 1 << 0,		/* block must be a power of two */
	KF_BLOCK_TEMPLATE = 1 << 1,	/* one exported kernel per block size: name_<block> */
	KF_WRONG_BY_DESIGN = 1 << 2,	/* the lesson shows its failure on purpose */
	KF_PARTIALS = 1 << 3,		/* leaves one partial sum per block for the host to add */
	KF_ONE_PASS = 1 << 4,		/* finishes the sum on the GPU: (in, partials, n, total, counter) */
	KF_SM90A = 1 << 5,		/* built for sm_90a alone (wgmma, TMA): runs on compute capability 9.0 only */
	KF_SM80 = 1 << 6,		/* BF16 tensor cores, cp.async: built for sm_80 and newer only */
	KF_PITCH_ARG = 1 << 7,		/* pitch: takes the rows' pitch in bytes last: (a, b, c, n, pitch) */
};

struct kernel_def {
	const char *name;		/* the C name in kernels/<module>.cu */
	const char *module;
	const struct experiment *experiment;
	enum launch_shape shape;
	unsigned int per_thread;	/* elements per thread, for SHAPE_CHUNKS and SHAPE_TILES */
	unsigned int min_block, max_block;
	unsigned int flags;
	const char *summary;		/* what the kernel is, in a few words */
	/* what only some experiments read */
	unsigned int stride;		/* smem_sweep: words between lanes (0: one word for all) */
	bool padded;			/* smem_sweep: rows of 33 words, not 32 */
	bool pitched;			/* pitch: rows from cudaMallocPitch */
};

/*
 * Does the kernel's time include the whole answer, finished in device
 * memory?  Not when it leaves partial sums for the host to add: it is then
 * not comparable with a library that finishes.
 */
static inline bool registry_is_complete(const struct kernel_def *k)
{
	return !(k->flags & KF_PARTIALS);
}

/* A library call (the lesson's yardstick), labelled as such. */
static inline bool registry_is_library(const struct kernel_def *k)
{
	return k->shape == SHAPE_LIBRARY;
}

/*
 * The exported symbol that runs k at this block size (differs from the
 * name only for KF_BLOCK_TEMPLATE kernels).  Writes into buf.
 */
static inline const char *registry_symbol(const struct kernel_def *k, unsigned int block, char *buf,
    size_t len)
{
	if (k->flags & KF_BLOCK_TEMPLATE)
		snprintf(buf, len, "%s_%u", k->name, block);
	else
		snprintf(buf, len, "%s", k->name);
	return buf;
}

#endif

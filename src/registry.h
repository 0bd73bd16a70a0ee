/* The one table of kernels: every kernel a lesson step can name. */
#ifndef CUDATUTOR_REGISTRY_H
#define CUDATUTOR_REGISTRY_H

#include <stdbool.h>

#include "experiment.h"

enum launch_shape {
	SHAPE_CHUNKS,		/* grid = ceil(size / (block * per_thread)) */
	SHAPE_GRID_STRIDE,	/* grid = what fits on the GPU at once */
	SHAPE_LIBRARY,		/* a library call, not one kernel of ours */
};

enum kernel_flags {
	KF_POW2_BLOCK = 1 << 0,		/* block must be a power of two */
	KF_BLOCK_TEMPLATE = 1 << 1,	/* one exported kernel per block size: name_<block> */
	KF_LIBRARY = 1 << 2,		/* a library yardstick, labelled as such */
	KF_WRONG_BY_DESIGN = 1 << 3,	/* the lesson shows its failure on purpose */
};

struct kernel_def {
	const char *name;		/* the C name in kernels/<module>.cu */
	const char *module;
	const struct experiment *experiment;
	enum launch_shape shape;
	unsigned int per_thread;	/* elements per thread, for SHAPE_CHUNKS */
	unsigned int min_block, max_block;
	unsigned int flags;
	const char *summary;		/* what the kernel is, in a few words */
};

extern const struct kernel_def registry_kernels[];
extern const int registry_kernel_count;

const struct kernel_def *registry_find(const char *name);

/*
 * The exported symbol that runs k at this block size (differs from the
 * name only for KF_BLOCK_TEMPLATE kernels).  Writes into buf.
 */
const char *registry_symbol(const struct kernel_def *k, unsigned int block, char *buf, size_t len);

/* NULL if block suits k, else why not (for the user, with the allowed values). */
const char *registry_check_block(const struct kernel_def *k, unsigned int block, char *buf,
    size_t len);

#endif

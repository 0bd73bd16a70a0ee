/* The one table of kernels: every kernel a lesson step can name. */
#ifndef CUDATUTOR_REGISTRY_H
#define CUDATUTOR_REGISTRY_H

#include <stdbool.h>

#include "experiment.h"
#include "kernel_def.h"

extern const struct kernel_def registry_kernels[];
extern const int registry_kernel_count;

const struct kernel_def *registry_find(const char *name);

/*
 * Whether kernel k runs at this size and block, as far as the table
 * knows (the GPU's free memory is measure_check_fits's): NULL if it does,
 * else why not, for the user, with the values it takes.  The one place
 * that decides it; every view asks here, through the session.
 */
const char *registry_check_step(const struct kernel_def *k, unsigned long long size,
    unsigned int block, char *buf, size_t len);

/*
 * Whether kernel k runs on a GPU of this compute capability: NULL if it
 * does, else why not, in one line (a step for sm_90a alone on another GPU).
 * Asked when a step is about to run: the lesson's other steps still run.
 */
const char *registry_check_gpu(const struct kernel_def *k, int cc_major, int cc_minor, char *buf,
    size_t len);

#endif

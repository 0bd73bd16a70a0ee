/* A lock on one GPU shared by processes: many may run kernels, one alone may time them. */
#ifndef CUDATUTOR_GPU_LOCK_H
#define CUDATUTOR_GPU_LOCK_H

#include <stdbool.h>

#include "util.h"

/*
 * class judges several submissions on one GPU at once: their answers and
 * their tools (compute-sanitizer, ncu) care nothing for time and may share
 * it, but a kernel being timed must have the GPU to itself.  The checks
 * class starts find the lock's path in CUDATUTOR_GPU_LOCK; a check started
 * any other way finds none, and every call below does nothing.
 *
 * Two files with flock(2): PATH.rw, held shared to run kernels and
 * exclusive to time them, and PATH.turn, a turnstile each process passes
 * before it asks for PATH.rw, which a process waiting to time holds, so
 * that checks arriving meanwhile queue behind it instead of starving it.
 * A process that dies lets its locks go with it.
 */

/*
 * Read CUDATUTOR_GPU_LOCK and take it out of the environment, so that the
 * processes this one starts (its tools, which run while it holds the lock)
 * never wait on it: 0, or -1 and e when its files cannot be opened.
 */
int gpu_lock_init(struct error *e);

/* Run kernels beside others (whatever was held is let go first). */
void gpu_lock_shared(void);

/* Have the GPU alone, to time (whatever was held is let go first). */
void gpu_lock_exclusive(void);

/* Hold nothing. */
void gpu_lock_release(void);

/* Whether this process was given a lock (CUDATUTOR_GPU_LOCK) */
bool gpu_lock_given(void);

#endif

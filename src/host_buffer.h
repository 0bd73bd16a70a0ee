/* Host buffers kept from one step to the next: page-locked, reused, and known by what they hold. */
#ifndef CUDATUTOR_HOST_BUFFER_H
#define CUDATUTOR_HOST_BUFFER_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

/*
 * At 2^28 elements a step copies gigabytes between host and GPU.  Into
 * fresh malloc'd memory the driver stages every page and the kernel
 * faults each one in: a gigabyte took most of a second.  Into
 * page-locked memory made once per run, the copy runs at the bus's speed.
 * And the steps of a lesson mostly share their inputs and reference, so a
 * buffer remembers what it holds and the next step skips remaking it.
 */
enum host_slot {
	HOST_RESULT,		/* a kernel's output, copied back for the check */
	HOST_INPUT_A,		/* inputs, filled on the host and copied up */
	HOST_INPUT_B,
	HOST_REFERENCE,		/* what the CPU (or the library) says the answer is */
	HOST_SCALE,		/* the matrix check's sums of magnitudes */
	HOST_SLOTS
};

/*
 * slot's buffer, at least bytes long, for what key names (for example
 * "vec_add float 16777216 x").  *ready is true when it already holds
 * exactly that, from an earlier step; false when the caller must fill it
 * now (the key is taken as filled on return: fill it before anything can
 * fail).  key NULL: scratch, never ready.  Page-locked where the driver
 * allows, else plain memory.  NULL, with e, when the host cannot hold it.
 */
void *host_buffer(enum host_slot slot, const char *key, size_t bytes, bool *ready,
    struct error *e);

/* What slot holds is no longer what its key says (it was written over). */
void host_buffer_forget(enum host_slot slot);

/* Every buffer freed: at the end of a run, so gigabytes are not held between runs. */
void host_buffers_release(void);

#endif

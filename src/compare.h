/* Two kernels compared: their SASS for one architecture, instruction mixes, resources and aligned diff. */
#ifndef CUDATUTOR_COMPARE_H
#define CUDATUTOR_COMPARE_H

#include <stdbool.h>

#include "inspect.h"
#include "sass.h"

/*
 * What `cudatutor diff` prints and the tutor's diff view draws, read once
 * from the build's files (no GPU): a is the kernel before, b after.
 */
struct compare {
	struct inspect_target a, b;
	char arch[16];
	char *text_a, *text_b;		/* inspect_sass() of each */
	struct sass_listing la, lb;
	struct sass_mix ma, mb;
	struct sass_diff diff;
	bool have_res;			/* both resource reports were read */
	struct kernel_resources ra, rb;
};

/* Narrower than this, the SASS goes in one column with - and + markers; from it on, side by side. */
#define COMPARE_SIDE_BY_SIDE_COLS 120

/* Find both kernels (by registry name or symbol) at this block size: -1 and e if one is unknown. */
int compare_resolve(struct compare *c, const char *name_a, const char *name_b, unsigned int block,
    struct error *e);
/* Read, count and align their SASS for arch: -1 and e (what is missing, how to get it). */
int compare_load(struct compare *c, const char *arch, struct error *e);
/*
 * a's SASS from the build against SASS made elsewhere: a student's kernel
 * that NVRTC compiled, text_b as inspect_sass() gives it, with its
 * resources when rb is not NULL.  b keeps the kernel it was resolved to,
 * for its name.  -1 and e when a's SASS is missing.
 */
int compare_load_text(struct compare *c, const char *arch, const char *text_b,
    const struct kernel_resources *rb, struct error *e);
void compare_free(struct compare *c);

#endif

/* What the compiler made of a kernel: source, PTX, SASS and resources. */
#ifndef CUDATUTOR_INSPECT_H
#define CUDATUTOR_INSPECT_H

#include "registry.h"
#include "util.h"

/*
 * Everything here reads files the build made beside each fatbin, so it
 * works without a GPU:
 *   kernels/<module>.cu    the source
 *   kernels/<module>.ptx   PTX for the fatbin's JIT architecture
 *   kernels/<module>.sass  cuobjdump -sass of the fatbin, every architecture
 *   kernels/<module>.res   ptxas -v: registers, shared memory, stack, spills
 */

/* A kernel by registry name or exported symbol (reduce_..._template_256). */
struct inspect_target {
	const struct kernel_def *kernel;
	char symbol[128];
};
int inspect_resolve(const char *name, unsigned int block, struct inspect_target *t,
    struct error *e);

/* The kernel's source with the __device__ helpers it calls, comments included. */
char *inspect_source(const struct inspect_target *t, struct error *e);
/* Extract the definition of symbol from CUDA source text (for tests). */
char *inspect_source_from_text(const char *text, const char *symbol);

char *inspect_ptx(const struct inspect_target *t, struct error *e);
char *inspect_ptx_from_text(const char *ptx, const char *symbol);

/* The architectures the module's fatbin carries SASS for, space-separated. */
char *inspect_sass_archs(const char *module, struct error *e);
/*
 * The architecture whose SASS a GPU of compute capability major.minor runs
 * from this module's fatbin: its own, else the newest of the same major
 * version that is not newer (binary compatibility).  -1 if the fatbin has
 * none: the driver then JIT-compiles the PTX, whose SASS cannot be shown.
 */
int inspect_arch_for(const char *module, int major, int minor, char *buf, size_t len,
    struct error *e);

/* SASS of one kernel for one architecture ("sm_90"), without encodings. */
char *inspect_sass(const struct inspect_target *t, const char *arch, struct error *e);
/* sass: cuobjdump -sass of a fatbin, or of a lone cubin ("code for sm_90"). */
char *inspect_sass_from_text(const char *sass, const char *symbol, const char *arch);
/*
 * The same listing of symbol from one cubin's nvdisasm -c (-gi) output:
 * its branch targets, labels there, as the addresses cuobjdump prints;
 * the line comments and the labels left out.  NULL when it has no such
 * function.
 */
char *inspect_sass_from_disasm(const char *text, const char *symbol);

/*
 * Source-line mapping, from kernels/<module>.lines (nvdisasm -gi of each
 * cubin): for each instruction of inspect_sass()'s listing, in order, the
 * line of kernels/<module>.cu it came from (through inlined helpers), or
 * 0 where it is not known.
 */
int inspect_sass_lines(const struct inspect_target *t, const char *arch, int **lines, int *count,
    struct error *e);
int inspect_sass_lines_from_text(const char *text, const char *symbol, const char *arch,
    const char *module, int **lines, int *count);

/*
 * The source as inspect_source() gives it, and for each of its lines the
 * line number in kernels/<module>.cu (0 for the blank line between parts).
 */
char *inspect_source_numbered(const struct inspect_target *t, int **lines, int *count,
    struct error *e);

struct kernel_resources {
	int registers, barriers;
	int shared_bytes, stack_bytes, spill_store_bytes, spill_load_bytes, local_bytes;
	int constant_bytes;
};
int inspect_resources(const struct inspect_target *t, const char *arch,
    struct kernel_resources *r, struct error *e);
int inspect_resources_from_text(const char *res, const char *symbol, const char *arch,
    struct kernel_resources *r);
/*
 * From "cuobjdump -res-usage" of one cubin ("Function sym:" then "REG:32
 * STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:556 ..."): it tells no barriers
 * nor spills, which stay 0.
 */
int inspect_resources_from_usage(const char *text, const char *symbol, struct kernel_resources *r);

#endif

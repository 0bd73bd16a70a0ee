/* A cubin made at run time, read as the built kernels are: its SASS, resources and source lines. */
#ifndef CUDATUTOR_CUBIN_H
#define CUDATUTOR_CUBIN_H

#include <stddef.h>

#include "inspect.h"
#include "util.h"

/*
 * The build reads its fatbins with cuobjdump and nvdisasm (see
 * Makefile.am); a cubin NVRTC made goes through the same two programs and
 * the same parsers in inspect.c.  They are found by toolkit_program().
 * They run without a shell, their output captured; nothing here needs a
 * GPU.
 */

/* Write the cubin to path (atomically). */
int cubin_write(const char *path, const unsigned char *data, size_t size, struct error *e);

/*
 * The SASS of symbol for arch ("sm_90") in the cubin at path, as
 * inspect_sass() gives a built kernel's: 0 and *sass, NULL when the cubin
 * has no such function; -1 and e when cuobjdump is missing or fails.
 */
int cubin_sass(const char *path, const char *symbol, const char *arch, char **sass, struct error *e);

/*
 * Its resources from cuobjdump -res-usage: 0 and r (*found 0 when the
 * cubin has no such function); -1 and e when cuobjdump is missing or fails.
 */
int cubin_resources(const char *path, const char *symbol, struct kernel_resources *r, int *found,
    struct error *e);

/*
 * For each instruction of cubin_sass()'s listing, the line of the source
 * file source_name (the name it was compiled under) it came from, or 0:
 * nvdisasm -gi, read as inspect_sass_lines() reads the build's.
 */
int cubin_lines(const char *path, const char *symbol, const char *arch, const char *source_name,
    int **lines, int *count, struct error *e);

/*
 * cubin_sass() and cubin_lines() from one nvdisasm -gi -c, half the time
 * of the two: 0 with *sass (NULL when the cubin has no such function) and
 * the lines (none, and why in no_lines, where the listing has no line
 * information); -1 and e when nvdisasm is missing or fails.
 */
int cubin_sass_and_lines(const char *path, const char *symbol, const char *arch, const char *source_name,
    char **sass, int **lines, int *count, struct error *no_lines, struct error *e);

/*
 * Run argv (argv[0] a path, or a name looked up on PATH) with no shell:
 * 0 with its output in *out and *status as from waitpid, or -1 and e when
 * it cannot be started or does not finish within timeout_s seconds.
 * What it writes to stderr goes to *err (err may be NULL).
 */
int cubin_run(char *const argv[], int timeout_s, char **out, char **err, int *status, struct error *e);

#endif

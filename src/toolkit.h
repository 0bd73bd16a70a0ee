/* Where the CUDA toolkit is: its programs, libraries and headers, found one way for every caller. */
#ifndef CUDATUTOR_TOOLKIT_H
#define CUDATUTOR_TOOLKIT_H

#include <stddef.h>

#include "util.h"

/*
 * The toolkit's roots, in the order they are searched: $CUDA_HOME,
 * $CUDA_ROOT, $CUDA_PATH, the one configure found (--with-cuda, else the
 * one nvcc came from), and the usual place; those set, each once.  Up to
 * max of them into roots (pointers into the environment or constants);
 * how many.
 */
#define TOOLKIT_MAX_ROOTS 5
int toolkit_roots(const char **roots, int max);

enum toolkit_program {
	TOOLKIT_CUOBJDUMP,
	TOOLKIT_NVDISASM,
	TOOLKIT_NCU,			/* Nsight Compute's command line */
	TOOLKIT_SANITIZER,		/* compute-sanitizer */
};

/*
 * A program's path, newly allocated.  Its variable when set ($CUOBJDUMP,
 * $NVDISASM, $NCU: a path, or a name looked up on the PATH), and then
 * only there; else where configure found it (cuobjdump, nvdisasm); else
 * on the PATH; else in bin/ under each root; else, for ncu, where Nsight
 * Compute installs itself (/opt/nvidia/nsight-compute/<version>/, or
 * beside a toolkit of another version), the newest.
 * NULL and e, the one message that says where to get it, when missing.
 */
char *toolkit_program(enum toolkit_program p, struct error *e);

enum toolkit_library {
	TOOLKIT_NVRTC,
	TOOLKIT_CUBLAS,
};

/*
 * dlopen a library of the toolkit, the newest name first (.so.13, .so.12,
 * .so): for NVRTC, $CUDATUTOR_NVRTC when set, and then only that; else on
 * the loader's path; else in lib64/ and lib/ under each root.  The
 * handle, with the file name loaded in name; NULL and e when missing.
 */
void *toolkit_library(enum toolkit_library l, char *name, size_t len, struct error *e);

/*
 * The directories NVRTC needs -I for, to find the toolkit's headers:
 * include/cccl (where CUDA 13 keeps CCCL: <cuda/std/...>, <cub/...>,
 * <thrust/...>) and include (<cooperative_groups.h>; CCCL too, up to CUDA
 * 12), under the toolkit the libnvrtc at library is in (a path, as
 * dladdr gives it; NULL: none), then under configure's.  Those that
 * exist, each once, as real paths: *count of them, newly allocated.
 */
char **toolkit_nvrtc_includes(const char *library, int *count);

#endif

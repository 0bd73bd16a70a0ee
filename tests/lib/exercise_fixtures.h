/* What the NVRTC and exercise tests share: the fixture kernels, and whether SASS can be read here. */
#ifndef CUDATUTOR_EXERCISE_FIXTURES_H
#define CUDATUTOR_EXERCISE_FIXTURES_H

#include <stdio.h>
#include <stdlib.h>

#include "cubin.h"
#include "paths.h"
#include "toolkit.h"
#include "util.h"

/* tests/fixtures/exercises/NAME in the source tree. */
static inline char *fixture_path(const char *name)
{
	char *rel = xasprintf("tests/fixtures/exercises/%s", name), *path = paths_source(rel);

	free(rel);
	return path;
}

/*
 * SASS checks need cuobjdump; without it they are skipped, not failed,
 * and the test program ends in SKIP (77), not PASS.
 */
static inline int have_cuobjdump(void)
{
	struct error e;
	char *tool = toolkit_program(TOOLKIT_CUOBJDUMP, &e);

	if (tool == NULL) {
		fprintf(stderr, "skip: %s\n", e.msg);
		return 0;
	}
	free(tool);
	return 1;
}

#endif

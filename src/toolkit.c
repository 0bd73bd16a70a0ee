/* Where the CUDA toolkit is: its programs, libraries and headers, found one way for every caller. */
#include "config.h"

#include <dlfcn.h>
#include <glob.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "i18n.h"
#include "toolkit.h"

/* Set by configure (Makefile.am passes the root; config.h the programs); empty where it found none. */
#ifndef CUDATUTOR_CUDA_ROOT
#define CUDATUTOR_CUDA_ROOT ""
#endif
#ifndef CUDATUTOR_CUOBJDUMP
#define CUDATUTOR_CUOBJDUMP ""
#endif
#ifndef CUDATUTOR_NVDISASM
#define CUDATUTOR_NVDISASM ""
#endif

/* Where a toolkit is when nothing says otherwise. */
#define USUAL_ROOT "/usr/local/cuda"

int toolkit_roots(const char **roots, int max)
{
	const char *candidates[] = {
		getenv("CUDA_HOME"), getenv("CUDA_ROOT"), getenv("CUDA_PATH"), CUDATUTOR_CUDA_ROOT, USUAL_ROOT,
	};
	int n = 0;

	for (size_t i = 0; i < ARRAY_LEN(candidates) && n < max; i++) {
		const char *r = candidates[i];
		bool seen = false;

		if (r == NULL || *r == '\0')
			continue;
		for (int j = 0; j < n && !seen; j++)
			seen = strcmp(roots[j], r) == 0;
		if (!seen)
			roots[n++] = r;
	}
	return n;
}

/* ---- programs ---------------------------------------------------------------- */

static const struct {
	const char *name;
	const char *variable;		/* the user's choice of it; NULL: none */
	const char *configured;		/* where configure found it; "" if it did not */
} programs[] = {
	[TOOLKIT_CUOBJDUMP] = { "cuobjdump", "CUOBJDUMP", CUDATUTOR_CUOBJDUMP },
	[TOOLKIT_NVDISASM] = { "nvdisasm", "NVDISASM", CUDATUTOR_NVDISASM },
	[TOOLKIT_NCU] = { "ncu", "NCU", "" },
	[TOOLKIT_SANITIZER] = { "compute-sanitizer", NULL, "" },
};

/* A program that can be run: executable, and not a directory. */
static bool runnable(const char *path)
{
	return access(path, X_OK) == 0 && !dir_exists(path);
}

static char *runnable_in(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);

	if (runnable(path))
		return path;
	free(path);
	return NULL;
}

/* The one search of the PATH for a program. */
static char *on_path(const char *name)
{
	const char *env = getenv("PATH");
	char *copy, *dir, *save = NULL, *found = NULL;

	if (env == NULL || *env == '\0')
		return NULL;
	copy = xstrdup(env);
	for (dir = strtok_r(copy, ":", &save); dir != NULL && found == NULL; dir = strtok_r(NULL, ":", &save))
		found = runnable_in(*dir ? dir : ".", name);
	free(copy);
	return found;
}

/* The newest of the paths a pattern matches, by version order. */
static char *newest_match(const char *pattern)
{
	glob_t g;
	char *best = NULL;

	if (glob(pattern, 0, NULL, &g) != 0)
		return NULL;
	for (size_t i = 0; i < g.gl_pathc; i++)
		if (runnable(g.gl_pathv[i]) && (best == NULL || strverscmp(g.gl_pathv[i], best) > 0))
			best = g.gl_pathv[i];
	best = best ? xstrdup(best) : NULL;
	globfree(&g);
	return best;
}

static void bad_variable(enum toolkit_program p, const char *value, struct error *e)
{
	if (p == TOOLKIT_NCU)
		error_set(e, _("NCU is set to '%s', which is not a program that can be run: set it to the path of Nsight Compute's ncu"),
		    value);
	else
		error_set(e, _("%s=%s is not a program that can be run: set it to the path of %s, or unset it"),
		    programs[p].variable, value, programs[p].name);
}

static void missing_program(enum toolkit_program p, struct error *e)
{
	switch (p) {
	case TOOLKIT_CUOBJDUMP:
		error_set(e, "%s", _("cuobjdump was not found: the exercises' SASS checks need it; install it "
		    "(the CUDA toolkit, or pip install nvidia-cuda-cuobjdump) or set CUOBJDUMP to its path"));
		break;
	case TOOLKIT_NVDISASM:
		error_set(e, "%s", _("nvdisasm was not found: mapping SASS to source lines needs it; install it "
		    "(the CUDA toolkit, or pip install nvidia-cuda-nvdisasm) or set NVDISASM to its path"));
		break;
	case TOOLKIT_NCU:
		error_set(e, "%s", _("Nsight Compute's ncu was not found (looked at $NCU, the PATH, $CUDA_HOME/bin, "
		    "/usr/local/cuda/bin and /opt/nvidia/nsight-compute): install Nsight Compute, which comes with the "
		    "CUDA toolkit (NVIDIA's CUDA repository has it as cuda-nsight-compute-13-0 and nsight-compute; "
		    "or https://developer.nvidia.com/nsight-compute), or set NCU to its path"));
		break;
	case TOOLKIT_SANITIZER:
		error_set(e, "%s", _("compute-sanitizer was not found (looked at the PATH, $CUDA_HOME/bin and "
		    "/usr/local/cuda/bin): it comes with the CUDA toolkit; install it, or put its directory on the PATH"));
		break;
	}
}

char *toolkit_program(enum toolkit_program p, struct error *e)
{
	const char *name = programs[p].name;
	const char *value = programs[p].variable ? getenv(programs[p].variable) : NULL;
	const char *roots[TOOLKIT_MAX_ROOTS];
	int nroots;
	char *path;

	if (value != NULL && *value != '\0') {
		if (strchr(value, '/') != NULL)
			path = runnable(value) ? xstrdup(value) : NULL;
		else
			path = on_path(value);
		if (path == NULL)
			bad_variable(p, value, e);
		return path;
	}
	if (programs[p].configured[0] != '\0' && runnable(programs[p].configured))
		return xstrdup(programs[p].configured);
	if ((path = on_path(name)) != NULL)
		return path;
	nroots = toolkit_roots(roots, TOOLKIT_MAX_ROOTS);
	for (int i = 0; i < nroots; i++) {
		char *bin = xasprintf("%s/bin", roots[i]);

		path = runnable_in(bin, name);
		free(bin);
		if (path != NULL)
			return path;
	}
	/* Nsight Compute installed on its own, or beside a toolkit that is not the usual one */
	if (p == TOOLKIT_NCU &&
	    ((path = newest_match("/opt/nvidia/nsight-compute/*/ncu")) != NULL ||
	    (path = newest_match(USUAL_ROOT "*/nsight-compute*/ncu")) != NULL ||
	    (path = newest_match(USUAL_ROOT "-*/bin/ncu")) != NULL))
		return path;
	missing_program(p, e);
	return NULL;
}

/* ---- libraries --------------------------------------------------------------- */

static const char *const library_names[][3] = {
	[TOOLKIT_NVRTC] = { "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so" },
	[TOOLKIT_CUBLAS] = { "libcublas.so.13", "libcublas.so.12", "libcublas.so" },
};

/*
 * The newest of the names in dir ("": on the loader's path), its name in
 * name; the loader's words for why the newest failed in why, if not NULL.
 */
static void *open_newest(const char *const *names, const char *dir, char *name, size_t len, char *why,
    size_t why_len)
{
	for (int i = 0; i < 3; i++) {
		char *path = xasprintf("%s%s%s", dir, *dir ? "/" : "", names[i]);
		void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);

		free(path);
		if (lib != NULL) {
			snprintf(name, len, "%s", names[i]);
			return lib;
		}
		if (i == 0 && why != NULL) {
			const char *text = dlerror();
			snprintf(why, why_len, "%s", text ? text : "");
		}
	}
	return NULL;
}

void *toolkit_library(enum toolkit_library l, char *name, size_t len, struct error *e)
{
	const char *env = l == TOOLKIT_NVRTC ? getenv("CUDATUTOR_NVRTC") : NULL;
	const char *roots[TOOLKIT_MAX_ROOTS];
	char why[256] = "";
	int nroots;
	void *lib;

	if (env != NULL && *env != '\0') {
		if ((lib = dlopen(env, RTLD_NOW | RTLD_LOCAL)) != NULL) {
			snprintf(name, len, "%s", env);
			return lib;
		}
		const char *text = dlerror();

		error_set(e, _("CUDATUTOR_NVRTC=%s cannot be loaded (%s): set it to the path of libnvrtc.so, or unset it"),
		    env, text ? text : "");
		return NULL;
	}
	if ((lib = open_newest(library_names[l], "", name, len, why, sizeof why)) != NULL)
		return lib;
	nroots = toolkit_roots(roots, TOOLKIT_MAX_ROOTS);
	for (int r = 0; r < nroots; r++)
		for (int sub = 0; sub < 2; sub++) {
			char *dir = xasprintf("%s/%s", roots[r], sub == 0 ? "lib64" : "lib");

			lib = open_newest(library_names[l], dir, name, len, NULL, 0);
			free(dir);
			if (lib != NULL)
				return lib;
		}
	if (l == TOOLKIT_NVRTC)
		error_set(e, "%s", _("NVRTC (libnvrtc.so) was not found: install the CUDA toolkit's NVRTC, "
		    "or set CUDATUTOR_NVRTC to its path"));
	else
		error_set(e, _("cuBLAS not found: no libcublas.so.13, libcublas.so.12 or libcublas.so could be loaded (%s); "
		    "install cuBLAS from the CUDA toolkit or add its directory to LD_LIBRARY_PATH"), why);
	return NULL;
}

/* ---- headers ----------------------------------------------------------------- */

static void include_add(char ***dirs, int *count, const char *root, const char *sub)
{
	char *dir = xasprintf("%s/%s", root, sub), *real = realpath(dir, NULL);

	free(dir);
	if (real == NULL || !dir_exists(real)) {
		free(real);
		return;
	}
	for (int i = 0; i < *count; i++)
		if (strcmp((*dirs)[i], real) == 0) {
			free(real);
			return;
		}
	*dirs = xrealloc(*dirs, (size_t)(*count + 1) * sizeof **dirs);
	(*dirs)[(*count)++] = real;
}

char **toolkit_nvrtc_includes(const char *library, int *count)
{
	const char *configured = CUDATUTOR_CUDA_ROOT;
	char **dirs = NULL;

	*count = 0;
	if (library != NULL && strchr(library, '/') != NULL) {
		char *root = realpath(library, NULL), *slash;

		/* <root>/lib64/libnvrtc.so.13: the root is two levels up */
		for (int up = 0; root != NULL && up < 2 && (slash = strrchr(root, '/')) != NULL; up++)
			*slash = '\0';
		if (root != NULL && root[0] != '\0') {
			include_add(&dirs, count, root, "include/cccl");
			include_add(&dirs, count, root, "include");
		}
		free(root);
	}
	if (configured[0] != '\0') {
		include_add(&dirs, count, configured, "include/cccl");
		include_add(&dirs, count, configured, "include");
	}
	return dirs;
}

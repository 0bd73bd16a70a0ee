/* Where the tutor finds its lessons, kernels and recorded results. */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "paths.h"
#include "util.h"

static char *source_root;
static char *build_root;

static char *exe_dir(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	char *slash;

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (slash == NULL)
		return NULL;
	*slash = '\0';
	return xstrdup(buf);
}

static int has_lessons(const char *root)
{
	char *p = xasprintf("%s/lessons/en", root);
	int ok = dir_exists(p);

	free(p);
	return ok;
}

void paths_init(void)
{
	const char *env_src = getenv("CUDATUTOR_SRCDIR");
	const char *env_build = getenv("CUDATUTOR_BUILDDIR");
	char *dir;

	if (source_root != NULL)
		return;

	dir = exe_dir();
	if (env_build != NULL && *env_build != '\0') {
		build_root = xstrdup(env_build);
	} else if (dir != NULL) {
		/* A build tree: the fatbins sit in kernels/ beside the program. */
		char *probe = xasprintf("%s/kernels/measure.fatbin", dir);
		if (file_exists(probe))
			build_root = xstrdup(dir);
		free(probe);
	}
	if (build_root == NULL)
		build_root = xstrdup(PKGDATADIR);

	if (env_src != NULL && *env_src != '\0')
		source_root = xstrdup(env_src);
	else if (strcmp(build_root, PKGDATADIR) == 0)
		source_root = xstrdup(PKGDATADIR);
	else if (has_lessons(ABS_TOP_SRCDIR))
		source_root = xstrdup(ABS_TOP_SRCDIR);
	else {
		/* A build tree copied elsewhere: in-tree, or one level down. */
		char *parent = xasprintf("%s/..", build_root);
		source_root = has_lessons(parent) ? parent : xstrdup(build_root);
		if (source_root != parent)
			free(parent);
	}
	free(dir);
	/* "/src/build/.." reads badly in messages */
	{
		char resolved[PATH_MAX];
		if (realpath(source_root, resolved) != NULL) {
			free(source_root);
			source_root = xstrdup(resolved);
		}
	}
}

const char *paths_source_root(void)
{
	paths_init();
	return source_root;
}

static const char *paths_build_root(void)
{
	paths_init();
	return build_root;
}

char *paths_source(const char *rel)
{
	return xasprintf("%s/%s", paths_source_root(), rel);
}

char *paths_build(const char *rel)
{
	return xasprintf("%s/%s", paths_build_root(), rel);
}

const char *paths_locale_dir(void)
{
	static char *dir;

	if (dir == NULL) {
		char *built = paths_build("locale");
		/* Installed, the build root is the data directory: its catalogs are in LOCALEDIR. */
		if (strcmp(paths_build_root(), PKGDATADIR) != 0 && dir_exists(built)) {
			dir = built;
		} else {
			free(built);
			dir = xstrdup(LOCALEDIR);
		}
	}
	return dir;
}

static char *xdg_dir(const char *var, const char *fallback)
{
	const char *v = getenv(var);
	const char *home = getenv("HOME");

	/* The spec says: relative paths are invalid and must be ignored. */
	if (v != NULL && v[0] == '/')
		return xasprintf("%s/cudatutor", v);
	if (home == NULL || home[0] == '\0')
		home = "/tmp";
	return xasprintf("%s/%s/cudatutor", home, fallback);
}

char *paths_state_dir(void)
{
	return xdg_dir("XDG_STATE_HOME", ".local/state");
}

char *paths_cache_dir(void)
{
	return xdg_dir("XDG_CACHE_HOME", ".cache");
}

char *paths_data_dir(void)
{
	return xdg_dir("XDG_DATA_HOME", ".local/share");
}

char *paths_config_dir(void)
{
	return xdg_dir("XDG_CONFIG_HOME", ".config");
}

static char *figure_path(const char *name)
{
	char *dir = paths_cache_dir();
	char *path = xasprintf("%s/%s", dir, name);

	free(dir);
	return path;
}

int paths_gpu_figure_read(const char *name, const char *uuid, const char *driver, double *value)
{
	char *path = figure_path(name);
	FILE *f = fopen(path, "r");
	char u[64], d[64];
	double v;
	int found = 0;

	free(path);
	if (f == NULL)
		return 0;
	while (fscanf(f, "%63s %63s %lf", u, d, &v) == 3)
		if (strcmp(u, uuid) == 0 && strcmp(d, driver) == 0 && v > 0) {
			*value = v;
			found = 1;
		}
	fclose(f);
	return found;
}

void paths_gpu_figure_write(const char *name, const char *uuid, const char *driver, double value)
{
	char *path = figure_path(name), *dir = paths_cache_dir();
	char *old = file_read(path, NULL);
	struct strbuf b = { 0 };
	struct error ignored;

	if (old != NULL)
		for (char *line = strtok(old, "\n"); line != NULL; line = strtok(NULL, "\n"))
			if (strncmp(line, uuid, strlen(uuid)) != 0)
				strbuf_addf(&b, "%s\n", line);
	strbuf_addf(&b, "%s %s %.3f\n", uuid, driver, value);
	if (mkdir_p(dir, &ignored) == 0)
		file_write_atomic(path, b.s, b.len, &ignored);
	strbuf_free(&b);
	free(old);
	free(path);
	free(dir);
}

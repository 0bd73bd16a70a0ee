/* Exercises: the student writes a step's kernel; the tutor compiles it and checks its SASS. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cubin.h"
#include "exercise.h"
#include "i18n.h"
#include "paths.h"
#include "registry.h"
#include "sass.h"

/* ---- the list ---------------------------------------------------------------- */

int exercise_list(const struct lesson_set *set, const struct progress *p, struct exercise_entry **out)
{
	struct exercise_entry *list = xcalloc((size_t)exercise_def_count + 1, sizeof *list);

	for (int i = 0; i < exercise_def_count; i++) {
		struct exercise_entry *x = &list[i];

		x->def = &exercise_defs[i];
		x->lesson = set != NULL ? lesson_find(set, x->def->lesson) : NULL;
		if (x->lesson != NULL && x->lesson->error == NULL)
			x->section = lesson_find_exercise(x->lesson, x->def->id);
		x->progress = p != NULL ? progress_find_exercise(p, x->def->id) : NULL;
	}
	*out = list;
	return exercise_def_count;
}

const struct exercise_def *exercise_lookup(const char *id, struct error *e)
{
	const struct exercise_def *def = exercise_def_find(id);
	struct strbuf known = { 0 };

	if (def != NULL)
		return def;
	for (int i = 0; i < exercise_def_count; i++)
		strbuf_addf(&known, "%s%s", i ? ", " : "", exercise_defs[i].id);
	error_set(e, _("unknown exercise '%s': the exercises are %s"), id, known.s ? known.s : "");
	strbuf_free(&known);
	return NULL;
}

/* ---- files --------------------------------------------------------------------- */

char *exercise_dir(const char *dir)
{
	char *data, *path;

	if (dir != NULL)
		return xstrdup(dir);
	data = paths_data_dir();
	path = xasprintf("%s/exercises", data);
	free(data);
	return path;
}

char *exercise_working_path(const char *dir, const char *id)
{
	char *d = exercise_dir(dir), *path = xasprintf("%s/%s.cu", d, id);

	free(d);
	return path;
}

char *exercise_starting_path(const char *id)
{
	char *rel = xasprintf("kernels/exercises/%s.cu", id), *path = paths_source(rel);

	free(rel);
	return path;
}

char *exercise_solution_path(const char *id)
{
	char *rel = xasprintf("kernels/exercises/%s.solution.cu", id), *path = paths_source(rel);

	free(rel);
	return path;
}

/* One of the tutor's own files, or NULL and e. */
static char *read_ours(const char *path, struct error *e)
{
	char *text = file_read(path, NULL);

	if (text == NULL)
		error_set(e, _("cannot read %s (%s): run make (or reinstall)"), path, strerror(errno));
	return text;
}

char *exercise_solution(const char *id, struct error *e)
{
	char *path, *text;

	if (exercise_lookup(id, e) == NULL)
		return NULL;
	path = exercise_solution_path(id);
	text = read_ours(path, e);
	free(path);
	return text;
}

/* Make path with this content; 0, 1 when it exists already (left alone), -1 and e. */
static int create_new(const char *path, const char *text, struct error *e)
{
	size_t len = strlen(text), done = 0;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0) {
		if (errno == EEXIST)
			return 1;
		error_set(e, _("cannot create %s: %s"), path, strerror(errno));
		return -1;
	}
	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			error_set(e, _("cannot write %s: %s"), path, n < 0 ? strerror(errno) : _("nothing written"));
			close(fd);
			unlink(path);
			return -1;
		}
		done += (size_t)n;
	}
	if (fsync(fd) != 0 || close(fd) != 0) {
		error_set(e, _("cannot write %s: %s"), path, strerror(errno));
		unlink(path);
		return -1;
	}
	return 0;
}

char *exercise_start(const char *dir, const char *id, bool *created, struct error *e)
{
	char *d, *path, *start, *text;
	int rc;

	if (created != NULL)
		*created = false;
	if (exercise_lookup(id, e) == NULL)
		return NULL;
	d = exercise_dir(dir);
	path = xasprintf("%s/%s.cu", d, id);
	if (file_exists(path)) {
		free(d);
		return path;
	}
	rc = mkdir_p(d, e);
	free(d);
	start = exercise_starting_path(id);
	text = rc == 0 ? read_ours(start, e) : NULL;
	free(start);
	if (text == NULL) {
		free(path);
		return NULL;
	}
	/* never over the student's file, even one that appeared just now */
	rc = create_new(path, text, e);
	free(text);
	if (rc < 0) {
		free(path);
		return NULL;
	}
	if (created != NULL)
		*created = rc == 0;
	return path;
}

/*
 * One more than the highest numbered backup of name in d (name.~N~, as
 * GNU cp --backup=numbered names them), so that a backup the student
 * removed is not filled in by a newer one.
 */
static int next_backup(const char *d, const char *name)
{
	size_t len = strlen(name);
	struct dirent *ent;
	DIR *dh = opendir(d);
	long high = 0;

	while (dh != NULL && (ent = readdir(dh)) != NULL) {
		const char *n = ent->d_name;
		char *end;
		long k;

		if (strncmp(n, name, len) != 0 || strncmp(n + len, ".~", 2) != 0 ||
		    !isdigit((unsigned char)n[len + 2]))
			continue;
		errno = 0;
		k = strtol(n + len + 2, &end, 10);
		if (errno == 0 && strcmp(end, "~") == 0 && k > high && k < INT_MAX)
			high = k;
	}
	if (dh != NULL)
		closedir(dh);
	return (int)high + 1;
}

/* Keep path as its next numbered backup, never over one there: the backup's path, or NULL and e. */
static char *keep_backup(const char *d, const char *id, const char *path, struct error *e)
{
	char *name = xasprintf("%s.cu", id);
	int k = next_backup(d, name);

	free(name);
	for (;; k++) {
		char *backup = xasprintf("%s.~%d~", path, k);
		struct stat st;

		/* a link fails rather than replace a file; the working copy stays until the new one is in */
		if (link(path, backup) == 0)
			return backup;
		if (errno == EEXIST || lstat(backup, &st) == 0) {
			free(backup);
			continue;
		}
		/* a file system without links: a rename, to a name not taken */
		if (errno == ENOENT && rename(path, backup) == 0)
			return backup;
		error_set(e, _("cannot keep %s as %s (%s): it is left as it was"), path, backup, strerror(errno));
		free(backup);
		return NULL;
	}
}

int exercise_reset(const char *dir, const char *id, char **backup, struct error *e)
{
	char *d, *path, *start, *text, *mine;
	size_t len;
	int rc;

	*backup = NULL;
	if (exercise_lookup(id, e) == NULL)
		return -1;
	start = exercise_starting_path(id);
	text = read_ours(start, e);
	free(start);
	if (text == NULL)
		return -1;
	d = exercise_dir(dir);
	path = xasprintf("%s/%s.cu", d, id);
	mine = file_read(path, &len);
	if (mine == NULL && errno != ENOENT) {
		error_set(e, _("cannot read %s (%s): it is left as it was"), path, strerror(errno));
		rc = -1;
	} else if (mine != NULL && len == strlen(text) && memcmp(mine, text, len) == 0) {
		rc = EXERCISE_RESET_UNTOUCHED;	/* nothing of the student's to keep, and nothing to do */
	} else if (mkdir_p(d, e) != 0) {
		rc = -1;
	} else if (mine != NULL && (*backup = keep_backup(d, id, path, e)) == NULL) {
		rc = -1;
	} else {
		rc = file_write_atomic(path, text, strlen(text), e) != 0 ? -1 :
		    mine != NULL ? EXERCISE_RESET_KEPT : EXERCISE_RESET_MADE;
	}
	if (rc < 0) {
		free(*backup);
		*backup = NULL;
	}
	free(mine);
	free(text);
	free(d);
	free(path);
	return rc;
}

/* ---- compiling -------------------------------------------------------------------- */

void exercise_result_free(struct exercise_result *r)
{
	nvrtc_result_free(&r->nvrtc);
	free(r->path);
	free(r->diagnostics);
	free(r->problem);
	free(r->ptx);
	free(r->cubin_path);
	free(r->sass);
	free(r->sass_error);
	free(r->lines);
	free(r->lines_error);
	memset(r, 0, sizeof *r);
}

/*
 * The parameters of .entry symbol by type alone, ".u64 .u64 .u64 .u32":
 * what the launch must pass, whatever the names, const or __restrict__
 * (which PTX does not keep).  NULL when ptx has no such entry.
 */
static char *entry_params(const char *ptx, const char *symbol)
{
	char *entry = inspect_ptx_from_text(ptx, symbol);
	const char *open, *close;
	struct strbuf b = { 0 };

	if (entry == NULL)
		return NULL;
	open = strchr(entry, '(');
	close = open != NULL ? strchr(open, ')') : NULL;
	for (const char *q = open ? strstr(open, ".param") : NULL; q != NULL && q < close;
	    q = strstr(q + 6, ".param")) {
		size_t n = strcspn(q + 6, ",)\n");
		char *decl = xasprintf("%.*s", (int)n, q + 6), *save = NULL, *type = NULL, *name = NULL;

		for (char *tok = strtok_r(decl, " \t", &save); tok != NULL; tok = strtok_r(NULL, " \t", &save)) {
			if (strcmp(tok, ".align") == 0)
				strtok_r(NULL, " \t", &save);
			else if (tok[0] == '.' && type == NULL && strcmp(tok, ".ptr") != 0)
				type = tok;
			else if (tok[0] != '.')
				name = tok;
		}
		strbuf_addf(&b, "%s%s%s", b.len ? " " : "", type ? type : "?",
		    name && strchr(name, '[') ? strchr(name, '[') : "");
		free(decl);
	}
	free(entry);
	return b.s ? b.s : xstrdup("");
}

/*
 * Does the student's kernel take what the target takes?  Compared with
 * the build's PTX of the target; where that cannot be read, it passes.
 */
static int same_params(const char *ptx, const struct exercise_def *def)
{
	const struct kernel_def *k = registry_find(def->target);
	char *rel, *path, *ours, *theirs = NULL, *mine = NULL;
	int same = 1;

	if (k == NULL)
		return 1;
	rel = xasprintf("kernels/%s.ptx", k->module);
	path = paths_build(rel);
	ours = file_read(path, NULL);
	if (ours != NULL && (theirs = entry_params(ours, def->target)) != NULL) {
		mine = entry_params(ptx, def->target);
		same = mine != NULL && strcmp(mine, theirs) == 0;
	}
	free(rel);
	free(path);
	free(ours);
	free(theirs);
	free(mine);
	return same;
}

/* The exercise a file is, by its name: "vec4.cu", "vec4.solution.cu". */
static const struct exercise_def *def_of_file(const char *path, struct error *e)
{
	const char *base = strrchr(path, '/');
	char *id;
	size_t n;
	const struct exercise_def *def;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 12 && strcmp(base + n - 12, ".solution.cu") == 0)
		n -= 12;
	else if (n > 3 && strcmp(base + n - 3, ".cu") == 0)
		n -= 3;
	id = xasprintf("%.*s", (int)n, base);
	def = exercise_def_find(id);
	if (def == NULL) {
		struct error why;

		exercise_lookup(id, &why);
		error_set(e, _("cannot tell which exercise %s is: name it <exercise>.cu (%s)"), path, why.msg);
	}
	free(id);
	return def;
}

static int compile_file(const struct exercise_def *def, const char *path, const char *arch,
    const char *dir, bool read_sass, struct exercise_result *r, struct error *e);

static int compile_working(const char *dir, const char *id_or_path, const char *arch, bool read_sass,
    struct exercise_result *r, struct error *e)
{
	const struct exercise_def *def;
	char *path, *d;
	int rc;

	memset(r, 0, sizeof *r);
	if (strchr(id_or_path, '/') != NULL || strstr(id_or_path, ".cu") != NULL) {
		if ((def = def_of_file(id_or_path, e)) == NULL)
			return -1;
		return compile_file(def, id_or_path, arch, dir, read_sass, r, e);
	}
	if ((def = exercise_lookup(id_or_path, e)) == NULL)
		return -1;
	path = exercise_working_path(dir, def->id);
	if (!file_exists(path)) {
		char *command = dir != NULL ? xasprintf("cudatutor exercise %s --dir %s", def->id, dir) :
		    xasprintf("cudatutor exercise %s", def->id);

		error_set(e, _("exercise '%s' has no working copy yet (%s): start the exercise first: %s"), def->id,
		    path, command);
		free(command);
		free(path);
		return -1;
	}
	d = exercise_dir(dir);
	rc = compile_file(def, path, arch, d, read_sass, r, e);
	free(d);
	free(path);
	return rc;
}

/*
 * Where the cubin of source goes: <dir>/<name>.<arch>.cubin beside the
 * working copies; with dir NULL (a file checked where it is, with --file)
 * <cache>/cubins/<name>-<hash of its full path>.<arch>.cubin, so that
 * nothing is written into the exercises' folder or beside the file (which
 * may be another's, or read-only), and two files of one name do not
 * share a cubin.  NULL and e when that directory cannot be made.
 */
static char *cubin_path_for(const char *dir, const char *source, const char *arch, struct error *e)
{
	const char *base = strrchr(source, '/');
	char *d, *path, *full;
	size_t n;
	uint32_t hash = 2166136261u;

	base = base ? base + 1 : source;
	n = strlen(base);
	if (n > 3 && strcmp(base + n - 3, ".cu") == 0)
		n -= 3;
	if (dir != NULL) {
		if (mkdir_p(dir, e) != 0)
			return NULL;
		return xasprintf("%s/%.*s.%s.cubin", dir, (int)n, base, arch);
	}
	full = realpath(source, NULL);
	for (const char *p = full != NULL ? full : source; *p != '\0'; p++)
		hash = (hash ^ (unsigned char)*p) * 16777619u;	/* FNV-1a */
	free(full);
	path = paths_cache_dir();
	d = xasprintf("%s/cubins", path);
	free(path);
	if (mkdir_p(d, e) != 0) {
		free(d);
		return NULL;
	}
	path = xasprintf("%s/%.*s-%08x.%s.cubin", d, (int)n, base, (unsigned)hash, arch);
	free(d);
	return path;
}

/* The line map of a cubin, read beside its SASS (see read_cubin). */
struct lines_job {
	const char *cubin, *symbol, *arch, *source;
	int *lines, nlines, rc;
	struct error why;
};

static void *read_lines(void *p)
{
	struct lines_job *j = p;

	j->rc = cubin_lines(j->cubin, j->symbol, j->arch, j->source, &j->lines, &j->nlines, &j->why);
	return NULL;
}

/*
 * The SASS, resources and source lines of r's cubin.  nvdisasm takes
 * about half a second a call, and the SASS and the line map are one call
 * each: the line map is read in a thread of its own, so that a check (and
 * a save in check --watch) waits for one call, not two.
 */
static void read_cubin(const struct exercise_def *def, struct exercise_result *r, const char *arch,
    const char *source)
{
	struct lines_job job = { r->cubin_path, def->target, arch, source, NULL, 0, 0, { "" } };
	pthread_t t;
	bool threaded;
	struct error why;
	int found;

	/* one nvdisasm for both, where it can; else cuobjdump and nvdisasm side by side */
	if (cubin_sass_and_lines(r->cubin_path, def->target, arch, source, &r->sass, &r->lines, &r->nlines,
	    &job.why, &why) == 0) {
		if (r->sass == NULL)
			r->sass_error = xasprintf(_("%s has no SASS for %s"), r->cubin_path, def->target);
		else if (cubin_resources(r->cubin_path, def->target, &r->resources, &found, &why) == 0)
			r->have_resources = found;
		if (r->sass != NULL && job.why.msg[0] != '\0')
			r->lines_error = xstrdup(job.why.msg);
		return;
	}
	threaded = pthread_create(&t, NULL, read_lines, &job) == 0;
	if (!threaded)
		read_lines(&job);
	if (cubin_sass(r->cubin_path, def->target, arch, &r->sass, &why) != 0)
		r->sass_error = xstrdup(why.msg);
	else if (r->sass == NULL)
		r->sass_error = xasprintf(_("%s has no SASS for %s"), r->cubin_path, def->target);
	else if (cubin_resources(r->cubin_path, def->target, &r->resources, &found, &why) == 0)
		r->have_resources = found;
	if (threaded)
		pthread_join(t, NULL);
	if (r->sass == NULL) {
		free(job.lines);	/* no SASS: no lines to map either, as before */
		return;
	}
	r->lines = job.lines;
	r->nlines = job.nlines;
	if (job.rc != 0)
		r->lines_error = xstrdup(job.why.msg);
}

char *exercise_read_source(const char *path, size_t *len, struct error *e)
{
	/* O_NONBLOCK: opening a pipe must not wait for a writer before it is refused */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct strbuf b = { 0 };
	struct stat st;
	char chunk[65536];

	if (fd < 0) {
		error_set(e, _("cannot read %s (%s)"), path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0) {
		error_set(e, _("cannot read %s (%s)"), path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (S_ISDIR(st.st_mode) || !S_ISREG(st.st_mode)) {
		error_set(e, S_ISDIR(st.st_mode) ? _("%s is a directory: give the path of the .cu file with your kernel") :
		    _("%s is not a regular file (a device, a pipe or a socket): give the path of the .cu file with "
		    "your kernel"), path);
		close(fd);
		return NULL;
	}
	for (;;) {
		ssize_t n = (unsigned long long)st.st_size > EXERCISE_MAX_SOURCE || b.len > EXERCISE_MAX_SOURCE ? 0 :
		    read(fd, chunk, sizeof chunk);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error_set(e, _("cannot read %s (%s)"), path, strerror(errno));
			close(fd);
			strbuf_free(&b);
			return NULL;
		}
		if (n == 0)
			break;
		strbuf_add(&b, chunk, (size_t)n);
	}
	close(fd);
	if ((unsigned long long)st.st_size > EXERCISE_MAX_SOURCE || b.len > EXERCISE_MAX_SOURCE) {
		error_set(e, _("%s is %llu bytes, more than a kernel's source (at most %u MiB): give the .cu file "
		    "with your kernel"), path, (unsigned long long)(b.len > (size_t)st.st_size ? b.len :
		    (size_t)st.st_size), EXERCISE_MAX_SOURCE >> 20);
		strbuf_free(&b);
		return NULL;
	}
	if (b.s == NULL)
		b.s = xcalloc(1, 1);
	if (len != NULL)
		*len = b.len;
	return b.s;
}

/*
 * A NUL byte at text[at]: NVRTC takes the source as a C string and would
 * stop reading there without a word.  It is the compile's one error, at
 * its line and column, the line shown up to it.
 */
static void nul_byte_error(struct exercise_result *r, const char *path, const char *text, size_t at)
{
	struct nvrtc_diag *d = xcalloc(1, sizeof *d);
	size_t start = 0;
	int line = 1;

	for (size_t i = 0; i < at; i++)
		if (text[i] == '\n') {
			line++;
			start = i + 1;
		}
	d->severity = NVRTC_DIAG_ERROR;
	d->file = xstrdup(path);
	d->line = line;
	d->column = (int)(at - start) + 1;
	d->message = xstrdup(_("a NUL byte (\\x00) in the source, where the compiler would stop reading: delete it "
	    "(a .cu file is text)"));
	d->source_line = xasprintf("%.*s", (int)(at - start), text + start);
	r->nvrtc.errors.count = 1;
	r->nvrtc.errors.d = d;
	r->nvrtc.log = xstrdup("");
}

int exercise_compile(const char *dir, const char *id_or_path, const char *arch, struct exercise_result *r,
    struct error *e)
{
	return compile_working(dir, id_or_path, arch, true, r, e);
}

int exercise_build(const char *dir, const char *id_or_path, const char *arch, struct exercise_result *r,
    struct error *e)
{
	return compile_working(dir, id_or_path, arch, false, r, e);
}

int exercise_compile_file(const struct exercise_def *def, const char *path, const char *arch,
    const char *dir, struct exercise_result *r, struct error *e)
{
	return compile_file(def, path, arch, dir, true, r, e);
}

int exercise_build_file(const struct exercise_def *def, const char *path, const char *arch,
    const char *dir, struct exercise_result *r, struct error *e)
{
	return compile_file(def, path, arch, dir, false, r, e);
}

const char *exercise_arch(const struct exercise_def *def, const char *arch)
{
	const struct kernel_def *target = registry_find(def->target);

	return target != NULL && (target->flags & KF_SM90A) ? "sm_90a" : arch;
}

void exercise_read_sass(struct exercise_result *r)
{
	if (r->cubin_path != NULL && r->sass == NULL && r->sass_error == NULL)
		read_cubin(r->def, r, r->arch, r->path);
}

/* Read before the student's file: blockIdx from the other end; #line keeps the file's own line numbers. */
static const char reversed_blocks_prelude[] =
    "static __device__ __forceinline__ uint3 cudatutor_reversed_block_idx(void)\n"
    "{\n"
    "    uint3 b;\n"
    "    b.x = gridDim.x - 1 - blockIdx.x;\n"
    "    b.y = gridDim.y - 1 - blockIdx.y;\n"
    "    b.z = gridDim.z - 1 - blockIdx.z;\n"
    "    return b;\n"
    "}\n"
    "#define blockIdx (cudatutor_reversed_block_idx())\n"
    "#line 1\n";

int exercise_build_reversed(const struct exercise_result *r, struct nvrtc_result *out, struct error *e)
{
	char *text, *whole;
	size_t len = 0;
	int rc;

	memset(out, 0, sizeof *out);
	if ((text = exercise_read_source(r->path, &len, e)) == NULL)
		return -1;
	whole = xasprintf("%s%s", reversed_blocks_prelude, text);
	free(text);
	rc = nvrtc_compile(whole, r->path, r->arch, out, e);
	free(whole);
	if (rc != 0)
		return -1;
	if (!out->ok || out->cubin == NULL) {
		char *said = nvrtc_format_diags(&out->errors);

		exercise_first_error(said, e->msg, sizeof e->msg);
		free(said);
		nvrtc_result_free(out);
		return -1;
	}
	return 0;
}

static int compile_file(const struct exercise_def *def, const char *path, const char *arch,
    const char *dir, bool read_sass, struct exercise_result *r, struct error *e)
{
	char *text, *errors, *warnings, *nul;
	size_t len = 0;

	memset(r, 0, sizeof *r);
	r->def = def;
	r->path = xstrdup(path);
	arch = exercise_arch(def, arch);
	snprintf(r->arch, sizeof r->arch, "%s", arch);
	if ((text = exercise_read_source(path, &len, e)) == NULL)
		return -1;
	if ((nul = memchr(text, '\0', len)) != NULL) {
		nul_byte_error(r, path, text, (size_t)(nul - text));
		free(text);
		r->diagnostics = nvrtc_format_diags(&r->nvrtc.errors);
		return 0;
	}
	r->compile_seconds = now_seconds();
	if (nvrtc_compile(text, path, arch, &r->nvrtc, e) != 0) {
		free(text);
		return -1;
	}
	r->compile_seconds = now_seconds() - r->compile_seconds;
	free(text);
	errors = nvrtc_format_diags(&r->nvrtc.errors);
	warnings = nvrtc_format_diags(&r->nvrtc.warnings);
	r->diagnostics = xasprintf("%s%s", errors, warnings);
	free(errors);
	free(warnings);
	if (!r->nvrtc.ok)
		return 0;
	r->ok = true;

	r->ptx = inspect_ptx_from_text(r->nvrtc.ptx, def->target);
	if (r->ptx == NULL) {
		r->problem = xasprintf(_("%s defines no kernel %s: kernels must keep the name %s and its parameters, "
		    "declared extern \"C\" __global__"), path, def->target, def->target);
		return 0;
	}
	if (!same_params(r->nvrtc.ptx, def))
		r->problem = xasprintf(_("%s takes other parameters than the tutor's %s: kernels must keep the name "
		    "%s and its parameters"), path, def->target, def->target);

	if ((r->cubin_path = cubin_path_for(dir, path, arch, e)) == NULL)
		return -1;
	if (cubin_write(r->cubin_path, r->nvrtc.cubin, r->nvrtc.cubin_size, e) != 0)
		return -1;
	if (read_sass)
		read_cubin(def, r, arch, path);
	return 0;
}

/* ---- checking ----------------------------------------------------------------------- */

/*
 * Does an instruction count as op for a check?  As {{count}} matches
 * (sass_opcode_matches), and then as the check means it, however the
 * student wrote it: a generic load, store or atomic (LD, ST, ATOM: through
 * a pointer the compiler cannot prove global) may reach global memory, so
 * it counts as LDG, STG or ATOMG of the same width; a barrier that also
 * reduces (BAR.RED: __syncthreads_or, _and, _count) is a barrier, so it
 * counts as BAR.SYNC.  Alternatives are written "USHF.L|SHF.L".
 */
static bool judge_matches(const char *opcode, const char *op)
{
	static const struct { const char *is, *counts_as; } same[] = {
		{ "LD", "LDG" }, { "ST", "STG" }, { "ATOM", "ATOMG" }, { "BAR.RED", "BAR.SYNC" },
	};
	char as[96];

	for (size_t i = 0; i < ARRAY_LEN(same); i++)
		if (sass_opcode_matches(opcode, same[i].is) && strlen(opcode) < sizeof as - 8) {
			snprintf(as, sizeof as, "%s%s", same[i].counts_as, opcode + strlen(same[i].is));
			opcode = as;
			break;
		}
	for (const char *alt = op; alt != NULL;) {
		const char *bar = strchr(alt, '|');
		size_t n = bar != NULL ? (size_t)(bar - alt) : strlen(alt);
		char one[64];

		snprintf(one, sizeof one, "%.*s", (int)n, alt);
		if (sass_opcode_matches(opcode, one))
			return true;
		alt = bar != NULL ? bar + 1 : NULL;
	}
	return false;
}

/*
 * Which instructions are in a loop: those from a backward branch's target
 * to the branch (the listing's final self-branch, which only stops the
 * fetcher, is no loop).  in[i] for instruction i.
 */
static void mark_loops(const struct sass_listing *l, bool *in)
{
	memset(in, 0, (size_t)l->count * sizeof *in);
	for (int i = 0; i < l->count; i++) {
		const struct sass_insn *b = &l->insns[i];
		const char *hex = NULL;
		unsigned long target;

		if (strcmp(b->base, "BRA") != 0)
			continue;
		/* the target is the last hex number of the operands: "@!P1 BRA 0x100", "BRA.U !UP0, 0x2d0" */
		for (const char *q = strstr(b->text, "0x"); q != NULL && q < b->text + b->text_len; q = strstr(q + 2, "0x"))
			if (q > b->text && q[-1] != '*')	/* not the address comment before the opcode */
				hex = q;
		if (hex == NULL)
			continue;
		target = strtoul(hex, NULL, 16);
		if (target >= b->addr)
			continue;
		for (int j = 0; j <= i; j++)
			if (l->insns[j].addr >= target)
				in[j] = true;
	}
}

/* Index of the first instruction that counts as op, or l->count. */
static int first_of(const struct sass_listing *l, const char *op)
{
	int i = 0;

	while (i < l->count && !judge_matches(l->insns[i].opcode, op))
		i++;
	return i;
}

/* Instructions that count as op among [from, to), only those in a loop where loop is not NULL. */
static int count_in(const struct sass_listing *l, const char *op, int from, int to, const bool *loop)
{
	int n = 0;

	for (int i = from; i < to && i < l->count; i++)
		n += (loop == NULL || loop[i]) && judge_matches(l->insns[i].opcode, op);
	return n;
}

/* Bytes one thread moves with a memory instruction, by its width: .128 16, .64 8, .U8 1, ... */
static int access_bytes(const char *opcode)
{
	static const struct { const char *part; int bytes; } widths[] = {
		{ ".128", 16 }, { ".64", 8 }, { ".U8", 1 }, { ".S8", 1 }, { ".U16", 2 }, { ".S16", 2 },
	};

	for (size_t i = 0; i < ARRAY_LEN(widths); i++) {
		const char *at = strstr(opcode, widths[i].part);
		size_t n = strlen(widths[i].part);

		if (at != NULL && (at[n] == '\0' || at[n] == '.'))
			return widths[i].bytes;
	}
	return 4;
}

/*
 * The share (in %) of the bytes moved by what counts as other that is
 * moved by what counts as op: each instruction weighted by its width and
 * by how many threads ran it (counts), or once where counts is NULL.
 * 100 when nothing counts as other.
 */
static int byte_share(const struct sass_listing *l, const double *counts, int ncounts, const char *op,
    const char *other)
{
	double all = 0, part = 0;

	for (int i = 0; i < l->count; i++) {
		double bytes;

		if (!judge_matches(l->insns[i].opcode, other))
			continue;
		bytes = access_bytes(l->insns[i].opcode) * (counts == NULL ? 1.0 : i < ncounts ? counts[i] : 0.0);
		all += bytes;
		if (judge_matches(l->insns[i].opcode, op))
			part += bytes;
	}
	return all > 0 ? (int)(100.0 * part / all) : 100;
}

/*
 * How often the PTX of the target's entry loads its parameter number
 * (from 1): "[symbol_param_<number - 1>" followed by "]" or "+".  The
 * compiler drops the load of a parameter whose value is never used, and
 * PTX names parameters alike on every architecture, as SASS offsets are not.
 */
static int param_loads(const char *ptx, const char *symbol, int number)
{
	char *name = xasprintf("[%s_param_%d", symbol, number - 1);
	size_t len = strlen(name);
	int n = 0;

	for (const char *p = ptx ? strstr(ptx, name) : NULL; p != NULL; p = strstr(p + len, name))
		n += p[len] == ']' || p[len] == '+';
	free(name);
	return n;
}

void exercise_judge_dram(const struct exercise_check *c, const struct exercise_result *r,
    struct exercise_check_outcome *o)
{
	unsigned long long sizes[EXERCISE_DRAM_SIZES];

	exercise_dram_sizes(c, sizes);
	o->hint = false;
	o->found = 0;
	for (int k = 0; k < EXERCISE_DRAM_SIZES; k++)
		o->hint |= !(r->dram_ours[k] > 0);
	for (int k = 0; !o->hint && k < EXERCISE_DRAM_SIZES; k++) {
		/* in whole percent, rounded up: a kernel just past the bound is not let through */
		int pct = (int)ceil(100.0 * r->dram_yours[k] / r->dram_ours[k] - 1e-9);

		if (k > 0 && pct <= o->found)
			continue;
		o->found = pct;
		o->size = sizes[k];
		o->bytes[0] = r->dram_yours[k];
		o->bytes[1] = r->dram_ours[k];
	}
	o->passed = o->hint || o->found <= c->n;
}

int exercise_check_sass(const struct exercise_def *def, const struct exercise_result *r,
    struct exercise_verdict *v, struct error *e)
{
	struct sass_listing l;
	bool *loops;

	memset(v, 0, sizeof *v);
	if (!r->ok) {
		error_set(e, _("%s did not compile: fix its errors first"), r->path ? r->path : def->id);
		return -1;
	}
	if (r->problem != NULL) {
		error_set(e, "%s", r->problem);
		return -1;
	}
	if (r->sass == NULL) {
		error_set(e, "%s", r->sass_error ? r->sass_error : _("the kernel has no SASS to check"));
		return -1;
	}
	sass_parse(r->sass, &l);
	loops = xcalloc((size_t)l.count + 1, sizeof *loops);
	mark_loops(&l, loops);
	v->passed = true;
	for (int i = 0; i < EXERCISE_MAX_CHECKS && def->checks[i].kind != CHECK_END; i++) {
		const struct exercise_check *c = &def->checks[i];
		struct exercise_check_outcome *o = &v->checks[v->count++];
		const bool *where = c->in_loop ? loops : NULL;
		int at;

		o->check = c;
		o->message = c->message ? _(c->message) : "";
		switch (c->kind) {
		case CHECK_AT_LEAST:
			o->found = count_in(&l, c->op, 0, l.count, where);
			o->passed = o->found >= c->n;
			break;
		case CHECK_AT_MOST:
			o->found = count_in(&l, c->op, 0, l.count, where);
			o->passed = o->found <= c->n;
			break;
		case CHECK_BEFORE:
			at = c->other ? first_of(&l, c->other) : l.count;
			o->found = count_in(&l, c->op, 0, at, where);
			o->passed = o->found >= c->n;
			break;
		case CHECK_NONE_AFTER:
			at = c->other ? first_of(&l, c->other) : l.count;
			o->found = count_in(&l, c->op, at + 1, l.count, where);
			o->passed = o->found == 0;
			break;
		case CHECK_MAX_REGISTERS:
			if (!r->have_resources) {
				error_set(e, _("no register count for %s in %s: cuobjdump -res-usage did not report it"),
				    def->target, r->cubin_path ? r->cubin_path : r->path);
				sass_listing_free(&l);
				free(loops);
				return -1;
			}
			o->found = r->resources.registers;
			o->passed = o->found <= c->n;
			break;
		case CHECK_READS_PARAM:
			o->found = param_loads(r->ptx, def->target, c->n);
			o->passed = o->found >= 1;
			break;
		case CHECK_SHARE:
			o->found = byte_share(&l, r->sass_counts, r->nsass_counts, c->op, c->other);
			o->hint = r->sass_counts == NULL;
			o->passed = o->hint || o->found >= c->n;
			break;
		case CHECK_DRAM_READS:
			exercise_judge_dram(c, r, o);
			break;
		case CHECK_END:
			break;
		}
		if (!o->passed)
			v->passed = false;
	}
	sass_listing_free(&l);
	free(loops);
	return 0;
}

const struct exercise_check *exercise_dram_check(const struct exercise_def *def)
{
	for (int i = 0; i < EXERCISE_MAX_CHECKS && def->checks[i].kind != CHECK_END; i++)
		if (def->checks[i].kind == CHECK_DRAM_READS)
			return &def->checks[i];
	return NULL;
}

const struct exercise_check_outcome *exercise_dram_judged(const struct exercise_verdict *v)
{
	for (int i = 0; i < v->count; i++)
		if (v->checks[i].check->kind == CHECK_DRAM_READS && !v->checks[i].hint)
			return &v->checks[i];
	return NULL;
}

void exercise_dram_sizes(const struct exercise_check *c, unsigned long long sizes[EXERCISE_DRAM_SIZES])
{
	sizes[0] = c->size - 256;
	sizes[1] = c->size;
}

void exercise_verdict_tally(const struct exercise_verdict *v, int *passed, int *judged)
{
	*passed = *judged = 0;
	for (int i = 0; i < v->count; i++)
		if (!v->checks[i].hint) {
			(*judged)++;
			*passed += v->checks[i].passed;
		}
}

bool exercise_op_is_valid(const char *op)
{
	char *all = xstrdup(op), *save = NULL;
	bool ok = op[0] != '\0' && op[strlen(op) - 1] != '|' && strstr(op, "||") == NULL;

	for (char *one = strtok_r(all, "|", &save); ok && one != NULL; one = strtok_r(NULL, "|", &save))
		ok = lesson_is_opcode(one);
	free(all);
	return ok;
}

void exercise_check_describe(const struct exercise_check_outcome *o, char *buf, size_t len)
{
	const struct exercise_check *c = o->check;
	unsigned long long sizes[EXERCISE_DRAM_SIZES];

	switch (c->kind) {
	case CHECK_AT_LEAST:
		snprintf(buf, len, _("%s: at least %d, found %d"), c->op, c->n, o->found);
		break;
	case CHECK_AT_MOST:
		snprintf(buf, len, _("%s: at most %d, found %d"), c->op, c->n, o->found);
		break;
	case CHECK_BEFORE:
		snprintf(buf, len, _("%s before the first %s: at least %d, found %d"), c->op,
		    c->other ? c->other : "-", c->n, o->found);
		break;
	case CHECK_NONE_AFTER:
		snprintf(buf, len, _("%s after the first %s: none, found %d"), c->op,
		    c->other ? c->other : "-", o->found);
		break;
	case CHECK_MAX_REGISTERS:
		snprintf(buf, len, _("registers: at most %d, found %d"), c->n, o->found);
		break;
	case CHECK_READS_PARAM:
		snprintf(buf, len, _("loads of parameter %d (PTX ld.param): at least 1, found %d"), c->n,
		    o->found);
		break;
	case CHECK_SHARE:
		if (o->hint)
			/* what the compiled code alone would say is no share of bytes moved: not shown */
			snprintf(buf, len, _("%s: at least %d%% of the %s bytes, judged as it runs on a GPU"), c->op,
			    c->n, c->other);
		else
			snprintf(buf, len, _("%s: at least %d%% of the %s bytes as it ran, found %d%%"), c->op, c->n,
			    c->other, o->found);
		break;
	case CHECK_DRAM_READS:
		exercise_dram_sizes(c, sizes);
		if (o->hint)
			snprintf(buf, len, _("device-memory reads at n = %llu and %llu: at most %d%% of ours, judged as it "
			    "runs on a GPU"), sizes[0], sizes[1], c->n);
		else
			snprintf(buf, len, _("device-memory reads at n = %llu and %llu: at most %d%% of ours, found %d%% at "
			    "%llu (%.2f GB against %.2f GB)"), sizes[0], sizes[1], c->n, o->found, o->size,
			    o->bytes[0] / 1e9, o->bytes[1] / 1e9);
		break;
	default:
		snprintf(buf, len, "%s", "");
		break;
	}
}

/* ---- hints --------------------------------------------------------------------------- */

const char *exercise_next_hint(struct progress *p, const struct lesson_exercise *section, int *number)
{
	struct progress_exercise *x = progress_exercise(p, section->id);

	if (x->hints_shown >= section->nhints) {
		*number = section->nhints;
		return NULL;
	}
	*number = ++x->hints_shown;
	return section->hints[*number - 1];
}

void exercise_first_error(const char *diagnostics, char *buf, size_t len)
{
	const char *p = diagnostics != NULL ? diagnostics : "", *pick = p;
	size_t pick_n = strcspn(p, "\n");

	for (const char *line = p; *line != '\0';) {
		size_t n = strcspn(line, "\n");

		snprintf(buf, len, "%.*s", (int)n, line);
		if (strstr(buf, ": error") != NULL) {
			pick = line;
			pick_n = n;
			break;
		}
		line += n + (line[n] == '\n');
	}
	snprintf(buf, len, "%.*s", (int)pick_n, pick);
}

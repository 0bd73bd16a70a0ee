/* A kernel handed in: the file's format, its checks, and the hash that names its source. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <nettle/sha2.h>

#include "exercise.h"
#include "i18n.h"
#include "paths.h"
#include "progress.h"
#include "submission.h"

/* The length of the UTF-8 sequence at s (of n bytes), or 0 when it is not one. */
static size_t utf8_length(const unsigned char *s, size_t n)
{
	size_t k;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		k = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		k = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		k = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (k > n)
		return 0;
	for (size_t i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* no overlong forms, no surrogates, nothing past U+10FFFF */
	if ((k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	/* C1 controls (U+0080..U+009F) are escapes too, to some terminals */
	if (cp >= 0x80 && cp <= 0x9f)
		return 0;
	return k;
}

int submission_name_check(const char *name, struct error *e)
{
	size_t n = strlen(name);

	if (n == 0) {
		error_set(e, "%s", _("the name is empty: give your name as your teacher's class list has it"));
		return -1;
	}
	if (n > SUBMISSION_MAX_NAME) {
		error_set(e, _("the name is %zu bytes long: at most %d, as your teacher's class list has it"), n,
		    SUBMISSION_MAX_NAME);
		return -1;
	}
	for (size_t i = 0; i < n;) {
		const unsigned char *c = (const unsigned char *)name + i;
		size_t k;

		if (*c < 0x20 || *c == 0x7f) {
			error_set(e, _("the name has a control byte (0x%02x) at byte %zu: give it in plain letters"), *c,
			    i + 1);
			return -1;
		}
		if (*c == '/' || *c == '\\') {
			error_set(e, _("the name has a '%c': a name is not a path; give it in plain letters"), *c);
			return -1;
		}
		if ((k = utf8_length(c, n - i)) == 0) {
			error_set(e, _("the name is not UTF-8 text (byte %zu): give it in plain letters"), i + 1);
			return -1;
		}
		i += k;
	}
	return 0;
}

void submission_sha256(const void *data, size_t len, char hex[65])
{
	struct sha256_ctx ctx;
	uint8_t digest[SHA256_DIGEST_SIZE];

	sha256_init(&ctx);
	sha256_update(&ctx, len, data);
	sha256_digest(&ctx, sizeof digest, digest);
	for (int i = 0; i < SHA256_DIGEST_SIZE; i++)
		snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}

int submission_exercise_version(const char *id, char out[17], struct error *e)
{
	char *path = exercise_starting_path(id), *text;
	char hex[65];
	size_t len;

	if (path == NULL || (text = file_read(path, &len)) == NULL) {
		error_set(e, _("cannot read the starting file of exercise '%s' (%s)"), id,
		    path != NULL ? strerror(errno) : _("no such exercise"));
		free(path);
		return -1;
	}
	submission_sha256(text, len, hex);
	snprintf(out, 17, "%.16s", hex);
	free(text);
	free(path);
	return 0;
}

char *submission_to_text(const struct submission *s)
{
	json_t *j = json_pack("{s:s, s:i, s:s, s:s, s:s, s:s, s:s, s:s%, s:s}",
	    "format", SUBMISSION_FORMAT, "version", SUBMISSION_VERSION,
	    "exercise", s->exercise, "exercise_version", s->exercise_version, "name", s->name,
	    "submitted", s->submitted, "tutor", s->tutor, "source", s->source, s->len, "sha256", s->sha256);
	char *text;

	json_object_set_new(j, "student_check", s->student_gpu[0] || s->student_passed ?
	    json_pack("{s:b, s:o, s:s, s:s}", "passed", s->student_passed,
	    "best_ms", s->student_best_ms > 0 ? json_real(s->student_best_ms) : json_null(),
	    "gpu", s->student_gpu, "note", "information only: the class judges the kernel again") : json_null());
	text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(j);
	return text;
}

/* The file's bytes, if it is a regular file of a sane size that stays as it was while read. */
static char *read_whole(const char *path, size_t *len, bool *changed, struct error *e)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat before, after;
	char *buf;
	size_t got = 0;

	if (fd < 0) {
		error_set(e, _("cannot read it (%s)"), strerror(errno));
		return NULL;
	}
	if (fstat(fd, &before) != 0 || !S_ISREG(before.st_mode)) {
		error_set(e, "%s", _("not a regular file"));
		close(fd);
		return NULL;
	}
	if ((unsigned long long)before.st_size > SUBMISSION_MAX_FILE) {
		error_set(e, _("%lld bytes: a submission is at most %u MiB"), (long long)before.st_size,
		    SUBMISSION_MAX_FILE >> 20);
		close(fd);
		return NULL;
	}
	buf = xmalloc((size_t)before.st_size + 1);
	while (got < (size_t)before.st_size + 1) {
		ssize_t n = read(fd, buf + got, (size_t)before.st_size + 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (fstat(fd, &after) != 0 || got != (size_t)before.st_size || after.st_size != before.st_size ||
	    after.st_mtim.tv_sec != before.st_mtim.tv_sec || after.st_mtim.tv_nsec != before.st_mtim.tv_nsec) {
		error_set(e, "%s", _("it changed while it was read: it is read again once it is still"));
		*changed = true;
		free(buf);
		close(fd);
		return NULL;
	}
	close(fd);
	buf[got] = '\0';
	*len = got;
	return buf;
}

/* A string field of at most size-1 bytes, into out; -1 and e when it is missing or too long. */
static int field(json_t *j, const char *key, char *out, size_t size, struct error *e)
{
	json_t *v = json_object_get(j, key);

	if (!json_is_string(v)) {
		error_set(e, _("no \"%s\": the file is damaged or is not a submission; hand it in again"), key);
		return -1;
	}
	if (json_string_length(v) >= size || memchr(json_string_value(v), '\0', json_string_length(v)) != NULL) {
		error_set(e, _("\"%s\" is too long or holds a NUL byte: the file is damaged; hand it in again"), key);
		return -1;
	}
	snprintf(out, size, "%s", json_string_value(v));
	return 0;
}

int submission_read(const char *path, struct submission *s, struct error *e)
{
	bool changed = false;
	json_t *j, *src, *own;
	json_error_t je;
	struct error why;
	char *text, hex[65];
	size_t len;

	memset(s, 0, sizeof *s);
	if ((text = read_whole(path, &len, &changed, e)) == NULL)
		return changed ? -2 : -1;
	j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	free(text);
	if (j == NULL) {
		error_set(e, _("not a submission (line %d: %s): damaged or cut short; hand it in again"), je.line,
		    je.text);
		return -1;
	}
	if (!json_is_object(j) || !json_is_string(json_object_get(j, "format")) ||
	    strcmp(json_string_value(json_object_get(j, "format")), SUBMISSION_FORMAT) != 0) {
		error_set(e, "%s", _("not a cudatutor submission (no \"format\": \"cudatutor-submission\")"));
		goto fail;
	}
	if (!json_is_integer(json_object_get(j, "version")) ||
	    json_integer_value(json_object_get(j, "version")) != SUBMISSION_VERSION) {
		error_set(e, _("a submission of format version %lld, not %d: hand it in again with this cudatutor"),
		    (long long)json_integer_value(json_object_get(j, "version")), SUBMISSION_VERSION);
		goto fail;
	}
	if (field(j, "exercise", s->exercise, sizeof s->exercise, e) != 0 ||
	    field(j, "name", s->name, sizeof s->name, e) != 0 ||
	    field(j, "sha256", s->sha256, sizeof s->sha256, e) != 0)
		goto fail;
	/* informative fields: their absence damages nothing that is judged */
	if (field(j, "exercise_version", s->exercise_version, sizeof s->exercise_version, &why) != 0)
		s->exercise_version[0] = '\0';
	if (field(j, "submitted", s->submitted, sizeof s->submitted, &why) != 0)
		s->submitted[0] = '\0';
	if (field(j, "tutor", s->tutor, sizeof s->tutor, &why) != 0)
		s->tutor[0] = '\0';
	if (exercise_lookup(s->exercise, &why) == NULL) {
		error_set(e, _("for exercise '%s', which this cudatutor does not have"), s->exercise);
		goto fail;
	}
	if (submission_name_check(s->name, &why) != 0) {
		error_set(e, "%s", why.msg);
		goto fail;
	}
	src = json_object_get(j, "source");
	if (!json_is_string(src)) {
		error_set(e, "%s", _("no \"source\": the file is damaged; hand it in again"));
		goto fail;
	}
	s->len = json_string_length(src);
	if (s->len > EXERCISE_MAX_SOURCE || memchr(json_string_value(src), '\0', s->len) != NULL) {
		error_set(e, s->len > EXERCISE_MAX_SOURCE ? _("its source is over 1 MiB: a kernel is a few pages") :
		    _("its source holds a NUL byte: it is not a .cu file"));
		goto fail;
	}
	submission_sha256(json_string_value(src), s->len, hex);
	if (strcmp(hex, s->sha256) != 0) {
		error_set(e, "%s", _("its source is not the one it was handed in with (the SHA-256 differs): "
		    "damaged or edited; hand it in again"));
		goto fail;
	}
	s->source = xmalloc(s->len + 1);
	memcpy(s->source, json_string_value(src), s->len);
	s->source[s->len] = '\0';
	own = json_object_get(j, "student_check");
	if (json_is_object(own)) {
		s->student_passed = json_is_true(json_object_get(own, "passed"));
		s->student_best_ms = json_is_number(json_object_get(own, "best_ms")) ?
		    json_number_value(json_object_get(own, "best_ms")) : 0;
		if (field(own, "gpu", s->student_gpu, sizeof s->student_gpu, &why) != 0)
			s->student_gpu[0] = '\0';
	}
	json_decref(j);
	return 0;
fail:
	json_decref(j);
	memset(s, 0, sizeof *s);
	return -1;
}

void submission_free(struct submission *s)
{
	free(s->source);
	s->source = NULL;
}

int submission_make(const char *id, const char *path, const char *name, const struct progress *p,
    struct submission *s, struct error *e)
{
	const struct progress_exercise *own = p != NULL ? progress_find_exercise(p, id) : NULL;
	const char *nul;
	time_t now = time(NULL);

	memset(s, 0, sizeof *s);
	if (exercise_lookup(id, e) == NULL || submission_name_check(name, e) != 0 ||
	    submission_exercise_version(id, s->exercise_version, e) != 0)
		return -1;
	/* what check refuses, refused here: not a regular file, over 1 MiB, a NUL byte */
	if ((s->source = exercise_read_source(path, &s->len, e)) == NULL)
		return -1;
	if ((nul = memchr(s->source, '\0', s->len)) != NULL) {
		error_set(e, _("%s holds a NUL byte at byte %zu: it is not a .cu file; nothing was handed in"), path,
		    (size_t)(nul - s->source) + 1);
		submission_free(s);
		return -1;
	}
	snprintf(s->exercise, sizeof s->exercise, "%s", id);
	snprintf(s->name, sizeof s->name, "%s", name);
	snprintf(s->tutor, sizeof s->tutor, "cudatutor %s", PACKAGE_VERSION);
	strftime(s->submitted, sizeof s->submitted, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	submission_sha256(s->source, s->len, s->sha256);
	if (own != NULL) {
		s->student_passed = own->passed;
		s->student_best_ms = own->best_ms;
		snprintf(s->student_gpu, sizeof s->student_gpu, "%s", own->gpu);
	}
	return 0;
}

char *submission_file_name(const struct submission *s)
{
	char *file = xasprintf("%s-%s.submission.json", s->exercise, s->name);

	for (char *q = file; *q != '\0'; q++)
		if (*q == ' ')
			*q = '_';
	return file;
}

static char *place_path(void)
{
	char *dir = paths_config_dir(), *path = xasprintf("%s/submit.json", dir);

	free(dir);
	return path;
}

int submission_place_read(char *folder, size_t flen, char *name, size_t nlen)
{
	char *path = place_path();
	json_t *j = json_load_file(path, 0, NULL);
	struct error e;
	int rc = -1;

	free(path);
	if (json_is_string(json_object_get(j, "folder")) && json_is_string(json_object_get(j, "name")) &&
	    submission_name_check(json_string_value(json_object_get(j, "name")), &e) == 0) {
		snprintf(folder, flen, "%s", json_string_value(json_object_get(j, "folder")));
		snprintf(name, nlen, "%s", json_string_value(json_object_get(j, "name")));
		rc = 0;
	}
	json_decref(j);
	return rc;
}

int submission_place_keep(const char *folder, const char *name, struct error *e)
{
	char *dir = paths_config_dir(), *path = place_path(), *text;
	json_t *j = json_pack("{s:s, s:s}", "folder", folder, "name", name);
	int rc = -1;

	text = json_dumps(j, JSON_INDENT(2));
	if (mkdir_p(dir, e) == 0 && text != NULL)
		rc = file_write_atomic(path, text, strlen(text), e);
	free(text);
	json_decref(j);
	free(path);
	free(dir);
	return rc;
}

/* Small helpers every module uses: errors as text, memory, strings, files. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "i18n.h"
#include "util.h"

void error_set(struct error *e, const char *fmt, ...)
{
	va_list ap;

	if (e == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
}

void error_clear(struct error *e)
{
	if (e != NULL)
		e->msg[0] = '\0';
}

static void out_of_memory(void)
{
	/* Nothing sensible is left to do; say so and stop. */
	fputs("cudatutor: out of memory\n", stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		out_of_memory();
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);

	if (p == NULL)
		out_of_memory();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (p == NULL)
		out_of_memory();
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		out_of_memory();
	s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

void strbuf_add(struct strbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void strbuf_add_utf8(struct strbuf *b, unsigned int cp)
{
	char u[3];

	if (cp < 0x80) {
		u[0] = (char)cp;
		strbuf_add(b, u, 1);
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | cp >> 6);
		u[1] = (char)(0x80 | (cp & 0x3f));
		strbuf_add(b, u, 2);
	} else {
		u[0] = (char)(0xe0 | cp >> 12);
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		strbuf_add(b, u, 3);
	}
}

void strbuf_addf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (b->len + (size_t)n + 1 > b->cap) {
		b->cap = (b->len + (size_t)n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void strbuf_free(struct strbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

void utf8_copy(char *buf, size_t len, const char *s)
{
	size_t n = strlen(s), end;

	if (len == 0)
		return;
	if (n < len) {
		memcpy(buf, s, n + 1);
		return;
	}
	/* s[end] is the first byte left out: a continuation byte means a cut character */
	end = len - 1;
	while (end > 0 && ((unsigned char)s[end] & 0xc0) == 0x80)
		end--;
	memcpy(buf, s, end);
	buf[end] = '\0';
}

char *file_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct strbuf b = { 0 };
	char chunk[65536];
	size_t n;

	if (f == NULL)
		return NULL;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		strbuf_add(&b, chunk, n);
	if (ferror(f)) {
		int saved = errno;
		fclose(f);
		strbuf_free(&b);
		errno = saved ? saved : EIO;
		return NULL;
	}
	fclose(f);
	if (b.s == NULL)
		b.s = xcalloc(1, 1);
	if (len != NULL)
		*len = b.len;
	return b.s;
}

int file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int dir_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *path_dir(const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');

	if (slash == dir) {
		slash[1] = '\0';
	} else if (slash != NULL) {
		*slash = '\0';
	} else {
		free(dir);
		dir = xstrdup(".");
	}
	return dir;
}

/* write(), or on a socket send() without SIGPIPE should the other end be gone. */
static int write_loop(int fd, const void *buf, size_t len, bool is_socket)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = is_socket ? send(fd, p, len, MSG_NOSIGNAL) : write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int fd_write_all(int fd, const void *buf, size_t len)
{
	return write_loop(fd, buf, len, false);
}

int fd_send_all(int fd, const void *buf, size_t len)
{
	return write_loop(fd, buf, len, true);
}

int fd_read_all(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len > 0) {
		ssize_t n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
		p += n;
		len -= (size_t)n;
	}
	return 1;
}

/*
 * The rename is only durable once the directory is on disk too: without
 * this, a power cut soon after can leave neither file.  Best effort.
 */
static void sync_directory(const char *path)
{
	char *dir = path_dir(path);
	int fd;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

int file_write_atomic(const char *path, const char *data, size_t len, struct error *e)
{
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	size_t done = 0;

	if (fd < 0) {
		int saved = errno;

		if (file_exists(path))
			error_set(e, _("cannot write %s: %s (the old file is kept)"), path, strerror(saved));
		else
			error_set(e, _("cannot write %s: %s"), path, strerror(saved));
		free(tmp);
		return -1;
	}
	while (done < len) {
		ssize_t n = write(fd, data + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			error_set(e, _("cannot write %s: %s (the old file is kept)"),
			    path, strerror(n < 0 ? errno : ENOSPC));
			close(fd);
			unlink(tmp);
			free(tmp);
			return -1;
		}
		done += (size_t)n;
	}
	if (fsync(fd) != 0 || close(fd) != 0) {
		error_set(e, _("cannot write %s: %s (the old file is kept)"), path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	if (rename(tmp, path) != 0) {
		error_set(e, _("cannot replace %s: %s (the old file is kept)"), path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	sync_directory(path);
	return 0;
}

int mkdir_p(const char *path, struct error *e)
{
	char *p = xstrdup(path);

	for (char *s = p + 1; *s != '\0'; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) != 0 && errno != EEXIST) {
			error_set(e, _("cannot create directory %s: %s"), p, strerror(errno));
			free(p);
			return -1;
		}
		*s = '/';
	}
	if (mkdir(p, 0755) != 0 && errno != EEXIST) {
		error_set(e, _("cannot create directory %s: %s"), p, strerror(errno));
		free(p);
		return -1;
	}
	free(p);
	return 0;
}

int parse_count(const char *s, unsigned long long *out)
{
	unsigned long long base, v;
	char *end;

	if (s == NULL || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	base = strtoull(s, &end, 10);
	if (errno != 0 || end == s)
		return -1;
	if (end[0] == '^' || (end[0] == '<' && end[1] == '<')) {
		const char *e2 = end + (end[0] == '^' ? 1 : 2);
		unsigned long long exp;
		char *end2;

		if (*e2 < '0' || *e2 > '9')
			return -1;
		exp = strtoull(e2, &end2, 10);
		if (*end2 != '\0' || exp > 63)
			return -1;
		if (end[0] == '^') {
			if (base != 2)
				return -1;
			*out = 1ULL << exp;
		} else {
			if (base == 0 || exp >= 64 || base > (ULLONG_MAX >> exp))
				return -1;
			*out = base << exp;
		}
		return 0;
	}
	v = base;
	if (*end != '\0') {
		unsigned long long mult;

		if (strcmp(end, "K") == 0 || strcmp(end, "Ki") == 0)
			mult = 1ULL << 10;
		else if (strcmp(end, "M") == 0 || strcmp(end, "Mi") == 0)
			mult = 1ULL << 20;
		else if (strcmp(end, "G") == 0 || strcmp(end, "Gi") == 0)
			mult = 1ULL << 30;
		else
			return -1;
		if (v > ULLONG_MAX / mult)
			return -1;
		v *= mult;
	}
	*out = v;
	return 0;
}

const char *format_bytes(double bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	size_t u = 0;

	while (bytes >= 1024.0 && u + 1 < ARRAY_LEN(units)) {
		bytes /= 1024.0;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%.0f %s", bytes, units[u]);
	else
		snprintf(buf, len, "%.2f %s", bytes, units[u]);
	return buf;
}

double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

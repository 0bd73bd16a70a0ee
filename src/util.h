/* Small helpers every module uses: errors as text, memory, strings, files. */
#ifndef CUDATUTOR_UTIL_H
#define CUDATUTOR_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/*
 * The core never prints: a function that can fail fills a struct error
 * with one sentence that says what went wrong and what to do, and the view
 * (CLI or TUI) shows it.
 */
struct error {
	char msg[1024];
};

void error_set(struct error *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void error_clear(struct error *e);

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growing string. */
struct strbuf {
	char *s;
	size_t len, cap;
};
void strbuf_add(struct strbuf *b, const char *s, size_t n);
/* One code point of the Basic Multilingual Plane, in UTF-8 (the charts' box and Braille characters). */
void strbuf_add_utf8(struct strbuf *b, unsigned int cp);
void strbuf_addf(struct strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_free(struct strbuf *b);

/*
 * Copy s into buf of len bytes, cut short at a character boundary: a
 * UTF-8 character cut in two would make the string unwritable as JSON.
 */
void utf8_copy(char *buf, size_t len, const char *s);

/* Read a whole file; NULL and errno set on failure. */
char *file_read(const char *path, size_t *len);
int file_exists(const char *path);
int dir_exists(const char *path);
/* The directory part of path, newly allocated: "/" for "/x", "." for "x". */
char *path_dir(const char *path);

/*
 * All of len bytes to or from fd, again after EINTR.  Writing: 0, or -1.
 * Reading: 1 when all were read, 0 at the end of the file first, -1 on an
 * error.
 */
int fd_write_all(int fd, const void *buf, size_t len);
/* The same on a socket, without SIGPIPE should the other end be gone. */
int fd_send_all(int fd, const void *buf, size_t len);
int fd_read_all(int fd, void *buf, size_t len);

/*
 * Write a file atomically: a temporary file beside it, fsync, rename, fsync
 * of the directory.
 * Either the old file or the complete new one exists, never half of one.
 */
int file_write_atomic(const char *path, const char *data, size_t len, struct error *e);

/* mkdir -p */
int mkdir_p(const char *path, struct error *e);

/* Parse a size such as 16777216, 2^24, 1<<24, 16M or 64Ki (elements). */
int parse_count(const char *s, unsigned long long *out);

/* "1.00 GiB" and similar, into buf. */
const char *format_bytes(double bytes, char *buf, size_t len);

/* Seconds since an arbitrary start, monotonic. */
double now_seconds(void);

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#endif

/* NVRTC, loaded at run time: a student's CUDA C++ to PTX and a cubin, its errors as file:line:col. */
#ifndef CUDATUTOR_NVRTC_H
#define CUDATUTOR_NVRTC_H

#include <stddef.h>

#include "util.h"

/*
 * libnvrtc is opened with dlopen the first time it is needed, so the tutor
 * builds and starts without it, where toolkit_library() finds it
 * ($CUDATUTOR_NVRTC, the loader's path, the toolkit's lib64/ and lib/).
 * A failed load is tried again on the next call.
 */
int nvrtc_load(struct error *e);
/* The version NVRTC reports, "13.0". */
int nvrtc_version(char *buf, size_t len, struct error *e);

enum nvrtc_severity {
	NVRTC_DIAG_ERROR,
	NVRTC_DIAG_WARNING,
};

/* One error or warning, as NVRTC's log gave it. */
struct nvrtc_diag {
	enum nvrtc_severity severity;
	char *file;		/* the name the source was compiled under, or a header's */
	int line, column;	/* 1-based, column in bytes; 0 where NVRTC gave none */
	char *message;		/* "identifier \"yy\" is undefined" */
	char *source_line;	/* the line itself, without its newline, or NULL */
	char *note;		/* "detected during instantiation of ...", or NULL */
};

struct nvrtc_diags {
	int count;
	struct nvrtc_diag *d;
};

struct nvrtc_result {
	int ok;				/* it compiled: ptx and cubin are set */
	struct nvrtc_diags errors;
	struct nvrtc_diags warnings;	/* kept apart: a warning never fails a compile */
	char *log;			/* NVRTC's log whole, "" when it said nothing */
	char *ptx;
	unsigned char *cubin;
	size_t cubin_size;
};

/*
 * Compile source, under the file name name (used in messages and in the
 * line information), for arch "sm_90": the cubin with -arch=sm_90, the PTX
 * with a second compile for compute_90; both with -lineinfo --std=c++17
 * -DNDEBUG and the toolkit's include directories (its CCCL headers and
 * the others, of the toolkit NVRTC came from and the configured one).
 * Returns 0 when NVRTC ran,
 * r->ok saying whether the source compiled (else r->errors says why);
 * -1 and e when it could not run: no NVRTC, an architecture it does not
 * know.  r is always safe to free.
 */
int nvrtc_compile(const char *source, const char *name, const char *arch, struct nvrtc_result *r,
    struct error *e);
void nvrtc_result_free(struct nvrtc_result *r);

/*
 * NVRTC's log into its errors and warnings.  Each is "file(LINE): error:
 * message", the source line, then a line with a caret under the column.
 * The source line is taken from source where the file is name.  A failed
 * log with nothing in that form gives one error of line 0 with its text.
 * A host header that cannot be opened (<stdio.h>, for printf) gets a note
 * saying what to do.
 */
void nvrtc_parse_log(const char *log, const char *name, const char *source, int failed,
    struct nvrtc_diags *errors, struct nvrtc_diags *warnings);
void nvrtc_diags_free(struct nvrtc_diags *d);

/*
 * As gcc says it: "file:line:col: error: message", then the line and a
 * caret under the column, then "file:line:col: note: ..." if there is one.
 * Control characters of the student's file (an escape byte) are shown
 * escaped, "\x1b", so that printing a diagnostic never drives the terminal.
 */
void nvrtc_format_diag(const struct nvrtc_diag *d, struct strbuf *out);
/* Every diagnostic of the list, formatted; "" for none. */
char *nvrtc_format_diags(const struct nvrtc_diags *d);

#endif

/* A kernel handed in: one self-contained file a student writes and the teacher's tutor judges. */
#ifndef CUDATUTOR_SUBMISSION_H
#define CUDATUTOR_SUBMISSION_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "util.h"

#define SUBMISSION_FORMAT "cudatutor-submission"
#define SUBMISSION_VERSION 1
/* A name as a class list has it: at most this many bytes of UTF-8. */
#define SUBMISSION_MAX_NAME 64
/* A submission file: the source (at most 1 MiB) as a JSON string, escaped, and a few fields. */
#define SUBMISSION_MAX_FILE (8u << 20)

/*
 * What the file holds.  The student's own verdict is information only:
 * the class judges every kernel again on its own GPU and never ranks by a
 * time a student sent.
 */
struct submission {
	char exercise[64];
	char exercise_version[17];	/* the first 16 hex digits of the starting file's SHA-256 */
	char name[SUBMISSION_MAX_NAME + 1];
	char submitted[40];		/* ISO 8601, UTC, as the student's clock said */
	char tutor[64];			/* the version of cudatutor that wrote it */
	char *source;			/* NUL-terminated; len bytes */
	size_t len;
	char sha256[65];		/* of the source, in hex */
	/* the student's own check, if any: information only */
	bool student_passed;
	double student_best_ms;		/* 0: never timed */
	char student_gpu[128];
};

/*
 * Whether name may name a student: not empty, at most
 * SUBMISSION_MAX_NAME bytes of UTF-8, no control bytes (an escape could
 * redraw a teacher's terminal), no / or \ (a name is never a path).  0,
 * or -1 and e.
 */
int submission_name_check(const char *name, struct error *e);

/* The SHA-256 of len bytes of data, as 64 hexadecimal digits and a NUL, into hex. */
void submission_sha256(const void *data, size_t len, char hex[65]);

/*
 * The version of exercise id the tutor has now: the start of its starting
 * file's SHA-256 (a submission for another version is judged, and said to
 * be for another).  0, or -1 and e.
 */
int submission_exercise_version(const char *id, char out[17], struct error *e);

/* s as the file's text (JSON), newly allocated. */
char *submission_to_text(const struct submission *s);

/*
 * Read and check a submission file: a regular file of at most
 * SUBMISSION_MAX_FILE bytes that did not change while it was read, its
 * format and version, a known exercise, a name submission_name_check
 * takes, a source of at most EXERCISE_MAX_SOURCE bytes without NUL whose
 * SHA-256 is the one written.  0, or -1 and e (one line: what is wrong
 * with the file); -2 and e when it changed while it was read (read it
 * again later).
 */
int submission_read(const char *path, struct submission *s, struct error *e);

void submission_free(struct submission *s);

struct progress;

/*
 * A submission of the file at path for exercise id by name, made now: its
 * source read as check reads it (a regular file, at most 1 MiB, no NUL
 * byte), hashed, and the student's own verdict from p (may be NULL) as
 * information.  0, or -1 and e (one line).
 */
int submission_make(const char *id, const char *path, const char *name, const struct progress *p,
    struct submission *s, struct error *e);

/* Its file's name in a folder: "ID-NAME.submission.json", spaces as underscores.  Newly allocated. */
char *submission_file_name(const struct submission *s);

/*
 * Where the student hands in, chosen once (cudatutor submit --output DIR
 * keeps it, with the name, in $XDG_CONFIG_HOME/cudatutor/submit.json):
 * read it into folder and name, 0, or -1 when none was chosen; keep it,
 * 0 or -1 and e.
 */
int submission_place_read(char *folder, size_t flen, char *name, size_t nlen);
int submission_place_keep(const char *folder, const char *name, struct error *e);

#endif

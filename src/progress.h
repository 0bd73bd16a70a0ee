/* The user's progress: steps done, where they left off, their own results per GPU. */
#ifndef CUDATUTOR_PROGRESS_H
#define CUDATUTOR_PROGRESS_H

#include <stdbool.h>

#include "results.h"
#include "util.h"

/*
 * Kept as JSON in $XDG_STATE_HOME/cudatutor/progress.json (see
 * paths_state_dir), written atomically.  Several processes may hold it at
 * once (the tutor, and commands in other terminals): a save takes a lock
 * (progress.json.lock beside it), reads the file again, merges this
 * process's state into it and writes the result, so nothing another
 * process saved is lost.  A damaged file is renamed aside
 * (progress.json.corrupt-<time>) and the user starts afresh with one
 * message saying so: progress never stops the tutor.  A file that cannot
 * be read (permissions) or that a newer version wrote is not damaged: it
 * is left as it is and not written over (keep), again with one message.
 *
 * Results kept are the user's live runs only (recorded results live in
 * data/results/): the latest report per lesson, GPU, size and block.
 */

#define PROGRESS_MAX_STEPS 64

struct progress_lesson {
	char id[64];
	/* done[k]: step k+1 was run here, live or shown from recorded results */
	bool done[PROGRESS_MAX_STEPS];
};

/* An exercise: done, hints seen, the student's best time (see exercise.h). */
struct progress_exercise {
	char id[64];
	bool passed;			/* its SASS checks passed (and its run, where one was made) */
	int hints_shown;
	double best_ms;			/* median of the best live run; 0 when never timed */
	char gpu[128];			/* the GPU best_ms was measured on */
	char date[40];			/* and when: ISO 8601, UTC */
};

struct progress {
	char path[512];
	bool keep;			/* the file could not be read: never write over it */
	char last_lesson[64];		/* "" on the first run */
	int last_step;			/* 0: the lesson's introduction; else 1-based */
	char last_exercise[64];		/* the exercise whose page was open (before step last_step), or "" */
	int nlessons;
	struct progress_lesson *lessons;
	int nreports;
	struct run_report *reports;
	bool *reports_put;		/* reports[i] was put here since the last save */
	bool moved;			/* the position was set here since the last save */
	int nexercises;
	struct progress_exercise *exercises;
};

/*
 * Load from dir (NULL: paths_state_dir()).  Always gives a usable p.
 * Returns 0, or 1 when the file was damaged and set aside: notice then
 * holds the message to show once.
 */
int progress_load(struct progress *p, const char *dir, struct error *notice);
/*
 * Write it back (creating the directory), merged under the lock with what
 * the file holds now: steps done are the union, hints shown the most,
 * passed if either passed, the best time the faster on one GPU or the
 * newer of two GPUs; reports put here since the last save replace the
 * file's, the others are the file's; the position is this process's if
 * it set one since the last save, else the file's.  Afterwards p holds
 * the merged state.  -1 and e on failure, the old file whole.  With keep
 * set, writes nothing and returns 0.
 */
int progress_save(struct progress *p, struct error *e);
void progress_free(struct progress *p);

/* Where the user is: a step's page (no exercise), or the page of an exercise before that step. */
void progress_set_position(struct progress *p, const char *lesson, int step);
void progress_set_exercise_page(struct progress *p, const char *lesson, int step, const char *exercise);
void progress_mark_done(struct progress *p, const char *lesson, int step);
bool progress_is_done(const struct progress *p, const char *lesson, int step);
int progress_done_count(const struct progress *p, const char *lesson);

/* The exercise's entry, or NULL when it was never started. */
const struct progress_exercise *progress_find_exercise(const struct progress *p, const char *id);
/* The exercise's entry, made empty if there was none. */
struct progress_exercise *progress_exercise(struct progress *p, const char *id);
void progress_exercise_passed(struct progress *p, const char *id);
/*
 * A live time of the student's kernel: kept when it beats the best on the
 * same GPU, or when it is from another GPU (times of two GPUs do not
 * compare; the latest GPU is the one the student works on).  date is ISO
 * 8601 UTC.  Returns true when it was kept.
 */
bool progress_exercise_time(struct progress *p, const char *id, double ms, const char *gpu,
    const char *date);

/* Keep a copy of a live report, replacing the one for the same lesson, GPU, size, block. */
void progress_put_report(struct progress *p, const struct run_report *r);
const struct run_report *progress_find_report(const struct progress *p, const char *lesson,
    const char *gpu, unsigned long long size, unsigned int block);
/*
 * The GPUs step (1-based) of lesson ran on correctly or not, as names
 * into the reports, at most max; returns how many.
 */
int progress_step_gpus(const struct progress *p, const char *lesson, int step,
    const char **names, int max);

#endif

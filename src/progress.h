/* The user's progress: steps done, where they left off, their own results per GPU. */
#ifndef CUDATUTOR_PROGRESS_H
#define CUDATUTOR_PROGRESS_H

#include <stdbool.h>

#include "results.h"
#include "util.h"

/*
 * Kept as JSON in $XDG_STATE_HOME/cudatutor/progress.json (see
 * paths_state_dir), written atomically.  A damaged file is renamed aside
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

struct progress {
	char path[512];
	bool keep;			/* the file could not be read: never write over it */
	char last_lesson[64];		/* "" on the first run */
	int last_step;			/* 0: the lesson's introduction; else 1-based */
	int nlessons;
	struct progress_lesson *lessons;
	int nreports;
	struct run_report *reports;
};

/*
 * Load from dir (NULL: paths_state_dir()).  Always gives a usable p.
 * Returns 0, or 1 when the file was damaged and set aside: notice then
 * holds the message to show once.
 */
int progress_load(struct progress *p, const char *dir, struct error *notice);
/*
 * Write it back (creating the directory).  -1 and e on failure, the old
 * file whole.  With keep set, writes nothing and returns 0.
 */
int progress_save(const struct progress *p, struct error *e);
void progress_free(struct progress *p);

void progress_set_position(struct progress *p, const char *lesson, int step);
void progress_mark_done(struct progress *p, const char *lesson, int step);
bool progress_is_done(const struct progress *p, const char *lesson, int step);
int progress_done_count(const struct progress *p, const char *lesson);

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

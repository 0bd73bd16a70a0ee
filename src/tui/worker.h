/* The GPU work of the tutor, on a thread of its own so the screen never waits. */
#ifndef CUDATUTOR_TUI_WORKER_H
#define CUDATUTOR_TUI_WORKER_H

#include "lesson.h"
#include "metrics.h"
#include "results.h"
#include "session.h"

/*
 * One thread does everything that can take long: it looks for the GPU
 * first (creating the CUDA context takes a few hundred milliseconds, so
 * the first frame never waits for it), then runs the jobs the screen
 * hands it, one at a time: runs of steps through the runner, and reading
 * one step's hardware counters with Nsight Compute (metrics.h), which runs
 * the step in a process of its own and takes seconds, and checks of a
 * student's kernel for an exercise (session_exercise_check: NVRTC and the
 * SASS, which need no GPU, then, on a GPU, running it beside ours).  Whenever something
 * changes it writes a byte to a pipe; the screen polls that pipe with the
 * keyboard and then takes a copy of the state.  A run is cancelled between
 * repetitions (measure_options.cancel), a counter reading by stopping ncu
 * and its step.  No curses here.
 */

enum worker_kind {
	WORKER_RUN,				/* time steps first..last */
	WORKER_COUNTERS,			/* read the counters of step first */
	WORKER_EXERCISE,			/* check the working copy of exercise `exercise` */
};

struct worker_job {
	enum worker_kind kind;
	const struct lesson *lesson;
	int first, last;			/* steps, 0-based, inclusive */
	unsigned long long size;
	unsigned int block;
	const struct run_report *resume;	/* a live report to add to, or NULL */
	const struct exercise_def *exercise;	/* WORKER_EXERCISE */
	/* its entry in the student's progress, which the check updates in a copy of its own */
	struct progress_exercise progress;
};

/* What a WORKER_EXERCISE job found. */
struct worker_exercise {
	struct exercise_report report;
	struct progress_exercise progress;	/* the entry after the check: a pass, a best time */
};
void worker_exercise_free(struct worker_exercise *x);

struct worker_state {
	enum session_gpu gpu;
	struct gpu_desc desc;			/* when READY */
	char reason[512];			/* when ABSENT */
	int busy;
	struct worker_job job;			/* the job running or last run (resume is NULL) */
	int step;				/* being run, 0-based */
	int done, total;			/* its repetitions so far */
	int finished;				/* a job ended since the last worker_take */
	int no_gpu;				/* it ended because there is no GPU */
	int cancelled;
	char error[1024];			/* it could not start (counters: could not be read): why */
	/* a WORKER_COUNTERS job that finished: what came of it */
	enum metrics_status counters_status;
	struct step_metrics counters;
	/*
	 * a WORKER_EXERCISE job that checked something (else error says why
	 * not): handed over by the one worker_take that sees it finished,
	 * the taker frees it
	 */
	struct worker_exercise *exercise;
};

struct worker;

/* Start the thread, which looks for the GPU first: NULL if it cannot start. */
struct worker *worker_start_thread(void);
/* Readable when there is news. */
int worker_fd(const struct worker *w);
/* Hand over a job; -1 while another runs. */
int worker_submit(struct worker *w, const struct worker_job *job);
void worker_cancel(struct worker *w);
/*
 * The state now.  If the job's report changed since the last call, a copy
 * goes to *report (free it with run_report_free) and 1 is returned.
 */
int worker_take(struct worker *w, struct worker_state *st, struct run_report *report);
/* Stop the thread, waiting at most timeout seconds: 0 if it ended (w is freed then). */
int worker_stop(struct worker *w, double timeout);

#endif

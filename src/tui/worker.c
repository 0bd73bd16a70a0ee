/* The GPU work of the tutor, on a thread of its own so the screen never waits. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "measure.h"
#include "session.h"
#include "tui/worker.h"

struct worker {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	int pipe[2];
	int quit;
	int have_job;
	volatile int cancel;
	struct worker_state st;		/* under lock */
	struct run_report report;	/* the newest, under lock */
	unsigned version, taken;
};

static void poke(struct worker *w)
{
	char c = 1;

	/* Full pipe: the screen has news to read already. */
	if (write(w->pipe[1], &c, 1) < 0 && errno != EAGAIN)
		return;
}

static void copy_report(struct run_report *dst, const struct run_report *src)
{
	*dst = *src;
	dst->steps = xcalloc((size_t)src->nsteps + 1, sizeof *dst->steps);
	memcpy(dst->steps, src->steps, (size_t)src->nsteps * sizeof *dst->steps);
}

static void publish(struct worker *w, const struct run_report *r)
{
	pthread_mutex_lock(&w->lock);
	run_report_free(&w->report);
	copy_report(&w->report, r);
	w->version++;
	pthread_mutex_unlock(&w->lock);
	poke(w);
}

static void on_progress(void *ctx, int done, int total)
{
	struct worker *w = ctx;

	pthread_mutex_lock(&w->lock);
	w->st.done = done;
	w->st.total = total;
	pthread_mutex_unlock(&w->lock);
	poke(w);
}

void worker_exercise_free(struct worker_exercise *x)
{
	if (x == NULL)
		return;
	session_exercise_report_free(&x->report);
	free(x);
}

/* The job ended: error says why it could not start; an exercise's check hands over what it found. */
static void end_job_with(struct worker *w, const char *error, int no_gpu, struct worker_exercise *x)
{
	pthread_mutex_lock(&w->lock);
	worker_exercise_free(w->st.exercise);
	w->st.exercise = x;
	w->st.busy = 0;
	w->st.finished = 1;
	w->st.no_gpu = no_gpu;
	w->st.cancelled = w->cancel != 0;
	snprintf(w->st.error, sizeof w->st.error, "%s", error ? error : "");
	pthread_mutex_unlock(&w->lock);
	poke(w);
}

static void end_job(struct worker *w, const char *error, int no_gpu)
{
	end_job_with(w, error, no_gpu, NULL);
}

static void step_begins(void *ctx, int i)
{
	struct worker *w = ctx;

	pthread_mutex_lock(&w->lock);
	w->st.step = i;
	w->st.done = 0;
	w->st.total = 0;
	pthread_mutex_unlock(&w->lock);
	poke(w);
}

static void step_done(void *ctx, const struct run_report *r, int i)
{
	(void)i;
	publish(ctx, r);
}

static void run_job(struct worker *w, const struct worker_job *job)
{
	struct run_report r;
	struct measure_options o;
	struct error e = { "" };
	struct session_hooks hooks = { step_begins, step_done, w };

	if (job->resume != NULL) {
		copy_report(&r, job->resume);
	} else if (session_begin(&r, job->lesson, job->size, job->block, &e) != 0) {
		run_report_free(&r);
		end_job(w, e.msg, 0);
		return;
	}
	measure_default_options(&o);
	o.cancel = &w->cancel;
	o.progress = on_progress;
	o.progress_ctx = w;
	session_run(&r, job->lesson, job->first, job->last, &o, &hooks);
	run_report_free(&r);
	end_job(w, NULL, 0);
}

static void end_counters(struct worker *w, enum metrics_status st, const struct step_metrics *m,
    const char *error)
{
	pthread_mutex_lock(&w->lock);
	w->st.counters_status = st;
	if (m != NULL)
		w->st.counters = *m;
	else
		memset(&w->st.counters, 0, sizeof w->st.counters);
	pthread_mutex_unlock(&w->lock);
	end_job(w, st == METRICS_OK || st == METRICS_CANCELLED ? NULL : error, 0);
}

/* ncu runs the step as `cudatutor run` in a process of its own: nothing of it touches ours. */
static void run_counters(struct worker *w, const struct worker_job *job)
{
	const struct lesson *l = job->lesson;
	struct metrics_session s;
	struct step_metrics m;
	struct error e = { "" };
	enum metrics_status st;

	if (metrics_session_begin(&s, &e) != 0) {
		end_counters(w, METRICS_FAILED, NULL, e.msg);
		return;
	}
	s.cancel = &w->cancel;
	st = session_step_counters(&s, l, job->first, job->first + 1, job->size, job->block, &m, &e);
	metrics_session_end(&s);
	end_counters(w, st, st == METRICS_OK ? &m : NULL, e.msg);
}

/*
 * The check keeps a pass and a best time in a progress of its own, holding
 * only this exercise: the student's progress is the screen thread's.
 */
static void run_exercise(struct worker *w, const struct worker_job *job)
{
	struct worker_exercise *x = xcalloc(1, sizeof *x);
	struct progress p;
	struct measure_options o;
	struct error e = { "" };

	memset(&p, 0, sizeof p);
	p.keep = true;
	p.nexercises = 1;
	p.exercises = xmalloc(sizeof *p.exercises);
	p.exercises[0] = job->progress;
	snprintf(p.exercises[0].id, sizeof p.exercises[0].id, "%s", job->exercise->id);
	session_measure_options(&o, 0);
	o.cancel = &w->cancel;
	o.progress = on_progress;
	o.progress_ctx = w;
	if (session_exercise_check(NULL, job->exercise->id, NULL, true, 0, 0, &o, NULL, &p, &x->report, &e) != 0) {
		worker_exercise_free(x);
		progress_free(&p);
		end_job(w, e.msg, 0);
		return;
	}
	x->progress = *progress_exercise(&p, job->exercise->id);
	progress_free(&p);
	end_job_with(w, NULL, 0, x);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct error e = { "" };
	/* Live numbers, or recorded ones: the session decides. */
	int ready = session_live(false, &e);

	pthread_mutex_lock(&w->lock);
	if (ready) {
		w->st.gpu = SESSION_GPU_READY;
		session_gpu_desc(&w->st.desc);
	} else {
		w->st.gpu = SESSION_GPU_ABSENT;
		snprintf(w->st.reason, sizeof w->st.reason, "%s", e.msg);
	}
	pthread_mutex_unlock(&w->lock);
	poke(w);

	for (;;) {
		struct worker_job job;

		pthread_mutex_lock(&w->lock);
		while (!w->have_job && !w->quit)
			pthread_cond_wait(&w->wake, &w->lock);
		if (w->quit) {
			pthread_mutex_unlock(&w->lock);
			break;
		}
		job = w->st.job;
		job.resume = w->report.steps != NULL && w->report.nsteps > 0 && w->have_job == 2 ?
		    &w->report : NULL;
		w->have_job = 0;
		pthread_mutex_unlock(&w->lock);

		/* Compiling and the SASS need no GPU. */
		if (job.kind == WORKER_EXERCISE) {
			run_exercise(w, &job);
			continue;
		}
		if (!ready) {
			end_job(w, e.msg, 1);
			continue;
		}
		if (job.kind == WORKER_COUNTERS) {
			run_counters(w, &job);
		} else if (job.resume != NULL) {
			/* Work on a copy: the screen may take w->report meanwhile. */
			struct run_report copy;
			pthread_mutex_lock(&w->lock);
			copy_report(&copy, &w->report);
			pthread_mutex_unlock(&w->lock);
			job.resume = &copy;
			run_job(w, &job);
			run_report_free(&copy);
		} else {
			run_job(w, &job);
		}
	}
	return NULL;
}

struct worker *worker_start_thread(void)
{
	struct worker *w = xcalloc(1, sizeof *w);
	sigset_t all, old;

	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->wake, NULL);
	if (pipe(w->pipe) != 0) {
		free(w);
		return NULL;
	}
	for (int i = 0; i < 2; i++) {
		fcntl(w->pipe[i], F_SETFL, fcntl(w->pipe[i], F_GETFL) | O_NONBLOCK);
		fcntl(w->pipe[i], F_SETFD, FD_CLOEXEC);
	}
	/* Signals go to the screen's thread (and so do those of CUDA's own threads). */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		close(w->pipe[0]);
		close(w->pipe[1]);
		free(w);
		return NULL;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return w;
}

int worker_fd(const struct worker *w)
{
	return w->pipe[0];
}

int worker_submit(struct worker *w, const struct worker_job *job)
{
	pthread_mutex_lock(&w->lock);
	if (w->st.busy || w->have_job) {
		pthread_mutex_unlock(&w->lock);
		return -1;
	}
	w->st.job = *job;
	w->st.job.resume = NULL;
	w->st.busy = 1;
	w->st.step = job->first;
	w->st.done = w->st.total = 0;
	w->st.finished = 0;
	w->st.no_gpu = 0;
	w->st.cancelled = 0;
	w->st.error[0] = '\0';
	w->st.counters_status = METRICS_OK;
	memset(&w->st.counters, 0, sizeof w->st.counters);
	/* what an earlier check found and no one took */
	worker_exercise_free(w->st.exercise);
	w->st.exercise = NULL;
	w->cancel = 0;
	/* The report to add to is copied now: the caller's may change. */
	run_report_free(&w->report);
	if (job->resume != NULL && job->kind == WORKER_RUN) {
		copy_report(&w->report, job->resume);
		w->have_job = 2;
	} else {
		w->have_job = 1;
	}
	w->taken = w->version;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	return 0;
}

void worker_cancel(struct worker *w)
{
	pthread_mutex_lock(&w->lock);
	if (w->st.busy)
		w->cancel = 1;
	pthread_mutex_unlock(&w->lock);
}

int worker_take(struct worker *w, struct worker_state *st, struct run_report *report)
{
	char buf[64];
	int fresh = 0;

	while (read(w->pipe[0], buf, sizeof buf) > 0)
		;
	pthread_mutex_lock(&w->lock);
	*st = w->st;
	w->st.finished = 0;
	w->st.exercise = NULL;		/* the caller's now */
	if (w->version != w->taken && w->report.steps != NULL) {
		copy_report(report, &w->report);
		w->taken = w->version;
		fresh = 1;
	}
	pthread_mutex_unlock(&w->lock);
	return fresh;
}

int worker_stop(struct worker *w, double timeout)
{
	struct timespec until;
	int rc;

	pthread_mutex_lock(&w->lock);
	w->quit = 1;
	w->cancel = 1;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += (time_t)timeout;
	until.tv_nsec += (long)((timeout - (double)(time_t)timeout) * 1e9);
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	rc = pthread_timedjoin_np(w->thread, NULL, &until);
	if (rc != 0)
		return -1;	/* still inside the driver: the process will end it */
	close(w->pipe[0]);
	close(w->pipe[1]);
	run_report_free(&w->report);
	worker_exercise_free(w->st.exercise);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->wake);
	free(w);
	return 0;
}

/* GPU work in a child process: a kernel that faults can take only that process with it. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "i18n.h"
#include "isolate.h"

static int enabled;
static int in_child;

struct isolate_channel {
	int fd;
};

/* Messages on the pipe: a tag byte, then a fixed body. */
enum { MSG_PROGRESS = 'P', MSG_RESULT = 'R' };

void isolate_enable(void)
{
	const char *env = getenv("CUDATUTOR_ISOLATE");

	if (env != NULL && strcmp(env, "0") == 0)
		return;
	enabled = 1;
}

int isolate_enabled(void)
{
	return enabled && !in_child;
}

void isolate_progress(struct isolate_channel *ch, int done, int total)
{
	char tag = MSG_PROGRESS;
	int body[2] = { done, total };

	if (ch == NULL)
		return;
	fd_write_all(ch->fd, &tag, 1);
	fd_write_all(ch->fd, body, sizeof body);
}

static void describe_end(int status, struct error *e)
{
	if (WIFSIGNALED(status))
		error_set(e, _("the step's process died (signal %d: %s); the next step starts a fresh one"),
		    WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		error_set(e, _("the step's process ended without a result (exit %d); the next step starts a fresh one"),
		    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* In a child: the signals of the parent's terminal are not ours to handle. */
static void become_child(void)
{
	in_child = 1;
	/* The parent's handlers (the tutor's terminal restore) are not ours to run. */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	signal(SIGWINCH, SIG_DFL);
}

/* Run fn in this child and send its result; 0 when it succeeded and was sent. */
static int run_and_send(isolate_fn fn, void *arg, size_t result_size, int fd)
{
	struct isolate_channel ch = { fd };
	struct error e = { "" };
	void *result = xcalloc(1, result_size ? result_size : 1);
	char tag = MSG_RESULT;
	int rc;

	rc = fn(arg, result, &ch, &e);
	if (fd_write_all(fd, &tag, 1) != 0 || fd_write_all(fd, &rc, sizeof rc) != 0 ||
	    fd_write_all(fd, result, result_size) != 0 || fd_write_all(fd, e.msg, sizeof e.msg) != 0)
		rc = -1;
	free(result);
	return rc;
}

static void child(isolate_fn fn, void *arg, size_t result_size, int fd)
{
	become_child();
	run_and_send(fn, arg, result_size, fd);
	/* Skip atexit handlers and stdio the parent owns; CUDA cleans up with the process. */
	_exit(0);
}

/* The time limit of part `part` (see isolate_options.part_limits). */
static double part_limit(const struct isolate_options *o, int part)
{
	if (o->limit_each_part && o->part_limits != NULL && part >= 0 && part < o->nparts &&
	    o->part_limits[part] > 0 && (o->time_limit <= 0 || o->part_limits[part] < o->time_limit))
		return o->part_limits[part];
	return o->time_limit;
}

/*
 * The parent's side: progress, then the result, from fd; the child is
 * killed on cancel or past the time limit.  0 or -1 as isolate_run;
 * *ended tells whether the child is gone or going (no result, or a failed
 * one: a child ends after any failure).
 */
static int collect(pid_t pid, int fd, void *result, size_t result_size,
    const struct isolate_options *o, int *ended, struct error *e)
{
	double started = now_seconds(), limit = o != NULL ? part_limit(o, 0) : 0;
	int rc = -1, got = 0, cancelled = 0;

	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		char tag;
		int n;

		if (o != NULL && o->cancel != NULL && *o->cancel) {
			kill(pid, SIGKILL);
			error_set(e, _("cancelled"));
			cancelled = 1;
			break;
		}
		/* an endless loop in a kernel never returns: only killing the process stops it */
		if (limit > 0 && now_seconds() - started > limit) {
			kill(pid, SIGKILL);
			error_set(e, _("stopped after %.0f s, its time limit: does a loop never end?"), limit);
			cancelled = 1;
			break;
		}
		n = poll(&p, 1, 100);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			continue;
		if (fd_read_all(fd, &tag, 1) != 1)
			break;	/* the child ended */
		if (tag == MSG_PROGRESS) {
			int body[2];
			if (fd_read_all(fd, body, sizeof body) != 1)
				break;
			if (o != NULL && o->progress != NULL)
				o->progress(o->progress_ctx, body[0], body[1]);
			if (o != NULL && o->limit_each_part) {
				started = now_seconds();
				limit = part_limit(o, body[0]);
			}
		} else if (tag == MSG_RESULT) {
			struct error child_error;
			if (fd_read_all(fd, &rc, sizeof rc) == 1 &&
			    fd_read_all(fd, result, result_size) == 1 &&
			    fd_read_all(fd, child_error.msg, sizeof child_error.msg) == 1) {
				got = 1;
				if (rc != 0)
					*e = child_error;
			}
			break;
		} else {
			break;
		}
	}
	*ended = !got || rc != 0;
	if (!got) {
		int status = 0;
		/* no result: the child died, or was killed; say how */
		kill(pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (!cancelled)
			describe_end(status, e);
		return -2;	/* reaped */
	}
	return rc;
}

pid_t isolate_fork(int fds[2], bool both_ways, const char *fail_fmt, struct error *e)
{
	pid_t pid;

	if ((both_ways ? socketpair(AF_UNIX, SOCK_STREAM, 0, fds) : pipe(fds)) != 0) {
		error_set(e, fail_fmt, strerror(errno));
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		error_set(e, fail_fmt, strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	close(fds[pid == 0 ? 0 : 1]);
	return pid;
}

int isolate_run(isolate_fn fn, void *arg, void *result, size_t result_size,
    const struct isolate_options *o, struct error *e)
{
	int fds[2], status = 0, rc, ended;
	pid_t pid;

	if (!isolate_enabled())
		return fn(arg, result, NULL, e);
	pid = isolate_fork(fds, false, _("cannot start the step's process: %s"), e);
	if (pid < 0)
		return -1;
	if (pid == 0)
		child(fn, arg, result_size, fds[1]);
	rc = collect(pid, fds[0], result, result_size, o, &ended, e);
	close(fds[0]);
	if (rc == -2)
		return -1;	/* already reaped */
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return rc;
}

/* ---- the worker: one child for piece after piece of work ------------------ */

static struct {
	pid_t pid;	/* 0: none */
	int fd;		/* our end of the socket pair */
} worker = { 0, -1 };

/*
 * The worker's loop: a job is fn, the sizes, then arg's bytes.  It ends
 * when the parent closes its end, and after any failure, so that a broken
 * CUDA context never runs the next piece.
 */
static void worker_loop(int fd)
{
	become_child();
	for (;;) {
		isolate_fn fn;
		size_t sizes[2];
		void *arg;

		if (fd_read_all(fd, &fn, sizeof fn) != 1 || fd_read_all(fd, sizes, sizeof sizes) != 1)
			break;
		arg = xcalloc(1, sizes[0] ? sizes[0] : 1);
		if (fd_read_all(fd, arg, sizes[0]) != 1 || run_and_send(fn, arg, sizes[1], fd) != 0) {
			free(arg);
			break;
		}
		free(arg);
	}
	_exit(0);
}

void isolate_worker_end(void)
{
	int status;

	if (worker.pid == 0)
		return;
	close(worker.fd);	/* the worker reads the end of its jobs and exits */
	while (waitpid(worker.pid, &status, 0) < 0 && errno == EINTR)
		;
	worker.pid = 0;
	worker.fd = -1;
}

static int step_process_start(struct error *e)
{
	int sv[2];
	pid_t pid;

	pid = isolate_fork(sv, true, _("cannot start the step's process: %s"), e);
	if (pid < 0)
		return -1;
	if (pid == 0)
		worker_loop(sv[1]);
	worker.pid = pid;
	worker.fd = sv[0];
	return 0;
}

int isolate_worker_warm(struct error *e)
{
	if (!isolate_enabled() || worker.pid != 0)
		return 0;
	return step_process_start(e);
}

/* A job as worker_loop reads it: fn, the sizes, then arg's bytes. */
static int send_job(isolate_fn fn, const void *arg, size_t arg_size, size_t result_size)
{
	size_t sizes[2] = { arg_size, result_size };

	return fd_send_all(worker.fd, &fn, sizeof fn) != 0 ||
	    fd_send_all(worker.fd, sizes, sizeof sizes) != 0 ||
	    fd_send_all(worker.fd, arg, arg_size) != 0 ? -1 : 0;
}

int isolate_run_in_worker(isolate_fn fn, const void *arg, size_t arg_size, void *result,
    size_t result_size, const struct isolate_options *o, struct error *e)
{
	int rc, ended;

	if (!isolate_enabled())
		return fn((void *)arg, result, NULL, e);
	if (worker.pid == 0 && step_process_start(e) != 0)
		return -1;
	if (send_job(fn, arg, arg_size, result_size) != 0) {
		/* it was gone (killed from outside): once more, in a fresh one */
		isolate_worker_end();
		if (step_process_start(e) != 0)
			return -1;
		if (send_job(fn, arg, arg_size, result_size) != 0) {
			isolate_worker_end();
			error_set(e, _("cannot start the step's process: %s"), strerror(errno));
			return -1;
		}
	}
	rc = collect(worker.pid, worker.fd, result, result_size, o, &ended, e);
	if (rc == -2) {
		/* killed and reaped */
		close(worker.fd);
		worker.pid = 0;
		worker.fd = -1;
		return -1;
	}
	if (ended)
		isolate_worker_end();
	return rc;
}

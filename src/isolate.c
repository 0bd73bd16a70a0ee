/* GPU work in a child process: a kernel that faults can take only that process with it. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
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

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* 1: all read; 0: end of file first; -1: error. */
static int read_all(int fd, void *buf, size_t len)
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

void isolate_progress(struct isolate_channel *ch, int done, int total)
{
	char tag = MSG_PROGRESS;
	int body[2] = { done, total };

	if (ch == NULL)
		return;
	write_all(ch->fd, &tag, 1);
	write_all(ch->fd, body, sizeof body);
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

static void child(isolate_fn fn, void *arg, size_t result_size, int fd)
{
	struct isolate_channel ch = { fd };
	struct error e = { "" };
	void *result = xcalloc(1, result_size ? result_size : 1);
	char tag = MSG_RESULT;
	int rc;

	in_child = 1;
	/* The parent's handlers (the tutor's terminal restore) are not ours to run. */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	signal(SIGWINCH, SIG_DFL);
	rc = fn(arg, result, &ch, &e);
	if (write_all(fd, &tag, 1) != 0 || write_all(fd, &rc, sizeof rc) != 0 ||
	    write_all(fd, result, result_size) != 0 || write_all(fd, e.msg, sizeof e.msg) != 0) {
		free(result);
		_exit(2);
	}
	free(result);
	/* Skip atexit handlers and stdio the parent owns; CUDA cleans up with the process. */
	_exit(0);
}

int isolate_run(isolate_fn fn, void *arg, void *result, size_t result_size,
    const struct isolate_options *o, struct error *e)
{
	int fds[2], status = 0, rc = -1, got = 0, cancelled = 0;
	double started;
	pid_t pid;

	if (!isolate_enabled())
		return fn(arg, result, NULL, e);
	if (pipe(fds) != 0) {
		error_set(e, _("cannot start the step's process: %s"), strerror(errno));
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		error_set(e, _("cannot start the step's process: %s"), strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		child(fn, arg, result_size, fds[1]);
	}
	close(fds[1]);
	started = now_seconds();

	for (;;) {
		struct pollfd p = { fds[0], POLLIN, 0 };
		char tag;
		int n;

		if (o != NULL && o->cancel != NULL && *o->cancel) {
			kill(pid, SIGKILL);
			error_set(e, _("cancelled"));
			cancelled = 1;
			break;
		}
		/* an endless loop in a kernel never returns: only killing the process stops it */
		if (o != NULL && o->time_limit > 0 && now_seconds() - started > o->time_limit) {
			kill(pid, SIGKILL);
			error_set(e, _("stopped after %.0f s, its time limit: does a loop never end?"),
			    o->time_limit);
			cancelled = 1;
			break;
		}
		n = poll(&p, 1, 100);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			continue;
		if (read_all(fds[0], &tag, 1) != 1)
			break;	/* the child ended */
		if (tag == MSG_PROGRESS) {
			int body[2];
			if (read_all(fds[0], body, sizeof body) != 1)
				break;
			if (o != NULL && o->progress != NULL)
				o->progress(o->progress_ctx, body[0], body[1]);
		} else if (tag == MSG_RESULT) {
			struct error child_error;
			if (read_all(fds[0], &rc, sizeof rc) == 1 &&
			    read_all(fds[0], result, result_size) == 1 &&
			    read_all(fds[0], child_error.msg, sizeof child_error.msg) == 1) {
				got = 1;
				if (rc != 0)
					*e = child_error;
			}
			break;
		} else {
			break;
		}
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!got) {
		if (!cancelled)
			describe_end(status, e);
		rc = -1;
	}
	return rc;
}

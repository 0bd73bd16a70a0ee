/* A lock on one GPU shared by processes (see gpu_lock.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "gpu_lock.h"
#include "i18n.h"

/* PATH.rw and PATH.turn; -1 when no lock was given */
static int rw_fd = -1, turn_fd = -1;
static int held;	/* 0, LOCK_SH or LOCK_EX */

static int open_part(const char *path, const char *part, struct error *e)
{
	char *name = xasprintf("%s.%s", path, part);
	int fd = open(name, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

	if (fd < 0)
		error_set(e, _("cannot open the GPU's lock %s (%s): is the class's cache folder writable?"), name,
		    strerror(errno));
	free(name);
	return fd;
}

int gpu_lock_init(struct error *e)
{
	const char *path = getenv("CUDATUTOR_GPU_LOCK");
	char *copy;

	if (path == NULL || *path == '\0')
		return 0;
	copy = xstrdup(path);
	unsetenv("CUDATUTOR_GPU_LOCK");
	rw_fd = open_part(copy, "rw", e);
	turn_fd = rw_fd >= 0 ? open_part(copy, "turn", e) : -1;
	free(copy);
	if (turn_fd < 0) {
		if (rw_fd >= 0)
			close(rw_fd);
		rw_fd = -1;
		return -1;
	}
	return 0;
}

bool gpu_lock_given(void)
{
	return rw_fd >= 0;
}

/* flock, again where a signal broke the wait */
static void lock(int fd, int how)
{
	while (flock(fd, how) != 0 && errno == EINTR)
		;
}

static void take(int how)
{
	if (rw_fd < 0 || held == how)
		return;
	gpu_lock_release();
	/* through the turnstile: one waiting to time holds it, and the others queue behind */
	lock(turn_fd, LOCK_EX);
	lock(rw_fd, how);
	lock(turn_fd, LOCK_UN);
	held = how;
}

void gpu_lock_shared(void)
{
	take(LOCK_SH);
}

void gpu_lock_exclusive(void)
{
	take(LOCK_EX);
}

void gpu_lock_release(void)
{
	if (rw_fd < 0 || held == 0)
		return;
	lock(rw_fd, LOCK_UN);
	held = 0;
}

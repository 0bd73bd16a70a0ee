/* A cubin made at run time, read as the built kernels are: its SASS, resources and source lines. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cubin.h"
#include "i18n.h"
#include "toolkit.h"

extern char **environ;

int cubin_write(const char *path, const unsigned char *data, size_t size, struct error *e)
{
	return file_write_atomic(path, (const char *)data, size, e);
}

/* Read what is ready on fd into b; 1 at its end. */
static int drain(int fd, struct strbuf *b)
{
	char buf[8192];
	ssize_t n = read(fd, buf, sizeof buf);

	if (n > 0) {
		strbuf_add(b, buf, (size_t)n);
		return 0;
	}
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	return 1;
}

int cubin_run(char *const argv[], int timeout_s, char **out, char **err, int *status, struct error *e)
{
	posix_spawn_file_actions_t fa;
	struct strbuf ob = { 0 }, eb = { 0 };
	int outp[2], errp[2], rc, open_fds = 2;
	double deadline = now_seconds() + timeout_s;
	pid_t pid;

	*out = NULL;
	if (err != NULL)
		*err = NULL;
	*status = 0;
	if (pipe2(outp, O_CLOEXEC) != 0) {
		error_set(e, _("cannot run %s: %s"), argv[0], strerror(errno));
		return -1;
	}
	if (pipe2(errp, O_CLOEXEC) != 0) {
		error_set(e, _("cannot run %s: %s"), argv[0], strerror(errno));
		close(outp[0]);
		close(outp[1]);
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, outp[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, errp[1], STDERR_FILENO);
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(outp[1]);
	close(errp[1]);
	if (rc != 0) {
		error_set(e, _("cannot run %s: %s"), argv[0], strerror(rc));
		close(outp[0]);
		close(errp[0]);
		return -1;
	}
	{
		struct pollfd fds[2] = { { outp[0], POLLIN, 0 }, { errp[0], POLLIN, 0 } };

		while (open_fds > 0) {
			int left = (int)((deadline - now_seconds()) * 1000);

			if (left <= 0) {
				kill(pid, SIGKILL);
				break;
			}
			if (poll(fds, 2, left) < 0 && errno != EINTR)
				break;
			for (int i = 0; i < 2; i++)
				if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) &&
				    drain(fds[i].fd, i == 0 ? &ob : &eb)) {
					close(fds[i].fd);
					fds[i].fd = -1;
					open_fds--;
				}
		}
		for (int i = 0; i < 2; i++)
			if (fds[i].fd >= 0)
				close(fds[i].fd);
	}
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	if (open_fds > 0) {
		error_set(e, _("%s did not finish within %d seconds and was stopped"), argv[0], timeout_s);
		strbuf_free(&ob);
		strbuf_free(&eb);
		return -1;
	}
	*out = ob.s ? ob.s : xstrdup("");
	if (err != NULL)
		*err = eb.s ? eb.s : xstrdup("");
	else
		strbuf_free(&eb);
	return 0;
}

/* Run tool with these arguments on the cubin; its output, or NULL and e. */
static char *run_tool(enum toolkit_program program, const char *const args[], int nargs, const char *path,
    struct error *e)
{
	char *tool = toolkit_program(program, e), *out = NULL, *err = NULL;
	char *argv[8];
	int status, n = 0;

	if (tool == NULL)
		return NULL;
	argv[n++] = tool;
	for (int i = 0; i < nargs && n < 6; i++)
		argv[n++] = (char *)args[i];
	argv[n++] = (char *)path;
	argv[n] = NULL;
	if (cubin_run(argv, 120, &out, &err, &status, e) != 0) {
		free(tool);
		return NULL;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		size_t len = strcspn(err, "\n");
		/* its first line; a precision of 0 would print nothing of the words for silence */
		const char *said = len > 0 ? err : _("it said nothing");

		error_set(e, _("%s failed on %s: %.*s"), tool, path, len > 0 ? (int)len : (int)strlen(said),
		    said);
		free(out);
		out = NULL;
	}
	free(err);
	free(tool);
	return out;
}

int cubin_sass(const char *path, const char *symbol, const char *arch, char **sass, struct error *e)
{
	static const char *const args[] = { "-sass" };
	char *text = run_tool(TOOLKIT_CUOBJDUMP, args, 1, path, e);

	*sass = NULL;
	if (text == NULL)
		return -1;
	*sass = inspect_sass_from_text(text, symbol, arch);
	free(text);
	return 0;
}

int cubin_resources(const char *path, const char *symbol, struct kernel_resources *r, int *found,
    struct error *e)
{
	static const char *const args[] = { "-res-usage" };
	char *text = run_tool(TOOLKIT_CUOBJDUMP, args, 1, path, e);

	memset(r, 0, sizeof *r);
	*found = 0;
	if (text == NULL)
		return -1;
	*found = inspect_resources_from_usage(text, symbol, r) == 0;
	free(text);
	return 0;
}

/* The lines of symbol in nvdisasm -gi's text (consumed), as inspect_sass_lines() reads the build's. */
static int lines_of(char *text, const char *symbol, const char *arch, const char *source_name,
    const char *path, int **lines, int *count, struct error *e)
{
	char *listing, *module;
	const char *base = strrchr(source_name, '/');
	size_t len;

	/* as the build's kernels/<module>.lines: the architecture first */
	listing = xasprintf("arch = %s\n%s", arch, text);
	free(text);
	base = base ? base + 1 : source_name;
	len = strlen(base);
	if (len > 3 && strcmp(base + len - 3, ".cu") == 0)
		len -= 3;
	module = xasprintf("%.*s", (int)len, base);
	if (inspect_sass_lines_from_text(listing, symbol, arch, module, lines, count) != 0) {
		error_set(e, _("%s has no line information for %s on %s"), path, symbol, arch);
		free(listing);
		free(module);
		return -1;
	}
	free(listing);
	free(module);
	return 0;
}

int cubin_lines(const char *path, const char *symbol, const char *arch, const char *source_name,
    int **lines, int *count, struct error *e)
{
	static const char *const args[] = { "-gi", "-c" };
	char *text = run_tool(TOOLKIT_NVDISASM, args, 2, path, e);

	*lines = NULL;
	*count = 0;
	if (text == NULL)
		return -1;
	return lines_of(text, symbol, arch, source_name, path, lines, count, e);
}

int cubin_sass_and_lines(const char *path, const char *symbol, const char *arch, const char *source_name,
    char **sass, int **lines, int *count, struct error *no_lines, struct error *e)
{
	static const char *const args[] = { "-gi", "-c" };
	char *text = run_tool(TOOLKIT_NVDISASM, args, 2, path, e);

	*sass = NULL;
	*lines = NULL;
	*count = 0;
	error_clear(no_lines);
	if (text == NULL)
		return -1;
	*sass = inspect_sass_from_disasm(text, symbol);
	if (*sass == NULL)
		free(text);
	else if (lines_of(text, symbol, arch, source_name, path, lines, count, no_lines) != 0)
		*count = 0;
	return 0;
}

/* A class's submissions judged again on this machine's GPUs, kept by source hash, and ranked. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "class.h"
#include "i18n.h"
#include "nvml.h"
#include "paths.h"

/* ---- the folder and the machine ----------------------------------------------------- */

int class_visible_devices(const char *v, int *index, int max)
{
	int n = 0;

	if (v == NULL)
		return -1;
	while (*v != '\0' && n < max) {
		char *end;
		long i = strtol(v, &end, 10);

		if (end == v || i < 0)
			return -1;	/* UUIDs or MIG names: use the GPUs as CUDA numbers them, one slot */
		index[n++] = (int)i;
		v = *end == ',' ? end + 1 : end;
		if (*end != ',' && *end != '\0')
			return -1;
	}
	return n;
}

/*
 * Checks at once on one GPU: a check spends most of its seconds in its
 * tools (compute-sanitizer, ncu), which need processors, not the GPU's
 * time; each takes the GPU alone only to time (see gpu_lock.h).  About
 * four processors a check, at most four checks a GPU.
 */
static int checks_per_gpu(long cpus, int ngpus)
{
	const char *v = getenv("CUDATUTOR_CLASS_PER_GPU");
	long n = cpus / (4L * (ngpus > 0 ? ngpus : 1));

	if (v != NULL && *v != '\0')
		n = strtol(v, NULL, 10);
	return n < 1 ? 1 : n > 4 ? 4 : (int)n;
}

static void find_gpus(struct class_board *b)
{
	char names[CLASS_MAX_GPUS * 2][96];
	int index[CLASS_MAX_GPUS], n, nvisible, ngpus = 0;
	struct error e;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	n = getenv("CUDATUTOR_NO_GPU") != NULL && *getenv("CUDATUTOR_NO_GPU") != '\0' ? 0 :
	    nvml_gpus(names, (int)ARRAY_LEN(names), &e);
	b->per_gpu = 1;
	if (n <= 0) {
		/* no GPU: nothing is timed, so checks may share the processors */
		b->gpu = false;
		b->nslots = cpus >= 4 ? 4 : cpus >= 2 ? (int)cpus : 1;
		for (int i = 0; i < b->nslots; i++)
			b->slot_gpu[i][0] = '\0';
		return;
	}
	b->gpu = true;
	nvisible = class_visible_devices(getenv("CUDA_VISIBLE_DEVICES"), index, CLASS_MAX_GPUS);
	if (nvisible < 0) {
		nvisible = n < CLASS_MAX_GPUS ? n : CLASS_MAX_GPUS;
		for (int i = 0; i < nvisible; i++)
			index[i] = i;
	}
	for (int i = 0; i < nvisible; i++)
		if (index[i] < n)
			index[ngpus++] = index[i];
	b->per_gpu = checks_per_gpu(cpus, ngpus);
	b->nslots = 0;
	for (int k = 0; k < b->per_gpu; k++)
		for (int i = 0; i < ngpus; i++) {
			snprintf(b->slot_gpu[b->nslots], sizeof b->slot_gpu[0], "%s", names[index[i]]);
			b->slot_device[b->nslots++] = index[i];
		}
	if (b->nslots == 0) {
		b->gpu = false;
		b->nslots = 1;
		b->slot_gpu[0][0] = '\0';
	}
}

int class_open(struct class_board *b, const char *dir, const char *only, struct error *e)
{
	char self[PATH_MAX];
	ssize_t n;
	const char *limit = getenv("CUDATUTOR_CLASS_TIME_LIMIT");
	char *base;

	memset(b, 0, sizeof *b);
	if (!dir_exists(dir)) {
		error_set(e, _("%s is not a folder: give the folder the class's submissions are in"), dir);
		return -1;
	}
	if ((n = readlink("/proc/self/exe", self, sizeof self - 1)) <= 0) {
		error_set(e, _("cannot find this program to run its checks (%s)"), strerror(errno));
		return -1;
	}
	self[n] = '\0';
	base = paths_cache_dir();
	b->cache = xasprintf("%s/class", base);
	free(base);
	{
		const char *sub[] = { "verdicts", "sources", "logs", "state", "locks" };
		for (size_t i = 0; i < ARRAY_LEN(sub); i++) {
			char *p = xasprintf("%s/%s", b->cache, sub[i]);
			int rc = mkdir_p(p, e);

			free(p);
			if (rc != 0) {
				free(b->cache);
				return -1;
			}
		}
	}
	b->dir = xstrdup(dir);
	b->only = only != NULL ? xstrdup(only) : NULL;
	b->program = xstrdup(self);
	/* a tutor built again may judge otherwise: its verdicts are not the old one's */
	{
		struct stat st;

		if (stat(self, &st) == 0)
			snprintf(b->judge, sizeof b->judge, "%lld.%ld.%lld", (long long)st.st_mtim.tv_sec,
			    st.st_mtim.tv_nsec, (long long)st.st_size);
	}
	b->time_limit = limit != NULL && atof(limit) > 0 ? atof(limit) : CLASS_TIME_LIMIT;
	find_gpus(b);
	for (int i = 0; i < CLASS_MAX_SLOTS; i++)
		b->slot_entry[i] = -1;
	return 0;
}

/* ---- the cache of verdicts, by source hash ------------------------------------------- */

/* The cache's name for a verdict on s judged on gpu ("" without one), newly allocated. */
static char *verdict_path(const struct class_board *b, const struct submission *s, const char *gpu)
{
	char *key = xasprintf("%s\n%s\n%s\n%s\n%s", s->exercise, s->sha256, PACKAGE_VERSION, b->judge, gpu), hex[65];

	submission_sha256(key, strlen(key), hex);
	free(key);
	return xasprintf("%s/verdicts/%.32s.json", b->cache, hex);
}

static json_t *verdict_to_json(const struct class_verdict *v)
{
	return json_pack("{s:b, s:b, s:s, s:i, s:i, s:f, s:f, s:f, s:s, s:I, s:f}", "graded", v->graded,
	    "passed", v->passed, "reason", v->reason, "sass_passed", v->sass_passed, "sass_checks", v->sass_checks,
	    "ms", v->ms, "reference_ms", v->reference_ms, "ratio", v->ratio, "gpu", v->gpu,
	    "seed", (json_int_t)v->seed, "seconds", v->seconds);
}

static void string_of(json_t *j, const char *key, char *out, size_t len)
{
	json_t *v = json_object_get(j, key);

	utf8_copy(out, len, json_is_string(v) ? json_string_value(v) : "");
}

static double number_of(json_t *j, const char *key)
{
	json_t *v = json_object_get(j, key);

	return json_is_number(v) ? json_number_value(v) : 0;
}

static void verdict_from_json(json_t *j, struct class_verdict *v)
{
	memset(v, 0, sizeof *v);
	v->graded = json_is_true(json_object_get(j, "graded"));
	v->passed = json_is_true(json_object_get(j, "passed"));
	string_of(j, "reason", v->reason, sizeof v->reason);
	v->sass_passed = (int)number_of(j, "sass_passed");
	v->sass_checks = (int)number_of(j, "sass_checks");
	v->ms = number_of(j, "ms");
	v->reference_ms = number_of(j, "reference_ms");
	v->ratio = number_of(j, "ratio");
	string_of(j, "gpu", v->gpu, sizeof v->gpu);
	v->seed = (unsigned long long)number_of(j, "seed");
	v->seconds = number_of(j, "seconds");
}

/* A verdict kept for this source on one of the GPUs here: true and *v when there is one. */
static bool cached_verdict(const struct class_board *b, const struct submission *s, struct class_verdict *v)
{
	for (int i = 0; i < b->nslots / b->per_gpu; i++) {
		char *path = verdict_path(b, s, b->gpu ? b->slot_gpu[i] : "");
		json_t *j = json_load_file(path, 0, NULL);

		free(path);
		if (json_is_object(j)) {
			verdict_from_json(j, v);
			v->cached = true;
			json_decref(j);
			return true;
		}
		json_decref(j);
	}
	return false;
}

static void keep_verdict(const struct class_board *b, const struct class_entry *x)
{
	char *path = verdict_path(b, &x->sub, b->gpu ? b->slot_gpu[x->slot] : "");
	json_t *j = verdict_to_json(&x->v);
	char *text = json_dumps(j, JSON_INDENT(1));
	struct error e;

	/* a cache that cannot be written costs a second judging, nothing else */
	if (text != NULL)
		(void)file_write_atomic(path, text, strlen(text), &e);
	free(text);
	json_decref(j);
	free(path);
}

/* ---- the folder, read ------------------------------------------------------------------- */

static void stop_job(struct class_board *b, struct class_entry *x)
{
	if (x->state != CLASS_JUDGING)
		return;
	kill(-x->pid, SIGKILL);
	while (waitpid(x->pid, NULL, 0) < 0 && errno == EINTR)
		;
	close(x->fd);
	strbuf_free(&x->out);
	b->slot_entry[x->slot] = -1;
	x->state = CLASS_WAITING;
}

static void entry_free(struct class_board *b, struct class_entry *x)
{
	stop_job(b, x);
	submission_free(&x->sub);
	free(x->file);
}

/* Read the file of entry x again: a submission waiting to be judged, or a bad one with its line. */
static void read_entry(struct class_board *b, struct class_entry *x)
{
	char *path = xasprintf("%s/%s", b->dir, x->file), version[17];
	struct error e;
	int rc;

	submission_free(&x->sub);
	memset(&x->v, 0, sizeof x->v);
	x->rank = 0;
	x->other_version = false;
	x->problem[0] = '\0';
	x->reread = false;
	if ((rc = submission_read(path, &x->sub, &e)) != 0) {
		x->state = CLASS_BAD;
		x->reread = rc == -2;
		utf8_copy(x->problem, sizeof x->problem, e.msg);
	} else {
		x->state = CLASS_WAITING;
		x->other_version = submission_exercise_version(x->sub.exercise, version, &e) == 0 &&
		    strcmp(version, x->sub.exercise_version) != 0;
	}
	free(path);
}

/* Which file arrived in the folder first: <0, 0, >0. */
static int arrival(const struct class_entry *a, const struct class_entry *b)
{
	if (a->mtime.tv_sec != b->mtime.tv_sec)
		return a->mtime.tv_sec < b->mtime.tv_sec ? -1 : 1;
	if (a->mtime.tv_nsec != b->mtime.tv_nsec)
		return a->mtime.tv_nsec < b->mtime.tv_nsec ? -1 : 1;
	return 0;
}

/* Whether a was handed in after b: its own time, then the file's, then the name. */
static bool newer(const struct class_entry *a, const struct class_entry *b)
{
	int c = strcmp(a->sub.submitted, b->sub.submitted);

	if (c != 0)
		return c > 0;
	if ((c = arrival(a, b)) != 0)
		return c > 0;
	return strcmp(a->file, b->file) > 0;
}

int class_newest(const struct class_board *b)
{
	int at = -1;

	for (int i = 0; i < b->n; i++)
		if (b->entries[i].state != CLASS_BAD && (at < 0 || arrival(&b->entries[i], &b->entries[at]) > 0))
			at = i;
	return at;
}

/* Of two submissions of one name to one exercise, the newer counts; the older says which. */
static int settle_duplicates(struct class_board *b)
{
	int changes = 0;

	for (int i = 0; i < b->n; i++) {
		struct class_entry *x = &b->entries[i];
		int best = i;

		if (x->state == CLASS_BAD)
			continue;
		for (int j = 0; j < b->n; j++) {
			const struct class_entry *y = &b->entries[j];
			if (j != best && y->state != CLASS_BAD && strcmp(y->sub.exercise, x->sub.exercise) == 0 &&
			    strcmp(y->sub.name, x->sub.name) == 0 && newer(y, &b->entries[best]))
				best = j;
		}
		if (best != i && x->state != CLASS_OLDER) {
			stop_job(b, x);
			x->state = CLASS_OLDER;
			changes++;
		} else if (best == i && x->state == CLASS_OLDER) {
			x->state = CLASS_WAITING;
			changes++;
		}
		x->newer = best;
	}
	return changes;
}

static int by_time(const void *pa, const void *pb)
{
	const struct class_entry *a = pa, *b = pb;
	int c = arrival(a, b);

	return c != 0 ? c : strcmp(a->file, b->file);
}

int class_scan(struct class_board *b)
{
	DIR *d = opendir(b->dir);
	struct dirent *de;
	int changes = 0, files = 0;

	b->note[0] = '\0';
	if (d == NULL) {
		snprintf(b->note, sizeof b->note, _("cannot read the folder %s (%s)"), b->dir, strerror(errno));
		return 0;
	}
	for (int i = 0; i < b->n; i++)
		b->entries[i].seen = false;
	while ((de = readdir(d)) != NULL) {
		struct class_entry *x = NULL;
		struct stat st;
		char *path;

		/* hidden files are an editor's or a file manager's, not a student's */
		if (de->d_name[0] == '.')
			continue;
		if (++files > CLASS_MAX_FILES) {
			snprintf(b->note, sizeof b->note, _("the folder holds more than %d files: only %d are read"),
			    CLASS_MAX_FILES, CLASS_MAX_FILES);
			break;
		}
		path = xasprintf("%s/%s", b->dir, de->d_name);
		if (stat(path, &st) != 0 || S_ISDIR(st.st_mode)) {
			free(path);
			continue;
		}
		free(path);
		for (int i = 0; i < b->n && x == NULL; i++)
			if (strcmp(b->entries[i].file, de->d_name) == 0)
				x = &b->entries[i];
		/* as it was at the last look: nothing to read (unless it was caught changing) */
		if (x != NULL && x->mtime.tv_sec == st.st_mtim.tv_sec && x->mtime.tv_nsec == st.st_mtim.tv_nsec &&
		    x->size == st.st_size && !x->reread) {
			x->seen = true;
			continue;
		}
		if (x == NULL) {
			if (b->n == b->cap) {
				b->cap = b->cap ? 2 * b->cap : 64;
				b->entries = xrealloc(b->entries, (size_t)b->cap * sizeof *b->entries);
			}
			x = &b->entries[b->n++];
			memset(x, 0, sizeof *x);
			x->file = xstrdup(de->d_name);
			x->fd = -1;
		} else {
			stop_job(b, x);
		}
		x->seen = true;
		x->mtime = st.st_mtim;
		x->size = st.st_size;
		read_entry(b, x);
		/* another exercise than the one asked for: not this board's */
		if (b->only != NULL && x->state != CLASS_BAD && strcmp(x->sub.exercise, b->only) != 0) {
			entry_free(b, x);
			*x = b->entries[--b->n];
			continue;
		}
		changes++;
	}
	closedir(d);
	/* files gone from the folder leave the board */
	for (int i = 0; i < b->n;) {
		if (!b->entries[i].seen) {
			entry_free(b, &b->entries[i]);
			b->entries[i] = b->entries[--b->n];
			changes++;
		} else {
			i++;
		}
	}
	/* the entries being judged keep their slots: their indices move with the sort */
	qsort(b->entries, (size_t)b->n, sizeof *b->entries, by_time);
	for (int s = 0; s < CLASS_MAX_SLOTS; s++)
		b->slot_entry[s] = -1;
	for (int i = 0; i < b->n; i++)
		if (b->entries[i].state == CLASS_JUDGING)
			b->slot_entry[b->entries[i].slot] = i;
	changes += settle_duplicates(b);
	for (int i = 0; i < b->n; i++) {
		struct class_entry *x = &b->entries[i];
		if (x->state == CLASS_WAITING && cached_verdict(b, &x->sub, &x->v))
			x->state = CLASS_JUDGED;
	}
	class_rank(b);
	return changes;
}

/* ---- judging ------------------------------------------------------------------------- */

static int start_job(struct class_board *b, int i, int slot)
{
	struct class_entry *x = &b->entries[i];
	char *src = xasprintf("%s/sources/%s-%.16s.cu", b->cache, x->sub.exercise, x->sub.sha256);
	char *log = xasprintf("%s/logs/%s-%.16s.err", b->cache, x->sub.exercise, x->sub.sha256);
	char *state = xasprintf("%s/state", b->cache);
	char *lock = xasprintf("%s/locks/gpu-%d", b->cache, b->slot_device[slot]);
	int fds[2] = { -1, -1 };
	struct error e;
	pid_t pid;

	if (file_write_atomic(src, x->sub.source, x->sub.len, &e) != 0 || pipe(fds) != 0) {
		x->state = CLASS_JUDGED;
		x->v.graded = false;
		snprintf(x->v.reason, sizeof x->v.reason, _("not judged: %s"), fds[0] < 0 ? e.msg : strerror(errno));
		free(src), free(log), free(state), free(lock);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		int err = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		char device[16];

		/* its own process group: a check past its limit is killed with all it started */
		setpgid(0, 0);
		dup2(fds[1], STDOUT_FILENO);
		if (err >= 0)
			dup2(err, STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		signal(SIGINT, SIG_IGN);
		if (b->gpu) {
			snprintf(device, sizeof device, "%d", b->slot_device[slot]);
			setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1);
			setenv("CUDA_VISIBLE_DEVICES", device, 1);
			/* the GPU's checks take turns to time: the lock they share */
			setenv("CUDATUTOR_GPU_LOCK", lock, 1);
		}
		/* the teacher's own progress is not the class's */
		setenv("XDG_STATE_HOME", state, 1);
		execl(b->program, "cudatutor", "check", x->sub.exercise, "--file", src, "--format", "json",
		    (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	free(src), free(log), free(state), free(lock);
	if (pid < 0) {
		close(fds[0]);
		x->state = CLASS_JUDGED;
		snprintf(x->v.reason, sizeof x->v.reason, _("not judged: cannot start a check (%s)"), strerror(errno));
		return -1;
	}
	setpgid(pid, pid);
	fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	x->pid = pid;
	x->fd = fds[0];
	x->slot = slot;
	x->started = now_seconds();
	memset(&x->out, 0, sizeof x->out);
	x->state = CLASS_JUDGING;
	b->slot_entry[slot] = i;
	return 0;
}

/* The last line the check wrote on stderr: why it could not check. */
static void last_error_line(const struct class_board *b, const struct class_entry *x, char *buf, size_t len)
{
	char *log = xasprintf("%s/logs/%s-%.16s.err", b->cache, x->sub.exercise, x->sub.sha256);
	size_t n = 0;
	char *text = file_read(log, &n), *line;

	free(log);
	buf[0] = '\0';
	if (text == NULL)
		return;
	while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r'))
		text[--n] = '\0';
	line = strrchr(text, '\n');
	utf8_copy(buf, len, line != NULL ? line + 1 : text);
	free(text);
}

/* The check's JSON report, into the verdict; false when it is not one. */
static bool verdict_from_check(const char *text, struct class_verdict *v)
{
	json_t *j = json_loads(text, 0, NULL), *checks;
	size_t k;
	json_t *c;

	if (!json_is_object(j)) {
		json_decref(j);
		return false;
	}
	memset(v, 0, sizeof *v);
	v->graded = json_is_true(json_object_get(j, "graded"));
	v->passed = json_is_true(json_object_get(j, "passed"));
	string_of(j, "reason", v->reason, sizeof v->reason);
	checks = json_object_get(j, "checks");
	json_array_foreach(checks, k, c) {
		v->sass_checks++;
		v->sass_passed += json_is_true(json_object_get(c, "passed"));
	}
	v->ms = number_of(j, "yours_ms");
	v->reference_ms = number_of(j, "reference_ms");
	v->ratio = number_of(j, "ratio");
	string_of(j, "gpu_name", v->gpu, sizeof v->gpu);
	v->seed = (unsigned long long)number_of(j, "seed");
	json_decref(j);
	return true;
}

/* Whether the same source of the same exercise is being judged now: then x waits for its verdict. */
static bool twin_judging(const struct class_board *b, const struct class_entry *x)
{
	for (int j = 0; j < b->n; j++) {
		const struct class_entry *y = &b->entries[j];
		if (y != x && y->state == CLASS_JUDGING && strcmp(y->sub.exercise, x->sub.exercise) == 0 &&
		    strcmp(y->sub.sha256, x->sub.sha256) == 0)
			return true;
	}
	return false;
}

/* The check of entry i ended (status as waitpid gave it): its verdict. */
static void finish_job(struct class_board *b, int i, int status, bool timed_out)
{
	struct class_entry *x = &b->entries[i];
	struct class_verdict *v = &x->v;
	bool keep = false;
	char line[512];

	close(x->fd);
	x->fd = -1;
	b->slot_entry[x->slot] = -1;
	memset(v, 0, sizeof *v);
	if (timed_out) {
		v->graded = true;
		snprintf(v->reason, sizeof v->reason, _("stopped after %.0f s, the time one check may take: does a loop "
		    "never end?"), b->time_limit);
	} else if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 3 ||
	    WEXITSTATUS(status) == 4) && x->out.s != NULL && verdict_from_check(x->out.s, v)) {
		keep = true;
	} else if (WIFEXITED(status)) {
		last_error_line(b, x, line, sizeof line);
		v->graded = false;
		snprintf(v->reason, sizeof v->reason, _("not judged: the check could not run (%s)"),
		    line[0] ? line : _("no message"));
	} else {
		v->graded = true;
		snprintf(v->reason, sizeof v->reason, _("the check's process died (signal %d: %s)"),
		    WTERMSIG(status), strsignal(WTERMSIG(status)));
	}
	if (v->gpu[0] == '\0' && b->gpu)
		snprintf(v->gpu, sizeof v->gpu, "%s", b->slot_gpu[x->slot]);
	v->seconds = now_seconds() - x->started;
	strbuf_free(&x->out);
	x->state = CLASS_JUDGED;
	if (keep) {
		keep_verdict(b, x);
		/* the same source handed in by others: the same verdict, judged once */
		for (int j = 0; j < b->n; j++) {
			struct class_entry *y = &b->entries[j];
			if (y->state == CLASS_WAITING && strcmp(y->sub.exercise, x->sub.exercise) == 0 &&
			    strcmp(y->sub.sha256, x->sub.sha256) == 0) {
				y->v = x->v;
				y->v.cached = true;
				y->state = CLASS_JUDGED;
			}
		}
	}
}

/* Read what entry i's check wrote; true at the end of its output. */
static bool drain(struct class_entry *x)
{
	char buf[65536];

	for (;;) {
		ssize_t n = read(x->fd, buf, sizeof buf);

		if (n > 0) {
			strbuf_add(&x->out, buf, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		return n == 0;
	}
}

int class_judge(struct class_board *b, int timeout_ms, bool *changed)
{
	struct pollfd fds[CLASS_MAX_SLOTS];
	int slots[CLASS_MAX_SLOTS], nfds = 0, left = 0;

	if (changed != NULL)
		*changed = false;
	for (int s = 0; s < b->nslots; s++) {
		for (int i = 0; b->slot_entry[s] < 0 && i < b->n; i++)
			if (b->entries[i].state == CLASS_WAITING && !twin_judging(b, &b->entries[i]))
				start_job(b, i, s);
		if (b->slot_entry[s] >= 0) {
			fds[nfds] = (struct pollfd){ b->entries[b->slot_entry[s]].fd, POLLIN, 0 };
			slots[nfds++] = s;
		}
	}
	/* wake by the soonest time limit, so that a check past it is stopped there, not at the next wake */
	for (int k = 0; k < nfds; k++) {
		double left = b->entries[b->slot_entry[slots[k]]].started + b->time_limit - now_seconds();
		int ms = left > 0 ? (int)(left * 1000) + 1 : 0;

		if (timeout_ms < 0 || ms < timeout_ms)
			timeout_ms = ms;
	}
	if (nfds > 0 && poll(fds, (nfds_t)nfds, timeout_ms) < 0 && errno != EINTR)
		return -1;
	for (int k = 0; k < nfds; k++) {
		int i = b->slot_entry[slots[k]], status = 0;
		struct class_entry *x = &b->entries[i];
		bool ended = drain(x);
		pid_t done = waitpid(x->pid, &status, WNOHANG);

		/* the check ended (a process it started may still hold the pipe: what it wrote is in) */
		if (done == x->pid || (ended && waitpid(x->pid, &status, 0) == x->pid)) {
			drain(x);
			finish_job(b, i, status, false);
			if (changed != NULL)
				*changed = true;
		} else if (now_seconds() - x->started > b->time_limit) {
			kill(-x->pid, SIGKILL);
			while (waitpid(x->pid, &status, 0) < 0 && errno == EINTR)
				;
			finish_job(b, i, status, true);
			if (changed != NULL)
				*changed = true;
		}
	}
	if (changed != NULL && *changed)
		class_rank(b);
	for (int i = 0; i < b->n; i++)
		left += b->entries[i].state == CLASS_WAITING || b->entries[i].state == CLASS_JUDGING;
	return left;
}

/* ---- the ranking --------------------------------------------------------------------- */

static bool ranked(const struct class_entry *x)
{
	return x->state == CLASS_JUDGED && x->v.graded && x->v.passed && x->v.ms > 0;
}

void class_rank(struct class_board *b)
{
	for (int i = 0; i < b->n; i++) {
		struct class_entry *x = &b->entries[i];

		x->rank = 0;
		if (!ranked(x))
			continue;
		x->rank = 1;
		for (int j = 0; j < b->n; j++) {
			const struct class_entry *y = &b->entries[j];
			if (j != i && ranked(y) && strcmp(y->sub.exercise, x->sub.exercise) == 0 &&
			    strcmp(y->v.gpu, x->v.gpu) == 0 && (y->v.ms < x->v.ms || (y->v.ms == x->v.ms && j < i)))
				x->rank++;
		}
	}
}

/* Where an entry goes on the board: ranked, failed, not graded, being judged, waiting, older, bad. */
static int category(const struct class_entry *x)
{
	switch (x->state) {
	case CLASS_JUDGED:
		return x->rank > 0 ? 0 : x->v.graded ? 1 : 2;
	case CLASS_JUDGING:
		return 3;
	case CLASS_WAITING:
		return 4;
	case CLASS_OLDER:
		return 5;
	default:
		return 6;
	}
}

static const struct class_board *sorting;

static int board_order(const void *pa, const void *pb)
{
	const struct class_entry *a = &sorting->entries[*(const int *)pa], *b = &sorting->entries[*(const int *)pb];
	int ca = category(a), cb = category(b), c;

	if ((ca == 6) != (cb == 6))
		return ca == 6 ? 1 : -1;
	if (ca != 6 && (c = strcmp(a->sub.exercise, b->sub.exercise)) != 0)
		return c;
	if (ca == 0 && cb == 0 && (c = strcmp(a->v.gpu, b->v.gpu)) != 0)
		return c;
	if (ca != cb)
		return ca - cb;
	if (ca == 0 && a->rank != b->rank)
		return a->rank - b->rank;
	if (ca != 6 && (c = strcmp(a->sub.name, b->sub.name)) != 0)
		return c;
	return strcmp(a->file, b->file);
}

int class_order(const struct class_board *b, int *order)
{
	for (int i = 0; i < b->n; i++)
		order[i] = i;
	sorting = b;
	qsort(order, (size_t)b->n, sizeof *order, board_order);
	sorting = NULL;
	return b->n;
}

void class_close(struct class_board *b)
{
	for (int i = 0; i < b->n; i++)
		entry_free(b, &b->entries[i]);
	free(b->entries);
	free(b->dir);
	free(b->only);
	free(b->program);
	free(b->cache);
	memset(b, 0, sizeof *b);
}

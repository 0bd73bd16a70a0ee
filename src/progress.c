/* The user's progress: steps done, where they left off, their own results per GPU. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "i18n.h"
#include "paths.h"
#include "progress.h"

#define PROGRESS_FORMAT "cudatutor-progress"
#define PROGRESS_VERSION 1

void progress_free(struct progress *p)
{
	for (int i = 0; i < p->nreports; i++)
		run_report_free(&p->reports[i]);
	free(p->reports);
	free(p->reports_put);
	free(p->lessons);
	free(p->exercises);
	p->reports = NULL;
	p->reports_put = NULL;
	p->lessons = NULL;
	p->exercises = NULL;
	p->nreports = p->nlessons = p->nexercises = 0;
}

/* A new report at the end, zeroed. */
static struct run_report *report_slot(struct progress *p)
{
	p->reports = xrealloc(p->reports, (size_t)(p->nreports + 1) * sizeof *p->reports);
	p->reports_put = xrealloc(p->reports_put, (size_t)(p->nreports + 1) * sizeof *p->reports_put);
	p->reports_put[p->nreports] = false;
	memset(&p->reports[p->nreports], 0, sizeof *p->reports);
	return &p->reports[p->nreports++];
}

static struct progress_lesson *find_lesson(const struct progress *p, const char *id)
{
	for (int i = 0; i < p->nlessons; i++)
		if (strcmp(p->lessons[i].id, id) == 0)
			return &p->lessons[i];
	return NULL;
}

static struct progress_lesson *lesson_entry(struct progress *p, const char *id)
{
	struct progress_lesson *l = find_lesson(p, id);

	if (l != NULL)
		return l;
	p->lessons = xrealloc(p->lessons, (size_t)(p->nlessons + 1) * sizeof *p->lessons);
	l = &p->lessons[p->nlessons++];
	memset(l, 0, sizeof *l);
	utf8_copy(l->id, sizeof l->id, id);
	return l;
}

const struct progress_exercise *progress_find_exercise(const struct progress *p, const char *id)
{
	for (int i = 0; i < p->nexercises; i++)
		if (strcmp(p->exercises[i].id, id) == 0)
			return &p->exercises[i];
	return NULL;
}

struct progress_exercise *progress_exercise(struct progress *p, const char *id)
{
	struct progress_exercise *x = (struct progress_exercise *)progress_find_exercise(p, id);

	if (x != NULL)
		return x;
	p->exercises = xrealloc(p->exercises, (size_t)(p->nexercises + 1) * sizeof *p->exercises);
	x = &p->exercises[p->nexercises++];
	memset(x, 0, sizeof *x);
	utf8_copy(x->id, sizeof x->id, id);
	return x;
}

void progress_exercise_passed(struct progress *p, const char *id)
{
	progress_exercise(p, id)->passed = true;
}

bool progress_exercise_time(struct progress *p, const char *id, double ms, const char *gpu,
    const char *date)
{
	struct progress_exercise *x = progress_exercise(p, id);

	if (!(ms > 0))
		return false;
	if (x->best_ms > 0 && strcmp(x->gpu, gpu) == 0 && x->best_ms <= ms)
		return false;
	x->best_ms = ms;
	utf8_copy(x->gpu, sizeof x->gpu, gpu);
	utf8_copy(x->date, sizeof x->date, date);
	return true;
}

/* "exercises": {"vec4": {"passed": true, "hints": 1, "best_ms": 0.5, "gpu": "...", "date": "..."}} */
static int parse_exercises(struct progress *p, json_t *exercises, struct error *e)
{
	const char *key;
	json_t *v;

	if (exercises == NULL)
		return 0;	/* a file from before the exercises */
	if (!json_is_object(exercises)) {
		error_set(e, _("'exercises' must be an object"));
		return -1;
	}
	json_object_foreach(exercises, key, v) {
		json_t *passed = json_object_get(v, "passed"), *hints = json_object_get(v, "hints");
		json_t *best = json_object_get(v, "best_ms"), *gpu = json_object_get(v, "gpu");
		json_t *date = json_object_get(v, "date");
		struct progress_exercise *x;

		if (!json_is_object(v) || (passed != NULL && !json_is_boolean(passed)) ||
		    (hints != NULL && (!json_is_integer(hints) || json_integer_value(hints) < 0 ||
		    json_integer_value(hints) > 1000)) ||
		    (best != NULL && (!json_is_number(best) || json_number_value(best) < 0)) ||
		    (gpu != NULL && !json_is_string(gpu)) || (date != NULL && !json_is_string(date))) {
			error_set(e, _("exercise '%s' is not an object of passed, hints, best_ms, gpu and date"), key);
			return -1;
		}
		x = progress_exercise(p, key);
		x->passed = json_is_true(passed);
		x->hints_shown = hints ? (int)json_integer_value(hints) : 0;
		x->best_ms = best ? json_number_value(best) : 0;
		utf8_copy(x->gpu, sizeof x->gpu, gpu ? json_string_value(gpu) : "");
		utf8_copy(x->date, sizeof x->date, date ? json_string_value(date) : "");
	}
	return 0;
}

static json_t *exercises_to_json(const struct progress *p)
{
	json_t *all = json_object();

	for (int i = 0; i < p->nexercises; i++) {
		const struct progress_exercise *x = &p->exercises[i];
		json_t *o = json_pack("{s:b, s:i}", "passed", x->passed, "hints", x->hints_shown);

		if (x->best_ms > 0) {
			json_object_set_new(o, "best_ms", json_real(x->best_ms));
			json_object_set_new(o, "gpu", json_string(x->gpu));
			json_object_set_new(o, "date", json_string(x->date));
		}
		json_object_set_new(all, x->id, o);
	}
	return all;
}

/* parse(): a newer version's file, which is not damaged. */
#define PARSE_NEWER 2

/* Read the file's content into p; -1 with e saying what is wrong, or PARSE_NEWER. */
static int parse(struct progress *p, json_t *root, struct error *e)
{
	json_t *fmt = json_object_get(root, "format"), *last, *lessons, *reports, *v;
	const char *key;

	if (!json_is_object(root) || !json_is_string(fmt) ||
	    strcmp(json_string_value(fmt), PROGRESS_FORMAT) != 0) {
		error_set(e, _("it is not a cudatutor progress file"));
		return -1;
	}
	v = json_object_get(root, "version");
	if (!json_is_integer(v) || json_integer_value(v) < 1) {
		error_set(e, _("'version' must be a format version"));
		return -1;
	}
	if (json_integer_value(v) > PROGRESS_VERSION) {
		error_set(e, _("format version %lld"), (long long)json_integer_value(v));
		return PARSE_NEWER;
	}
	last = json_object_get(root, "last");
	if (json_is_object(last)) {
		json_t *id = json_object_get(last, "lesson"), *step = json_object_get(last, "step");
		if (!json_is_string(id) || !json_is_integer(step) || json_integer_value(step) < 0) {
			error_set(e, _("'last' must hold a lesson and a step"));
			return -1;
		}
		utf8_copy(p->last_lesson, sizeof p->last_lesson, json_string_value(id));
		p->last_step = (int)json_integer_value(step);
		/* older files have no exercise: the step's page */
		id = json_object_get(last, "exercise");
		if (json_is_string(id))
			utf8_copy(p->last_exercise, sizeof p->last_exercise, json_string_value(id));
	} else if (last != NULL && !json_is_null(last)) {
		error_set(e, _("'last' must hold a lesson and a step"));
		return -1;
	}
	lessons = json_object_get(root, "lessons");
	if (lessons != NULL && !json_is_object(lessons)) {
		error_set(e, _("'lessons' must be an object"));
		return -1;
	}
	json_object_foreach(lessons, key, v) {
		json_t *done = json_object_get(v, "done"), *s;
		struct progress_lesson *l;
		size_t i;

		if (!json_is_array(done)) {
			error_set(e, _("lesson '%s' has no list of steps done"), key);
			return -1;
		}
		l = lesson_entry(p, key);
		json_array_foreach(done, i, s) {
			json_int_t k = json_is_integer(s) ? json_integer_value(s) : -1;
			if (k < 1 || k > PROGRESS_MAX_STEPS) {
				error_set(e, _("lesson '%s' lists a step that is not a step number"), key);
				return -1;
			}
			l->done[k - 1] = true;
		}
	}
	reports = json_object_get(root, "results");
	if (reports != NULL && !json_is_array(reports)) {
		error_set(e, _("'results' must be a list"));
		return -1;
	}
	for (size_t i = 0; i < json_array_size(reports); i++) {
		struct run_report r;
		if (results_report_from_json(json_array_get(reports, i), p->path, &r, e) != 0)
			return -1;
		*report_slot(p) = r;
	}
	return parse_exercises(p, json_object_get(root, "exercises"), e);
}

/*
 * A file that cannot be read now (permissions, a directory in its place)
 * or that a newer version wrote is not damaged: it stays as it is, and
 * nothing is written over it this time (p->keep).
 */
static int keep_file(struct progress *p, struct error *notice, const char *fmt, const char *why)
{
	p->keep = true;
	error_set(notice, fmt, why, p->path);
	return 1;
}

/*
 * The lock on progress.json.lock, held while the file is read and
 * written (the lock file stays: removing it would let two processes lock
 * two files).  The file descriptor, or -1 with errno.
 */
static int lock_take(const struct progress *p)
{
	char *path = xasprintf("%s.lock", p->path);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0 && (errno == EACCES || errno == EROFS)) {
		int saved = errno;
		/* a read-only directory: a lock file already there still locks */
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			errno = saved;
	}
	free(path);
	if (fd < 0)
		return -1;
	while (flock(fd, LOCK_EX) != 0) {
		if (errno != EINTR) {
			int saved = errno;
			close(fd);
			errno = saved;
			return -1;
		}
	}
	return fd;
}

static void lock_drop(int fd)
{
	if (fd >= 0)
		close(fd);	/* and the lock goes with it */
}

/* Read p->path into p (otherwise empty): progress_load's work, under the lock where it can be had. */
static int read_state(struct progress *p, struct error *notice)
{
	json_error_t jerr;
	json_t *root;
	struct error why = { "" };
	struct stat st;
	char *text;
	size_t len = 0;
	int rc = 0;

	error_clear(notice);
	if (stat(p->path, &st) != 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;	/* the first run */
		return keep_file(p, notice, _("The progress file cannot be read (%s): it is left as it is, "
		    "and this session's progress is not saved (%s)."), strerror(errno));
	}
	if (!S_ISREG(st.st_mode))
		return keep_file(p, notice, _("The progress file cannot be read (%s): it is left as it is, "
		    "and this session's progress is not saved (%s)."),
		    S_ISDIR(st.st_mode) ? strerror(EISDIR) : _("not a regular file"));
	text = file_read(p->path, &len);
	if (text == NULL)
		return keep_file(p, notice, _("The progress file cannot be read (%s): it is left as it is, "
		    "and this session's progress is not saved (%s)."), strerror(errno));
	root = json_loadb(text, len, 0, &jerr);
	free(text);
	if (root == NULL) {
		error_set(&why, _("line %d: %s"), jerr.line, jerr.text);
	} else if ((rc = parse(p, root, &why)) != 0) {
		progress_free(p);
		p->last_lesson[0] = '\0';
		p->last_step = 0;
		p->last_exercise[0] = '\0';
	}
	json_decref(root);
	if (rc == PARSE_NEWER)
		return keep_file(p, notice, _("The progress file is from a newer cudatutor (%s): it is left as it is, "
		    "and this session's progress is not saved; update cudatutor (%s)."), why.msg);
	if (why.msg[0] != '\0') {
		char aside[600], stamp[32];
		time_t now = time(NULL);

		progress_free(p);
		p->last_lesson[0] = '\0';
		p->last_step = 0;
		p->last_exercise[0] = '\0';
		strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%S", localtime(&now));
		snprintf(aside, sizeof aside, "%s.corrupt-%s", p->path, stamp);
		if (rename(p->path, aside) == 0) {
			error_set(notice, _("The progress file was damaged (%s): it was set aside as %s and progress starts afresh."),
			    why.msg, aside);
		} else {
			/* Then keep it where it is rather than write over it. */
			error_set(notice, _("The progress file was damaged (%s) and cannot be set aside (%s): "
			    "it is left as it is, and this session's progress is not saved (%s)."),
			    why.msg, strerror(errno), p->path);
			p->keep = true;
		}
		rc = 1;
	}
	return rc;
}

int progress_load(struct progress *p, const char *dir, struct error *notice)
{
	char *state = dir ? xstrdup(dir) : paths_state_dir();
	int lock, rc;

	memset(p, 0, sizeof *p);
	snprintf(p->path, sizeof p->path, "%s/progress.json", state);
	free(state);
	/*
	 * Reading needs no lock (saves replace the file whole), but setting a
	 * damaged file aside does: without it, the rename could take away a
	 * good file another process has just saved in its place.  Where no
	 * lock can be had (no directory yet, a read-only one), read anyway.
	 */
	lock = lock_take(p);
	rc = read_state(p, notice);
	lock_drop(lock);
	return rc;
}

/* Fold src's best time into dst's: the faster on one GPU; of two GPUs, the newer (see progress_exercise_time). */
static void merge_time(struct progress_exercise *dst, const struct progress_exercise *src)
{
	if (!(src->best_ms > 0))
		return;
	if (dst->best_ms > 0 && (strcmp(dst->gpu, src->gpu) == 0 ? dst->best_ms <= src->best_ms :
	    strcmp(dst->date, src->date) >= 0))
		return;
	dst->best_ms = src->best_ms;
	utf8_copy(dst->gpu, sizeof dst->gpu, src->gpu);
	utf8_copy(dst->date, sizeof dst->date, src->date);
}

/*
 * Fold src into dst, losing nothing of either: steps done, hints, passes
 * and best times.  Reports: with all_reports every one of src's replaces
 * dst's; else only those put in src since its last save, and those dst
 * lacks.  The position is the caller's business.
 */
static void merge(struct progress *dst, const struct progress *src, bool all_reports)
{
	for (int i = 0; i < src->nlessons; i++) {
		struct progress_lesson *l = lesson_entry(dst, src->lessons[i].id);
		for (int k = 0; k < PROGRESS_MAX_STEPS; k++)
			l->done[k] |= src->lessons[i].done[k];
	}
	for (int i = 0; i < src->nexercises; i++) {
		const struct progress_exercise *s = &src->exercises[i];
		struct progress_exercise *x = progress_exercise(dst, s->id);

		x->passed |= s->passed;
		if (s->hints_shown > x->hints_shown)
			x->hints_shown = s->hints_shown;
		merge_time(x, s);
	}
	for (int i = 0; i < src->nreports; i++) {
		const struct run_report *r = &src->reports[i];
		if (all_reports || src->reports_put[i] ||
		    progress_find_report(dst, r->lesson, r->gpu.name, r->size, r->block) == NULL)
			progress_put_report(dst, r);
	}
}

/* Write p to its file, atomically. */
static int write_state(const struct progress *p, struct error *e)
{
	json_t *root, *lessons, *reports;
	char *text;
	int rc;

	root = json_object();
	lessons = json_object();
	reports = json_array();
	json_object_set_new(root, "format", json_string(PROGRESS_FORMAT));
	json_object_set_new(root, "version", json_integer(PROGRESS_VERSION));
	if (p->last_lesson[0] != '\0')
		json_object_set_new(root, "last", json_pack("{s:s, s:i, s:s*}", "lesson", p->last_lesson,
		    "step", p->last_step, "exercise", p->last_exercise[0] != '\0' ? p->last_exercise : NULL));
	else
		json_object_set_new(root, "last", json_null());
	for (int i = 0; i < p->nlessons; i++) {
		json_t *done = json_array();
		for (int k = 0; k < PROGRESS_MAX_STEPS; k++)
			if (p->lessons[i].done[k])
				json_array_append_new(done, json_integer(k + 1));
		json_object_set_new(lessons, p->lessons[i].id, json_pack("{s:o}", "done", done));
	}
	json_object_set_new(root, "lessons", lessons);
	for (int i = 0; i < p->nreports; i++)
		json_array_append_new(reports, results_report_to_json(&p->reports[i]));
	json_object_set_new(root, "results", reports);
	json_object_set_new(root, "exercises", exercises_to_json(p));
	text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(8));
	json_decref(root);
	if (text == NULL) {
		error_set(e, _("cannot format the progress as JSON"));
		return -1;
	}
	rc = file_write_atomic(p->path, text, strlen(text), e);
	free(text);
	return rc;
}

int progress_save(struct progress *p, struct error *e)
{
	struct progress disk;
	struct error notice;
	char *dir, *slash;
	int rc, lock = -1;

	if (p->keep)
		return 0;	/* the load said so once; the file stays as it was */
	dir = xstrdup(p->path);
	slash = strrchr(dir, '/');
	if (slash != NULL)
		*slash = '\0';
	rc = slash != NULL ? mkdir_p(dir, e) : 0;
	if (rc == 0 && (lock = lock_take(p)) < 0) {
		/*
		 * A directory the user may not write: no lock file can be made
		 * there, and no save can be either; the write below says so in
		 * the words of any failed write, naming the progress file.
		 */
		if (!((errno == EACCES || errno == EROFS) && access(slash != NULL ? dir : ".", W_OK) != 0)) {
			error_set(e, _("cannot lock %s.lock to save the progress: %s (the old file is kept)"),
			    p->path, strerror(errno));
			rc = -1;
		}
	}
	free(dir);
	if (rc != 0)
		return -1;
	/* What other processes saved since: read again under the lock, and merged into. */
	memset(&disk, 0, sizeof disk);
	snprintf(disk.path, sizeof disk.path, "%s", p->path);
	if (read_state(&disk, &notice) != 0 && disk.keep) {
		/* it became unreadable, or a newer cudatutor wrote it: say so once, then leave it */
		p->keep = true;
		error_set(e, "%s", notice.msg);
		progress_free(&disk);
		lock_drop(lock);
		return -1;
	}
	merge(&disk, p, false);
	if (p->moved || disk.last_lesson[0] == '\0') {
		memcpy(disk.last_lesson, p->last_lesson, sizeof disk.last_lesson);
		memcpy(disk.last_exercise, p->last_exercise, sizeof disk.last_exercise);
		disk.last_step = p->last_step;
	}
	rc = write_state(&disk, e);
	if (rc == 0) {
		/* p now holds what the file does, and its changes are saved */
		merge(p, &disk, true);
		memcpy(p->last_lesson, disk.last_lesson, sizeof p->last_lesson);
		memcpy(p->last_exercise, disk.last_exercise, sizeof p->last_exercise);
		p->last_step = disk.last_step;
		p->moved = false;
		for (int i = 0; i < p->nreports; i++)
			p->reports_put[i] = false;
	}
	progress_free(&disk);
	lock_drop(lock);
	return rc;
}

void progress_set_position(struct progress *p, const char *lesson, int step)
{
	snprintf(p->last_lesson, sizeof p->last_lesson, "%s", lesson);
	p->last_step = step < 0 ? 0 : step;
	p->last_exercise[0] = '\0';
	p->moved = true;
}

void progress_set_exercise_page(struct progress *p, const char *lesson, int step, const char *exercise)
{
	progress_set_position(p, lesson, step);
	snprintf(p->last_exercise, sizeof p->last_exercise, "%s", exercise);
}

void progress_mark_done(struct progress *p, const char *lesson, int step)
{
	if (step < 1 || step > PROGRESS_MAX_STEPS)
		return;
	lesson_entry(p, lesson)->done[step - 1] = true;
}

bool progress_is_done(const struct progress *p, const char *lesson, int step)
{
	const struct progress_lesson *l = find_lesson(p, lesson);

	return l != NULL && step >= 1 && step <= PROGRESS_MAX_STEPS && l->done[step - 1];
}

int progress_done_count(const struct progress *p, const char *lesson)
{
	const struct progress_lesson *l = find_lesson(p, lesson);
	int n = 0;

	for (int k = 0; l != NULL && k < PROGRESS_MAX_STEPS; k++)
		n += l->done[k];
	return n;
}

static int same_run(const struct run_report *a, const char *lesson, const char *gpu,
    unsigned long long size, unsigned int block)
{
	return strcmp(a->lesson, lesson) == 0 && strcmp(a->gpu.name, gpu) == 0 &&
	    a->size == size && a->block == block;
}

void progress_put_report(struct progress *p, const struct run_report *r)
{
	struct run_report *slot = NULL;
	int i;

	for (i = 0; i < p->nreports; i++)
		if (same_run(&p->reports[i], r->lesson, r->gpu.name, r->size, r->block)) {
			slot = &p->reports[i];
			run_report_free(slot);
			break;
		}
	if (slot == NULL)
		slot = report_slot(p);
	p->reports_put[i] = true;
	*slot = *r;
	slot->steps = xcalloc((size_t)r->nsteps + 1, sizeof *slot->steps);
	memcpy(slot->steps, r->steps, (size_t)r->nsteps * sizeof *slot->steps);
}

const struct run_report *progress_find_report(const struct progress *p, const char *lesson,
    const char *gpu, unsigned long long size, unsigned int block)
{
	for (int i = 0; i < p->nreports; i++)
		if (same_run(&p->reports[i], lesson, gpu, size, block))
			return &p->reports[i];
	return NULL;
}

int progress_step_gpus(const struct progress *p, const char *lesson, int step,
    const char **names, int max)
{
	int n = 0;

	for (int i = 0; i < p->nreports && n < max; i++) {
		const struct run_report *r = &p->reports[i];
		int dup = 0;

		if (strcmp(r->lesson, lesson) != 0)
			continue;
		for (int k = 0; k < r->nsteps; k++) {
			if (r->steps[k].step != step || !r->steps[k].ran)
				continue;
			for (int j = 0; j < n; j++)
				if (strcmp(names[j], r->gpu.name) == 0)
					dup = 1;
			if (!dup)
				names[n++] = r->gpu.name;
			break;
		}
	}
	return n;
}

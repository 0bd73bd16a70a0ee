/* Progress: kept across runs, results per GPU, and damaged files set aside. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_main.h"
#include "progress.h"

static char base[] = "/tmp/cudatutor-test-progress-XXXXXX";
static char dir[600];

/* Each test has directories of its own (tests run in forked children). */
static void fresh_dir(const char *name)
{
	snprintf(dir, sizeof dir, "%s/%s/cudatutor", base, name);
}

static void report(struct run_report *r, const char *gpu, unsigned long long size, double ms)
{
	memset(r, 0, sizeof *r);
	snprintf(r->lesson, sizeof r->lesson, "unrolling");
	snprintf(r->gpu.name, sizeof r->gpu.name, "%s", gpu);
	snprintf(r->gpu.arch, sizeof r->gpu.arch, "sm_90");
	snprintf(r->gpu.driver, sizeof r->gpu.driver, "1.0");
	snprintf(r->gpu.cuda, sizeof r->gpu.cuda, "13.0");
	r->copy_gbps = 1000;
	r->size = size;
	r->block = 1024;
	r->nsteps = 2;
	r->steps = calloc(2, sizeof *r->steps);
	for (int i = 0; i < 2; i++) {
		struct step_result *s = &r->steps[i];
		s->step = i + 1;
		snprintf(s->kernel, sizeof s->kernel, "%s", i == 0 ? "reduce_unroll2" : "reduce_unroll4");
		s->size = size;
		s->block = 1024;
		s->grid = 8;
		if (i == 1) {
			snprintf(s->error, sizeof s->error, "not run yet");
			continue;
		}
		s->ran = s->correct = true;
		s->reps = 20;
		s->median_ms = s->q1_ms = s->q3_ms = s->min_ms = s->max_ms = ms;
		snprintf(s->check_detail, sizeof s->check_detail, "sum ok");
	}
	results_derive(r);
}

START_TEST(first_run_is_empty)
{
	struct progress p;
	struct error notice;

	fresh_dir("first");
	ck_assert_int_eq(progress_load(&p, dir, &notice), 0);
	ck_assert_str_eq(p.last_lesson, "");
	ck_assert_int_eq(p.nlessons, 0);
	ck_assert_int_eq(p.nreports, 0);
	ck_assert(!progress_is_done(&p, "unrolling", 1));
	progress_free(&p);
}
END_TEST

START_TEST(survives_a_restart)
{
	struct progress p, q;
	struct error e, notice;
	struct run_report r;
	const struct run_report *found;
	const char *names[4];

	fresh_dir("restart");
	ck_assert_int_eq(progress_load(&p, dir, &notice), 0);
	progress_set_position(&p, "unrolling", 3);
	progress_mark_done(&p, "unrolling", 1);
	progress_mark_done(&p, "unrolling", 3);
	progress_mark_done(&p, "reduction", 2);
	progress_mark_done(&p, "unrolling", 0);		/* not a step: ignored */
	progress_mark_done(&p, "unrolling", 999);
	report(&r, "NVIDIA H100", 1 << 24, 2.0);
	progress_put_report(&p, &r);
	run_report_free(&r);
	/* the directory does not exist yet: saving creates it */
	ck_assert_msg(progress_save(&p, &e) == 0, "%s", e.msg);
	progress_free(&p);

	ck_assert_int_eq(progress_load(&q, dir, &notice), 0);
	ck_assert_str_eq(q.last_lesson, "unrolling");
	ck_assert_int_eq(q.last_step, 3);
	ck_assert(progress_is_done(&q, "unrolling", 1));
	ck_assert(!progress_is_done(&q, "unrolling", 2));
	ck_assert(progress_is_done(&q, "unrolling", 3));
	ck_assert(progress_is_done(&q, "reduction", 2));
	ck_assert_int_eq(progress_done_count(&q, "unrolling"), 2);
	found = progress_find_report(&q, "unrolling", "NVIDIA H100", 1 << 24, 1024);
	ck_assert_ptr_nonnull(found);
	ck_assert(!found->recorded);
	ck_assert_int_eq(found->nsteps, 2);
	ck_assert(found->steps[0].ran);
	ck_assert_double_eq_tol(found->steps[0].median_ms, 2.0, 1e-9);
	ck_assert_double_eq_tol(found->steps[0].gbps, 4.0 * (1 << 24) / 2e-3 / 1e9, 1e-6);
	ck_assert(!found->steps[1].ran);
	ck_assert_str_eq(found->steps[1].error, "not run yet");
	ck_assert_ptr_null(progress_find_report(&q, "unrolling", "NVIDIA H100", 1 << 28, 1024));
	ck_assert_int_eq(progress_step_gpus(&q, "unrolling", 1, names, 4), 1);
	ck_assert_str_eq(names[0], "NVIDIA H100");
	ck_assert_int_eq(progress_step_gpus(&q, "unrolling", 2, names, 4), 0);
	ck_assert_str_eq(q.last_exercise, "");

	/* left on an exercise's page: that page, until a step's page is the position again */
	progress_set_exercise_page(&q, "vectorize", 3, "float4");
	ck_assert_msg(progress_save(&q, &e) == 0, "%s", e.msg);
	progress_free(&q);
	ck_assert_int_eq(progress_load(&q, dir, &notice), 0);
	ck_assert_str_eq(q.last_lesson, "vectorize");
	ck_assert_int_eq(q.last_step, 3);
	ck_assert_str_eq(q.last_exercise, "float4");
	progress_set_position(&q, "vectorize", 3);
	ck_assert_str_eq(q.last_exercise, "");
	progress_free(&q);
}
END_TEST

START_TEST(one_report_per_gpu_size_block)
{
	struct progress p;
	struct error notice;
	struct run_report r;
	const char *names[4];

	fresh_dir("replace");
	progress_load(&p, dir, &notice);
	report(&r, "NVIDIA H100", 1 << 24, 2.0);
	progress_put_report(&p, &r);
	run_report_free(&r);
	report(&r, "NVIDIA H100", 1 << 24, 1.0);		/* again: replaces */
	progress_put_report(&p, &r);
	run_report_free(&r);
	report(&r, "NVIDIA H100", 1 << 28, 9.0);		/* another size */
	progress_put_report(&p, &r);
	run_report_free(&r);
	report(&r, "NVIDIA A100", 1 << 24, 3.0);		/* another GPU */
	progress_put_report(&p, &r);
	run_report_free(&r);
	ck_assert_int_eq(p.nreports, 3);
	ck_assert_double_eq_tol(progress_find_report(&p, "unrolling", "NVIDIA H100", 1 << 24,
	    1024)->steps[0].median_ms, 1.0, 1e-12);
	ck_assert_int_eq(progress_step_gpus(&p, "unrolling", 1, names, 4), 2);
	progress_free(&p);
}
END_TEST

static int count_aside(void)
{
	DIR *d = opendir(dir);
	struct dirent *ent;
	int n = 0;

	if (d == NULL)
		return 0;
	while ((ent = readdir(d)) != NULL)
		if (strncmp(ent->d_name, "progress.json.corrupt-", 22) == 0)
			n++;
	closedir(d);
	return n;
}

static void write_progress(const char *text)
{
	char *path = xasprintf("%s/progress.json", dir);
	struct error e;
	FILE *f;

	ck_assert_msg(mkdir_p(dir, &e) == 0, "%s", e.msg);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	free(path);
}

static void assert_set_aside(const char *text, const char *why)
{
	struct progress p;
	struct error notice, e;
	char *path = xasprintf("%s/progress.json", dir);

	write_progress(text);
	ck_assert_int_eq(progress_load(&p, dir, &notice), 1);
	ck_assert_msg(strstr(notice.msg, "set aside") != NULL, "%s", notice.msg);
	ck_assert_msg(strstr(notice.msg, why) != NULL, "'%s' lacks '%s'", notice.msg, why);
	ck_assert_int_eq(count_aside(), 1);
	ck_assert(!file_exists(path));
	/* and the tutor goes on with a fresh start that it can save */
	ck_assert_str_eq(p.last_lesson, "");
	ck_assert_int_eq(p.nreports, 0);
	progress_set_position(&p, "reduction", 1);
	ck_assert_msg(progress_save(&p, &e) == 0, "%s", e.msg);
	progress_free(&p);
	ck_assert_int_eq(progress_load(&p, dir, &notice), 0);
	ck_assert_str_eq(p.last_lesson, "reduction");
	progress_free(&p);
	free(path);
}

START_TEST(damaged_is_set_aside)
{
	fresh_dir("d1");
	assert_set_aside("{\"format\": \"cudatutor-progress\", \"vers", "line 1");
	fresh_dir("d2");
	assert_set_aside("[1, 2]", "not a cudatutor progress file");
	fresh_dir("d3");
	assert_set_aside("{\"format\": \"cudatutor-progress\", \"version\": 1, \"lessons\": [1]}",
	    "'lessons'");
	fresh_dir("d4");
	assert_set_aside("{\"format\": \"cudatutor-progress\", \"version\": 1, "
	    "\"lessons\": {\"unrolling\": {\"done\": [1, \"two\"]}}}", "not a step number");
	fresh_dir("d5");
	assert_set_aside("{\"format\": \"cudatutor-progress\", \"version\": 1, \"results\": "
	    "[{\"lesson\": \"unrolling\"}]}", "'gpu' is missing");
	fresh_dir("d6");
	assert_set_aside("\xff\xfe garbage", "line 1");
}
END_TEST

/* Each exercise's state comes back after a restart. */
START_TEST(exercises_survive_a_restart)
{
	struct progress p, q;
	struct error e, notice;
	const struct progress_exercise *x;

	fresh_dir("exercises");
	ck_assert_int_eq(progress_load(&p, dir, &notice), 0);
	ck_assert_ptr_null(progress_find_exercise(&p, "vec4"));
	progress_exercise_passed(&p, "vec4");
	progress_exercise(&p, "vec4")->hints_shown = 2;
	ck_assert(progress_exercise_time(&p, "vec4", 0.50, "NVIDIA H100", "2025-03-01T10:00:00Z"));
	progress_exercise(&p, "unroll8")->hints_shown = 1;	/* started, not passed, not timed */
	ck_assert_msg(progress_save(&p, &e) == 0, "%s", e.msg);
	progress_free(&p);

	ck_assert_int_eq(progress_load(&q, dir, &notice), 0);
	ck_assert_int_eq(q.nexercises, 2);
	x = progress_find_exercise(&q, "vec4");
	ck_assert_ptr_nonnull(x);
	ck_assert(x->passed);
	ck_assert_int_eq(x->hints_shown, 2);
	ck_assert_double_eq_tol(x->best_ms, 0.50, 1e-9);
	ck_assert_str_eq(x->gpu, "NVIDIA H100");
	ck_assert_str_eq(x->date, "2025-03-01T10:00:00Z");
	x = progress_find_exercise(&q, "unroll8");
	ck_assert(!x->passed);
	ck_assert_int_eq(x->hints_shown, 1);
	ck_assert_double_eq(x->best_ms, 0);
	ck_assert_str_eq(x->gpu, "");
	progress_free(&q);
}
END_TEST

/* The best time: beaten on the same GPU only by a faster one; another GPU's replaces it. */
START_TEST(exercise_best_time)
{
	struct progress p;
	const struct progress_exercise *x;

	memset(&p, 0, sizeof p);
	ck_assert(progress_exercise_time(&p, "vec4", 0.50, "A", "d1"));
	ck_assert(!progress_exercise_time(&p, "vec4", 0.60, "A", "d2"));
	ck_assert(!progress_exercise_time(&p, "vec4", 0, "A", "d2"));
	x = progress_find_exercise(&p, "vec4");
	ck_assert_double_eq_tol(x->best_ms, 0.50, 1e-12);
	ck_assert_str_eq(x->date, "d1");
	ck_assert(progress_exercise_time(&p, "vec4", 0.40, "A", "d3"));
	ck_assert_double_eq_tol(x->best_ms, 0.40, 1e-12);
	ck_assert(progress_exercise_time(&p, "vec4", 0.90, "B", "d4"));
	ck_assert_double_eq_tol(x->best_ms, 0.90, 1e-12);
	ck_assert_str_eq(x->gpu, "B");
	ck_assert_str_eq(x->date, "d4");
	ck_assert(!x->passed);
	progress_free(&p);
}
END_TEST

/* A file from before the exercises loads as it did; a bad exercise entry is damage. */
START_TEST(files_without_exercises_load)
{
	struct progress p;
	struct error notice;

	fresh_dir("old");
	write_progress("{\"format\": \"cudatutor-progress\", \"version\": 1, \"last\": "
	    "{\"lesson\": \"unrolling\", \"step\": 2}, \"lessons\": {\"unrolling\": {\"done\": [1]}}, "
	    "\"results\": []}");
	ck_assert_int_eq(progress_load(&p, dir, &notice), 0);
	ck_assert_str_eq(p.last_lesson, "unrolling");
	ck_assert(progress_is_done(&p, "unrolling", 1));
	ck_assert_int_eq(p.nexercises, 0);
	progress_free(&p);
	fresh_dir("bad-exercises1");
	assert_set_aside("{\"format\": \"cudatutor-progress\", \"version\": 1, \"exercises\": [1]}",
	    "'exercises' must be an object");
	fresh_dir("bad-exercises2");
	assert_set_aside("{\"format\": \"cudatutor-progress\", \"version\": 1, \"exercises\": "
	    "{\"vec4\": {\"passed\": true, \"hints\": -1}}}", "exercise 'vec4'");
	fresh_dir("bad-exercises3");
	assert_set_aside("{\"format\": \"cudatutor-progress\", \"version\": 1, \"exercises\": "
	    "{\"vec4\": {\"passed\": \"yes\"}}}", "exercise 'vec4'");
}
END_TEST

/* A progress file of one lesson and one report, saved in dir; its text in *text. */
static char *saved_progress(char **text, size_t *len)
{
	struct progress p;
	struct error e, notice;
	struct run_report r;
	char *path = xasprintf("%s/progress.json", dir);

	ck_assert_int_eq(progress_load(&p, dir, &notice), 0);
	progress_set_position(&p, "unrolling", 2);
	progress_mark_done(&p, "unrolling", 1);
	report(&r, "NVIDIA H100", 1 << 24, 2.0);
	progress_put_report(&p, &r);
	run_report_free(&r);
	ck_assert_msg(progress_save(&p, &e) == 0, "%s", e.msg);
	progress_free(&p);
	*text = file_read(path, len);
	ck_assert_ptr_nonnull(*text);
	return path;
}

static int unchanged(const char *path, const char *text, size_t len)
{
	size_t now_len = 0;
	char *now = file_read(path, &now_len);
	int same = now != NULL && now_len == len && memcmp(now, text, len) == 0;

	free(now);
	return same;
}

/* A fresh start after a kept file: the tutor goes on, and the file is not written over. */
static void assert_kept(const char *path, const char *text, size_t len, const char *why)
{
	struct progress p;
	struct error notice, e;

	ck_assert_int_eq(progress_load(&p, dir, &notice), 1);
	ck_assert_msg(strstr(notice.msg, why) != NULL, "'%s' lacks '%s'", notice.msg, why);
	ck_assert_msg(strstr(notice.msg, "left as it is") != NULL, "%s", notice.msg);
	ck_assert_msg(strstr(notice.msg, path) != NULL, "%s", notice.msg);
	ck_assert(p.keep);
	ck_assert_str_eq(p.last_lesson, "");
	ck_assert_int_eq(p.nreports, 0);
	progress_set_position(&p, "reduction", 1);
	progress_mark_done(&p, "reduction", 1);
	ck_assert_msg(progress_save(&p, &e) == 0, "%s", e.msg);
	progress_free(&p);
	ck_assert_int_eq(count_aside(), 0);
	if (text != NULL)
		ck_assert(unchanged(path, text, len));
}

/* Cut short anywhere, a saved file is set aside whole and the tutor starts afresh. */
START_TEST(truncated_is_set_aside)
{
	size_t len;
	char *text, *path, *aside;
	struct progress p;
	struct error notice;

	fresh_dir("truncated");
	path = saved_progress(&text, &len);
	ck_assert_int_eq(truncate(path, (off_t)(len * 2 / 3)), 0);
	ck_assert_int_eq(progress_load(&p, dir, &notice), 1);
	ck_assert_msg(strstr(notice.msg, "set aside") != NULL, "%s", notice.msg);
	ck_assert_int_eq(p.nreports, 0);
	ck_assert(!p.keep);
	progress_free(&p);
	ck_assert_int_eq(count_aside(), 1);
	/* what was set aside is the file as it was, nothing lost */
	aside = strstr(notice.msg, "set aside as ") + strlen("set aside as ");
	*strstr(aside, " and progress") = '\0';
	ck_assert(unchanged(aside, text, len * 2 / 3));
	free(text);
	free(path);
}
END_TEST

/* A newer version's file is not damaged: it stays, untouched. */
START_TEST(newer_version_is_kept)
{
	static const char newer[] = "{\"format\": \"cudatutor-progress\", \"version\": 7, \"lessons\": {}}";
	char *path;

	fresh_dir("newer");
	write_progress(newer);
	path = xasprintf("%s/progress.json", dir);
	assert_kept(path, newer, strlen(newer), "from a newer cudatutor (format version 7)");
	free(path);
}
END_TEST

/* A directory where the file should be. */
START_TEST(a_directory_is_kept)
{
	char *path;
	struct error e;

	fresh_dir("a-directory");
	path = xasprintf("%s/progress.json", dir);
	ck_assert_msg(mkdir_p(path, &e) == 0, "%s", e.msg);
	assert_kept(path, NULL, 0, "cannot be read (Is a directory)");
	ck_assert(dir_exists(path));
	free(path);
}
END_TEST

/* ---- what permissions forbid (test_progress_perm: as root, each test drops to nobody) ---- */

/* A file the user may not read. */
START_TEST(unreadable_is_kept)
{
	size_t len;
	char *text, *path;

	fresh_dir("unreadable");
	path = saved_progress(&text, &len);
	ck_assert_int_eq(chmod(path, 0), 0);
	ck_assert_int_eq(chmod(base, 0755), 0);
	ck_assert_int_eq(check_drop_root(), 0);
	assert_kept(path, NULL, 0, "cannot be read (Permission denied)");
	ck_assert_int_eq(access(path, F_OK), 0);
	free(text);
	free(path);
}
END_TEST

/* Saving into a directory the user cannot write: a message, the old file whole. */
START_TEST(read_only_directory)
{
	size_t len;
	char *text, *path;
	struct progress p;
	struct error e, notice;

	fresh_dir("read-only");
	path = saved_progress(&text, &len);
	ck_assert_int_eq(chmod(base, 0755), 0);
	ck_assert_int_eq(chmod(dir, 0555), 0);
	ck_assert_int_eq(check_drop_root(), 0);
	ck_assert_int_eq(progress_load(&p, dir, &notice), 0);
	ck_assert_str_eq(p.last_lesson, "unrolling");
	progress_set_position(&p, "reduction", 3);
	ck_assert_int_ne(progress_save(&p, &e), 0);
	ck_assert_msg(strstr(e.msg, "Permission denied") != NULL, "%s", e.msg);
	ck_assert_msg(strstr(e.msg, path) != NULL, "%s", e.msg);
	ck_assert_msg(strstr(e.msg, "the old file is kept") != NULL, "%s", e.msg);
	progress_free(&p);
	ck_assert(unchanged(path, text, len));
	free(text);
	free(path);
}
END_TEST

/* Damaged in a directory the user cannot write: left where it is, not written over. */
START_TEST(damaged_in_read_only_directory)
{
	static const char damaged[] = "{\"format\": \"cudatutor-progress\", \"vers";
	char *path;

	fresh_dir("damaged-read-only");
	write_progress(damaged);
	path = xasprintf("%s/progress.json", dir);
	ck_assert_int_eq(chmod(base, 0755), 0);
	ck_assert_int_eq(chmod(dir, 0555), 0);
	ck_assert_int_eq(check_drop_root(), 0);
	assert_kept(path, damaged, strlen(damaged), "cannot be set aside (Permission denied)");
	free(path);
}
END_TEST

/* ---------------------------------------------------------------------------------------- */

/*
 * A full disk: the temporary file the save writes is a link to /dev/full,
 * where every write fails with ENOSPC.  The old file stays whole.
 */
START_TEST(full_disk)
{
	size_t len;
	char *text, *path, *tmp;
	struct progress p;
	struct error e, notice;
	DIR *d;
	struct dirent *ent;

	fresh_dir("full");
	path = saved_progress(&text, &len);
	tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	ck_assert_int_eq(progress_load(&p, dir, &notice), 0);
	progress_mark_done(&p, "reduction", 1);
	ck_assert_int_eq(symlink("/dev/full", tmp), 0);
	ck_assert_int_ne(progress_save(&p, &e), 0);
	ck_assert_msg(strstr(e.msg, "No space left on device") != NULL, "%s", e.msg);
	ck_assert_msg(strstr(e.msg, "the old file is kept") != NULL, "%s", e.msg);
	ck_assert(unchanged(path, text, len));
	d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	while ((ent = readdir(d)) != NULL)
		ck_assert_msg(strstr(ent->d_name, ".tmp.") == NULL, "%s was left behind", ent->d_name);
	closedir(d);
	/* with room again, the same progress saves */
	ck_assert_msg(progress_save(&p, &e) == 0, "%s", e.msg);
	progress_free(&p);
	ck_assert_int_eq(progress_load(&p, dir, &notice), 0);
	ck_assert(progress_is_done(&p, "reduction", 1));
	ck_assert(progress_is_done(&p, "unrolling", 1));
	progress_free(&p);
	free(tmp);
	free(text);
	free(path);
}
END_TEST

/*
 * Two processes with the same file open (the tutor, and a command in
 * another terminal): each saves its own change, and neither loses the
 * other's, whoever saves last.
 */
START_TEST(two_savers_keep_both)
{
	struct progress p, q;
	struct error e, notice;
	struct run_report r;
	const struct progress_exercise *x;

	fresh_dir("two-savers");
	ck_assert_int_eq(progress_load(&p, dir, &notice), 0);
	progress_set_position(&p, "unrolling", 1);
	progress_mark_done(&p, "unrolling", 1);
	progress_exercise(&p, "vec4")->hints_shown = 1;
	ck_assert(progress_exercise_time(&p, "vec4", 0.50, "A", "2025-03-01T10:00:00Z"));
	ck_assert_msg(progress_save(&p, &e) == 0, "%s", e.msg);

	/* both hold the same file now */
	ck_assert_int_eq(progress_load(&q, dir, &notice), 0);
	progress_set_position(&p, "unrolling", 4);
	progress_mark_done(&p, "unrolling", 2);
	report(&r, "NVIDIA H100", 1 << 24, 2.0);
	progress_put_report(&p, &r);
	run_report_free(&r);
	progress_mark_done(&q, "reduction", 3);
	progress_exercise(&q, "vec4")->hints_shown = 3;
	progress_exercise_passed(&q, "vec4");
	ck_assert(progress_exercise_time(&q, "vec4", 0.90, "B", "2025-03-02T10:00:00Z"));
	progress_exercise(&q, "char8")->hints_shown = 2;
	report(&r, "NVIDIA H200", 1 << 24, 1.0);
	progress_put_report(&q, &r);
	run_report_free(&r);
	ck_assert_msg(progress_save(&q, &e) == 0, "%s", e.msg);
	/* p saves last, with what it loaded before q's save */
	ck_assert_msg(progress_save(&p, &e) == 0, "%s", e.msg);
	/* and q once more, having changed nothing since */
	ck_assert_msg(progress_save(&q, &e) == 0, "%s", e.msg);
	progress_free(&p);
	progress_free(&q);

	ck_assert_int_eq(progress_load(&p, dir, &notice), 0);
	ck_assert_str_eq(p.last_lesson, "unrolling");
	ck_assert_int_eq(p.last_step, 4);		/* p moved; q did not */
	ck_assert(progress_is_done(&p, "unrolling", 1));
	ck_assert(progress_is_done(&p, "unrolling", 2));
	ck_assert(progress_is_done(&p, "reduction", 3));
	x = progress_find_exercise(&p, "vec4");
	ck_assert_ptr_nonnull(x);
	ck_assert(x->passed);
	ck_assert_int_eq(x->hints_shown, 3);
	ck_assert_double_eq_tol(x->best_ms, 0.90, 1e-9);	/* the newer GPU's */
	ck_assert_str_eq(x->gpu, "B");
	x = progress_find_exercise(&p, "char8");
	ck_assert_ptr_nonnull(x);
	ck_assert_int_eq(x->hints_shown, 2);
	ck_assert_ptr_nonnull(progress_find_report(&p, "unrolling", "NVIDIA H100", 1 << 24, 1024));
	ck_assert_ptr_nonnull(progress_find_report(&p, "unrolling", "NVIDIA H200", 1 << 24, 1024));
	progress_free(&p);
}
END_TEST

/*
 * Two savers timing one exercise on one GPU (two tutors, or the tutor and
 * `check`): the faster time is kept, whichever of them has it, on disk or
 * in memory, and the saver that had the slower one holds the faster after
 * its save.
 */
START_TEST(same_gpu_merge_keeps_the_faster)
{
	static const char first[] = "2025-03-01T10:00:00Z", second[] = "2025-03-02T10:00:00Z";
	static const struct {
		const char *name;
		double disk_ms, memory_ms;
	} ways[] = {
		{ "faster-on-disk", 0.40, 0.60 },	/* the first to save had the faster */
		{ "faster-in-memory", 0.60, 0.40 },	/* the last to save has it */
	};

	for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++) {
		bool on_disk = ways[w].disk_ms < ways[w].memory_ms;
		double faster = on_disk ? ways[w].disk_ms : ways[w].memory_ms;
		struct progress p, q;
		struct error e, notice;
		const struct progress_exercise *x;

		fresh_dir(ways[w].name);
		/* both load the same file, before either has a time */
		ck_assert_int_eq(progress_load(&p, dir, &notice), 0);
		ck_assert_int_eq(progress_load(&q, dir, &notice), 0);
		ck_assert(progress_exercise_time(&p, "vec4", ways[w].disk_ms, "NVIDIA H100", first));
		ck_assert_msg(progress_save(&p, &e) == 0, "%s", e.msg);
		/* q does not know of p's time: its own is its best */
		ck_assert(progress_exercise_time(&q, "vec4", ways[w].memory_ms, "NVIDIA H100", second));
		ck_assert_msg(progress_save(&q, &e) == 0, "%s", e.msg);
		x = progress_find_exercise(&q, "vec4");
		ck_assert_ptr_nonnull(x);
		ck_assert_msg(x->best_ms > faster - 1e-9 && x->best_ms < faster + 1e-9,
		    "%s: q holds %g ms after its save, not %g", ways[w].name, x->best_ms, faster);
		progress_free(&p);
		progress_free(&q);

		ck_assert_int_eq(progress_load(&p, dir, &notice), 0);
		x = progress_find_exercise(&p, "vec4");
		ck_assert_ptr_nonnull(x);
		ck_assert_msg(x->best_ms > faster - 1e-9 && x->best_ms < faster + 1e-9,
		    "%s: the file has %g ms, not %g", ways[w].name, x->best_ms, faster);
		ck_assert_str_eq(x->gpu, "NVIDIA H100");
		ck_assert_str_eq(x->date, on_disk ? first : second);	/* the faster run's date */
		progress_free(&p);
	}
}
END_TEST

/* A saver also learns what the other saved: after its save it holds the file's state. */
START_TEST(a_save_brings_in_the_others)
{
	struct progress p, q;
	struct error e, notice;

	fresh_dir("brings-in");
	ck_assert_int_eq(progress_load(&p, dir, &notice), 0);
	ck_assert_int_eq(progress_load(&q, dir, &notice), 0);
	progress_exercise(&q, "char8")->hints_shown = 2;
	progress_mark_done(&q, "reduction", 1);
	ck_assert_msg(progress_save(&q, &e) == 0, "%s", e.msg);
	progress_set_position(&p, "unrolling", 2);
	ck_assert_msg(progress_save(&p, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(progress_find_exercise(&p, "char8")->hints_shown, 2);
	ck_assert(progress_is_done(&p, "reduction", 1));
	progress_free(&p);
	progress_free(&q);
}
END_TEST

#define STRESS_UPDATES 500

/* One process's updates: each its own load, change and save. */
static int stress_updates(char who)
{
	char exercise[8] = { who, '\0' };

	for (int i = 0; i < STRESS_UPDATES; i++) {
		struct progress p;
		struct error e, notice;
		char lesson[32];

		if (progress_load(&p, dir, &notice) != 0) {
			fprintf(stderr, "%c: %s\n", who, notice.msg);
			return 1;
		}
		snprintf(lesson, sizeof lesson, "%c-%d", who, i / 50);
		progress_mark_done(&p, lesson, i % 50 + 1);
		progress_exercise(&p, exercise)->hints_shown = i + 1;
		if (progress_save(&p, &e) != 0) {
			fprintf(stderr, "%c: %s\n", who, e.msg);
			progress_free(&p);
			return 1;
		}
		progress_free(&p);
	}
	return 0;
}

/* Two processes saving at once, 500 times each: not one update lost. */
START_TEST(two_processes_lose_nothing)
{
	struct progress p;
	struct error notice;
	pid_t pid[2];

	fresh_dir("stress");
	for (int k = 0; k < 2; k++) {
		pid[k] = fork();
		ck_assert_int_ge(pid[k], 0);
		if (pid[k] == 0)
			_exit(stress_updates(k == 0 ? 'a' : 'b'));
	}
	for (int k = 0; k < 2; k++) {
		int status;
		ck_assert_int_eq(waitpid(pid[k], &status, 0), pid[k]);
		ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "updater %d failed", k);
	}
	ck_assert_int_eq(progress_load(&p, dir, &notice), 0);
	for (int k = 0; k < 2; k++) {
		char who = k == 0 ? 'a' : 'b', exercise[8] = { who, '\0' };
		const struct progress_exercise *x = progress_find_exercise(&p, exercise);

		for (int i = 0; i < STRESS_UPDATES; i++) {
			char lesson[32];
			snprintf(lesson, sizeof lesson, "%c-%d", who, i / 50);
			ck_assert_msg(progress_is_done(&p, lesson, i % 50 + 1), "%s step %d was lost",
			    lesson, i % 50 + 1);
		}
		ck_assert_ptr_nonnull(x);
		ck_assert_int_eq(x->hints_shown, STRESS_UPDATES);
	}
	progress_free(&p);
}
END_TEST

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(base));
}

static void teardown(void)
{
	char *cmd = xasprintf("chmod -R u+rwx '%s' && rm -rf '%s'", base, base);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", base);
	free(cmd);
}

static Suite *make_suite(void)
{
	Suite *s = suite_create("progress");
	TCase *tc = tcase_create("progress");

	tcase_add_unchecked_fixture(tc, setup, teardown);
	tcase_add_test(tc, first_run_is_empty);
	tcase_add_test(tc, survives_a_restart);
	tcase_add_test(tc, one_report_per_gpu_size_block);
	tcase_add_test(tc, damaged_is_set_aside);
	tcase_add_test(tc, exercises_survive_a_restart);
	tcase_add_test(tc, exercise_best_time);
	tcase_add_test(tc, files_without_exercises_load);
	tcase_add_test(tc, truncated_is_set_aside);
	tcase_add_test(tc, newer_version_is_kept);
	tcase_add_test(tc, a_directory_is_kept);
	tcase_add_test(tc, full_disk);
	tcase_add_test(tc, two_savers_keep_both);
	tcase_add_test(tc, same_gpu_merge_keeps_the_faster);
	tcase_add_test(tc, a_save_brings_in_the_others);
	tcase_add_test(tc, two_processes_lose_nothing);
	/* 1000 saves, each with its fsync */
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}

/* The tests of what permissions forbid: a user they stop is needed. */
static Suite *make_permission_suite(void)
{
	Suite *s = suite_create("progress permissions");
	TCase *tc = tcase_create("permissions");

	tcase_add_unchecked_fixture(tc, setup, teardown);
	tcase_add_test(tc, unreadable_is_kept);
	tcase_add_test(tc, read_only_directory);
	tcase_add_test(tc, damaged_in_read_only_directory);
	suite_add_tcase(s, tc);
	return s;
}

/* Built twice (Makefile.am): test_progress, and test_progress_perm (CHECK_PART 1), which may skip. */
int main(void)
{
	if (CHECK_PART == 1)
		return check_main_part(make_permission_suite, check_permissions_missing());
	return check_main_part(make_suite, NULL);
}

/* Results: derived figures, the JSON shape, and recorded files good and bad. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "paths.h"
#include "results.h"

static char dir[] = "/tmp/cudatutor-test-results-XXXXXX";

static void make_report(struct run_report *r)
{
	static const char *const kernels[] = { "reduce_unroll2", "reduce_unroll4", "add_grid_stride",
	    "reduce_unroll8", "add_grid_stride_unroll4" };
	static const double ms[] = { 4.0, 2.0, 3.0, 1.0, 1.5 };

	memset(r, 0, sizeof *r);
	snprintf(r->lesson, sizeof r->lesson, "unrolling");
	snprintf(r->gpu.name, sizeof r->gpu.name, "Test GPU");
	snprintf(r->gpu.arch, sizeof r->gpu.arch, "sm_90");
	snprintf(r->gpu.driver, sizeof r->gpu.driver, "1.2.3");
	snprintf(r->gpu.cuda, sizeof r->gpu.cuda, "13.0");
	r->copy_gbps = 100;
	r->size = 1 << 20;
	r->block = 1024;
	r->nsteps = 5;
	r->steps = calloc(5, sizeof *r->steps);
	for (int i = 0; i < 5; i++) {
		struct step_result *s = &r->steps[i];
		s->step = i + 1;
		snprintf(s->kernel, sizeof s->kernel, "%s", kernels[i]);
		s->size = r->size;
		s->block = 1024;
		s->grid = 10;
		s->reps = 20;
		s->median_ms = s->q1_ms = s->q3_ms = s->min_ms = s->max_ms = ms[i];
		s->ran = s->correct = true;
		snprintf(s->check_detail, sizeof s->check_detail, "fine");
	}
	results_derive(r);
}

START_TEST(derived_figures)
{
	struct run_report r;

	make_report(&r);
	/* 2^20 ints = 4 MiB in 4 ms */
	ck_assert_double_eq_tol(r.steps[0].gbps, 4.0 * (1 << 20) / 4e-3 / 1e9, 1e-9);
	ck_assert_double_eq_tol(r.steps[0].pct_copy, r.steps[0].gbps, 1e-9);	/* copy = 100 GB/s */
	/* speedups compare steps of the same experiment only */
	ck_assert_double_eq_tol(r.steps[1].speedup_first, 2.0, 1e-12);
	ck_assert_double_eq_tol(r.steps[1].speedup_prev, 2.0, 1e-12);
	ck_assert_double_eq_tol(r.steps[2].speedup_first, 1.0, 1e-12);	/* first vec add */
	ck_assert_double_eq_tol(r.steps[3].speedup_first, 4.0, 1e-12);
	ck_assert_double_eq_tol(r.steps[3].speedup_prev, 2.0, 1e-12);	/* over unroll4, not the add */
	ck_assert_double_eq_tol(r.steps[4].speedup_prev, 2.0, 1e-12);
	/* 12 bytes per float for the add */
	ck_assert_double_eq_tol(r.steps[2].gbps, 12.0 * (1 << 20) / 3e-3 / 1e9, 1e-9);
	run_report_free(&r);
}
END_TEST

/* A step whose check failed (the racy one of a lesson) is no baseline. */
START_TEST(wrong_steps_are_no_baseline)
{
	struct run_report r;

	make_report(&r);
	r.steps[0].correct = false;
	r.steps[0].wrong_by_design = true;
	results_derive(&r);
	ck_assert_double_eq_tol(r.steps[0].speedup_first, 1.0, 1e-12);
	ck_assert_double_eq_tol(r.steps[1].speedup_first, 1.0, 1e-12);	/* unroll4 is now the first */
	ck_assert_double_eq_tol(r.steps[3].speedup_first, 2.0, 1e-12);
	ck_assert_double_eq_tol(r.steps[3].speedup_prev, 2.0, 1e-12);
	run_report_free(&r);
}
END_TEST

/* GFLOP/s and the share of the library for a matmul; no copy percentage off device memory. */
/*
 * A vector add whose data fit within twice the L2 (3 bytes an element:
 * two chars read, one written), or that runs under 20 us, is marked: its
 * time says less of DRAM than its share of the roof suggests.  A sum,
 * which only reads, leaves no output in L2.
 */
START_TEST(l2_sized_and_short_runs)
{
	static const char *const kernels[] = { "vec_add_char", "vec_add_char", "reduce_warp_shuffle", "vec_add_char" };
	struct run_report r;
	char buf[32];

	memset(&r, 0, sizeof r);
	r.copy_gbps = 3000;
	r.gpu.l2_bytes = 3 << 20;	/* 2^21 chars, 3 bytes each: 6 MiB, twice this L2 */
	roofs_theoretical(&r.roofs, "sm_90", 132, 1980, 2619, 5120);
	r.roofs.dram_measured_gbps = 3000;
	r.roofs.fp32_measured_gflops = 60000;
	r.nsteps = 4;
	r.steps = calloc(4, sizeof *r.steps);
	for (int i = 0; i < 4; i++) {
		snprintf(r.steps[i].kernel, sizeof r.steps[i].kernel, "%s", kernels[i]);
		r.steps[i].size = 1 << 21;
		r.steps[i].block = 1024;
		r.steps[i].median_ms = 0.1;
		r.steps[i].ran = r.steps[i].correct = true;
	}
	r.steps[1].size = (1 << 21) + 1;	/* a byte past twice the L2 */
	r.steps[2].size = 1 << 20;		/* a sum reads alone */
	r.steps[3].size = 1 << 24;
	r.steps[3].median_ms = RESULTS_SHORT_MS - 1e-6;
	results_derive(&r);
	ck_assert(r.steps[0].l2_sized && !r.steps[0].short_run && results_dram_caveat(&r.steps[0]));
	ck_assert_str_eq(results_pct_of_roof(&r.steps[0], buf, sizeof buf) + strlen(buf) - 1, "~");
	ck_assert(!r.steps[1].l2_sized && !results_dram_caveat(&r.steps[1]));
	ck_assert(strchr(results_pct_of_roof(&r.steps[1], buf, sizeof buf), '~') == NULL);
	ck_assert(!r.steps[2].l2_sized && !results_dram_caveat(&r.steps[2]));
	ck_assert(r.steps[3].short_run && results_dram_caveat(&r.steps[3]));
	r.steps[3].median_ms = RESULTS_SHORT_MS;
	results_derive(&r);
	ck_assert(!r.steps[3].short_run);
	run_report_free(&r);
}
END_TEST

START_TEST(library_share_and_units)
{
	static const char *const kernels[] = { "matmul_naive", "matmul_shared_ab", "cublas_sgemm",
	    "smem_stride_1", "reduce_shared_strided" };
	static const double ms[] = { 40.0, 10.0, 2.0, 1.0, 1.0 };
	struct run_report r;

	memset(&r, 0, sizeof r);
	r.copy_gbps = 100;
	r.size = 1024;
	r.block = 1024;
	r.nsteps = 5;
	r.steps = calloc(5, sizeof *r.steps);
	for (int i = 0; i < 5; i++) {
		snprintf(r.steps[i].kernel, sizeof r.steps[i].kernel, "%s", kernels[i]);
		r.steps[i].size = 1024;
		r.steps[i].block = 1024;
		r.steps[i].median_ms = ms[i];
		r.steps[i].ran = r.steps[i].correct = true;
	}
	results_derive(&r);
	/* 2 * 1024^3 operations in 40 ms */
	ck_assert_double_eq_tol(r.steps[0].gflops, 2.0 * 1024 * 1024 * 1024 / 40e-3 / 1e9, 1e-9);
	ck_assert_double_eq_tol(r.steps[0].pct_library, 5.0, 1e-12);
	ck_assert_double_eq_tol(r.steps[1].pct_library, 20.0, 1e-12);
	ck_assert_double_eq_tol(r.steps[2].pct_library, 100.0, 1e-12);
	ck_assert_double_eq(r.steps[0].pct_copy, 0);
	/* shared-memory bytes are no share of the copy bandwidth; device bytes are */
	ck_assert(r.steps[3].gbps > 0);
	ck_assert_double_eq(r.steps[3].pct_copy, 0);
	ck_assert_double_eq(r.steps[3].pct_library, 0);
	ck_assert(r.steps[4].pct_copy > 0);
	/* the library step of another experiment is no yardstick */
	ck_assert_double_eq(r.steps[4].pct_library, 0);
	run_report_free(&r);
}
END_TEST

START_TEST(json_shape)
{
	struct run_report r;
	json_t *j, *step;

	make_report(&r);
	j = results_report_to_json(&r);
	ck_assert(json_is_object(json_object_get(j, "gpu")));
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "gpu"), "name")), "Test GPU");
	ck_assert(json_is_null(json_object_get(j, "recorded")));
	ck_assert(json_is_number(json_object_get(j, "copy_gbps")));
	ck_assert_int_eq(json_array_size(json_object_get(j, "steps")), 5);
	step = json_array_get(json_object_get(j, "steps"), 1);
	static const char *const keys[] = { "kernel", "size", "block", "median_ms", "spread_pct",
	    "gbps", "pct_copy", "speedup_first", "speedup_prev", "correct" };
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		ck_assert_msg(json_object_get(step, keys[i]) != NULL, "no '%s'", keys[i]);
	ck_assert(json_is_true(json_object_get(step, "correct")));
	json_decref(j);
	run_report_free(&r);
}
END_TEST

/* r saved to path as record writes a results file of one run. */
static void save_report(struct run_report *r, const char *path)
{
	struct results_file f = { 0 };
	struct error e;

	f.gpu = r->gpu;
	snprintf(f.date, sizeof f.date, "2026-01-02T03:04:05Z");
	snprintf(f.version, sizeof f.version, "0.0.0");
	f.copy_gbps = r->copy_gbps;
	f.runs = r;
	f.nruns = 1;
	ck_assert_msg(results_file_save(&f, path, &e) == 0, "%s", e.msg);
}

START_TEST(save_and_find_again)
{
	struct run_report r, found;
	struct error e;
	char *path = xasprintf("%s/test-gpu.json", dir);

	make_report(&r);
	save_report(&r, path);

	ck_assert_msg(results_find_recorded(path, "unrolling", 1 << 20, 1024, &found, &e) == 0, "%s", e.msg);
	ck_assert(found.recorded);
	ck_assert_str_eq(found.recorded_date, "2026-01-02T03:04:05Z");
	ck_assert_str_eq(found.gpu.name, "Test GPU");
	ck_assert_int_eq(found.nsteps, 5);
	ck_assert_double_eq_tol(found.steps[3].median_ms, 1.0, 1e-9);
	ck_assert_double_eq_tol(found.steps[3].speedup_first, 4.0, 1e-9);
	run_report_free(&found);

	/* a size it does not have: says what it has */
	ck_assert_int_ne(results_find_recorded(path, "unrolling", 1 << 24, 1024, &found, &e), 0);
	ck_assert_ptr_nonnull(strstr(e.msg, "1048576 (block 1024)"));
	run_report_free(&r);
	free(path);
}
END_TEST

/*
 * A results file keeps what was measured; what is derived from it (GB/s,
 * %copy, %roof, speedups) is derived again on load, so that a figure
 * derived by an older rule is never shown (a file once kept 102.30% of
 * the roof for a step the program places at 94.22%).
 */
START_TEST(files_keep_measurements_only)
{
	static const char *const derived[] = { "gbps", "gflops", "pct_copy", "pct_library", "speedup_first",
	    "speedup_prev", "intensity", "limiter", "roof", "pct_of_roof", "pct_of_theoretical", "roof_exceeded" };
	struct run_report r, found;
	struct error e;
	char *path = xasprintf("%s/measured.json", dir);
	json_t *root, *step;
	size_t i;

	make_report(&r);
	/* what the SASS said beside the counters is kept with them, and Little's law derived from it */
	r.steps[3].metrics.collected = true;
	r.steps[3].metrics.load_bytes_in_flight = 32;
	r.steps[3].blocks_per_sm = 2;
	/* and the SM clock its timed runs ended at, a measurement like its time */
	r.steps[3].sm_clock_mhz = 1830;
	save_report(&r, path);
	root = json_load_file(path, 0, NULL);
	ck_assert_ptr_nonnull(root);
	step = json_array_get(json_object_get(json_array_get(json_object_get(root, "runs"), 0), "steps"), 3);
	ck_assert_ptr_nonnull(json_object_get(step, "median_ms"));
	for (i = 0; i < sizeof derived / sizeof derived[0]; i++)
		ck_assert_msg(json_object_get(step, derived[i]) == NULL, "the file keeps the derived %s", derived[i]);

	/* a stale figure written into the file by hand is not the one shown */
	json_object_set_new(step, "speedup_first", json_real(99.0));
	json_object_set_new(step, "gbps", json_real(12345.0));
	ck_assert_int_eq(json_dump_file(root, path, JSON_INDENT(1)), 0);
	ck_assert_msg(results_find_recorded(path, "unrolling", 1 << 20, 1024, &found, &e) == 0, "%s", e.msg);
	ck_assert_double_eq_tol(found.steps[3].speedup_first, 4.0, 1e-9);
	ck_assert_double_eq_tol(found.steps[3].gbps, r.steps[3].gbps, 1e-9);
	ck_assert_int_eq(found.steps[3].metrics.load_bytes_in_flight, 32);
	ck_assert_int_eq(found.steps[3].sm_clock_mhz, 1830);
	ck_assert_int_eq(found.steps[2].sm_clock_mhz, 0);
	ck_assert_ptr_null(json_object_get(json_array_get(json_object_get(json_array_get(json_object_get(root,
	    "runs"), 0), "steps"), 2), "sm_clock_mhz"));
	ck_assert_double_eq_tol(found.steps[3].in_flight_per_sm, 32.0 * 2 * 1024, 1e-9);
	run_report_free(&found);

	/* a count of bytes, or the file is damaged */
	json_object_set_new(json_object_get(step, "metrics"), "load_bytes_in_flight", json_string("many"));
	ck_assert_int_eq(json_dump_file(root, path, JSON_INDENT(1)), 0);
	ck_assert_int_ne(results_find_recorded(path, "unrolling", 1 << 20, 1024, &found, &e), 0);
	ck_assert_msg(strstr(e.msg, "'load_bytes_in_flight' must be a count of bytes") != NULL, "%s", e.msg);
	json_decref(root);
	run_report_free(&r);
	free(path);
}
END_TEST

static void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
}

START_TEST(bad_files_say_what_is_wrong)
{
	struct results_file f;
	struct error e;
	char *path = xasprintf("%s/bad.json", dir);

	write_file(path, "{\"format\": \"cudatutor-results\",\n \"version\": 1,\n \"gpu\": ");
	ck_assert_int_ne(results_file_load(path, &f, &e), 0);
	ck_assert_msg(strstr(e.msg, "bad.json:3:") != NULL, "%s", e.msg);

	write_file(path, "{\"format\": \"cudatutor-results\", \"version\": 99}");
	ck_assert_int_ne(results_file_load(path, &f, &e), 0);
	ck_assert_msg(strstr(e.msg, "newer cudatutor") != NULL, "%s", e.msg);

	write_file(path, "[1, 2, 3]");
	ck_assert_int_ne(results_file_load(path, &f, &e), 0);
	ck_assert_msg(strstr(e.msg, "not a cudatutor results file") != NULL, "%s", e.msg);

	write_file(path, "{\"format\": \"cudatutor-results\", \"version\": 1, \"gpu\": {\"name\": 5}}");
	ck_assert_int_ne(results_file_load(path, &f, &e), 0);
	ck_assert_msg(strstr(e.msg, "'name' must be a string") != NULL, "%s", e.msg);

	ck_assert_int_ne(results_file_load("/nonexistent/r.json", &f, &e), 0);
	ck_assert_msg(strstr(e.msg, "/nonexistent/r.json") != NULL, "%s", e.msg);
	unlink(path);
	free(path);
}
END_TEST

/* A results file of one run, as record writes it; path is freed by the caller. */
static char *saved_file(const char *name)
{
	struct run_report r;
	char *path = xasprintf("%s/%s", dir, name);

	make_report(&r);
	save_report(&r, path);
	run_report_free(&r);
	return path;
}

static void assert_load_fails(const char *path, const char *want)
{
	struct results_file f;
	struct run_report r;
	struct error e;

	ck_assert_int_ne(results_file_load(path, &f, &e), 0);
	ck_assert_msg(strstr(e.msg, want) != NULL, "'%s' lacks '%s'", e.msg, want);
	ck_assert_int_eq(f.nruns, 0);
	ck_assert_ptr_null(f.runs);
	/* and looking for a run in it says the same */
	ck_assert_int_ne(results_find_recorded(path, "unrolling", 1 << 20, 1024, &r, &e), 0);
	ck_assert_msg(strstr(e.msg, want) != NULL, "'%s' lacks '%s'", e.msg, want);
}

/* Cut anywhere, a file gives the line where it breaks, never half a run. */
START_TEST(truncated_files)
{
	char *path = saved_file("truncated.json");
	size_t len = 0;
	char *text = file_read(path, &len), *want;
	struct results_file f;
	struct error e;

	ck_assert_ptr_nonnull(text);
	ck_assert_msg(results_file_load(path, &f, &e) == 0, "%s", e.msg);
	results_file_free(&f);
	for (size_t cut = 0; cut + 1 < len; cut += 97) {
		ck_assert_int_ne(results_file_load_buffer(text, cut, path, &f, &e), 0);
		ck_assert_msg(strncmp(e.msg, path, strlen(path)) == 0, "%s", e.msg);
		ck_assert_ptr_null(f.runs);
	}
	ck_assert_int_eq(truncate(path, (off_t)(len / 2)), 0);
	want = xasprintf("%s:", path);
	assert_load_fails(path, want);
	assert_load_fails(path, "not a valid results file");
	ck_assert_int_eq(truncate(path, 0), 0);
	assert_load_fails(path, "not a valid results file");
	free(want);
	free(text);
	unlink(path);
	free(path);
}
END_TEST

/*
 * A time that cannot be one: zero, below zero, not a number, infinite.
 * Each is refused with the field named; none is shown as a result.
 */
START_TEST(damaged_times)
{
	static const struct { const char *field, *value, *want; } cases[] = {
		{ "median_ms", "0", "'median_ms' must be above zero" },
		{ "median_ms", "0.0", "'median_ms' must be above zero" },
		{ "median_ms", "-0.25", "'median_ms' must be above zero" },
		{ "median_ms", "-1e300", "'median_ms' must be above zero" },
		{ "median_ms", "NaN", "not a valid results file" },
		{ "median_ms", "1e999", "not a valid results file" },
		{ "median_ms", "\"fast\"", "'median_ms' must be a number" },
		{ "q1_ms", "-1", "'q1_ms' must be a time" },
		{ "q3_ms", "-0.5", "'q3_ms' must be a time" },
		{ "min_ms", "-2", "'min_ms' must be a time" },
		{ "max_ms", "-3", "'max_ms' must be a time" },
	};
	char *path = saved_file("times.json");
	char *text = file_read(path, NULL);

	ck_assert_ptr_nonnull(text);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char key[32], *at, *end, *bad;

		snprintf(key, sizeof key, "\"%s\": ", cases[i].field);
		at = strstr(text, key);
		ck_assert_msg(at != NULL, "no %s in the saved file", cases[i].field);
		at += strlen(key);
		end = at + strcspn(at, ",\n}");
		bad = xasprintf("%.*s%s%s", (int)(at - text), text, cases[i].value, end);
		write_file(path, bad);
		assert_load_fails(path, cases[i].want);
		free(bad);
	}
	free(text);
	unlink(path);
	free(path);
}
END_TEST

/* A newer format is not damage: the message says to update. */
START_TEST(newer_and_versionless_files)
{
	char *path = xasprintf("%s/versions.json", dir);

	write_file(path, "{\"format\": \"cudatutor-results\", \"version\": 2, \"gpu\": {}, \"runs\": []}");
	assert_load_fails(path, "written by a newer cudatutor (format version 2): update cudatutor");
	write_file(path, "{\"format\": \"cudatutor-results\", \"gpu\": {}}");
	assert_load_fails(path, "'version' must be a format version");
	write_file(path, "{\"format\": \"cudatutor-results\", \"version\": \"1\"}");
	assert_load_fails(path, "'version' must be a format version");
	write_file(path, "{\"format\": \"cudatutor-results\", \"version\": 0}");
	assert_load_fails(path, "'version' must be a format version");
	unlink(path);
	free(path);
}
END_TEST

/* What is not a file, or not there, says so without reading for ever. */
START_TEST(unreadable_files)
{
	char *sub = xasprintf("%s/a-directory.json", dir);

	ck_assert_int_eq(mkdir(sub, 0755), 0);
	assert_load_fails(sub, "cannot read the results file (Is a directory)");
	rmdir(sub);
	assert_load_fails("/dev/zero", "cannot read the results file (not a regular file)");
	assert_load_fails("/nonexistent/r.json", "cannot read the results file (No such file or directory)");
	free(sub);
}
END_TEST

/* A file not ours to read (test_results_perm: as root, the test drops to nobody). */
START_TEST(locked_file)
{
	char *path = saved_file("locked.json");

	ck_assert_int_eq(chmod(path, 0), 0);
	ck_assert_int_eq(chmod(dir, 0755), 0);
	ck_assert_int_eq(check_drop_root(), 0);
	assert_load_fails(path, "cannot read the results file (Permission denied)");
	free(path);
}
END_TEST

static int same_file(const char *path, const char *text, size_t len)
{
	size_t now_len = 0;
	char *now = file_read(path, &now_len);
	int same = now != NULL && now_len == len && memcmp(now, text, len) == 0;

	free(now);
	return same;
}

/* No temporary file left behind in dir. */
static void assert_no_temporary(void)
{
	DIR *d = opendir(dir);
	struct dirent *ent;

	ck_assert_ptr_nonnull(d);
	while ((ent = readdir(d)) != NULL)
		ck_assert_msg(strstr(ent->d_name, ".tmp.") == NULL, "%s was left behind", ent->d_name);
	closedir(d);
}

/*
 * A full disk: the temporary file the write goes to is a link to
 * /dev/full, where every write fails with ENOSPC.  The old file stays
 * whole, and the message says so.
 */
START_TEST(full_disk_keeps_the_old_file)
{
	char *path = saved_file("full.json"), *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	size_t len = 0;
	char *old = file_read(path, &len);
	struct results_file f;
	struct error e;

	ck_assert_msg(results_file_load(path, &f, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(symlink("/dev/full", tmp), 0);
	ck_assert_int_ne(results_file_save(&f, path, &e), 0);
	ck_assert_msg(strstr(e.msg, "No space left on device") != NULL, "%s", e.msg);
	ck_assert_msg(strstr(e.msg, "the old file is kept") != NULL, "%s", e.msg);
	ck_assert_msg(strstr(e.msg, path) != NULL, "%s", e.msg);
	ck_assert(same_file(path, old, len));
	assert_no_temporary();
	results_file_free(&f);
	unlink(path);
	free(old);
	free(tmp);
	free(path);
}
END_TEST

/* A directory that is not there at all: the message names the file. */
START_TEST(missing_directory_is_named)
{
	char *path = saved_file("nowhere.json");
	struct results_file f;
	struct error e;

	ck_assert_msg(results_file_load(path, &f, &e) == 0, "%s", e.msg);
	ck_assert_int_ne(results_file_save(&f, "/nonexistent/dir/r.json", &e), 0);
	ck_assert_msg(strstr(e.msg, "/nonexistent/dir/r.json") != NULL, "%s", e.msg);
	results_file_free(&f);
	unlink(path);
	free(path);
}
END_TEST

/*
 * A directory the user cannot write to: the message names the file; the
 * old one is whole (test_results_perm: as root, the test drops to nobody).
 */
START_TEST(read_only_directory_keeps_the_old_file)
{
	char *sub = xasprintf("%s/read-only", dir), *path = xasprintf("%s/ro.json", sub), *saved;
	size_t len = 0;
	char *old;
	struct results_file f;
	struct error e;

	ck_assert_int_eq(mkdir(sub, 0755), 0);
	saved = saved_file("ro.json");
	ck_assert_int_eq(rename(saved, path), 0);
	old = file_read(path, &len);
	ck_assert_msg(results_file_load(path, &f, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(chmod(dir, 0755), 0);
	ck_assert_int_eq(chmod(sub, 0555), 0);
	ck_assert_int_eq(check_drop_root(), 0);
	ck_assert_int_ne(results_file_save(&f, path, &e), 0);
	ck_assert_msg(strstr(e.msg, "Permission denied") != NULL, "%s", e.msg);
	ck_assert_msg(strstr(e.msg, path) != NULL, "%s", e.msg);
	ck_assert_msg(strstr(e.msg, "the old file is kept") != NULL, "%s", e.msg);
	ck_assert(same_file(path, old, len));
	results_file_free(&f);
	free(old);
	free(saved);
	free(path);
	free(sub);
}
END_TEST

/*
 * Every input the fuzzer once broke the results loader with loads or fails
 * cleanly now; what loads writes as JSON and reads back the same.
 */
START_TEST(fuzz_regressions)
{
	char *rdir = paths_source("tests/fuzz/regressions-results");
	DIR *d = opendir(rdir);
	struct dirent *ent;

	ck_assert_msg(d != NULL, "cannot open %s", rdir);
	while ((ent = readdir(d)) != NULL) {
		struct results_file f;
		struct error e = { "" };
		char *path;

		if (ent->d_name[0] == '.' || strcmp(ent->d_name, "README") == 0)
			continue;
		path = xasprintf("%s/%s", rdir, ent->d_name);
		if (results_file_load(path, &f, &e) != 0) {
			ck_assert_msg(strncmp(e.msg, path, strlen(path)) == 0, "%s", e.msg);
		} else {
			for (int i = 0; i < f.nruns; i++) {
				json_t *j = results_report_to_json(&f.runs[i]);
				struct run_report back;

				ck_assert_msg(results_report_from_json(j, path, &back, &e) == 0, "%s", e.msg);
				ck_assert_int_eq(back.nsteps, f.runs[i].nsteps);
				for (int k = 0; k < back.nsteps; k++)
					ck_assert_str_eq(back.steps[k].kernel, f.runs[i].steps[k].kernel);
				run_report_free(&back);
				json_decref(j);
			}
			results_file_free(&f);
		}
		free(path);
	}
	closedir(d);
	free(rdir);
}
END_TEST

/* Strings cut to fit stay whole characters. */
START_TEST(utf8_cut_at_a_character)
{
	char buf[4];

	utf8_copy(buf, sizeof buf, "ab\xc3\xa9");	/* "abé": é would be cut in two */
	ck_assert_str_eq(buf, "ab");
	utf8_copy(buf, sizeof buf, "a\xc3\xa9z");
	ck_assert_str_eq(buf, "a\xc3\xa9");
	utf8_copy(buf, sizeof buf, "\xe4\xb8\xad\xe6\x96\x87");	/* two CJK characters */
	ck_assert_str_eq(buf, "\xe4\xb8\xad");
	utf8_copy(buf, sizeof buf, "abc");
	ck_assert_str_eq(buf, "abc");
	utf8_copy(buf, sizeof buf, "abcd");
	ck_assert_str_eq(buf, "abc");
}
END_TEST

START_TEST(slugs)
{
	char buf[64];

	results_slug("NVIDIA H100 80GB HBM3", buf, sizeof buf);
	ck_assert_str_eq(buf, "nvidia-h100-80gb-hbm3");
	results_slug("NVIDIA GeForce RTX 4090 (laptop)", buf, sizeof buf);
	ck_assert_str_eq(buf, "nvidia-geforce-rtx-4090-laptop");
	results_slug("///", buf, sizeof buf);
	ck_assert_str_eq(buf, "gpu");
}
END_TEST

/* The same steps on a GPU with twice the copy bandwidth: some twice as fast, some not. */
START_TEST(two_gpus_and_the_bandwidth_ratio)
{
	static const double b_ms[] = { 2.0, 1.9, 2.5, 0.52, 0.0 };
	struct run_report a, b;
	struct results_comparison c;

	make_report(&a);
	make_report(&b);
	b.copy_gbps = 2 * a.copy_gbps;
	for (int i = 0; i < 4; i++)
		b.steps[i].median_ms = b_ms[i];
	b.steps[2].correct = false;		/* a wrong answer: no ratio */
	snprintf(b.steps[4].kernel, sizeof b.steps[4].kernel, "not_in_a");
	results_derive(&b);
	results_compare(&a, &b, &c);
	ck_assert_int_eq(c.count, 5);
	ck_assert_double_eq_tol(c.copy_ratio, 2.0, 1e-9);
	/* 4 ms against 2 ms: twice as fast, as the bandwidth */
	ck_assert_double_eq_tol(c.pairs[0].speedup, 2.0, 1e-9);
	ck_assert(c.pairs[0].follows_copy);
	/* 2 ms against 1.9: about the same, memory is not what limits it */
	ck_assert_double_eq_tol(c.pairs[1].speedup, 2.0 / 1.9, 1e-9);
	ck_assert(!c.pairs[1].follows_copy);
	ck_assert_double_eq(c.pairs[2].speedup, 0);
	ck_assert(!c.pairs[2].follows_copy);
	ck_assert(c.pairs[3].follows_copy);
	/* a's last kernel is not in b */
	ck_assert_ptr_null(c.pairs[4].b);
	ck_assert(!c.pairs[4].follows_copy);
	results_comparison_free(&c);

	/* the rule: within a tenth of the ratio, either way; nothing where either is unknown */
	ck_assert(results_follows_copy(0.74, 0.71));
	ck_assert(results_follows_copy(0.65, 0.71));
	ck_assert(!results_follows_copy(0.98, 0.71));
	ck_assert(!results_follows_copy(0.63, 0.71));
	ck_assert(!results_follows_copy(0.71, 0));
	ck_assert(!results_follows_copy(0, 0.71));
	/* two GPUs that copy about as fast: every step runs at about that ratio, memory-bound or not */
	ck_assert(!results_copy_ratio_tells(1.05));
	/* within a tenth of the ratio, at its edges: 1.8 and 2.2 are a tenth off 2.0 (strictly inside follows) */
	ck_assert(!results_follows_copy(1.8, 2.0));
	ck_assert(results_follows_copy(nextafter(1.8, 2), 2.0));
	ck_assert(!results_follows_copy(2.2, 2.0));
	ck_assert(results_follows_copy(nextafter(2.2, 2), 2.0));
	/* a copy ratio a tenth or more from 1 tells; nearer, any step follows it */
	ck_assert(results_copy_ratio_tells(0.9));
	ck_assert(results_copy_ratio_tells(1.12));
	ck_assert(!results_copy_ratio_tells(0.95));
	/* no copy figure for one of the two GPUs: no ratio to follow */
	ck_assert(!results_copy_ratio_tells(0));
	ck_assert(!results_follows_copy(1.0, 1.0));
	ck_assert(results_copy_ratio_tells(1.4));
	ck_assert(results_copy_ratio_tells(0.71));
	run_report_free(&a);
	run_report_free(&b);
}
END_TEST

/* The recorded files one after another, in name order, skipping the one shown. */
START_TEST(recorded_files_in_turn)
{
	char first[512], path[512], prev[512] = "";
	struct error e;
	int n = 0;

	if (results_next_file(NULL, NULL, first, sizeof first, &e) != 0) {
		/* a tree without recorded results says so */
		ck_assert_str_ne(e.msg, "");
		return;
	}
	while (results_next_file(prev, NULL, path, sizeof path, &e) == 0) {
		size_t len = strlen(path);
		ck_assert_int_gt(strcmp(path, prev), 0);
		ck_assert_str_eq(path + (len > 5 ? len - 5 : 0), ".json");
		snprintf(prev, sizeof prev, "%s", path);
		n++;
	}
	/* after the last: -1, and nothing wrong */
	ck_assert_str_eq(e.msg, "");
	ck_assert_int_ge(n, 1);
	ck_assert_int_eq(results_next_file("", NULL, path, sizeof path, &e), 0);
	ck_assert_str_eq(path, first);
	/* the file shown is skipped: from the start, the first is another */
	if (results_next_file(NULL, first, path, sizeof path, &e) == 0)
		ck_assert_str_ne(path, first);
	else
		ck_assert_int_eq(n, 1);
}
END_TEST

/* A control step is compared with the steps before it, and never a baseline for those after. */
START_TEST(control_steps_are_no_rung)
{
	struct run_report r;

	make_report(&r);
	r.steps[1].control = true;	/* reduce_unroll4 */
	results_derive(&r);
	ck_assert_double_eq_tol(r.steps[1].speedup_first, 2.0, 1e-12);
	ck_assert_double_eq_tol(r.steps[1].speedup_prev, 2.0, 1e-12);
	ck_assert_double_eq_tol(r.steps[3].speedup_first, 4.0, 1e-12);
	ck_assert_double_eq_tol(r.steps[3].speedup_prev, 4.0, 1e-12);	/* over unroll2, not the control */
	run_report_free(&r);
}
END_TEST

/*
 * record --lessons: the runs recorded again replace theirs in place, a new
 * lesson's comes last, and every other run stays exactly as the file held
 * it, with the file's heading; each run keeps its own date.
 */
START_TEST(partial_record_merges)
{
	char *base_path = paths_source("tests/fixtures/results-merge-base.json");
	char *add_path = paths_source("tests/fixtures/results-merge-add.json");
	char *out = xasprintf("%s/merged.json", dir), *text;
	struct results_file base, add, back;
	json_t *raw_base, *raw_out;
	const char *keys[] = { "format", "version", "gpu", "recorded", "copy_gbps", "roofs" };
	struct error e;
	size_t len;

	ck_assert_msg(results_file_load(base_path, &base, &e) == 0, "%s", e.msg);
	ck_assert_msg(results_file_load(add_path, &add, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(base.nruns, 3);
	text = file_read(base_path, &len);
	ck_assert_int_eq(file_write_atomic(out, text, len, &e), 0);
	free(text);
	ck_assert_msg(results_file_merge_save(out, &add, out, &e) == 0, "%s", e.msg);
	ck_assert_msg(results_file_load(out, &back, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(back.nruns, 4);
	ck_assert_str_eq(back.date, base.date);
	/* the reduction at 2^24 recorded again, in its place, with its date and its control */
	ck_assert_str_eq(back.runs[0].lesson, "reduction");
	ck_assert_int_eq(back.runs[0].nsteps, 4);
	ck_assert_str_eq(back.runs[0].recorded_date, "2000-02-01T00:00:00Z");
	ck_assert(back.runs[0].steps[1].control);
	ck_assert(!back.runs[0].steps[2].control);
	ck_assert_double_eq_tol(back.runs[0].steps[2].speedup_prev,
	    back.runs[0].steps[0].median_ms / back.runs[0].steps[2].median_ms, 1e-9);
	/* the others as they were, dated by the file they came from */
	ck_assert_str_eq(back.runs[1].recorded_date, base.date);
	ck_assert_str_eq(back.runs[2].lesson, "register-tiling");
	ck_assert_str_eq(back.runs[3].lesson, "pitch");
	ck_assert_str_eq(back.runs[3].recorded_date, "2000-02-01T00:10:00Z");
	raw_base = json_load_file(base_path, 0, NULL);
	raw_out = json_load_file(out, 0, NULL);
	ck_assert(raw_base != NULL && raw_out != NULL);
	for (size_t i = 1; i < 3; i++)
		ck_assert_msg(json_equal(json_array_get(json_object_get(raw_base, "runs"), i),
		    json_array_get(json_object_get(raw_out, "runs"), i)), "run %zu changed", i);
	for (size_t i = 0; i < ARRAY_LEN(keys); i++)
		ck_assert_msg(json_equal(json_object_get(raw_base, keys[i]), json_object_get(raw_out, keys[i])),
		    "'%s' changed", keys[i]);
	json_decref(raw_base);
	json_decref(raw_out);
	/* never into another GPU's file, which stays as it was */
	snprintf(add.gpu.name, sizeof add.gpu.name, "Another GPU");
	ck_assert_int_eq(results_file_merge_save(base_path, &add, out, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "Another GPU"));
	results_file_free(&back);
	results_file_free(&base);
	results_file_free(&add);
	free(base_path);
	free(add_path);
	free(out);
}
END_TEST

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	char *cmd = xasprintf("chmod -R u+rwx '%s' && rm -rf '%s'", dir, dir);

	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	free(cmd);
}

static Suite *make_suite(void)
{
	Suite *s = suite_create("results");
	TCase *tc = tcase_create("results");

	tcase_add_unchecked_fixture(tc, setup, teardown);
	tcase_add_test(tc, derived_figures);
	tcase_add_test(tc, wrong_steps_are_no_baseline);
	tcase_add_test(tc, library_share_and_units);
	tcase_add_test(tc, l2_sized_and_short_runs);
	tcase_add_test(tc, json_shape);
	tcase_add_test(tc, save_and_find_again);
	tcase_add_test(tc, files_keep_measurements_only);
	tcase_add_test(tc, bad_files_say_what_is_wrong);
	tcase_add_test(tc, truncated_files);
	tcase_add_test(tc, damaged_times);
	tcase_add_test(tc, newer_and_versionless_files);
	tcase_add_test(tc, unreadable_files);
	tcase_add_test(tc, full_disk_keeps_the_old_file);
	tcase_add_test(tc, missing_directory_is_named);
	tcase_add_test(tc, fuzz_regressions);
	tcase_add_test(tc, utf8_cut_at_a_character);
	tcase_add_test(tc, slugs);
	tcase_add_test(tc, two_gpus_and_the_bandwidth_ratio);
	tcase_add_test(tc, recorded_files_in_turn);
	tcase_add_test(tc, control_steps_are_no_rung);
	tcase_add_test(tc, partial_record_merges);
	suite_add_tcase(s, tc);
	return s;
}

/* The tests of what permissions forbid: a user they stop is needed. */
static Suite *make_permission_suite(void)
{
	Suite *s = suite_create("results permissions");
	TCase *tc = tcase_create("permissions");

	tcase_add_unchecked_fixture(tc, setup, teardown);
	tcase_add_test(tc, locked_file);
	tcase_add_test(tc, read_only_directory_keeps_the_old_file);
	suite_add_tcase(s, tc);
	return s;
}

/* Built twice (Makefile.am): test_results, and test_results_perm (CHECK_PART 1), which may skip. */
int main(void)
{
	if (CHECK_PART == 1)
		return check_main_part(make_permission_suite, check_permissions_missing());
	return check_main_part(make_suite, NULL);
}

/* Sweeps: the values asked for, the L2 lines, the chart, the JSON, and a sweep recorded into a results file. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "measure.h"
#include "paths.h"
#include "results.h"
#include "session.h"
#include "sweep.h"
#include "textwrap.h"

START_TEST(values_asked_for)
{
	unsigned long long *v;
	struct error e;
	int n;

	ck_assert_int_eq(sweep_parse_values("2^10..2^28", false, &v, &n, &e), 0);
	ck_assert_int_eq(n, 10);
	ck_assert(v[0] == 1024 && v[1] == 4096 && v[9] == 1ULL << 28);
	free(v);
	ck_assert_int_eq(sweep_parse_values("2^10..2^14:2", false, &v, &n, &e), 0);
	ck_assert_int_eq(n, 5);
	free(v);
	ck_assert_int_eq(sweep_parse_values("64..1024", true, &v, &n, &e), 0);
	ck_assert(n == 5 && v[0] == 64 && v[4] == 1024);
	free(v);
	/* a list, in any order, comes back ascending; a range's end need not be on its steps */
	ck_assert_int_eq(sweep_parse_values("1M,1024,2^14", false, &v, &n, &e), 0);
	ck_assert(n == 3 && v[0] == 1024 && v[1] == 16384 && v[2] == 1ULL << 20);
	free(v);
	ck_assert_int_eq(sweep_parse_values("1000..5000", false, &v, &n, &e), 0);
	ck_assert(n == 2 && v[1] == 4000);
	free(v);
	ck_assert_int_eq(sweep_parse_values("2^20..2^10", false, &v, &n, &e), -1);
	ck_assert_msg(strstr(e.msg, "backwards") != NULL, "%s", e.msg);
	ck_assert_int_eq(sweep_parse_values("2^10..2^20:1", false, &v, &n, &e), -1);
	ck_assert_int_eq(sweep_parse_values("0..2^20", false, &v, &n, &e), -1);
	ck_assert_int_eq(sweep_parse_values("64..2048", true, &v, &n, &e), -1);
	ck_assert_int_eq(sweep_parse_values(",", false, &v, &n, &e), -1);
	ck_assert_ptr_null(v);
	ck_assert_int_eq(sweep_default_blocks(&v), 5);
	free(v);
	ck_assert_int_eq(sweep_default_sizes(NULL, &v), 10);
	free(v);
}
END_TEST

/* Three sizes, two steps: 12 and 3 bytes an element, on a GPU of 12 MiB of L2. */
static void hand_made(struct sweep *s)
{
	memset(s, 0, sizeof *s);
	snprintf(s->lesson, sizeof s->lesson, "vectorize");
	snprintf(s->date, sizeof s->date, "2000-01-01T00:00:00Z");
	snprintf(s->gpu.name, sizeof s->gpu.name, "Fixture GPU");
	s->gpu.l2_bytes = 12 << 20;
	s->block = 256;
	s->nsteps = 2;
	s->steps = xcalloc(3, sizeof *s->steps);
	for (int i = 0; i < 2; i++) {
		struct sweep_step *st = &s->steps[i];

		st->step = 1 + 4 * i;
		snprintf(st->kernel, sizeof st->kernel, i == 0 ? "vec_add_float" : "vec_add_char");
		st->bytes_per_element = i == 0 ? 12 : 3;
		st->npoints = 3;
		st->points = xcalloc(3, sizeof *st->points);
		for (int k = 0; k < 3; k++) {
			st->points[k].size = 1ULL << (16 + 4 * k);
			st->points[k].block = 256;
			st->points[k].ran = k < 2 || i == 0;
			st->points[k].correct = true;
			st->points[k].reps = 3;
			st->points[k].median_ms = 1;
			st->points[k].rate = i == 0 ? 10 * pow(10, k) : 100;
		}
	}
	snprintf(s->steps[1].points[2].error, sizeof s->steps[1].points[2].error, "too large");
}

START_TEST(l2_lines)
{
	struct sweep s;
	bool only_char[2] = { false, true };
	double at[4];

	hand_made(&s);
	ck_assert_int_eq(sweep_l2_sizes(&s, NULL, at, 4), 2);
	ck_assert(fabs(at[0] - (1 << 20)) < 1 && fabs(at[1] - (4 << 20)) < 1);
	ck_assert_int_eq(sweep_l2_sizes(&s, only_char, at, 4), 1);
	/* the same working set twice is one line */
	s.steps[1].bytes_per_element = 12;
	ck_assert_int_eq(sweep_l2_sizes(&s, NULL, at, 4), 1);
	s.gpu.l2_bytes = 0;
	ck_assert_int_eq(sweep_l2_sizes(&s, NULL, at, 4), 0);
	s.gpu.l2_bytes = 12 << 20;
	s.over = SWEEP_BLOCK;
	ck_assert_int_eq(sweep_l2_sizes(&s, NULL, at, 4), 0);
	sweep_free(&s);
}
END_TEST

/*
 * A sweep keeps L2 between runs left of the L2 line alone: up to a
 * working set of exactly the L2 (the line's own place), not a byte past
 * it, where each run starts after a flush as in the lesson's table.  A
 * float add's 12 bytes an element on a 50 MiB L2: 2^22 keeps, 2^24 not.
 */
/*
 * The launch floor: the shortest run of the shown steps (a hidden step's
 * faster run does not count); none for a block sweep, nor where a step
 * is not counted in GB/s (its rate is no bytes over a time).
 */
START_TEST(launch_floor)
{
	struct sweep s;
	bool only_char[2] = { false, true };

	hand_made(&s);
	s.steps[0].points[0].median_ms = 0.004;
	s.steps[1].points[1].median_ms = 0.006;
	ck_assert(fabs(sweep_launch_floor_ms(&s, NULL) - 0.004) < 1e-12);
	ck_assert(fabs(sweep_launch_floor_ms(&s, only_char) - 0.006) < 1e-12);
	/* a point that did not run has no time */
	s.steps[1].points[1].ran = false;
	ck_assert(fabs(sweep_launch_floor_ms(&s, only_char) - 1) < 1e-12);
	s.steps[1].unit = UNIT_GFLOPS;
	ck_assert(sweep_launch_floor_ms(&s, NULL) == 0);
	s.steps[1].unit = UNIT_GBPS;
	s.over = SWEEP_BLOCK;
	ck_assert(sweep_launch_floor_ms(&s, NULL) == 0);
	sweep_free(&s);
}
END_TEST

START_TEST(l2_kept_left_of_the_line_alone)
{
	const unsigned long long l2 = 50ULL << 20;
	struct measure_options o;

	sweep_measure_options(&o);
	ck_assert(o.keep_l2);
	ck_assert(measure_keeps_l2(o.keep_l2, 12.0 * (1 << 22), l2));
	ck_assert(!measure_keeps_l2(o.keep_l2, 12.0 * (1 << 24), l2));
	ck_assert(measure_keeps_l2(o.keep_l2, (double)l2, l2));
	ck_assert(!measure_keeps_l2(o.keep_l2, (double)l2 + 1, l2));
	/* an L2 of unknown size keeps nothing; nor does a lesson's run, which never asks */
	ck_assert(!measure_keeps_l2(o.keep_l2, 1024, 0));
	measure_default_options(&o);
	ck_assert(!measure_keeps_l2(o.keep_l2, 1024, l2));
}
END_TEST

START_TEST(the_chart)
{
	struct sweep s;
	struct canvas_lines c;
	int markers, rows = 0;
	bool seen1 = false, seen5 = false;

	hand_made(&s);
	sweep_draw(&s, NULL, 80, 12, true, &c, &markers);
	/* the L2 labels, 12 rows, the axis, the sizes */
	ck_assert_int_eq(c.nlines, 15);
	ck_assert_int_eq(markers, 2);
	ck_assert_msg(strstr(c.lines[0], "L2") != NULL, "%s", c.lines[0]);
	ck_assert_msg(strstr(c.lines[14], "2^16") != NULL && strstr(c.lines[14], "2^24") != NULL, "%s", c.lines[14]);
	for (int i = 0; i < c.nlines; i++) {
		ck_assert_int_le(textwrap_columns(c.lines[i], strlen(c.lines[i])), 80);
		if (i >= 1 && i <= 12) {
			rows++;
			seen1 = seen1 || strchr(c.lines[i] + 6, '1') != NULL;
			seen5 = seen5 || strchr(c.lines[i] + 6, '5') != NULL;
		}
	}
	ck_assert(rows == 12 && seen1 && seen5);
	/* the highest rate on the top row, the decades labelled */
	ck_assert_msg(strstr(c.lines[1], "1000") != NULL && strchr(c.lines[1], '1') != NULL, "%s", c.lines[1]);
	canvas_lines_free(&c);
	/* ASCII: nothing past 127 */
	sweep_draw(&s, NULL, 60, 8, false, &c, NULL);
	for (int i = 0; i < c.nlines; i++)
		for (const char *p = c.lines[i]; *p; p++)
			ck_assert_int_lt((unsigned char)*p, 128);
	canvas_lines_free(&c);
	/* nothing that ran: no chart */
	for (int i = 0; i < s.nsteps; i++)
		for (int k = 0; k < s.steps[i].npoints; k++)
			s.steps[i].points[k].ran = false;
	sweep_draw(&s, NULL, 80, 12, true, &c, &markers);
	ck_assert_int_eq(c.nlines, 0);
	sweep_free(&s);
}
END_TEST

START_TEST(json_both_ways)
{
	struct sweep s, back;
	struct error e;
	json_t *o;

	hand_made(&s);
	o = sweep_to_json(&s);
	ck_assert_int_eq(sweep_from_json(o, "x.json", &back, &e), 0);
	ck_assert_str_eq(back.lesson, "vectorize");
	ck_assert(back.over == SWEEP_SIZE && back.block == 256 && back.gpu.l2_bytes == 12 << 20);
	ck_assert_int_eq(back.nsteps, 2);
	ck_assert_int_eq(back.steps[1].step, 5);
	ck_assert(back.steps[1].points[2].ran == false);
	ck_assert_str_eq(back.steps[1].points[2].error, "too large");
	ck_assert(back.steps[0].points[2].rate == 1000 && back.steps[0].bytes_per_element == 12);
	sweep_free(&back);
	/* damaged: named, never half read */
	json_object_set_new(json_array_get(json_object_get(json_array_get(json_object_get(o, "steps"), 1), "points"), 0),
	    "median_ms", json_string("fast"));
	ck_assert_int_eq(sweep_from_json(o, "x.json", &back, &e), -1);
	ck_assert_msg(strstr(e.msg, "x.json") != NULL && strstr(e.msg, "median_ms") != NULL, "%s", e.msg);
	json_decref(o);
	sweep_free(&s);
}
END_TEST

/*
 * A copy of a recorded file without its sweeps and L2 size (as the files
 * were before sweeps), written as results_file_save writes; its text.
 */
static char *copy_to_tmp(const char *source, char *path)
{
	json_t *root = json_load_file(source, 0, NULL);
	char *text, *with_nl;
	int fd = mkstemp(path);

	ck_assert_ptr_nonnull(root);
	ck_assert_int_ge(fd, 0);
	json_object_del(root, "sweeps");
	json_object_del(json_object_get(root, "gpu"), "l2_bytes");
	text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(8));
	json_decref(root);
	ck_assert_ptr_nonnull(text);
	with_nl = xasprintf("%s\n", text);
	free(text);
	ck_assert(write(fd, with_nl, strlen(with_nl)) == (ssize_t)strlen(with_nl));
	close(fd);
	return with_nl;
}

/* Recorded into a GPU's file (one without sweeps): everything else in it stays byte for byte; the same sweep again replaces it. */
START_TEST(recorded_into_a_results_file)
{
	char *src = paths_source("data/results/nvidia-h100.json");
	char path[] = "/tmp/cudatutor-test-sweep-XXXXXX";
	char *before = copy_to_tmp(src, path), *rest;
	struct results_file f;
	struct sweep s, back;
	struct error e;
	json_t *root;

	hand_made(&s);
	snprintf(s.gpu.name, sizeof s.gpu.name, "NVIDIA H100 80GB HBM3");
	ck_assert_msg(sweep_record(path, &s, &e) == 0, "%s", e.msg);
	s.over = SWEEP_BLOCK;
	s.size = 1 << 24;
	ck_assert_msg(sweep_record(path, &s, &e) == 0, "%s", e.msg);
	s.over = SWEEP_SIZE;
	s.steps[0].points[0].rate = 42;
	ck_assert_msg(sweep_record(path, &s, &e) == 0, "%s", e.msg);
	root = json_load_file(path, 0, NULL);
	ck_assert_ptr_nonnull(root);
	ck_assert_int_eq(json_array_size(json_object_get(root, "sweeps")), 2);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(root, "gpu"), "l2_bytes")), 12 << 20);
	/* without them, the file as it was */
	json_object_del(root, "sweeps");
	json_object_del(json_object_get(root, "gpu"), "l2_bytes");
	rest = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(8));
	ck_assert_int_eq(strncmp(rest, before, strlen(rest)), 0);
	free(rest);
	json_decref(root);
	/* read back: the newer size sweep, the GPU's L2; a save keeps the sweeps */
	ck_assert_msg(sweep_find_recorded(path, "vectorize", SWEEP_SIZE, &back, &e) == 0, "%s", e.msg);
	ck_assert(back.recorded && back.steps[0].points[0].rate == 42 && back.gpu.l2_bytes == 12 << 20);
	ck_assert_str_eq(back.gpu.name, "NVIDIA H100 80GB HBM3");
	sweep_free(&back);
	ck_assert_int_eq(results_file_load(path, &f, &e), 0);
	ck_assert(f.gpu.l2_bytes == 12 << 20);
	ck_assert_int_eq(results_file_save(&f, path, &e), 0);
	results_file_free(&f);
	ck_assert_int_eq(sweep_find_recorded(path, "vectorize", SWEEP_BLOCK, &back, &e), 0);
	ck_assert(back.over == SWEEP_BLOCK && back.size == 1 << 24);
	sweep_free(&back);
	ck_assert_int_eq(sweep_find_recorded(path, "unrolling", SWEEP_SIZE, &back, &e), -1);
	ck_assert_msg(strstr(e.msg, "cudatutor sweep unrolling --record") != NULL, "%s", e.msg);
	/* another GPU's file is refused, and left as it was */
	snprintf(s.gpu.name, sizeof s.gpu.name, "Another GPU");
	ck_assert_int_eq(sweep_record(path, &s, &e), -1);
	ck_assert_msg(strstr(e.msg, "not on this Another GPU") != NULL, "%s", e.msg);
	sweep_free(&s);
	unlink(path);
	free(before);
	free(src);
}
END_TEST

/* --record's file by default: the recorded file of the GPU, found by its name rather than the slug of it. */
START_TEST(the_file_of_this_gpu)
{
	struct gpu_desc g = { 0 };
	char *path;

	snprintf(g.name, sizeof g.name, "NVIDIA H100 80GB HBM3");
	path = session_recorded_file_of(&g);
	ck_assert_msg(strstr(path, "data/results/nvidia-h100.json") != NULL, "%s", path);
	free(path);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("sweep");
	TCase *tc = tcase_create("sweep");

	tcase_add_test(tc, values_asked_for);
	tcase_add_test(tc, l2_lines);
	tcase_add_test(tc, l2_kept_left_of_the_line_alone);
	tcase_add_test(tc, launch_floor);
	tcase_add_test(tc, the_chart);
	tcase_add_test(tc, json_both_ways);
	tcase_add_test(tc, recorded_into_a_results_file);
	tcase_add_test(tc, the_file_of_this_gpu);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

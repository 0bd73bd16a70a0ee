/* The session: the answers every view asks for, without a GPU. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "exercise_table.h"
#include "lesson.h"
#include "paths.h"
#include "registry.h"
#include "session.h"

static struct lesson_set set;

static void load(void)
{
	struct error e;

	setenv("CUDATUTOR_NO_GPU", "1", 1);
	paths_init();
	ck_assert_msg(lesson_load_all("en", &set, &e) == 0, "%s", e.msg);
}

static void unload(void)
{
	lesson_set_free(&set);
}

static const struct lesson *lesson(const char *id)
{
	const struct lesson *l = lesson_find(&set, id);

	ck_assert_msg(l != NULL && l->error == NULL, "lesson %s", id);
	return l;
}

START_TEST(defaults_come_from_the_experiments)
{
	ck_assert_uint_eq(session_default_size(lesson("reduction")), 1ULL << 24);
	ck_assert_uint_eq(session_default_block(lesson("reduction")), 1024);
	/* a matrix lesson's size is the matrix side */
	ck_assert_uint_eq(session_default_size(lesson("shared-memory")), 2048);
	ck_assert_uint_eq(session_default_size(lesson("pitch")), 1000);
	ck_assert_uint_eq(session_default_block(lesson("occupancy")), 256);
	ck_assert(session_max_size(lesson("shared-memory")) < (1ULL << 24));
}
END_TEST

START_TEST(a_step_that_does_not_fit_says_why)
{
	const struct lesson *l = lesson("reduction");
	char why[256];

	ck_assert_ptr_null(session_step_unfit(l, 0, 1ULL << 24, 1024, why, sizeof why));
	/* the neighbored tree needs a power-of-two block */
	ck_assert_ptr_nonnull(session_step_unfit(l, 0, 1ULL << 24, 96, why, sizeof why));
	ck_assert_msg(strstr(why, "power of two") != NULL, "%s", why);
	ck_assert_ptr_nonnull(session_step_unfit(l, 0, 0, 1024, why, sizeof why));
	ck_assert_ptr_nonnull(session_step_unfit(lesson("shared-memory"), 0, 1ULL << 24, 1024, why,
	    sizeof why));
	ck_assert_msg(strstr(why, "use a smaller --size") != NULL, "%s", why);
}
END_TEST

START_TEST(fits_refuses_a_bad_block_before_asking_the_gpu)
{
	struct error e;

	ck_assert_int_eq(session_check_fits(lesson("reduction"), 1ULL << 24, 96, &e), -1);
	ck_assert_msg(strstr(e.msg, "step 1 of 'reduction'") != NULL, "%s", e.msg);
}
END_TEST

START_TEST(recorded_is_what_was_asked_for)
{
	struct error e;

	ck_assert(!session_live(true, &e));
	ck_assert_str_eq(e.msg, "");
	/* CUDATUTOR_NO_GPU: no live numbers, and a reason */
	ck_assert(!session_live(false, &e));
	ck_assert(e.msg[0] != '\0');
}
END_TEST

START_TEST(recorded_results_carry_unit_and_yardstick)
{
	struct run_report r;
	struct error e;

	ck_assert_msg(session_recorded(NULL, lesson("reduction"), 1ULL << 24, 1024, &r, &e) == 0,
	    "%s", e.msg);
	ck_assert(r.recorded);
	ck_assert_int_eq(r.steps[0].unit, UNIT_GBPS);
	ck_assert_int_eq(r.steps[0].yardstick, YARDSTICK_COPY);
	ck_assert_double_eq(r.steps[0].pct, r.steps[0].pct_copy);
	ck_assert_double_eq(r.steps[0].rate, r.steps[0].gbps);
	run_report_free(&r);
	ck_assert_msg(session_recorded(NULL, lesson("shared-memory"), 2048, 1024, &r, &e) == 0,
	    "%s", e.msg);
	ck_assert_int_eq(r.steps[0].unit, UNIT_GFLOPS);
	ck_assert_int_eq(r.steps[0].yardstick, YARDSTICK_LIBRARY);
	ck_assert(r.steps[0].pct > 0);
	ck_assert_double_eq(r.steps[0].pct, r.steps[0].pct_library);
	run_report_free(&r);
	/* a kernel that leaves partials to the host is never compared with the library */
	ck_assert_msg(session_recorded(NULL, lesson("unrolling"), 1ULL << 24, 1024, &r, &e) == 0,
	    "%s", e.msg);
	for (int i = 0; i < r.nsteps; i++) {
		const struct step_result *st = &r.steps[i];
		if (strncmp(st->kernel, "reduce_unroll", 13) == 0) {
			ck_assert_msg(!st->complete, "%s", st->kernel);
			ck_assert_double_eq(st->pct_library, 0);
		}
		if (strcmp(st->kernel, "cub_device_reduce_sum") == 0)
			ck_assert(st->complete && st->library);
	}
	run_report_free(&r);
	ck_assert_str_eq(results_unit_name(UNIT_GFLOPS), "GFLOP/s");
	ck_assert_str_eq(results_yardstick_name(YARDSTICK_NONE), "none");
}
END_TEST

START_TEST(counters_fall_back_to_where_record_reads_them)
{
	char *fixture = paths_source("tests/fixtures/results-metrics.json");
	struct run_report r;
	struct error e;

	/* the fixture has counters at 2^24 only: asked at 2^28, it shows those */
	ck_assert_msg(session_recorded_counters(fixture, lesson("reduction"), 1ULL << 28, 1024, &r,
	    &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(r.size, 1ULL << 24);
	ck_assert(session_has_counters(&r));
	run_report_free(&r);
	ck_assert_int_eq(session_recorded_counters(fixture, lesson("unrolling"), 1ULL << 24, 1024, &r,
	    &e), -1);
	ck_assert_msg(strstr(e.msg, "unrolling") != NULL, "%s", e.msg);
	free(fixture);
}
END_TEST

/* Is size in the list at this block? */
static bool has_size(const struct exercise_size *z, int n, unsigned long long size, unsigned int block)
{
	for (int i = 0; i < n; i++)
		if (z[i].size == size && z[i].block == block)
			return true;
	return false;
}

START_TEST(exercise_sizes_catch_tails)
{
	struct exercise_size z[EXERCISE_MAX_SIZES];
	const struct kernel_def *k = registry_find("vec_add_float4");
	/* vec_add_float4: a chunk of 1024 threads x 4 floats */
	int n = session_exercise_sizes(k, 1ULL << 24, 1024, 0, z, EXERCISE_MAX_SIZES);
	int residues[4] = { 0 };

	ck_assert_uint_eq(z[0].size, 1);
	ck_assert(has_size(z, n, 3 * 4096 - 1, 1024));
	ck_assert(has_size(z, n, 3 * 4096 + 1, 1024));
	ck_assert_uint_eq(z[n - 1].size, 1ULL << 24);
	/* every remainder a float4 leaves */
	for (int i = 0; i < n; i++)
		residues[z[i].size % 4]++;
	for (int r = 1; r < 4; r++)
		ck_assert_int_gt(residues[r], 0);
	/* other block sizes, where the kernel takes them: half, and three warps (not a power of two) */
	ck_assert(has_size(z, n, 3 * 2048 - 1, 512));
	ck_assert(has_size(z, n, 3 * 384 - 1, 96));

	/* unroll8: a remainder in each of the 8 parts of the last block's chunk */
	k = registry_find("reduce_unroll8");
	n = session_exercise_sizes(k, 1ULL << 24, 1024, 0, z, EXERCISE_MAX_SIZES);
	for (unsigned long long part = 0; part < 8; part++) {
		bool seen = false;
		for (int i = 0; i < n; i++)
			seen |= z[i].block == 1024 && z[i].size > 8192 && (z[i].size - 1) % 8192 / 1024 == part &&
			    (z[i].size - 1) % 8192 % 1024 != 0;
		ck_assert_msg(seen, "no size ends inside part %llu of the last chunk", part);
	}

	/* a matrix's size is its side: around the tile (32 for 256 threads x 4 rows), each side mod 4 */
	k = registry_find("matmul_tiled_4x");
	n = session_exercise_sizes(k, 2048, 256, 0, z, EXERCISE_MAX_SIZES);
	ck_assert(has_size(z, n, 31, 256));
	ck_assert(has_size(z, n, 33, 256));
	for (int r = 1; r < 4; r++) {
		bool seen = false;
		for (int i = 0; i < n; i++)
			seen |= z[i].size % 4 == (unsigned)r;
		ck_assert_msg(seen, "no side of remainder %d modulo 4", r);
	}
	ck_assert_uint_eq(z[n - 1].size, 2048);

	/* the random size is checked, marked as such; the lesson's size counted once */
	k = registry_find("vec_add_float4");
	n = session_exercise_sizes(k, 1, 1024, 777, z, EXERCISE_MAX_SIZES);
	ck_assert(has_size(z, n, 777, 1024));
	for (int i = 0; i < n; i++)
		ck_assert(z[i].random == (z[i].size == 777));
	ck_assert_uint_eq(z[0].size, 1);
	for (int i = 1; i < n; i++)
		ck_assert_uint_ne(z[i].size, 1);
}
END_TEST

/*
 * Every exercise's target meets every kind of block its task allows (the
 * smallest, the largest, one not a power of two where any multiple of 32
 * is taken), and a 1-D target a size past what a full GPU's grid holds
 * at once, with a tail: a grid capped to fill the GPU loops only there.
 * The list never fills up (a size dropped for want of room goes unseen).
 */
START_TEST(exercise_sizes_cover_every_block_kind)
{
	for (int i = 0; i < exercise_def_count; i++) {
		const struct kernel_def *k = registry_find(exercise_defs[i].target);
		unsigned int block = k->experiment->default_block ? k->experiment->default_block : 1024;
		unsigned long long lesson = k->experiment->default_size ? k->experiment->default_size : 1ULL << 24;
		struct exercise_size z[EXERCISE_MAX_SIZES];
		int n = session_exercise_sizes(k, lesson, block, 777, z, EXERCISE_MAX_SIZES);
		bool min = false, max = false, odd = false, past = false;
		char why[256];

		printf("%-18s %2d sizes:", exercise_defs[i].id, n);
		for (int j = 0; j < n; j++) {
			unsigned int b = z[j].block;

			printf(" %llu/%u", z[j].size, b);
			min |= b == k->min_block;
			max |= b == k->max_block;
			odd |= (b & (b - 1)) != 0;
			past |= z[j].size > 2 * 2048ULL * 160 * (k->per_thread ? k->per_thread : 1) &&
			    z[j].size % ((unsigned long long)b * (k->per_thread ? k->per_thread : 1)) != 0;
		}
		printf("\n");
		ck_assert_int_lt(n, EXERCISE_MAX_SIZES);
		if (k->shape == SHAPE_TABLE) {
			/* the experiment's table sets its block: one block, not several named */
			for (int j = 1; j < n; j++)
				ck_assert_uint_eq(z[j].block, z[0].block);
			continue;
		}
		ck_assert_msg(min && max, "%s: the smallest or the largest block is not run", exercise_defs[i].id);
		if (registry_check_step(k, 1000, 96, why, sizeof why) == NULL)
			ck_assert_msg(odd, "%s: no block that is not a power of two", exercise_defs[i].id);
		if (k->shape == SHAPE_GRID_STRIDE || k->shape == SHAPE_CHUNKS)
			ck_assert_msg(past || k->experiment->max_size < 2 * 2048ULL * 160 * 8,
			    "%s: no size past a full GPU", exercise_defs[i].id);
	}
}
END_TEST

/* Random sizes fall in a few chunks, differ with the seed, and are sizes the kernel takes. */
START_TEST(exercise_random_sizes)
{
	const struct kernel_def *k = registry_find("reduce_unroll8");
	unsigned long long a = session_exercise_random_size(k, 1024, 1), b = session_exercise_random_size(k, 1024, 2);

	ck_assert_uint_ne(a, b);
	ck_assert(a >= 1 && a <= 6 * 8192);
	ck_assert(session_exercise_random_size(registry_find("matmul_2d_vectorized"), 256, 5) <= 3 * 128);
}
END_TEST

/*
 * A report a GPU judged, its SASS passed, right at size (block 1024) so
 * far: a second size, a test's own, goes in run.sizes[1].
 */
static struct exercise_report *report_right_at(unsigned long long size)
{
	struct exercise_report *r = calloc(1, sizeof *r);

	ck_assert_ptr_nonnull(r);
	r->compiled.ok = true;
	r->sass_checked = true;
	r->verdict.passed = true;
	r->gpu = true;
	r->run.nsizes = 2;
	r->run.sizes[0] = (struct exercise_size_check){ .size = size, .block = 1024, .ran = true, .correct = true };
	return r;
}

/*
 * A size wrong only once the blocks start in reverse order is named as
 * such, in the reason and in the size's own words; a size wrong in the
 * plain run, listed before it, is named first.
 */
START_TEST(a_size_wrong_in_reverse_order_says_so)
{
	struct exercise_report *r = report_right_at(4099);
	char why[1024], words[160];

	r->run.sizes[1] = (struct exercise_size_check){ .size = 4099, .block = 1024, .reversed = true, .ran = true };
	snprintf(r->run.sizes[1].detail, sizeof r->run.sizes[1].detail, "sum is 1, the CPU says 2");
	session_exercise_reason(r, why, sizeof why);
	ck_assert_msg(strstr(why, "reverse order") != NULL && strstr(why, "size 4099, block 1024") != NULL &&
	    strstr(why, "sum is 1, the CPU says 2") != NULL, "%s", why);
	session_exercise_size_words(&r->run.sizes[1], words, sizeof words);
	ck_assert_str_eq(words, "size 4099, block 1024, its blocks started in reverse order");
	/* the plain run's wrong size comes first */
	r->run.sizes[0].correct = false;
	snprintf(r->run.sizes[0].detail, sizeof r->run.sizes[0].detail, "sum is 3, the CPU says 4");
	session_exercise_reason(r, why, sizeof why);
	ck_assert_msg(strstr(why, "reverse order") == NULL && strstr(why, "sum is 3") != NULL, "%s", why);
	free(r);
}
END_TEST

/*
 * A size that stopped only in reverse order with half of the GPU held (a
 * barrier across the grid never ends there) is named as such, with the
 * time limit it ran into; so is a wrong answer there.
 */
START_TEST(a_size_stopped_with_half_the_gpu_held_says_so)
{
	struct exercise_report *r = report_right_at(5246981);
	char why[1024], words[160];

	r->run.sizes[1] = (struct exercise_size_check){ .size = 5246981, .block = 1024, .held = true };
	snprintf(r->run.sizes[1].error, sizeof r->run.sizes[1].error, "stopped after 5 s, its time limit");
	session_exercise_reason(r, why, sizeof why);
	ck_assert_msg(strstr(why, "held half of the GPU") != NULL && strstr(why, "size 5246981, block 1024") != NULL &&
	    strstr(why, "stopped after 5 s") != NULL, "%s", why);
	session_exercise_size_words(&r->run.sizes[1], words, sizeof words);
	ck_assert_str_eq(words, "size 5246981, block 1024, in reverse order with half of the GPU held by another kernel");
	/* a wrong answer there: its detail */
	r->run.sizes[1].ran = true;
	snprintf(r->run.sizes[1].detail, sizeof r->run.sizes[1].detail, "sum is 1, the CPU says 2");
	session_exercise_reason(r, why, sizeof why);
	ck_assert_msg(strstr(why, "held half of the GPU") != NULL && strstr(why, "sum is 1") != NULL, "%s", why);
	free(r);
}
END_TEST

START_TEST(two_gpus_side_by_side)
{
	char *fixture = paths_source("tests/fixtures/results-metrics.json");
	struct run_report a, b;
	struct results_comparison c;
	struct error e;

	ck_assert_msg(session_recorded(NULL, lesson("reduction"), 1ULL << 24, 1024, &a, &e) == 0,
	    "%s", e.msg);
	ck_assert_msg(session_recorded(fixture, lesson("reduction"), 1ULL << 24, 1024, &b, &e) == 0,
	    "%s", e.msg);
	results_compare(&a, &b, &c);
	ck_assert_int_eq(c.count, a.nsteps);
	ck_assert_double_eq_tol(c.copy_ratio, b.copy_gbps / a.copy_gbps, 1e-12);
	for (int i = 0; i < c.count; i++) {
		/* the fixture was recorded before the lesson had its control step */
		if (c.pairs[i].b == NULL) {
			ck_assert(c.pairs[i].a->control);
			continue;
		}
		ck_assert_str_eq(c.pairs[i].a->kernel, c.pairs[i].b->kernel);
		if (c.pairs[i].speedup > 0)
			ck_assert_double_eq_tol(c.pairs[i].speedup,
			    c.pairs[i].a->median_ms / c.pairs[i].b->median_ms, 1e-12);
	}
	results_comparison_free(&c);
	run_report_free(&a);
	run_report_free(&b);
	free(fixture);
}
END_TEST

START_TEST(arch_without_a_gpu_is_the_recorded_gpus)
{
	char buf[16];
	struct error e;

	/* data/results/ was recorded on an sm_90 GPU; the build has sm_90 SASS */
	if (session_arch("reduce", NULL, buf, sizeof buf, &e) != 0) {
		ck_assert_msg(strstr(e.msg, "cuobjdump") != NULL || strstr(e.msg, ".sass") != NULL,
		    "%s", e.msg);
		return;
	}
	ck_assert_str_eq(buf, "sm_90");
	/* a live GPU's own architecture wins */
	ck_assert_int_eq(session_arch("reduce", "sm_90", buf, sizeof buf, &e), 0);
	ck_assert_str_eq(buf, "sm_90");
	/* a GPU the fatbin has no SASS for runs JIT-compiled PTX: nothing to show */
	ck_assert_int_eq(session_arch("reduce", "sm_50", buf, sizeof buf, &e), -1);
}
END_TEST

START_TEST(steps_are_checked_by_the_table_alone)
{
	struct error e;

	ck_assert_int_eq(session_check_steps(lesson("reduction"), 1ULL << 24, 1024, &e), 0);
	ck_assert_int_eq(session_check_steps(lesson("reduction"), 1ULL << 24, 96, &e), -1);
	ck_assert_msg(strstr(e.msg, "step 1 of 'reduction'") != NULL, "%s", e.msg);
	/* a matrix of 2^24 rows fits no step of shared-memory */
	ck_assert_int_eq(session_check_steps(lesson("shared-memory"), 1ULL << 24, 1024, &e), -1);
}
END_TEST

START_TEST(record_runs_the_default_size_and_a_large_one_where_it_fits)
{
	unsigned long long sizes[2];

	ck_assert_int_eq(session_record_sizes(lesson("reduction"), sizes), 2);
	ck_assert_uint_eq(sizes[0], 1ULL << 24);
	ck_assert_uint_eq(sizes[1], 1ULL << 28);
	/* a matrix lesson's size is its side: its default and 4096 */
	ck_assert_int_eq(session_record_sizes(lesson("shared-memory"), sizes), 2);
	ck_assert_uint_eq(sizes[0], 2048);
	ck_assert_uint_eq(sizes[1], 4096);
}
END_TEST

START_TEST(record_writes_beside_the_recorded_results)
{
	struct gpu_desc g = { .name = "NVIDIA H200 (test)" };
	char *dir = paths_source("data/results");
	char *want = xasprintf("%s/nvidia-h200-test.json", dir);
	char *path = session_record_path(&g);

	/* a source tree (the tests run in one): there if it may be written, else here */
	if (access(dir, W_OK) == 0)
		ck_assert_str_eq(path, want);
	else
		ck_assert_str_eq(path, "nvidia-h200-test.json");
	free(path);
	free(want);
	free(dir);
}
END_TEST

START_TEST(runs_asked_for_are_exactly_timed)
{
	struct measure_options o, defaults;

	measure_default_options(&defaults);
	session_measure_options(&o, 0);
	ck_assert_int_eq(o.warmup, defaults.warmup);
	ck_assert_int_eq(o.min_reps, defaults.min_reps);
	ck_assert_int_eq(o.max_reps, defaults.max_reps);
	session_measure_options(&o, 7);
	ck_assert_int_eq(o.min_reps, 7);
	ck_assert_int_eq(o.max_reps, 7);
	/* ncu profiles the launch after the warm-up ones */
	ck_assert_int_eq(o.warmup, METRICS_SKIP_LAUNCHES);
}
END_TEST

START_TEST(no_live_counters_without_a_gpu)
{
	struct run_report r;
	struct error e;

	ck_assert_int_eq(session_live_counters(&r, lesson("reduction"), 0, 1ULL << 24, 1024, NULL, &e),
	    -1);
	ck_assert(e.msg[0] != '\0');
}
END_TEST

START_TEST(counts_arch_is_never_empty)
{
	char here[16], counts[16];
	struct error e;

	session_counts_arch("reduce", counts, sizeof counts);
	/* without a GPU: the recorded GPU's, as session_arch says, else sm_90 */
	if (session_arch_here("reduce", here, sizeof here, &e) == 0)
		ck_assert_str_eq(counts, here);
	else
		ck_assert_str_eq(counts, "sm_90");
	session_counts_arch("no_such_module", counts, sizeof counts);
	ck_assert_str_eq(counts, "sm_90");
}
END_TEST

START_TEST(results_without_a_gpu_are_recorded_and_say_why)
{
	char *fixture = paths_source("tests/fixtures/results-metrics.json");
	struct measure_options o;
	struct run_report r;
	struct error note, e;

	measure_default_options(&o);
	/* no GPU: the newest recorded, and why for the user */
	ck_assert_int_eq(session_results(&r, lesson("reduction"), 1ULL << 24, 1024, false, NULL, &o,
	    NULL, &note, &e), SESSION_NO_GPU);
	ck_assert(r.recorded);
	ck_assert(note.msg[0] != '\0');
	run_report_free(&r);
	/* asked for: no reason to give */
	ck_assert_int_eq(session_results(&r, lesson("reduction"), 1ULL << 24, 1024, true, fixture, &o,
	    NULL, &note, &e), SESSION_RECORDED);
	ck_assert_str_eq(note.msg, "");
	ck_assert_msg(strstr(r.recorded_file, "results-metrics.json") != NULL, "%s", r.recorded_file);
	run_report_free(&r);
	/* none at that size: what was looked for; without a GPU, why there was no run too */
	ck_assert_int_eq(session_results(&r, lesson("reduction"), 12345, 1024, true, fixture, &o, NULL,
	    &note, &e), -1);
	ck_assert_msg(strstr(e.msg, "12345") != NULL && strstr(e.msg, ", and ") == NULL, "%s", e.msg);
	ck_assert_int_eq(session_results(&r, lesson("reduction"), 12345, 1024, false, NULL, &o, NULL,
	    &note, &e), -1);
	ck_assert_msg(strstr(e.msg, ", and ") != NULL && strncmp(e.msg, note.msg, strlen(note.msg)) == 0,
	    "%s", e.msg);
	free(fixture);
}
END_TEST

START_TEST(counters_without_a_gpu_are_recorded_and_say_why)
{
	char *fixture = paths_source("tests/fixtures/results-metrics.json");
	struct run_report r;
	struct error note, e;

	ck_assert_int_eq(session_counters(&r, lesson("reduction"), 0, 1ULL << 24, 1024, true, fixture,
	    NULL, &note, &e), SESSION_RECORDED);
	ck_assert(session_has_counters(&r));
	/* every step the file holds: its three, recorded before the lesson had its control step */
	ck_assert_int_eq(r.nsteps, 3);
	run_report_free(&r);
	/* one step: a recorded report still holds every step */
	ck_assert_int_eq(session_counters(&r, lesson("reduction"), 2, 1ULL << 24, 1024, false, fixture,
	    NULL, &note, &e), SESSION_NO_GPU);
	ck_assert(note.msg[0] != '\0');
	ck_assert_int_eq(r.nsteps, 3);
	run_report_free(&r);
	/* a lesson the file lacks: why, and nothing else */
	ck_assert_int_eq(session_counters(&r, lesson("unrolling"), 0, 1ULL << 24, 1024, true, fixture,
	    NULL, &note, &e), -1);
	ck_assert_msg(strstr(e.msg, "lesson 'unrolling'") != NULL && strstr(e.msg, ", and ") == NULL, "%s", e.msg);
	free(fixture);
}
END_TEST

START_TEST(one_choice_of_live_or_recorded)
{
	char *fixture = paths_source("tests/fixtures/results-metrics.json");
	struct run_report live = { .nsteps = 0 }, rec;
	struct session_shown c;
	struct error e;

	ck_assert_int_eq(session_recorded(fixture, lesson("reduction"), 1ULL << 24, 1024, &rec, &e), 0);
	/* live: this GPU's report, and no note, though a recorded one is at hand */
	session_choose(&(struct session_have){ .gpu = SESSION_GPU_READY, .live = &live, .recorded = &rec },
	    &c);
	ck_assert(c.report == &live);
	ck_assert_int_eq(c.source, SESSION_LIVE);
	ck_assert_str_eq(c.note.msg, "");
	/* still looking for the GPU, nothing run yet: live ones are expected, and nothing is wrong */
	session_choose(&(struct session_have){ .gpu = SESSION_GPU_UNKNOWN }, &c);
	ck_assert(c.report == NULL);
	ck_assert_int_eq(c.source, SESSION_LIVE);
	ck_assert_str_eq(c.error.msg, "");
	/* recorded: asked for (no note), or for want of a GPU (why), from its file */
	session_choose(&(struct session_have){ .gpu = SESSION_GPU_READY, .recorded_asked = true,
	    .live = &live, .recorded = &rec }, &c);
	ck_assert(c.report == &rec);
	ck_assert_int_eq(c.source, SESSION_RECORDED);
	ck_assert_str_eq(c.note.msg, "");
	ck_assert_msg(strstr(c.file, "results-metrics.json") != NULL, "%s", c.file);
	session_choose(&(struct session_have){ .gpu = SESSION_GPU_ABSENT, .no_gpu = "no driver",
	    .recorded = &rec }, &c);
	ck_assert(c.report == &rec);
	ck_assert_int_eq(c.source, SESSION_NO_GPU);
	ck_assert_str_eq(c.note.msg, "no driver");
	/* live ones that cannot be read here: the recorded ones, and why */
	session_choose(&(struct session_have){ .gpu = SESSION_GPU_READY, .live_failed = "no ncu",
	    .recorded = &rec }, &c);
	ck_assert(c.report == &rec);
	ck_assert_int_eq(c.source, SESSION_NO_COUNTERS);
	ck_assert_str_eq(c.note.msg, "no ncu");
	session_choose(&(struct session_have){ .gpu = SESSION_GPU_READY, .live_failed = "no ncu" }, &c);
	ck_assert(c.report == NULL);
	ck_assert_str_eq(c.error.msg, "no ncu");
	/* none: a recorded file that failed to load says why, beside the GPU's reason */
	session_choose(&(struct session_have){ .gpu = SESSION_GPU_ABSENT, .no_gpu = "no driver",
	    .recorded_error = "bad.json: not JSON" }, &c);
	ck_assert(c.report == NULL);
	ck_assert_msg(strstr(c.error.msg, "no driver") == c.error.msg &&
	    strstr(c.error.msg, "bad.json: not JSON") != NULL, "%s", c.error.msg);
	session_choose(&(struct session_have){ .gpu = SESSION_GPU_ABSENT, .recorded_asked = true,
	    .no_gpu = "no driver", .recorded_error = "bad.json: not JSON" }, &c);
	ck_assert_str_eq(c.error.msg, "bad.json: not JSON");
	run_report_free(&rec);
	free(fixture);
}
END_TEST

/* Three timed steps of an exercise: the one it starts from, ours and yours (ms), all right. */
static void exercise_times(struct exercise_run *run, struct step_result steps[3], double start, double ours,
    double yours)
{
	memset(run, 0, sizeof *run);
	memset(steps, 0, 3 * sizeof *steps);
	for (int i = 0; i < 3; i++)
		steps[i].ran = steps[i].correct = true;
	steps[0].median_ms = start;
	steps[1].median_ms = ours;
	steps[2].median_ms = yours;
	run->report.steps = steps;
	run->report.nsteps = 3;
	run->timed = true;
}

/*
 * The time's verdict at its edges: exactly SESSION_EXERCISE_SLACK times
 * our time passes and the next double past it fails; only a time past the
 * slack and at most SESSION_EXERCISE_RETIME times ours is timed again; a
 * run timed again is kept only where it was right and faster; a wrong
 * answer or an impossible time never passes, however fast.
 */
START_TEST(exercise_time_verdict_at_its_edges)
{
	struct exercise_run run;
	struct step_result steps[3], again;
	const double ours = 2.0, slack = SESSION_EXERCISE_SLACK * ours, retime = SESSION_EXERCISE_RETIME * ours;

	exercise_times(&run, steps, 3.0, ours, slack);
	session_exercise_time_verdict(&run);
	ck_assert(run.fast_enough && !run.impossible);
	ck_assert(run.ratio == SESSION_EXERCISE_SLACK && run.start_ratio == 1.5);
	ck_assert(!session_exercise_retime_wanted(&run));

	steps[2].median_ms = nextafter(slack, 10);
	session_exercise_time_verdict(&run);
	ck_assert(!run.fast_enough);
	ck_assert(session_exercise_retime_wanted(&run));
	steps[2].median_ms = retime;
	ck_assert(session_exercise_retime_wanted(&run));
	steps[2].median_ms = nextafter(retime, 10);
	ck_assert(!session_exercise_retime_wanted(&run));
	/* not timed, or ours not measured: nothing to time again, nothing passes */
	steps[2].median_ms = nextafter(slack, 10);
	run.timed = false;
	ck_assert(!session_exercise_retime_wanted(&run));
	session_exercise_time_verdict(&run);
	ck_assert(!run.fast_enough && run.ratio == 0);
	run.timed = true;
	steps[1].median_ms = 0;
	ck_assert(!session_exercise_retime_wanted(&run));
	session_exercise_time_verdict(&run);
	ck_assert(!run.fast_enough && run.ratio == 0);

	/* timed again: a faster right run is kept, a faster wrong one or a slower one is not */
	exercise_times(&run, steps, 3.0, ours, nextafter(slack, 10));
	again = steps[2];
	again.median_ms = ours;
	again.correct = false;
	session_exercise_keep_faster(&steps[2], &again);
	ck_assert(steps[2].median_ms == nextafter(slack, 10));
	again.correct = true;
	session_exercise_keep_faster(&steps[2], &again);
	ck_assert(steps[2].median_ms == ours);
	again.median_ms = retime;
	session_exercise_keep_faster(&steps[2], &again);
	ck_assert(steps[2].median_ms == ours);

	/* a wrong answer fails at any time; the step it starts from, untimed, has no ratio */
	exercise_times(&run, steps, 3.0, ours, ours / 2);
	steps[2].correct = false;
	steps[0].ran = false;
	session_exercise_time_verdict(&run);
	ck_assert(!run.fast_enough && run.start_ratio == 0);

	/* faster than the roof allows where ours is not: it did not do the work */
	exercise_times(&run, steps, 3.0, ours, ours / 2);
	steps[1].roof.have = steps[2].roof.have = true;
	steps[2].roof.roof_exceeded = true;
	session_exercise_time_verdict(&run);
	ck_assert(run.impossible && !run.fast_enough);
	/* where ours is past the roof too, the roof is what is wrong: no verdict from it */
	steps[1].roof.roof_exceeded = true;
	session_exercise_time_verdict(&run);
	ck_assert(!run.impossible && run.fast_enough);
	/* a roof for ours alone says nothing of yours */
	steps[1].roof.roof_exceeded = false;
	steps[2].roof.have = false;
	session_exercise_time_verdict(&run);
	ck_assert(!run.impossible && run.fast_enough);
}
END_TEST

/* A time past the slack never reads as the slack: "1.152x" fails beside "at most 1.15x", never "1.15x". */
START_TEST(exercise_ratio_reads_as_it_is_judged)
{
	char buf[16];

	ck_assert_str_eq(session_exercise_ratio_text(1.0, buf, sizeof buf), "1.00");
	ck_assert_str_eq(session_exercise_ratio_text(SESSION_EXERCISE_SLACK, buf, sizeof buf), "1.15");
	ck_assert_str_eq(session_exercise_ratio_text(1.149, buf, sizeof buf), "1.15");	/* passes, as it reads */
	ck_assert_str_eq(session_exercise_ratio_text(1.1523, buf, sizeof buf), "1.152");
	ck_assert_str_eq(session_exercise_ratio_text(1.15004, buf, sizeof buf), "1.15004");
	ck_assert_str_eq(session_exercise_ratio_text(1.155, buf, sizeof buf), "1.16");	/* two decimals already past it */
	ck_assert_str_eq(session_exercise_ratio_text(1.16, buf, sizeof buf), "1.16");
	ck_assert_str_eq(session_exercise_ratio_text(0.61, buf, sizeof buf), "0.61");
	/* a hair past: six decimals at most */
	ck_assert_str_eq(session_exercise_ratio_text(nextafter(SESSION_EXERCISE_SLACK, 2), buf, sizeof buf), "1.150000");
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("session");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, load, unload);
	tcase_add_test(tc, defaults_come_from_the_experiments);
	tcase_add_test(tc, a_step_that_does_not_fit_says_why);
	tcase_add_test(tc, fits_refuses_a_bad_block_before_asking_the_gpu);
	tcase_add_test(tc, recorded_is_what_was_asked_for);
	tcase_add_test(tc, recorded_results_carry_unit_and_yardstick);
	tcase_add_test(tc, counters_fall_back_to_where_record_reads_them);
	tcase_add_test(tc, exercise_sizes_catch_tails);
	tcase_add_test(tc, exercise_random_sizes);
	tcase_add_test(tc, exercise_time_verdict_at_its_edges);
	tcase_add_test(tc, exercise_ratio_reads_as_it_is_judged);
	tcase_add_test(tc, exercise_sizes_cover_every_block_kind);
	tcase_add_test(tc, a_size_wrong_in_reverse_order_says_so);
		tcase_add_test(tc, a_size_stopped_with_half_the_gpu_held_says_so);
	tcase_add_test(tc, two_gpus_side_by_side);
	tcase_add_test(tc, arch_without_a_gpu_is_the_recorded_gpus);
	tcase_add_test(tc, steps_are_checked_by_the_table_alone);
	tcase_add_test(tc, record_runs_the_default_size_and_a_large_one_where_it_fits);
	tcase_add_test(tc, record_writes_beside_the_recorded_results);
	tcase_add_test(tc, runs_asked_for_are_exactly_timed);
	tcase_add_test(tc, no_live_counters_without_a_gpu);
	tcase_add_test(tc, counts_arch_is_never_empty);
	tcase_add_test(tc, results_without_a_gpu_are_recorded_and_say_why);
	tcase_add_test(tc, counters_without_a_gpu_are_recorded_and_say_why);
	tcase_add_test(tc, one_choice_of_live_or_recorded);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

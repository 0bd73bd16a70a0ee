/* GPU work in child processes: results, progress, crashes, cancels, and kernel faults survived. */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "gpu.h"
#include "isolate.h"
#include "registry.h"
#include "session.h"

static int answer(void *arg, void *result, struct isolate_channel *ch, struct error *e)
{
	(void)e;
	for (int i = 1; i <= 3; i++)
		isolate_progress(ch, i, 3);
	*(int *)result = *(int *)arg * 2;
	return 0;
}

static int refuse(void *arg, void *result, struct isolate_channel *ch, struct error *e)
{
	(void)arg;
	(void)result;
	(void)ch;
	error_set(e, "no, because %d", 42);
	return -1;
}

static int crash(void *arg, void *result, struct isolate_channel *ch, struct error *e)
{
	(void)arg;
	(void)result;
	(void)ch;
	(void)e;
	raise(SIGSEGV);
	return 0;
}

static int slow(void *arg, void *result, struct isolate_channel *ch, struct error *e)
{
	(void)arg;
	(void)result;
	(void)ch;
	(void)e;
	sleep(30);
	return 0;
}

static int progress_calls;

static void count_progress(void *ctx, int done, int total)
{
	(void)ctx;
	ck_assert_int_le(done, total);
	progress_calls++;
}

START_TEST(results_and_errors_come_back)
{
	struct isolate_options o = { .progress = count_progress };
	struct error e = { "" };
	int in = 21, out = 0;

	ck_assert(isolate_enabled());
	ck_assert_int_eq(isolate_run(answer, &in, &out, sizeof out, &o, &e), 0);
	ck_assert_int_eq(out, 42);
	ck_assert_int_eq(progress_calls, 3);
	ck_assert_int_ne(isolate_run(refuse, &in, &out, sizeof out, NULL, &e), 0);
	ck_assert_str_eq(e.msg, "no, because 42");
}
END_TEST

START_TEST(a_crash_is_a_message)
{
	struct error e = { "" };
	int out;

	ck_assert_int_ne(isolate_run(crash, NULL, &out, sizeof out, NULL, &e), 0);
	/* signal 11, or 6 where AddressSanitizer catches the fault and aborts */
	ck_assert_msg(strstr(e.msg, "died (signal ") != NULL, "%s", e.msg);
	/* and the parent goes on */
	int in = 1;
	ck_assert_int_eq(isolate_run(answer, &in, &out, sizeof out, NULL, &e), 0);
	ck_assert_int_eq(out, 2);
}
END_TEST

static volatile int cancel_flag;

static void *cancel_soon(void *arg)
{
	(void)arg;
	usleep(200 * 1000);
	cancel_flag = 1;
	return NULL;
}

START_TEST(a_cancel_is_prompt)
{
	struct isolate_options o = { .cancel = &cancel_flag };
	struct error e = { "" };
	pthread_t t;
	double t0 = now_seconds();
	int out;

	pthread_create(&t, NULL, cancel_soon, NULL);
	ck_assert_int_ne(isolate_run(slow, NULL, &out, sizeof out, &o, &e), 0);
	pthread_join(t, NULL);
	ck_assert_str_eq(e.msg, "cancelled");
	ck_assert(now_seconds() - t0 < 5.0);
}
END_TEST

START_TEST(an_endless_loop_is_stopped_at_its_time_limit)
{
	struct isolate_options o = { .time_limit = 1.0 };
	struct error e = { "" };
	double t0 = now_seconds();
	int out;

	ck_assert_int_ne(isolate_run(slow, NULL, &out, sizeof out, &o, &e), 0);
	ck_assert_msg(strstr(e.msg, "time limit") != NULL, "%s", e.msg);
	ck_assert(now_seconds() - t0 < 5.0);
}
END_TEST

static int whose(void *arg, void *result, struct isolate_channel *ch, struct error *e)
{
	(void)ch;
	(void)e;
	*(long *)result = (long)getpid() * 1000 + *(int *)arg;
	return 0;
}

/* The worker runs piece after piece in one process, and after a failure starts afresh. */
START_TEST(the_worker_stays_until_a_failure)
{
	struct isolate_options limit = { .time_limit = 1.0 };
	struct error e = { "" };
	long first, out;
	int in = 7, unused;

	ck_assert_int_eq(isolate_run_in_worker(whose, &in, sizeof in, &first, sizeof first, NULL, &e), 0);
	ck_assert_int_eq(first % 1000, 7);
	ck_assert(first / 1000 != getpid());
	in = 8;
	ck_assert_int_eq(isolate_run_in_worker(whose, &in, sizeof in, &out, sizeof out, NULL, &e), 0);
	ck_assert_int_eq(out, first + 1);	/* the same process, the new argument */

	/* a failure comes back, and ends the worker: the next piece has a fresh one */
	ck_assert_int_ne(isolate_run_in_worker(refuse, &in, sizeof in, &unused, sizeof unused, NULL, &e), 0);
	ck_assert_str_eq(e.msg, "no, because 42");
	ck_assert_int_eq(isolate_run_in_worker(whose, &in, sizeof in, &out, sizeof out, NULL, &e), 0);
	ck_assert(out / 1000 != first / 1000);
	first = out;

	/* so do a crash and an endless loop */
	ck_assert_int_ne(isolate_run_in_worker(crash, &in, sizeof in, &unused, sizeof unused, NULL, &e), 0);
	ck_assert_msg(strstr(e.msg, "died (signal ") != NULL, "%s", e.msg);
	ck_assert_int_ne(isolate_run_in_worker(slow, &in, sizeof in, &unused, sizeof unused, &limit, &e), 0);
	ck_assert_msg(strstr(e.msg, "time limit") != NULL, "%s", e.msg);
	ck_assert_int_eq(isolate_run_in_worker(whose, &in, sizeof in, &out, sizeof out, NULL, &e), 0);
	ck_assert(out / 1000 != first / 1000);
	first = out;

	/* and its end */
	isolate_worker_end();
	ck_assert_int_eq(isolate_run_in_worker(whose, &in, sizeof in, &out, sizeof out, NULL, &e), 0);
	ck_assert(out / 1000 != first / 1000);
	isolate_worker_end();
	isolate_worker_end();	/* twice is harmless */
}
END_TEST

/* Parts of 0.4 s each, 1.6 s in all, saying before each which it is at; then the last part's number. */
static int parts(void *arg, void *result, struct isolate_channel *ch, struct error *e)
{
	(void)arg;
	(void)e;
	for (int i = 0; i < 4; i++) {
		isolate_progress(ch, i, 4);
		usleep(400000);
	}
	*(int *)result = 3;
	return 0;
}

static void note_part(void *ctx, int done, int total)
{
	(void)total;
	*(int *)ctx = done;
}

/* A limit for each part (each size of a check): a whole that takes longer is not stopped, a part is. */
START_TEST(a_limit_for_each_part)
{
	int at = -1, out = 0;
	struct isolate_options whole = { .time_limit = 1.0, .progress = note_part, .progress_ctx = &at };
	struct isolate_options each = { .time_limit = 1.0, .limit_each_part = true, .progress = note_part,
	    .progress_ctx = &at };
	struct error e = { "" };

	ck_assert_int_ne(isolate_run_in_worker(parts, NULL, 0, &out, sizeof out, &whole, &e), 0);
	ck_assert_msg(strstr(e.msg, "time limit") != NULL, "%s", e.msg);
	ck_assert_int_eq(at, 2);	/* stopped in the third part: the parent knows which */
	ck_assert_int_eq(isolate_run_in_worker(parts, NULL, 0, &out, sizeof out, &each, &e), 0);
	ck_assert_int_eq(out, 3);
	ck_assert_int_ne(isolate_run_in_worker(slow, NULL, 0, &out, sizeof out, &each, &e), 0);
	ck_assert_msg(strstr(e.msg, "time limit") != NULL, "%s", e.msg);
	isolate_worker_end();
}
END_TEST

/*
 * A part of its own limit (a check's small sizes): a part that outlasts
 * it is stopped there and the message names that limit; a part just
 * within it goes on, and parts past the list keep the whole's limit.
 */
START_TEST(a_part_with_a_shorter_limit)
{
	int at = -1, out = 0;
	const double short_third[] = { 0, 0, 0.3 }, roomy_third[] = { 0, 0, 0.9 };
	struct isolate_options o = { .time_limit = 1.0, .limit_each_part = true, .progress = note_part,
	    .progress_ctx = &at, .part_limits = short_third, .nparts = 3 };
	struct error e = { "" };

	ck_assert_int_ne(isolate_run_in_worker(parts, NULL, 0, &out, sizeof out, &o, &e), 0);
	ck_assert_msg(strstr(e.msg, "stopped after 0 s") != NULL, "%s", e.msg);
	ck_assert_int_eq(at, 2);
	o.part_limits = roomy_third;
	ck_assert_int_eq(isolate_run_in_worker(parts, NULL, 0, &out, sizeof out, &o, &e), 0);
	ck_assert_int_eq(out, 3);
	isolate_worker_end();
}
END_TEST

/* Warmed, the worker is there before the first piece, which runs in it (check --watch's save). */
START_TEST(a_warmed_worker_takes_the_next_piece)
{
	struct error e = { "" };
	long first, out;
	int in = 1;

	ck_assert_int_eq(isolate_worker_warm(&e), 0);
	ck_assert_int_eq(isolate_run_in_worker(whose, &in, sizeof in, &first, sizeof first, NULL, &e), 0);
	ck_assert_int_eq(isolate_worker_warm(&e), 0);	/* one runs: nothing to do */
	ck_assert_int_eq(isolate_run_in_worker(whose, &in, sizeof in, &out, sizeof out, NULL, &e), 0);
	ck_assert_int_eq(out, first);
	isolate_worker_end();
}
END_TEST

/*
 * On a GPU: a kernel that faults ends its process only; the next step
 * runs right (test_isolate_gpu, which skips without a GPU).
 */
static int launch_fault(void *arg, void *result, struct isolate_channel *ch, struct error *e)
{
	void *kernel, *buf;

	(void)result;
	(void)ch;
	if (gpu_kernel("faults", arg, &kernel, e) != 0 || gpu_malloc(&buf, 4096, e) != 0)
		return -1;
	void *args[] = { &buf };
	if (gpu_launch(kernel, 1, 32, 0, args, e) != 0 || gpu_synchronize(e) != 0)
		return -1;
	error_set(e, "the fault kernel did not fault");
	return -1;
}

START_TEST(a_kernel_fault_is_survived)
{
	static const char *const faults[] = { "fault_out_of_bounds", "fault_trap" };
	const struct kernel_def *k = registry_find("reduce_unroll8");
	struct step_params p = { .size = (1 << 20) + 3, .block = 256 };
	struct measure_options quick;
	struct error e = { "" };

	ck_assert_msg(gpu_init(&e) == 0, "%s", e.msg);
	measure_default_options(&quick);
	quick.warmup = 1;
	quick.min_reps = quick.max_reps = 3;
	for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++) {
		struct measurement m;
		int out;

		ck_assert_int_ne(isolate_run(launch_fault, (void *)faults[i], &out, sizeof out, NULL, &e), 0);
		ck_assert_msg(strstr(e.msg, "the kernel failed (cudaError") != NULL, "%s: %s", faults[i], e.msg);
		printf("%s: %s\n", faults[i], e.msg);
		ck_assert_msg(session_measure(k, &p, &quick, &m, &e) == 0, "after %s: %s", faults[i], e.msg);
		ck_assert_msg(m.check.correct, "after %s: %s", faults[i], m.check.detail);
		printf("  then reduce_unroll8: %s, %.4f ms\n", m.check.detail, m.ms.median);
	}
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("isolate");
	TCase *tc = tcase_create("isolate");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, results_and_errors_come_back);
	tcase_add_test(tc, a_crash_is_a_message);
	tcase_add_test(tc, a_cancel_is_prompt);
	tcase_add_test(tc, an_endless_loop_is_stopped_at_its_time_limit);
	tcase_add_test(tc, the_worker_stays_until_a_failure);
	tcase_add_test(tc, a_limit_for_each_part);
	tcase_add_test(tc, a_part_with_a_shorter_limit);
	tcase_add_test(tc, a_warmed_worker_takes_the_next_piece);
	suite_add_tcase(s, tc);
	return s;
}

/* What needs a GPU. */
static Suite *make_gpu_suite(void)
{
	Suite *s = suite_create("isolate on a GPU");
	TCase *tc = tcase_create("gpu");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, a_kernel_fault_is_survived);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Built twice (Makefile.am): test_isolate, and test_isolate_gpu
 * (CHECK_PART 1), which skips without a GPU.  Isolated as the tutor is,
 * gpu_init probes the GPU in a child: this process never holds a CUDA
 * context, and each test may fork.
 */
int main(void)
{
	struct error e = { "" };

	isolate_enable();
	if (CHECK_PART == 1)
		return check_main_part(make_gpu_suite, gpu_init(&e) == 0 ? NULL : e.msg);
	return check_main_part(make_suite, NULL);
}

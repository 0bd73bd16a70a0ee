/* A handed-in kernel: its names at the edges, its hash, its file read back, and a board's ranking. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_main.h"
#include "class.h"
#include "gpu_lock.h"
#include "submission.h"
#include "util.h"

START_TEST(names_at_their_edges)
{
	char name[80];
	struct error e;

	memset(name, 'a', 64);
	name[64] = '\0';
	ck_assert_int_eq(submission_name_check(name, &e), 0);	/* 64 bytes: just inside */
	name[64] = 'a';
	name[65] = '\0';
	ck_assert_int_eq(submission_name_check(name, &e), -1);	/* 65: just outside */
	ck_assert_ptr_nonnull(strstr(e.msg, "65 bytes"));
	/* 21 Chinese characters are 63 bytes; a 22nd makes 66 */
	name[0] = '\0';
	for (int i = 0; i < 21; i++)
		strcat(name, "\xe6\x9d\x8e");
	ck_assert_int_eq(submission_name_check(name, &e), 0);
	strcat(name, "\xe6\x9d\x8e");
	ck_assert_int_eq(submission_name_check(name, &e), -1);
	ck_assert_int_eq(submission_name_check("", &e), -1);
	ck_assert_int_eq(submission_name_check("Li Wei", &e), 0);
	ck_assert_int_eq(submission_name_check("O'Brien-Smith", &e), 0);
	ck_assert_int_eq(submission_name_check("a/b", &e), -1);
	ck_assert_int_eq(submission_name_check("a\\b", &e), -1);
	ck_assert_int_eq(submission_name_check("tab\there", &e), -1);
	ck_assert_int_eq(submission_name_check("del\x7f", &e), -1);
	ck_assert_int_eq(submission_name_check("esc\x1b[2J", &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "0x1b"));
	/* U+0085 (NEXT LINE) is a C1 control: an escape to some terminals */
	ck_assert_int_eq(submission_name_check("c1\xc2\x85", &e), -1);
	/* bad UTF-8: a lone continuation, an overlong '/', a surrogate, a cut sequence */
	ck_assert_int_eq(submission_name_check("x\x80y", &e), -1);
	ck_assert_int_eq(submission_name_check("x\xc0\xafy", &e), -1);
	ck_assert_int_eq(submission_name_check("x\xed\xa0\x80y", &e), -1);
	ck_assert_int_eq(submission_name_check("x\xe6\x9d", &e), -1);
	ck_assert_int_eq(submission_name_check("\xf0\x9f\x98\x80", &e), 0);	/* an emoji is a name */
}
END_TEST

START_TEST(sha256_is_the_standard_one)
{
	char hex[65];

	/* FIPS 180-2's test vectors */
	submission_sha256("abc", 3, hex);
	ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	submission_sha256("", 0, hex);
	ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}
END_TEST

static char dir[] = "/tmp/cudatutor-submission-XXXXXX";

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);

	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
	strcpy(dir, "/tmp/cudatutor-submission-XXXXXX");
}

/* A submission of the float4 exercise with this source, written to dir/name: its path. */
static char *write_one(const char *name, const char *source, const char *who)
{
	struct submission s = { 0 };
	char *path = xasprintf("%s/%s", dir, name), *text;
	struct error e;

	snprintf(s.exercise, sizeof s.exercise, "float4");
	ck_assert_int_eq(submission_exercise_version("float4", s.exercise_version, &e), 0);
	snprintf(s.name, sizeof s.name, "%s", who);
	snprintf(s.submitted, sizeof s.submitted, "2026-11-29T10:00:00Z");
	snprintf(s.tutor, sizeof s.tutor, "cudatutor test");
	s.source = (char *)source;
	s.len = strlen(source);
	submission_sha256(source, s.len, s.sha256);
	text = submission_to_text(&s);
	ck_assert_int_eq(file_write_atomic(path, text, strlen(text), &e), 0);
	free(text);
	return path;
}

START_TEST(a_file_read_back_is_the_one_written)
{
	char *path = write_one("a.json", "__global__ void k() {}\n", "Li Wei");
	struct submission s;
	struct error e;

	ck_assert_int_eq(submission_read(path, &s, &e), 0);
	ck_assert_str_eq(s.name, "Li Wei");
	ck_assert_str_eq(s.exercise, "float4");
	ck_assert_str_eq(s.source, "__global__ void k() {}\n");
	ck_assert_uint_eq(s.len, strlen("__global__ void k() {}\n"));
	ck_assert_int_eq(s.student_passed, 0);
	submission_free(&s);
	free(path);
}
END_TEST

/* Read path after text replaced its first `from` by `to`: the message, which must name what is wrong. */
static void damaged(const char *from, const char *to, const char *says)
{
	char *path = write_one("d.json", "__global__ void k() {}\n", "Bob"), *text, *at, *changed;
	size_t len;
	struct submission s;
	struct error e;

	text = file_read(path, &len);
	at = strstr(text, from);
	ck_assert_ptr_nonnull(at);
	changed = xasprintf("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	ck_assert_int_eq(file_write_atomic(path, changed, strlen(changed), &e), 0);
	ck_assert_int_eq(submission_read(path, &s, &e), -1);
	ck_assert_msg(strstr(e.msg, says) != NULL, "'%s' lacks '%s'", e.msg, says);
	free(changed);
	free(text);
	free(path);
}

START_TEST(each_damage_is_named)
{
	damaged("void k()", "void j()", "the SHA-256 differs");
	damaged("\"version\": 1", "\"version\": 2", "format version 2, not 1");
	damaged("\"exercise\": \"float4\"", "\"exercise\": \"nosuch\"", "'nosuch', which this cudatutor does not have");
	damaged("\"name\": \"Bob\"", "\"name\": \"../Bob\"", "a name is not a path");
	damaged("\"name\": \"Bob\"", "\"name\": \"B\\u001bb\"", "control byte (0x1b)");
	/* jansson refuses a NUL in a string: the file is read as damaged */
	damaged("\"name\": \"Bob\"", "\"name\": \"B\\u0000b\"", "is not allowed");
	damaged("\"format\": \"cudatutor-submission\"", "\"format\": \"x\"", "not a cudatutor submission");
	damaged("\"sha256\"", "\"sha\"", "no \"sha256\"");
	damaged("\"sha256\": \"", "\"sha256\": ", "damaged or cut short");
	damaged("\"source\": \"", "\"source\": \"\\u0000", "is not allowed");
}
END_TEST

START_TEST(not_a_regular_file)
{
	struct submission s;
	struct error e;

	ck_assert_int_eq(submission_read("/dev/zero", &s, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "not a regular file"));
	ck_assert_int_eq(submission_read(dir, &s, &e), -1);
}
END_TEST

/* A judged entry of exercise ex on gpu, ms 0 when it failed. */
static struct class_entry judged(const char *file, const char *ex, const char *gpu, double ms, bool graded)
{
	struct class_entry x;

	memset(&x, 0, sizeof x);
	x.file = (char *)file;
	x.state = CLASS_JUDGED;
	snprintf(x.sub.exercise, sizeof x.sub.exercise, "%s", ex);
	snprintf(x.sub.name, sizeof x.sub.name, "%s", file);
	snprintf(x.v.gpu, sizeof x.v.gpu, "%s", gpu);
	x.v.graded = graded;
	x.v.passed = ms > 0;
	x.v.ms = ms;
	return x;
}

START_TEST(ranks_per_exercise_and_gpu)
{
	struct class_entry e[7];
	struct class_board b = { .entries = e, .n = 7 };
	int order[7];

	e[0] = judged("slow", "float4", "H200", 0.020, true);
	e[1] = judged("fast", "float4", "H200", 0.010, true);
	e[2] = judged("failed", "float4", "H200", 0, true);
	e[3] = judged("h100", "float4", "H100", 0.030, true);
	e[4] = judged("char8", "char8", "H200", 0.050, true);
	e[5] = judged("nogpu", "float4", "", 0, false);
	e[6] = judged("bad", "", "", 0, false);
	e[6].state = CLASS_BAD;
	class_rank(&b);
	ck_assert_int_eq(e[1].rank, 1);
	ck_assert_int_eq(e[0].rank, 2);
	ck_assert_int_eq(e[2].rank, 0);
	ck_assert_int_eq(e[3].rank, 1);	/* another GPU model: a ranking of its own */
	ck_assert_int_eq(e[4].rank, 1);	/* another exercise too */
	ck_assert_int_eq(e[5].rank, 0);	/* not graded: never ranked */
	ck_assert_int_eq(e[6].rank, 0);
	class_order(&b, order);
	/* char8's board first; then float4: ranked by GPU and rank, failed, not graded; the bad file last */
	ck_assert_str_eq(e[order[0]].file, "char8");
	ck_assert_str_eq(e[order[1]].file, "h100");
	ck_assert_str_eq(e[order[2]].file, "fast");
	ck_assert_str_eq(e[order[3]].file, "slow");
	ck_assert_str_eq(e[order[4]].file, "failed");
	ck_assert_str_eq(e[order[5]].file, "nogpu");
	ck_assert_str_eq(e[order[6]].file, "bad");
}
END_TEST

/*
 * The board at its edges: equal times rank the one handed in first
 * (the board's earlier entry) higher; a pass with no time (no GPU) is
 * not ranked; a failure comes before a kernel not graded, whatever
 * their names; then those being judged, those waiting, older copies,
 * and bad files last, whatever theirs.
 */
START_TEST(board_at_its_edges)
{
	struct class_entry e[9];
	struct class_board b = { .entries = e, .n = 9 };
	const char *want[] = { "ann", "bea", "cid", "eve", "dan", "gus", "fay", "hal", "abe" };
	int order[9];

	e[0] = judged("ann", "float4", "H200", 0.010, true);
	e[1] = judged("bea", "float4", "H200", 0.010, true);
	e[2] = judged("cid", "float4", "H200", 0.012, true);
	e[3] = judged("dan", "float4", "", 0, false);
	e[4] = judged("eve", "float4", "H200", 0, true);
	e[5] = judged("fay", "float4", "", 0, false);
	e[5].state = CLASS_WAITING;
	e[6] = judged("gus", "float4", "", 0, false);
	e[6].state = CLASS_JUDGING;
	e[7] = judged("hal", "float4", "", 0, false);
	e[7].state = CLASS_OLDER;
	e[8] = judged("abe", "float4", "", 0, false);
	e[8].state = CLASS_BAD;
	class_rank(&b);
	ck_assert_int_eq(e[0].rank, 1);
	ck_assert_int_eq(e[1].rank, 2);
	ck_assert_int_eq(e[2].rank, 3);
	/* a pass that was not timed (no GPU): never ranked */
	e[2].v.ms = 0;
	e[2].v.passed = true;
	class_rank(&b);
	ck_assert_int_eq(e[2].rank, 0);
	e[2].v.ms = 0.012;
	class_rank(&b);
	class_order(&b, order);
	for (int i = 0; i < 9; i++)
		ck_assert_str_eq(e[order[i]].file, want[i]);
}
END_TEST

/* Which GPUs a class judges on: CUDA_VISIBLE_DEVICES as the teacher set it. */
START_TEST(the_gpus_a_class_judges_on)
{
	int index[CLASS_MAX_GPUS];

	ck_assert_int_eq(class_visible_devices(NULL, index, CLASS_MAX_GPUS), -1);	/* not set: all of them */
	ck_assert_int_eq(class_visible_devices("0,2", index, CLASS_MAX_GPUS), 2);
	ck_assert(index[0] == 0 && index[1] == 2);
	ck_assert_int_eq(class_visible_devices("3", index, CLASS_MAX_GPUS), 1);
	ck_assert_int_eq(index[0], 3);
	ck_assert_int_eq(class_visible_devices("", index, CLASS_MAX_GPUS), 0);	/* none visible */
	/* GPUs named otherwise: CUDA's own numbering, one check at a time */
	ck_assert_int_eq(class_visible_devices("GPU-8e1a5c0b-77f4-2b6e-1d52-3b1e0e5c9a10", index, CLASS_MAX_GPUS), -1);
	ck_assert_int_eq(class_visible_devices("MIG-GPU-8e1a/1/0", index, CLASS_MAX_GPUS), -1);
	ck_assert_int_eq(class_visible_devices("0,x", index, CLASS_MAX_GPUS), -1);
	ck_assert_int_eq(class_visible_devices("1 ", index, CLASS_MAX_GPUS), -1);
	/* more than it judges on at once: the first CLASS_MAX_GPUS */
	ck_assert_int_eq(class_visible_devices("0,1,2,3,4,5,6,7,8,9", index, CLASS_MAX_GPUS), CLASS_MAX_GPUS);
	ck_assert_int_eq(index[CLASS_MAX_GPUS - 1], CLASS_MAX_GPUS - 1);
}
END_TEST

/*
 * The GPU's lock, as class's checks take it, each in a process of its
 * own: what a process did and when goes down a pipe as one line each.
 */
static int events[2];
static double t0;

static void event(const char *who, const char *what)
{
	char line[64];
	int n = snprintf(line, sizeof line, "%s %s %.3f\n", who, what, now_seconds() - t0);

	(void)!write(events[1], line, (size_t)n);
}

/* In a child: wait until `at` seconds, take the lock (exclusive or not), hold it `hold` seconds. */
static pid_t locker(const char *path, const char *who, double at, bool exclusive, double hold)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	setenv("CUDATUTOR_GPU_LOCK", path, 1);
	if (gpu_lock_init(NULL) != 0 || getenv("CUDATUTOR_GPU_LOCK") != NULL)
		_exit(3);	/* the tools it starts must not see it */
	while (now_seconds() - t0 < at)
		usleep(5000);
	event(who, "asks");
	if (exclusive)
		gpu_lock_exclusive();
	else
		gpu_lock_shared();
	event(who, "has");
	usleep((useconds_t)(hold * 1e6));
	event(who, "lets go");
	gpu_lock_release();
	_exit(0);
}

/* When `who` did `what`, from the lines read back. */
static double when(const char *log, const char *who, const char *what)
{
	char key[64];
	const char *at;

	snprintf(key, sizeof key, "%s %s ", who, what);
	at = strstr(log, key);
	ck_assert_msg(at != NULL, "%s never %s:\n%s", who, what, log);
	return strtod(at + strlen(key), NULL);
}

static void run_lockers(char *log, size_t len)
{
	size_t got = 0;
	ssize_t n;
	int status;

	close(events[1]);
	while (got < len - 1 && (n = read(events[0], log + got, len - 1 - got)) > 0)
		got += (size_t)n;
	log[got] = '\0';
	close(events[0]);
	while (wait(&status) > 0)
		ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* A lock's path made afresh (path: a mkstemp template), the events' pipe, and the clock started. */
static void lock_begin(char *path)
{
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(pipe(events), 0);
	t0 = now_seconds();
}

/* The lock's files gone: the path and the two gpu_lock made beside it. */
static void lock_end(const char *path)
{
	char *rw = xasprintf("%s.rw", path), *turn = xasprintf("%s.turn", path);

	unlink(path), unlink(rw), unlink(turn);
	free(rw), free(turn);
}

START_TEST(one_times_alone_and_is_not_starved)
{
	char path[] = "/tmp/cudatutor-lock.XXXXXX", log[4096];

	lock_begin(path);
	/* A runs kernels; B comes to time while A does; C comes to run kernels while B waits */
	locker(path, "A", 0.0, false, 0.6);
	locker(path, "B", 0.2, true, 0.3);
	locker(path, "C", 0.4, false, 0.1);
	run_lockers(log, sizeof log);
	/* B has the GPU alone: after A lets go, and before C has it */
	ck_assert_msg(when(log, "B", "has") >= when(log, "A", "lets go"), "%s", log);
	/* C, who came while B waited, queues behind it (the turnstile): else a stream of checks starves B */
	ck_assert_msg(when(log, "C", "has") >= when(log, "B", "lets go"), "%s", log);
	lock_end(path);
}
END_TEST

START_TEST(shared_holders_run_together)
{
	char path[] = "/tmp/cudatutor-lock.XXXXXX", log[4096];

	lock_begin(path);
	locker(path, "A", 0.0, false, 0.5);
	locker(path, "B", 0.1, false, 0.1);
	run_lockers(log, sizeof log);
	/* kernels beside kernels: B does not wait for A */
	ck_assert_msg(when(log, "B", "has") < when(log, "A", "lets go"), "%s", log);
	lock_end(path);
}
END_TEST

/* A check started any other way is given no lock: it never waits. */
START_TEST(no_lock_given_is_no_wait)
{
	unsetenv("CUDATUTOR_GPU_LOCK");
	ck_assert_int_eq(gpu_lock_init(NULL), 0);
	ck_assert(!gpu_lock_given());
	gpu_lock_exclusive();
	gpu_lock_shared();
	gpu_lock_release();
	/* a lock whose files cannot be made: one message, naming it */
	{
		struct error e;

		setenv("CUDATUTOR_GPU_LOCK", "/nonexistent-folder/gpu-0", 1);
		ck_assert_int_eq(gpu_lock_init(&e), -1);
		ck_assert_ptr_nonnull(strstr(e.msg, "/nonexistent-folder/gpu-0.rw"));
		ck_assert(!gpu_lock_given());
	}
}
END_TEST

static Suite *submission_suite(void)
{
	Suite *s = suite_create("submission");
	TCase *names = tcase_create("names and hashes"), *files = tcase_create("files"),
	    *board = tcase_create("board"), *lock = tcase_create("the GPU's lock");

	tcase_add_test(names, names_at_their_edges);
	tcase_add_test(names, sha256_is_the_standard_one);
	tcase_add_checked_fixture(files, setup, teardown);
	tcase_add_test(files, a_file_read_back_is_the_one_written);
	tcase_add_test(files, each_damage_is_named);
	tcase_add_test(files, not_a_regular_file);
	tcase_add_test(board, ranks_per_exercise_and_gpu);
	tcase_add_test(board, board_at_its_edges);
	tcase_add_test(board, the_gpus_a_class_judges_on);
	tcase_add_test(lock, no_lock_given_is_no_wait);
	tcase_add_test(lock, shared_holders_run_together);
	tcase_add_test(lock, one_times_alone_and_is_not_starved);
	tcase_set_timeout(lock, 20);
	suite_add_tcase(s, names);
	suite_add_tcase(s, files);
	suite_add_tcase(s, board);
	suite_add_tcase(s, lock);
	return s;
}

CHECK_MAIN(submission_suite)

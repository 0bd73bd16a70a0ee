/*
 * GPU test: the tensor-core lesson at sides 256 (checked against the CPU
 * in full) and 1000 (padded to 1024; checked against cuBLAS BF16, cuBLAS
 * against the CPU's samples): every step runs and is correct, but for the
 * sm_90a steps on a GPU that is not Hopper, which must refuse in one line;
 * the persistent steps at larger sides too, where each block takes
 * several tiles; and the tensor exercises' starting files run right at
 * every size.
 * Skips (77) without a GPU.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "exercise_table.h"
#include "experiments/experiments.h"
#include "gpu.h"
#include "lesson.h"
#include "measure.h"
#include "paths.h"
#include "registry.h"
#include "session.h"

/*
 * Every step of the tensor lesson (with persistent_only, those whose
 * blocks loop over tiles) at each side, quickly timed: it runs and is
 * right, or, on a GPU it is not built for, refuses in one line.  Returns
 * how many ran.
 */
static int check_steps(const unsigned long long *sides, size_t nsides, bool persistent_only)
{
	const struct gpu_info *g = gpu_info();
	struct measure_options quick;
	struct lesson_set set;
	const struct lesson *l;
	struct error e;
	int ran = 0;

	measure_default_options(&quick);
	quick.warmup = 1;
	quick.min_reps = quick.max_reps = 2;
	ck_assert_msg(lesson_load_all("en", &set, &e) == 0, "%s", e.msg);
	l = lesson_find(&set, "tensor-cores");
	ck_assert_ptr_nonnull(l);
	for (size_t s = 0; s < nsides; s++)
		for (int i = 0; i < l->nsteps; i++) {
			const struct kernel_def *k = l->steps[i].kernel;
			const struct tensor_launch *t = tensor_launch_find(k->name);
			struct step_params p = { .size = sides[s], .block = session_default_block(l) };
			struct measurement m;
			char why[256];
			int rc;

			if (persistent_only && (t == NULL || !t->persistent))
				continue;
			e.msg[0] = '\0';
			rc = measure_step(k, &p, &quick, &m, &e);
			if (registry_check_gpu(k, g->cc_major, g->cc_minor, why, sizeof why) != NULL) {
				ck_assert_msg(rc != 0 && strstr(e.msg, "compute capability") != NULL,
				    "%s ran on compute capability %d.%d: %s", k->name, g->cc_major, g->cc_minor, e.msg);
				printf("not on this GPU: %s\n", e.msg);
				continue;
			}
			if (rc != 0 && registry_is_library(k) && strncmp(e.msg, "cuBLAS not found", 16) == 0) {
				printf("SKIP %s: %s\n", k->name, e.msg);
				continue;
			}
			ck_assert_msg(rc == 0, "%s at %llu did not run: %s", k->name, p.size, e.msg);
			ck_assert_msg(m.check.correct, "%s at %llu: %s", k->name, p.size, m.check.detail);
			printf("%s at %llu: %.4f ms, %s\n", k->name, p.size, m.ms.median, m.check.detail);
			ran++;
		}
	lesson_set_free(&set);
	return ran;
}

START_TEST(every_step_is_correct)
{
	static const unsigned long long sides[] = { 256, 1000 };

	check_steps(sides, sizeof sides / sizeof sides[0], false);
}
END_TEST

/*
 * The persistent steps (18 to 21) at sides where their tiles outnumber the
 * blocks that run at once, so that each block takes several and step
 * 21's last wave is cut into pieces: 128 columns wide at 2304, 192 at
 * 6144, 232 at 4096 and 160 at 8192 on an H100 or H200 (132 SMs), each
 * piece's edge and the matrix's right edge included.  Checked against
 * cuBLAS on the GPU.  Hopper alone.
 */
START_TEST(persistent_steps_past_one_wave)
{
	static const unsigned long long sides[] = { 2304, 4096, 6144, 8192 };
	const struct gpu_info *g = gpu_info();

	if (g->cc_major != 9) {
		printf("SKIP: the persistent steps are built for Hopper; this GPU is %d.%d\n", g->cc_major, g->cc_minor);
		return;
	}
	ck_assert_int_eq(check_steps(sides, sizeof sides / sizeof sides[0], true), 4 * (int)(sizeof sides / sizeof sides[0]));
}
END_TEST

/*
 * The exercises' starting files run, and are right, at every size their
 * check asks for: they fail only the technique they lack.  (The cp-async
 * starting file keeps 16 KB of static tiles and is launched with the
 * target's 48 KB of dynamic stages: it failed every launch until the
 * launch asked for the memory.)  The sm_90a ones run on Hopper alone.
 */
START_TEST(starting_files_run)
{
	const struct gpu_info *g = gpu_info();
	struct measure_options quick;
	int tried = 0;

	measure_default_options(&quick);
	/* every exercise of the lesson, as the table lists them */
	for (int i = 0; i < exercise_def_count; i++) {
		const struct exercise_def *def = &exercise_defs[i];
		char rel[64], *file, why[256];
		struct exercise_report r;
		struct error e;

		if (strcmp(def->lesson, "tensor-cores") != 0)
			continue;
		tried++;
		/* the GPU rule of the step it writes (sm_90a: a GPU of compute capability 9.0) */
		if (registry_check_gpu(registry_find(def->target), g->cc_major, g->cc_minor, why, sizeof why) != NULL) {
			printf("not on this GPU: %s (%s)\n", def->id, why);
			continue;
		}
		snprintf(rel, sizeof rel, "kernels/exercises/%s.cu", def->id);
		file = paths_source(rel);
		ck_assert_msg(session_exercise_check(NULL, def->id, file, false, 0, 0, &quick, NULL, NULL, &r, &e) == 0,
		    "%s: %s", def->id, e.msg);
		ck_assert_msg(r.gpu, "%s did not run: %s", def->id, r.no_gpu);
		for (int z = 0; z < r.run.nsizes; z++)
			ck_assert_msg(r.run.sizes[z].ran && r.run.sizes[z].correct, "%s at size %llu: %s %s", def->id,
			    r.run.sizes[z].size, r.run.sizes[z].error, r.run.sizes[z].detail);
		ck_assert(r.run.correct);
		printf("%s's starting file: right at %d sizes\n", def->id, r.run.nsizes);
		session_exercise_report_free(&r);
		free(file);
	}
	ck_assert_int_ge(tried, 4);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("tensor_gpu");
	TCase *tc = tcase_create("tensor_gpu");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, every_step_is_correct);
	tcase_add_test(tc, persistent_steps_past_one_wave);
	tcase_add_test(tc, starting_files_run);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN_GPU(make_suite)

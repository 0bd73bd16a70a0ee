/* The one-line diagnosis: each rule on a step made to match it, their order, and every recorded step. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "diagnosis.h"
#include "paths.h"
#include "registry.h"
#include "results.h"

/* A step that ran and was right, with no roof and no counters. */
static void blank(struct step_result *s)
{
	memset(s, 0, sizeof *s);
	s->step = 1;
	s->ran = s->correct = true;
	s->median_ms = 1;
	s->registers = 32;
}

/* Placed against a roof: lim at pct percent of it. */
static void roof(struct step_result *s, enum roof_limiter lim, double pct)
{
	s->roof.have = true;
	s->roof.limiter = lim;
	s->roof.roof = lim == ROOF_DRAM ? 3000 : 60000;
	s->roof.pct_of_roof = pct;
	s->roof.roof_exceeded = pct > ROOFS_EXCEEDED_PCT;
	s->roof.gflops = lim == ROOF_FP32 ? 600 * pct : 10;
}

static void set(struct step_result *s, const char *ncu, double v)
{
	int i = metrics_find(ncu);

	ck_assert_msg(i >= 0, "%s", ncu);
	s->metrics.collected = true;
	s->metrics.have[i] = true;
	s->metrics.value[i] = v;
}

static void stall(struct step_result *s, const char *reason, double v)
{
	char name[128];

	snprintf(name, sizeof name, "smsp__warp_issue_stalled_%s_per_warp_active.pct", reason);
	set(s, name, v);
}

/*
 * Counters of a healthy kernel: coalesced 4-byte loads, no divergence, no
 * shared memory, full occupancy, stalls spread thin.  Each test then
 * changes what its rule looks at.
 */
static void healthy(struct step_result *s)
{
	set(s, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", 100);
	set(s, "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", 4);
	set(s, "smsp__sass_inst_executed_op_shared_ld.sum", 0);
	set(s, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 0);
	set(s, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 0);
	set(s, "sm__warps_active.avg.pct_of_peak_sustained_active", 90);
	set(s, "smsp__thread_inst_executed_per_inst_executed.ratio", 32);
	set(s, "smsp__sass_average_branch_targets_threads_uniform.pct", 100);
	set(s, "dram__throughput.avg.pct_of_peak_sustained_elapsed", 50);
	stall(s, "long_scoreboard", 10);
	stall(s, "barrier", 5);
	stall(s, "math_pipe_throttle", 5);
	stall(s, "not_selected", 5);
	stall(s, "lg_throttle", 5);
	stall(s, "short_scoreboard", 12);
}

/* Little's law on a multiprocessor: kb of loads in flight, at `times` what the law asks. */
static void in_flight(struct step_result *s, double kb, double times)
{
	s->in_flight_per_sm = kb * 1024;
	s->in_flight_need = kb * 1024 / times;
}

static const char *rule_of(const struct step_result *s)
{
	struct diagnosis d;

	return diagnose(s, &d) ? d.rule->id : "(none)";
}

#define ck_rule(s, id) ck_assert_str_eq(rule_of(s), id)

static void shared_loads(struct step_result *s, double loads, double conflicts)
{
	set(s, "smsp__sass_inst_executed_op_shared_ld.sum", loads);
	set(s, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", conflicts);
	set(s, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", loads + conflicts);
}

START_TEST(each_rule_fires_on_its_own_case)
{
	struct step_result s;

	/* the roof alone */
	blank(&s); roof(&s, ROOF_DRAM, 110); ck_rule(&s, "roof_exceeded");
	blank(&s); roof(&s, ROOF_DRAM, 92); ck_rule(&s, "dram_roof");
	blank(&s); roof(&s, ROOF_FP32, 90); ck_rule(&s, "fp32_roof");
	blank(&s); roof(&s, ROOF_TENSOR, 88); ck_rule(&s, "tensor_roof");
	blank(&s); roof(&s, ROOF_TENSOR, 80); s.library = true; ck_rule(&s, "library");
	blank(&s); roof(&s, ROOF_TENSOR, 40); ck_rule(&s, "tensor_below");
	/* a tensor step's idle producer warps are no divergence, nor its copies uncoalesced loads */
	healthy(&s);
	set(&s, "smsp__thread_inst_executed_per_inst_executed.ratio", 28.1);
	set(&s, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", 0);
	set(&s, "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", 16);
	ck_rule(&s, "tensor_below");
	healthy(&s); ck_rule(&s, "tensor_below");
	/* what feeds the tensor cores, from their counters: operands from global memory, */
	stall(&s, "long_scoreboard", 98); ck_rule(&s, "tensor_global");
	/* copies that are not ahead of the math, */
	stall(&s, "long_scoreboard", 45); ck_rule(&s, "tensor_copies_behind");
	/* fragments through shared memory and registers, */
	stall(&s, "long_scoreboard", 6); stall(&s, "mio_throttle", 21); stall(&s, "short_scoreboard", 14);
	ck_rule(&s, "tensor_fragments");
	/* a barrier stall that may be the wgmma's wait */
	stall(&s, "mio_throttle", 0); stall(&s, "short_scoreboard", 2); stall(&s, "barrier", 51);
	ck_rule(&s, "tensor_barrier");
	/* ... said so only where no samples tell which line it is: with them, no guess */
	s.metrics.stalls.have = true;
	s.metrics.stalls.samples = 1000;
	ck_rule(&s, "tensor_below");
	s.metrics.stalls.have = false;
	blank(&s); roof(&s, ROOF_FP32, 70); s.library = true; ck_rule(&s, "library");
	blank(&s); roof(&s, ROOF_DRAM, 40); ck_rule(&s, "roof_only_dram");
	blank(&s); roof(&s, ROOF_FP32, 40); ck_rule(&s, "roof_only_fp32");
	/* with counters; the neighbour below each (a healthy step) does not match */
	blank(&s); healthy(&s); shared_loads(&s, 1000, 31000); ck_rule(&s, "bank_conflicts");
	blank(&s); roof(&s, ROOF_SHARED, 80); s.unit = UNIT_SHARED_GBPS; healthy(&s); shared_loads(&s, 1000, 10);
	ck_rule(&s, "shared_clean");
	/* without counters, the shared-memory roof alone */
	blank(&s); roof(&s, ROOF_SHARED, 80); s.unit = UNIT_SHARED_GBPS; ck_rule(&s, "roof_only_shared");
	/* the reduction's first step: 10 warp instructions an add, most threads working */
	blank(&s); roof(&s, ROOF_DRAM, 8); healthy(&s);
	s.gflops = 63.6;
	s.median_ms = 0.2638;
	set(&s, "smsp__inst_executed.sum", 10.0 * 63.6 * 0.2638 * 1e6);
	set(&s, "smsp__thread_inst_executed_per_inst_executed.ratio", 28.4);
	ck_rule(&s, "many_instructions");
	/* as many instructions with most threads idle: divergence is the cost */
	set(&s, "smsp__thread_inst_executed_per_inst_executed.ratio", 12);
	ck_rule(&s, "divergence");
	/* a few instructions an add, fewer threads working: divergence too */
	set(&s, "smsp__inst_executed.sum", 2.0 * 63.6 * 0.2638 * 1e6);
	set(&s, "smsp__thread_inst_executed_per_inst_executed.ratio", 28.4);
	ck_rule(&s, "divergence");
	blank(&s); roof(&s, ROOF_DRAM, 1); healthy(&s);
	stall(&s, "long_scoreboard", 96);
	set(&s, "dram__throughput.avg.pct_of_peak_sustained_elapsed", 0.9);
	ck_rule(&s, "dependent_loads");
	blank(&s); roof(&s, ROOF_DRAM, 16); healthy(&s);
	set(&s, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", 25);
	set(&s, "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", 14);
	ck_rule(&s, "strided");
	/* no LDG ran (cp.async's LDGSTS is none): its 0% says nothing of coalescing */
	set(&s, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", 0);
	ck_rule(&s, "dram_below");
	blank(&s); roof(&s, ROOF_DRAM, 84); healthy(&s);
	set(&s, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", 50);
	set(&s, "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", 32);
	ck_rule(&s, "wide_loads");
	/* held to the issue roof (results_derive does it for such counters) */
	blank(&s); roof(&s, ROOF_ISSUE, 76); healthy(&s);
	stall(&s, "not_selected", 43);
	stall(&s, "math_pipe_throttle", 31);
	stall(&s, "long_scoreboard", 0.1);
	ck_rule(&s, "instruction_bound");
	/* an FP32 step held to the shared-memory roof: its shared loads per FFMA */
	blank(&s); roof(&s, ROOF_SHARED, 76); healthy(&s); shared_loads(&s, 1e8, 0);
	s.gflops = 8500;
	ck_rule(&s, "shared_bound");
	blank(&s); roof(&s, ROOF_DRAM, 20); healthy(&s);
	stall(&s, "barrier", 44);
	ck_rule(&s, "barriers");
	blank(&s); roof(&s, ROOF_DRAM, 49); healthy(&s);
	stall(&s, "long_scoreboard", 90);
	in_flight(&s, 4, 0.5);
	ck_rule(&s, "narrow_loads");
	/* as many waits with eight times the bytes in flight: not the loads */
	in_flight(&s, 64, 8);
	ck_rule(&s, "loads_enough");
	/* and the warps wait at barriers too, after their loads */
	stall(&s, "barrier", 26);
	ck_rule(&s, "barriers_after_loads");
	/* bytes in flight unknown (no SASS): nothing said of them */
	s.in_flight_per_sm = 0;
	ck_rule(&s, "dram_below");
	blank(&s); roof(&s, ROOF_DRAM, 48); healthy(&s);
	stall(&s, "lg_throttle", 56);
	ck_rule(&s, "memory_queue");
	blank(&s); roof(&s, ROOF_FP32, 9); healthy(&s); ck_rule(&s, "fp32_global");
	blank(&s); roof(&s, ROOF_FP32, 13); healthy(&s); shared_loads(&s, 1e8, 0);
	ck_rule(&s, "fp32_shared_loads");
	blank(&s); roof(&s, ROOF_FP32, 60); healthy(&s); shared_loads(&s, 1000, 0);
	stall(&s, "not_selected", 38);
	ck_rule(&s, "fp32_issue");
	blank(&s); roof(&s, ROOF_FP32, 60); healthy(&s); shared_loads(&s, 1000, 0);
	set(&s, "sm__warps_active.avg.pct_of_peak_sustained_active", 22);
	s.registers = 128;
	ck_rule(&s, "low_occupancy");
	s.registers = 32;
	ck_rule(&s, "fp32_below");
	blank(&s); roof(&s, ROOF_DRAM, 20); healthy(&s); ck_rule(&s, "dram_below");
}
END_TEST

/* Every rule in the table has a test case above, and a sentence that quotes no more than it has. */
START_TEST(the_table)
{
	ck_assert_int_ge(diagnosis_nrules, 20);
	for (int i = 0; i < diagnosis_nrules; i++) {
		const struct diagnosis_rule *r = &diagnosis_rules[i];
		int conv = 0;

		ck_assert_ptr_eq(diagnosis_rule_find(r->id), r);
		for (const char *p = r->text; (p = strchr(p, '%')) != NULL; p += 2)
			conv += p[1] != '%';
		ck_assert_msg(conv <= (r->names_lesson ? 2 : 4), "%s", r->id);
		/* a rule that names a technique names its lesson in the sentence */
		if (r->lesson != NULL) {
			char want[64];

			snprintf(want, sizeof want, "(%s lesson", r->lesson);
			ck_assert_msg(strstr(r->text, want) != NULL || strcmp(r->id, "dram_roof") == 0, "%s", r->id);
		}
	}
	ck_assert_ptr_null(diagnosis_rule_find("no_such_rule"));
}
END_TEST

START_TEST(first_match_wins)
{
	struct step_result s;
	struct diagnosis d;
	char text[512];

	/* bank conflicts and divergence both: the earlier rule */
	blank(&s); roof(&s, ROOF_DRAM, 18); healthy(&s);
	shared_loads(&s, 1000, 4000);
	set(&s, "smsp__thread_inst_executed_per_inst_executed.ratio", 20);
	ck_rule(&s, "bank_conflicts");
	/* at the roof beats any counter */
	roof(&s, ROOF_DRAM, 95);
	ck_rule(&s, "dram_roof");
	/* beyond it: a measurement error, whatever the counters say */
	roof(&s, ROOF_DRAM, 120);
	ck_rule(&s, "roof_exceeded");
	/* divergence before strided loads */
	blank(&s); roof(&s, ROOF_DRAM, 8); healthy(&s);
	set(&s, "smsp__thread_inst_executed_per_inst_executed.ratio", 28.4);
	set(&s, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", 25);
	ck_rule(&s, "divergence");
	/* the figures quoted are the step's own */
	ck_assert(diagnose(&s, &d));
	diagnosis_text(&d, "reduction", false, text, sizeof text);
	ck_assert_msg(strstr(text, "28.4 of 32") != NULL && strstr(text, "100.0%") != NULL, "%s", text);
}
END_TEST

START_TEST(without_counters_or_roofs)
{
	struct step_result s;
	struct diagnosis d;
	char text[512];

	/* no counters: the roof alone, and the command that would read them */
	blank(&s); roof(&s, ROOF_DRAM, 48.9);
	ck_assert(diagnose(&s, &d));
	ck_assert_str_eq(diagnosis_text(&d, "vectorize", false, text, sizeof text),
	    "at 48.9% of the DRAM roof; its counters would say why: cudatutor metrics vectorize");
	/* no roofs and no counters: nothing to say */
	blank(&s);
	ck_assert(!diagnose(&s, &d));
	ck_assert_ptr_null(d.rule);
	ck_assert_str_eq(diagnosis_text(&d, "vectorize", false, text, sizeof text), "");
	/* a step that did not run: nothing */
	blank(&s); roof(&s, ROOF_DRAM, 50); s.ran = false;
	ck_assert(!diagnose(&s, &d));
	/* a roof whose figure is unknown (not measured): nothing made up */
	blank(&s); roof(&s, ROOF_DRAM, 0); s.roof.roof = 0;
	ck_assert(!diagnose(&s, &d));
}
END_TEST

/* The step of kernel in the file's run of lesson. */
static const struct step_result *step(const struct results_file *f, const char *lesson, const char *kernel)
{
	for (int i = 0; i < f->nruns; i++)
		if (strcmp(f->runs[i].lesson, lesson) == 0)
			return results_step_of(&f->runs[i], kernel);
	return NULL;
}

static void recorded(const char *rel)
{
	char *path = paths_source(rel), text[512];
	struct results_file f;
	struct error e = { 0 };
	const struct step_result *s;
	struct diagnosis d;
	int steps = 0;

	ck_assert_msg(results_file_load(path, &f, &e) == 0, "%s", e.msg);
	/*
	 * The run each lesson shows (its first, with counters): every step
	 * has a diagnosis.  The larger sizes were recorded without counters:
	 * there every step with a roof has one, and the shared-memory steps
	 * (no roof, no counters) have none.
	 */
	for (int i = 0; i < f.nruns; i++) {
		bool first = true;

		for (int k = 0; k < i; k++)
			first &= strcmp(f.runs[k].lesson, f.runs[i].lesson) != 0;
		for (int j = 0; j < f.runs[i].nsteps; j++) {
			bool has;

			s = &f.runs[i].steps[j];
			has = diagnose(s, &d);
			ck_assert_msg(has == (first || s->roof.have), "%s: %s (size %llu) step %d: %s", rel,
			    f.runs[i].lesson, f.runs[i].size, s->step, has ? d.rule->id : "no diagnosis");
			if (!has)
				continue;
			diagnosis_text(&d, f.runs[i].lesson, false, text, sizeof text);
			ck_assert_msg(strlen(text) > 20 && strstr(text, "nan") == NULL, "%s", text);
			steps += first;
		}
	}
	ck_assert_int_ge(steps, 60);
	/* the lessons' own explanations */
	/*
	 * The reduction's first step: 28.4 of 32 threads work, and its
	 * unsigned % is most of its loop: the instructions are the cost, not
	 * divergence (10 warp instructions an add, against 4 for the next step).
	 */
	ck_assert_ptr_nonnull(s = step(&f, "reduction", "reduce_neighbored"));
	ck_assert(diagnose(s, &d));
	ck_assert_str_eq(d.rule->lesson, "reduction");
	ck_assert_str_eq(d.rule->id, "many_instructions");
	ck_assert_msg(d.v[0] > 9 && d.v[0] < 11 && d.v[1] > 28 && d.v[1] < 29, "%f %f", d.v[0], d.v[1]);
	ck_assert_ptr_nonnull(s = step(&f, "bank-conflicts", "smem_stride_32"));
	ck_assert(diagnose(s, &d));
	ck_assert_str_eq(d.rule->id, "bank_conflicts");
	ck_assert_msg(d.v[0] > 30 && d.v[0] < 32, "%f conflicts per load", d.v[0]);
	ck_assert_ptr_nonnull(s = step(&f, "bank-conflicts", "smem_stride_32_padded"));
	ck_assert(diagnose(s, &d));
	ck_assert_str_eq(d.rule->id, "shared_clean");
	/* two 1-byte loads a thread in flight, 2048 threads a multiprocessor: 4 KB, under Little's law */
	ck_assert_ptr_nonnull(s = step(&f, "vectorize", "vec_add_char"));
	ck_assert(diagnose(s, &d));
	ck_assert_str_eq(d.rule->id, "narrow_loads");
	ck_assert_msg(fabs(d.v[2] - 4) < 1e-9 && d.v[3] < 1, "%f KB, %f times", d.v[2], d.v[3]);
	/* eight 4-byte loads before the first add: 64 KB, more than enough; the block's tree is the cost */
	ck_assert_ptr_nonnull(s = step(&f, "unrolling", "reduce_unroll8"));
	ck_assert(diagnose(s, &d));
	ck_assert_str_eq(d.rule->id, "barriers_after_loads");
	ck_assert_msg(fabs(d.v[1] - 64) < 1e-9 && d.v[2] > 4, "%f KB, %f times", d.v[1], d.v[2]);
	ck_assert_ptr_nonnull(s = step(&f, "shared-memory", "matmul_naive"));
	ck_assert(diagnose(s, &d));
	ck_assert_str_eq(d.rule->lesson, "shared-memory");
	ck_assert_ptr_nonnull(s = step(&f, "register-tiling", "matmul_2d_blocktile"));
	ck_assert(diagnose(s, &d));
	ck_assert_str_eq(d.rule->id, "bank_conflicts");	/* the lesson: step 5 takes them away */
	ck_assert_ptr_nonnull(s = step(&f, "register-tiling", "matmul_warptile"));
	ck_assert(diagnose(s, &d));
	ck_assert_str_eq(d.rule->lesson, "register-tiling");
	ck_assert_ptr_nonnull(s = step(&f, "occupancy", "stream_ilp16_capped"));
	ck_assert(diagnose(s, &d));
	ck_assert_str_eq(d.rule->id, "memory_queue");
	/* in what is shown, not in what is stored */
	for (int i = 0; i < f.nruns; i++) {
		json_t *o = results_report_to_json(&f.runs[i]), *first;

		first = json_array_get(json_object_get(o, "steps"), 0);
		ck_assert_ptr_null(json_object_get(first, "diagnosis"));
		diagnosis_add_to_json(o, &f.runs[i]);
		ck_assert_ptr_nonnull(json_object_get(first, "diagnosis"));
		json_decref(o);
	}
	ck_assert_ptr_nonnull(s = step(&f, "unrolling", "cub_device_reduce_sum"));
	ck_assert(diagnose(s, &d));
	ck_assert_str_eq(d.rule->id, "library");
	results_file_free(&f);
	free(path);
}

START_TEST(recorded_h100)
{
	const struct step_result *s;
	struct results_file f;
	struct error e = { 0 };
	char *path = paths_source("data/results/nvidia-h100.json");
	struct diagnosis d;

	recorded("data/results/nvidia-h100.json");
	/*
	 * The H100's float4 add ran at 105% of the copy's bytes a second: its
	 * counters show part of its output still in L2 when the window closed,
	 * and counted by what reached DRAM it sits under its roof.
	 */
	ck_assert_msg(results_file_load(path, &f, &e) == 0, "%s", e.msg);
	ck_assert_ptr_nonnull(s = step(&f, "vectorize", "vec_add_float4"));
	ck_assert(!s->roof.roof_exceeded && s->roof.pct_of_roof > 90 && s->roof.pct_of_roof <= 100);
	ck_assert(diagnose(s, &d));
	ck_assert_str_eq(d.rule->id, "dram_roof");
	results_file_free(&f);
	free(path);
}
END_TEST

START_TEST(recorded_h200)
{
	recorded("data/results/nvidia-h200.json");
}
END_TEST

/*
 * Step 20 of the tensor lesson writes C's chunks into shared memory with
 * the odd rows' lanes on the other half of the columns (store_tile_tma),
 * so that a half-warp's 8-byte stores meet no bank twice.  Recorded on
 * the H200 at 4096, bank conflicts are under a fifth of its shared-store
 * wavefronts; with every lane on the same columns they were over half
 * (649,924 of 1,195,681).
 */
START_TEST(the_tma_epilogue_stores_without_conflicts)
{
	char *path = paths_source("data/results/nvidia-h200.json");
	struct results_file f;
	struct error e = { 0 };
	const struct step_result *s = NULL;
	double conflicts, wavefronts;

	ck_assert_msg(results_file_load(path, &f, &e) == 0, "%s", e.msg);
	for (int i = 0; i < f.nruns && s == NULL; i++)
		if (strcmp(f.runs[i].lesson, "tensor-cores") == 0 && f.runs[i].size == 4096)
			s = results_step_of(&f.runs[i], "tc_wgmma_tma_store");
	ck_assert_ptr_nonnull(s);
	ck_assert(metrics_value(&s->metrics, metrics_find("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
	    &conflicts) == 0);
	ck_assert(metrics_value(&s->metrics, metrics_find("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
	    &wavefronts) == 0);
	ck_assert_msg(wavefronts > 0 && conflicts < 0.2 * wavefronts, "%.0f conflicts in %.0f wavefronts", conflicts,
	    wavefronts);
	results_file_free(&f);
	free(path);
}
END_TEST

/* A step of the experiment "tensor": its arithmetic runs on tensor cores. */
static bool tensor_step(const struct step_result *s)
{
	const struct kernel_def *k = registry_find(s->kernel);

	return k != NULL && strcmp(k->experiment->name, "tensor") == 0;
}

/*
 * The rules no recorded step of the other lessons reaches, as doc/roofs.md
 * lists them: for the student's kernels and live runs, tested above on
 * steps made to match.  The tensor cores' steps are left out of that
 * count: once recorded they reach tensor_roof or tensor_below (and,
 * with counters, whatever those say first), which no other step can;
 * none of them may be faster than its roof.
 */
START_TEST(rules_the_recorded_steps_reach)
{
	static const char *const unreached[] = { "roof_exceeded", "fp32_roof", "tensor_roof",
		"low_occupancy", "fp32_below", "tensor_below", "wgmma_drained", "wgmma_in_flight", "tensor_global",
		"tensor_copies_behind", "tensor_fragments", "tensor_barrier", "fp32_shared_loads", "mbarrier_wait",
		"block_barrier" };
	static const char *const files[] = { "data/results/nvidia-h100.json", "data/results/nvidia-h200.json" };
	bool reached[64] = { false };

	ck_assert_int_le(diagnosis_nrules, 64);
	for (int k = 0; k < 2; k++) {
		char *path = paths_source(files[k]);
		struct results_file f;
		struct error e = { 0 };
		struct diagnosis d;

		ck_assert_msg(results_file_load(path, &f, &e) == 0, "%s", e.msg);
		for (int i = 0; i < f.nruns; i++)
			for (int j = 0; j < f.runs[i].nsteps; j++) {
				const struct step_result *s = &f.runs[i].steps[j];

				if (!diagnose(s, &d))
					continue;
				if (tensor_step(s))
					ck_assert_msg(strcmp(d.rule->id, "roof_exceeded") != 0, "%s: %s faster than its roof",
					    files[k], s->kernel);
				else
					reached[d.rule - diagnosis_rules] = true;
			}
		results_file_free(&f);
		free(path);
	}
	for (int i = 0; i < diagnosis_nrules; i++) {
		bool listed = false;

		for (size_t u = 0; u < sizeof unreached / sizeof unreached[0]; u++)
			listed |= strcmp(unreached[u], diagnosis_rules[i].id) == 0;
		ck_assert_msg(reached[i] != listed, "%s: %s by a recorded step", diagnosis_rules[i].id,
		    reached[i] ? "reached" : "not reached");
	}
}
END_TEST

/* The tensor cores' steps of a fixture against its BF16 tensor roof: below it, and at it. */
START_TEST(tensor_steps)
{
	char *path = paths_source("tests/fixtures/results-tensor.json"), text[512];
	struct results_file f;
	struct error e = { 0 };
	const struct step_result *s;
	struct diagnosis d;

	ck_assert_msg(results_file_load(path, &f, &e) == 0, "%s", e.msg);
	ck_assert_ptr_nonnull(s = step(&f, "tensor-cores", "tc_wmma_global"));
	ck_assert(tensor_step(s) && diagnose(s, &d));
	ck_assert_str_eq(d.rule->id, "tensor_below");
	ck_assert_str_eq(d.rule->lesson, "tensor-cores");
	diagnosis_text(&d, "tensor-cores", false, text, sizeof text);
	ck_assert_msg(strncmp(text, "at 3.8% of the BF16 tensor roof: ", 33) == 0, "%s", text);
	ck_assert_ptr_nonnull(s = step(&f, "tensor-cores", "cublas_gemm_bf16"));
	ck_assert(diagnose(s, &d));
	ck_assert_str_eq(d.rule->id, "tensor_roof");
	ck_assert_msg(fabs(d.v[0] - 87.5) < 0.01, "%f", d.v[0]);
	/* no ceiling measured: against the spec's figure, as the roofs are */
	f.runs[0].roofs.tensor_measured_gflops = 0;
	results_derive(&f.runs[0]);
	ck_assert(diagnose(s, &d));
	ck_assert_str_eq(d.rule->id, "library");
	ck_assert_msg(fabs(d.v[0] - 700000.0 / 1024000 * 100) < 0.01, "%f", d.v[0]);
	results_file_free(&f);
	free(path);
}
END_TEST

/*
 * The recorded H100's char8 add at 2^24 (48 MiB, within twice its 50 MiB
 * L2) is at 78.7% of the DRAM roof and 100% of it at 2^28: its sentence
 * says both, where it once asked for wider loads; the float add at 2^24
 * (192 MiB) and the sums (which only read) have no such clause.
 */
START_TEST(l2_sized_steps_say_so)
{
	char *path = paths_source("data/results/nvidia-h100.json"), text[1024];
	const struct step_result *s;
	struct results_file f;
	struct error e = { 0 };
	struct diagnosis d;

	ck_assert_msg(results_file_load(path, &f, &e) == 0, "%s", e.msg);
	ck_assert_ptr_nonnull(s = step(&f, "vectorize", "vec_add_char8"));
	ck_assert_int_eq(s->size, 1 << 24);
	ck_assert(diagnose(s, &d));
	diagnosis_text(&d, "vectorize", false, text, sizeof text);
	ck_assert_msg(strstr(text, "Its 48 MiB fit within twice the 50 MiB L2") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "at 2^28 the same kernel is at 100.0% of its roof.") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "wider loads;") == NULL, "%s", text);
	ck_assert_ptr_nonnull(s = step(&f, "vectorize", "vec_add_float"));
	ck_assert(diagnose(s, &d));
	ck_assert_ptr_null(d.caveat);
	ck_assert_ptr_nonnull(s = step(&f, "unrolling", "reduce_unroll8"));
	ck_assert(diagnose(s, &d));
	ck_assert_ptr_null(d.caveat);
	/* a verdict that does not rest on the DRAM share takes no clause: dependent loads at 0% */
	ck_assert_ptr_nonnull(s = step(&f, "bitpack", "bitpack_global_volatile"));
	ck_assert(results_dram_caveat(s) && diagnose(s, &d));
	ck_assert_ptr_null(d.caveat);
	results_file_free(&f);
	free(path);
}
END_TEST

/*
 * The recorded tensor steps with counters, on each GPU: at least four
 * different diagnoses, drawn from what fed (or did not feed) the tensor
 * cores, where they once had one sentence for twelve kernels.
 */
START_TEST(tensor_steps_recorded)
{
	static const char *const files[] = { "data/results/nvidia-h100.json", "data/results/nvidia-h200.json" };

	for (int k = 0; k < 2; k++) {
		char *path = paths_source(files[k]);
		const struct diagnosis_rule *seen[16];
		int nseen = 0, steps = 0;
		struct results_file f;
		struct error e = { 0 };
		const struct step_result *s;
		struct diagnosis d;

		ck_assert_msg(results_file_load(path, &f, &e) == 0, "%s", e.msg);
		for (int i = 0; i < f.nruns; i++)
			for (int j = 0; j < f.runs[i].nsteps; j++) {
				bool known = false;

				s = &f.runs[i].steps[j];
				if (!tensor_step(s) || !s->metrics.collected || s->library)
					continue;
				ck_assert(diagnose(s, &d));
				steps++;
				for (int n = 0; n < nseen; n++)
					known |= seen[n] == d.rule;
				if (!known && nseen < 16)
					seen[nseen++] = d.rule;
			}
		/* the H100's ten: its file keeps no step whose kernel changed since */
		ck_assert_int_ge(steps, 10);
		ck_assert_msg(nseen >= 4, "%s: %d diagnoses for %d tensor steps", files[k], nseen, steps);
		ck_assert_ptr_nonnull(s = step(&f, "tensor-cores", "tc_wmma_global"));
		ck_assert(diagnose(s, &d));
		ck_assert_str_eq(d.rule->id, "tensor_global");
		ck_assert_ptr_nonnull(s = step(&f, "tensor-cores", "tc_mma_cp_async"));
		ck_assert(diagnose(s, &d));
		ck_assert_str_eq(d.rule->id, "tensor_fragments");
		results_file_free(&f);
		free(path);
	}
}
END_TEST

/*
 * Each rule at its threshold and just past it: at the threshold it
 * matches, a hair past it the step goes to the next rule.  A threshold
 * moved in the code fails here (the recorded steps are far from most).
 */
#define HAIR 1e-6

/* A tensor step below its roof whose line with most samples is sass, at pct of them. */
static void waits_at(struct step_result *s, const char *sass, double pct)
{
	struct stall_profile *p = &s->metrics.stalls;

	blank(s);
	roof(s, ROOF_TENSOR, 50);
	p->have = true;
	p->samples = 1000000;
	p->nlines = 2;
	snprintf(p->lines[0].sass, sizeof p->lines[0].sass, "%s", sass);
	p->lines[0].samples = (int)(pct / 100 * p->samples + 0.5);
	p->lines[0].nreasons = 1;
	snprintf(p->lines[0].reasons[0].name, sizeof p->lines[0].reasons[0].name, "barrier");
	p->lines[0].reasons[0].samples = p->lines[0].samples;
	snprintf(p->lines[1].sass, sizeof p->lines[1].sass, "BAR.SYNC.DEFER_BLOCKING 0x0");
	p->lines[1].samples = 10;
}

/* Line k of waits_at's profile: sass, with pct% of the samples, all for reason. */
static void line(struct step_result *s, int k, const char *sass, const char *reason, double pct)
{
	struct stall_profile *p = &s->metrics.stalls;
	struct stall_line *l = &p->lines[k];

	snprintf(l->sass, sizeof l->sass, "%s", sass);
	l->samples = (int)(pct / 100 * p->samples + 0.5);
	l->nreasons = 1;
	snprintf(l->reasons[0].name, sizeof l->reasons[0].name, "%s", reason);
	l->reasons[0].samples = l->samples;
	p->nlines = k + 1 > p->nlines ? k + 1 : p->nlines;
}

/* ncu's "barrier" at WARPGROUP.DEPBAR is the wgmma's wait: said so from 25% of the samples, not before. */
START_TEST(wgmma_waits_at_their_edges)
{
	struct step_result s;

	waits_at(&s, "WARPGROUP.DEPBAR.LE gsb0, 0x0", DIAG_WGMMA_WAIT_PCT); ck_rule(&s, "wgmma_drained");
	waits_at(&s, "WARPGROUP.DEPBAR.LE gsb0, 0x0", DIAG_WGMMA_WAIT_PCT - 1e-4); ck_rule(&s, "tensor_below");
	waits_at(&s, "WARPGROUP.DEPBAR.LE gsb0, 0x1", DIAG_WGMMA_WAIT_PCT); ck_rule(&s, "wgmma_in_flight");
	waits_at(&s, "WARPGROUP.DEPBAR.LE gsb0, 0x1", DIAG_WGMMA_WAIT_PCT - 1e-4); ck_rule(&s, "tensor_below");
	/* with a wgmma in flight, the warps that wait to issue the next HGMMA wait on the tensor cores too */
	waits_at(&s, "WARPGROUP.DEPBAR.LE gsb0, 0x1", 15);
	line(&s, 1, "HGMMA.64x256x16.F32.BF16 R24, gdesc[UR4], R24", "mio", DIAG_WGMMA_WAIT_PCT - 15);
	ck_rule(&s, "wgmma_in_flight");
	s.metrics.stalls.lines[1].samples -= 1;
	ck_rule(&s, "tensor_below");
	/*
	 * A cluster's idle producer warps wait at its barrier (UCGABAR_WAIT), a
	 * quarter of the samples: the share is of the other warps'.  Step 21 on
	 * the H200: 14.2% at the wait, 9.6% at HGMMA, 24.6% parked.
	 */
	waits_at(&s, "UCGABAR_WAIT", 24.6);
	line(&s, 1, "WARPGROUP.DEPBAR.LE gsb0, 0x1", "barrier", 14.2);
	line(&s, 2, "HGMMA.64x256x16.F32.BF16 R24, gdesc[UR4], R24", "mio", 9.6);
	ck_rule(&s, "wgmma_in_flight");
	s.metrics.stalls.lines[2].samples = (int)(0.25 * (1000000 - s.metrics.stalls.lines[0].samples)) -
	    s.metrics.stalls.lines[1].samples - 1;	/* a sample under 25% of the working warps' */
	ck_rule(&s, "tensor_below");
	s.metrics.stalls.lines[0].samples = 250000;	/* the parked warps at 25%: a barrier of the whole cluster */
	s.metrics.stalls.lines[2].samples = (int)(0.25 * 750000) - s.metrics.stalls.lines[1].samples - 1;
	ck_rule(&s, "block_barrier");
	/* a true barrier with most samples is no wgmma's wait: a barrier of the whole block, from 25% */
	waits_at(&s, "BAR.SYNC.DEFER_BLOCKING 0x0", 60); ck_rule(&s, "block_barrier");
	waits_at(&s, "UCGABAR_WAIT", DIAG_WGMMA_WAIT_PCT); ck_rule(&s, "block_barrier");
	waits_at(&s, "UCGABAR_WAIT", DIAG_WGMMA_WAIT_PCT - 1e-4); ck_rule(&s, "tensor_below");
	/* the long scoreboard at one line, with no global load in the kernel: an mbarrier, from 25% */
	waits_at(&s, "@!P0 BRA 0x18d0", DIAG_WGMMA_WAIT_PCT);
	snprintf(s.metrics.stalls.lines[0].reasons[0].name, sizeof s.metrics.stalls.lines[0].reasons[0].name, "long_sb");
	ck_rule(&s, "tensor_below");	/* counters say nothing of its loads yet */
	s.metrics.collected = true;
	set(&s, "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", 0);
	ck_rule(&s, "mbarrier_wait");
	s.metrics.stalls.lines[0].samples -= 100;	/* a hair under 25% */
	ck_rule(&s, "tensor_below");
	s.metrics.stalls.lines[0].samples += 100;
	set(&s, "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", 4);
	ck_assert_str_ne(rule_of(&s), "mbarrier_wait");	/* with global loads, the long scoreboard may be theirs */
	/* samples but no tensor roof: not a tensor step */
	waits_at(&s, "WARPGROUP.DEPBAR.LE gsb0, 0x0", 60);
	roof(&s, ROOF_DRAM, 50);
	ck_assert_msg(strncmp(rule_of(&s), "wgmma", 5) != 0, "%s", rule_of(&s));
}
END_TEST

/*
 * The recorded H200 samples: step 13 drains its wgmma, steps 16 to 18
 * keep one in flight.  The H100 has none: step 13's barrier stall is
 * named as the barrier or the wgmma's wait.
 */
START_TEST(wgmma_waits_recorded)
{
	static const struct {
		const char *file, *kernel, *rule;
	} want[] = {
		{ "data/results/nvidia-h200.json", "tc_wgmma_tma", "wgmma_drained" },
		{ "data/results/nvidia-h200.json", "tc_wgmma_warp_specialized", "wgmma_in_flight" },
		{ "data/results/nvidia-h200.json", "tc_wgmma_grouped", "wgmma_in_flight" },
		{ "data/results/nvidia-h200.json", "tc_wgmma_persistent", "wgmma_in_flight" },
		/* the clusters' steps, once their idle warps' samples are set aside */
		{ "data/results/nvidia-h200.json", "tc_wgmma_cluster", "wgmma_in_flight" },
		{ "data/results/nvidia-h200.json", "tc_wgmma_tma_store", "wgmma_in_flight" },
		{ "data/results/nvidia-h200.json", "tc_wgmma_last_wave", "wgmma_in_flight" },
		/* step 14 waits for its copies; the control's idle warps at a barrier */
		{ "data/results/nvidia-h200.json", "tc_wgmma_pipelined", "mbarrier_wait" },
		{ "data/results/nvidia-h200.json", "tc_wgmma_unspecialized", "block_barrier" },
		{ "data/results/nvidia-h100.json", "tc_wgmma_tma", "tensor_barrier" },
	};

	for (size_t k = 0; k < ARRAY_LEN(want); k++) {
		char *path = paths_source(want[k].file), text[512];
		const struct step_result *s = NULL;
		struct results_file f;
		struct error e = { 0 };
		struct diagnosis d;

		ck_assert_msg(results_file_load(path, &f, &e) == 0, "%s", e.msg);
		for (int i = 0; i < f.nruns && s == NULL; i++)
			if (strcmp(f.runs[i].lesson, "tensor-cores") == 0 && f.runs[i].size == 4096)
				s = results_step_of(&f.runs[i], want[k].kernel);
		ck_assert_ptr_nonnull(s);
		ck_assert(diagnose(s, &d));
		ck_assert_msg(strcmp(d.rule->id, want[k].rule) == 0, "%s %s: %s", want[k].file, want[k].kernel, d.rule->id);
		diagnosis_text(&d, "tensor-cores", false, text, sizeof text);
		if (strncmp(want[k].rule, "wgmma", 5) == 0)
			ck_assert_msg(strstr(text, "WARPGROUP.DEPBAR") != NULL && strstr(text, "__syncthreads") == NULL,
			    "%s", text);
		results_file_free(&f);
		free(path);
	}
}
END_TEST

START_TEST(thresholds_at_their_edges)
{
	struct step_result s;

	/* a tensor step: waiting for global memory 50% of the time; short scoreboard and MIO 25% */
	blank(&s); roof(&s, ROOF_TENSOR, 20); healthy(&s);
	stall(&s, "long_scoreboard", DIAG_TENSOR_GLOBAL_WAIT_PCT); ck_rule(&s, "tensor_global");
	stall(&s, "long_scoreboard", DIAG_TENSOR_GLOBAL_WAIT_PCT - HAIR); ck_rule(&s, "tensor_copies_behind");
	stall(&s, "long_scoreboard", 1);
	stall(&s, "short_scoreboard", DIAG_TENSOR_SHARED_WAIT_PCT / 2);
	stall(&s, "mio_throttle", DIAG_TENSOR_SHARED_WAIT_PCT / 2); ck_rule(&s, "tensor_fragments");
	stall(&s, "mio_throttle", DIAG_TENSOR_SHARED_WAIT_PCT / 2 - HAIR); ck_rule(&s, "tensor_below");
	/* at the roof: 85% and just under */
	blank(&s); roof(&s, ROOF_DRAM, DIAG_AT_ROOF_PCT); ck_rule(&s, "dram_roof");
	blank(&s); roof(&s, ROOF_DRAM, DIAG_AT_ROOF_PCT - HAIR); ck_rule(&s, "roof_only_dram");
	blank(&s); roof(&s, ROOF_FP32, DIAG_AT_ROOF_PCT); ck_rule(&s, "fp32_roof");
	blank(&s); roof(&s, ROOF_FP32, DIAG_AT_ROOF_PCT - HAIR); ck_rule(&s, "roof_only_fp32");
	blank(&s); roof(&s, ROOF_TENSOR, DIAG_AT_ROOF_PCT); ck_rule(&s, "tensor_roof");
	blank(&s); roof(&s, ROOF_TENSOR, DIAG_AT_ROOF_PCT - HAIR); ck_rule(&s, "tensor_below");
	/* one conflict per shared load, and a hair under */
	blank(&s); healthy(&s); shared_loads(&s, 1e6, 1e6 * DIAG_CONFLICTS_PER_LOAD); ck_rule(&s, "bank_conflicts");
	blank(&s); roof(&s, ROOF_SHARED, 80); s.unit = UNIT_SHARED_GBPS; healthy(&s);
	shared_loads(&s, 1e6, 1e6 * DIAG_CONFLICTS_PER_LOAD - 1); ck_rule(&s, "shared_clean");
	/* many instructions: 8 per add with 24 threads working; a hair under either is divergence */
	blank(&s); roof(&s, ROOF_DRAM, 8); healthy(&s);
	s.gflops = 100;
	s.median_ms = 1;
	set(&s, "smsp__inst_executed.sum", DIAG_MANY_INSTRUCTIONS * 1e8);
	set(&s, "smsp__thread_inst_executed_per_inst_executed.ratio", DIAG_WORKING_THREADS);
	ck_rule(&s, "many_instructions");
	set(&s, "smsp__inst_executed.sum", (DIAG_MANY_INSTRUCTIONS - HAIR) * 1e8);
	ck_rule(&s, "divergence");
	set(&s, "smsp__inst_executed.sum", DIAG_MANY_INSTRUCTIONS * 1e8);
	set(&s, "smsp__thread_inst_executed_per_inst_executed.ratio", DIAG_WORKING_THREADS - HAIR);
	ck_rule(&s, "divergence");
	/* divergence: under 30 threads working, or under 90% of branches uniform */
	blank(&s); roof(&s, ROOF_DRAM, 20); healthy(&s);
	set(&s, "smsp__thread_inst_executed_per_inst_executed.ratio", DIAG_DIVERGENT_THREADS);
	ck_rule(&s, "dram_below");
	set(&s, "smsp__thread_inst_executed_per_inst_executed.ratio", DIAG_DIVERGENT_THREADS - HAIR);
	ck_rule(&s, "divergence");
	set(&s, "smsp__thread_inst_executed_per_inst_executed.ratio", 32);
	set(&s, "smsp__sass_average_branch_targets_threads_uniform.pct", DIAG_UNIFORM_BRANCHES_PCT);
	ck_rule(&s, "dram_below");
	set(&s, "smsp__sass_average_branch_targets_threads_uniform.pct", DIAG_UNIFORM_BRANCHES_PCT - HAIR);
	ck_rule(&s, "divergence");
	/* dependent loads: waiting 50%, DRAM under 10% busy (else: too few bytes in flight) */
	blank(&s); roof(&s, ROOF_DRAM, 1); healthy(&s);
	in_flight(&s, 8, 1);
	stall(&s, "long_scoreboard", DIAG_DEPENDENT_WAIT_PCT);
	set(&s, "dram__throughput.avg.pct_of_peak_sustained_elapsed", DIAG_DEPENDENT_DRAM_PCT - HAIR);
	ck_rule(&s, "dependent_loads");
	set(&s, "dram__throughput.avg.pct_of_peak_sustained_elapsed", DIAG_DEPENDENT_DRAM_PCT);
	ck_rule(&s, "narrow_loads");
	set(&s, "dram__throughput.avg.pct_of_peak_sustained_elapsed", DIAG_DEPENDENT_DRAM_PCT - HAIR);
	stall(&s, "long_scoreboard", DIAG_DEPENDENT_WAIT_PCT - HAIR);
	ck_rule(&s, "narrow_loads");
	/* strided: under 40% of each sector used */
	blank(&s); roof(&s, ROOF_DRAM, 16); healthy(&s);
	set(&s, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", DIAG_STRIDED_EFFICIENCY_PCT - HAIR);
	ck_rule(&s, "strided");
	set(&s, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", DIAG_STRIDED_EFFICIENCY_PCT);
	ck_rule(&s, "dram_below");
	/* wide loads: 16 bytes a thread, under 60% used (sectors x 32 x efficiency / 32 threads) */
	blank(&s); roof(&s, ROOF_DRAM, 70); healthy(&s);
	set(&s, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", DIAG_WIDE_EFFICIENCY_PCT - HAIR);
	set(&s, "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio",
	    DIAG_WIDE_BYTES * 100 / (DIAG_WIDE_EFFICIENCY_PCT - HAIR));
	ck_rule(&s, "wide_loads");
	set(&s, "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio",
	    (DIAG_WIDE_BYTES - 1e-3) * 100 / (DIAG_WIDE_EFFICIENCY_PCT - HAIR));
	ck_rule(&s, "dram_below");
	set(&s, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", DIAG_WIDE_EFFICIENCY_PCT);
	set(&s, "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", 32);
	ck_rule(&s, "dram_below");
	/* instruction-bound: math and not-selected 50%, memory under 20% */
	blank(&s); roof(&s, ROOF_ISSUE, 70); healthy(&s);
	stall(&s, "not_selected", DIAG_INSTRUCTION_STALLS_PCT / 2);
	stall(&s, "math_pipe_throttle", DIAG_INSTRUCTION_STALLS_PCT / 2);
	stall(&s, "long_scoreboard", DIAG_INSTRUCTION_MEMORY_PCT - HAIR);
	ck_rule(&s, "instruction_bound");
	stall(&s, "long_scoreboard", DIAG_INSTRUCTION_MEMORY_PCT);
	ck_assert_str_ne(rule_of(&s), "instruction_bound");
	stall(&s, "long_scoreboard", DIAG_INSTRUCTION_MEMORY_PCT - HAIR);
	stall(&s, "math_pipe_throttle", DIAG_INSTRUCTION_STALLS_PCT / 2 - HAIR);
	ck_assert_str_ne(rule_of(&s), "instruction_bound");
	/* narrow loads: long scoreboard the largest stall, under 3 times Little's law in flight; at 3, enough */
	blank(&s); roof(&s, ROOF_DRAM, 49); healthy(&s);
	stall(&s, "long_scoreboard", 90);
	in_flight(&s, 16, DIAG_IN_FLIGHT_TIMES - HAIR);
	ck_rule(&s, "narrow_loads");
	in_flight(&s, 16, DIAG_IN_FLIGHT_TIMES);
	ck_rule(&s, "loads_enough");
	/* enough in flight, and barrier stalls at 15%: after the loads; a hair under, not */
	stall(&s, "barrier", DIAG_BARRIER_AFTER_LOADS_PCT);
	ck_rule(&s, "barriers_after_loads");
	stall(&s, "barrier", DIAG_BARRIER_AFTER_LOADS_PCT - HAIR);
	ck_rule(&s, "loads_enough");
	/* too few in flight with barrier stalls: the loads first */
	stall(&s, "barrier", DIAG_BARRIER_AFTER_LOADS_PCT);
	in_flight(&s, 16, DIAG_IN_FLIGHT_TIMES - HAIR);
	ck_rule(&s, "narrow_loads");
	/* the memory queue: full 30% of the time */
	blank(&s); roof(&s, ROOF_DRAM, 48); healthy(&s);
	stall(&s, "lg_throttle", DIAG_QUEUE_PCT);
	ck_rule(&s, "memory_queue");
	stall(&s, "lg_throttle", DIAG_QUEUE_PCT - HAIR);
	ck_rule(&s, "dram_below");
	/* shared loads per FFMA: 0.1 (the FFMAs: FLOPs / 64 per warp) */
	blank(&s); roof(&s, ROOF_FP32, 13); healthy(&s);
	s.median_ms = 1;
	shared_loads(&s, s.roof.gflops * 1e6 / 64 * DIAG_SHARED_PER_FFMA, 0);
	ck_rule(&s, "fp32_shared_loads");
	shared_loads(&s, s.roof.gflops * 1e6 / 64 * (DIAG_SHARED_PER_FFMA - HAIR), 0);
	ck_rule(&s, "fp32_below");
	/* ready warps not selected 20% of the time */
	stall(&s, "not_selected", DIAG_NOT_SELECTED_PCT);
	ck_rule(&s, "fp32_issue");
	stall(&s, "not_selected", DIAG_NOT_SELECTED_PCT - HAIR);
	ck_rule(&s, "fp32_below");
	/* occupancy under 40% with 64 registers a thread */
	set(&s, "sm__warps_active.avg.pct_of_peak_sustained_active", DIAG_OCCUPANCY_PCT - HAIR);
	s.registers = DIAG_OCCUPANCY_REGISTERS;
	ck_rule(&s, "low_occupancy");
	s.registers = DIAG_OCCUPANCY_REGISTERS - 1;
	ck_rule(&s, "fp32_below");
	s.registers = DIAG_OCCUPANCY_REGISTERS;
	set(&s, "sm__warps_active.avg.pct_of_peak_sustained_active", DIAG_OCCUPANCY_PCT);
	ck_rule(&s, "fp32_below");
}
END_TEST

/* doc/roofs.md quotes each rule's thresholds as the code has them, in the rule's own row. */
START_TEST(thresholds_held_to_the_doc)
{
	char *path = paths_source("doc/roofs.md"), *text;
	size_t len;

	ck_assert_ptr_nonnull(text = file_read(path, &len));
	for (int i = 0; i < diagnosis_nrules; i++) {
		const struct diagnosis_rule *r = &diagnosis_rules[i];
		char want[64], row[2048], *at, *end, *when_end;

		if (r->thresholds[0] == 0)
			continue;
		snprintf(want, sizeof want, "\n| `%s` | ", r->id);
		at = strstr(text, want);
		ck_assert_msg(at != NULL, "doc/roofs.md has no row for %s", r->id);
		at += strlen(want);
		/* the row's "when" cell */
		when_end = strstr(at, " | ");
		end = strchr(at, '\n');
		ck_assert(when_end != NULL && end != NULL && when_end < end);
		snprintf(row, sizeof row, "%.*s", (int)(when_end - at), at);
		for (int k = 0; k < 4 && r->thresholds[k] != 0; k++) {
			char number[32], *p;
			bool found = false;

			snprintf(number, sizeof number, "%g", r->thresholds[k]);
			/* the number whole: 8 is not the 8 of 85 */
			for (p = row; (p = strstr(p, number)) != NULL; p++) {
				char before = p == row ? ' ' : p[-1], after = p[strlen(number)];
				char then = after != '\0' ? p[strlen(number) + 1] : '\0';

				found |= !isdigit((unsigned char)before) && before != '.' && !isdigit((unsigned char)after) &&
				    !(after == '.' && isdigit((unsigned char)then));
			}
			ck_assert_msg(found, "doc/roofs.md, rule %s: the code's threshold %s is not in \"%s\"", r->id,
			    number, row);
		}
	}
	free(text);
	free(path);
}
END_TEST

/*
 * "At the roof, nothing is left" is not said of a step that another step
 * of its run beats at the same work: on the recorded H100 the float add
 * at 2^24 sits at 89% of the roof while float4 does the same work 1.11x
 * faster (it was told nothing is left).
 */
START_TEST(not_at_the_roof_when_beaten)
{
	static const char *const files[] = { "data/results/nvidia-h100.json", "data/results/nvidia-h200.json" };
	int told = 0, withheld = 0;

	for (int k = 0; k < 2; k++) {
		char *path = paths_source(files[k]);
		struct results_file f;
		struct error e = { 0 };

		ck_assert_msg(results_file_load(path, &f, &e) == 0, "%s", e.msg);
		for (int i = 0; i < f.nruns; i++)
			for (int j = 0; j < f.runs[i].nsteps; j++) {
				const struct step_result *s = &f.runs[i].steps[j];
				struct diagnosis alone, in_run;
				int twin = diagnosis_faster_twin(&f.runs[i], j);

				if (!diagnose_in_run(&f.runs[i], j, &in_run))
					continue;
				(void)diagnose(s, &alone);
				if (in_run.rule->at_roof) {
					told++;
					ck_assert_msg(twin < 0, "%s %s at %llu: told it is at its roof while %s is %.2fx faster",
					    files[k], s->kernel, f.runs[i].size, f.runs[i].steps[twin].kernel,
					    s->median_ms / f.runs[i].steps[twin].median_ms);
				}
				if (alone.rule->at_roof && !in_run.rule->at_roof) {
					withheld++;
					ck_assert(twin >= 0 && s->median_ms >= DIAGNOSIS_BEATEN * f.runs[i].steps[twin].median_ms);
				}
			}
		if (k == 0) {
			const struct run_report *r = NULL;
			struct diagnosis d;
			int at = -1;

			for (int i = 0; i < f.nruns && r == NULL; i++)
				if (strcmp(f.runs[i].lesson, "vectorize") == 0 && f.runs[i].size == 1ull << 24)
					r = &f.runs[i];
			ck_assert_ptr_nonnull(r);
			for (int j = 0; j < r->nsteps; j++)
				if (strcmp(r->steps[j].kernel, "vec_add_float") == 0)
					at = j;
			ck_assert_int_ge(at, 0);
			ck_assert(r->steps[at].roof.pct_of_roof >= DIAG_AT_ROOF_PCT);
			ck_assert(diagnose_in_run(r, at, &d));
			ck_assert_str_ne(d.rule->id, "dram_roof");
			ck_assert_int_ge(diagnosis_faster_twin(r, at), 0);
			/* float4, the same work faster, is at its roof */
			for (int j = 0; j < r->nsteps; j++)
				if (strcmp(r->steps[j].kernel, "vec_add_float4") == 0) {
					ck_assert(diagnose_in_run(r, j, &d));
					ck_assert_str_eq(d.rule->id, "dram_roof");
				}
		}
		results_file_free(&f);
		free(path);
	}
	ck_assert_int_gt(told, 10);
	ck_assert_int_gt(withheld, 3);
}
END_TEST

/* Step i of r timed at ms, its rates moved with it: the same work in another time. */
static void retime(struct run_report *r, int i, double ms)
{
	struct step_result *s = &r->steps[i];

	s->gbps *= s->median_ms / ms;
	s->gflops *= s->median_ms / ms;
	s->median_ms = ms;
}

/*
 * What could be gained, at its edges, on the recorded H100's float add
 * at 2^24: a step of the same work DIAGNOSIS_BEATEN times faster is named,
 * a hair less fast is not (and the sentence says none is); the waves are
 * the grid over blocks per SM times SMs; without counters no DRAM bytes
 * are claimed; a vector add has no library step to name.
 */
START_TEST(headroom_at_its_edges)
{
	char *path = paths_source("data/results/nvidia-h100.json");
	struct results_file f;
	struct run_report *r = NULL;
	struct headroom h;
	struct error e = { 0 };
	int at = -1, twin;
	double fastest;

	ck_assert_msg(results_file_load(path, &f, &e) == 0, "%s", e.msg);
	for (int i = 0; i < f.nruns && r == NULL; i++)
		if (strcmp(f.runs[i].lesson, "vectorize") == 0 && f.runs[i].size == 1ull << 24)
			r = &f.runs[i];
	ck_assert_ptr_nonnull(r);
	for (int j = 0; j < r->nsteps; j++)
		if (strcmp(r->steps[j].kernel, "vec_add_float") == 0)
			at = j;
	ck_assert_int_ge(at, 0);
	/* the fastest step of its work: the twin of a step made very slow */
	retime(r, at, 1000);
	twin = diagnosis_faster_twin(r, at);
	ck_assert_int_ge(twin, 0);
	fastest = r->steps[twin].median_ms;

	retime(r, at, fastest * DIAGNOSIS_BEATEN);
	diagnosis_headroom(r, at, false, &h);
	ck_assert_int_eq(h.faster_step, r->steps[twin].step);
	ck_assert(fabs(h.faster_times - DIAGNOSIS_BEATEN) < 1e-9);
	ck_assert_msg(strstr(h.said[HEADROOM_FASTER], r->steps[twin].kernel) != NULL && strstr(h.said[HEADROOM_FASTER], "1.05× faster") != NULL,
	    "%s", h.said[HEADROOM_FASTER]);

	retime(r, at, fastest * (DIAGNOSIS_BEATEN - 0.001));
	diagnosis_headroom(r, at, false, &h);
	ck_assert_int_eq(h.faster_step, -1);
	ck_assert_str_eq(h.said[HEADROOM_FASTER], "No step of this run does the same work 5% faster");

	ck_assert(h.waves_n > 0 && r->steps[at].grid > 0);
	ck_assert(fabs(h.waves_n - (double)r->steps[at].grid / (r->steps[at].blocks_per_sm * r->gpu.sm_count)) < 1e-9);
	ck_assert(h.moved_bytes > 0 && h.said[HEADROOM_TRAFFIC][0] != '\0');
	ck_assert_str_eq(h.said[HEADROOM_LIBRARY], "");
	r->steps[at].metrics.collected = false;
	diagnosis_headroom(r, at, false, &h);
	ck_assert(h.moved_bytes == 0 && h.said[HEADROOM_TRAFFIC][0] == '\0' && h.said[HEADROOM_OCCUPANCY][0] == '\0');
	results_file_free(&f);
	free(path);
}
END_TEST

/* A step beaten by one of other work (a char add is quicker than a float add) is still at its roof. */
START_TEST(beaten_only_by_the_same_work)
{
	struct run_report r = { 0 };
	struct step_result steps[2];
	struct diagnosis d;

	blank(&steps[0]); roof(&steps[0], ROOF_DRAM, 90);
	blank(&steps[1]); roof(&steps[1], ROOF_DRAM, 95);
	snprintf(steps[0].kernel, sizeof steps[0].kernel, "vec_add_float");
	snprintf(steps[1].kernel, sizeof steps[1].kernel, "vec_add_float4");
	steps[0].median_ms = 1.05;
	steps[1].median_ms = 1.0;
	steps[0].gbps = 100 / steps[0].median_ms;	/* the same bytes */
	steps[1].gbps = 100 / steps[1].median_ms;
	r.steps = steps;
	r.nsteps = 2;
	/* just 5% faster: beaten */
	ck_assert_int_eq(diagnosis_faster_twin(&r, 0), 1);
	ck_assert(diagnose_in_run(&r, 0, &d));
	ck_assert_str_eq(d.rule->id, "roof_only_dram");
	/* a hair less: within the noise, still at the roof */
	steps[0].median_ms = 1.0499;
	steps[0].gbps = 100 / steps[0].median_ms;
	ck_assert_int_eq(diagnosis_faster_twin(&r, 0), -1);
	ck_assert(diagnose_in_run(&r, 0, &d));
	ck_assert_str_eq(d.rule->id, "dram_roof");
	/* other bytes (a char add moves a quarter): not the same work */
	steps[0].median_ms = 2;
	steps[0].gbps = 400 / steps[0].median_ms;
	ck_assert_int_eq(diagnosis_faster_twin(&r, 0), -1);
	/* a step that ran wrong beats nothing */
	steps[0].gbps = 100 / steps[0].median_ms;
	ck_assert_int_eq(diagnosis_faster_twin(&r, 0), 1);
	steps[1].correct = false;
	ck_assert_int_eq(diagnosis_faster_twin(&r, 0), -1);
}
END_TEST

/*
 * The same work, at its edges: bytes and FLOPs within 1% of the step's
 * are the same work, a hair more is not; and the faster twin may be the
 * run's first step (index 0), as much as any other.
 */
START_TEST(same_work_to_within_one_percent)
{
	struct run_report r = { 0 };
	struct step_result steps[2];
	struct diagnosis d;
	struct headroom h;

	/* step 2 (index 1) moves 100 bytes in 1.25 ms; step 1 is faster */
	blank(&steps[0]); roof(&steps[0], ROOF_DRAM, 95);
	blank(&steps[1]); roof(&steps[1], ROOF_DRAM, 90);
	snprintf(steps[0].kernel, sizeof steps[0].kernel, "vec_add_float4");
	snprintf(steps[1].kernel, sizeof steps[1].kernel, "vec_add_float");
	steps[0].step = 1;
	steps[1].step = 2;
	steps[1].median_ms = 1.25;
	steps[1].gbps = 80;
	steps[0].median_ms = 1.0;
	r.steps = steps;
	r.nsteps = 2;

	steps[0].gbps = 101;			/* 1% more bytes: the same work */
	ck_assert_int_eq(diagnosis_faster_twin(&r, 1), 0);
	ck_assert(diagnose_in_run(&r, 1, &d));
	ck_assert_str_eq(d.rule->id, "roof_only_dram");
	diagnosis_headroom(&r, 1, false, &h);
	ck_assert_int_eq(h.faster_step, 1);
	ck_assert_msg(strstr(h.said[HEADROOM_FASTER], "Step 1 (vec_add_float4)") != NULL, "%s", h.said[HEADROOM_FASTER]);
	steps[0].gbps = 99;			/* 1% fewer */
	ck_assert_int_eq(diagnosis_faster_twin(&r, 1), 0);
	steps[0].gbps = 101.01;			/* a hair more than 1%: other work */
	ck_assert_int_eq(diagnosis_faster_twin(&r, 1), -1);
	ck_assert(diagnose_in_run(&r, 1, &d));
	ck_assert_str_eq(d.rule->id, "dram_roof");
	steps[0].gbps = 98.99;
	ck_assert_int_eq(diagnosis_faster_twin(&r, 1), -1);

	/* the same for FLOPs */
	steps[0].gbps = 100;
	steps[1].gflops = 800;			/* 1000 FLOPs in 1.25 ms */
	steps[0].gflops = 1010;
	ck_assert_int_eq(diagnosis_faster_twin(&r, 1), 0);
	steps[0].gflops = 990;
	ck_assert_int_eq(diagnosis_faster_twin(&r, 1), 0);
	steps[0].gflops = 1010.1;
	ck_assert_int_eq(diagnosis_faster_twin(&r, 1), -1);
	steps[0].gflops = 989.9;
	ck_assert_int_eq(diagnosis_faster_twin(&r, 1), -1);
	steps[0].gflops = 1000;
	ck_assert_int_eq(diagnosis_faster_twin(&r, 1), 0);

	/* a step that did not run has no twin and is no one's */
	steps[1].ran = false;
	ck_assert_int_eq(diagnosis_faster_twin(&r, 1), -1);
	steps[1].ran = true;
	steps[0].ran = false;
	ck_assert_int_eq(diagnosis_faster_twin(&r, 1), -1);
	steps[0].ran = true;

	/* a faster library step is named once, in the library's own line */
	steps[0].library = true;
	steps[1].pct_library = 80;
	diagnosis_headroom(&r, 1, false, &h);
	ck_assert_int_eq(h.faster_step, 1);
	ck_assert_str_eq(h.said[HEADROOM_FASTER], "");
	ck_assert_msg(strstr(h.said[HEADROOM_LIBRARY], "1.25× faster") != NULL, "%s", h.said[HEADROOM_LIBRARY]);
	/* where the run has no library figure for it, the faster line names it */
	steps[1].pct_library = 0;
	diagnosis_headroom(&r, 1, false, &h);
	ck_assert_msg(strstr(h.said[HEADROOM_FASTER], "Step 1 (vec_add_float4)") != NULL, "%s", h.said[HEADROOM_FASTER]);
	/* the library step itself is told of no faster step, nor that none is */
	diagnosis_headroom(&r, 0, false, &h);
	ck_assert_int_eq(h.faster_step, -1);
	ck_assert_str_eq(h.said[HEADROOM_FASTER], "");
}
END_TEST

/* doc/roofs.md lists every rule, in the table's order. */
START_TEST(documented_in_order)
{
	char *path = paths_source("doc/roofs.md"), *text, *at;
	FILE *f = fopen(path, "r");
	long n;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)n + 1);
	ck_assert_int_eq(fread(text, 1, (size_t)n, f), n);
	fclose(f);
	at = strstr(text, "## A one-line diagnosis");
	ck_assert_ptr_nonnull(at);
	for (int i = 0; i < diagnosis_nrules; i++) {
		char want[64];
		char *p;

		snprintf(want, sizeof want, "`%s`", diagnosis_rules[i].id);
		p = strstr(at, want);
		ck_assert_msg(p != NULL, "doc/roofs.md: rule %s missing or out of order", diagnosis_rules[i].id);
		at = p;
	}
	free(text);
	free(path);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("diagnosis");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, each_rule_fires_on_its_own_case);
	tcase_add_test(tc, the_table);
	tcase_add_test(tc, first_match_wins);
	tcase_add_test(tc, without_counters_or_roofs);
	tcase_add_test(tc, recorded_h100);
	tcase_add_test(tc, recorded_h200);
	tcase_add_test(tc, the_tma_epilogue_stores_without_conflicts);
	tcase_add_test(tc, rules_the_recorded_steps_reach);
	tcase_add_test(tc, tensor_steps);
	tcase_add_test(tc, tensor_steps_recorded);
	tcase_add_test(tc, l2_sized_steps_say_so);
	tcase_add_test(tc, documented_in_order);
	tcase_add_test(tc, thresholds_at_their_edges);
	tcase_add_test(tc, headroom_at_its_edges);
	tcase_add_test(tc, same_work_to_within_one_percent);
	tcase_add_test(tc, wgmma_waits_at_their_edges);
	tcase_add_test(tc, wgmma_waits_recorded);
	tcase_add_test(tc, thresholds_held_to_the_doc);
	tcase_add_test(tc, not_at_the_roof_when_beaten);
	tcase_add_test(tc, beaten_only_by_the_same_work);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

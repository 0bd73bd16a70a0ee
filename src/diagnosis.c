/* A step in one sentence: the rules, in order, from the roofs and the counters. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "diagnosis.h"
#include "i18n.h"
#include "metrics.h"
#include "registry.h"
#include "util.h"

/* A stall reason's share of the warps' time, by the middle of its name ("long_scoreboard"). */
static bool stall(const struct step_result *s, const char *reason, double *v)
{
	char name[128];

	snprintf(name, sizeof name, "smsp__warp_issue_stalled_%s_per_warp_active.pct", reason);
	return results_counter(s, name, v);
}

/* Whether the largest stall reason is this one. */
static bool largest_stall(const struct step_result *s, const char *reason)
{
	char mid[64];
	int idx;

	if (!s->metrics.collected || metrics_top_stalls(&s->metrics, &idx, 1) < 1)
		return false;
	snprintf(mid, sizeof mid, "_stalled_%s_per_", reason);
	return strstr(metrics_table[idx].ncu, mid) != NULL;
}

/* The step's percentage of its roof, where that roof is lim and the figure is a result. */
static bool pct_of(const struct step_result *s, enum roof_limiter lim, double *pct)
{
	if (!s->roof.have || s->roof.roof_exceeded || s->roof.limiter != lim || s->roof.roof <= 0)
		return false;
	*pct = s->roof.pct_of_roof;
	return true;
}

/* Bank conflicts per warp-wide shared load; false where the step has no shared loads. */
static bool conflicts_per_load(const struct step_result *s, double *per, double *passes)
{
	double ld, bc, wf;

	if (!results_counter(s, "smsp__sass_inst_executed_op_shared_ld.sum", &ld) || ld <= 0 ||
	    !results_counter(s, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", &bc) ||
	    !results_counter(s, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", &wf))
		return false;
	*per = bc / ld;
	*passes = wf / ld;
	return true;
}

/* Bytes a thread asks for in one global load: sectors per request x 32 bytes x efficiency / 32 threads. */
static bool bytes_per_load(const struct step_result *s, double *bytes)
{
	double sectors, eff;

	if (!results_counter(s, "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", &sectors) ||
	    !results_counter(s, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", &eff) ||
	    sectors <= 0)
		return false;
	*bytes = sectors * eff / 100;
	return true;
}

/* ---- the rules ------------------------------------------------------------- */

static bool exceeded(const struct step_result *s, double *v)
{
	(void)v;
	return s->roof.have && s->roof.roof_exceeded;
}

static bool dram_roof(const struct step_result *s, double *v)
{
	return pct_of(s, ROOF_DRAM, &v[0]) && v[0] >= DIAG_AT_ROOF_PCT;
}

static bool fp32_roof(const struct step_result *s, double *v)
{
	return pct_of(s, ROOF_FP32, &v[0]) && v[0] >= DIAG_AT_ROOF_PCT;
}

/* The tensor-core lesson's steps (experiment "tensor") against the BF16 tensor roof. */
static bool tensor_roof(const struct step_result *s, double *v)
{
	return pct_of(s, ROOF_TENSOR, &v[0]) && v[0] >= DIAG_AT_ROOF_PCT;
}

/* A library's kernels are not the tutor's: no counters, the yardstick of the others. */
static bool library(const struct step_result *s, double *v)
{
	return s->library && (pct_of(s, ROOF_DRAM, &v[0]) || pct_of(s, ROOF_FP32, &v[0]) ||
	    pct_of(s, ROOF_TENSOR, &v[0]));
}

/* At least one conflict per load on average: a two-way conflict or worse. */
static bool bank_conflicts(const struct step_result *s, double *v)
{
	return conflicts_per_load(s, &v[0], &v[1]) && v[0] >= DIAG_CONFLICTS_PER_LOAD;
}

/* A shared-memory step (its bytes never reach DRAM) that has none. */
static bool shared_clean(const struct step_result *s, double *v)
{
	double per;

	return s->unit == UNIT_SHARED_GBPS && pct_of(s, ROOF_SHARED, &v[0]) && conflicts_per_load(s, &per, &v[1]);
}

/*
 * Warp instructions issued per operation the step must do (its FLOPs, or
 * adds), v[0], with the threads working in each, v[1]: where most lanes
 * work and each operation costs many instructions, the arithmetic around
 * it (an integer % or /, index math) is the cost, not idle lanes.  The
 * reduction's first step: 10.0 an add with 28.4 of 32 threads working,
 * its unsigned % most of its loop (the next steps: 4.0 and 3.3; every
 * other recorded step under 6).
 */
static bool many_instructions(const struct step_result *s, double *v)
{
	double inst, ops = s->gflops * s->median_ms * 1e6;

	return s->roof.have && s->roof.limiter == ROOF_DRAM && ops > 0 &&
	    results_counter(s, "smsp__inst_executed.sum", &inst) && (v[0] = inst / ops) >= DIAG_MANY_INSTRUCTIONS &&
	    results_counter(s, "smsp__thread_inst_executed_per_inst_executed.ratio", &v[1]) && v[1] >= DIAG_WORKING_THREADS;
}

static bool divergence(const struct step_result *s, double *v)
{
	return results_counter(s, "smsp__thread_inst_executed_per_inst_executed.ratio", &v[0]) &&
	    results_counter(s, "smsp__sass_average_branch_targets_threads_uniform.pct", &v[1]) &&
	    (v[0] < DIAG_DIVERGENT_THREADS || (v[1] > 0 && v[1] < DIAG_UNIFORM_BRANCHES_PCT));
}

/* Waiting for global memory while DRAM idles: each load waits for the one before, from the cache. */
static bool dependent_loads(const struct step_result *s, double *v)
{
	double pct;

	return pct_of(s, ROOF_DRAM, &pct) && stall(s, "long_scoreboard", &v[0]) && v[0] >= DIAG_DEPENDENT_WAIT_PCT &&
	    results_counter(s, "dram__throughput.avg.pct_of_peak_sustained_elapsed", &v[1]) && v[1] < DIAG_DEPENDENT_DRAM_PCT;
}

static bool strided(const struct step_result *s, double *v)
{
	return results_counter(s, "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", &v[1]) &&
	    v[1] > 0 && results_counter(s, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", &v[0]) &&
	    /* 0: no LDG ran to measure (cp.async's LDGSTS is not one) */
	    v[0] > 0 && v[0] < DIAG_STRIDED_EFFICIENCY_PCT;
}

/* 32 bytes a thread: the load path moves twice the sectors for them. */
static bool wide_loads(const struct step_result *s, double *v)
{
	double bytes;

	return bytes_per_load(s, &bytes) && bytes >= DIAG_WIDE_BYTES &&
	    results_counter(s, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", &v[0]) && v[0] < DIAG_WIDE_EFFICIENCY_PCT;
}

bool diagnosis_instruction_bound(const struct step_result *s, double *busy, double *memory)
{
	double math, ready;

	if (!stall(s, "math_pipe_throttle", &math) || !stall(s, "not_selected", &ready) ||
	    !stall(s, "long_scoreboard", memory))
		return false;
	*busy = math + ready;
	return *busy >= DIAG_INSTRUCTION_STALLS_PCT && *memory < DIAG_INSTRUCTION_MEMORY_PCT;
}

/* Held to the issue roof (results_derive): the arithmetic instructions set the pace, not memory. */
static bool instruction_bound(const struct step_result *s, double *v)
{
	return pct_of(s, ROOF_ISSUE, &v[0]) && diagnosis_instruction_bound(s, &v[1], &v[2]);
}

static bool barriers(const struct step_result *s, double *v)
{
	return pct_of(s, ROOF_DRAM, &v[0]) && largest_stall(s, "barrier") && stall(s, "barrier", &v[1]);
}

/*
 * Little's law on one multiprocessor: the bytes its threads' loads keep in
 * flight, in KB, and that over what the DRAM rate times the load latency
 * asks; false where either is unknown (no SASS, no measured latency).
 */
static bool in_flight(const struct step_result *s, double *kb, double *times)
{
	if (s->in_flight_per_sm <= 0 || s->in_flight_need <= 0)
		return false;
	*kb = s->in_flight_per_sm / 1024;
	*times = s->in_flight_per_sm / s->in_flight_need;
	return true;
}

/* Enough bytes in flight, yet the warps wait at barriers: DRAM idles while each block reduces what it loaded. */
static bool barriers_after_loads(const struct step_result *s, double *v)
{
	return pct_of(s, ROOF_DRAM, &v[0]) && in_flight(s, &v[1], &v[2]) && v[2] >= DIAG_IN_FLIGHT_TIMES &&
	    stall(s, "barrier", &v[3]) && v[3] >= DIAG_BARRIER_AFTER_LOADS_PCT;
}

/* Enough bytes in flight, and the warps wait for them: DRAM sets the pace. */
static bool loads_enough(const struct step_result *s, double *v)
{
	return pct_of(s, ROOF_DRAM, &v[0]) && largest_stall(s, "long_scoreboard") && in_flight(s, &v[1], &v[2]) &&
	    v[2] >= DIAG_IN_FLIGHT_TIMES && stall(s, "long_scoreboard", &v[3]);
}

static bool narrow_loads(const struct step_result *s, double *v)
{
	return pct_of(s, ROOF_DRAM, &v[0]) && largest_stall(s, "long_scoreboard") &&
	    stall(s, "long_scoreboard", &v[1]) && in_flight(s, &v[2], &v[3]) && v[3] < DIAG_IN_FLIGHT_TIMES;
}

static bool memory_queue(const struct step_result *s, double *v)
{
	return pct_of(s, ROOF_DRAM, &v[0]) && stall(s, "lg_throttle", &v[1]) && v[1] >= DIAG_QUEUE_PCT;
}

static bool fp32_global(const struct step_result *s, double *v)
{
	double ld;

	return pct_of(s, ROOF_FP32, &v[0]) &&
	    results_counter(s, "smsp__sass_inst_executed_op_shared_ld.sum", &ld) && ld == 0;
}

/* Shared loads per FFMA, both counted per warp: the FLOPs the step must do over 2 x 32. */
static bool fp32_shared_loads(const struct step_result *s, double *v)
{
	double ld, ffma = s->roof.gflops * s->median_ms * 1e6 / 64;

	if (!pct_of(s, ROOF_FP32, &v[0]) || ffma <= 0 ||
	    !results_counter(s, "smsp__sass_inst_executed_op_shared_ld.sum", &ld))
		return false;
	v[1] = ld / ffma;
	return v[1] >= DIAG_SHARED_PER_FFMA;
}

/* An FP32 step held to the shared-memory roof (results_derive): its shared loads set its pace. */
static bool shared_bound(const struct step_result *s, double *v)
{
	double ld, ffma = s->gflops * s->median_ms * 1e6 / 64;

	if (!pct_of(s, ROOF_SHARED, &v[0]) || ffma <= 0 || s->roof.gflops <= 0 ||
	    !results_counter(s, "smsp__sass_inst_executed_op_shared_ld.sum", &ld))
		return false;
	v[1] = ld / ffma;
	return true;
}

/* Ready warps that wait for their turn: issue slots, not latency, are short. */
static bool fp32_issue(const struct step_result *s, double *v)
{
	return pct_of(s, ROOF_FP32, &v[0]) && stall(s, "not_selected", &v[1]) && v[1] >= DIAG_NOT_SELECTED_PCT;
}

static bool low_occupancy(const struct step_result *s, double *v)
{
	v[1] = s->registers;
	return results_counter(s, "sm__warps_active.avg.pct_of_peak_sustained_active", &v[0]) && v[0] < DIAG_OCCUPANCY_PCT &&
	    s->registers >= DIAG_OCCUPANCY_REGISTERS;
}

static bool dram_below(const struct step_result *s, double *v)
{
	return s->metrics.collected && pct_of(s, ROOF_DRAM, &v[0]);
}

static bool fp32_below(const struct step_result *s, double *v)
{
	return s->metrics.collected && pct_of(s, ROOF_FP32, &v[0]);
}

/*
 * The step's line with most samples among its WARPGROUP.DEPBAR waits
 * (record --stalls), its share in v[1]: a warpgroup waiting for its own
 * wgmma, which ncu counts as a barrier stall.  NULL when it has none.
 */
static const struct stall_line *wgmma_wait(const struct step_result *s, double *v)
{
	const struct stall_profile *p = &s->metrics.stalls;

	for (int k = 0; p->have && k < p->nlines; k++)
		if (strstr(p->lines[k].sass, "WARPGROUP.DEPBAR") != NULL) {
			v[1] = metrics_stall_pct(p, &p->lines[k]);
			return v[1] >= DIAG_WGMMA_WAIT_PCT ? &p->lines[k] : NULL;
		}
	return NULL;
}

/* "WARPGROUP.DEPBAR.LE gsb0, 0x0": no wgmma left in flight, the warpgroup drains every one. */
static bool drains_every_wgmma(const struct stall_line *l)
{
	size_t n = strlen(l->sass);

	return n >= 5 && strcmp(l->sass + n - 5, ", 0x0") == 0;
}

static bool wgmma_drained(const struct step_result *s, double *v)
{
	const struct stall_line *l;

	return pct_of(s, ROOF_TENSOR, &v[0]) && (l = wgmma_wait(s, v)) != NULL && drains_every_wgmma(l);
}

/*
 * The samples that wait on the tensor cores, in v[1] as a share of the
 * working warps' samples: at the step's top WARPGROUP.DEPBAR line, when
 * it leaves a wgmma in flight, and at HGMMA (for a tensor core free to
 * take the next).  The working warps are all but those at the cluster's
 * barrier (UCGABAR_WAIT), where a producer's idle warps wait the kernel
 * out: three warps of twelve, a quarter of the samples, in no loop.
 */
static bool wgmma_in_flight(const struct step_result *s, double *v)
{
	const struct stall_profile *p = &s->metrics.stalls;
	const struct stall_line *wait = NULL;
	double tensor = 0, working = (double)p->samples;

	if (!pct_of(s, ROOF_TENSOR, &v[0]) || !p->have)
		return false;
	for (int k = 0; k < p->nlines; k++)
		if (metrics_stall_is(&p->lines[k], "UCGABAR_WAIT"))
			working -= p->lines[k].samples;
		else if (metrics_stall_is(&p->lines[k], "HGMMA"))
			tensor += p->lines[k].samples;
		else if (wait == NULL && metrics_stall_is(&p->lines[k], "WARPGROUP.DEPBAR"))
			wait = &p->lines[k];
	if (wait == NULL || drains_every_wgmma(wait) || working <= 0)
		return false;
	v[1] = 100 * (tensor + wait->samples) / working;
	return v[1] >= DIAG_WGMMA_WAIT_PCT;
}

/*
 * The step's line with most samples, its share in v[1], where ncu's
 * main reason for it is `reason` and it holds DIAG_WGMMA_WAIT_PCT of the
 * samples or more; else NULL.
 */
static const struct stall_line *top_line(const struct step_result *s, const char *reason, double *v)
{
	const struct stall_profile *p = &s->metrics.stalls;

	if (!p->have || p->nlines == 0 || p->lines[0].nreasons == 0 || strcmp(p->lines[0].reasons[0].name, reason) != 0)
		return NULL;
	v[1] = metrics_stall_pct(p, &p->lines[0]);
	return v[1] >= DIAG_WGMMA_WAIT_PCT ? &p->lines[0] : NULL;
}

/*
 * Most samples on the long scoreboard at one line, in a kernel that runs
 * no global load: the branch after SYNCS.PHASECHK, waiting for an
 * mbarrier that the TMA's copies complete.
 */
static bool mbarrier_wait(const struct step_result *s, double *v)
{
	return pct_of(s, ROOF_TENSOR, &v[0]) && metrics_no_global_loads(&s->metrics) && top_line(s, "long_sb", v) != NULL;
}

/* Most samples at a barrier of the whole block or cluster (BAR.SYNC, UCGABAR), not at a warpgroup's wgmma wait. */
static bool block_barrier(const struct step_result *s, double *v)
{
	const struct stall_line *l;

	return pct_of(s, ROOF_TENSOR, &v[0]) && (l = top_line(s, "barrier", v)) != NULL &&
	    strstr(l->sass, "WARPGROUP.DEPBAR") == NULL;
}

/*
 * A tensor step's counters, read as what feeds the tensor cores (each
 * after the samples' rules, which say which line waits where they were
 * recorded).  Operands straight from global memory: most of the time
 * waiting for LDG.
 */
static bool tensor_global(const struct step_result *s, double *v)
{
	return pct_of(s, ROOF_TENSOR, &v[0]) && stall(s, "long_scoreboard", &v[1]) &&
	    v[1] >= DIAG_TENSOR_GLOBAL_WAIT_PCT;
}

/* Waiting longest for global memory, tiles or not: a load, or an asynchronous copy's mbarrier. */
static bool tensor_copies_behind(const struct step_result *s, double *v)
{
	return pct_of(s, ROOF_TENSOR, &v[0]) && largest_stall(s, "long_scoreboard") &&
	    stall(s, "long_scoreboard", &v[1]);
}

/* Waiting on shared memory: ldmatrix's results (short scoreboard) and its full queue (MIO throttle). */
static bool tensor_fragments(const struct step_result *s, double *v)
{
	double queue;

	if (!pct_of(s, ROOF_TENSOR, &v[0]) || !stall(s, "short_scoreboard", &v[1]) || !stall(s, "mio_throttle", &queue))
		return false;
	v[1] += queue;
	return v[1] >= DIAG_TENSOR_SHARED_WAIT_PCT;
}

/* Barrier stalls the largest, and no samples to say whether __syncthreads() or WARPGROUP.DEPBAR. */
static bool tensor_barrier(const struct step_result *s, double *v)
{
	return pct_of(s, ROOF_TENSOR, &v[0]) && !s->metrics.stalls.have && largest_stall(s, "barrier") &&
	    stall(s, "barrier", &v[1]);
}

/* Below the tensor roof, with or without counters: the tensor cores wait for their operands. */
static bool tensor_below(const struct step_result *s, double *v)
{
	return pct_of(s, ROOF_TENSOR, &v[0]);
}

static bool roof_only_dram(const struct step_result *s, double *v)
{
	return !s->metrics.collected && pct_of(s, ROOF_DRAM, &v[0]);
}

static bool roof_only_fp32(const struct step_result *s, double *v)
{
	return !s->metrics.collected && pct_of(s, ROOF_FP32, &v[0]);
}

static bool roof_only_shared(const struct step_result *s, double *v)
{
	return !s->metrics.collected && pct_of(s, ROOF_SHARED, &v[0]);
}

/* In order: the first that matches wins.  doc/roofs.md lists them; tests/unit/test_diagnosis.c checks each. */
const struct diagnosis_rule diagnosis_rules[] = {
	{ "roof_exceeded", exceeded,
	  N_("faster than its roof allows: a measurement error, not a result (part of the output may "
	     "still be in L2 when the timing ends)"), false, NULL, false, { 0 }, false },
	{ "dram_roof", dram_roof,
	  N_("at %.1f%% of the DRAM roof: nothing is left but moving fewer bytes (smaller types, "
	     "fused kernels)"), false, "vectorize", .at_roof = true, .thresholds = { DIAG_AT_ROOF_PCT }, .dram = true },
	{ "fp32_roof", fp32_roof,
	  N_("at %.1f%% of the FP32 roof: nothing is left but fewer operations, or tensor cores"),
	  false, NULL, .at_roof = true, .thresholds = { DIAG_AT_ROOF_PCT } },
	{ "tensor_roof", tensor_roof,
	  N_("at %.1f%% of the BF16 tensor roof: nothing is left but fewer operations or a narrower "
	     "type"), false, NULL, .at_roof = true, .thresholds = { DIAG_AT_ROOF_PCT } },
	{ "library", library,
	  N_("the library's own kernels, at %.1f%% of the roof: the mark for the steps above"),
	  false, NULL, false, { 0 }, false },
	/*
	 * Before the counters' rules: those read a tensor step's idle producer warps as
	 * divergence, its copies without LDG as uncoalesced loads, its tiles' registers as
	 * low occupancy; the lesson says what holds each step back.
	 */
	/* with samples at each line: ncu's "barrier" at WARPGROUP.DEPBAR is the wgmma's wait, not __syncthreads */
	{ "wgmma_drained", wgmma_drained,
	  N_("at %.1f%% of the BF16 tensor roof, %.0f%% of the warps' samples wait at WARPGROUP.DEPBAR for "
	     "their own wgmma, drained every stage: keep one wgmma group in flight (wgmma.wait_group 1), or "
	     "more warpgroups on each SM (tensor-cores lesson)"), false, "tensor-cores", .thresholds = { DIAG_WGMMA_WAIT_PCT } },
	{ "wgmma_in_flight", wgmma_in_flight,
	  N_("at %.1f%% of the BF16 tensor roof, %.0f%% of the working warps' samples wait on the tensor "
	     "cores, at WARPGROUP.DEPBAR with a wgmma still in flight or to issue the next HGMMA: the tensor "
	     "cores themselves set this loop's pace, not a barrier or the copies (tensor-cores lesson)"), false,
	  "tensor-cores", .thresholds = { DIAG_WGMMA_WAIT_PCT } },
	{ "mbarrier_wait", mbarrier_wait,
	  N_("at %.1f%% of the BF16 tensor roof, %.0f%% of the warps' samples wait at one line for an "
	     "mbarrier (SYNCS.PHASECHK), in a kernel that loads nothing itself: the TMA's copies land after "
	     "the math needs them; issue them sooner, from a producer that waits for no consumer "
	     "(tensor-cores lesson)"), false, "tensor-cores", .thresholds = { DIAG_WGMMA_WAIT_PCT } },
	{ "block_barrier", block_barrier,
	  N_("at %.1f%% of the BF16 tensor roof, %.0f%% of the warps' samples wait at a barrier of the whole "
	     "block or cluster, not at a wgmma: warps with no part in the loop (a producer's idle warps) wait "
	     "there too; --sass --stalls shows the lines after it (tensor-cores lesson)"), false,
	  "tensor-cores", .thresholds = { DIAG_WGMMA_WAIT_PCT } },
	{ "tensor_global", tensor_global,
	  N_("at %.1f%% of the BF16 tensor roof, the warps wait for global memory %.0f%% of their time: "
	     "every fragment is loaded from global memory, again for each tile that needs it; stage the "
	     "tiles in shared memory (tensor-cores lesson)"), false, "tensor-cores",
	  .thresholds = { DIAG_TENSOR_GLOBAL_WAIT_PCT } },
	{ "tensor_copies_behind", tensor_copies_behind,
	  N_("at %.1f%% of the BF16 tensor roof, the warps wait %.0f%% of their time for data from global "
	     "memory (a load, or the mbarrier of an asynchronous copy): the next tiles are not on their way "
	     "while these are multiplied; copy ahead, more stages in flight (tensor-cores lesson)"), false,
	  "tensor-cores", false, { 0 }, false },
	{ "tensor_fragments", tensor_fragments,
	  N_("at %.1f%% of the BF16 tensor roof, the warps wait on shared memory %.0f%% of their time (the "
	     "results of ldmatrix, and its full queue): every mma's fragments pass through registers "
	     "first; wgmma reads its operands from shared memory itself (tensor-cores lesson)"), false,
	  "tensor-cores", .thresholds = { DIAG_TENSOR_SHARED_WAIT_PCT } },
	{ "tensor_barrier", tensor_barrier,
	  N_("at %.1f%% of the BF16 tensor roof, %.0f%% of the warps' time counts as barrier stalls: on "
	     "Hopper __syncthreads() and a warpgroup's wait for its own wgmma (WARPGROUP.DEPBAR) both count "
	     "so; record --stalls shows which line it is (tensor-cores lesson)"), false, "tensor-cores",
	  false, { 0 }, false },
	{ "tensor_below", tensor_below,
	  N_("at %.1f%% of the BF16 tensor roof: the tensor cores wait for their operands; larger "
	     "tiles, asynchronous copies, more in flight (tensor-cores lesson)"), false, "tensor-cores", false, { 0 }, false },
	{ "bank_conflicts", bank_conflicts,
	  N_("shared-memory bank conflicts: %.1f per shared load, each load taking %.1f passes; pad "
	     "or reorder the shared array (bank-conflicts lesson)"), false, "bank-conflicts",
	  .thresholds = { DIAG_CONFLICTS_PER_LOAD } },
	{ "shared_clean", shared_clean,
	  N_("at %.1f%% of the shared-memory roof, no bank conflicts: %.2f passes per shared load, as "
	     "fast as shared memory serves this access (bank-conflicts lesson)"), false, "bank-conflicts",
	  false, { 0 }, false },
	{ "many_instructions", many_instructions,
	  N_("%.1f warp instructions issued per element, with %.1f of 32 threads working in each: the "
	     "instructions around the add (an integer %% or /, index arithmetic), not idle threads, set "
	     "the pace; cheaper index arithmetic (reduction lesson)"), false, "reduction",
	  .thresholds = { DIAG_MANY_INSTRUCTIONS, DIAG_WORKING_THREADS } },
	{ "divergence", divergence,
	  N_("divergent warps: %.1f of 32 threads work in an average instruction, %.1f%% of branches "
	     "are uniform; keep the working threads together (reduction lesson)"), false, "reduction",
	  .thresholds = { DIAG_DIVERGENT_THREADS, DIAG_UNIFORM_BRANCHES_PCT } },
	{ "dependent_loads", dependent_loads,
	  N_("the warps wait for global memory %.0f%% of their time while DRAM is %.1f%% busy: one "
	     "dependent load after another from the cache; keep the value in a register (bitpack "
	     "lesson)"), false, "bitpack",
	  .thresholds = { DIAG_DEPENDENT_WAIT_PCT, DIAG_DEPENDENT_DRAM_PCT } },
	{ "strided", strided,
	  N_("uncoalesced loads: %.0f%% of each 32-byte sector moved is used, %.1f sectors per warp's "
	     "load; let neighbouring threads read neighbouring words (reduction lesson, interleaved "
	     "pairs)"), false, "reduction", .thresholds = { DIAG_STRIDED_EFFICIENCY_PCT } },
	{ "wide_loads", wide_loads,
	  N_("loads wider than 16 bytes a thread use %.0f%% of each sector they move: 16 bytes "
	     "(float4) is the widest that pays (vectorize lesson)"), false, "vectorize",
	  .thresholds = { DIAG_WIDE_BYTES, DIAG_WIDE_EFFICIENCY_PCT } },
	{ "instruction_bound", instruction_bound,
	  N_("instruction-bound, at %.1f%% of the issue roof: the warps wait for a busy math pipe or for "
	     "their turn %.0f%% of their time, for memory %.0f%%; fewer instructions per element "
	     "(unrolling lesson)"),
	  false, "unrolling", .thresholds = { DIAG_INSTRUCTION_STALLS_PCT, DIAG_INSTRUCTION_MEMORY_PCT } },
	{ "barriers", barriers,
	  N_("at %.1f%% of the DRAM roof, the warps wait at __syncthreads() %.0f%% of their time: "
	     "fewer barriers, more work per thread (unrolling lesson)"), false, "unrolling", .dram = true },
	{ "barriers_after_loads", barriers_after_loads,
	  N_("at %.1f%% of the DRAM roof with %.0f KB in flight per SM, %.1f times what Little's law asks, "
	     "yet waiting at barriers %.0f%% of the time: DRAM idles while each block adds up its loads; "
	     "fewer, longer-lived blocks, warp shuffles (unrolling lesson)"), false, "unrolling",
	  .thresholds = { DIAG_IN_FLIGHT_TIMES, DIAG_BARRIER_AFTER_LOADS_PCT }, .dram = true },
	{ "loads_enough", loads_enough,
	  N_("at %.1f%% of the DRAM roof with %.0f KB in flight per SM, %.1f times what Little's law asks, "
	     "waiting for it %.0f%% of the time: DRAM sets the pace; more or wider loads will not help, "
	     "fewer bytes would (vectorize lesson)"), false, "vectorize",
	  .thresholds = { DIAG_IN_FLIGHT_TIMES }, .dram = true },
	{ "narrow_loads", narrow_loads,
	  N_("at %.1f%% of the DRAM roof, waiting for global memory %.0f%% of the time with %.0f KB in "
	     "flight per SM, %.1f times what Little's law asks: too few; wider loads, or more independent "
	     "loads per thread (vectorize lesson)"),
	  false, "vectorize", .thresholds = { DIAG_IN_FLIGHT_TIMES }, .dram = true },
	{ "memory_queue", memory_queue,
	  N_("at %.1f%% of the DRAM roof, the global-memory queue is full %.0f%% of the warps' time: "
	     "fewer memory instructions, no spills to local memory (occupancy lesson)"), false,
	  "occupancy", .thresholds = { DIAG_QUEUE_PCT }, .dram = true },
	{ "fp32_global", fp32_global,
	  N_("at %.1f%% of the FP32 roof, every operand is read from global memory: stage tiles in "
	     "shared memory (shared-memory lesson)"), false, "shared-memory", false, { 0 }, false },
	{ "fp32_shared_loads", fp32_shared_loads,
	  N_("at %.1f%% of the FP32 roof with %.2f shared loads per FFMA: keep more of the tile in "
	     "registers (register-tiling lesson)"), false, "register-tiling",
	  .thresholds = { DIAG_SHARED_PER_FFMA } },
	{ "shared_bound", shared_bound,
	  N_("at %.1f%% of the shared-memory roof with %.2f shared loads per FFMA: shared memory, not the "
	     "FP32 lanes, sets the pace; keep more of the tile in registers (register-tiling lesson)"),
	  false, "register-tiling", false, { 0 }, false },
	{ "fp32_issue", fp32_issue,
	  N_("at %.1f%% of the FP32 roof, ready warps wait for their turn %.0f%% of their time: the "
	     "loads and address arithmetic between the FFMAs take the issue slots; more FFMAs per "
	     "load (register-tiling lesson)"), false, "register-tiling",
	  .thresholds = { DIAG_NOT_SELECTED_PCT } },
	{ "low_occupancy", low_occupancy,
	  N_("only %.0f%% of the warps a multiprocessor holds are resident (%.0f registers a "
	     "thread): fewer registers or smaller blocks (occupancy lesson)"), false, "occupancy",
	  .thresholds = { DIAG_OCCUPANCY_PCT, DIAG_OCCUPANCY_REGISTERS } },
	{ "dram_below", dram_below,
	  N_("at %.1f%% of the DRAM roof: too little work per thread to hide memory's latency; more "
	     "elements per thread (unrolling lesson)"), false, "unrolling", .dram = true },
	{ "fp32_below", fp32_below,
	  N_("at %.1f%% of the FP32 roof: more FFMAs per byte loaded (register-tiling lesson)"),
	  false, "register-tiling", false, { 0 }, false },
	{ "roof_only_dram", roof_only_dram,
	  N_("at %.1f%% of the DRAM roof; its counters would say why: cudatutor metrics %s"), true,
	  NULL, .dram = true },
	{ "roof_only_fp32", roof_only_fp32,
	  N_("at %.1f%% of the FP32 roof; its counters would say why: cudatutor metrics %s"), true,
	  NULL, false, { 0 }, false },
	{ "roof_only_shared", roof_only_shared,
	  N_("at %.1f%% of the shared-memory roof; its counters would say why: cudatutor metrics %s"), true,
	  NULL, false, { 0 }, false },
};
const int diagnosis_nrules = (int)(sizeof diagnosis_rules / sizeof diagnosis_rules[0]);

int diagnosis_faster_twin(const struct run_report *r, int i)
{
	const struct step_result *s = &r->steps[i];
	const struct kernel_def *ks = registry_find(s->kernel);
	double bytes = s->gbps * s->median_ms, flops = s->gflops * s->median_ms;
	int best = -1;

	if (ks == NULL || !s->ran || s->median_ms <= 0)
		return -1;
	for (int j = 0; j < r->nsteps; j++) {
		const struct step_result *t = &r->steps[j];
		const struct kernel_def *kt = registry_find(t->kernel);

		/* the same work: the same experiment, and the same bytes and FLOPs to within 1% */
		if (j == i || kt == NULL || !t->ran || !t->correct || t->median_ms <= 0 ||
		    kt->experiment != ks->experiment || fabs(t->gbps * t->median_ms - bytes) > 0.01 * bytes ||
		    fabs(t->gflops * t->median_ms - flops) > 0.01 * flops)
			continue;
		if (t->median_ms * DIAGNOSIS_BEATEN <= s->median_ms &&
		    (best < 0 || t->median_ms < r->steps[best].median_ms))
			best = j;
	}
	return best;
}

#define TR(translate, s) ((translate) ? _(s) : (s))

void diagnosis_headroom(const struct run_report *r, int i, bool translate, struct headroom *h)
{
	const struct step_result *s = &r->steps[i];
	char (*said)[256] = h->said, a[32], b[32];
	double read, written, blocks;
	int twin;

	memset(h, 0, sizeof *h);
	h->faster_step = -1;
	if (!s->ran || s->median_ms <= 0)
		return;
	h->ideal_bytes = s->gbps * s->median_ms * 1e6;
	if (h->ideal_bytes > 0 && results_counter(s, "dram__bytes_read.sum", &read) &&
	    results_counter(s, "dram__bytes_write.sum", &written)) {
		h->moved_bytes = read + written;
		snprintf(said[HEADROOM_TRAFFIC], sizeof said[0],
		    /* TRANSLATORS: "DRAM moved 1.3 GiB, 21.3× the 64.0 MiB its work needs" */
		    TR(translate, N_("DRAM moved %s in the counters' launch, %.2f× the %s its work needs")),
		    format_bytes(h->moved_bytes, a, sizeof a), h->moved_bytes / h->ideal_bytes,
		    format_bytes(h->ideal_bytes, b, sizeof b));
	}
	twin = diagnosis_faster_twin(r, i);
	if (twin >= 0) {
		h->faster_step = r->steps[twin].step;
		h->faster_times = s->median_ms / r->steps[twin].median_ms;
	}
	/* a faster library step is said once, in its own line */
	if (twin >= 0 && !(r->steps[twin].library && s->pct_library > 0))
		snprintf(said[HEADROOM_FASTER], sizeof said[0], TR(translate, N_("Step %d (%s) does the same work %.2f× faster")),
		    r->steps[twin].step, r->steps[twin].kernel, h->faster_times);
	else if (twin < 0 && !s->library)
		snprintf(said[HEADROOM_FASTER], sizeof said[0],
		    TR(translate, N_("No step of this run does the same work %.0f%% faster")), 100 * (DIAGNOSIS_BEATEN - 1));
	if (!s->library && s->pct_library > 0) {
		h->library_times = 100 / s->pct_library;
		snprintf(said[HEADROOM_LIBRARY], sizeof said[0], h->library_times >= 1 ?
		    TR(translate, N_("The lesson's library step does the same work %.2f× faster")) :
		    TR(translate, N_("%.2f× as fast as the lesson's library step")),
		    h->library_times >= 1 ? h->library_times : 1 / h->library_times);
	}
	blocks = (double)s->blocks_per_sm * r->gpu.sm_count;
	if (s->grid > 0 && blocks > 0) {
		h->waves_n = s->grid / blocks;
		snprintf(said[HEADROOM_WAVES], sizeof said[0],
		    TR(translate, N_("%.2f waves: a grid of %u blocks, %d at a time on each of %d SMs")), h->waves_n, s->grid,
		    s->blocks_per_sm, r->gpu.sm_count);
	}
	if (s->occupancy_pct > 0 && results_counter(s, "sm__warps_active.avg.pct_of_peak_sustained_active",
	    &h->achieved_pct))
		snprintf(said[HEADROOM_OCCUPANCY], sizeof said[0],
		    TR(translate, N_("Occupancy achieved %.1f%% of the %.1f%% the launch allows")), h->achieved_pct,
		    s->occupancy_pct);
}

/* The first rule that matches, the at-roof rules left out where beaten. */
static bool first_match(const struct step_result *s, bool beaten, struct diagnosis *d)
{
	memset(d, 0, sizeof *d);
	if (!s->ran)
		return false;
	for (int i = 0; i < diagnosis_nrules; i++) {
		double v[4] = { 0, 0, 0, 0 };

		if (beaten && diagnosis_rules[i].at_roof)
			continue;
		if (diagnosis_rules[i].match(s, v)) {
			d->rule = &diagnosis_rules[i];
			memcpy(d->v, v, sizeof v);
			d->caveat = d->rule->dram && results_dram_caveat(s) ? s : NULL;
			return true;
		}
	}
	return false;
}

bool diagnose(const struct step_result *s, struct diagnosis *d)
{
	return first_match(s, false, d);
}

bool diagnose_in_run(const struct run_report *r, int i, struct diagnosis *d)
{
	return first_match(&r->steps[i], diagnosis_faster_twin(r, i) >= 0, d);
}

/* "2^28" for a power of two, else the number */
static void size_text(unsigned long long n, char *buf, size_t len)
{
	int e = 0;

	while (e < 63 && (1ull << e) < n)
		e++;
	if ((1ull << e) == n)
		snprintf(buf, len, "2^%d", e);
	else
		snprintf(buf, len, "%llu", n);
}

/*
 * After the sentence, why its place under DRAM's roof is to be read with
 * care (L2-sized data, a short run), and the same kernel at a larger size.
 */
static void add_caveat(const struct step_result *s, bool translate, char *buf, size_t len)
{
	size_t n = strlen(buf);
	char size[32];
	const char *fmt;

	if (s->l2_sized) {
		/* GB/s x ms: MB */
		fmt = N_(". Its %.0f MiB fit within twice the %.0f MiB L2: part of its output is still in L2 "
		    "when its time is taken");
		snprintf(buf + n, len - n, translate ? _(fmt) : fmt, s->gbps * s->median_ms * 1e6 / 1048576,
		    s->l2_bytes / 1048576.0);
	} else {
		fmt = N_(". It runs %.1f µs, of which launching it is a large part");
		snprintf(buf + n, len - n, translate ? _(fmt) : fmt, s->median_ms * 1e3);
	}
	n = strlen(buf);
	if (s->large_size > 0) {
		size_text(s->large_size, size, sizeof size);
		fmt = N_("; at %s the same kernel is at %.1f%% of its roof");
		snprintf(buf + n, len - n, translate ? _(fmt) : fmt, size, s->large_pct);
		n = strlen(buf);
	}
	/* TRANSLATORS: the end of the sentence the two above begin: a full stop */
	fmt = N_(".");
	snprintf(buf + n, len - n, "%s", translate ? _(fmt) : fmt);
}

const char *diagnosis_text(const struct diagnosis *d, const char *lesson, bool translate, char *buf,
    size_t len)
{
	const char *fmt;

	buf[0] = '\0';
	if (d->rule == NULL)
		return buf;
	fmt = translate ? _(d->rule->text) : d->rule->text;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	if (d->rule->names_lesson)
		snprintf(buf, len, fmt, d->v[0], lesson != NULL ? lesson : "LESSON");
	else
		snprintf(buf, len, fmt, d->v[0], d->v[1], d->v[2], d->v[3]);
#pragma GCC diagnostic pop
	if (d->caveat != NULL)
		add_caveat(d->caveat, translate, buf, len);
	return buf;
}

void diagnosis_add_to_json(json_t *report, const struct run_report *r)
{
	json_t *steps = json_object_get(report, "steps");

	for (int i = 0; i < r->nsteps && i < (int)json_array_size(steps); i++) {
		struct diagnosis d;
		char text[1024];
		json_t *o = json_null();

		if (diagnose_in_run(r, i, &d))
			o = json_pack("{s:s, s:s?, s:s}", "rule", d.rule->id, "lesson", d.rule->lesson,
			    "text", diagnosis_text(&d, r->lesson, false, text, sizeof text));
		json_object_set_new(json_array_get(steps, i), "diagnosis", o);
	}
}

const struct diagnosis_rule *diagnosis_rule_find(const char *id)
{
	for (int i = 0; i < diagnosis_nrules; i++)
		if (strcmp(diagnosis_rules[i].id, id) == 0)
			return &diagnosis_rules[i];
	return NULL;
}

/* A step in one sentence: what holds it back, and which lesson attacks that. */
#ifndef CUDATUTOR_DIAGNOSIS_H
#define CUDATUTOR_DIAGNOSIS_H

#include <stdbool.h>
#include <stddef.h>

#include "results.h"

/*
 * From a step's place against the roofs (results_derive) and its hardware
 * counters when they were read: the rules of diagnosis_rules, in order,
 * the first that matches wins.  Each rule's sentence quotes the figures
 * it is based on, formatted from the step's own data: never a made-up
 * number.  No roofs and no counters: no diagnosis.
 */
struct diagnosis_rule {
	const char *id;			/* "bank_conflicts": for JSON and the tests */
	/* true when the step matches; v[0..3] the figures the sentence quotes */
	bool (*match)(const struct step_result *s, double *v);
	/*
	 * N_(): a printf format of v[0] to v[3] (doubles); where
	 * names_lesson, of v[0] and then the lesson's name (a string).
	 */
	const char *text;
	bool names_lesson;
	const char *lesson;		/* the lesson whose technique attacks it; NULL: none */
	/*
	 * "At the roof, nothing is left": not said of a step when another
	 * step of its run does the same work measurably faster (see
	 * diagnose_in_run).
	 */
	bool at_roof;
	/* its thresholds, as doc/roofs.md quotes them (0 after the last) */
	double thresholds[4];
	/*
	 * Its verdict rests on the step's share of the DRAM roof: where that
	 * share is to be read with care (results_dram_caveat), the sentence
	 * says why.
	 */
	bool dram;
};

/*
 * The rules' thresholds, each in one place: doc/roofs.md quotes them (a
 * test holds the two together), and tests/unit/test_diagnosis.c tries
 * each rule at its threshold and just past it.
 */
#define DIAG_AT_ROOF_PCT 85.0		/* dram_roof, fp32_roof, tensor_roof: at least */
#define DIAG_CONFLICTS_PER_LOAD 1.0	/* bank_conflicts: at least */
#define DIAG_MANY_INSTRUCTIONS 8.0	/* many_instructions: warp instructions per operation, at least */
#define DIAG_WORKING_THREADS 24.0	/* many_instructions: of 32 threads working, at least */
#define DIAG_DIVERGENT_THREADS 30.0	/* divergence: threads working, under */
#define DIAG_UNIFORM_BRANCHES_PCT 90.0	/* divergence: uniform branches, under */
#define DIAG_DEPENDENT_WAIT_PCT 50.0	/* dependent_loads: long scoreboard, at least */
#define DIAG_DEPENDENT_DRAM_PCT 10.0	/* dependent_loads: DRAM busy, under */
#define DIAG_STRIDED_EFFICIENCY_PCT 40.0	/* strided: bytes used per sector, under */
#define DIAG_WIDE_BYTES 16.0		/* wide_loads: bytes a thread per load, at least */
/*
 * narrow_loads under, loads_enough and barriers_after_loads at least:
 * bytes in flight per multiprocessor over what Little's law asks with the
 * unloaded latency (a load takes longer under load).  Measured: the
 * recorded vector adds at 2^24 gain 6-21% from 16 KB in flight to 32 KB
 * (2.1 and 1.5 times the law on the H100 and the H200, to 4.2 and 3.1),
 * and at most 3% beyond.
 */
#define DIAG_IN_FLIGHT_TIMES 3.0
#define DIAG_BARRIER_AFTER_LOADS_PCT 15.0	/* barriers_after_loads: barrier stalls, at least */
#define DIAG_WIDE_EFFICIENCY_PCT 60.0	/* wide_loads: bytes used per sector, under */
#define DIAG_INSTRUCTION_STALLS_PCT 50.0	/* instruction_bound: math pipe + not selected, at least */
#define DIAG_INSTRUCTION_MEMORY_PCT 20.0	/* instruction_bound: long scoreboard, under */
#define DIAG_QUEUE_PCT 30.0		/* memory_queue: lg_throttle, at least */
#define DIAG_SHARED_PER_FFMA 0.1	/* fp32_shared_loads: at least */
#define DIAG_NOT_SELECTED_PCT 20.0	/* fp32_issue: at least */
#define DIAG_OCCUPANCY_PCT 40.0		/* low_occupancy: achieved, under */
#define DIAG_OCCUPANCY_REGISTERS 64	/* low_occupancy: registers a thread, at least */
#define DIAG_WGMMA_WAIT_PCT 25.0	/* wgmma_drained, wgmma_in_flight: samples at WARPGROUP.DEPBAR, at least */
#define DIAG_TENSOR_GLOBAL_WAIT_PCT 50.0	/* tensor_global: long scoreboard, at least */
#define DIAG_TENSOR_SHARED_WAIT_PCT 25.0	/* tensor_fragments: short scoreboard + MIO throttle, at least */

/*
 * A step of the same work (the same experiment, bytes and FLOPs) that
 * takes at most 1/DIAGNOSIS_BEATEN of the time shows a step's roof is not
 * what holds it back: 5%, past the noise of two medians of one run.
 */
#define DIAGNOSIS_BEATEN 1.05

extern const struct diagnosis_rule diagnosis_rules[];
extern const int diagnosis_nrules;

struct diagnosis {
	const struct diagnosis_rule *rule;	/* NULL: none */
	double v[4];
	/*
	 * A step under the DRAM roof whose time says less of DRAM than its
	 * percentage suggests (results_dram_caveat): the sentence says why,
	 * and where the same kernel stands at a larger size.
	 */
	const struct step_result *caveat;
};

/* The first rule s matches into d: true, or false (d->rule NULL) where none does. */
bool diagnose(const struct step_result *s, struct diagnosis *d);

/*
 * Step i of run r, as diagnose does, but with the run beside it: where
 * another step does the same work at least DIAGNOSIS_BEATEN times faster,
 * the rules that say the step is at its roof do not match, and the next
 * rule says what does hold it back.
 */
bool diagnose_in_run(const struct run_report *r, int i, struct diagnosis *d);

/* The fastest other step of r that does step i's work DIAGNOSIS_BEATEN times faster, or -1. */
int diagnosis_faster_twin(const struct run_report *r, int i);

/*
 * What could be gained by step i of run r, from measurements alone (its
 * time, its counters, the run's other steps; never a model), each a
 * sentence or "" where its figures are unknown:
 *   traffic   the bytes DRAM moved in the counters' launch against the
 *             least its work needs ("21.3x the ideal": the naive SGEMM);
 *   faster    the run's fastest step of the same work, where one is
 *             DIAGNOSIS_BEATEN times faster, or that none is;
 *   library   how much faster the lesson's library step is;
 *   waves     the grid over the blocks the GPU holds at once;
 *   occupancy achieved against what the launch allows.
 * Translated where translate (English for JSON).
 */
enum headroom_said { HEADROOM_FASTER, HEADROOM_LIBRARY, HEADROOM_TRAFFIC, HEADROOM_WAVES, HEADROOM_OCCUPANCY,
	HEADROOM_SAID };
struct headroom {
	/* the sentences, in the order they are shown; "" where unknown */
	char said[HEADROOM_SAID][256];
	/* the figures, for JSON: 0 (or -1 for faster_step) where unknown */
	double moved_bytes, ideal_bytes, faster_times, library_times, waves_n, achieved_pct;
	int faster_step;
};
void diagnosis_headroom(const struct run_report *r, int i, bool translate, struct headroom *h);

/*
 * The sentence, translated where translate (English for JSON); lesson is
 * the step's lesson, named where the rule sends the reader to its
 * counters.  Returns buf ("" without a rule).
 */
const char *diagnosis_text(const struct diagnosis *d, const char *lesson, bool translate, char *buf,
    size_t len);

/*
 * Each step of report (the JSON of r, as results_report_to_json makes it)
 * given its "diagnosis": {"rule", "lesson", "text"} in English, or null.
 * Only what is shown: the recorded files keep none, as the rules may change.
 */
void diagnosis_add_to_json(json_t *report, const struct run_report *r);

/*
 * Whether s's counters show its instructions set its pace: the warps
 * wait for a busy math pipe or for their turn (busy) 50% of their time
 * or more, for global memory (memory) under 20%.  results_derive holds
 * such a step to the issue roof, and the rule instruction_bound names it.
 */
bool diagnosis_instruction_bound(const struct step_result *s, double *busy, double *memory);

/* The rule of this id, or NULL. */
const struct diagnosis_rule *diagnosis_rule_find(const char *id);

#endif

/* Running a lesson's steps on the GPU into a run report: one path for every view. */
#ifndef CUDATUTOR_RUNNER_H
#define CUDATUTOR_RUNNER_H

#include "lesson.h"
#include "measure.h"
#include "results.h"

/*
 * What a lesson runs at when no --size or --block is given: the defaults
 * of its steps' experiments (every step of a lesson agrees on them), else
 * RESULTS_DEFAULT_SIZE and RESULTS_DEFAULT_BLOCK.
 */
unsigned long long runner_default_size(const struct lesson *l);
unsigned int runner_default_block(const struct lesson *l);
/* The most the lesson's every step takes (the smallest max_size). */
unsigned long long runner_max_size(const struct lesson *l);

/* The live GPU as results describe it. */
void runner_gpu_desc(struct gpu_desc *g);

/*
 * Start a live report for lesson l: the GPU, its copy bandwidth, one empty
 * step per lesson step.  -1 if there is no GPU (e says why).
 */
int runner_begin(struct run_report *r, const struct lesson *l, unsigned long long size,
    unsigned int block, struct error *e);

/*
 * Run step i into r->steps[i] and derive the figures again.  A step that
 * cannot run (bad block size, too large, a kernel fault) is kept with
 * ran = false and its error; the others go on.  Returns 0 if it ran.
 */
int runner_step(struct run_report *r, const struct lesson *l, int i, const struct measure_options *o);

/*
 * -1 (and e names the step) if a step of l cannot run at this size and
 * block: a block it does not take, more elements than it takes, more
 * memory than the GPU has free.  Checked before running any step.
 */
int runner_check_fits(const struct lesson *l, unsigned long long size, unsigned int block,
    struct error *e);

/* One measurement of kernel k, in a child process when isolation is on. */
int runner_measure(const struct kernel_def *k, const struct step_params *p,
    const struct measure_options *o, struct measurement *m, struct error *e);

/* This GPU's copy bandwidth: from the cache, or measured (refresh: always measured). */
int runner_copy_bandwidth(bool refresh, double *gbps, struct error *e);

/* Every step in turn, with each result passed to done() as it lands. */
void runner_all(struct run_report *r, const struct lesson *l, const struct measure_options *o,
    void (*done)(void *ctx, const struct run_report *r, int i), void *ctx);

#endif

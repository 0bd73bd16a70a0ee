/* The batch view of hardware counters: per lesson, per step, and what each one means. */
#ifndef CUDATUTOR_CLI_METRICS_H
#define CUDATUTOR_CLI_METRICS_H

#include <stdio.h>

#include "cli.h"
#include "lesson.h"
#include "results.h"

/*
 * The counters of r's steps: with step < 0 a table of every step (the
 * metrics that have a column), else every counter of r->steps[step].
 * Steps without counters show their metrics.note, or why not.
 */
void cli_metrics_print(FILE *out, const struct run_report *r, const struct lesson *l, int step,
    enum cli_format f);

/* The progress line of a counter reading: step i (0-based) of n, its kernel (see cli_progress_clear). */
void cli_metrics_progress(FILE *out, int i, int n, const char *kernel);

enum cli_explain_format { EXPLAIN_TEXT, EXPLAIN_JSON, EXPLAIN_MARKDOWN };

/* The metrics shown, with their Nsight Compute and nvprof names (doc/metrics.md holds the Markdown). */
void cli_metrics_explain(FILE *out, enum cli_explain_format f);

#endif

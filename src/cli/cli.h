/* The batch view: lessons, results and kernel code as text, JSON or CSV. */
#ifndef CUDATUTOR_CLI_H
#define CUDATUTOR_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "banks.h"
#include "compare.h"
#include "inspect.h"
#include "lesson.h"
#include "results.h"
#include "sass.h"

enum cli_format { FORMAT_TEXT, FORMAT_JSON, FORMAT_CSV };

/* Parse "text", "json", "csv"; -1 otherwise. */
int cli_parse_format(const char *s, enum cli_format *f);

/* A results table like the reference texts' summary tables, GPU on top. */
void cli_print_report(FILE *out, const struct run_report *r, const struct lesson *l,
    enum cli_format f);
/* Several lessons' reports: tables one after another, one JSON array, one CSV header. */
void cli_print_reports(FILE *out, const struct run_report *r, const struct lesson *const *l, int n,
    enum cli_format f);

/*
 * Two runs of one lesson side by side: each step's time on both GPUs and
 * how many times faster the second ran it, beside the ratio of their
 * copy bandwidths (what a memory-bound step follows).
 */
void cli_print_comparison(FILE *out, const struct run_report *a, const struct run_report *b,
    const struct lesson *l, enum cli_format f);

/* The lessons and their steps; with kernels, every kernel in the registry. */
void cli_print_lessons(FILE *out, const struct lesson_set *set, enum cli_format f);
void cli_print_kernels(FILE *out, enum cli_format f);

/* Which lanes read which bank, as a table per bank (text) or per lane (JSON). */
void cli_print_banks(FILE *out, const struct banks_access *a, enum cli_format f);

/*
 * Resident blocks and warps per multiprocessor of arch for every block
 * size the kernel takes, from its resource report.  -1 and e if there is
 * no report or no occupancy rules for arch.
 */
int cli_print_occupancy(FILE *out, const struct inspect_target *t, const char *arch,
    enum cli_format f, struct error *e);

/* What ptxas reported for a kernel on arch (show --resources): text, or JSON. */
void cli_print_resources(FILE *out, const char *kernel, const char *arch,
    const struct kernel_resources *r, enum cli_format f);

/*
 * Source with its file line numbers, or SASS with the source line of each
 * instruction; with only_line > 0, just what that source line became.  -1
 * and e when there is nothing to show.
 */
int cli_print_numbered(FILE *out, const struct inspect_target *t, bool sass, const char *arch,
    int only_line, struct error *e);

/* A kernel's instruction mix, the bytes a thread's loads have in flight, and its resources (show --stats). */
void cli_print_stats(FILE *out, const char *kernel, const char *arch, const struct sass_mix *m,
    int in_flight, const struct kernel_resources *r, enum cli_format f);

/*
 * Two kernels compared: the mix side by side with the change, then the SASS
 * aligned by opcode, side by side when width allows (at least
 * COMPARE_SIDE_BY_SIDE_COLS), else one column with - and + markers.
 */
void cli_print_diff(FILE *out, const struct compare *c, int width, enum cli_format f);

/*
 * A lesson as plain text, wrapped to width: the intro and every step, or
 * step `only` alone (1-based).  {{count ...}} figures are counted in the
 * SASS for arch.
 */
void cli_print_lesson(FILE *out, const struct lesson *l, int only, const char *arch, int width);

/*
 * A progress line on a terminal, written over itself: step `step` (1-based)
 * of nsteps, its kernel, and the runs done; cleared by cli_progress_clear.
 */
void cli_progress_runs(FILE *out, int step, int nsteps, const char *kernel, int done, int total);
void cli_progress_clear(FILE *out);

/* The columns to format for: the terminal's, else $COLUMNS, else 80. */
int cli_output_width(void);

/* results_count, for the batch views. */
const char *cli_count(unsigned long long n, char *buf, size_t len);

#endif

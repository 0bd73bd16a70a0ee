/* The tutor's figures as styled lines, without curses: a step's diff, its counters, the bank picture. */
#ifndef CUDATUTOR_TUI_PANE_H
#define CUDATUTOR_TUI_PANE_H

#include "banks.h"
#include "compare.h"
#include "metrics.h"
#include "session.h"
#include "tui/layout.h"

/*
 * A pane is lines of styled spans (enum style) that a view draws from some
 * top line down, clipped to its rectangle.  Building them needs no
 * terminal, so tests read them as text.  Widths are in columns; unicode
 * chooses block, box and arrow characters, else ASCII.
 */
struct pane {
	int n;
	struct layout_line *lines;
};

void pane_free(struct pane *p);
/* Append a copy of line. */
void pane_add_line(struct pane *p, const struct layout_line *line);
/* Append text wrapped to width columns in one style, each line after prefix (its width kept on the others). */
void pane_add_text(struct pane *p, const char *prefix, const char *text, int style, int width);
/* Line i as plain text, its spans joined.  Newly allocated. */
char *pane_text(const struct pane *p, int i);

/*
 * Two kernels' instruction mixes side by side with the change: one row
 * per kind either has (sass_mix_rows), then registers, and shared memory,
 * stack and spills where either has some, when both resource reports were
 * read.  Columns headed ha and hb; unchanged rows dim.
 */
void pane_mix(const struct compare *c, const char *ha, const char *hb, int width, struct pane *out);

/*
 * The SASS aligned by opcode, line i being row i of c->diff.  Narrower
 * than COMPARE_SIDE_BY_SIDE_COLS: one column, "- " before a removed and
 * "+ " before an inserted instruction.  Wider: a's and b's instructions
 * side by side, the marker in front.
 */
void pane_diff(const struct compare *c, int width, int unicode, struct pane *out);

/*
 * A lesson's steps on two GPUs, a and b (results_compare): B's copy
 * bandwidth against A's in words, wrapped to width; a heading, each time
 * headed with its GPU's name (ha, hb) where the name fits, else A and B;
 * then a row per kernel of kernels[] (the lesson's steps in order): its
 * number, the time on each GPU, B vs A, and "bandwidth" where that follows
 * the copy bandwidth's ratio (results_follows_copy), as `run --compare`
 * says it.  Step `current` (1-based; 0: none) is marked.  *head gets the
 * lines before the first row.
 */
void pane_compare(const struct run_report *a, const struct run_report *b, const char *ha,
    const char *hb, const char *const *kernels, int n, int current, int width, int unicode,
    struct pane *out, int *head);

/*
 * A step's counters by group, then the largest stall reasons with bars
 * (metrics_stalls_shown): each with its value and, from
 * LAYOUT_METRICS_NAMES_W columns, the Nsight Compute metric it reads.
 * The metrics of the lessons' summary tables in bold.
 */
void pane_counters(const struct step_metrics *m, int width, int unicode, struct pane *out);
/* The units a step keeps busy (struct step_result's busy), busiest first, each with a bar. */
void pane_busy_units(const struct busy_unit *u, int n, int width, int unicode, struct pane *out);

/*
 * Which lane each bank serves, pass by pass (wavefront by wavefront): a
 * grid of the 32 banks, with lane numbers at 3 columns a bank (from about
 * 115 columns), else blocks; at most max_waves rows of it; then what that
 * costs.  Then the step's measured counters when m has them, else the
 * line none.
 */
void pane_banks(const struct banks_access *a, const struct step_metrics *m, const char *none,
    int width, int max_waves, int unicode, struct pane *out);

/*
 * One line on what a check found, into buf, and its style (STYLE_ERROR
 * when it failed): the first thing that failed, in the order the check
 * judges, or the pass with its time.
 */
int pane_exercise_summary(const struct exercise_report *r, char *buf, size_t len);

/*
 * What a check of a student's kernel for an exercise found, for its page:
 * the compile's errors as NVRTC gives them (file:line:col, the line, a
 * caret), each SASS check with the exercise's message where it fails,
 * and on a GPU each size checked and the time against ours; without one,
 * that running it needs a GPU; when it fails, that hint_key shows a hint.
 */
void pane_exercise(const struct exercise_report *r, int width, int unicode, const char *hint_key,
    struct pane *out);

#endif

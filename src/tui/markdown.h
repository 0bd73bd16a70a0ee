/* A lesson's Markdown as styled, wrapped lines, page by page (no curses). */
#ifndef CUDATUTOR_TUI_MARKDOWN_H
#define CUDATUTOR_TUI_MARKDOWN_H

#include "lesson.h"
#include "tui/layout.h"

/*
 * The lesson's cmark-gfm document rendered for a terminal of some width:
 * headings, emphasis, strong, inline code, code blocks, lists, block
 * quotes, tables and links, as lines of styled spans (enum style).  Each
 * line knows its page: 0 is the introduction (the title and what comes
 * before the first step), k is step k; an exercise's section is a page of
 * its own, its hints marked so that they can be shown one at a time.
 * Each line also knows the top-level block it came from, so the presenter
 * can show a page one block at a time.
 */

enum markdown_kind {
	MARKDOWN_TEXT,
	MARKDOWN_BLANK,
	MARKDOWN_HEADING,
	MARKDOWN_STEP,		/* the line saying which kernel the step runs */
};

struct markdown_line {
	int step;
	int exercise;		/* its index in the lesson's exercises, or -1: a line of a step's page */
	int hint;		/* in an exercise: 0 its task, k its hint k */
	int block;
	enum markdown_kind kind;
	struct layout_line line;
};

struct markdown_doc {
	int n;
	struct markdown_line *lines;
	int width;
};

/*
 * How {{count OPCODE}} in a lesson's text becomes a figure: counted in the
 * SASS of the step's kernel at this block size, for the architecture
 * arch() names (see counts.h).  Without it, the text stays as written.
 */
struct markdown_counts {
	unsigned int block;
	const char *(*arch)(void *ctx, const struct kernel_def *k);
	void *ctx;
};

/* Render l at width columns; unicode chooses bullets, rules and ellipses; counts may be NULL. */
void markdown_render(const struct lesson *l, int width, int unicode, const struct markdown_counts *counts,
    struct markdown_doc *d);
void markdown_free(struct markdown_doc *d);

/* The lines of page step, exercises left out: *first and *count (count 0 if none). */
void markdown_page(const struct markdown_doc *d, int step, int *first, int *count);
/* The lines of exercise x (its index in the lesson's exercises), every hint included. */
void markdown_exercise_page(const struct markdown_doc *d, int x, int *first, int *count);

/*
 * The instructions step k points at: its look-for list, then the inline
 * code of its text that is an opcode (LDG.E.128, BAR.SYNC, SHFL.DOWN).
 * Returns how many; *names is allocated, free with markdown_mentions_free.
 */
int markdown_mentions(const struct lesson *l, int step, char ***names);
void markdown_mentions_free(char **names, int n);

#endif

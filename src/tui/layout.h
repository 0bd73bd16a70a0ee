/* Layout maths of the tutor's screens, as pure functions: no curses, no terminal. */
#ifndef CUDATUTOR_TUI_LAYOUT_H
#define CUDATUTOR_TUI_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Widths are terminal columns: a CJK character takes two, a combining
 * mark none.  Everything here measures with wcwidth(), so LC_CTYPE must be
 * a UTF-8 locale for non-ASCII text to measure right (main() sets it).
 */

#define LAYOUT_MIN_COLS 80
#define LAYOUT_MIN_ROWS 24

/* ---- characters and strings ---- */

/* Decode one character from s (n bytes left); bytes used, at least 1 if n > 0.
 * Bytes that are not UTF-8 come out as U+FFFD, one byte at a time. */
int layout_utf8_next(const char *s, size_t n, uint32_t *cp);
/* Columns one character takes: 0, 1 or 2 (controls take 0). */
int layout_cp_width(uint32_t cp);
/* Columns of the first n bytes of s; of all of s with layout_width. */
int layout_width_n(const char *s, size_t n);
int layout_width(const char *s);
/* How many bytes of s fit in w columns (never splitting a character); *used gets the columns. */
size_t layout_fit(const char *s, int w, int *used);
/*
 * s shortened to at most w columns, with an ellipsis where text was cut:
 * at the end, or in the middle (for names whose ends tell them apart).
 * unicode: "…", else "~".  Newly allocated.
 */
char *layout_ellipsize(const char *s, int w, int middle, int unicode);
/* Tabs expanded to the next multiple of tab columns.  Newly allocated. */
char *layout_expand_tabs(const char *s, size_t n, int tab);

/* ---- wrapping styled text ---- */

/* Input: a run of text in one style. */
struct layout_run {
	const char *text;
	int style;
};

/* Output: a line of spans, each its own allocated text. */
struct layout_span {
	char *text;
	int style;
};

struct layout_line {
	int nspans;
	struct layout_span *spans;
	int width;		/* columns */
};

/*
 * Wrap runs to width columns.  Lines break at spaces, and between CJK
 * characters (which have no spaces between words), but not before closing
 * punctuation (，。）) nor after opening punctuation (（「); a word longer than
 * the line is cut.  '\n' forces a break.  Spaces at a break are dropped.
 * Returns the number of lines; *lines is allocated (free with
 * layout_lines_free).  Empty input gives one empty line.
 */
int layout_wrap(const struct layout_run *runs, int nruns, int width, struct layout_line **lines);
void layout_lines_free(struct layout_line *lines, int n);
/* The text of a line, spans joined (for tests and plain views).  Newly allocated. */
char *layout_line_text(const struct layout_line *line);

/* ---- table columns ---- */

struct layout_column {
	int min, want;		/* columns */
	int priority;		/* higher: kept longer, widened first */
	int flex;		/* takes what is left once every column has its want */
	int width;		/* out: 0 when the column was dropped */
};

/*
 * Give each column a width so that they fit in total columns with gap
 * columns between shown ones: drop the lowest-priority columns until the
 * minimums fit, widen by priority up to want, then give the rest to flex
 * columns.  Returns the columns used.
 */
int layout_columns(struct layout_column *c, int n, int total, int gap);

/* ---- screens ---- */

struct layout_rect {
	int y, x, h, w;
};

/*
 * The lesson screen: a header line, the lesson text, the results panel
 * (its title line, a column header, one row per step), a status line and
 * the key line.  Narrower than 140 columns the results go below the text
 * and the bar chart is a column of the table; wider, they go beside it,
 * with the chart under the table when there is room.
 */
struct lesson_layout {
	int too_small;
	int side_by_side;
	int chart_inline;		/* bars in a column of the table; chart is empty */
	struct layout_rect header, text, results, chart, status, footer;
	int table_rows;			/* step rows the table can show */
};

void layout_lesson(int cols, int rows, int nsteps, struct lesson_layout *lo);

/* The list screen: the list, and beside it a preview from 120 columns. */
struct list_layout {
	int too_small;
	struct layout_rect header, list, preview, status, footer;
};

void layout_list(int cols, int rows, struct list_layout *lo);

/*
 * Presenter mode: the step title, the big time and speedup (beside each
 * other when they fit, else the speedup in small print), drawn as large as
 * the terminal allows (scale 1 to 3), each with two lines of labels under
 * it, a chunk of text, and a small chart of the steps when there is room.
 */
struct present_layout {
	int too_small;
	int speedup_big;		/* the speedup also in big digits */
	int scale;			/* of the big digits */
	struct layout_rect header, title, big_time, big_speedup, text, chart, footer;
};

void layout_present(int cols, int rows, const char *time, const char *speedup, int nsteps,
    struct present_layout *lo);

/*
 * The diff view: a header, a title line, the instruction-mix table (all of
 * it when it fits in half the body), a line on how the SASS aligns, the
 * SASS rows, a status line and the key line.  From
 * COMPARE_SIDE_BY_SIDE_COLS (compare.h: where `cudatutor diff` does the
 * same) the two kernels' SASS go side by side.
 */
struct diff_layout {
	int too_small;
	int side_by_side;
	struct layout_rect header, title, mix, sass_title, sass, status, footer;
};

void layout_diff(int cols, int rows, int mix_lines, struct diff_layout *lo);

/*
 * The code view: a header, the tab line, three lines about the kernel,
 * the code, a status line and the key line.  With map, a panel for the
 * SASS of the source line at the cursor goes below the code (a title line
 * and at least four rows), or beside it from 140 columns.
 */
struct code_layout {
	int too_small;
	int map_beside;
	struct layout_rect header, tabs, info, code, map, status, footer;
};

void layout_code(int cols, int rows, int map, struct code_layout *lo);

/*
 * The counters view: a header, a title line, a line about the kernel, the
 * body (one scrolling column, at most LAYOUT_METRICS_MAX_W wide, Nsight
 * Compute's names beside the values when it is at least
 * LAYOUT_METRICS_NAMES_W), a status line and the key line.
 */
#define LAYOUT_METRICS_MAX_W 150
#define LAYOUT_METRICS_NAMES_W 118
struct metrics_layout {
	int too_small;
	struct layout_rect header, title, info, body, status, footer;
};

void layout_metrics(int cols, int rows, struct metrics_layout *lo);

/* ---- figures ---- */

/*
 * A horizontal bar of value/max of width columns into buf: full blocks
 * and one partial eighth block (U+2588..U+258F), or '#' without Unicode.
 * Returns the columns drawn (at least 1 for any value above zero).
 */
int layout_bar(double value, double max, int width, int unicode, char *buf, size_t len);

/*
 * Big digits: each character of "0123456789.x- " as a glyph 5 pixels tall,
 * a pixel being scale rows by 2 * scale columns (cells are about twice as
 * tall as wide, so the digits come out square).
 */
#define LAYOUT_BIG_ROWS 5
/* Columns the big rendering of s takes (characters it cannot draw count as blank). */
int layout_big_width(const char *s, int scale);
/* Row row (0 to 5 * scale - 1) of the big rendering of s into buf: blocks, or '#' without Unicode. */
void layout_big_row(const char *s, int row, int scale, int unicode, char *buf, size_t len);

/* Milliseconds with the digits that matter: "12.3", "1.234", "0.0123". */
const char *layout_ms(double ms, char *buf, size_t len);

/* Where to put a page of n lines in a window of h lines to show line want: the new top. */
int layout_scroll_to(int top, int h, int n, int want);
/* top clamped to 0..n-h. */
int layout_scroll_clamp(int top, int h, int n);

#endif

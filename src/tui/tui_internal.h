/* The tutor's state and screens, shared by the files of src/tui/ (no curses here). */
#ifndef CUDATUTOR_TUI_INTERNAL_H
#define CUDATUTOR_TUI_INTERNAL_H

#include <stdbool.h>

#include "compare.h"
#include "inspect.h"
#include "lesson.h"
#include "sass.h"
#include "progress.h"
#include "results.h"
#include "tui/crt.h"
#include "tui/highlight.h"
#include "tui/layout.h"
#include "tui/markdown.h"
#include "tui/pane.h"
#include "tui/tui.h"
#include "tui/worker.h"

/*
 * Screens are a draw function and a key function; the dispatcher in tui.c
 * handles the keys every screen shares, then the screen's.  Key functions
 * change the state and return what should happen next; only draw
 * functions draw.
 */
enum reaction {
	REACT_NONE = 0,		/* nothing changed: no frame */
	REACT_DRAW = 1,		/* draw a new frame */
	REACT_QUIT = 2,
};

/* A key of a screen: for the help overlay, and for the key line at the bottom. */
struct key_help {
	const char *keys;	/* "← → h l" (help) */
	const char *what;	/* N_("previous / next step") */
	const char *fkeys;	/* "←→" on the key line, or NULL if not shown there */
	const char *flabel;	/* N_("step") */
	int key;		/* what a click on it on the key line sends */
};

struct tui;

struct screen {
	const char *name;
	void (*draw)(struct tui *t);
	int (*key)(struct tui *t, const struct crt_event *ev);
	const struct key_help *keys;
	int nkeys;
};

extern const struct screen screen_list, screen_lesson, screen_code, screen_present;
extern const struct screen screen_diff, screen_metrics;

/* A rendered lesson, kept while the lesson, width, block and GPU stay the same. */
struct doc_cache {
	int lesson, width;
	unsigned int block;
	int gpu;
	struct markdown_doc doc;
};

struct tui {
	struct lesson_set set;
	struct progress prog;
	struct worker *worker;
	struct worker_state ws;
	int unicode;

	const struct screen *screen;
	const struct screen *back;	/* where Esc goes from the code view */
	const struct screen *aside_back;	/* where Esc goes from the diff and counters views */
	int help, help_top;
	char message[1024];
	int message_style;
	int message_keep;		/* survive one key more (set at start) */
	char next_message[1024];	/* shown when the kept one goes */
	int next_style;

	/* clickable places of the key line */
	struct { int x0, x1, key; } zones[32];
	int nzones;

	/* the list */
	int list_sel, list_top;		/* a row of the list; -1: find it */
	int list_open;			/* the lesson whose steps the list shows */
	struct doc_cache preview;

	/* the open lesson */
	int li;				/* index in set.lessons; -1 none */
	int page;			/* 0: introduction, k: step k */
	int text_top;
	struct doc_cache doc;
	unsigned long long size;
	unsigned int block;
	struct run_report live;		/* this GPU's results at size and block */
	bool have_live;
	struct run_report rec;		/* recorded ones, for no GPU */
	bool have_rec, rec_tried;
	char rec_error[1024];
	bool revealed[PROGRESS_MAX_STEPS];
	int bars_time;			/* the chart shows times, not GB/s */
	int results_top;
	int chart_top;

	/* the architecture of the recorded results, when there is no GPU */
	char rec_arch[16];
	bool rec_arch_tried;

	/* the code view */
	enum code_kind code_kind;
	int code_step;			/* 1-based */
	char code_arch[16];
	bool code_arch_chosen;		/* by the user, with a */
	char *code_text;		/* tabs expanded */
	char **code_lines;
	int code_n, code_top, code_cursor;
	int *code_nums;			/* each line's line in kernels/<module>.cu, or NULL */
	int ncode_nums;
	char *code_error;
	char **focus;
	int nfocus;
	struct insn_mix mix;
	struct kernel_resources res;
	bool have_res;
	char code_symbol[128];
	/* the source view: its cursor, and the SASS each source line became */
	int src_cursor, src_top;
	char src_symbol[128];		/* the kernel they belong to */
	char *map_text;			/* the SASS, whose instructions map_listing points into */
	struct sass_listing map_listing;
	int *map_lines;			/* each instruction's line in kernels/<module>.cu */
	int nmap_lines;
	char *map_error;		/* why there is no mapping */
	int map_top;
	int code_mark;			/* the SASS view marks what this .cu line became; 0 none */

	/* the diff view: step diff_step against the one before */
	int diff_step;			/* 1-based; 0 none loaded */
	char diff_arch[16];
	struct compare diff;
	bool have_diff;
	char *diff_error;
	struct pane diff_mix, diff_sass;
	int diff_width;			/* the panes were built for it */
	int diff_top;

	/* the counters view */
	int metrics_step;		/* 1-based */
	int metrics_top;
	struct run_report mrec;		/* recorded counters of the open lesson */
	bool have_mrec;
	int mrec_li;			/* they are for this lesson, size and block; -1 none tried */
	unsigned long long mrec_size;
	unsigned int mrec_block;
	char mrec_error[1024];
	/* counters read on this GPU, step by step, for the lesson, size and block they name */
	struct live_counters {
		bool have;
		int li;
		unsigned long long size;
		unsigned int block;
		struct step_metrics m;
		char error[1024];	/* the last reading failed: why */
	} counters[PROGRESS_MAX_STEPS];

	/* presenter mode */
	int chunk;
};

/* ---- tui.c: shared drawing and actions ---- */

struct lesson *tui_lesson(const struct tui *t);
void tui_message(struct tui *t, int style, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void tui_draw_header(struct tui *t, const char *where);
void tui_draw_status(struct tui *t, int y, const char *hint);
void tui_draw_footer(struct tui *t, int y, const struct screen *s);
/* A rendered lesson at this width (cached). */
const struct markdown_doc *tui_doc(struct tui *t, struct doc_cache *c, int lesson, int width);
void tui_save(struct tui *t);
/*
 * Show a screen beside the lesson (diff, counters): Esc goes back to the
 * screen it was opened from, never round between such screens.
 */
void tui_open_aside(struct tui *t, const struct screen *s);
void tui_close_aside(struct tui *t);
/* The mouse wheel moves *top by three lines (not above 0): 1 if ev was a wheel turn. */
int tui_wheel_scroll(const struct crt_event *ev, int *top);
/*
 * The architecture whose SASS to show and count for a kernel module: what
 * this GPU runs, else what the GPU of the recorded results ran, else the
 * newest built.  Into buf; NULL if the module has no SASS at all.
 */
const char *tui_arch(struct tui *t, const char *module, char *buf, size_t len);

/* ---- view_lesson.c: the lesson, its results and running ---- */

void view_lesson_open(struct tui *t, int li, int page);
void view_lesson_set_page(struct tui *t, int page);
void view_lesson_run(struct tui *t, int first, int last);
void view_lesson_reload(struct tui *t);
/* The results shown for the open lesson (live or recorded), or NULL. */
const struct run_report *view_lesson_report(const struct tui *t);
/* Step k (0-based) of the open lesson in r, if it is to be shown. */
const struct step_result *view_lesson_step_result(const struct tui *t, const struct run_report *r, int k);
void view_lesson_size(struct tui *t, int dir);
void view_lesson_block(struct tui *t, int dir);
void view_lesson_news(struct tui *t, const struct worker_state *old, struct run_report *fresh,
    int have_fresh);
/* The results table (and chart) in a rectangle. */
void view_lesson_table(struct tui *t, struct layout_rect r, int inline_bars, int current);
void view_lesson_chart(struct tui *t, struct layout_rect r, int current);
/* Keys the lesson and presenter screens share (run, code, parameters): a reaction, or -1. */
int view_lesson_common_key(struct tui *t, const struct crt_event *ev);
/* "size 2^24, block 1024" */
const char *view_lesson_params(const struct tui *t, char *buf, size_t len);
/* What a step's figures are in (its experiment's unit), its rate in that unit, and both in words. */
enum experiment_unit tui_step_unit(const struct step_result *s);
double tui_step_rate(const struct step_result *s);
const char *tui_step_figures(const struct step_result *s, char *buf, size_t len);
/* A short name for a GPU: "H100 80GB HBM3" */
const char *tui_gpu_short(const char *name);

/* ---- view_code.c ---- */

void view_code_open(struct tui *t, enum code_kind kind, int step);
void view_code_free(struct tui *t);

/* ---- view_diff.c: a step's kernel against the previous step's ---- */

/* Open the diff of step (1-based, at least 2) against step - 1. */
void view_diff_open(struct tui *t, int step);
void view_diff_free(struct tui *t);

/* ---- view_metrics.c: a step's hardware counters, and the bank picture ---- */

void view_metrics_open(struct tui *t, int step);
/* The worker finished reading counters. */
void view_metrics_news(struct tui *t);
/* Forget what belongs to another lesson, size or block. */
void view_metrics_free(struct tui *t);

#endif

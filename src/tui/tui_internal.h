/* The tutor's state and screens, shared by the files of src/tui/ (no curses here). */
#ifndef CUDATUTOR_TUI_INTERNAL_H
#define CUDATUTOR_TUI_INTERNAL_H

#include <stdbool.h>

#include "inspect.h"
#include "lesson.h"
#include "progress.h"
#include "results.h"
#include "tui/crt.h"
#include "tui/highlight.h"
#include "tui/layout.h"
#include "tui/markdown.h"
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

#endif

/* The frame of the tutor: what every screen shares, and what a screen is (no curses here). */
#ifndef CUDATUTOR_TUI_INTERNAL_H
#define CUDATUTOR_TUI_INTERNAL_H

#include <stdbool.h>

#include "lesson.h"
#include "progress.h"
#include "results.h"
#include "session.h"
#include "tui/crt.h"
#include "tui/highlight.h"
#include "tui/keys.h"
#include "tui/layout.h"
#include "tui/markdown.h"
#include "tui/worker.h"

/*
 * What a key (or a hook) asks of the frame.  Handlers change the state and
 * return this; only draw hooks draw.
 */
enum reaction {
	REACT_NONE = 0,		/* nothing changed: no frame */
	REACT_DRAW = 1,		/* draw a new frame */
	REACT_QUIT = 2,
};

struct tui;

/*
 * What a screen is opened on: a step of the open lesson (1-based), which
 * code the code screen shows, and an exercise of the open lesson (1 + its
 * index in the lesson's exercises; 0 none): the exercise screen's, or
 * the student's kernel for it in the code and diff screens.
 */
struct screen_arg {
	int step;
	enum code_kind kind;
	int exercise;
};

/* What the frame tells every screen (struct screen's news). */
enum tui_news {
	TUI_NEWS_LESSON,	/* another lesson was opened */
	TUI_NEWS_PAGE,		/* the open lesson's page was set, perhaps to the one it was */
	TUI_NEWS_JOB_DONE,	/* the worker ended a job: t->ws says which, and how */
};

/*
 * Where a screen goes in the frame's stack of screens: Esc (tui_back)
 * goes down the stack, and from the root to the root's up.
 */
enum screen_place {
	SCREEN_ROOT,		/* the bottom: opening it closes every other screen */
	SCREEN_ON_TOP,		/* over the screen it was opened from */
	SCREEN_ASIDE,		/* the same, but one aside screen replaces another: Esc never goes round them */
};

/*
 * Which screen: screens name each other by these, so that none needs
 * another's file (tui_main.c gives the frame the screens themselves).
 */
enum screen_id {
	SCREEN_NONE,
	SCREEN_LIST,
	SCREEN_LESSON,
	SCREEN_PRESENT,
	SCREEN_CODE,
	SCREEN_DIFF,
	SCREEN_METRICS,
	SCREEN_EXERCISE,
	SCREEN_ROOFLINE,
	SCREEN_SWEEP,
	SCREEN_CLASS,
	SCREEN_GLOSSARY,
};

/*
 * A screen owns its state (static in its file); the frame reaches it only
 * through these hooks, each of which may be NULL but draw.  Opening a
 * screen that is in the stack already shows it again, and closes those
 * above it.  The frame takes the keys: those every screen shares (?, q,
 * Esc, P, the mouse...) in its own table (tui.c), the rest in the
 * screen's, which also makes the screen's help and key line.  A screen
 * may take a shared key in its table, to say what it does there.
 */
struct screen {
	enum screen_id id;
	const char *name;
	enum screen_place place;
	enum screen_id up;		/* for a root: where Esc goes */
	/* Opened on arg (NULL for a root): 0, or -1 to stay where the user was (a message may say why). */
	int (*open)(struct tui *t, const struct screen_arg *arg);
	/* Taken off the stack: free what only matters while it is there. */
	void (*close)(struct tui *t);
	void (*draw)(struct tui *t);
	/* The mouse: a click at y, x; the wheel over y, x, lines down (up if < 0).  Reactions. */
	int (*click)(struct tui *t, int y, int x);
	int (*scroll)(struct tui *t, int y, int x, int lines);
	void (*news)(struct tui *t, enum tui_news what);
	const struct key_binding *keys;
	int nkeys;
};

extern const struct screen screen_list, screen_lesson, screen_code, screen_present;
extern const struct screen screen_diff, screen_metrics, screen_exercise, screen_roofline, screen_sweep;
extern const struct screen screen_glossary;
extern const struct screen screen_class;

/* ---- view_class.c: the class view, over a folder of handed-in kernels ---- */

/* Open the folder (only: one exercise, or NULL) and watch it; big: presenter mode.  0, or -1 and e. */
int class_view_start(struct tui *t, const char *dir, const char *only, bool big, struct error *e);
bool class_view_started(void);
/* The folder's inotify descriptor for the main loop's poll, or -1. */
int class_view_fd(void);
/* How long the loop may wait (ms, -1 for ever) while checks run. */
int class_view_timeout(void);
/* Submissions arrived or verdicts came in: REACT_DRAW. */
int class_view_tick(struct tui *t);
/* Stop the checks going on and free all. */
void class_view_free(void);
/* The exercise screen's keys that messages elsewhere name: write it (e), check it (r), a hint (H). */
int exercise_key_write(struct tui *t, const struct crt_event *ev, int arg);
int exercise_key_check(struct tui *t, const struct crt_event *ev, int arg);
int exercise_key_hint(struct tui *t, const struct crt_event *ev, int arg);

/* A rendered lesson, kept while the lesson, width, block and GPU stay the same. */
struct doc_cache {
	int lesson, width;
	unsigned int block;
	int gpu;
	struct markdown_doc doc;
};

/*
 * What every screen shares.  A screen's own state (the list's choice, the
 * code view's text and cursor...) is static in the screen's file.
 */
struct tui {
	struct lesson_set set;
	struct progress prog;
	struct worker *worker;
	struct worker_state ws;
	int unicode;

	/* the screens open, the root first: the last is shown */
	const struct screen *stack[8];
	int depth;

	int help, help_top;		/* the help overlay, and how far it is scrolled */
	char message[1024];
	int message_style;
	int message_keep;		/* survive one key more (set at start) */
	char next_message[1024];	/* shown when the kept one goes */
	int next_style;

	/* clickable places of the key line */
	struct {
		struct { int x0, x1, key; } at[32];
		int n;
	} zones;

	struct study *study;		/* the open lesson (study.c) */
};

/* ---- tui.c: shared drawing and actions ---- */

void tui_message(struct tui *t, int style, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void tui_draw_header(struct tui *t, const char *where);
void tui_draw_status(struct tui *t, int y, const char *hint);
/* The key line of the screen shown. */
void tui_draw_footer(struct tui *t, int y);
/* The screen shown. */
const struct screen *tui_screen(const struct tui *t);
/* Whether s is in the stack (shown, or under the one shown). */
bool tui_on_stack(const struct tui *t, enum screen_id s);
/* Open s on arg where its place says (see enum screen_place): REACT_DRAW, or REACT_NONE if it refused. */
int tui_switch(struct tui *t, enum screen_id s, const struct screen_arg *arg);
/* Esc: the screen under this one, or a root's up. */
int tui_back(struct tui *t);
/* Tell every screen. */
void tui_tell(struct tui *t, enum tui_news what);
/* Move *top by lines (not above 0): REACT_NONE if it was at 0 already and lines go up. */
int tui_scroll(int *top, int lines);
/*
 * The frame's handlers, for a screen's table to say what a shared key
 * does there: back (Esc during a run cancels it instead), cancel the run
 * going on, presenter mode on / off.
 */
int tui_key_back(struct tui *t, const struct crt_event *ev, int arg);
int tui_key_cancel(struct tui *t, const struct crt_event *ev, int arg);
int tui_key_present(struct tui *t, const struct crt_event *ev, int arg);
/*
 * The key that runs run with arg, as a message names it ("press %s to
 * cancel"): on the screen shown, else everywhere (the frame's), else on
 * the first screen that has it (a message may send the user to the
 * lesson screen's keys).  "?" if none.
 */
const char *tui_key(const struct tui *t, key_run run, int arg);
/* "A run is going on: wait for it, or press x to cancel it." on the message line. */
void tui_say_busy(struct tui *t);
/* The frame's table, the keys no screen may take, and every screen: for tests/unit/test_keys.c. */
extern const struct key_binding tui_frame_keys[];
extern const int tui_nframe_keys;
extern const int tui_reserved_keys[];
extern const int tui_nreserved_keys;
/* Every screen (tui_main.c): the frame finds a screen by its id there, and tells them all the news. */
extern const struct screen *const tui_screens[];
extern const int tui_nscreens;
void tui_set_screens(const struct screen *const *screens, int n);
/* A frame: the screen shown, the help over it, or what a too small terminal needs. */
void tui_draw(struct tui *t);
/* The frame's answer to a key: reactions. */
int tui_dispatch(struct tui *t, const struct crt_event *ev);
/*
 * Ctrl-C pressed count times: it cancels the run going on, as x does, and
 * the tutor stays; with no run going on, or again while the run is being
 * cancelled (a driver that does not answer), it quits.  REACT_QUIT,
 * REACT_DRAW or REACT_NONE.
 */
int tui_interrupted(struct tui *t, int count, int *cancelling);
/*
 * The architecture whose SASS to show and count for a kernel module: what
 * this GPU runs, else what the GPU of the recorded results ran, else the
 * newest built.  Into buf; NULL if the module has no SASS at all.
 */
const char *tui_arch(struct tui *t, const char *module, char *buf, size_t len);
/* A step's rate and yardstick in words: "812 GB/s, 20% of copy". */
const char *tui_step_figures(const struct step_result *s, char *buf, size_t len);
/* A short name for a GPU: "H100 80GB HBM3" */
const char *tui_gpu_short(const char *name);
/* The GPU as the worker last said: the one place the tutor reads it. */
enum session_gpu tui_gpu(const struct tui *t);

/* ---- study.c: the open lesson, its results and running its steps ---- */

/* The open lesson: its page, size, block and results, study.c's alone. */
struct study;
struct study *study_new(void);
void study_free(struct tui *t);
/* The open lesson, or NULL; its index in t->set.lessons (-1 none), its page (0: the introduction). */
struct lesson *tui_lesson(const struct tui *t);
int study_li(const struct tui *t);
int study_page(const struct tui *t);
/* The size and block its steps run at. */
unsigned long long study_size(const struct tui *t);
unsigned int study_block(const struct tui *t);
/* Whether the chart shows times, not GB/s. */
int study_bars_time(const struct tui *t);
/* Whether step k's recorded result was shown (r) without a GPU. */
bool study_revealed(const struct tui *t, int k);
/* Why no recorded results are shown without a GPU, or "". */
const char *study_results_error(const struct tui *t);
/* Its text at this width (kept while nothing changes). */
const struct markdown_doc *study_doc(struct tui *t, int width);
/* Lesson `lesson` rendered at this width, kept in c while the lesson, width, block and GPU stay the same. */
const struct markdown_doc *study_render(struct tui *t, struct doc_cache *c, int lesson, int width);
/* Where the student is, into the progress for the next start: a step's page, or an exercise's. */
void study_keep_position(struct tui *t);
/* That, and the progress saved (a message says when it cannot be). */
void study_save(struct tui *t);
/* The exercise screen shows exercise x (0-based) of the open lesson. */
void study_set_exercise(struct tui *t, int x);
/* The exercise it shows (or last showed) of the open lesson, 0-based; -1 none. */
int study_exercise(const struct tui *t);
/* What to show (session_choose): the results, their source, the note. */
void study_shown(const struct tui *t, struct session_shown *out);
/* The source alone: SESSION_LIVE where r runs steps here, else they come recorded. */
enum session_source study_source(const struct tui *t);
/* The counters recorded at its size and block, or NULL and *error why (read once, kept). */
const struct run_report *study_counters(struct tui *t, const char **error);
void study_forget_counters(struct tui *t);

/*
 * The open lesson's pages in order: its introduction, its steps, and
 * before a step the page of each exercise that leads to it.  From the
 * page shown (step page t->page, or exercise x's when x >= 0), go dir
 * pages on, on the lesson or the exercise screen: REACT_DRAW, or
 * REACT_NONE at an end.  The presenter goes from step to step.
 */
int study_turn(struct tui *t, int x, int dir);
/* The title of the page after (step page t->page, or exercise x's), or NULL at the end. */
const char *study_next_title(const struct tui *t, int x);
/* Open lesson li at page (0: its introduction); the screens hear TUI_NEWS_LESSON and _PAGE. */
void study_open(struct tui *t, int li, int page);
void study_set_page(struct tui *t, int page);
/* Run steps first..last (0-based) on the GPU, or show their recorded results. */
void study_run(struct tui *t, int first, int last);
/* Take the results again (a new size, block or GPU). */
void study_reload(struct tui *t);
/* The results shown for the open lesson (live or recorded), or NULL. */
const struct run_report *study_report(const struct tui *t);
/* Step k (0-based) of the open lesson in r, if it is to be shown. */
const struct step_result *study_result(const struct tui *t, const struct run_report *r, int k);
/* The worker's state went from old to t->ws; fresh: its newest report, if have_fresh. */
void study_news(struct tui *t, const struct worker_state *old, struct run_report *fresh,
    int have_fresh);
/* "size 2^24, block 1024" */
const char *study_params(const struct tui *t, char *buf, size_t len);
/* The same words for another size and block ("block per kernel" where the lesson's kernels have their own). */
const char *study_params_at(const struct tui *t, unsigned long long size, unsigned int block, char *buf,
    size_t len);

/*
 * Another GPU beside these (o): A is this GPU's results when it has run
 * any, else the newest recorded; B a recorded file other than A's.  The
 * two to show side by side, or false while there is none (off, or B has
 * no run of the lesson at this size and block: a message says why).
 */
bool study_comparison(const struct tui *t, const struct run_report **a, const struct run_report **b);
/* Back to one GPU, and what was loaded for the other freed. */
void study_other_off(struct tui *t);

/*
 * The keys of the lesson and presenter screens (their tables name them):
 * the page before (arg -1) or after; run the page's step, or all; its
 * code (arg: enum code_kind), diff, counters; size and block down (arg -1)
 * or up; the chart in GB/s or time.
 */
int study_key_page(struct tui *t, const struct crt_event *ev, int dir);
int study_key_run(struct tui *t, const struct crt_event *ev, int arg);
int study_key_run_all(struct tui *t, const struct crt_event *ev, int arg);
int study_key_code(struct tui *t, const struct crt_event *ev, int kind);
int study_key_diff(struct tui *t, const struct crt_event *ev, int arg);
int study_key_counters(struct tui *t, const struct crt_event *ev, int arg);
int study_key_size(struct tui *t, const struct crt_event *ev, int dir);
int study_key_block(struct tui *t, const struct crt_event *ev, int dir);
int study_key_bars(struct tui *t, const struct crt_event *ev, int arg);
/* R, W, t: a view beside the page (arg: SCREEN_ROOFLINE, SCREEN_SWEEP, SCREEN_GLOSSARY); Esc comes back. */
int study_key_aside(struct tui *t, const struct crt_event *ev, int screen);
/* o: the next recorded GPU beside these, and after the last, one GPU again. */
int study_key_other(struct tui *t, const struct crt_event *ev, int arg);

/* ---- practice.c: exercises, written in the student's editor, checked on the worker thread ---- */

/* The newest check of def in this session, or NULL. */
const struct exercise_report *practice_report(const struct exercise_def *def);
/*
 * e: start exercise x (a working copy, never written over) and open it in
 * $VISUAL or $EDITOR, the screen lent to it, then check it; with neither
 * set, say where the file is and check it each time it is saved.
 */
int practice_write(struct tui *t, const struct lesson_exercise *x);
/* Check def's working copy on the worker thread, now or when the job going on ends. */
void practice_check(struct tui *t, const struct exercise_def *def);
/*
 * The tutor reopened on def's page: its working copy, if there is one,
 * is checked again as soon as the worker runs, so that the page shows
 * what the last check found (a check is not kept across sessions).
 */
void practice_recheck(const struct exercise_def *def);
/* The next hint of x, now counted as shown: on the message line (again: the key for the one after), and on the exercise's page. */
int practice_hint(struct tui *t, const struct lesson_exercise *x, const char *again);
/* How many of x's hints the student has seen. */
int practice_hints_shown(const struct tui *t, const struct lesson_exercise *x);
/* The working copy of def when it is watched for saves, else NULL. */
const char *practice_watched(const struct exercise_def *def);
/* How long the frame may wait for a key, in ms (-1: for ever): a watched file is looked at twice a second. */
int practice_poll_timeout(void);
/* Look at the watched file, and start a check waiting for the worker: a reaction. */
int practice_tick(struct tui *t);
/* The worker's news (after worker_take): a check that ended, with what it found. */
void practice_news(struct tui *t);
void practice_free(void);

/* ---- chart.c: the results as a table and a chart ---- */

/* A row of the results table: step k, or a student's kernel for an exercise that targets it. */
struct chart_row {
	int step;				/* 0-based */
	const struct exercise_def *yours;	/* NULL: the step's own row */
};
/* The rows of the open lesson's table (at most max): its steps, each followed by the checked kernels written for it. */
int chart_rows(const struct tui *t, struct chart_row *rows, int max);
/* The row of step k (0-based) in the table. */
int chart_row_of(const struct tui *t, int k);

/*
 * The results table (with bars when inline_bars) in a rectangle; current:
 * the page's step; diagnosis: the rows at the panel's foot for that step's
 * diagnosis (diagnosis.h), 0 for none; *top: the first row shown, kept in
 * the table.  chart_diagnosis_lines: the rows the diagnosis takes in a
 * panel width columns wide (0: the step has none), at most
 * CHART_DIAGNOSIS_MAX.
 */
#define CHART_DIAGNOSIS_MAX 6
void chart_table(struct tui *t, struct layout_rect r, int inline_bars, int current, int diagnosis, int *top);
int chart_diagnosis_lines(const struct tui *t, int width, int current);
void chart_bars(struct tui *t, struct layout_rect r, int current);
/*
 * The lesson's steps on two GPUs (study_comparison) in place of the table:
 * both named in the title line, then pane_compare's lines, the page's step
 * marked, its rows scrolled from *top.  chart_compare_rows: the rows to
 * give layout_lesson (as chart_rows when there is no comparison) for a
 * panel width columns wide; chart_compare_step: the step (0-based) drawn
 * on screen line y, or -1.
 */
void chart_compare(struct tui *t, struct layout_rect r, int *top);
int chart_compare_rows(const struct tui *t, int width);
int chart_compare_step(const struct tui *t, struct layout_rect r, int top, int y);

#endif

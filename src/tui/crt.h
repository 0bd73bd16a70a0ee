/* The terminal: the one module that includes curses. */
#ifndef CUDATUTOR_TUI_CRT_H
#define CUDATUTOR_TUI_CRT_H

#include <stddef.h>

#include "tui/style.h"
#include "util.h"

/*
 * Everything the screens draw goes through here, in enum style meanings;
 * keys and mouse events come out as struct crt_event.  The terminal is
 * restored on every way out: crt_stop() from the main loop, from atexit(),
 * and from the handlers of fatal signals; SIGTERM, SIGHUP and SIGQUIT only
 * set a flag the main loop reads (crt_quit_signal), so it can save and
 * leave in order.  SIGINT (Ctrl-C) is only counted (crt_take_interrupts):
 * the main loop cancels a run with it, or quits.
 */

enum crt_key {
	/* Characters come as their code points; these are beyond Unicode. */
	CRT_KEY_UP = 0x110000,
	CRT_KEY_DOWN,
	CRT_KEY_LEFT,
	CRT_KEY_RIGHT,
	CRT_KEY_PGUP,
	CRT_KEY_PGDN,
	CRT_KEY_HOME,
	CRT_KEY_END,
	CRT_KEY_ENTER,
	CRT_KEY_ESC,
	CRT_KEY_BACKSPACE,
	CRT_KEY_TAB,
	CRT_KEY_BTAB,
	CRT_KEY_RESIZE,
	CRT_KEY_MOUSE,
	CRT_KEY_F0,		/* CRT_KEY_F0 + n is function key n */
};
#define CRT_KEY_F(n) (CRT_KEY_F0 + (n))
#define CRT_CTRL(c) ((c) & 0x1f)

enum crt_button { CRT_CLICK = 1, CRT_WHEEL_UP = 4, CRT_WHEEL_DOWN = 5 };

struct crt_event {
	int key;
	int y, x;		/* for CRT_KEY_MOUSE */
	int button;
};

/*
 * Take the terminal.  Fails (-1, e says why and what to use instead) when
 * stdin or stdout is not a terminal, TERM is unset or dumb, or curses
 * cannot drive it.  Colours are off with NO_COLOR or on a monochrome
 * terminal; block and box characters need a UTF-8 locale.
 */
int crt_start(struct error *e);
/* Give the terminal back as it was.  Safe to call twice, and from atexit. */
void crt_stop(void);

/*
 * Lend the terminal to another program (a student's editor) and take it
 * back: suspend leaves it as the shell had it, resume restores the
 * tutor's modes and paints every cell on the next frame.
 */
void crt_suspend(void);
void crt_resume(void);

int crt_rows(void);
int crt_cols(void);
int crt_unicode(void);

/* A frame: erase, draw, then show it in one go. */
void crt_begin_frame(void);
void crt_end_frame(void);
/* Paint every cell again on the next frame (after a resize or Ctrl-L). */
void crt_repaint(void);

/* Draw UTF-8 text clipped to w columns (and the screen); returns the columns drawn. */
int crt_text(int y, int x, int w, int style, const char *s);
int crt_textn(int y, int x, int w, int style, const char *s, size_t n);
/* w columns of spaces in a style (a coloured bar). */
void crt_fill(int y, int x, int w, int style);
/* Box-drawing lines, or - and | without Unicode. */
void crt_hline(int y, int x, int w, int style);
void crt_vline(int y, int x, int h, int style);

/* The input to wait on with poll(). */
int crt_fd(void);
/* The next key or mouse event, without waiting: 1 if there was one. */
int crt_read(struct crt_event *ev);

/* Signals: quitting ones set a flag, a resize wakes the loop, fatal ones restore the terminal first. */
void crt_signals(void);
/* The signal that asked the tutor to quit (SIGTERM, SIGHUP, SIGQUIT), or 0. */
int crt_quit_signal(void);
/* How many Ctrl-Cs (SIGINT) came since the last call. */
int crt_take_interrupts(void);
/* Readable after any of those signals and after a resize: poll it with the keyboard (-1 before crt_signals). */
int crt_signal_fd(void);

#endif

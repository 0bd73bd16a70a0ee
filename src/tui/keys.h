/* Key tables: one array of bindings per screen makes its dispatch, its help and its key line (no curses). */
#ifndef CUDATUTOR_TUI_KEYS_H
#define CUDATUTOR_TUI_KEYS_H

#include <stddef.h>

/* The most key codes one binding takes. */
#define KEYS_MAX 6

struct tui;
struct crt_event;

/* What a key does: a reaction (REACT_DRAW...). */
typedef int (*key_run)(struct tui *t, const struct crt_event *ev, int arg);

/*
 * A row of a key table.  The help overlay shows keys and help; the key
 * line at the bottom shows label_keys and label, and a click there sends
 * codes[0], the key a message names too (keys_name); an event whose key
 * is among codes calls run(t, ev, arg).  A row whose keys and
 * help are NULL goes on with the row above it: other keys for a like
 * action (the "previous" of "previous / next"), said in that row's help.
 */
struct key_binding {
	const char *keys;		/* "\xe2\x86\x90 \xe2\x86\x92  h l" */
	const char *help;		/* N_("previous / next step") */
	const char *label_keys;		/* "\xe2\x86\x90\xe2\x86\x92", or NULL: not on the key line */
	const char *label;		/* N_("step") */
	int codes[KEYS_MAX];		/* the keys (crt.h), 0 after the last */
	key_run run;
	int arg;
};

/* The row of b[0..n) that takes key, or NULL. */
const struct key_binding *keys_find(const struct key_binding *b, int n, int key);

/*
 * The key of the row of b[0..n) that runs run with arg, as a message
 * names it ("x", "Esc", "right arrow", translated where it is a word):
 * the row's first key.  Messages that tell which key to press take it
 * from here, so that they follow the tables.  NULL if no row runs it.
 */
const char *keys_name(const struct key_binding *b, int n, key_run run, int arg);
/* A key as a message names it. */
const char *keys_code_name(int code);

/*
 * Whether a table is sound: every row takes a key and has a handler, the
 * first row has help, rows go on only from a row with help, labels have
 * their keys, no key is taken twice, and none of reserved[0..nreserved)
 * is taken.  0, or -1 and why.
 */
int keys_check(const struct key_binding *b, int n, const int *reserved, int nreserved, char *why,
    size_t len);

/* Where a binding's label goes on the key line: columns x0..x1. */
struct key_place {
	const struct key_binding *b;
	int x0, x1;
};

/*
 * The key line cols wide: the labels of screen[0..nscreen) that fit, in
 * order, and always those of tail[0..ntail) (help, quit) after them.
 * Returns how many places went to out (at most max).
 */
int keys_line(const struct key_binding *screen, int nscreen, const struct key_binding *tail, int ntail,
    int cols, struct key_place *out, int max);

/* A line of the help overlay: the keys (NULL on the lines a text wraps to), the text, its style. */
struct help_line {
	const char *keys;
	char *text;
	int style;
};

/*
 * The help overlay's lines, texts wrapped to width: the screen's rows,
 * then under "Everywhere" the frame's rows whose keys the screen does not
 * take itself (a screen that takes a key says what it does there).
 * Returns the count; free with keys_help_free.
 */
int keys_help(const struct key_binding *screen, int nscreen, const struct key_binding *frame, int nframe,
    int width, struct help_line **out);
void keys_help_free(struct help_line *lines, int n);

#endif

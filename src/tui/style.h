/* What each piece of the screen means; crt.c maps meanings to colours. */
#ifndef CUDATUTOR_TUI_STYLE_H
#define CUDATUTOR_TUI_STYLE_H

/*
 * One table of every style the tutor draws with, by meaning, never by
 * colour.  Columns: name, foreground, background, attributes on a colour
 * terminal, attributes on a monochrome one (or with NO_COLOR).  Only crt.c
 * expands the colour columns, so nothing here needs curses: B bold,
 * R reverse, U underline, D dim, I italic, N nothing.
 */
#define STYLE_TABLE(X) \
	X(NORMAL,       DEFAULT, DEFAULT, N,     N) \
	X(DIM,          DEFAULT, DEFAULT, D,     D) \
	X(TITLE_BAR,    BLACK,   CYAN,    N,     R) \
	X(TITLE_NAME,   WHITE,   BLUE,    B,     R | B) \
	X(FOOTER,       WHITE,   BLUE,    N,     R) \
	X(FOOTER_KEY,   YELLOW,  BLUE,    B,     R | B) \
	X(STATUS,       DEFAULT, DEFAULT, N,     N) \
	X(MESSAGE,      YELLOW,  DEFAULT, B,     B) \
	X(ERROR,        WHITE,   RED,     B,     R | B) \
	X(BORDER,       BLUE,    DEFAULT, N,     N) \
	X(PANEL_TITLE,  CYAN,    DEFAULT, B,     B) \
	X(SELECTED,     BLACK,   CYAN,    N,     R) \
	X(H1,           YELLOW,  DEFAULT, B,     B | U) \
	X(H2,           CYAN,    DEFAULT, B,     B) \
	X(H3,           DEFAULT, DEFAULT, B,     B) \
	X(EMPH,         DEFAULT, DEFAULT, I,     U) \
	X(STRONG,       DEFAULT, DEFAULT, B,     B) \
	X(CODE,         GREEN,   DEFAULT, N,     B) \
	X(CODE_BLOCK,   GREEN,   DEFAULT, N,     N) \
	X(LINK,         BLUE,    DEFAULT, U,     U) \
	X(QUOTE,        MAGENTA, DEFAULT, N,     N) \
	X(STEP_BLOCK,   MAGENTA, DEFAULT, B,     B) \
	X(GOOD,         GREEN,   DEFAULT, B,     B) \
	X(BAD,          RED,     DEFAULT, B,     B | U) \
	X(EXPECTED,     YELLOW,  DEFAULT, N,     U) \
	X(RECORDED,     BLACK,   YELLOW,  B,     R | B) \
	X(LIVE,         BLACK,   GREEN,   B,     R | B) \
	X(BAR,          CYAN,    DEFAULT, N,     N) \
	X(BAR_CURRENT,  YELLOW,  DEFAULT, B,     B) \
	X(BAR_BAD,      RED,     DEFAULT, N,     N) \
	X(BAR_MARK,     MAGENTA, DEFAULT, B,     B) \
	X(BIG,          WHITE,   DEFAULT, B,     B) \
	X(BIG_SPEEDUP,  GREEN,   DEFAULT, B,     B) \
	X(LINENO,       BLUE,    DEFAULT, N,     D) \
	X(SRC_KEYWORD,  YELLOW,  DEFAULT, N,     B) \
	X(SRC_CUDA,     MAGENTA, DEFAULT, B,     B) \
	X(SRC_TYPE,     GREEN,   DEFAULT, N,     N) \
	X(SRC_COMMENT,  CYAN,    DEFAULT, N,     D) \
	X(SRC_STRING,   RED,     DEFAULT, N,     N) \
	X(SRC_NUMBER,   MAGENTA, DEFAULT, N,     N) \
	X(SRC_PREPROC,  BLUE,    DEFAULT, B,     N) \
	X(INSN_MEM,     CYAN,    DEFAULT, B,     B) \
	X(INSN_SYNC,    MAGENTA, DEFAULT, B,     B) \
	X(INSN_SHFL,    GREEN,   DEFAULT, B,     B) \
	X(INSN_BRANCH,  YELLOW,  DEFAULT, B,     B) \
	X(INSN_TENSOR,  RED,     DEFAULT, B,     B) \
	X(INSN_FOCUS,   BLACK,   YELLOW,  B,     R | B) \
	X(HELP_KEY,     YELLOW,  DEFAULT, B,     B) \
	X(DIFF_ADD,     GREEN,   DEFAULT, B,     B) \
	X(DIFF_DEL,     RED,     DEFAULT, N,     D) \
	X(CURSOR,       BLACK,   CYAN,    N,     R)

enum style {
#define STYLE_ENUM(name, fg, bg, attr, mono) STYLE_##name,
	STYLE_TABLE(STYLE_ENUM)
#undef STYLE_ENUM
	STYLE_COUNT
};

#endif

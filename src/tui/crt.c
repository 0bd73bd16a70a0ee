/* The terminal: the one module that includes curses. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include <curses.h>

#include "i18n.h"
#include "tui/crt.h"
#include "tui/layout.h"

static SCREEN *screen;
static int active, unicode, color;
static volatile sig_atomic_t quit_signal, interrupts;
static sig_atomic_t interrupts_taken;
/* The handlers write a byte here, so that a poll() begun just after a signal still wakes. */
static int signal_pipe[2] = { -1, -1 };

/* The style table's colour columns, expanded here only. */
#define COLOR_DEFAULT (-1)
#define N A_NORMAL
#define B A_BOLD
#define R A_REVERSE
#define U A_UNDERLINE
#define D A_DIM
#define I A_ITALIC
static const struct {
	short fg, bg;
	attr_t attr, mono;
} styles[STYLE_COUNT] = {
#define STYLE_ROW(name, f, b, a, m) [STYLE_##name] = { COLOR_##f, COLOR_##b, a, m },
	STYLE_TABLE(STYLE_ROW)
#undef STYLE_ROW
};
#undef N
#undef B
#undef R
#undef U
#undef D
#undef I

static int env_set(const char *name)
{
	const char *v = getenv(name);
	return v != NULL && *v != '\0';
}

static void setup_colors(void)
{
	int defaults;

	color = has_colors() && !env_set("NO_COLOR") && start_color() == OK && COLORS >= 8 &&
	    COLOR_PAIRS > STYLE_COUNT;
	if (!color)
		return;
	defaults = use_default_colors() == OK;
	for (int i = 0; i < STYLE_COUNT; i++) {
		short fg = styles[i].fg, bg = styles[i].bg;
		if (!defaults) {
			if (fg < 0)
				fg = COLOR_WHITE;
			if (bg < 0)
				bg = COLOR_BLACK;
		}
		init_pair((short)(i + 1), fg, bg);
	}
}

int crt_start(struct error *e)
{
	const char *term = getenv("TERM");

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		error_set(e, _("the tutor needs a terminal; for output to a file or a pipe use "
		    "'cudatutor list' and 'cudatutor run LESSON'"));
		return -1;
	}
	if (term == NULL || *term == '\0' || strcmp(term, "dumb") == 0) {
		error_set(e, _("the terminal (TERM=%s) cannot show the full-screen tutor; use "
		    "'cudatutor list' and 'cudatutor run LESSON', or set TERM (e.g. xterm-256color)"),
		    term && *term ? term : "");
		return -1;
	}
	screen = newterm(NULL, stdout, stdin);
	if (screen == NULL) {
		error_set(e, _("the terminal type '%s' is unknown to curses; set TERM (e.g. "
		    "xterm-256color), or use 'cudatutor list' and 'cudatutor run LESSON'"), term);
		return -1;
	}
	set_term(screen);
	active = 1;
	unicode = strcmp(nl_langinfo(CODESET), "UTF-8") == 0 && !env_set("CUDATUTOR_ASCII");
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	setup_colors();
	mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
	mouseinterval(0);
	atexit(crt_stop);
	return 0;
}

void crt_stop(void)
{
	if (!active)
		return;
	active = 0;
	curs_set(1);
	endwin();
	fflush(stdout);
}

void crt_suspend(void)
{
	if (!active)
		return;
	def_prog_mode();
	curs_set(1);
	endwin();
	fflush(stdout);
}

void crt_resume(void)
{
	if (!active)
		return;
	reset_prog_mode();
	curs_set(0);
	clearok(curscr, TRUE);
	refresh();
}

int crt_rows(void)
{
	return LINES;
}

int crt_cols(void)
{
	return COLS;
}

int crt_unicode(void)
{
	return unicode;
}

void crt_begin_frame(void)
{
	attrset(A_NORMAL);
	erase();
}

void crt_end_frame(void)
{
	wnoutrefresh(stdscr);
	doupdate();
}

void crt_repaint(void)
{
	clearok(curscr, TRUE);
}

static void use_style(int style)
{
	if (style < 0 || style >= STYLE_COUNT)
		style = STYLE_NORMAL;
	if (color)
		attrset(styles[style].attr | COLOR_PAIR(style + 1));
	else
		attrset(styles[style].mono);
}

/* Without Unicode: a one-column ASCII stand-in, so that layouts keep their widths. */
static uint32_t ascii_for(uint32_t cp)
{
	static const struct {
		uint32_t cp;
		char c;
	} table[] = {
		{ 0x2190, '<' }, { 0x2192, '>' }, { 0x2191, '^' }, { 0x2193, 'v' },
		{ 0x00b1, '+' }, { 0x00d7, 'x' }, { 0x00b7, '.' }, { 0x2026, '~' },
		{ 0x2014, '-' }, { 0x2013, '-' }, { 0x2018, '\'' }, { 0x2019, '\'' },
		{ 0x201c, '"' }, { 0x201d, '"' }, { 0x2022, '*' }, { 0x2713, '*' },
		{ 0x2717, 'X' }, { 0x25b6, '>' }, { 0x25b8, '>' }, { 0x2500, '-' },
		{ 0x2502, '|' }, { 0x2503, '|' }, { 0x2588, '#' }, { 0x25cf, '*' },
		{ 0x25cb, '.' }, { 0x00a0, ' ' },
		/* the lessons' pictures: box corners and tees, double lines, shades, triangles */
		{ 0x2501, '-' }, { 0x250c, '+' }, { 0x2510, '+' }, { 0x2514, '+' }, { 0x2518, '+' },
		{ 0x251c, '+' }, { 0x2524, '+' }, { 0x252c, '+' }, { 0x2534, '+' }, { 0x253c, '+' },
		{ 0x2550, '=' }, { 0x2551, '|' }, { 0x256d, '+' }, { 0x256e, '+' }, { 0x256f, '+' },
		{ 0x2570, '+' }, { 0x2591, '.' }, { 0x2592, ':' }, { 0x2593, '#' }, { 0x25b2, '^' },
		{ 0x25bc, 'v' },
	};

	for (size_t i = 0; i < ARRAY_LEN(table); i++)
		if (table[i].cp == cp)
			return (uint32_t)(unsigned char)table[i].c;
	return '?';
}

int crt_textn(int y, int x, int w, int style, const char *s, size_t n)
{
	int col = x, limit = x + w;

	if (y < 0 || y >= LINES || x >= COLS || w <= 0)
		return 0;
	if (limit > COLS)
		limit = COLS;
	use_style(style);
	for (size_t i = 0; i < n && s[i] != '\0';) {
		uint32_t cp;
		int k = layout_utf8_next(s + i, n - i, &cp), cw;
		wchar_t wc[2] = { 0, 0 };

		i += (size_t)k;
		if (cp == '\t')
			cp = ' ';
		if (!unicode && cp >= 0x80)
			cp = ascii_for(cp);
		cw = layout_cp_width(cp);
		if (cw == 0)
			continue;
		if (col + cw > limit)
			break;
		if (col >= 0) {
			wc[0] = (wchar_t)cp;
			mvaddnwstr(y, col, wc, 1);
		}
		col += cw;
	}
	return col - x;
}

int crt_text(int y, int x, int w, int style, const char *s)
{
	return crt_textn(y, x, w, style, s, strlen(s));
}

void crt_fill(int y, int x, int w, int style)
{
	if (y < 0 || y >= LINES || x >= COLS)
		return;
	if (x + w > COLS)
		w = COLS - x;
	use_style(style);
	for (int i = 0; i < w; i++)
		mvaddch(y, x + i, ' ');
}

void crt_hline(int y, int x, int w, int style)
{
	const char *h = unicode ? "\xe2\x94\x80" : "-";

	for (int i = 0; i < w; i++)
		crt_text(y, x + i, 1, style, h);
}

void crt_vline(int y, int x, int h, int style)
{
	const char *v = unicode ? "\xe2\x94\x82" : "|";

	for (int i = 0; i < h; i++)
		crt_text(y + i, x, 1, style, v);
}

int crt_fd(void)
{
	return STDIN_FILENO;
}

static int map_key(int code)
{
	switch (code) {
	case KEY_UP: return CRT_KEY_UP;
	case KEY_DOWN: return CRT_KEY_DOWN;
	case KEY_LEFT: return CRT_KEY_LEFT;
	case KEY_RIGHT: return CRT_KEY_RIGHT;
	case KEY_PPAGE: return CRT_KEY_PGUP;
	case KEY_NPAGE: return CRT_KEY_PGDN;
	case KEY_HOME: return CRT_KEY_HOME;
	case KEY_END: return CRT_KEY_END;
	case KEY_ENTER: return CRT_KEY_ENTER;
	case KEY_BACKSPACE: return CRT_KEY_BACKSPACE;
	case KEY_BTAB: return CRT_KEY_BTAB;
	case KEY_RESIZE: return CRT_KEY_RESIZE;
	case KEY_MOUSE: return CRT_KEY_MOUSE;
	default:
		if (code >= KEY_F(0) && code <= KEY_F(24))
			return CRT_KEY_F(code - KEY_F(0));
		return 0;
	}
}

int crt_read(struct crt_event *ev)
{
	wint_t wch;
	int rc;

	memset(ev, 0, sizeof *ev);
	for (;;) {
		rc = get_wch(&wch);
		if (rc == ERR)
			return 0;
		if (rc == KEY_CODE_YES) {
			ev->key = map_key((int)wch);
			if (ev->key == CRT_KEY_MOUSE) {
				MEVENT m;
				if (getmouse(&m) != OK)
					continue;
				ev->y = m.y;
				ev->x = m.x;
				if (m.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED))
					ev->button = CRT_CLICK;
				else if (m.bstate & BUTTON4_PRESSED)
					ev->button = CRT_WHEEL_UP;
				else if (m.bstate & BUTTON5_PRESSED)
					ev->button = CRT_WHEEL_DOWN;
				else
					continue;
			}
			if (ev->key == 0)
				continue;	/* a key the tutor has no use for */
			return 1;
		}
		switch (wch) {
		case '\r':
		case '\n':
			ev->key = CRT_KEY_ENTER;
			break;
		case 27:
			ev->key = CRT_KEY_ESC;
			break;
		case 127:
		case 8:
			ev->key = CRT_KEY_BACKSPACE;
			break;
		case '\t':
			ev->key = CRT_KEY_TAB;
			break;
		default:
			ev->key = (int)wch;
			break;
		}
		return 1;
	}
}

static void on_quit_signal(int sig)
{
	int saved = errno;
	char c = (char)sig;

	/* Ctrl-C is counted, not obeyed: the main loop decides whether it cancels a run or quits. */
	if (sig == SIGINT)
		interrupts++;
	else
		quit_signal = sig;
	if (signal_pipe[1] >= 0 && write(signal_pipe[1], &c, 1) < 0) {
		/* full: the main loop has a wake-up waiting already */
	}
	errno = saved;
}

/* Curses's own resize handler, which ours runs first. */
static struct sigaction curses_winch;

/*
 * A resize: curses notes it (get_wch then returns KEY_RESIZE) and the main
 * loop wakes.  Without the byte, a resize that came while a frame was drawn,
 * before poll() began, waited for the next key.
 */
static void on_resize_signal(int sig, siginfo_t *info, void *context)
{
	int saved = errno;
	char c = (char)sig;

	if ((curses_winch.sa_flags & SA_SIGINFO) && curses_winch.sa_sigaction != NULL)
		curses_winch.sa_sigaction(sig, info, context);
	else if (!(curses_winch.sa_flags & SA_SIGINFO) && curses_winch.sa_handler != SIG_DFL &&
	    curses_winch.sa_handler != SIG_IGN)
		curses_winch.sa_handler(sig);
	if (signal_pipe[1] >= 0 && write(signal_pipe[1], &c, 1) < 0) {
		/* full: the main loop has a wake-up waiting already */
	}
	errno = saved;
}

static void on_fatal_signal(int sig)
{
	/* Not async-signal-safe, but leaving the terminal unusable is worse. */
	crt_stop();
	signal(sig, SIG_DFL);
	raise(sig);
}

void crt_signals(void)
{
	static const int quitting[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	struct sigaction sa;

	if (signal_pipe[0] < 0 && pipe(signal_pipe) == 0) {
		for (int i = 0; i < 2; i++) {
			fcntl(signal_pipe[i], F_SETFL, fcntl(signal_pipe[i], F_GETFL) | O_NONBLOCK);
			fcntl(signal_pipe[i], F_SETFD, FD_CLOEXEC);
		}
	}
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_quit_signal;
	for (size_t i = 0; i < ARRAY_LEN(quitting); i++)
		sigaction(quitting[i], &sa, NULL);
	/* curses set its SIGWINCH handler when it started: keep it, and wake the loop as well */
	sa.sa_sigaction = on_resize_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	if (sigaction(SIGWINCH, NULL, &curses_winch) == 0 && curses_winch.sa_sigaction != on_resize_signal)
		sigaction(SIGWINCH, &sa, NULL);
	sa.sa_handler = on_fatal_signal;
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < ARRAY_LEN(fatal); i++)
		sigaction(fatal[i], &sa, NULL);
}

int crt_quit_signal(void)
{
	return quit_signal;
}

int crt_take_interrupts(void)
{
	sig_atomic_t now = interrupts;
	int n = (int)(now - interrupts_taken);
	char buf[64];

	interrupts_taken = now;
	while (signal_pipe[0] >= 0 && read(signal_pipe[0], buf, sizeof buf) > 0)
		;
	return n;
}

int crt_signal_fd(void)
{
	return signal_pipe[0];
}

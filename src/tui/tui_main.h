/* The full-screen tutor (ncursesw): the only part of the program that includes curses. */
#ifndef CUDATUTOR_TUI_MAIN_H
#define CUDATUTOR_TUI_MAIN_H

struct tui_options {
	int present;		/* start in presenter mode */
	const char *lang;	/* lesson language directory, e.g. "zh_CN" */
	const char *class_dir;	/* open the class view on this folder of submissions, or NULL */
	const char *class_exercise;	/* its one exercise, or NULL */
};

/* Runs until the user quits; the terminal is restored on every exit path. */
int tui_main(const struct tui_options *o);

#endif

/* The commands: one table entry per command, one option parser for them all. */
#ifndef CUDATUTOR_CMD_H
#define CUDATUTOR_CMD_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/cli.h"
#include "lesson.h"
#include "results.h"
#include "session.h"

/*
 * A command is one file, src/cmd/<name>.c, that defines
 *
 *	const struct command cmd_<name>_entry = {
 *		.name = "run",
 *		.args = "LESSON",
 *		.summary = N_("..."),
 *		.options = (const enum cmd_opt[]){ OPT_STEP, OPT_SIZE, ..., OPT_END },
 *		.exec = run_exec,
 *	};
 *
 * and its line in main.c's table (the file is listed in Makefile.am's
 * CMD_SOURCES and po/POTFILES.in too).  cmd_parse() reads the options the
 * command lists, checks every value the same way for every command (one
 * line on stderr and EXIT_USAGE for a bad one), and hands the values to
 * exec in a struct cmd_ctx; --help is made from the same table.  exec
 * checks its own words (LESSON, KERNEL), asks src/session.c what to do and
 * draws with src/cli.c; it decides nothing the tutor would decide too.
 *
 * A new option is an OPT_ name below, its line in options.c's table, and,
 * if it takes a value, its check in options.c and a field in cmd_ctx.
 */

#define EXIT_USAGE 2
#define EXIT_WRONG 3	/* a step ran but its check failed, not by design */
/* an exercise compiled and its SASS checks pass, but no GPU judged its answers and time */
#define EXIT_NOT_GRADED 4

/* Every option of every command; cmd_option() describes each. */
enum cmd_opt {
	OPT_END,
	/* in the order --help lists them */
	OPT_SIZE, OPT_BLOCK, OPT_STEP, OPT_FORMAT, OPT_RECORDED, OPT_RUNS, OPT_ARCH, OPT_LINES,
	OPT_LINE, OPT_WIDTH, OPT_OUTPUT, OPT_RECORD, OPT_SIZES, OPT_LESSONS, OPT_BLOCKS, OPT_PAD, OPT_BYTES, OPT_LANG, OPT_PRESENT,
	OPT_KERNELS, OPT_SOURCE, OPT_PTX, OPT_SASS, OPT_RESOURCES, OPT_STATS, OPT_OCCUPANCY,
	OPT_EXPLAIN, OPT_NO_METRICS, OPT_STALLS,
	OPT_COMPARE, OPT_DIR, OPT_FILE, OPT_WATCH, OPT_SANITIZE, OPT_SEED, OPT_YES, OPT_NAME, OPT_EXERCISE, OPT_CLASS,
	OPT_COUNT
};

struct cmd_option {
	const char *name;		/* "size", for --size */
	enum { ARG_NONE, ARG_REQUIRED, ARG_OPTIONAL } arg;
	const char *value;		/* "N", "FILE": its value in --help */
	const char *help;		/* N_(); NULL: the summary of its command tells it */
	/*
	 * One of several ways a command does its work (show --sass): a
	 * command takes one of its choices at a time, and --help lists them
	 * as one [--a|--b].
	 */
	bool choice;
};

const struct cmd_option *cmd_option(enum cmd_opt id);

/* What --format takes: the words and the message for anything else. */
enum cmd_formats {
	FORMATS_NONE,		/* the command has no --format */
	FORMATS_TEXT_JSON_CSV,
	FORMATS_TEXT_JSON,
	FORMATS_TEXT_JSON_MARKDOWN,
};

/* "text|json|csv" */
const char *cmd_formats_words(enum cmd_formats formats);

struct cmd_ctx;

struct command {
	const char *name;		/* NULL: the tutor, which runs when no command is named */
	const char *args;		/* its words in the synopsis: "LESSON [STEP]" */
	const char *summary;		/* N_(): lines of at most 66 columns */
	const enum cmd_opt *options;	/* in synopsis order, up to OPT_END */
	enum cmd_formats formats;	/* with OPT_FORMAT */
	int min_width;			/* with OPT_WIDTH: the fewest columns it takes */
	/*
	 * An option that makes the command do something else, shown on a
	 * synopsis line of its own with --format (metrics --explain), and what
	 * --format then takes.  --format is checked after every option is
	 * read, since it depends on this one.
	 */
	enum cmd_opt mode;
	enum cmd_formats mode_formats;
	int (*exec)(struct cmd_ctx *c);
};

/* The command line, read: every option's value, checked, and the words left. */
struct cmd_ctx {
	const struct command *cmd;
	int argc;			/* the words that are not options */
	char **argv;
	bool given[OPT_COUNT];		/* which options were given */
	enum cmd_opt choice;		/* the choice given (OPT_SASS), else OPT_END */
	unsigned long long size, step, runs, line, width, bytes, seed;	/* 0: not given */
	unsigned long long *sizes;	/* --sizes, nsizes of them (a range A..B: each value of it) */
	int nsizes;
	unsigned long long *blocks;	/* --blocks, nblocks of them */
	int nblocks;
	unsigned int block;		/* 0: not given */
	const char *format_name;	/* as given; "text" if not */
	enum cli_format format;		/* FORMAT_TEXT for "markdown" */
	const char *lang;		/* --lang as given, NULL if not: see cmd_language() */
	char arch[16];			/* --arch as "sm_90", "" if not given */
	const char *recorded_file;	/* --recorded=FILE, NULL for the newest */
	const char *output;		/* --output */
	const char *compare_file;	/* --compare */
	const char *dir;		/* --dir: where the exercises' working copies are */
	const char *file;		/* --file: a file to check instead of the working copy */
	const char *lessons;		/* --lessons: "reduction,pitch", NULL if not given */
	const char *name;		/* --name: the student's, for submit */
	const char *exercise;		/* --exercise: class judges this exercise only */
	const char *class_dir;		/* --class: the tutor opens the class view on it */
};

/*
 * Read argv (argv[0] is the command's name, or the program's for the
 * tutor) by cmd's options into c.  0, or -1 after one line on stderr.
 */
int cmd_parse(const struct command *cmd, int argc, char **argv, struct cmd_ctx *c);
void cmd_ctx_free(struct cmd_ctx *c);
/* Parse, run exec, free: the program's exit status. */
int cmd_execute(const struct command *cmd, int argc, char **argv);

/* --help: the synopsis of each command, what each does, the options. */
void cmd_usage(FILE *out, const struct command *const *table, size_t n);

/* ---- what the commands share ---- */

extern const char cmd_program[];

/* One line on stderr, after the program's name: an error or a notice. */
void cmd_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The architecture whose SASS to show for a kernel module: --arch as
 * given, else the session's choice (session_arch_here): 0, or -1 and e.
 * With e NULL it never fails: session_counts_arch's fallback instead.
 */
int cmd_arch(const struct cmd_ctx *c, const char *module, char *buf, size_t len, struct error *e);

/* The lesson language: --lang, else the locale's variables, else "en".  Newly allocated. */
char *cmd_language(const char *option);
/* Load the lessons in that language; -1 after one line. */
int cmd_load_lessons(const char *lang_option, struct lesson_set *set);
/*
 * Load the lessons and find lesson id, whole, with at least `step` steps
 * (0: any).  NULL after one line when it is unknown, does not load, or is
 * shorter.
 */
struct lesson *cmd_open_lesson(const char *lang_option, const char *id, unsigned long long step,
    struct lesson_set *set);
/* The same in lessons already loaded. */
struct lesson *cmd_find_lesson(struct lesson_set *set, const char *id, unsigned long long step);
/* l with step `step` (1-based) alone, made in view; l itself for 0. */
const struct lesson *cmd_one_step(const struct lesson *l, unsigned long long step,
    struct lesson *view);

/* A progress line on a terminal while the steps of a lesson run. */
struct cmd_run_progress {
	const struct lesson *lesson;
	int step;
	bool shown;
	struct session_hooks hooks;	/* for session_run and its callers */
};
/* Measuring options for runs (see session_measure_options) that draw p. */
void cmd_run_progress(struct cmd_run_progress *p, const struct lesson *l, int runs,
    struct measure_options *o);
/* Clear the line, if one was drawn. */
void cmd_run_progress_end(struct cmd_run_progress *p);

/* A progress line per step while counters are read, on a terminal: session_hooks' ctx. */
struct cmd_counters_progress {
	const struct lesson *lesson;
	bool shown;
};
void cmd_counters_begin(void *ctx, int i);
void cmd_counters_done(void *ctx, const struct run_report *r, int i);

#endif

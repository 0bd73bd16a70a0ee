/* Every command's options: one table, one parser, each value checked in one place; running a command. */
#include "config.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "i18n.h"
#include "lesson.h"
#include "paths.h"
#include "sweep.h"
#include "util.h"

static const struct cmd_option options[OPT_COUNT] = {
	[OPT_SIZE] = { "size", ARG_REQUIRED, "N",
	    N_("elements per step, or rows of the matrices (default: the\n"
	    "lesson's, mostly 2^24; also 2^28, 1<<20, 16M)") },
	[OPT_BLOCK] = { "block", ARG_REQUIRED, "N",
	    N_("threads per block (default: the lesson's, mostly 1024)") },
	[OPT_STEP] = { "step", ARG_REQUIRED, "N", N_("only step N of the lesson") },
	[OPT_FORMAT] = { "format", ARG_REQUIRED, "F",
	    N_("text, json, csv or markdown, as each synopsis shows") },
	[OPT_RECORDED] = { "recorded", ARG_OPTIONAL, "FILE",
	    N_("show recorded results (default: the newest in data/results)") },
	[OPT_RUNS] = { "runs", ARG_REQUIRED, "N",
	    N_("time N runs after one warm-up run (default: up to 3 warm-up runs,\n"
	    "then 5 to 200 runs, about half a second's worth)") },
	[OPT_ARCH] = { "arch", ARG_REQUIRED, "sm_XX",
	    N_("the architecture whose SASS, resources or occupancy to show") },
	[OPT_LINES] = { "lines", ARG_NONE, NULL,
	    N_("number the source, or give each SASS instruction its source line") },
	[OPT_LINE] = { "line", ARG_REQUIRED, "N",
	    N_("only the SASS that line N of the kernel's .cu file became") },
	[OPT_WIDTH] = { "width", ARG_REQUIRED, "N",
	    N_("columns to format diff and read for (default: the terminal's)") },
	[OPT_OUTPUT] = { "output", ARG_REQUIRED, "FILE",
	    N_("record: the file to write (default: data/results/GPU.json in\n"
	    "a source tree, else GPU.json here); roofs: the recorded file of\n"
	    "this GPU to write the roofs into") },
	[OPT_SIZES] = { "sizes", ARG_REQUIRED, "N,N",
	    N_("record: the sizes, separated by commas (default: each\n"
	    "lesson's own, and 2^28 where it takes that many); sweep: also\n"
	    "a range A..B, x4 apart (A..B:F: xF), default 2^10..2^28") },
	[OPT_BLOCKS] = { "blocks", ARG_REQUIRED, "A..B",
	    N_("sweep: the block sizes instead, a range x2 apart or N,N\n"
	    "(default 64..1024), at the lesson's size or --size") },
	[OPT_RECORD] = { "record", ARG_NONE, NULL,
	    N_("sweep: write the sweep into this GPU's recorded file\n"
	    "(--output FILE: that file), keeping all else in it") },
	[OPT_LESSONS] = { "lessons", ARG_REQUIRED, "ID,ID",
	    N_("record: only these lessons, merged into the recorded file of\n"
	    "this GPU (the other lessons' runs are kept as they were)") },
	[OPT_PAD] = { "pad", ARG_NONE, NULL,
	    N_("banks: one spare word after every 32 (a 32 x 33 array)") },
	[OPT_BYTES] = { "bytes", ARG_REQUIRED, "N",
	    N_("banks: bytes per element, 1, 2, 4, 8 or 16 (default 4)") },
	[OPT_LANG] = { "lang", ARG_REQUIRED, "LANG",
	    N_("lesson language, e.g. en or zh_CN (default: from the locale)") },
	[OPT_PRESENT] = { "present", ARG_NONE, NULL, N_("start the tutor in presenter mode") },
	[OPT_COMPARE] = { "compare", ARG_REQUIRED, "FILE",
	    N_("run: beside results recorded on another GPU, with the ratio per step") },
	[OPT_DIR] = { "dir", ARG_REQUIRED, "DIR",
	    N_("exercises: where the working copies are (default:\n"
	    "$XDG_DATA_HOME/cudatutor/exercises)") },
	[OPT_FILE] = { "file", ARG_REQUIRED, "FILE",
	    N_("check, submit: this file instead of the exercise's working copy") },
	[OPT_WATCH] = { "watch", ARG_NONE, NULL, N_("check: again each time the file is saved") },
	[OPT_SANITIZE] = { "sanitize", ARG_NONE, NULL,
	    N_("check: run the kernel under compute-sanitizer's memcheck, synccheck\n"
	    "and (with shared memory) racecheck as well") },
	[OPT_SEED] = { "seed", ARG_REQUIRED, "N",
	    N_("check: draw the inputs and the random size from seed N, as the\n"
	    "check that printed it did (default: a new seed each check)") },
	[OPT_YES] = { "yes", ARG_NONE, NULL, N_("solution: show it without asking") },
	[OPT_NAME] = { "name", ARG_REQUIRED, "NAME",
	    N_("submit: your name, as your teacher's class list has it") },
	[OPT_EXERCISE] = { "exercise", ARG_REQUIRED, "ID",
	    N_("class: judge and rank this exercise's submissions only") },
	[OPT_CLASS] = { "class", ARG_REQUIRED, "DIR",
	    N_("open the class view: the board of the kernels handed in to DIR,\n"
	    "judged as they arrive (with --present, in big type)") },
	/* told by their commands' summaries */
	[OPT_KERNELS] = { "kernels", ARG_NONE, NULL, NULL },
	[OPT_SOURCE] = { "source", ARG_NONE, NULL, NULL, .choice = true },
	[OPT_PTX] = { "ptx", ARG_NONE, NULL, NULL, .choice = true },
	[OPT_SASS] = { "sass", ARG_NONE, NULL, NULL, .choice = true },
	[OPT_RESOURCES] = { "resources", ARG_NONE, NULL, NULL, .choice = true },
	[OPT_STATS] = { "stats", ARG_NONE, NULL, NULL, .choice = true },
	[OPT_OCCUPANCY] = { "occupancy", ARG_NONE, NULL, NULL, .choice = true },
	[OPT_EXPLAIN] = { "explain", ARG_NONE, NULL, NULL },
	[OPT_NO_METRICS] = { "no-metrics", ARG_NONE, NULL, NULL },
	[OPT_STALLS] = { "stalls", ARG_NONE, NULL,
	    N_("where the warps wait, line by line: record reads ncu's warp-state\n"
	    "samples at each SASS instruction (a second ncu run); show --sass\n"
	    "puts the recorded ones beside the SASS") },
};

const struct cmd_option *cmd_option(enum cmd_opt id)
{
	return &options[id];
}

/* getopt_long's value for option id: clear of ':' and '?', which it returns itself. */
#define GETOPT_VAL(id) (0x100 + (int)(id))

/* ---- option values --------------------------------------------------------- */

/* opt: the option it came with, for the message ("--size", "--sizes"). */
static int parse_size(const char *opt, const char *s, unsigned long long *out)
{
	if (parse_count(s, out) != 0 || *out == 0) {
		cmd_fail(_("%s: '%s' is not a positive count of elements (e.g. 16777216, 2^24, 16M)"), opt, s);
		return -1;
	}
	if (*out > (1ULL << 34)) {
		cmd_fail(_("%s: %s is more elements than any lesson takes (at most 2^34)"), opt, s);
		return -1;
	}
	return 0;
}

static int parse_sizes(const char *s, unsigned long long **sizes, int *n)
{
	char *copy = xstrdup(s);
	int rc = 0;

	*n = 0;
	*sizes = NULL;
	for (char *t = strtok(copy, ","); t != NULL; t = strtok(NULL, ",")) {
		*sizes = xrealloc(*sizes, (size_t)(*n + 1) * sizeof **sizes);
		if (parse_size("--sizes", t, &(*sizes)[*n]) != 0) {
			rc = -1;
			break;
		}
		(*n)++;
	}
	free(copy);
	if (rc == 0 && *n == 0) {
		cmd_fail(_("--sizes: give one or more sizes separated by commas"));
		rc = -1;
	}
	return rc;
}

/* --sizes A..B and --blocks: a sweep's values (sweep.h); -1 after one line. */
static int parse_values(enum cmd_opt id, const char *s, unsigned long long **out, int *n)
{
	struct error e;

	if (sweep_parse_values(s, id == OPT_BLOCKS, out, n, &e) != 0) {
		cmd_fail("--%s: %s", options[id].name, e.msg);
		return -1;
	}
	return 0;
}

/* --width: columns from least to 1000. */
static int parse_width(const char *s, int least, unsigned long long *out)
{
	if (parse_count(s, out) != 0 || *out < (unsigned long long)least || *out > 1000) {
		cmd_fail(_("--width: '%s' is not a width from %d to 1000 columns"), s, least);
		return -1;
	}
	return 0;
}

static int parse_block(const char *s, unsigned int *out)
{
	unsigned long long v;

	if (parse_count(s, &v) != 0 || v == 0 || v > 1024) {
		cmd_fail(_("--block: '%s' is not a block size from 1 to 1024 threads"), s);
		return -1;
	}
	*out = (unsigned int)v;
	return 0;
}

/* "sm_90" or "90" -> "sm_90". */
static int parse_arch(const char *s, char *buf, size_t len)
{
	const char *digits = strncmp(s, "sm_", 3) == 0 ? s + 3 : s;
	size_t n = strspn(digits, "0123456789");

	if (n < 2 || n > 3 || digits[n] != '\0') {
		cmd_fail(_("--arch: '%s' is not an architecture such as sm_90 (see cudatutor --version)"), s);
		return -1;
	}
	snprintf(buf, len, "sm_%s", digits);
	return 0;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The languages there are lessons in, "en, zh_CN", for messages. */
static void lesson_languages(struct strbuf *b)
{
	char *dir = paths_source("lessons");
	DIR *d = opendir(dir);
	struct dirent *ent;
	char **names = NULL;
	size_t n = 0;

	while (d != NULL && (ent = readdir(d)) != NULL) {
		char *sub;

		if (ent->d_name[0] == '.')
			continue;
		sub = xasprintf("%s/%s", dir, ent->d_name);
		if (dir_exists(sub)) {
			names = xrealloc(names, (n + 1) * sizeof *names);
			names[n++] = xstrdup(ent->d_name);
		}
		free(sub);
	}
	if (d != NULL)
		closedir(d);
	if (n > 0)
		qsort(names, n, sizeof *names, compare_strings);
	for (size_t i = 0; i < n; i++) {
		strbuf_addf(b, "%s%s", i ? ", " : "", names[i]);
		free(names[i]);
	}
	free(names);
	free(dir);
}

/*
 * --lang: a language there are lessons in ("zh" and "zh_TW" find zh_CN);
 * the locale may name any language, but an option asks for this one.
 */
static int check_lang(const char *s)
{
	struct strbuf have = { 0 };
	char *lang;
	int ok = 0;

	if (*s != '\0' && strchr(s, '/') == NULL) {
		lang = lesson_pick_language(s);
		ok = strcmp(lang, "en") != 0 || strcmp(s, "C") == 0 || strcmp(s, "POSIX") == 0 ||
		    (strncmp(s, "en", 2) == 0 && strchr("_-.@", s[2]) != NULL);
		free(lang);
	}
	if (ok)
		return 0;
	lesson_languages(&have);
	cmd_fail(_("--lang: there are no lessons in '%s' (there are: %s)"), s, have.len ? have.s : "en");
	strbuf_free(&have);
	return -1;
}

/*
 * --output: a file record can write, checked before an hour of recording:
 * not empty, not a directory, in a directory that is there and writable.
 */
static int check_output(const char *path, bool folder_too)
{
	char *dir = path_dir(path);
	int rc = -1;

	if (*path == '\0')
		cmd_fail(_("--output: give a file name, such as results.json"));
	else if (folder_too && dir_exists(path) && access(path, W_OK) != 0)
		cmd_fail(_("--output: cannot write in %s (%s)"), path, strerror(errno));
	else if (folder_too && dir_exists(path))
		rc = 0;
	else if (dir_exists(path))
		cmd_fail(_("--output: %s is a directory: give a file name, such as %s/results.json"), path, path);
	else if (!dir_exists(dir))
		cmd_fail(_("--output: there is no directory %s"), dir);
	else if (access(dir, W_OK) != 0)
		cmd_fail(_("--output: cannot write in %s (%s)"), dir, strerror(errno));
	else
		rc = 0;
	free(dir);
	return rc;
}

/*
 * --recorded takes an optional file: "--recorded=FILE", and also
 * "--recorded FILE" when the next word names a .json file or a file that
 * is there (a lesson's name is neither, unless a file of that name is in
 * the current folder: --recorded=FILE says which is meant).
 */
static int recorded_option(int argc, char **argv, const char **file)
{
	struct stat st;

	if (optarg == NULL && optind < argc && argv[optind][0] != '-' &&
	    (strstr(argv[optind], ".json") != NULL || (stat(argv[optind], &st) == 0 && S_ISREG(st.st_mode))))
		optarg = argv[optind++];
	if (optarg != NULL && *optarg == '\0') {
		cmd_fail(_("--recorded=: give a results file, or no '=' for the newest recorded ones"));
		return -1;
	}
	*file = optarg;
	return 0;
}

/* The words --format takes, and what is said of anything else. */
static const struct {
	const char *words;
	const char *wrong;
} format_sets[] = {
	[FORMATS_TEXT_JSON_CSV] = { "text|json|csv", N_("--format: '%s' is not text, json or csv") },
	[FORMATS_TEXT_JSON] = { "text|json", N_("--format: '%s' is not text or json") },
	[FORMATS_TEXT_JSON_MARKDOWN] = { "text|json|markdown",
	    N_("--format: '%s' is not text, json or markdown") },
};

const char *cmd_formats_words(enum cmd_formats formats)
{
	return format_sets[formats].words;
}

/* Is name one of the words of list ("text|json|csv")? */
static bool one_of(const char *name, const char *list)
{
	for (const char *w = list; *w != '\0'; w += *w == '|') {
		size_t n = strcspn(w, "|");

		if (strlen(name) == n && strncmp(w, name, n) == 0)
			return true;
		w += n;
	}
	return false;
}

static int check_format(struct cmd_ctx *c, enum cmd_formats formats)
{
	assert(formats != FORMATS_NONE);	/* a command with --format says what it takes */
	if (!one_of(c->format_name, format_sets[formats].words)) {
		cmd_fail(_(format_sets[formats].wrong), c->format_name);
		return -1;
	}
	/* markdown is text to cli_parse_format */
	if (cli_parse_format(c->format_name, &c->format) != 0)
		c->format = FORMAT_TEXT;
	return 0;
}

/* ---- reading them ---------------------------------------------------------------- */

/*
 * What getopt_long found wrong, in one line (opterr is off; the option
 * string starts with ':' so that a missing value is told apart).  A
 * negative number looks like an option to getopt: say that instead.
 */
static void option_error(const struct command *cmd, int argc, char **argv, int c)
{
	const char *arg = optind > 0 && optind <= argc ? argv[optind - 1] : "";
	/* "run: ", or nothing for the tutor's own options */
	char prefix[64] = "";

	if (cmd->name != NULL)
		snprintf(prefix, sizeof prefix, "%.40s: ", cmd->name);
	if (c == ':') {
		cmd_fail(_("%s%s needs a value (see cudatutor --help)"), prefix, arg);
		return;
	}
	if (optopt >= '0' && optopt <= '9') {
		for (int i = 1; i < argc; i++)
			if (argv[i][0] == '-' && argv[i][1] == optopt) {
				arg = argv[i];
				break;
			}
		cmd_fail(_("%s'%s': negative numbers are not accepted here (see cudatutor --help)"), prefix, arg);
		return;
	}
	if (strncmp(arg, "--", 2) == 0 && strchr(arg, '=') != NULL && optopt != 0) {
		cmd_fail(_("%s%.*s takes no value"), prefix, (int)(strchr(arg, '=') - arg), arg);
		return;
	}
	if (optopt != 0 && strncmp(arg, "--", 2) != 0)
		cmd_fail(_("%sunknown option '-%c' (see cudatutor --help)"), prefix, optopt);
	else
		cmd_fail(_("%sunknown option '%s' (see cudatutor --help)"), prefix, arg);
}

/* A second choice of cmd where it takes one: "show takes one of --source, --ptx, ...". */
static void choice_error(const struct command *cmd)
{
	struct strbuf list = { 0 };

	for (const enum cmd_opt *o = cmd->options; *o != OPT_END; o++)
		if (options[*o].choice)
			strbuf_addf(&list, "%s--%s", list.len ? ", " : "", options[*o].name);
	cmd_fail(_("%s takes one of %s"), cmd->name, list.s);
	strbuf_free(&list);
}

/* --step, --runs, --line, --bytes: a count in its range, into c; -1 after one line. */
static int take_count(enum cmd_opt id, struct cmd_ctx *c)
{
	unsigned long long n;

	switch (id) {
	case OPT_STEP:
		if (parse_count(optarg, &c->step) != 0 || c->step == 0) {
			cmd_fail(_("--step: '%s' is not a step number (1, 2, ...)"), optarg);
			return -1;
		}
		return 0;
	case OPT_RUNS:
		if (parse_count(optarg, &c->runs) != 0 || c->runs == 0 || c->runs > 100000) {
			cmd_fail(_("--runs: '%s' is not a number of runs from 1 to 100000"), optarg);
			return -1;
		}
		return 0;
	case OPT_LINE:
		if (parse_count(optarg, &c->line) != 0 || c->line == 0 || c->line > 1000000) {
			cmd_fail(_("--line: '%s' is not a line number"), optarg);
			return -1;
		}
		return 0;
	case OPT_SEED:
		if (parse_count(optarg, &c->seed) != 0 || c->seed == 0 || c->seed > 999999999999ULL) {
			cmd_fail(_("--seed: '%s' is not a seed from 1 to 999999999999 (check prints the one it drew)"),
			    optarg);
			return -1;
		}
		return 0;
	default:	/* OPT_BYTES */
		if (parse_count(optarg, &n) != 0 || (n != 1 && n != 2 && n != 4 && n != 8 && n != 16)) {
			cmd_fail(_("--bytes: '%s' is not an element size of 1, 2, 4, 8 or 16 bytes"), optarg);
			return -1;
		}
		c->bytes = n;
		return 0;
	}
}

/* --compare, --dir, --file, --lessons, --name, --exercise: a name that is not empty, into c; -1 after one line. */
static int take_name(enum cmd_opt id, struct cmd_ctx *c)
{
	switch (id) {
	case OPT_COMPARE:
		c->compare_file = optarg;
		if (*optarg == '\0') {
			cmd_fail(_("--compare: give a results file recorded on another GPU"));
			return -1;
		}
		return 0;
	case OPT_DIR:
		c->dir = optarg;
		if (*optarg == '\0') {
			cmd_fail(_("--dir: give a directory for the working copies"));
			return -1;
		}
		return 0;
	case OPT_LESSONS:
		c->lessons = optarg;
		if (*optarg == '\0') {
			cmd_fail(_("--lessons: give the lessons to record, separated by commas"));
			return -1;
		}
		return 0;
	case OPT_NAME:
		c->name = optarg;
		if (*optarg == '\0') {
			cmd_fail(_("--name: give your name, as your teacher's class list has it"));
			return -1;
		}
		return 0;
	case OPT_CLASS:
		c->class_dir = optarg;
		if (*optarg == '\0') {
			cmd_fail(_("--class: give the folder the class's submissions are in"));
			return -1;
		}
		return 0;
	case OPT_EXERCISE:
		c->exercise = optarg;
		if (*optarg == '\0') {
			cmd_fail(_("--exercise: give an exercise's id (see cudatutor exercise)"));
			return -1;
		}
		return 0;
	default:	/* OPT_FILE */
		c->file = optarg;
		if (*optarg == '\0') {
			cmd_fail(_("--file: give the .cu file to check"));
			return -1;
		}
		return 0;
	}
}

/* The value of option id, checked into c; -1 after one line. */
static int take(const struct command *cmd, enum cmd_opt id, int argc, char **argv,
    struct cmd_ctx *c)
{
	if (options[id].choice) {
		if (c->choice != OPT_END && c->choice != id) {
			choice_error(cmd);
			return -1;
		}
		c->choice = id;
	}
	switch (id) {
	case OPT_SIZE:
		return parse_size("--size", optarg, &c->size);
	case OPT_SIZES:
		free(c->sizes);
		if (strstr(optarg, "..") != NULL)
			return parse_values(id, optarg, &c->sizes, &c->nsizes);
		return parse_sizes(optarg, &c->sizes, &c->nsizes);
	case OPT_BLOCKS:
		free(c->blocks);
		return parse_values(id, optarg, &c->blocks, &c->nblocks);
	case OPT_BLOCK:
		return parse_block(optarg, &c->block);
	case OPT_STEP:
	case OPT_RUNS:
	case OPT_LINE:
	case OPT_BYTES:
	case OPT_SEED:
		return take_count(id, c);
	case OPT_FORMAT:
		c->format_name = optarg;
		/* with a mode, what --format takes is known once every option is read */
		return cmd->mode == OPT_END ? check_format(c, cmd->formats) : 0;
	case OPT_RECORDED:
		return recorded_option(argc, argv, &c->recorded_file);
	case OPT_ARCH:
		return parse_arch(optarg, c->arch, sizeof c->arch);
	case OPT_WIDTH:
		return parse_width(optarg, cmd->min_width, &c->width);
	case OPT_OUTPUT:
		c->output = optarg;
		/* submit hands in to a folder as well: the teacher's */
		return check_output(optarg, cmd->name != NULL && strcmp(cmd->name, "submit") == 0);
	case OPT_LANG:
		c->lang = optarg;
		return check_lang(optarg);
	case OPT_COMPARE:
	case OPT_DIR:
	case OPT_FILE:
	case OPT_LESSONS:
	case OPT_NAME:
	case OPT_EXERCISE:
	case OPT_CLASS:
		return take_name(id, c);
	default:
		/* a flag: given[] says it all */
		return 0;
	}
}

int cmd_parse(const struct command *cmd, int argc, char **argv, struct cmd_ctx *c)
{
	struct option longopts[OPT_COUNT + 1];
	static const int has_arg[] = {
		[ARG_NONE] = no_argument,
		[ARG_REQUIRED] = required_argument,
		[ARG_OPTIONAL] = optional_argument,
	};
	size_t n = 0;
	int got;

	memset(c, 0, sizeof *c);
	c->cmd = cmd;
	c->format_name = "text";
	for (const enum cmd_opt *o = cmd->options; *o != OPT_END; o++)
		longopts[n++] = (struct option){ options[*o].name, has_arg[options[*o].arg], NULL,
		    GETOPT_VAL(*o) };
	longopts[n] = (struct option){ NULL, 0, NULL, 0 };

	/* getopt_long says nothing itself: option_error says it in one line of ours */
	opterr = 0;
	optind = 0;	/* from the start, each time */
	while ((got = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
		enum cmd_opt id = (enum cmd_opt)(got - GETOPT_VAL(0));

		if (got <= GETOPT_VAL(OPT_END) || got >= GETOPT_VAL(OPT_COUNT)) {
			option_error(cmd, argc, argv, got);
			return -1;
		}
		c->given[id] = true;
		if (take(cmd, id, argc, argv, c) != 0)
			return -1;
	}
	if (cmd->mode != OPT_END &&
	    check_format(c, c->given[cmd->mode] ? cmd->mode_formats : cmd->formats) != 0)
		return -1;
	c->argc = argc - optind;
	c->argv = argv + optind;
	return 0;
}

void cmd_ctx_free(struct cmd_ctx *c)
{
	free(c->sizes);
	c->sizes = NULL;
	free(c->blocks);
	c->blocks = NULL;
}

int cmd_execute(const struct command *cmd, int argc, char **argv)
{
	struct cmd_ctx c;
	int rc = EXIT_USAGE;

	if (cmd_parse(cmd, argc, argv, &c) == 0)
		rc = cmd->exec(&c);
	cmd_ctx_free(&c);
	return rc;
}

/* cudatutor: commands, options, and the choice between live and recorded results. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "banks.h"
#include "cli.h"
#include "cli_metrics.h"
#include "gpu.h"
#include "i18n.h"
#include "inspect.h"
#include "isolate.h"
#include "lesson.h"
#include "measure.h"
#include "metrics.h"
#include "occupancy.h"
#include "paths.h"
#include "results.h"
#include "runner.h"
#include "sass.h"
#include "tui/tui.h"

#define EXIT_USAGE 2
#define EXIT_WRONG 3	/* a step ran but its check failed, not by design */

static const char *program = "cudatutor";

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", program);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void usage(FILE *out)
{
	fprintf(out, _("Usage: %s [--present] [--lang LANG]\n"
	    "       %s list [--kernels] [--format text|json|csv] [--lang LANG]\n"
	    "       %s run LESSON [--step N] [--size N] [--block N] [--format text|json|csv]\n"
	    "                  [--recorded [FILE]] [--runs N]\n"
	    "       %s show KERNEL --source|--ptx|--sass|--resources|--stats|--occupancy\n"
	    "                  [--arch sm_XX] [--lines] [--line N] [--block N]\n"
	    "       %s diff KERNEL_A KERNEL_B [--arch sm_XX] [--format text|json] [--width N]\n"
	    "       %s read LESSON [--step N] [--width N]\n"
	    "       %s metrics LESSON [STEP] [--size N] [--block N] [--format text|json]\n"
	    "                  [--recorded [FILE]]\n"
	    "       %s metrics --explain [--format text|json|markdown]\n"
	    "       %s record [--output FILE] [--sizes N,N] [--block N] [--no-metrics]\n"
	    "       %s banks STRIDE [--pad] [--bytes N] [--format text|json]\n"
	    "       %s --help | --version\n"
	    "\n"
	    "With no command, opens the full-screen tutor where you left off.\n"
	    "\n"
	    "Commands:\n"
	    "  list     the lessons and their steps (--kernels: every kernel)\n"
	    "  run      run every step of a lesson on this GPU and print the results;\n"
	    "           without a GPU, or with --recorded, show results recorded on one\n"
	    "  show     a kernel's CUDA source, PTX, SASS, resource report, instruction\n"
	    "           mix (--stats), or blocks and warps per multiprocessor for each\n"
	    "           block size (--occupancy)\n"
	    "  diff     two kernels' instruction mixes and SASS, aligned line by line\n"
	    "  read     a lesson's text, for reading without the full-screen tutor\n"
	    "  metrics  hardware counters of each step (DRAM throughput, load efficiency,\n"
	    "           bank conflicts, occupancy, stalls), read by Nsight Compute's ncu;\n"
	    "           without a GPU, those recorded on one; --explain: what each means\n"
	    "  record   run every lesson at each size and save the results as JSON,\n"
	    "           with the counters of each step at its first size unless --no-metrics\n"
	    "  banks    which shared-memory bank each lane of a warp reads at a stride\n"
	    "\n"
	    "Options:\n"
	    "  --size N        elements per step, or rows of the matrices (default: the\n"
	    "                  lesson's, mostly 2^24; also 2^28, 1<<20, 16M)\n"
	    "  --block N       threads per block (default: the lesson's, mostly 1024)\n"
	    "  --step N        run only step N of the lesson\n"
	    "  --format F      text, json or csv\n"
	    "  --recorded [FILE]  show recorded results (default: the newest in data/results)\n"
	    "  --runs N        time N runs after one warm-up run (default: 3 warm-up runs,\n"
	    "                  then 20 to 200 runs, about a second's worth)\n"
	    "  --arch sm_XX    the architecture whose SASS, resources or occupancy to show\n"
	    "  --lines         number the source, or give each SASS instruction its source line\n"
	    "  --line N        only the SASS that line N of the kernel's .cu file became\n"
	    "  --pad           banks: one spare word after every 32 (a 32 x 33 array)\n"
	    "  --bytes N       banks: bytes per element, 1, 2, 4, 8 or 16 (default 4)\n"
	    "  --lang LANG     lesson language, e.g. en or zh_CN (default: from the locale)\n"
	    "  --present       start the tutor in presenter mode\n"
	    "\n"
	    "Exit status: 0 success, 1 error, 2 bad usage, 3 a step gave a wrong answer.\n"),
	    program, program, program, program, program, program, program, program, program, program,
	    program);
}

/* ---- option values ------------------------------------------------------- */

/* opt: the option it came with, for the message ("--size", "--sizes"). */
static int parse_size(const char *opt, const char *s, unsigned long long *out)
{
	if (parse_count(s, out) != 0 || *out == 0) {
		fail(_("%s: '%s' is not a positive count of elements (e.g. 16777216, 2^24, 16M)"), opt, s);
		return -1;
	}
	if (*out > (1ULL << 34)) {
		fail(_("%s: %s is more elements than any lesson takes (at most 2^34)"), opt, s);
		return -1;
	}
	return 0;
}

/* --width: columns from least to 1000. */
static int parse_width(const char *s, unsigned long long least, unsigned long long *out)
{
	if (parse_count(s, out) != 0 || *out < least || *out > 1000) {
		fail(_("--width: '%s' is not a width from %llu to 1000 columns"), s, least);
		return -1;
	}
	return 0;
}

static int parse_block(const char *s, unsigned int *out)
{
	unsigned long long v;

	if (parse_count(s, &v) != 0 || v == 0 || v > 1024) {
		fail(_("--block: '%s' is not a block size from 1 to 1024 threads"), s);
		return -1;
	}
	*out = (unsigned int)v;
	return 0;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "sm_90" or "90" -> "sm_90"; NULL (with a message) for anything else. */
static char *parse_arch(const char *s)
{
	const char *digits = strncmp(s, "sm_", 3) == 0 ? s + 3 : s;
	size_t n = strspn(digits, "0123456789");

	if (n < 2 || n > 3 || digits[n] != '\0') {
		fail(_("--arch: '%s' is not an architecture such as sm_90 (see cudatutor --version)"), s);
		return NULL;
	}
	return xasprintf("sm_%s", digits);
}

/*
 * What getopt_long found wrong, in one line (opterr is off; each command's
 * option string starts with ':' so that a missing value is told apart).
 * A negative number looks like an option to getopt: say that instead.
 */
static void option_error(int argc, char **argv, int c)
{
	const char *arg = optind > 0 && optind <= argc ? argv[optind - 1] : "";
	/* "run: ", or nothing for the tutor's own options (argv[0] is the program) */
	char cmd[64] = "";

	if (strchr(argv[0], '/') == NULL && strcmp(argv[0], program) != 0)
		snprintf(cmd, sizeof cmd, "%.40s: ", argv[0]);
	if (c == ':') {
		fail(_("%s%s needs a value (see cudatutor --help)"), cmd, arg);
		return;
	}
	if (optopt >= '0' && optopt <= '9') {
		for (int i = 1; i < argc; i++)
			if (argv[i][0] == '-' && argv[i][1] == optopt) {
				arg = argv[i];
				break;
			}
		fail(_("%s'%s': negative numbers are not accepted here (see cudatutor --help)"), cmd, arg);
		return;
	}
	if (strncmp(arg, "--", 2) == 0 && strchr(arg, '=') != NULL && optopt != 0) {
		fail(_("%s%.*s takes no value"), cmd, (int)(strchr(arg, '=') - arg), arg);
		return;
	}
	if (optopt != 0 && strncmp(arg, "--", 2) != 0)
		fail(_("%sunknown option '-%c' (see cudatutor --help)"), cmd, optopt);
	else
		fail(_("%sunknown option '%s' (see cudatutor --help)"), cmd, arg);
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
	fail(_("--lang: there are no lessons in '%s' (there are: %s)"), s, have.len ? have.s : "en");
	strbuf_free(&have);
	return -1;
}

/*
 * --recorded takes an optional file: "--recorded=FILE", and also
 * "--recorded FILE" when the next word names a .json file.
 */
static int recorded_option(int argc, char **argv, const char **file)
{
	if (optarg == NULL && optind < argc && argv[optind][0] != '-' &&
	    strstr(argv[optind], ".json") != NULL)
		optarg = argv[optind++];
	if (optarg != NULL && *optarg == '\0') {
		fail(_("--recorded=: give a results file, or no '=' for the newest recorded ones"));
		return -1;
	}
	*file = optarg;
	return 0;
}

static char *language_from_env(const char *option)
{
	static const char *const vars[] = { "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG" };

	if (option != NULL)
		return lesson_pick_language(option);
	for (size_t i = 0; i < ARRAY_LEN(vars); i++) {
		const char *v = getenv(vars[i]);
		if (v != NULL && *v != '\0')
			return lesson_pick_language(v);
	}
	return xstrdup("en");
}

static int load_lessons(const char *lang_option, struct lesson_set *set)
{
	char *lang = language_from_env(lang_option);
	struct error e;
	int rc = lesson_load_all(lang, set, &e);

	free(lang);
	if (rc != 0)
		fail("%s", e.msg);
	return rc;
}

/*
 * Load the lessons and find lesson id, whole, with at least `step` steps
 * (0: any).  NULL after one line on stderr when it is unknown, does not
 * load, or is shorter.
 */
static struct lesson *open_lesson(const char *lang, const char *id, unsigned long long step,
    struct lesson_set *set)
{
	struct lesson *l;

	if (load_lessons(lang, set) != 0)
		return NULL;
	l = lesson_find(set, id);
	if (l == NULL) {
		fail(_("unknown lesson '%s' (see cudatutor list)"), id);
		return NULL;
	}
	if (l->error != NULL) {
		fail("%s", l->error);
		return NULL;
	}
	if (step > (unsigned long long)l->nsteps) {
		fail(_("lesson '%s' has %d steps, not %llu"), l->id, l->nsteps, step);
		return NULL;
	}
	return l;
}

/* ---- list ---------------------------------------------------------------- */

static int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "kernels", no_argument, NULL, 'k' },
		{ "format", required_argument, NULL, 'f' },
		{ "lang", required_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 },
	};
	enum cli_format format = FORMAT_TEXT;
	const char *lang = NULL;
	int kernels = 0, c;
	struct lesson_set set;

	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case 'k':
			kernels = 1;
			break;
		case 'f':
			if (cli_parse_format(optarg, &format) != 0) {
				fail(_("--format: '%s' is not text, json or csv"), optarg);
				return EXIT_USAGE;
			}
			break;
		case 'l':
			if (check_lang(optarg) != 0)
				return EXIT_USAGE;
			lang = optarg;
			break;
		default:
			option_error(argc, argv, c);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fail(_("list takes no argument '%s'"), argv[optind]);
		return EXIT_USAGE;
	}
	if (kernels) {
		cli_print_kernels(stdout, format);
		return 0;
	}
	if (load_lessons(lang, &set) != 0)
		return EXIT_FAILURE;
	cli_print_lessons(stdout, &set, format);
	lesson_set_free(&set);
	return 0;
}

/* ---- run ----------------------------------------------------------------- */

struct progress_line {
	const struct lesson *lesson;
	int step;
	int shown;
};

static void show_progress(void *ctx, int done, int total)
{
	struct progress_line *p = ctx;

	fprintf(stderr, "\r\033[K  %d/%d  %-32s %d/%d runs", p->step + 1, p->lesson->nsteps,
	    p->lesson->steps[p->step].kernel->name, done, total);
	p->shown = 1;
}

/* Refuse block and size values some step cannot take, before running any. */
static int check_steps(const struct lesson *l, unsigned long long size, unsigned int block)
{
	char why[256];

	for (int i = 0; i < l->nsteps; i++) {
		const struct kernel_def *k = l->steps[i].kernel;
		if (!(k->flags & KF_LIBRARY) && registry_check_block(k, block, why, sizeof why) != NULL) {
			fail(_("step %d of '%s': %s"), i + 1, l->id, why);
			return -1;
		}
		if (size > k->experiment->max_size) {
			fail(_("step %d of '%s': %s takes at most %llu %ss, not %llu: use a smaller --size"),
			    i + 1, l->id, k->name, k->experiment->max_size, k->experiment->element, size);
			return -1;
		}
	}
	return 0;
}

/* runs > 0: one warm-up run and that many timed runs (what counter runs use). */
static int run_live(const struct lesson *l, unsigned long long size, unsigned int block,
    int runs, struct run_report *r)
{
	struct measure_options o;
	struct progress_line p = { l, 0, 0 };
	struct step_params params = { size, block };
	struct error e;

	if (runner_begin(r, l, size, block, &e) != 0) {
		fail("%s", e.msg);
		return -1;
	}
	if (runner_check_fits(l, params.size, params.block, &e) != 0) {
		fail("%s", e.msg);
		run_report_free(r);
		return -1;
	}
	measure_default_options(&o);
	if (runs > 0) {
		/* ncu skips exactly these launches and profiles the next. */
		o.warmup = METRICS_SKIP_LAUNCHES;
		o.min_reps = o.max_reps = runs;
	}
	if (isatty(STDERR_FILENO)) {
		o.progress = show_progress;
		o.progress_ctx = &p;
	}
	for (int i = 0; i < l->nsteps; i++) {
		p.step = i;
		runner_step(r, l, i, &o);
	}
	if (p.shown)
		fputs("\r\033[K", stderr);
	return 0;
}

static int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "block", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "recorded", optional_argument, NULL, 'r' },
		{ "lang", required_argument, NULL, 'l' },
		{ "step", required_argument, NULL, 'n' },
		{ "runs", required_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 },
	};
	enum cli_format format = FORMAT_TEXT;
	unsigned long long size = 0, only_step = 0, runs = 0;
	unsigned int block = 0;
	struct lesson one;
	const char *lang = NULL, *recorded_file = NULL, *lesson_id = NULL;
	int recorded = 0, c, rc = EXIT_FAILURE;
	struct lesson_set set = { 0 };
	struct lesson *l;
	struct run_report r = { 0 };
	struct error e;

	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (parse_size("--size", optarg, &size) != 0)
				return EXIT_USAGE;
			break;
		case 'b':
			if (parse_block(optarg, &block) != 0)
				return EXIT_USAGE;
			break;
		case 'f':
			if (cli_parse_format(optarg, &format) != 0) {
				fail(_("--format: '%s' is not text, json or csv"), optarg);
				return EXIT_USAGE;
			}
			break;
		case 'r':
			recorded = 1;
			if (recorded_option(argc, argv, &recorded_file) != 0)
				return EXIT_USAGE;
			break;
		case 'l':
			if (check_lang(optarg) != 0)
				return EXIT_USAGE;
			lang = optarg;
			break;
		case 'n':
			if (parse_count(optarg, &only_step) != 0 || only_step == 0) {
				fail(_("--step: '%s' is not a step number (1, 2, ...)"), optarg);
				return EXIT_USAGE;
			}
			break;
		case 'R':
			if (parse_count(optarg, &runs) != 0 || runs == 0 || runs > 100000) {
				fail(_("--runs: '%s' is not a number of runs from 1 to 100000"), optarg);
				return EXIT_USAGE;
			}
			break;
		default:
			option_error(argc, argv, c);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fail(_("run needs a lesson: cudatutor run LESSON (see cudatutor list)"));
		return EXIT_USAGE;
	}
	lesson_id = argv[optind++];
	if (optind < argc) {
		fail(_("run takes one lesson; '%s' is extra"), argv[optind]);
		return EXIT_USAGE;
	}
	if ((l = open_lesson(lang, lesson_id, only_step, &set)) == NULL)
		goto out;
	if (only_step > 0) {
		/* A view of the lesson with that one step. */
		one = *l;
		one.steps = &l->steps[only_step - 1];
		one.nsteps = 1;
		l = &one;
	}
	if (size == 0)
		size = runner_default_size(l);
	if (block == 0)
		block = runner_default_block(l);
	if (!recorded && gpu_init(&e) != 0) {
		struct error why;

		/* No GPU: say so once, with what is shown instead. */
		if (results_find_recorded(recorded_file, l->id, size, block, &r, &why) != 0) {
			fail(_("%s, and %s"), e.msg, why.msg);
			goto out;
		}
		fprintf(stderr, _("%s: %s: showing results recorded on %s on %.10s (not live numbers)\n"),
		    program, e.msg, r.gpu.name, r.recorded_date);
	} else if (recorded) {
		if (results_find_recorded(recorded_file, l->id, size, block, &r, &e) != 0) {
			fail("%s", e.msg);
			goto out;
		}
	} else {
		if (check_steps(l, size, block) != 0 || run_live(l, size, block, (int)runs, &r) != 0) {
			rc = EXIT_FAILURE;
			goto out;
		}
	}
	if (only_step > 0 && !r.recorded)
		r.steps[0].step = (int)only_step;
	cli_print_report(stdout, &r, l, format);
	rc = 0;
	for (int i = 0; i < r.nsteps; i++)
		if (!r.recorded && (!r.steps[i].ran || (!r.steps[i].correct && !r.steps[i].wrong_by_design)))
			rc = r.steps[i].ran ? EXIT_WRONG : EXIT_FAILURE;
out:
	run_report_free(&r);
	lesson_set_free(&set);
	return rc;
}

/* ---- show ---------------------------------------------------------------- */

/*
 * The SASS to show when no --arch is given: what this GPU runs, else what
 * the GPU of the newest recorded results ran, else the newest built.
 * NULL (and e says why) when this GPU only runs JIT-compiled PTX.
 */
static char *default_arch(const char *module, struct error *e)
{
	char buf[16], *archs, *last = NULL;
	struct run_report r;

	if (gpu_init(e) == 0) {
		const struct gpu_info *g = gpu_info();
		if (inspect_arch_for(module, g->cc_major, g->cc_minor, buf, sizeof buf, e) != 0)
			return NULL;
		return xstrdup(buf);
	}
	if (results_find_recorded(NULL, "reduction", 0, 0, &r, e) == 0) {
		int major = 0, minor = 0;
		int ok = sscanf(r.gpu.arch, "sm_%1d%1d", &major, &minor) == 2 &&
		    inspect_arch_for(module, major, minor, buf, sizeof buf, e) == 0;
		run_report_free(&r);
		if (ok)
			return xstrdup(buf);
	}
	archs = inspect_sass_archs(module, e);
	if (archs == NULL)
		return NULL;
	for (char *t = strtok(archs, " "); t != NULL; t = strtok(NULL, " "))
		last = t;
	last = last ? xstrdup(last) : NULL;
	if (last == NULL)
		error_set(e, _("kernels/%s.sass holds no SASS"), module);
	free(archs);
	return last;
}

/* Columns to format for: the terminal's, else $COLUMNS, else 80. */
static int output_width(void)
{
	struct winsize ws;
	const char *c = getenv("COLUMNS");

	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	if (c != NULL && atoi(c) > 0)
		return atoi(c);
	return 80;
}

/*
 * Source with its file line numbers, or SASS with the source line of each
 * instruction; with only_line, just what that source line became.
 */
static int show_numbered(const struct inspect_target *t, int sass, const char *arch,
    int only_line, struct error *e)
{
	int *lines = NULL, count = 0, shown = 0, i = 0;
	char *text = sass ? inspect_sass(t, arch, e) : inspect_source_numbered(t, &lines, &count, e);

	if (text == NULL)
		return EXIT_FAILURE;
	if (sass && inspect_sass_lines(t, arch, &lines, &count, e) != 0) {
		free(text);
		return EXIT_FAILURE;
	}
	for (char *ls = text; *ls != '\0'; i++) {
		char *nl = strchr(ls, '\n');
		int num = i < count ? lines[i] : 0;

		if (nl != NULL)
			*nl = '\0';
		if (only_line == 0 || num == only_line) {
			if (num > 0)
				printf("%5d  %s\n", num, ls);
			else
				printf("%5s  %s\n", "", ls);
			shown++;
		}
		if (nl == NULL)
			break;
		ls = nl + 1;
	}
	free(text);
	free(lines);
	if (only_line > 0 && shown == 0) {
		if (sass)
			error_set(e, _("no instruction of %s comes from line %d of kernels/%s.cu (see show --source --lines)"),
			    t->symbol, only_line, t->kernel->module);
		else
			error_set(e, _("line %d is not part of %s's source (see show --source --lines)"),
			    only_line, t->symbol);
		return EXIT_FAILURE;
	}
	return 0;
}

static int cmd_show(int argc, char **argv)
{
	enum { SOURCE = 1, PTX, SASS, RESOURCES, STATS, OCCUPANCY };
	static const struct option opts[] = {
		{ "source", no_argument, NULL, SOURCE },
		{ "ptx", no_argument, NULL, PTX },
		{ "sass", no_argument, NULL, SASS },
		{ "resources", no_argument, NULL, RESOURCES },
		{ "stats", no_argument, NULL, STATS },
		{ "occupancy", no_argument, NULL, OCCUPANCY },
		{ "lines", no_argument, NULL, 'L' },
		{ "line", required_argument, NULL, 'n' },
		{ "arch", required_argument, NULL, 'a' },
		{ "block", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	int what = 0, c, rc = EXIT_FAILURE, numbered = 0;
	unsigned long long only_line = 0;
	unsigned int block = 0;
	char *arch = NULL, *text = NULL;
	enum cli_format format = FORMAT_TEXT;
	struct inspect_target t;
	struct error e;

	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case SOURCE: case PTX: case SASS: case RESOURCES: case STATS: case OCCUPANCY:
			if (what != 0 && what != c) {
				fail(_("show takes one of --source, --ptx, --sass, --resources, --stats, --occupancy"));
				free(arch);
				return EXIT_USAGE;
			}
			what = c;
			break;
		case 'a':
			free(arch);
			if ((arch = parse_arch(optarg)) == NULL)
				return EXIT_USAGE;
			break;
		case 'b':
			if (parse_block(optarg, &block) != 0) {
				free(arch);
				return EXIT_USAGE;
			}
			break;
		case 'f':
			if (cli_parse_format(optarg, &format) != 0) {
				fail(_("--format: '%s' is not text, json or csv"), optarg);
				free(arch);
				return EXIT_USAGE;
			}
			break;
		case 'L':
			numbered = 1;
			break;
		case 'n':
			if (parse_count(optarg, &only_line) != 0 || only_line == 0 || only_line > 1000000) {
				fail(_("--line: '%s' is not a line number"), optarg);
				free(arch);
				return EXIT_USAGE;
			}
			numbered = 1;
			break;
		default:
			option_error(argc, argv, c);
			free(arch);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fail(_("show needs a kernel: cudatutor show KERNEL --sass (see cudatutor list --kernels)"));
		free(arch);
		return EXIT_USAGE;
	}
	if (optind + 1 < argc) {
		fail(_("show takes one kernel; '%s' is extra"), argv[optind + 1]);
		free(arch);
		return EXIT_USAGE;
	}
	if (inspect_resolve(argv[optind], block, &t, &e) != 0) {
		fail("%s", e.msg);
		free(arch);
		return EXIT_FAILURE;
	}
	if (what == 0)
		what = SOURCE;
	if ((what == SASS || what == RESOURCES || what == STATS || what == OCCUPANCY) && arch == NULL &&
	    (arch = default_arch(t.kernel->module, &e)) == NULL) {
		fail("%s", e.msg);
		return EXIT_FAILURE;
	}
	if (what == OCCUPANCY) {
		/* a table of block sizes, not one text: printed as it is made */
		rc = cli_print_occupancy(stdout, &t, arch, format, &e) == 0 ? 0 : EXIT_FAILURE;
		if (rc != 0)
			fail("%s", e.msg);
		free(arch);
		return rc;
	}

	if (what == STATS) {
		struct kernel_resources res;
		struct sass_listing l;
		struct sass_mix m;

		text = inspect_sass(&t, arch, &e);
		if (text == NULL) {
			fail("%s", e.msg);
			free(arch);
			return EXIT_FAILURE;
		}
		sass_parse(text, &l);
		sass_mix_of(&l, &m);
		cli_print_stats(stdout, t.symbol, arch, &m,
		    inspect_resources(&t, arch, &res, &e) == 0 ? &res : NULL, format);
		sass_listing_free(&l);
		free(text);
		free(arch);
		return 0;
	}
	if (numbered && (what == SOURCE || what == SASS)) {
		rc = show_numbered(&t, what == SASS, arch, (int)only_line, &e);
		if (rc != 0)
			fail("%s", e.msg);
		free(arch);
		return rc;
	}
	if (what == SOURCE)
		text = inspect_source(&t, &e);
	else if (what == PTX)
		text = inspect_ptx(&t, &e);
	else if (what == SASS)
		text = inspect_sass(&t, arch, &e);
	else {
		struct kernel_resources res;
		if (inspect_resources(&t, arch, &res, &e) == 0) {
			if (format == FORMAT_JSON)
				text = xasprintf("{\"kernel\": \"%s\", \"arch\": \"%s\", \"registers\": %d, "
				    "\"barriers\": %d, \"shared_bytes\": %d, \"stack_bytes\": %d, "
				    "\"spill_store_bytes\": %d, \"spill_load_bytes\": %d, \"local_bytes\": %d}\n",
				    t.symbol, arch, res.registers, res.barriers, res.shared_bytes,
				    res.stack_bytes, res.spill_store_bytes, res.spill_load_bytes, res.local_bytes);
			else
				text = xasprintf(_("%s on %s\n"
				    "  registers per thread  %d\n"
				    "  barriers              %d\n"
				    "  shared memory         %d bytes (static)\n"
				    "  stack frame           %d bytes\n"
				    "  spill stores/loads    %d / %d bytes\n"),
				    t.symbol, arch, res.registers, res.barriers, res.shared_bytes,
				    res.stack_bytes, res.spill_store_bytes, res.spill_load_bytes);
		}
	}
	if (text == NULL) {
		fail("%s", e.msg);
	} else {
		fputs(text, stdout);
		rc = 0;
	}
	free(text);
	free(arch);
	return rc;
}

/* ---- read ---------------------------------------------------------------- */

static int cmd_read(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "step", required_argument, NULL, 'n' },
		{ "arch", required_argument, NULL, 'a' },
		{ "lang", required_argument, NULL, 'l' },
		{ "width", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long step = 0, width = 0;
	const char *lang = NULL;
	char *arch = NULL;
	struct lesson_set set = { 0 };
	struct lesson *l;
	struct error e;
	int c, rc = EXIT_FAILURE;

	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (parse_count(optarg, &step) != 0 || step == 0) {
				fail(_("--step: '%s' is not a step number (1, 2, ...)"), optarg);
				goto usage;
			}
			break;
		case 'a':
			free(arch);
			if ((arch = parse_arch(optarg)) == NULL)
				goto usage;
			break;
		case 'l':
			if (check_lang(optarg) != 0)
				return EXIT_USAGE;
			lang = optarg;
			break;
		case 'w':
			if (parse_width(optarg, 20, &width) != 0)
				goto usage;
			break;
		default:
			option_error(argc, argv, c);
			goto usage;
		}
	}
	if (argc - optind != 1) {
		fail(_("read takes one lesson: cudatutor read LESSON (see cudatutor list)"));
		goto usage;
	}
	if ((l = open_lesson(lang, argv[optind], step, &set)) == NULL)
		goto out;
	if (arch == NULL && (arch = default_arch(l->steps[0].kernel->module, &e)) == NULL)
		arch = xstrdup("sm_90");	/* counts then read "?" where it is not built */
	cli_print_lesson(stdout, l, (int)step, arch, width ? (int)width : (output_width() < 100 ? output_width() - 2 : 98));
	rc = 0;
out:
	lesson_set_free(&set);
	free(arch);
	return rc;
usage:
	free(arch);
	return EXIT_USAGE;
}

/* ---- diff ---------------------------------------------------------------- */

static int cmd_diff(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "arch", required_argument, NULL, 'a' },
		{ "block", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "width", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 },
	};
	enum cli_format format = FORMAT_TEXT;
	unsigned int block = 0;
	unsigned long long width = 0;
	char *arch = NULL;
	struct compare cmp = { 0 };
	struct error e;
	int c, rc = EXIT_FAILURE;

	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			free(arch);
			if ((arch = parse_arch(optarg)) == NULL)
				goto usage;
			break;
		case 'b':
			if (parse_block(optarg, &block) != 0)
				goto usage;
			break;
		case 'f':
			if (cli_parse_format(optarg, &format) != 0 || format == FORMAT_CSV) {
				fail(_("--format: '%s' is not text or json"), optarg);
				goto usage;
			}
			break;
		case 'w':
			if (parse_width(optarg, 40, &width) != 0)
				goto usage;
			break;
		default:
			option_error(argc, argv, c);
			goto usage;
		}
	}
	if (argc - optind != 2) {
		fail(_("diff compares two kernels: cudatutor diff KERNEL_A KERNEL_B"));
		goto usage;
	}
	if (compare_resolve(&cmp, argv[optind], argv[optind + 1], block, &e) != 0) {
		fail("%s", e.msg);
		goto out;
	}
	if (arch == NULL && (arch = default_arch(cmp.a.kernel->module, &e)) == NULL) {
		fail("%s", e.msg);
		goto out;
	}
	if (compare_load(&cmp, arch, &e) != 0) {
		fail("%s", e.msg);
		goto out;
	}
	cli_print_diff(stdout, &cmp, width ? (int)width : output_width(), format);
	rc = 0;
out:
	compare_free(&cmp);
	free(arch);
	return rc;
usage:
	free(arch);
	return EXIT_USAGE;
}

/* ---- metrics ------------------------------------------------------------- */

struct counters_progress {
	int shown;
};

static void counters_progress(struct counters_progress *p, const struct lesson *l, int i, int n)
{
	if (!isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r\033[K  %s %d/%d  %s", _("counters"), i + 1, n, l->steps[i].kernel->name);
	p->shown = 1;
}

static void counters_progress_done(struct counters_progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
	p->shown = 0;
}

/*
 * Read the counters of step i (0-based in l) into s.  METRICS_LOCKED and
 * the reason in e when the driver locks them; any other failure stays a
 * note on the step.
 */
static enum metrics_status step_counters(struct metrics_session *ms, const struct lesson *l, int i,
    int step_number, struct step_result *s, struct error *e)
{
	const struct kernel_def *k = l->steps[i].kernel;
	char symbol[160];
	struct metrics_target t = { l->id, l->lang, step_number, s->size, s->block,
	    registry_symbol(k, s->block, symbol, sizeof symbol) };
	enum metrics_status st;
	struct error why = { "" };

	memset(&s->metrics, 0, sizeof s->metrics);
	if (k->flags & KF_LIBRARY) {
		snprintf(s->metrics.note, sizeof s->metrics.note, "%s",
		    _("counters are read for the tutor's own kernels, not for library calls"));
		return METRICS_OK;
	}
	st = metrics_collect(ms, &t, &s->metrics, &why);
	if (st == METRICS_LOCKED)
		*e = why;
	else if (st != METRICS_OK)
		snprintf(s->metrics.note, sizeof s->metrics.note, "%s", why.msg);
	return st;
}

/* With record: the counters of every step of r, until they turn out to be locked. */
static void record_counters(const struct lesson *l, struct run_report *r, struct metrics_session *ms,
    int *counters)
{
	struct counters_progress p = { 0 };

	for (int i = 0; i < r->nsteps; i++) {
		struct error e;
		enum metrics_status st;

		counters_progress(&p, l, i, r->nsteps);
		st = step_counters(ms, l, i, i + 1, &r->steps[i], &e);
		counters_progress_done(&p);
		if (st == METRICS_LOCKED) {
			fprintf(stderr, _("%s: recording without counters: %s\n"), program, e.msg);
			*counters = 0;
			return;
		}
		if (r->steps[i].metrics.note[0] != '\0' && !r->steps[i].library)
			fprintf(stderr, _("%s: step %d of '%s': no counters: %s\n"), program, i + 1, l->id,
			    r->steps[i].metrics.note);
	}
}

/*
 * Live counters for the steps of l (a view of one step when only > 0).
 * -1 with e when none can be read: no ncu, or counters locked.
 */
static int metrics_live(const struct lesson *l, int only, unsigned long long size, unsigned int block,
    struct run_report *r, struct error *e)
{
	struct metrics_session ms;
	struct counters_progress p = { 0 };

	if (runner_begin(r, l, size, block, e) != 0)
		return -1;
	if (metrics_session_begin(&ms, e) != 0) {
		run_report_free(r);
		return -1;
	}
	for (int i = 0; i < l->nsteps; i++) {
		int number = only > 0 ? only : i + 1;
		enum metrics_status st;

		r->steps[i].step = number;
		counters_progress(&p, l, i, l->nsteps);
		st = step_counters(&ms, l, i, number, &r->steps[i], e);
		counters_progress_done(&p);
		if (st == METRICS_LOCKED) {
			metrics_session_end(&ms);
			run_report_free(r);
			return -1;
		}
	}
	metrics_session_end(&ms);
	return 0;
}

static int any_counters(const struct run_report *r)
{
	for (int i = 0; i < r->nsteps; i++)
		if (r->steps[i].metrics.collected)
			return 1;
	return 0;
}

/* Recorded counters for l: 0, or -1 with e saying what is missing. */
static int metrics_recorded(const char *file, const struct lesson *l, unsigned long long size,
    unsigned int block, struct run_report *r, struct error *e)
{
	if (results_find_recorded(file, l->id, size, block, r, e) != 0)
		return -1;
	if (!any_counters(r)) {
		error_set(e, _("the results recorded on %s on %.10s hold no counters for lesson '%s' "
		    "(record them on a GPU with 'cudatutor record')"), r->gpu.name, r->recorded_date, l->id);
		run_report_free(r);
		return -1;
	}
	return 0;
}

static int cmd_metrics(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "block", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "recorded", optional_argument, NULL, 'r' },
		{ "lang", required_argument, NULL, 'l' },
		{ "explain", no_argument, NULL, 'x' },
		{ NULL, 0, NULL, 0 },
	};
	const char *format_name = "text", *lang = NULL, *recorded_file = NULL;
	unsigned long long size = 0, only_step = 0;
	unsigned int block = 0;
	int explain = 0, recorded = 0, c, rc = EXIT_FAILURE, show = -1;
	enum cli_format format = FORMAT_TEXT;
	struct lesson_set set = { 0 };
	struct lesson one, *l;
	struct run_report r = { 0 };
	struct error e;

	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (parse_size("--size", optarg, &size) != 0)
				return EXIT_USAGE;
			break;
		case 'b':
			if (parse_block(optarg, &block) != 0)
				return EXIT_USAGE;
			break;
		case 'f':
			format_name = optarg;
			break;
		case 'r':
			recorded = 1;
			if (recorded_option(argc, argv, &recorded_file) != 0)
				return EXIT_USAGE;
			break;
		case 'l':
			if (check_lang(optarg) != 0)
				return EXIT_USAGE;
			lang = optarg;
			break;
		case 'x':
			explain = 1;
			break;
		default:
			option_error(argc, argv, c);
			return EXIT_USAGE;
		}
	}
	if (explain) {
		enum cli_explain_format ef;

		if (strcmp(format_name, "text") == 0)
			ef = EXPLAIN_TEXT;
		else if (strcmp(format_name, "json") == 0)
			ef = EXPLAIN_JSON;
		else if (strcmp(format_name, "markdown") == 0)
			ef = EXPLAIN_MARKDOWN;
		else {
			fail(_("--format: '%s' is not text, json or markdown"), format_name);
			return EXIT_USAGE;
		}
		if (optind < argc) {
			fail(_("metrics --explain takes no lesson; '%s' is extra"), argv[optind]);
			return EXIT_USAGE;
		}
		cli_metrics_explain(stdout, ef);
		return 0;
	}
	if (cli_parse_format(format_name, &format) != 0 || format == FORMAT_CSV) {
		fail(_("--format: '%s' is not text or json"), format_name);
		return EXIT_USAGE;
	}
	if (optind >= argc) {
		fail(_("metrics needs a lesson: cudatutor metrics LESSON [STEP] (see cudatutor list)"));
		return EXIT_USAGE;
	}
	if (optind + 1 < argc && (parse_count(argv[optind + 1], &only_step) != 0 || only_step == 0)) {
		fail(_("'%s' is not a step number (1, 2, ...)"), argv[optind + 1]);
		return EXIT_USAGE;
	}
	if (optind + 2 < argc) {
		fail(_("metrics takes a lesson and a step; '%s' is extra"), argv[optind + 2]);
		return EXIT_USAGE;
	}
	if ((l = open_lesson(lang, argv[optind], only_step, &set)) == NULL)
		goto out;
	if (size == 0)
		size = runner_default_size(l);
	if (block == 0)
		block = runner_default_block(l);
	if (!recorded && gpu_init(&e) == 0) {
		struct error why;

		if (only_step > 0) {
			one = *l;
			one.steps = &l->steps[only_step - 1];
			one.nsteps = 1;
		}
		if (check_steps(only_step > 0 ? &one : l, size, block) != 0)
			goto out;
		if (metrics_live(only_step > 0 ? &one : l, (int)only_step, size, block, &r, &e) == 0) {
			show = only_step > 0 ? 0 : -1;
		} else if (metrics_recorded(NULL, l, size, block, &r, &why) == 0) {
			/* Counters out of reach here: say why once, and show recorded ones. */
			fprintf(stderr, _("%s: %s; showing counters recorded on %s on %.10s (not live numbers)\n"),
			    program, e.msg, r.gpu.name, r.recorded_date);
			show = only_step > 0 ? (int)only_step - 1 : -1;
		} else {
			fail("%s", e.msg);
			goto out;
		}
	} else {
		struct error why;

		if (metrics_recorded(recorded_file, l, size, block, &r, &why) != 0) {
			if (recorded)
				fail("%s", why.msg);
			else
				fail(_("%s, and %s"), e.msg, why.msg);
			goto out;
		}
		if (!recorded)
			fprintf(stderr, _("%s: %s: showing counters recorded on %s on %.10s (not live numbers)\n"),
			    program, e.msg, r.gpu.name, r.recorded_date);
		show = only_step > 0 ? (int)only_step - 1 : -1;
	}
	if (show >= r.nsteps) {
		fail(_("the recorded run of '%s' has %d steps, not %d: record it again"), l->id, r.nsteps, show + 1);
		goto out;
	}
	cli_metrics_print(stdout, &r, l, show, format);
	rc = 0;
	/* Live: a step of ours whose counters could not be read is a failure to report. */
	for (int i = 0; i < r.nsteps && !r.recorded; i++)
		if (!r.steps[i].metrics.collected && !r.steps[i].library)
			rc = EXIT_FAILURE;
out:
	run_report_free(&r);
	lesson_set_free(&set);
	return rc;
}

/* ---- record -------------------------------------------------------------- */

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
		fail(_("--sizes: give one or more sizes separated by commas"));
		rc = -1;
	}
	return rc;
}

/*
 * --output: a file record can write, checked before an hour of recording:
 * not empty, not a directory, in a directory that is there and writable.
 */
static int check_output(const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	int rc = -1;

	if (slash == dir) {
		slash[1] = '\0';
	} else if (slash != NULL) {
		*slash = '\0';
	} else {
		free(dir);
		dir = xstrdup(".");
	}
	if (*path == '\0')
		fail(_("--output: give a file name, such as results.json"));
	else if (dir_exists(path))
		fail(_("--output: %s is a directory: give a file name, such as %s/results.json"), path, path);
	else if (!dir_exists(dir))
		fail(_("--output: there is no directory %s"), dir);
	else if (access(dir, W_OK) != 0)
		fail(_("--output: cannot write in %s (%s)"), dir, strerror(errno));
	else
		rc = 0;
	free(dir);
	return rc;
}

static char *default_record_path(const struct gpu_desc *g)
{
	char slug[256];

	results_slug(g->name, slug, sizeof slug);
	/* Beside the recorded results of a source tree; else here. */
	if (strcmp(paths_source_root(), PKGDATADIR) != 0) {
		char *dir = paths_source("data/results");
		if (access(dir, W_OK) == 0) {
			char *path = xasprintf("%s/%s.json", dir, slug);
			free(dir);
			return path;
		}
		free(dir);
	}
	return xasprintf("%s.json", slug);
}

/*
 * The sizes record runs lesson l at when --sizes is not given: its default,
 * and 2^28 where its steps take that many (a second, larger point).
 */
static int record_sizes(const struct lesson *l, unsigned long long sizes[2])
{
	unsigned long long large = 1ULL << 28;
	int n = 0;

	sizes[n++] = runner_default_size(l);
	if (large != sizes[0] && large <= runner_max_size(l))
		sizes[n++] = large;
	return n;
}

static int cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "sizes", required_argument, NULL, 's' },
		{ "block", required_argument, NULL, 'b' },
		{ "lang", required_argument, NULL, 'l' },
		{ "no-metrics", no_argument, NULL, 'M' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long *sizes = NULL;
	int nsizes = 0, nslots, c, rc = EXIT_FAILURE, counters = 1;
	struct metrics_session session = { 0 };
	unsigned int block = 0;
	const char *output = NULL;
	char *path = NULL;
	struct lesson_set set = { 0 };
	struct results_file f = { 0 };
	struct error e;

	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (check_output(optarg) != 0) {
				free(sizes);
				return EXIT_USAGE;
			}
			output = optarg;
			break;
		case 's':
			free(sizes);
			if (parse_sizes(optarg, &sizes, &nsizes) != 0) {
				free(sizes);
				return EXIT_USAGE;
			}
			break;
		case 'b':
			if (parse_block(optarg, &block) != 0)
				return EXIT_USAGE;
			break;
		case 'l':
			/* results do not depend on the language, but a wrong one is still wrong */
			if (check_lang(optarg) != 0) {
				free(sizes);
				return EXIT_USAGE;
			}
			break;
		case 'M':
			counters = 0;
			break;
		default:
			option_error(argc, argv, c);
			free(sizes);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fail(_("record takes no argument '%s'"), argv[optind]);
		free(sizes);
		return EXIT_USAGE;
	}
	if (gpu_init(&e) != 0) {
		fail(_("record needs a GPU: %s"), e.msg);
		goto out;
	}
	if (load_lessons("en", &set) != 0)
		goto out;
	runner_gpu_desc(&f.gpu);
	snprintf(f.version, sizeof f.version, "%s", PACKAGE_VERSION);
	{
		time_t now = time(NULL);
		strftime(f.date, sizeof f.date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	}
	if (runner_copy_bandwidth(true, &f.copy_gbps, &e) != 0) {
		fail("%s", e.msg);
		goto out;
	}
	path = output ? xstrdup(output) : default_record_path(&f.gpu);
	if (counters && metrics_session_begin(&session, &e) != 0) {
		/* The timings are worth recording on their own. */
		fprintf(stderr, _("%s: recording without counters: %s\n"), program, e.msg);
		counters = 0;
	}
	/* every lesson at the first size, then every lesson at the second, ... */
	nslots = sizes != NULL ? nsizes : 2;
	f.runs = xcalloc((size_t)(set.count * nslots) + 1, sizeof *f.runs);
	for (int si = 0; si < nslots; si++) {
		for (int li = 0; li < set.count; li++) {
			const struct lesson *l = &set.lessons[li];
			struct run_report *r = &f.runs[f.nruns];
			unsigned long long size, own[2];
			unsigned int lesson_block;
			char count[32];

			if (l->error != NULL) {
				if (si == 0)
					fail(_("skipping lesson '%s': %s"), l->id, l->error);
				continue;
			}
			if (sizes != NULL)
				size = sizes[si];
			else if (si < record_sizes(l, own))
				size = own[si];
			else
				continue;
			lesson_block = block ? block : runner_default_block(l);
			fprintf(stderr, _("recording %s at %s...\n"), l->id,
			    cli_count(size, count, sizeof count));
			if (check_steps(l, size, lesson_block) != 0 ||
			    run_live(l, size, lesson_block, 0, r) != 0)
				continue;
			r->copy_gbps = f.copy_gbps;
			results_derive(r);
			/*
			 * Counters at the lesson's first size only: what `metrics`
			 * shows by default, at a size every step takes quickly.
			 */
			if (counters && si == 0)
				record_counters(l, r, &session, &counters);
			f.nruns++;
		}
	}
	if (f.nruns == 0) {
		fail(_("nothing was recorded; no file written"));
		goto out;
	}
	if (results_file_save(&f, path, &e) != 0) {
		fail("%s", e.msg);
		goto out;
	}
	fprintf(stderr, _("wrote %d runs on %s to %s\n"), f.nruns, f.gpu.name, path);
	rc = 0;
out:
	metrics_session_end(&session);
	results_file_free(&f);
	lesson_set_free(&set);
	free(sizes);
	free(path);
	return rc;
}

/* ---- banks --------------------------------------------------------------- */

static int cmd_banks(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pad", no_argument, NULL, 'p' },
		{ "bytes", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	enum cli_format format = FORMAT_TEXT;
	unsigned long long stride, bytes = 4;
	bool pad = false;
	struct banks_access a;
	int c;

	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			pad = true;
			break;
		case 'b':
			if (parse_count(optarg, &bytes) != 0 ||
			    (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8 && bytes != 16)) {
				fail(_("--bytes: '%s' is not an element size of 1, 2, 4, 8 or 16 bytes"), optarg);
				return EXIT_USAGE;
			}
			break;
		case 'f':
			if (cli_parse_format(optarg, &format) != 0 || format == FORMAT_CSV) {
				fail(_("--format: '%s' is not text or json"), optarg);
				return EXIT_USAGE;
			}
			break;
		default:
			option_error(argc, argv, c);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fail(_("banks needs a stride: cudatutor banks STRIDE (0 for every lane on one element)"));
		return EXIT_USAGE;
	}
	if (optind + 1 < argc) {
		fail(_("banks takes one stride; '%s' is extra"), argv[optind + 1]);
		return EXIT_USAGE;
	}
	if (parse_count(argv[optind], &stride) != 0 || stride > 1024) {
		fail(_("banks: '%s' is not a stride from 0 to 1024 elements"), argv[optind]);
		return EXIT_USAGE;
	}
	banks_compute((unsigned int)stride, (unsigned int)bytes, pad, &a);
	cli_print_banks(stdout, &a, format);
	return 0;
}

/* ---- the tutor ----------------------------------------------------------- */

static int cmd_tutor(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "present", no_argument, NULL, 'p' },
		{ "lang", required_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 },
	};
	struct tui_options o = { 0 };
	char *lang;
	int c, rc;

	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			o.present = 1;
			break;
		case 'l':
			if (check_lang(optarg) != 0)
				return EXIT_USAGE;
			o.lang = optarg;
			break;
		default:
			option_error(argc, argv, c);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fail(_("unknown command '%s' (see cudatutor --help)"), argv[optind]);
		return EXIT_USAGE;
	}
	lang = language_from_env(o.lang);
	o.lang = lang;
	rc = tui_main(&o);
	free(lang);
	return rc;
}

/* ---- dispatch ------------------------------------------------------------ */

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
};

static const struct command commands[] = {
	{ "list", cmd_list },
	{ "run", cmd_run },
	{ "show", cmd_show },
	{ "diff", cmd_diff },
	{ "metrics", cmd_metrics },
	{ "read", cmd_read },
	{ "record", cmd_record },
	{ "banks", cmd_banks },
};

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	(void)bindtextdomain(PACKAGE, LOCALEDIR);
	(void)textdomain(PACKAGE);
	paths_init();
	/* GPU work runs in child processes: a kernel fault must not end the tutor. */
	isolate_enable();
	/* getopt_long says nothing itself: option_error says it in one line of ours */
	opterr = 0;

	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0)) {
		usage(stdout);
		return 0;
	}
	if (argc >= 2 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)) {
		printf("cudatutor %s\n", PACKAGE_VERSION);
		printf(_("kernels built for: %s\n"), CUDATUTOR_CUDA_ARCHS);
		return 0;
	}
	if (argc >= 2 && argv[1][0] != '-') {
		for (size_t i = 0; i < ARRAY_LEN(commands); i++)
			if (strcmp(argv[1], commands[i].name) == 0)
				return commands[i].fn(argc - 1, argv + 1);
		fail(_("unknown command '%s' (see cudatutor --help)"), argv[1]);
		return EXIT_USAGE;
	}
	return cmd_tutor(argc, argv);
}

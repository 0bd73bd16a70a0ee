/* cudatutor: start-up, the command table, and which command runs. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "i18n.h"
#include "isolate.h"
#include "paths.h"

/* Every command, in the order --help lists them; the tutor runs when none is named. */
extern const struct command cmd_tutor_entry, cmd_list_entry, cmd_run_entry, cmd_show_entry,
    cmd_diff_entry, cmd_read_entry, cmd_metrics_entry, cmd_record_entry, cmd_banks_entry,
    cmd_exercise_entry, cmd_check_entry, cmd_hint_entry, cmd_solution_entry, cmd_reset_entry,
    cmd_roofs_entry, cmd_roofline_entry, cmd_sweep_entry, cmd_submit_entry, cmd_class_entry;
static const struct command *const commands[] = {
	&cmd_tutor_entry,
	&cmd_list_entry,
	&cmd_run_entry,
	&cmd_show_entry,
	&cmd_diff_entry,
	&cmd_read_entry,
	&cmd_metrics_entry,
	&cmd_record_entry,
	&cmd_roofs_entry,
	&cmd_roofline_entry,
	&cmd_sweep_entry,
	&cmd_banks_entry,
	&cmd_exercise_entry,
	&cmd_check_entry,
	&cmd_hint_entry,
	&cmd_solution_entry,
	&cmd_reset_entry,
	&cmd_submit_entry,
	&cmd_class_entry,
};

/* --lang's value, looked for before the options are parsed: the locale comes first. */
static const char *lang_argument(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strncmp(argv[i], "--lang=", 7) == 0)
			return argv[i] + 7;
		if (strcmp(argv[i], "--lang") == 0 && i + 1 < argc)
			return argv[i + 1];
	}
	return NULL;
}

static bool is(const char *arg, const char *a, const char *b, const char *c)
{
	return strcmp(arg, a) == 0 || strcmp(arg, b) == 0 || (c != NULL && strcmp(arg, c) == 0);
}

int main(int argc, char **argv)
{
	paths_init();
	/* the build tree's catalogs when run from it, else the installed ones */
	(void)bindtextdomain(PACKAGE, paths_locale_dir());
	(void)textdomain(PACKAGE);
	/* a locale that is not installed falls back to UTF-8; the tutor says so at start */
	(void)i18n_setup(lang_argument(argc, argv), NULL, 0);
	/* GPU work runs in child processes: a kernel fault must not end the tutor. */
	isolate_enable();

	if (argc >= 2 && is(argv[1], "--help", "-h", "help")) {
		cmd_usage(stdout, commands, ARRAY_LEN(commands));
		return 0;
	}
	if (argc >= 2 && is(argv[1], "--version", "-V", NULL)) {
		printf("cudatutor %s\n", PACKAGE_VERSION);
		printf(_("kernels built for: %s\n"), CUDATUTOR_CUDA_ARCHS);
		return 0;
	}
	if (argc >= 2 && argv[1][0] != '-') {
		for (size_t i = 0; i < ARRAY_LEN(commands); i++)
			if (commands[i]->name != NULL && strcmp(argv[1], commands[i]->name) == 0)
				return cmd_execute(commands[i], argc - 1, argv + 1);
		cmd_fail(_("unknown command '%s' (see cudatutor --help)"), argv[1]);
		return EXIT_USAGE;
	}
	return cmd_execute(&cmd_tutor_entry, argc, argv);
}

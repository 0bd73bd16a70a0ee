/* libFuzzer target: any bytes given to the results loader end in results or one error, never a crash. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "results.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	sink = fopen("/dev/null", "w");
	return sink == NULL;
}

/*
 * What the tutor does with a loaded run: print it in each format (as
 * `run --recorded` does), and write it as JSON and read that back (as the
 * progress file does), which must give the same run.
 */
static void use_run(const struct run_report *r)
{
	struct run_report back;
	struct error e = { "" };
	json_t *j;

	if (r->nsteps < 0 || (r->nsteps > 0 && r->steps == NULL))
		__builtin_trap();
	cli_print_report(sink, r, NULL, FORMAT_TEXT);
	cli_print_report(sink, r, NULL, FORMAT_CSV);
	cli_print_report(sink, r, NULL, FORMAT_JSON);
	j = results_report_to_json(r);
	if (results_report_from_json(j, "fuzz.json", &back, &e) != 0) {
		fprintf(stderr, "a loaded run does not read back: %s\n", e.msg);
		__builtin_trap();
	}
	if (back.nsteps != r->nsteps || strcmp(back.lesson, r->lesson) != 0 ||
	    strcmp(back.gpu.name, r->gpu.name) != 0)
		__builtin_trap();
	for (int i = 0; i < r->nsteps; i++)
		if (strcmp(back.steps[i].kernel, r->steps[i].kernel) != 0 ||
		    strcmp(back.steps[i].title, r->steps[i].title) != 0 ||
		    back.steps[i].ran != r->steps[i].ran)
			__builtin_trap();
	run_report_free(&back);
	json_decref(j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct results_file f;
	struct error e = { "" };

	if (results_file_load_buffer((const char *)data, size, "fuzz.json", &f, &e) == 0) {
		for (int i = 0; i < f.nruns; i++)
			use_run(&f.runs[i]);
		results_file_free(&f);
	} else if (strncmp(e.msg, "fuzz.json", 9) != 0) {
		__builtin_trap();	/* every error names the file */
	}
	return 0;
}

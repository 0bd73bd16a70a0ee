/* The commands' option parser and --help, on commands of the test's own. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "cmd/cmd.h"
#include "paths.h"

static int never_run(struct cmd_ctx *c)
{
	(void)c;
	return 0;
}

static const struct command lesson_cmd = {
	.name = "lesson",
	.args = "LESSON",
	.summary = "a command of the test's",
	.options = (const enum cmd_opt[]){ OPT_STEP, OPT_SIZE, OPT_BLOCK, OPT_FORMAT, OPT_RECORDED,
	    OPT_SIZES, OPT_WIDTH, OPT_ARCH, OPT_END },
	.formats = FORMATS_TEXT_JSON,
	.min_width = 40,
	.exec = never_run,
};

static const struct command view_cmd = {
	.name = "view",
	.args = "KERNEL",
	.summary = "another,\non two lines",
	.options = (const enum cmd_opt[]){ OPT_SOURCE, OPT_PTX, OPT_SASS, OPT_FORMAT, OPT_EXPLAIN,
	    OPT_END },
	.formats = FORMATS_TEXT_JSON_CSV,
	.mode = OPT_EXPLAIN,
	.mode_formats = FORMATS_TEXT_JSON_MARKDOWN,
	.exec = never_run,
};

static struct cmd_ctx ctx;
static char said[1024];

/* Parse the words (a NULL ends them) as cmd would; what it said on stderr is in said. */
static int parse(const struct command *cmd, ...)
{
	static char *argv[32];	/* ctx.argv points into it */
	int argc = 0, saved = dup(STDERR_FILENO), rc;
	FILE *err = tmpfile();
	va_list ap;
	size_t n;

	argv[argc++] = (char *)cmd->name;
	va_start(ap, cmd);
	while ((argv[argc] = va_arg(ap, char *)) != NULL)
		argc++;
	va_end(ap);
	fflush(stderr);
	dup2(fileno(err), STDERR_FILENO);
	cmd_ctx_free(&ctx);
	rc = cmd_parse(cmd, argc, argv, &ctx);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(err);
	n = fread(said, 1, sizeof said - 1, err);
	said[n] = '\0';
	fclose(err);
	return rc;
}

static void setup(void)
{
	setenv("CUDATUTOR_NO_GPU", "1", 1);
	paths_init();
	memset(&ctx, 0, sizeof ctx);
}

static void teardown(void)
{
	cmd_ctx_free(&ctx);
}

START_TEST(values_are_read_into_the_context)
{
	ck_assert_int_eq(parse(&lesson_cmd, "--size", "2^20", "reduction", "--block=256", "--format",
	    "json", "--step", "2", "--arch", "90", NULL), 0);
	ck_assert_uint_eq(ctx.size, 1ULL << 20);
	ck_assert_uint_eq(ctx.block, 256);
	ck_assert_uint_eq(ctx.step, 2);
	ck_assert_int_eq(ctx.format, FORMAT_JSON);
	ck_assert_str_eq(ctx.arch, "sm_90");
	ck_assert(ctx.given[OPT_SIZE] && !ctx.given[OPT_RECORDED]);
	/* the words left, wherever they stood */
	ck_assert_int_eq(ctx.argc, 1);
	ck_assert_str_eq(ctx.argv[0], "reduction");
	ck_assert_str_eq(said, "");
	/* a second parse starts afresh */
	ck_assert_int_eq(parse(&lesson_cmd, "x", NULL), 0);
	ck_assert_uint_eq(ctx.size, 0);
	ck_assert_str_eq(ctx.format_name, "text");
	ck_assert_int_eq(ctx.argc, 1);
}
END_TEST

START_TEST(a_bad_value_is_one_line)
{
	ck_assert_int_eq(parse(&lesson_cmd, "--size", "0", NULL), -1);
	ck_assert_str_eq(said, "cudatutor: --size: '0' is not a positive count of elements "
	    "(e.g. 16777216, 2^24, 16M)\n");
	ck_assert_int_eq(parse(&lesson_cmd, "--sizes", "1,x", NULL), -1);
	ck_assert_msg(strstr(said, "--sizes: 'x' is not a positive count") != NULL, "%s", said);
	/* what --format takes is the command's */
	ck_assert_int_eq(parse(&lesson_cmd, "--format", "csv", NULL), -1);
	ck_assert_str_eq(said, "cudatutor: --format: 'csv' is not text or json\n");
	ck_assert_int_eq(parse(&view_cmd, "--format", "text|json", NULL), -1);
	ck_assert_int_eq(parse(&view_cmd, "--format", "tex", NULL), -1);
	ck_assert_int_eq(parse(&view_cmd, "--format", "csv", NULL), 0);
	ck_assert_int_eq(ctx.format, FORMAT_CSV);
	/* and so is --width's least */
	ck_assert_int_eq(parse(&lesson_cmd, "--width", "39", NULL), -1);
	ck_assert_str_eq(said, "cudatutor: --width: '39' is not a width from 40 to 1000 columns\n");
	ck_assert_int_eq(parse(&lesson_cmd, "--width", "40", NULL), 0);
	ck_assert_uint_eq(ctx.width, 40);
}
END_TEST

START_TEST(only_the_commands_own_options)
{
	ck_assert_int_eq(parse(&lesson_cmd, "--pad", NULL), -1);
	ck_assert_str_eq(said, "cudatutor: lesson: unknown option '--pad' (see cudatutor --help)\n");
	ck_assert_int_eq(parse(&lesson_cmd, "--size", NULL), -1);
	ck_assert_str_eq(said, "cudatutor: lesson: --size needs a value (see cudatutor --help)\n");
	ck_assert_int_eq(parse(&view_cmd, "--sass=1", NULL), -1);
	ck_assert_str_eq(said, "cudatutor: view: --sass takes no value\n");
	ck_assert_int_eq(parse(&lesson_cmd, "-5", NULL), -1);
	ck_assert_msg(strstr(said, "'-5': negative numbers") != NULL, "%s", said);
	/* a prefix names an option only where it names one: --size or --sizes? */
	ck_assert_int_eq(parse(&lesson_cmd, "--blo", "4", NULL), 0);
	ck_assert_uint_eq(ctx.block, 4);
	ck_assert_int_eq(parse(&lesson_cmd, "--siz", "4", NULL), -1);
	ck_assert_str_eq(said, "cudatutor: lesson: unknown option '--siz' (see cudatutor --help)\n");
}
END_TEST

START_TEST(recorded_takes_a_json_file_after_it)
{
	ck_assert_int_eq(parse(&lesson_cmd, "--recorded", "r.json", "reduction", NULL), 0);
	ck_assert(ctx.given[OPT_RECORDED]);
	ck_assert_str_eq(ctx.recorded_file, "r.json");
	ck_assert_int_eq(ctx.argc, 1);
	/* a lesson after it is a lesson */
	ck_assert_int_eq(parse(&lesson_cmd, "--recorded", "reduction", NULL), 0);
	ck_assert_ptr_null(ctx.recorded_file);
	ck_assert_str_eq(ctx.argv[0], "reduction");
	ck_assert_int_eq(parse(&lesson_cmd, "--recorded=", NULL), -1);
}
END_TEST

START_TEST(one_choice_at_a_time)
{
	ck_assert_int_eq(parse(&view_cmd, "k", "--sass", "--sass", NULL), 0);
	ck_assert_int_eq(ctx.choice, OPT_SASS);
	ck_assert_int_eq(parse(&view_cmd, "k", NULL), 0);
	ck_assert_int_eq(ctx.choice, OPT_END);
	ck_assert_int_eq(parse(&view_cmd, "k", "--ptx", "--sass", NULL), -1);
	ck_assert_str_eq(said, "cudatutor: view takes one of --source, --ptx, --sass\n");
}
END_TEST

START_TEST(a_mode_has_formats_of_its_own)
{
	/* --format before the option that says what it takes */
	ck_assert_int_eq(parse(&view_cmd, "--format", "markdown", "--explain", NULL), 0);
	ck_assert_str_eq(ctx.format_name, "markdown");
	ck_assert_int_eq(parse(&view_cmd, "--format", "markdown", NULL), -1);
	ck_assert_str_eq(said, "cudatutor: --format: 'markdown' is not text, json or csv\n");
	ck_assert_int_eq(parse(&view_cmd, "--explain", "--format", "csv", NULL), -1);
	ck_assert_str_eq(said, "cudatutor: --format: 'csv' is not text, json or markdown\n");
}
END_TEST

START_TEST(help_is_made_from_the_table)
{
	const struct command *const table[] = { &lesson_cmd, &view_cmd };
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	cmd_usage(out, table, 2);
	fclose(out);
	ck_assert_msg(strstr(text, "Usage: cudatutor lesson LESSON [--step N] [--size N] [--block N]\n"
	    "                  [--format text|json] [--recorded [FILE]] [--sizes N,N]") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "       cudatutor view KERNEL [--source|--ptx|--sass] "
	    "[--format text|json|csv]\n") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "       cudatutor view --explain [--format text|json|markdown]\n") != NULL,
	    "%s", text);
	ck_assert_msg(strstr(text, "  view    another,\n          on two lines\n") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "  --size N        elements per step") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "  --recorded [FILE]  show recorded") != NULL, "%s", text);
	/* options no command of the table takes are left out */
	ck_assert_ptr_null(strstr(text, "--pad"));
	ck_assert_ptr_null(strstr(text, "--lang"));
	free(text);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("cmd");
	TCase *tc = tcase_create("options");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, values_are_read_into_the_context);
	tcase_add_test(tc, a_bad_value_is_one_line);
	tcase_add_test(tc, only_the_commands_own_options);
	tcase_add_test(tc, recorded_takes_a_json_file_after_it);
	tcase_add_test(tc, one_choice_at_a_time);
	tcase_add_test(tc, a_mode_has_formats_of_its_own);
	tcase_add_test(tc, help_is_made_from_the_table);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

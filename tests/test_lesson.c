/* The lesson loader: the real lessons, and malformed ones with file:line messages. */
#include "config.h"

#include <dirent.h>
#include <string.h>

#include "check_main.h"
#include "lesson.h"
#include "paths.h"

static void expect_error(const char *text, const char *where, const char *what)
{
	struct lesson l;
	struct error e = { "" };

	ck_assert_int_ne(lesson_load_buffer(text, strlen(text), "bad.md", "bad", &l, &e), 0);
	ck_assert_msg(strncmp(e.msg, where, strlen(where)) == 0, "got '%s', wanted it to start '%s'",
	    e.msg, where);
	ck_assert_msg(strstr(e.msg, what) != NULL, "got '%s', wanted '%s' in it", e.msg, what);
	lesson_free(&l);
}

START_TEST(real_lessons_load)
{
	struct lesson_set set;
	struct error e;
	struct lesson *l;

	ck_assert_msg(lesson_load_all("en", &set, &e) == 0, "%s", e.msg);
	ck_assert_int_ge(set.count, 2);
	l = lesson_find(&set, "unrolling");
	ck_assert_ptr_nonnull(l);
	ck_assert_ptr_null(l->error);
	ck_assert_str_eq(l->lang, "en");
	ck_assert_int_ge(l->nsteps, 8);
	ck_assert_str_eq(l->steps[0].kernel->name, "reduce_unroll2");
	ck_assert_str_eq(l->steps[0].title, "Unroll by two");
	ck_assert_int_gt(l->steps[0].line, 1);
	ck_assert_ptr_null(lesson_find(&set, "nonexistent"));
	/* the order comes from the file names */
	ck_assert_str_eq(set.lessons[0].id, "reduction");
	lesson_set_free(&set);
}
END_TEST

START_TEST(a_good_buffer)
{
	const char *text = "# Title\n\nIntro *text*.\n\n## First\n\n```step\nkernel: reduce_unroll2\n```\n\n"
	    "Prose.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n## Second `code`\n\n```step\n# a comment\nkernel:   reduce_unroll4  \n```\n";
	struct lesson l;
	struct error e;

	ck_assert_msg(lesson_load_buffer(text, strlen(text), "t.md", "t", &l, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(l.title, "Title");
	ck_assert_int_eq(l.nsteps, 2);
	ck_assert_str_eq(l.steps[1].title, "Second code");
	ck_assert_str_eq(l.steps[1].kernel->name, "reduce_unroll4");
	ck_assert_int_eq(l.steps[1].line, 17);
	lesson_free(&l);
}
END_TEST

START_TEST(malformed_lessons_say_where)
{
	expect_error("", "bad.md:1:", "# Title");
	expect_error("Some prose first.\n\n# Title\n", "bad.md:1:", "starts with its title");
	expect_error("# T\n\n## Step\n\nNo block here.\n\n## Next\n\n```step\nkernel: reduce_unroll2\n```\n",
	    "bad.md:3:", "no ```step block");
	expect_error("# T\n\n## Step\n\n```step\nkernel: reduce_unroll2\nunroll: 4\n```\n",
	    "bad.md:7:", "unknown key 'unroll'");
	expect_error("# T\n\n## Step\n\n```step\nkernel: reduce_unrol8\n```\n",
	    "bad.md:6:", "unknown kernel 'reduce_unrol8'");
	expect_error("# T\n\n## Step\n\n```step\nthis line has no colon\n```\n",
	    "bad.md:6:", "no colon");
	expect_error("# T\n\n## Step\n\n```step\n# only a comment\n```\n",
	    "bad.md:5:", "names no kernel");
	expect_error("# T\n\n```step\nkernel: reduce_unroll2\n```\n", "bad.md:3:", "before the first");
	expect_error("# T\n\n## S\n\n```step\nkernel: reduce_unroll2\n```\n\n```step\nkernel: reduce_unroll4\n```\n",
	    "bad.md:9:", "second step block");
	expect_error("# T\n\n## S\n\n```step\nkernel: reduce_unroll2\n```\n\n# Again\n",
	    "bad.md:9:", "a second '# ' title");
	expect_error("# T\n\nOnly an intro.\n", "bad.md:", "no steps");
	expect_error("# T\n\n## S\n\n```step\nkernel: reduce_unroll2\nlook-for: LDG.E, ldg\n```\n",
	    "bad.md:7:", "'ldg' is not a SASS opcode");
	expect_error("# T\n\n## S\n\n```step\nkernel: reduce_unroll2\n```\n\nSee {{count\nLDG}}.\n",
	    "bad.md:9:", "on one line");
	expect_error("# T\n\n## S\n\n```step\nkernel: reduce_unroll2\n```\n\nSee {{count reduce_nope LDG}}.\n",
	    "bad.md:9:", "unknown kernel 'reduce_nope'");
	expect_error("# T\n\n## S\n\ncaf\xc3 au lait\n", "bad.md:5:", "UTF-8");
	expect_error("# T\n\xed\xa0\x80\n", "bad.md:2:", "UTF-8");	/* a surrogate */
}
END_TEST

START_TEST(unreadable_file)
{
	struct lesson l;
	struct error e;

	ck_assert_int_ne(lesson_load_file("/nonexistent/x.md", "x", &l, &e), 0);
	ck_assert_ptr_nonnull(strstr(e.msg, "/nonexistent/x.md"));
	lesson_free(&l);
}
END_TEST

START_TEST(language_choice)
{
	char *lang;

	lang = lesson_pick_language("C");
	ck_assert_str_eq(lang, "en");
	free(lang);
	lang = lesson_pick_language("xx_YY.UTF-8");
	ck_assert_str_eq(lang, "en");
	free(lang);
	lang = lesson_pick_language("en_GB.UTF-8");
	ck_assert_str_eq(lang, "en");
	free(lang);
}
END_TEST

/* Every input the fuzzer once broke the loader with loads or fails cleanly now. */
START_TEST(fuzz_regressions)
{
	char *dir = paths_source("tests/fuzz/regressions");
	DIR *d = opendir(dir);
	struct dirent *ent;
	int n = 0;

	ck_assert_msg(d != NULL, "cannot open %s", dir);
	while ((ent = readdir(d)) != NULL) {
		char *path;
		size_t len = 0;
		char *text;
		struct lesson l;
		struct error e = { "" };

		if (ent->d_name[0] == '.' || strcmp(ent->d_name, "README") == 0)
			continue;
		path = xasprintf("%s/%s", dir, ent->d_name);
		text = file_read(path, &len);
		ck_assert_ptr_nonnull(text);
		if (lesson_load_buffer(text, len, path, "regression", &l, &e) != 0)
			ck_assert_msg(strncmp(e.msg, path, strlen(path)) == 0, "%s", e.msg);
		lesson_free(&l);
		free(text);
		free(path);
		n++;
	}
	closedir(d);
	free(dir);
	(void)n;
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("lesson");
	TCase *tc = tcase_create("lesson");

	tcase_add_test(tc, real_lessons_load);
	tcase_add_test(tc, a_good_buffer);
	tcase_add_test(tc, malformed_lessons_say_where);
	tcase_add_test(tc, unreadable_file);
	tcase_add_test(tc, language_choice);
	tcase_add_test(tc, fuzz_regressions);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

/* The exercise table: consistent with itself, the registry, kernels/exercises/ and the lessons. */
#include "config.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "exercise_table.h"
#include "lesson.h"
#include "paths.h"
#include "registry.h"
#include "util.h"

START_TEST(ids_are_unique_and_found)
{
	ck_assert_int_ge(exercise_def_count, 16);
	for (int i = 0; i < exercise_def_count; i++) {
		const struct exercise_def *d = &exercise_defs[i];

		ck_assert_ptr_eq(exercise_def_find(d->id), d);
		for (int j = i + 1; j < exercise_def_count; j++)
			ck_assert_str_ne(d->id, exercise_defs[j].id);
	}
	ck_assert_ptr_null(exercise_def_find("no-such-exercise"));
}
END_TEST

/* A target is one kernel the tutor can compile in its place: no template, no library. */
START_TEST(targets_are_plain_registry_kernels)
{
	for (int i = 0; i < exercise_def_count; i++) {
		const struct exercise_def *d = &exercise_defs[i];
		const struct kernel_def *target = registry_find(d->target);

		ck_assert_msg(target != NULL, "%s: no kernel %s", d->id, d->target);
		ck_assert_msg(!(target->flags & KF_BLOCK_TEMPLATE) && !registry_is_library(target),
		    "%s: %s is a template or a library", d->id, d->target);
		ck_assert_msg(registry_find(d->start_from) != NULL, "%s: no kernel %s", d->id, d->start_from);
	}
}
END_TEST

START_TEST(checks_are_well_formed)
{
	for (int i = 0; i < exercise_def_count; i++) {
		const struct exercise_def *d = &exercise_defs[i];
		int n = 0, work = 0;

		for (; n < EXERCISE_MAX_CHECKS && d->checks[n].kind != CHECK_END; n++) {
			const struct exercise_check *c = &d->checks[n];
			int wants_other = c->kind == CHECK_BEFORE || c->kind == CHECK_NONE_AFTER;

			work += c->work;

			ck_assert_msg(c->message != NULL && c->message[0] != '\0', "%s: check %d has no message",
			    d->id, n + 1);
			if (c->kind == CHECK_MAX_REGISTERS || c->kind == CHECK_READS_PARAM) {
				ck_assert_msg(c->op == NULL && c->other == NULL && c->n > 0, "%s: check %d", d->id,
				    n + 1);
				continue;
			}
			ck_assert_msg(c->op != NULL && lesson_is_opcode(c->op), "%s: check %d: bad opcode",
			    d->id, n + 1);
			ck_assert_msg(wants_other == (c->other != NULL), "%s: check %d: other", d->id, n + 1);
			if (wants_other)
				ck_assert_msg(lesson_is_opcode(c->other), "%s: check %d: bad opcode", d->id, n + 1);
			ck_assert_msg(c->n >= 0, "%s: check %d: negative count", d->id, n + 1);
		}
		ck_assert_msg(n > 0, "%s has no checks", d->id);
		/* an empty kernel must fail one check of the work, the starting file one of the technique */
		ck_assert_msg(work > 0, "%s has no check of the work", d->id);
		ck_assert_msg(work < n, "%s has no check of the technique", d->id);
	}
}
END_TEST

/* Both files exist, define the target's symbol, and only the starting file has a TODO. */
START_TEST(kernel_files_match_the_rows)
{
	for (int i = 0; i < exercise_def_count; i++) {
		const struct exercise_def *d = &exercise_defs[i];
		char *name = xasprintf(" %s(", d->target);

		for (int solution = 0; solution <= 1; solution++) {
			char *rel = xasprintf("kernels/exercises/%s%s.cu", d->id, solution ? ".solution" : "");
			char *path = paths_source(rel);
			char *text = file_read(path, NULL);

			ck_assert_msg(text != NULL, "%s is missing", rel);
			ck_assert_msg(strstr(text, "extern \"C\" __global__") != NULL, "%s: no extern \"C\" kernel", rel);
			ck_assert_msg(strstr(text, name) != NULL, "%s does not define %s", rel, d->target);
			ck_assert_msg(strstr(text, "#include \"") == NULL, "%s includes a header of ours", rel);
			ck_assert_msg((strstr(text, "TODO") != NULL) == !solution,
			    solution ? "%s: the solution still has a TODO" : "%s: no TODO marks the part to write",
			    rel);
			free(text);
			free(path);
			free(rel);
		}
		free(name);
	}
}
END_TEST

/* Every row has a second solution, written differently, among the test fixtures. */
START_TEST(every_row_has_a_second_solution)
{
	for (int i = 0; i < exercise_def_count; i++) {
		const struct exercise_def *d = &exercise_defs[i];
		char *name = xasprintf(" %s(", d->target);
		char *rel = xasprintf("tests/fixtures/exercises/%s.alt.cu", d->id);
		char *path = paths_source(rel), *text = file_read(path, NULL);

		ck_assert_msg(text != NULL, "%s is missing", rel);
		ck_assert_msg(strstr(text, "extern \"C\" __global__") != NULL && strstr(text, name) != NULL,
		    "%s does not define %s", rel, d->target);
		free(text);
		free(path);
		free(rel);
		free(name);
	}
}
END_TEST

/* The lesson file of one language whose name ends in -<lesson>.md; NULL if none. */
static char *lesson_file(const char *lang, const char *lesson)
{
	char *rel = xasprintf("lessons/%s", lang);
	char *dir_path = paths_source(rel);
	char *suffix = xasprintf("-%s.md", lesson);
	char *found = NULL;
	DIR *dir = opendir(dir_path);
	struct dirent *ent;

	while (dir != NULL && found == NULL && (ent = readdir(dir)) != NULL) {
		size_t len = strlen(ent->d_name), slen = strlen(suffix);
		if (len > slen && strcmp(ent->d_name + len - slen, suffix) == 0)
			found = xasprintf("%s/%s", dir_path, ent->d_name);
	}
	if (dir != NULL)
		closedir(dir);
	free(suffix);
	free(dir_path);
	free(rel);
	return found;
}

/* Rows go in lesson order, and each lesson, in both languages, has the exercise's section. */
START_TEST(every_exercise_has_its_sections)
{
	static const char *langs[] = { "en", "zh_CN" };
	char *last = NULL;

	for (int i = 0; i < exercise_def_count; i++) {
		const struct exercise_def *d = &exercise_defs[i];
		char *fence = xasprintf("```exercise\nid: %s\n```", d->id);

		for (size_t l = 0; l < ARRAY_LEN(langs); l++) {
			char *path = lesson_file(langs[l], d->lesson);
			char *text;

			ck_assert_msg(path != NULL, "%s: no %s lesson %s", d->id, langs[l], d->lesson);
			text = file_read(path, NULL);
			ck_assert_msg(text != NULL && strstr(text, fence) != NULL, "%s has no section for %s",
			    path, d->id);
			if (l == 0) {
				const char *base = strrchr(path, '/') + 1;
				ck_assert_msg(last == NULL || strcmp(last, base) <= 0,
				    "%s comes after a row of a later lesson", d->id);
				free(last);
				last = xstrdup(base);
			}
			free(text);
			free(path);
		}
		free(fence);
	}
	free(last);
}
END_TEST

static Suite *exercise_table_suite(void)
{
	Suite *s = suite_create("exercise_table");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, ids_are_unique_and_found);
	tcase_add_test(tc, targets_are_plain_registry_kernels);
	tcase_add_test(tc, checks_are_well_formed);
	tcase_add_test(tc, kernel_files_match_the_rows);
	tcase_add_test(tc, every_row_has_a_second_solution);
	tcase_add_test(tc, every_exercise_has_its_sections);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(exercise_table_suite)

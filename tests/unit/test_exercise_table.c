/* The exercise table: consistent with itself, the registry, kernels/exercises/ and the lessons. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "exercise.h"
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
			int wants_other = c->kind == CHECK_BEFORE || c->kind == CHECK_NONE_AFTER || c->kind == CHECK_SHARE;

			work += c->work;

			ck_assert_msg(c->message != NULL && c->message[0] != '\0', "%s: check %d has no message",
			    d->id, n + 1);
			ck_assert_msg((c->kind == CHECK_DRAM_READS) == (c->size > 0), "%s: check %d: a size is for a "
			    "check of device-memory reads alone, and such a check needs one", d->id, n + 1);
			if (c->kind == CHECK_DRAM_READS) {
				/* a share of our kernel's bytes: ours must pass, and it is the technique itself */
				ck_assert_msg(c->op == NULL && c->other == NULL && c->n >= 100 && !c->work,
				    "%s: check %d: reads at most n%% (n >= 100) of what ours reads", d->id, n + 1);
				continue;
			}
			if (c->kind == CHECK_MAX_REGISTERS || c->kind == CHECK_READS_PARAM) {
				ck_assert_msg(c->op == NULL && c->other == NULL && c->n > 0, "%s: check %d", d->id,
				    n + 1);
				continue;
			}
			ck_assert_msg(c->op != NULL && exercise_op_is_valid(c->op), "%s: check %d: bad opcode",
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

/*
 * Every row has a near miss among the test fixtures: its target's kernel,
 * one step short of the technique, its first line saying short of what
 * ("a near miss of "ID": ...").  tests/unit/test_exercise.c checks it.
 */
START_TEST(every_row_has_a_near_miss)
{
	for (int i = 0; i < exercise_def_count; i++) {
		const struct exercise_def *d = &exercise_defs[i];
		char *name = xasprintf(" %s(", d->target);
		char *rel = xasprintf("tests/fixtures/exercises/%s.nearmiss.cu", d->id);
		char *head = xasprintf("/* Test fixture: a near miss of \"%s\": ", d->id);
		char *path = paths_source(rel), *text = file_read(path, NULL);

		ck_assert_msg(text != NULL, "%s is missing", rel);
		ck_assert_msg(strncmp(text, head, strlen(head)) == 0 && strcspn(text, "\n") > strlen(head) + 10,
		    "%s: its first line is not \"%s...\", saying what it is short of", rel, head);
		ck_assert_msg(strstr(text, "extern \"C\" __global__") != NULL && strstr(text, name) != NULL,
		    "%s does not define %s", rel, d->target);
		free(text);
		free(path);
		free(head);
		free(rel);
		free(name);
	}
}
END_TEST

/* Makefile.am installs every row's starting file and solution: the tutor compiles them from there. */
START_TEST(every_row_is_installed)
{
	char *path = paths_source("Makefile.am"), *text = file_read(path, NULL);

	ck_assert_msg(text != NULL, "Makefile.am is missing");
	for (int i = 0; i < exercise_def_count; i++) {
		char *start = xasprintf("kernels/exercises/%s.cu ", exercise_defs[i].id);
		char *solution = xasprintf("kernels/exercises/%s.solution.cu", exercise_defs[i].id);

		ck_assert_msg(strstr(text, start) != NULL && strstr(text, solution) != NULL,
		    "Makefile.am: exercise_files lacks %s or %s", start, solution);
		free(start);
		free(solution);
	}
	free(text);
	free(path);
}
END_TEST

/* doc/exercises.md lists every row: "| `ID` | LESSON | `START_FROM`... | `TARGET`...". */
START_TEST(the_doc_lists_every_row)
{
	char *path = paths_source("doc/exercises.md"), *text = file_read(path, NULL);

	ck_assert_msg(text != NULL, "doc/exercises.md is missing");
	for (int i = 0; i < exercise_def_count; i++) {
		const struct exercise_def *d = &exercise_defs[i];
		char *head = xasprintf("\n| `%s` | %s | `%s`", d->id, d->lesson, d->start_from);
		const char *line = strstr(text, head), *target;
		char *want = xasprintf("| `%s`", d->target);

		ck_assert_msg(line != NULL, "doc/exercises.md has no line \"%s ...\" in its table of exercises",
		    head + 1);
		target = strstr(line + 1, want);
		ck_assert_msg(target != NULL && target < strchr(line + 1, '\n'),
		    "doc/exercises.md: the line of %s does not name its target %s", d->id, d->target);
		free(want);
		free(head);
	}
	free(text);
	free(path);
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

/* ---- the helpers kernel files share with the exercises ------------------------------ */

/*
 * A part of a file between two comment lines, "shared with WHERE: begin
 * NAME" and "shared with WHERE: end NAME".  A kernel file marks the
 * helpers its exercises copy with WHERE "kernels/exercises/" (as
 * kernels/regtile.cu, kernels/tensor.cu, kernels/tensor_hopper.cu do); a
 * file that copies one marks the copy with WHERE the kernel file it comes
 * from: "shared with kernels/regtile.cu: begin load_or_zero".
 */
struct shared_part {
	char where[64];
	char name[64];
	const char *text;	/* its first line, in the file's text */
	size_t len;
	int line;		/* the number of that line */
};

enum { MAX_PARTS = 16, MAX_ORIGINALS = 16 };

#define EXERCISES_WHERE "kernels/exercises/"

/* A kernel file that shares parts with the exercises: its parts, and which of them have a copy. */
struct original {
	char rel[64];		/* "kernels/regtile.cu" */
	char *text;
	struct shared_part parts[MAX_PARTS];
	int n;
	int used[MAX_PARTS];
};

/* A marker line: 'b' (begin) or 'e' (end), its WHERE and NAME; 0 for any other line. */
static int shared_marker(const char *s, size_t len, char *where, char *name)
{
	char *line = xasprintf("%.*s", (int)len, s), word[8], end[4];
	int kind = 0;

	if (sscanf(line, "/* shared with %63[^:]: %7s %63s %3s", where, word, name, end) == 4 &&
	    strcmp(end, "*/") == 0)
		kind = strcmp(word, "begin") == 0 ? 'b' : strcmp(word, "end") == 0 ? 'e' : 0;
	free(line);
	return kind;
}

/* The name a line defines: NAME of "__device__ ... NAME(" or "struct NAME {"; "" for any other line. */
static void defined_name(const char *s, size_t len, char *name, size_t size)
{
	const char *p = s, *q = s;

	name[0] = '\0';
	if (len > 7 && strncmp(s, "struct ", 7) == 0) {
		p = s + 7;
		for (q = p; q < s + len && (isalnum((unsigned char)*q) || *q == '_'); q++)
			;
	} else if (len > 10 && strncmp(s, "__device__", 10) == 0 && (q = memchr(s, '(', len)) != NULL) {
		for (p = q; p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '_'); p--)
			;
	}
	snprintf(name, size, "%.*s", (int)(q - p), p);
}

/* The marked parts of the file rel into parts; its text (to free) into *text.  Returns how many. */
static int shared_parts(const char *rel, char **text, struct shared_part *parts)
{
	char *path = paths_source(rel);
	struct shared_part *open = NULL;
	int n = 0, line = 1;

	*text = file_read(path, NULL);
	ck_assert_msg(*text != NULL, "%s is missing", rel);
	for (const char *s = *text; *s != '\0'; line++) {
		size_t len = strcspn(s, "\n");
		char where[64], name[64];
		int kind = shared_marker(s, len, where, name);

		if (kind == 'b') {
			ck_assert_msg(open == NULL, "%s:%d: a shared part begins inside '%s'", rel, line,
			    open != NULL ? open->name : "");
			ck_assert_msg(n < MAX_PARTS, "%s:%d: more than %d shared parts", rel, line, MAX_PARTS);
			open = &parts[n++];
			snprintf(open->where, sizeof open->where, "%s", where);
			snprintf(open->name, sizeof open->name, "%s", name);
			open->text = s + len + (s[len] == '\n');
			open->line = line + 1;
		} else if (kind == 'e') {
			ck_assert_msg(open != NULL && strcmp(open->name, name) == 0,
			    "%s:%d: the end of shared part '%s', which has not begun here", rel, line, name);
			ck_assert_msg(strcmp(open->where, where) == 0,
			    "%s:%d: shared part '%s' begins shared with %s and ends shared with %s", rel, line, name,
			    open->where, where);
			open->len = (size_t)(s - open->text);
			open = NULL;
		}
		s += len + (s[len] == '\n');
	}
	ck_assert_msg(open == NULL, "%s: shared part '%s' has no end", rel, open != NULL ? open->name : "");
	free(path);
	return n;
}

/* Whether the line at s lies inside one of the n parts. */
static int in_part(const char *s, const struct shared_part *parts, int n)
{
	for (int i = 0; i < n; i++)
		if (s >= parts[i].text && s < parts[i].text + parts[i].len)
			return 1;
	return 0;
}

/* The first line at which copy differs from part, counted from 0; -1 when they are the same. */
static int first_difference(const struct shared_part *copy, const struct shared_part *part,
    const char **at_copy, const char **at_part)
{
	const char *a = copy->text, *b = part->text, *a_end = a + copy->len, *b_end = b + part->len;

	for (int k = 0;; k++) {
		size_t la = a < a_end ? strcspn(a, "\n") + 1 : 0, lb = b < b_end ? strcspn(b, "\n") + 1 : 0;

		if (la == 0 && lb == 0)
			return -1;
		if (la != lb || memcmp(a, b, la) != 0) {
			*at_copy = la ? a : "(the part ends here)\n";
			*at_part = lb ? b : "(the part ends here)\n";
			return k;
		}
		a += la;
		b += lb;
	}
}

/* The .cu and .cuh files of kernels/ that mark parts shared with the exercises.  Returns how many. */
static int load_originals(struct original *orig)
{
	char *dir_path = paths_source("kernels");
	DIR *dir = opendir(dir_path);
	struct dirent *ent;
	int n = 0;

	ck_assert_msg(dir != NULL, "kernels is missing");
	while ((ent = readdir(dir)) != NULL) {
		size_t len = strlen(ent->d_name);
		struct original *o = &orig[n];
		int shared = 0;

		/* kernel files and the headers they share (kernels/tensor_mma.cuh) */
		if (!(len > 3 && strcmp(ent->d_name + len - 3, ".cu") == 0) &&
		    !(len > 4 && strcmp(ent->d_name + len - 4, ".cuh") == 0))
			continue;
		ck_assert_msg(n < MAX_ORIGINALS, "more than %d kernel files share parts", MAX_ORIGINALS);
		snprintf(o->rel, sizeof o->rel, "kernels/%s", ent->d_name);
		o->n = shared_parts(o->rel, &o->text, o->parts);
		memset(o->used, 0, sizeof o->used);
		for (int i = 0; i < o->n; i++) {
			ck_assert_msg(strcmp(o->parts[i].where, EXERCISES_WHERE) == 0,
			    "%s:%d: shared part '%s' is shared with %s: a kernel file shares its helpers "
			    "\"with " EXERCISES_WHERE "\"", o->rel, o->parts[i].line - 1, o->parts[i].name,
			    o->parts[i].where);
			shared = 1;
		}
		if (shared)
			n++;
		else
			free(o->text);
	}
	closedir(dir);
	free(dir_path);
	return n;
}

/* The original part a copy names: its kernel file among orig, and the part of that name there. */
static struct shared_part *original_of(const char *rel, const struct shared_part *p, struct original *orig,
    int norig)
{
	struct original *o = NULL;

	ck_assert_msg(strcmp(p->where, EXERCISES_WHERE) != 0,
	    "%s:%d: shared part '%s' says \"shared with " EXERCISES_WHERE "\": a copy names the kernel file "
	    "it comes from, \"shared with kernels/<file>.cu\"", rel, p->line - 1, p->name);
	for (int j = 0; j < norig && o == NULL; j++)
		if (strcmp(orig[j].rel, p->where) == 0)
			o = &orig[j];
	ck_assert_msg(o != NULL, "%s:%d: shared part '%s' comes from %s, which marks no part \"shared with "
	    EXERCISES_WHERE "\"", rel, p->line - 1, p->name, p->where);
	for (int j = 0; j < o->n; j++)
		if (strcmp(o->parts[j].name, p->name) == 0) {
			o->used[j] = 1;
			return &o->parts[j];
		}
	ck_assert_msg(0, "%s:%d: %s has no shared part '%s'", rel, p->line - 1, o->rel, p->name);
	return NULL;
}

/* Where the helper name is defined in the kernel files' shared parts: "kernels/X.cu (part 'p')", or "". */
static void helper_homes(const char *name, const struct original *orig, int norig, char *buf, size_t size)
{
	buf[0] = '\0';
	for (int f = 0; f < norig; f++)
		for (int j = 0; j < orig[f].n; j++) {
			const struct shared_part *o = &orig[f].parts[j];
			char theirs[64];

			for (const char *t = o->text; t < o->text + o->len; t += strcspn(t, "\n") + 1) {
				defined_name(t, strcspn(t, "\n"), theirs, sizeof theirs);
				if (strcmp(name, theirs) == 0)
					snprintf(buf + strlen(buf), size - strlen(buf), "%s%s (part '%s')",
					    buf[0] != '\0' ? " or " : "", orig[f].rel, o->name);
			}
		}
}

/* No helper of the kernel files' shared parts is defined in the file rel outside its own parts. */
static void check_unmarked_helpers(const char *rel, const char *text, const struct shared_part *parts, int n,
    const struct original *orig, int norig)
{
	int line = 1;

	for (const char *s = text; *s != '\0'; line++) {
		size_t len = strcspn(s, "\n");
		char name[64], homes[512];

		defined_name(s, len, name, sizeof name);
		if (name[0] != '\0' && !in_part(s, parts, n)) {
			helper_homes(name, orig, norig, homes, sizeof homes);
			ck_assert_msg(homes[0] == '\0', "%s:%d: %s is a helper of %s: copy that part whole, between "
			    "the markers \"/* shared with kernels/<file>.cu: begin <part> */\" and \"... end <part> */\"",
			    rel, line, name, homes);
		}
		s += len + (s[len] == '\n');
	}
}

/*
 * One file against the kernel files it copies from: each of its shared
 * parts is the part of that name in the kernel file it names, line for
 * line, and none of the kernel files' shared helpers is defined outside
 * the markers.
 */
static void check_shared_copy(const char *rel, struct original *orig, int norig)
{
	struct shared_part parts[MAX_PARTS];
	char *text;
	int n = shared_parts(rel, &text, parts);

	for (int i = 0; i < n; i++) {
		const struct shared_part *p = &parts[i], *o = original_of(rel, p, orig, norig);
		const char *at_copy, *at_part;
		int k = first_difference(p, o, &at_copy, &at_part);

		ck_assert_msg(k < 0, "%s:%d differs from %s:%d in shared part '%s':\n  %s: %.*s\n  %s: %.*s",
		    rel, p->line + k, p->where, o->line + k, p->name, rel, (int)strcspn(at_copy, "\n"), at_copy,
		    p->where, (int)strcspn(at_part, "\n"), at_part);
	}
	/* a helper copied without the markers would drift unseen */
	check_unmarked_helpers(rel, text, parts, n, orig, norig);
	free(text);
}

/* Every .cu file of a folder of the source tree, checked against the kernel files it copies from. */
static void check_shared_folder(const char *folder, struct original *orig, int norig)
{
	char *dir_path = paths_source(folder);
	DIR *dir = opendir(dir_path);
	struct dirent *ent;

	ck_assert_msg(dir != NULL, "%s is missing", folder);
	while ((ent = readdir(dir)) != NULL) {
		size_t len = strlen(ent->d_name);

		if (len > 3 && strcmp(ent->d_name + len - 3, ".cu") == 0) {
			char *rel = xasprintf("%s/%s", folder, ent->d_name);
			check_shared_copy(rel, orig, norig);
			free(rel);
		}
	}
	closedir(dir);
	free(dir_path);
}

/*
 * The exercises' copies of kernels/X.cu's helpers are the same as the
 * helpers there, and every part kernels/X.cu shares has a copy.
 */
START_TEST(shared_helpers_match_their_kernels)
{
	struct original orig[MAX_ORIGINALS];
	int n = load_originals(orig);

	ck_assert_msg(n > 0, "no file of kernels/ marks a part \"shared with " EXERCISES_WHERE "\"");
	check_shared_folder("kernels/exercises", orig, n);
	check_shared_folder("tests/fixtures/exercises", orig, n);
	for (int f = 0; f < n; f++) {
		for (int i = 0; i < orig[f].n; i++)
			ck_assert_msg(orig[f].used[i], "%s:%d: no exercise has a copy of shared part '%s'", orig[f].rel,
			    orig[f].parts[i].line - 1, orig[f].parts[i].name);
		free(orig[f].text);
	}
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
	tcase_add_test(tc, every_row_has_a_near_miss);
	tcase_add_test(tc, every_exercise_has_its_sections);
	tcase_add_test(tc, the_doc_lists_every_row);
	tcase_add_test(tc, every_row_is_installed);
	tcase_add_test(tc, shared_helpers_match_their_kernels);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(exercise_table_suite)

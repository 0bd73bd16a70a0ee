/* The lesson loader: the real lessons, and malformed ones with file:line messages. */
#include "config.h"

#include <dirent.h>
#include <string.h>
#include <strings.h>

#include "check_main.h"
#include "exercise_table.h"
#include "lesson.h"
#include "paths.h"
#include "summary.h"

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

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

/* A source line break inside Chinese text is no space; next to English it is one. */
START_TEST(chinese_lines_join)
{
	const char *text = "# T\n\n## S\n\n```step\nkernel: reduce_unroll2\n```\n\n"
	    "每个线程\n先加载，\nLDG 指令\n紧挨着 `LDG`\n发出（*两条*\n指令）\nand\nmore。换一个核函数\n——向量加法\n…… English —\nstays “apart”\n“分开”\n。\n";
	struct lesson l;
	struct error e;
	cmark_node *para;
	char *plain;

	ck_assert_msg(lesson_load_buffer(text, strlen(text), "t.md", "t", &l, &e) == 0, "%s", e.msg);
	para = cmark_node_next(cmark_node_next(l.steps[0].heading));
	plain = cmark_render_plaintext(para, CMARK_OPT_NOBREAKS, 0);
	ck_assert_str_eq(plain, "每个线程先加载，LDG 指令紧挨着 LDG 发出（两条指令）and more。换一个核函数"
	    "——向量加法…… English — stays “apart” “分开”。\n");
	free(plain);
	lesson_free(&l);
}
END_TEST

/* "control: yes" marks a control step; without the line, a step is none. */
START_TEST(control_steps)
{
	static const char text[] = "# T\n\n## One\n\n```step\nkernel: reduce_neighbored\n```\n\n"
	    "## Two\n\n```step\nkernel: reduce_neighbored_mask\ncontrol: yes\n```\n\n"
	    "## Three\n\n```step\nkernel: reduce_neighbored_less\ncontrol: no\n```\n";
	struct lesson l;
	struct error e;

	ck_assert_msg(lesson_load_buffer(text, strlen(text), "c.md", "c", &l, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(l.nsteps, 3);
	ck_assert(!l.steps[0].control);
	ck_assert(l.steps[1].control);
	ck_assert(!l.steps[2].control);
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
	expect_error("# T\n\n## Step\n\n```step\nkernel: reduce_unroll2\ncontrol: maybe\n```\n",
	    "bad.md:7:", "'control' is 'yes' or 'no', not 'maybe'");
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
	expect_error("# T\n\n## S\n\n```step\nkernel: reduce_unroll2\nlook-for: Ldg.E\n```\n",
	    "bad.md:7:", "'Ldg.E' is not a SASS opcode");
	expect_error("# T\n\n## S\n\n```step\nkernel: reduce_unroll2\n```\n\nSee {{count\nLDG}}.\n",
	    "bad.md:9:", "on one line");
	expect_error("# T\n\n## S\n\n```step\nkernel: reduce_unroll2\n```\n\nSee {{count reduce_nope LDG}}.\n",
	    "bad.md:9:", "unknown kernel 'reduce_nope'");
	expect_error("# T\n\n## S\n\ncaf\xc3 au lait\n", "bad.md:5:", "UTF-8");
	expect_error("# T\n\xed\xa0\x80\n", "bad.md:2:", "UTF-8");	/* a surrogate */
}
END_TEST

/* An exercise section is no step: its id, task and hints, and the step it leads to. */
/*
 * The summary's last line names each GPU's last step by its number in
 * today's lesson: the H100's tensor run was recorded when
 * tc_wgmma_tma was step 10, and it is step 13 now.
 */
START_TEST(the_summary_numbers_steps_as_the_lesson_does)
{
	struct lesson_set set;
	struct error e;
	const struct lesson *l;
	char **lines;
	int n;
	bool found = false;

	ck_assert_msg(lesson_load_all("en", &set, &e) == 0, "%s", e.msg);
	ck_assert_ptr_nonnull(l = lesson_find(&set, "tensor-cores"));
	n = lesson_summary(l, 160, true, &lines);
	for (int i = 0; i < n; i++)
		if (strncmp(lines[i], "All the changes together:", 25) == 0) {
			found = true;
			ck_assert_msg(strstr(lines[i], "on the H100, step 13 against the first") != NULL, "%s", lines[i]);
			ck_assert_msg(strstr(lines[i], "on the H200, step 21 against the first") != NULL, "%s", lines[i]);
		}
	ck_assert(found);
	lesson_summary_free(lines, n);
	lesson_set_free(&set);
}
END_TEST

/* A look-for names an opcode or its prefix: capitals first, small letters only in a modifier's shape. */
START_TEST(opcodes_a_step_looks_for)
{
	static const char *const good[] = { "LDG.E.128", "BAR.SYNC", "HGMMA.64x232x16", "UTMALDG.2D.MULTICAST", "S2R" };
	static const char *const bad[] = { "ldg", "Ldg.E", "LDG.", "", ".E", "HGMMA.64x232x16 ", "LD-G" };

	for (size_t i = 0; i < ARRAY_LEN(good); i++)
		ck_assert_msg(lesson_is_opcode(good[i]), "%s refused", good[i]);
	for (size_t i = 0; i < ARRAY_LEN(bad); i++)
		ck_assert_msg(!lesson_is_opcode(bad[i]), "'%s' taken", bad[i]);
}
END_TEST

START_TEST(exercise_sections)
{
	const char *text =
	    "# Vectorized access\n\n"
	    "## Exercise: first\n\n```exercise\n# a comment\nid: float4\n```\n\nBefore any step.\n\n"
	    "## Scalar\n\n```step\nkernel: vec_add_float\n```\n\nOne float.\n\n"
	    "## Exercise: four at once\n\n```exercise\nid:   float4  \n```\n\n"
	    "Make it *wide*.\n\n### What stays\n\nThe name.\n\n"
	    "### Hint\n\nfloat4.\n\n### 提示\n\n- reinterpret_cast\n- make_float4\n\n"
	    "## Four floats\n\n```step\nkernel: vec_add_float4\n```\n\nWide.\n";
	struct lesson l;
	struct error e;
	const struct lesson_exercise *x;

	/* the same id twice: only the first is this lesson's, the second is an error */
	ck_assert_int_ne(lesson_load_buffer(text, strlen(text), "t.md", "vectorize", &l, &e), 0);
	ck_assert_msg(strstr(e.msg, "t.md:20: exercise 'float4' a second time") != NULL, "%s", e.msg);
	lesson_free(&l);

	text = strstr(text, "## Scalar");
	{
		char *doc = xasprintf("# Vectorized access\n\n%s", text);
		ck_assert_msg(lesson_load_buffer(doc, strlen(doc), "t.md", "vectorize", &l, &e) == 0, "%s", e.msg);
		free(doc);
	}
	ck_assert_int_eq(l.nsteps, 2);
	ck_assert_str_eq(l.steps[0].kernel->name, "vec_add_float");
	ck_assert_str_eq(l.steps[1].kernel->name, "vec_add_float4");
	ck_assert_int_eq(l.nexercises, 1);
	x = &l.exercises[0];
	ck_assert_str_eq(x->id, "float4");
	ck_assert_ptr_eq(x->def, exercise_def_find("float4"));
	ck_assert_str_eq(x->title, "Exercise: four at once");
	ck_assert_int_eq(x->line, 11);
	ck_assert_int_eq(x->before_step, 1);
	ck_assert_ptr_nonnull(x->heading);
	ck_assert_str_eq(x->task, "Make it *wide*.\n\n### What stays\n\nThe name.");
	ck_assert_int_eq(x->nhints, 2);
	ck_assert_str_eq(x->hints[0], "float4.");
	ck_assert_str_eq(x->hints[1], "- reinterpret_cast\n- make_float4");
	ck_assert_ptr_eq(lesson_find_exercise(&l, "float4"), x);
	ck_assert_ptr_null(lesson_find_exercise(&l, "nope"));
	/* the step before it ends where the exercise starts */
	ck_assert_ptr_eq(cmark_node_next(cmark_node_next(cmark_node_next(l.steps[0].heading))), x->heading);
	lesson_free(&l);
}
END_TEST

/* Before the first step, and after the last one; a section with no hints. */
START_TEST(exercise_sections_at_the_ends)
{
	const char *text =
	    "# T\n\n## Try first\n\n```exercise\nid: float4\n```\n\nGo.\n\n"
	    "## S\n\n```step\nkernel: vec_add_float\n```\n";
	const char *last =
	    "# T\n\n## S\n\n```step\nkernel: vec_add_float\n```\n\n## Try last\n\n```exercise\nid: float4\n```\n";
	struct lesson l;
	struct error e;

	ck_assert_msg(lesson_load_buffer(text, strlen(text), "t.md", "t", &l, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(l.nsteps, 1);
	ck_assert_int_eq(l.exercises[0].before_step, 0);
	ck_assert_str_eq(l.exercises[0].task, "Go.");
	ck_assert_int_eq(l.exercises[0].nhints, 0);
	lesson_free(&l);
	ck_assert_msg(lesson_load_buffer(last, strlen(last), "t.md", "t", &l, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(l.nsteps, 1);
	ck_assert_int_eq(l.nexercises, 1);
	ck_assert_int_eq(l.exercises[0].before_step, 1);
	ck_assert_str_eq(l.exercises[0].task, "");
	lesson_free(&l);
}
END_TEST

START_TEST(malformed_exercises_say_where)
{
	const char *step = "## S\n\n```step\nkernel: vec_add_float\n```\n\n";
	char *t;

	t = xasprintf("# T\n\n%s## E\n\n```exercise\nid: nope\n```\n", step);
	expect_error(t, "bad.md:12:", "unknown exercise 'nope' (see src/exercise_table.c)");
	free(t);
	t = xasprintf("# T\n\n%s## E\n\n```exercise\n# no id\n```\n", step);
	expect_error(t, "bad.md:11:", "names no exercise: add a line 'id: NAME'");
	free(t);
	t = xasprintf("# T\n\n%s## E\n\n```exercise\nid: float4\nlevel: 2\n```\n", step);
	expect_error(t, "bad.md:13:", "unknown key 'level' in an exercise block");
	free(t);
	t = xasprintf("# T\n\n%s## E\n\n```exercise\nid float4\n```\n", step);
	expect_error(t, "bad.md:12:", "no colon");
	free(t);
	t = xasprintf("# T\n\n%s## E\n\n```exercise\nid: float4\nid: float4\n```\n", step);
	expect_error(t, "bad.md:13:", "a second id");
	free(t);
	/* the block must come first in its section */
	t = xasprintf("# T\n\n%s## E\n\nText.\n\n```exercise\nid: float4\n```\n", step);
	expect_error(t, "bad.md:13:", "an exercise block comes right after its '## ' heading");
	free(t);
	t = xasprintf("# T\n\n%s## E\n\n```exercise\nid: float4\n```\n\n```step\nkernel: vec_add_float\n```\n", step);
	expect_error(t, "bad.md:15:", "a step block in exercise 'float4'");
	free(t);
	/* a step with no block is still found when an exercise follows it */
	expect_error("# T\n\n## S\n\nNo block.\n\n## E\n\n```exercise\nid: float4\n```\n",
	    "bad.md:3:", "no ```step block");
	/* exercises alone are no steps */
	expect_error("# T\n\n## E\n\n```exercise\nid: float4\n```\n", "bad.md:", "no steps");
}
END_TEST

/*
 * Each exercise section of the real lessons sits in the lesson its row
 * names, just before the step that runs its target (doc/exercises.md).
 */
START_TEST(real_exercises_in_place)
{
	static const char *const langs[] = { "en", "zh_CN" };

	for (size_t k = 0; k < ARRAY_LEN(langs); k++) {
		struct lesson_set set;
		struct error e;

		ck_assert_msg(lesson_load_all(langs[k], &set, &e) == 0, "%s", e.msg);
		for (int i = 0; i < set.count; i++) {
			const struct lesson *l = &set.lessons[i];

			ck_assert_msg(l->error == NULL, "%s", l->error);
			for (int j = 0; j < l->nexercises; j++) {
				const struct lesson_exercise *x = &l->exercises[j];

				ck_assert_msg(strcmp(x->def->lesson, l->id) == 0,
				    "%s:%d: exercise '%s' belongs to lesson '%s' (src/exercise_table.c)", l->path,
				    x->line, x->id, x->def->lesson);
				ck_assert_msg(x->before_step < l->nsteps &&
				    strcmp(l->steps[x->before_step].kernel->name, x->def->target) == 0,
				    "%s:%d: exercise '%s' should come just before the step that runs %s", l->path,
				    x->line, x->id, x->def->target);
				ck_assert_msg(x->task[0] != '\0', "%s:%d: exercise '%s' has no task", l->path,
				    x->line, x->id);
			}
		}
		lesson_set_free(&set);
	}
}
END_TEST

/*
 * Every exercise gives its hints as three rungs (doc/exercises.md): the
 * idea in words, what to look for in the SASS or the counters, and the
 * code.  Every row of src/exercise_table.c has its section in every
 * language, and each section exactly three hints.
 */
START_TEST(three_hints_per_exercise)
{
	static const char *const langs[] = { "en", "zh_CN" };

	for (size_t k = 0; k < ARRAY_LEN(langs); k++) {
		struct lesson_set set;
		struct error e;
		int sections = 0;

		ck_assert_msg(lesson_load_all(langs[k], &set, &e) == 0, "%s", e.msg);
		for (int i = 0; i < set.count; i++) {
			const struct lesson *l = &set.lessons[i];

			ck_assert_msg(l->error == NULL, "%s", l->error);
			for (int j = 0; j < l->nexercises; j++) {
				const struct lesson_exercise *x = &l->exercises[j];

				ck_assert_msg(x->nhints == 3,
				    "%s:%d: exercise '%s' has %d hints; it should have three: the idea, "
				    "what to look for, the code", l->path, x->line, x->id, x->nhints);
				for (int h = 0; h < x->nhints; h++)
					ck_assert_msg(x->hints[h] != NULL && x->hints[h][0] != '\0',
					    "%s:%d: exercise '%s': hint %d is empty", l->path, x->line, x->id,
					    h + 1);
				sections++;
			}
		}
		ck_assert_msg(sections == exercise_def_count,
		    "the %s lessons have %d exercise sections, src/exercise_table.c %d rows", langs[k],
		    sections, exercise_def_count);
		lesson_set_free(&set);
	}
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

/* The {{count ...}} placeholders of the top-level nodes [from, to), sorted, one a line. */
static char *placeholders(cmark_node *from, cmark_node *to)
{
	char **found = NULL, *joined = xstrdup("");
	size_t count = 0;

	for (cmark_node *top = from; top != NULL && top != to; top = cmark_node_next(top)) {
		cmark_iter *it = cmark_iter_new(top);
		cmark_event_type ev;

		while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
			cmark_node *n = cmark_iter_get_node(it);
			const char *lit, *p, *close;

			if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(n) != CMARK_NODE_TEXT)
				continue;
			lit = cmark_node_get_literal(n);
			for (p = lit ? strstr(lit, "{{") : NULL; p != NULL; p = strstr(close, "{{")) {
				if ((close = strstr(p, "}}")) == NULL)
					break;
				close += 2;
				found = xrealloc(found, (count + 1) * sizeof *found);
				found[count++] = xasprintf("%.*s", (int)(close - p), p);
			}
		}
		cmark_iter_free(it);
	}
	if (count > 1)
		qsort(found, count, sizeof *found, compare_strings);
	for (size_t i = 0; i < count; i++) {
		char *next = xasprintf("%s%s\n", joined, found[i]);
		free(joined);
		free(found[i]);
		joined = next;
	}
	free(found);
	return joined;
}

/* lessons/<lang>/<name> against lessons/en/<name>: everything but the prose is the same. */
static void compare_with_english(const char *root, const char *lang, const char *name)
{
	char *path = xasprintf("%s/%s/%s", root, lang, name);
	char *en_path = xasprintf("%s/en/%s", root, name);
	struct lesson t, en;
	struct error e = { "" };

	ck_assert_msg(file_exists(en_path), "%s has no English twin %s", path, en_path);
	ck_assert_msg(lesson_load_file(path, name, &t, &e) == 0, "%s", e.msg);
	ck_assert_msg(lesson_load_file(en_path, name, &en, &e) == 0, "%s", e.msg);
	ck_assert_msg(t.nsteps == en.nsteps, "%s has %d steps, %s has %d", path, t.nsteps, en_path,
	    en.nsteps);
	ck_assert_msg(t.nexercises == en.nexercises, "%s has %d exercises, %s has %d", path, t.nexercises,
	    en_path, en.nexercises);
	for (int i = 0; i < t.nexercises; i++) {
		struct lesson_exercise *a = &t.exercises[i], *b = &en.exercises[i];

		ck_assert_msg(strcmp(a->id, b->id) == 0 && a->before_step == b->before_step,
		    "%s:%d: exercise %d is '%s' before step %d, in English '%s' before step %d", path,
		    a->line, i + 1, a->id, a->before_step + 1, b->id, b->before_step + 1);
		ck_assert_msg(a->nhints == b->nhints, "%s:%d: exercise '%s' has %d hints, in English %d",
		    path, a->line, a->id, a->nhints, b->nhints);
	}
	for (int i = 0; i < t.nsteps; i++) {
		struct lesson_step *a = &t.steps[i], *b = &en.steps[i];
		char *pa, *pb;
		int k;

		ck_assert_msg(a->kernel == b->kernel, "%s:%d: step %d runs %s, the English one %s", path,
		    a->line, i + 1, a->kernel->name, b->kernel->name);
		for (k = 0; (a->look_for && a->look_for[k]) || (b->look_for && b->look_for[k]); k++) {
			const char *x = a->look_for && a->look_for[k] ? a->look_for[k] : "(nothing)";
			const char *y = b->look_for && b->look_for[k] ? b->look_for[k] : "(nothing)";

			ck_assert_msg(strcmp(x, y) == 0,
			    "%s:%d: step %d, look-for item %d is %s, in the English step %s", path,
			    a->line, i + 1, k + 1, x, y);
		}
		pa = placeholders(cmark_node_next(a->heading), i + 1 < t.nsteps ? t.steps[i + 1].heading : NULL);
		pb = placeholders(cmark_node_next(b->heading), i + 1 < en.nsteps ? en.steps[i + 1].heading : NULL);
		ck_assert_msg(strcmp(pa, pb) == 0, "%s:%d: step %d counts\n%sbut the English step counts\n%s",
		    path, a->line, i + 1, pa, pb);
		free(pa);
		free(pb);
	}
	lesson_free(&t);
	lesson_free(&en);
	free(path);
	free(en_path);
}

/*
 * A translated lesson is its English twin in another language: the same
 * steps in the same order, running the same kernels, pointing at the same
 * instructions and counting the same ones.  Only the prose may differ.
 */
START_TEST(translations_match_english)
{
	char *root = paths_source("lessons");
	DIR *langs = opendir(root);
	struct dirent *lang;
	int zh_cn = 0;

	ck_assert_msg(langs != NULL, "cannot open %s", root);
	while ((lang = readdir(langs)) != NULL) {
		char *dir;
		DIR *d;
		struct dirent *ent;

		if (lang->d_name[0] == '.' || strcmp(lang->d_name, "en") == 0)
			continue;
		dir = xasprintf("%s/%s", root, lang->d_name);
		if ((d = opendir(dir)) == NULL) {
			free(dir);
			continue;
		}
		while ((ent = readdir(d)) != NULL) {
			size_t n = strlen(ent->d_name);

			if (ent->d_name[0] == '.' || n < 4 || strcmp(ent->d_name + n - 3, ".md") != 0)
				continue;
			compare_with_english(root, lang->d_name, ent->d_name);
			if (strcmp(lang->d_name, "zh_CN") == 0)
				zh_cn++;
		}
		closedir(d);
		free(dir);
	}
	closedir(langs);
	free(root);
	ck_assert_int_ge(zh_cn, 2);
}
END_TEST

/* The line of text at p, counted from 1. */
static int line_of(const char *text, const char *p)
{
	int line = 1;

	for (const char *c = text; c < p; c++)
		line += *c == '\n';
	return line;
}

/*
 * A lesson marks a place for a measured figure with an HTML comment,
 * "<!-- numbers: ... -->", until the figure is recorded on a GPU and
 * written in.  The reader never sees the comment, so a lesson that ships
 * with one ships a hole in its argument: none may be left in any language.
 */
START_TEST(no_numbers_left_to_fill)
{
	char *root = paths_source("lessons");
	DIR *langs = opendir(root);
	struct dirent *lang;
	int files = 0;

	ck_assert_msg(langs != NULL, "cannot open %s", root);
	while ((lang = readdir(langs)) != NULL) {
		char *dir;
		DIR *d;
		struct dirent *ent;

		if (lang->d_name[0] == '.')
			continue;
		dir = xasprintf("%s/%s", root, lang->d_name);
		if ((d = opendir(dir)) == NULL) {
			free(dir);
			continue;
		}
		while ((ent = readdir(d)) != NULL) {
			size_t n = strlen(ent->d_name), len = 0;
			char *path, *text;

			if (ent->d_name[0] == '.' || n < 4 || strcmp(ent->d_name + n - 3, ".md") != 0)
				continue;
			path = xasprintf("%s/%s", dir, ent->d_name);
			text = file_read(path, &len);
			ck_assert_msg(text != NULL, "cannot read %s", path);
			for (const char *p = strstr(text, "<!--"); p != NULL; p = strstr(p + 4, "<!--")) {
				const char *q = p + 4;

				while (*q == ' ' || *q == '\t' || *q == '\n')
					q++;
				ck_assert_msg(strncasecmp(q, "numbers", 7) != 0,
				    "%s:%d: a place for measured numbers is still empty: "
				    "quote them from data/results/ and remove the comment",
				    path, line_of(text, p));
			}
			free(text);
			free(path);
			files++;
		}
		closedir(d);
		free(dir);
	}
	closedir(langs);
	free(root);
	ck_assert_int_ge(files, 8);
}
END_TEST

/* A Chinese locale gets the Chinese lessons. */
START_TEST(chinese_lessons_are_chosen)
{
	static const char *const locales[] = { "zh_CN.UTF-8", "zh_CN", "zh", "zh_TW.UTF-8" };
	struct lesson_set set;
	struct lesson *l;
	struct error e;
	char *lang;

	for (size_t i = 0; i < ARRAY_LEN(locales); i++) {
		lang = lesson_pick_language(locales[i]);
		ck_assert_msg(strcmp(lang, "zh_CN") == 0, "%s chose %s", locales[i], lang);
		free(lang);
	}
	ck_assert_msg(lesson_load_all("zh_CN", &set, &e) == 0, "%s", e.msg);
	for (int i = 0; i < set.count; i++)
		ck_assert_msg(set.lessons[i].error == NULL, "%s", set.lessons[i].error);
	l = lesson_find(&set, "unrolling");
	ck_assert_str_eq(l->lang, "zh_CN");
	ck_assert_msg(strstr(l->path, "lessons/zh_CN/02-unrolling.md") != NULL, "loaded %s", l->path);
	lesson_set_free(&set);
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
	tcase_add_test(tc, chinese_lines_join);
	tcase_add_test(tc, malformed_lessons_say_where);
	tcase_add_test(tc, opcodes_a_step_looks_for);
	tcase_add_test(tc, the_summary_numbers_steps_as_the_lesson_does);
	tcase_add_test(tc, control_steps);
	tcase_add_test(tc, exercise_sections);
	tcase_add_test(tc, exercise_sections_at_the_ends);
	tcase_add_test(tc, malformed_exercises_say_where);
	tcase_add_test(tc, real_exercises_in_place);
	tcase_add_test(tc, three_hints_per_exercise);
	tcase_add_test(tc, unreadable_file);
	tcase_add_test(tc, language_choice);
	tcase_add_test(tc, fuzz_regressions);
	tcase_add_test(tc, translations_match_english);
	tcase_add_test(tc, chinese_lessons_are_chosen);
	tcase_add_test(tc, no_numbers_left_to_fill);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

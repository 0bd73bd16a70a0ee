/* Lessons: Markdown files of prose and steps, each step naming a kernel. */
#ifndef CUDATUTOR_LESSON_H
#define CUDATUTOR_LESSON_H

#include <cmark-gfm.h>

#include "exercise_table.h"
#include "registry.h"
#include "util.h"

/*
 * A lesson is lessons/<lang>/NN-<id>.md: NN orders the lessons, <id> names
 * it.  Its form:
 *
 *   # Title                   one level-1 heading, first
 *   intro prose
 *   ## Step title             each level-2 heading starts a step
 *   ```step                   a fenced block with the info string "step":
 *   kernel: reduce_unroll8      the kernel the step runs (required)
 *   look-for: LDG.E, BAR.SYNC   SASS to point at (optional)
 *   control: yes                a control step (optional): it makes one
 *                               change apart to show what another step's
 *                               time owes to it; not a rung of the ladder
 *   ```
 *   prose about the step; {{count LDG.E}} is replaced by how many such
 *   instructions the step's kernel has (see counts.h)
 *   prose about the step
 *
 * The kernels' code is never in a lesson: the tutor shows it from kernels/.
 */

struct lesson_step {
	char *title;			/* plain text of the heading */
	const struct kernel_def *kernel;
	/*
	 * Instructions the step points at ("look-for: LDG.E.128, BAR.SYNC"):
	 * opcode prefixes the SASS view highlights and the text can count
	 * with {{count OPCODE}}.  NULL-terminated; NULL if none.
	 */
	char **look_for;
	bool control;			/* a control step ("control: yes") */
	int line;			/* the heading's line in the file */
	cmark_node *heading;		/* where the step's section starts in doc */
};

/*
 * An exercise: a '## ' heading whose first block is an `exercise` fence
 * naming a row of src/exercise_table.c (see doc/exercises.md).  It is not
 * a step; it sits just before the step whose kernel it asks for.
 *
 *   ## Exercise: unroll by eight
 *   ```exercise
 *   id: unroll8
 *   ```
 *   the task
 *   ### Hint                  each level-3 "Hint" (or "提示") starts a hint
 *   a nudge
 */
struct lesson_exercise {
	char *id;
	char *title;			/* plain text of the heading */
	const struct exercise_def *def;
	char *task;			/* Markdown source: from the block to the first hint */
	int nhints;
	char **hints;			/* Markdown source of each hint, in order */
	int line;			/* the heading's line in the file */
	int before_step;		/* index of the step it leads to; nsteps if none follows */
	cmark_node *heading;		/* where the section starts in doc */
};

struct lesson {
	char *id;			/* "unrolling" */
	char *path;			/* the file loaded */
	char *lang;			/* its language: "en", "zh_CN" */
	char *title;
	cmark_node *doc;		/* the whole parsed document */
	int nsteps;
	struct lesson_step *steps;
	int nexercises;
	struct lesson_exercise *exercises;
	/* Non-NULL when the file did not load: "file:line: reason". */
	char *error;
};

struct lesson_set {
	int count;
	struct lesson *lessons;
};

/* Parse one file.  On failure -1, and e holds "file:line: what is wrong, what to do". */
int lesson_load_file(const char *path, const char *id, struct lesson *l, struct error *e);

/* Parse from memory (tests, the fuzzer); path is only for messages. */
int lesson_load_buffer(const char *text, size_t len, const char *path, const char *id,
    struct lesson *l, struct error *e);

void lesson_free(struct lesson *l);

/*
 * Every lesson, in the language asked for where it exists, else English.
 * A lesson that does not parse is still in the set, with its error, so
 * the others stay usable.  Fails only when no lesson can be listed.
 */
int lesson_load_all(const char *lang, struct lesson_set *set, struct error *e);
void lesson_set_free(struct lesson_set *set);
struct lesson *lesson_find(const struct lesson_set *set, const char *id);

/* The exercise of this lesson with that id, or NULL. */
const struct lesson_exercise *lesson_find_exercise(const struct lesson *l, const char *id);

/* Is n a level-3 heading that starts an exercise's hint: "Hint", or "提示" in Chinese? */
int lesson_is_hint_heading(cmark_node *n);

/* Is s an opcode prefix a lesson may name ("LDG.E.128", "BAR")? */
int lesson_is_opcode(const char *s);

/* "zh_CN.UTF-8" -> a lessons/ directory name that exists, else "en". */
char *lesson_pick_language(const char *wanted);

/* Create a parser with the extensions lessons use (tables, strikethrough). */
cmark_parser *lesson_parser_new(void);

#endif

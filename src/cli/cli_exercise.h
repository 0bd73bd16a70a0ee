/* The batch view of the exercises: the list, a task, a check's report. */
#ifndef CUDATUTOR_CLI_EXERCISE_H
#define CUDATUTOR_CLI_EXERCISE_H

#include <stdio.h>

#include "cli.h"
#include "exercise.h"
#include "session.h"

/* Every exercise with its lesson, the step it leads to, and the student's status. */
void cli_print_exercises(FILE *out, const struct exercise_entry *list, int n, enum cli_format f);

/* An exercise's task (its lesson's text) and where its working copy is. */
void cli_print_exercise_task(FILE *out, const struct exercise_entry *x, const char *path,
    bool created, enum cli_format f);

/*
 * What a check found: the compile's errors (file:line:col and the line),
 * each SASS check, each size checked on the GPU, the timing beside the
 * reference, and the verdict.
 */
void cli_print_exercise_report(FILE *out, const struct exercise_report *r, enum cli_format f);
/*
 * The text report in three parts, each shown as soon as it is known: the
 * compile, the SASS and the sizes checked on the GPU (false: the report
 * ends there); the timing; the checks where it ran and the verdict.
 */
bool cli_print_exercise_answers(FILE *out, const struct exercise_report *r);
void cli_print_exercise_timing(FILE *out, const struct exercise_report *r);
void cli_print_exercise_verdict(FILE *out, const struct exercise_report *r);

#endif

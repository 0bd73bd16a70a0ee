/* The batch view of a class: the board of each exercise as text, and the grade book as CSV or JSON. */
#ifndef CUDATUTOR_CLI_CLASS_H
#define CUDATUTOR_CLI_CLASS_H

#include <stdio.h>

#include "class.h"
#include "cli.h"

/* One submission's verdict in a word: "passed", "FAIL", "not graded", "waiting", "older", "bad". */
const char *cli_class_word(const struct class_entry *x);

/*
 * What the board says of x beside its word: the first reason it failed,
 * why it is not graded, which file is ranked instead, or what is wrong
 * with the file.  Into buf.
 */
void cli_class_detail(const struct class_board *b, const struct class_entry *x, char *buf, size_t len);

/*
 * Every exercise's board: ranked passes (fastest first, per GPU), then
 * fails with their reasons, then what was not graded; the files that are
 * not submissions last.  Without a GPU nothing is ranked: each kernel's
 * SASS verdict, and "not judged: no GPU".
 */
void cli_print_class(FILE *out, const struct class_board *b, enum cli_format f);

#endif

/* What each change of a lesson bought, on each recorded GPU: the table a ```summary block draws. */
#ifndef CUDATUTOR_SUMMARY_H
#define CUDATUTOR_SUMMARY_H

#include <stdbool.h>

#include "lesson.h"

/*
 * A lesson ends with a fenced block marked `summary`: the tutor draws
 * there, from every recorded file in data/results/ that holds the lesson
 * at its default size, each step's time and its speed against the step
 * before it on the ladder (controls are measured against it too, and
 * marked), one pair of columns a GPU, and what the changes bought
 * together.  The numbers come from the files, never from the text, so
 * they follow every new recording.
 *
 * The lines for width columns (each at most width wide; unicode chooses
 * the ellipsis and the times sign): how many, into *lines (free with
 * lesson_summary_free).  With no recorded file holding the lesson, one
 * line that says so.
 */
int lesson_summary(const struct lesson *l, int width, bool unicode, char ***lines);
void lesson_summary_free(char **lines, int n);

#endif

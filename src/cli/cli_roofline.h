/* A lesson's roofline on the command line: the chart, its legend, or JSON. */
#ifndef CUDATUTOR_CLI_ROOFLINE_H
#define CUDATUTOR_CLI_ROOFLINE_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/cli.h"
#include "lesson.h"
#include "results.h"

/*
 * Each step of r as a point against r's roofs, drawn width columns wide
 * (unicode: Braille and box drawing, else ASCII), with a legend of the
 * points and the roofs; other (may be NULL): another GPU's report of the
 * same lesson, its steps drawn as '+'.  JSON: the roofs, the ridge and
 * every step's point.  0, or -1 when r holds no roofs to draw against
 * (a message on stderr says how to get them).
 */
int cli_print_roofline(FILE *out, const struct run_report *r, const struct run_report *other,
    const struct lesson *l, int width, bool unicode, enum cli_format f);

#endif

/* A sweep on the command line: the chart, its legend and tables, or JSON. */
#ifndef CUDATUTOR_CLI_SWEEP_H
#define CUDATUTOR_CLI_SWEEP_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/cli.h"
#include "sweep.h"

/*
 * The steps of s whose show[i] is true (NULL: all), width columns wide
 * (unicode: box drawing, else ASCII): a chart of the rate against the
 * size (or block), its legend and the L2 lines, then the rates and the
 * times in tables; or JSON, the sweep as recorded with the GPU and where
 * it crosses the L2.
 */
void cli_print_sweep(FILE *out, const struct sweep *s, const bool *show, int width, bool unicode,
    enum cli_format f);

#endif

/* The roofs of a GPU on the command line. */
#ifndef CUDATUTOR_CLI_ROOFS_H
#define CUDATUTOR_CLI_ROOFS_H

#include <stdio.h>

#include "cli/cli.h"
#include "results.h"
#include "roofs.h"

/*
 * Each roof measured and theoretical, how each was found, the percentage
 * of the one the other is, and the ridge point; recorded (the file it was
 * read from) or live with the clocks now (either may be NULL).
 */
void cli_print_roofs(FILE *out, const struct gpu_desc *g, const struct gpu_roofs *r,
    const struct results_file *recorded, const struct gpu_clocks *now, enum cli_format f);

#endif

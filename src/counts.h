/* Counts of SASS instructions that lesson text quotes: {{count LDG.E.128}}. */
#ifndef CUDATUTOR_COUNTS_H
#define CUDATUTOR_COUNTS_H

#include <cmark-gfm.h>

#include "registry.h"
#include "util.h"

/*
 * Replace each {{count OPCODE}} in text by how many instructions of that
 * opcode prefix the kernel's SASS for arch holds, and {{count KERNEL
 * OPCODE}} likewise for another kernel.  Where the SASS cannot be read
 * (no cuobjdump at build time, an architecture not built) the figure is
 * "?", so no number is ever shown that was not counted.  Newly allocated.
 */
char *counts_expand(const char *text, const struct kernel_def *kernel, unsigned int block,
    const char *arch);

/*
 * The same, in place, on the text nodes of a parsed lesson from `from` up
 * to (not including) `to`, for the views that render Markdown.
 */
void counts_expand_nodes(cmark_node *from, cmark_node *to, const struct kernel_def *kernel,
    unsigned int block, const char *arch);

#endif

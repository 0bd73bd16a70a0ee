/* Wrapping text to a terminal's width in display columns, Chinese as well as English. */
#ifndef CUDATUTOR_TEXTWRAP_H
#define CUDATUTOR_TEXTWRAP_H

#include <stddef.h>

/*
 * Columns a UTF-8 string takes in a terminal: 2 for East Asian wide and
 * full-width characters (汉字, full-width punctuation), 1 for the rest.
 * It does not depend on the locale, so a lesson wraps the same in any.
 */
int textwrap_columns(const char *s, size_t len);

/*
 * The printf field width that pads s to width columns: %-*s and %*s count
 * bytes, and a 汉字 is three bytes but two columns.  Wider text stays whole.
 *   printf("%-*s|", textwrap_field(label, 20), label);
 */
int textwrap_field(const char *s, int width);

/* Is the code point wide (2 columns)? */
int textwrap_is_wide(unsigned int cp);

/* The code point at s (len > 0 bytes left); *n = its bytes.  A bad byte is U+FFFD, 1 byte. */
unsigned int textwrap_decode(const char *s, size_t len, size_t *n);

/*
 * Every line of text longer than width columns broken into lines that fit:
 * at spaces, and between characters where one is wide, as Chinese text
 * breaks, but never before closing punctuation (，。）…) nor after opening
 * punctuation (（“).  A continuation line is indented like its line's text:
 * past the leading spaces and a list marker ("- ", "1. ").  A word wider
 * than the line stays whole.  Newly allocated.
 */
char *textwrap(const char *text, int width);

#endif

/* The glossary screen: the words a student meets in the results table and beside it, said plainly. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "i18n.h"
#include "tui/tui_internal.h"

/*
 * A term as the tables write it (the same message, so that it reads the
 * same in every language), and what it means.
 */
struct gloss {
	const char *term;
	const char *text;
};

static const struct gloss glossary[] = {
	{ "SASS", N_("The GPU's own machine code: the instructions it really runs, read out of the compiled kernel. "
	  "One line is one instruction for a whole warp: LDG loads from global memory, STG stores, FFMA "
	  "multiplies and adds, BAR.SYNC is __syncthreads(). s shows a step's.") },
	{ "PTX", N_("The portable assembly nvcc writes first; ptxas then compiles it into SASS for one GPU. It is "
	  "close to the source and has as many registers as it likes, so what really runs is the SASS. "
	  "p shows a step's.") },
	{ N_("ms"), N_("The step's time in milliseconds: the median of its timed runs, each after the L2 cache "
	  "was flushed.") },
	{ N_("\xc2\xb1IQR"), N_("How much the timed runs spread: the interquartile range, the middle half of them, as a "
	  "percentage of the median. A difference between two steps smaller than this may be noise.") },
	{ "GB/s  GF/s", N_("The rate: the bytes the step has to move, or the floating-point operations it has to do, "
	  "divided by its time. Work it does twice is not counted twice.") },
	{ N_("%copy"), N_("The step's GB/s as a percentage of this GPU's copy bandwidth (one buffer copied to "
	  "another on the GPU, measured with the results): how near a kernel that only moves bytes comes to "
	  "moving them as fast as the GPU can.") },
	{ N_("%lib"), N_("The step's rate as a percentage of the library's (cuBLAS, CUB) doing the same work: how "
	  "near the step comes to the code NVIDIA tuned.") },
	{ N_("%roof"), N_("The step's rate as a percentage of the roof that limits it on the roofline: the memory "
	  "bandwidth for a step that does few operations per byte, the FP32 (or tensor core) peak for one "
	  "that does many; shared memory or the issue of instructions where its counters show those bind. "
	  "A ~ after it: the data fit in about the L2, or the step is very short, so its share of memory's "
	  "roof says little (its diagnosis says why). R draws the roofline.") },
	{ N_("vs 1st"), N_("How many times as fast as the lesson's first step: 2.00x is half its time.") },
	{ N_("vs prev"), N_("How many times as fast as the step before it: what this step's one change bought.") },
	{ N_("ok"), N_("Whether the step's answer matched the one computed on the CPU.") },
	{ N_("(control)"), N_("A control step: it makes only the other half of a change that would otherwise make "
	  "two at once, so that the table shows which half bought what. It is not a rung of the ladder.") },
	{ N_("regs"), N_("Registers each thread uses, from the compiler's resource report. More registers a "
	  "thread leave room for fewer threads on an SM.") },
	{ N_("blk/SM"), N_("How many blocks of this step's size fit on one SM at once: the registers, the shared "
	  "memory, the threads or the block limit runs out first.") },
	{ N_("occ"), N_("Occupancy: the warps that fit on an SM at once, as a percentage of the most it can hold "
	  "(the command line's table heads it occ %). More warps hide more waiting, up to a point.") },
	{ N_("warp instruction"), N_("One instruction issued for a warp, 32 threads at once. The counters count "
	  "these: one load by 32 threads is one warp instruction, not 32.") },
	{ N_("the counters"), N_("Figures the GPU's hardware counts while the kernel runs, read by Nsight Compute "
	  "(ncu): bytes moved, how much of each load was used, bank conflicts, where the warps wait. m shows "
	  "a step's; without a GPU, those recorded with the results.") },
	{ N_("the diagnosis"), N_("The line under the results table: what holds the page's step back, from one "
	  "table of rules over its counters and its place on the roofline, with the lesson that deals with it.") },
};

/* The first line of the glossary shown. */
static int top;

/* Width of the terms' column: the widest term, within reason. */
static int term_width(void)
{
	int w = 0;

	for (size_t i = 0; i < ARRAY_LEN(glossary); i++) {
		int tw = layout_width(_(glossary[i].term));

		w = tw > w ? tw : w;
	}
	return w > 18 ? 18 : w;
}

/* One entry's lines, its text wrapped to width; drawn from row y (if draw) where rows y0..y1 show. */
static int draw_entry(const struct gloss *g, int y, int y0, int y1, int tw, int width, bool draw)
{
	struct layout_run run = { _(g->text), STYLE_NORMAL };
	struct layout_line *lines;
	int n = layout_wrap(&run, 1, width, &lines);

	for (int i = 0; draw && i < n; i++) {
		char *text;

		if (y + i < y0 || y + i >= y1)
			continue;
		if (i == 0)
			crt_text(y + i, 2, tw, STYLE_STRONG, _(g->term));
		text = layout_line_text(&lines[i]);
		crt_text(y + i, 4 + tw, width, STYLE_NORMAL, text);
		free(text);
	}
	layout_lines_free(lines, n);
	return n;
}

/* All the entries' lines, a blank between two; drawn scrolled to top where draw. */
static int draw_entries(int y0, int y1, bool draw)
{
	int tw = term_width(), width = crt_cols() - 6 - tw, y = y0 - top;

	for (size_t i = 0; i < ARRAY_LEN(glossary); i++)
		y += draw_entry(&glossary[i], y, y0, y1, tw, width, draw) + 1;
	return y - (y0 - top) - 1;
}

static void draw_glossary(struct tui *t)
{
	int rows = crt_rows(), y0 = 3, y1 = rows - 1, total = draw_entries(y0, y1, false);

	tui_draw_header(t, _("glossary: the words of the tables"));
	crt_text(1, 1, crt_cols() - 2, STYLE_DIM, _("What the results table, the roofline and the counters call things."));
	top = layout_scroll_clamp(top, y1 - y0, total);
	draw_entries(y0, y1, true);
	if (top + (y1 - y0) < total)
		crt_text(y1 - 1, crt_cols() - 2, 1, STYLE_DIM, t->unicode ? "\xe2\x86\x93" : "v");
	if (top > 0)
		crt_text(y0, crt_cols() - 2, 1, STYLE_DIM, t->unicode ? "\xe2\x86\x91" : "^");
	tui_draw_footer(t, rows - 1);
}

static int glossary_open(struct tui *t, const struct screen_arg *arg)
{
	(void)t;
	(void)arg;
	top = 0;
	return 0;
}

static int key_scroll(struct tui *t, const struct crt_event *ev, int lines)
{
	(void)t;
	(void)ev;
	return tui_scroll(&top, lines);
}

/* A screenful up (dir -1) or down: the rows the entries have, less one to keep the place. */
static int key_page(struct tui *t, const struct crt_event *ev, int dir)
{
	(void)t;
	(void)ev;
	return tui_scroll(&top, dir * (crt_rows() - 5));
}

static int glossary_scroll(struct tui *t, int y, int x, int lines)
{
	(void)t;
	(void)y;
	(void)x;
	return tui_scroll(&top, lines);
}

static const struct key_binding glossary_keys[] = {
	{ "\xe2\x86\x91 \xe2\x86\x93  j k", N_("scroll the glossary"), "\xe2\x86\x91\xe2\x86\x93", N_("scroll"),
	  { CRT_KEY_DOWN, 'j' }, key_scroll, 1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_UP, 'k' }, key_scroll, -1 },
	{ "PgUp PgDn  Space", N_("a screenful up / down"), NULL, NULL, { CRT_KEY_PGDN, ' ' }, key_page, 1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_PGUP }, key_page, -1 },
	{ "Esc  Backspace  t", N_("back"), "Esc", N_("back"), { CRT_KEY_ESC, CRT_KEY_BACKSPACE, 't' },
	  tui_key_back, 0 },
};

const struct screen screen_glossary = {
	.id = SCREEN_GLOSSARY,
	.name = "glossary", .place = SCREEN_ASIDE, .open = glossary_open,
	.draw = draw_glossary, .scroll = glossary_scroll,
	.keys = glossary_keys, .nkeys = (int)ARRAY_LEN(glossary_keys),
};

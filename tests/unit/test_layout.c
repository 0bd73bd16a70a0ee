/* The tutor's layout maths, Markdown rendering and code colouring, without a terminal. */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "banks.h"
#include "compare.h"
#include "exercise_table.h"
#include "lesson.h"
#include "metrics.h"
#include "tui/highlight.h"
#include "tui/layout.h"
#include "tui/markdown.h"
#include "tui/pane.h"
#include "tui/style.h"

static void utf8_locale(void)
{
	/* wcwidth() measures CJK as two columns only in a UTF-8 locale. */
	if (setlocale(LC_ALL, "C.UTF-8") == NULL)
		setlocale(LC_ALL, "en_US.UTF-8");
}

/* Wrap one plain run; the lines' texts, for assertions. */
static int wrap_plain(const char *text, int width, char ***out)
{
	struct layout_run run = { text, STYLE_NORMAL };
	struct layout_line *lines;
	int n = layout_wrap(&run, 1, width, &lines);

	*out = calloc((size_t)n, sizeof **out);
	for (int i = 0; i < n; i++) {
		(*out)[i] = layout_line_text(&lines[i]);
		ck_assert_int_eq(lines[i].width, layout_width((*out)[i]));
	}
	layout_lines_free(lines, n);
	return n;
}

static void free_lines(char **l, int n)
{
	for (int i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

START_TEST(utf8_and_widths)
{
	uint32_t cp;

	ck_assert_int_eq(layout_utf8_next("\xc3\xa9", 2, &cp), 2);
	ck_assert_uint_eq(cp, 0xe9);
	ck_assert_int_eq(layout_utf8_next("\xff" "a", 2, &cp), 1);
	ck_assert_uint_eq(cp, 0xfffd);
	ck_assert_int_eq(layout_utf8_next("\xe4\xb8", 2, &cp), 1);	/* cut short */
	ck_assert_uint_eq(cp, 0xfffd);
	ck_assert_int_eq(layout_utf8_next("\xc0\xaf", 2, &cp), 1);	/* overlong */

	ck_assert_int_eq(layout_width("abc"), 3);
	ck_assert_int_eq(layout_width("\xe4\xb8\xad\xe6\x96\x87"), 4);			/* 中文 */
	ck_assert_int_eq(layout_width("a\xe4\xb8\xad" "b"), 4);
	ck_assert_int_eq(layout_width("e\xcc\x81"), 1);					/* e + combining acute */
	ck_assert_int_eq(layout_width("\xe2\x96\x88\xe2\x96\x8c"), 2);			/* block characters */
	{
		int used;
		ck_assert_uint_eq(layout_fit("\xe4\xb8\xad\xe6\x96\x87" "abc", 3, &used), 3);
		ck_assert_int_eq(used, 2);
		ck_assert_uint_eq(layout_fit("abc", 10, &used), 3);
	}
}
END_TEST

START_TEST(ellipsis_and_tabs)
{
	char *s;

	s = layout_ellipsize("reduce_complete_unroll_template", 16, 1, 1);
	ck_assert_int_eq(layout_width(s), 16);
	ck_assert(strncmp(s, "reduce_", 7) == 0);
	ck_assert_ptr_nonnull(strstr(s, "\xe2\x80\xa6"));
	ck_assert(strcmp(s + strlen(s) - 8, "template") == 0);
	free(s);
	s = layout_ellipsize("reduce_complete_unroll_warp8", 16, 1, 0);
	ck_assert_int_eq(layout_width(s), 16);
	ck_assert_ptr_nonnull(strchr(s, '~'));
	ck_assert(strcmp(s + strlen(s) - 5, "warp8") == 0);
	free(s);
	s = layout_ellipsize("short", 16, 1, 1);
	ck_assert_str_eq(s, "short");
	free(s);
	/* CJK is cut between characters, never inside one */
	s = layout_ellipsize("\xe4\xb8\xad\xe6\x96\x87\xe4\xb8\xad\xe6\x96\x87", 6, 0, 1);
	ck_assert_int_le(layout_width(s), 6);
	ck_assert_str_eq(s, "\xe4\xb8\xad\xe6\x96\x87\xe2\x80\xa6");
	free(s);

	s = layout_expand_tabs("a\tb\n\tc", 7, 4);
	ck_assert_str_eq(s, "a   b\n    c");
	free(s);
}
END_TEST

START_TEST(wrap_words)
{
	char **l;
	int n;

	n = wrap_plain("the quick brown fox jumps", 10, &l);
	ck_assert_int_eq(n, 3);
	ck_assert_str_eq(l[0], "the quick");
	ck_assert_str_eq(l[1], "brown fox");
	ck_assert_str_eq(l[2], "jumps");
	free_lines(l, n);

	n = wrap_plain("abcdefghijkl", 5, &l);
	ck_assert_int_eq(n, 3);
	ck_assert_str_eq(l[0], "abcde");
	ck_assert_str_eq(l[2], "kl");
	free_lines(l, n);

	n = wrap_plain("one\ntwo three", 20, &l);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(l[0], "one");
	ck_assert_str_eq(l[1], "two three");
	free_lines(l, n);

	n = wrap_plain("", 20, &l);
	ck_assert_int_eq(n, 1);
	ck_assert_str_eq(l[0], "");
	free_lines(l, n);

	/* spaces at a break are not carried to the next line */
	n = wrap_plain("aaaa    bbbb", 6, &l);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(l[0], "aaaa");
	ck_assert_str_eq(l[1], "bbbb");
	free_lines(l, n);
}
END_TEST

START_TEST(wrap_cjk)
{
	/* 这是一个测试句子，用来检查中文的换行是否正确。它没有空格。 */
	const char *zh = "\xe8\xbf\x99\xe6\x98\xaf\xe4\xb8\x80\xe4\xb8\xaa\xe6\xb5\x8b\xe8\xaf\x95"
	    "\xe5\x8f\xa5\xe5\xad\x90\xef\xbc\x8c\xe7\x94\xa8\xe6\x9d\xa5\xe6\xa3\x80\xe6\x9f\xa5"
	    "\xe4\xb8\xad\xe6\x96\x87\xe7\x9a\x84\xe6\x8d\xa2\xe8\xa1\x8c\xe6\x98\xaf\xe5\x90\xa6"
	    "\xe6\xad\xa3\xe7\xa1\xae\xe3\x80\x82\xe5\xae\x83\xe6\xb2\xa1\xe6\x9c\x89\xe7\xa9\xba"
	    "\xe6\xa0\xbc\xe3\x80\x82";
	char **l;
	int n, total = 0;

	for (int width = 7; width <= 20; width++) {
		n = wrap_plain(zh, width, &l);
		ck_assert_int_gt(n, 1);
		total = 0;
		for (int i = 0; i < n; i++) {
			int w = layout_width(l[i]);
			ck_assert_msg(w <= width, "line %d is %d columns, wider than %d", i, w, width);
			/* a line never starts with the closing comma or full stop */
			ck_assert_msg(strncmp(l[i], "\xef\xbc\x8c", 3) != 0 && strncmp(l[i], "\xe3\x80\x82", 3) != 0,
			    "line %d starts with punctuation at width %d", i, width);
			total += w;
		}
		/* nothing lost: every character is on some line */
		ck_assert_int_eq(total, layout_width(zh));
		free_lines(l, n);
	}
	/* at width 10, five characters a line */
	n = wrap_plain(zh, 10, &l);
	ck_assert_str_eq(l[0], "\xe8\xbf\x99\xe6\x98\xaf\xe4\xb8\x80\xe4\xb8\xaa\xe6\xb5\x8b");
	free_lines(l, n);

	/* Chinese with an English word inside: the word stays whole. */
	n = wrap_plain("\xe4\xbd\xbf\xe7\x94\xa8 LDG.E.128 \xe6\x8c\x87\xe4\xbb\xa4\xe8\xaf\xbb\xe5\x8f\x96"
	    "\xe6\x95\xb0\xe6\x8d\xae", 12, &l);
	{
		int found = 0;
		for (int i = 0; i < n; i++)
			found |= strstr(l[i], "LDG.E.128") != NULL;
		ck_assert_msg(found, "LDG.E.128 was split");
	}
	free_lines(l, n);
}
END_TEST

START_TEST(wrap_keeps_styles)
{
	struct layout_run runs[] = { { "plain ", STYLE_NORMAL }, { "bold words", STYLE_STRONG },
	    { " and code", STYLE_CODE } };
	struct layout_line *lines;
	int n = layout_wrap(runs, 3, 12, &lines);

	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(lines[0].nspans, 2);
	ck_assert_str_eq(lines[0].spans[0].text, "plain ");
	ck_assert_int_eq(lines[0].spans[1].style, STYLE_STRONG);
	ck_assert_str_eq(lines[0].spans[1].text, "bold");
	ck_assert_str_eq(lines[1].spans[0].text, "words");
	ck_assert_str_eq(lines[1].spans[1].text, " and");
	ck_assert_int_eq(lines[1].spans[1].style, STYLE_CODE);
	ck_assert_int_eq(lines[2].spans[0].style, STYLE_CODE);
	ck_assert_str_eq(lines[2].spans[0].text, "code");
	layout_lines_free(lines, n);
}
END_TEST

START_TEST(columns)
{
	struct layout_column c[4] = {
		{ 3, 3, 10, 0, 0 },	/* step */
		{ 12, 30, 8, 0, 0 },	/* name */
		{ 8, 8, 5, 0, 0 },	/* number */
		{ 10, 10, 1, 1, 0 },	/* bars: flex */
	};
	int used;

	used = layout_columns(c, 4, 80, 1);
	ck_assert_int_eq(used, 80);
	ck_assert_int_eq(c[0].width, 3);
	ck_assert_int_eq(c[1].width, 30);
	ck_assert_int_eq(c[2].width, 8);
	ck_assert_int_eq(c[3].width, 80 - 3 - 30 - 8 - 3);

	/* too narrow for all: the least important column goes */
	used = layout_columns(c, 4, 30, 1);
	ck_assert_int_eq(c[3].width, 0);
	ck_assert_int_ge(c[1].width, 12);
	ck_assert_int_le(used, 30);
	ck_assert_int_eq(c[0].width + c[1].width + c[2].width + 2, used);
}
END_TEST

static int within(struct layout_rect r, int cols, int rows)
{
	return r.x >= 0 && r.y >= 0 && r.x + r.w <= cols && r.y + r.h <= rows;
}

static int overlap(struct layout_rect a, struct layout_rect b)
{
	if (a.w == 0 || a.h == 0 || b.w == 0 || b.h == 0)
		return 0;
	return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

START_TEST(lesson_screen)
{
	struct lesson_layout lo;

	layout_lesson(79, 24, 10, &lo);
	ck_assert(lo.too_small);
	layout_lesson(80, 23, 10, &lo);
	ck_assert(lo.too_small);

	/* 80x24: the text above, the results below with the bars in the table */
	layout_lesson(80, 24, 10, &lo);
	ck_assert(!lo.too_small);
	ck_assert(!lo.side_by_side);
	ck_assert(lo.chart_inline);
	ck_assert_int_eq(lo.header.y, 0);
	ck_assert_int_eq(lo.footer.y, 23);
	ck_assert_int_eq(lo.status.y, 22);
	ck_assert_int_ge(lo.text.h, 8);
	ck_assert_int_ge(lo.table_rows, 3);
	ck_assert_int_eq(lo.results.w, 80);
	ck_assert(!overlap(lo.text, lo.results));
	ck_assert_int_eq(lo.text.y + lo.text.h, lo.results.y);
	ck_assert_int_eq(lo.results.y + lo.results.h, lo.status.y);

	/* 200x60: beside each other, the chart under the table */
	layout_lesson(200, 60, 10, &lo);
	ck_assert(lo.side_by_side);
	ck_assert(!lo.chart_inline);
	ck_assert_int_eq(lo.table_rows, 10);
	ck_assert(within(lo.text, 200, 60) && within(lo.results, 200, 60) && within(lo.chart, 200, 60));
	ck_assert(!overlap(lo.text, lo.results) && !overlap(lo.results, lo.chart) &&
	    !overlap(lo.text, lo.chart));
	ck_assert_int_ge(lo.text.w, 80);
	ck_assert_int_ge(lo.chart.h, 11);

	/* tall but 80 wide: the chart gets its own place too */
	layout_lesson(80, 50, 10, &lo);
	ck_assert(!lo.chart_inline);
	ck_assert(!overlap(lo.text, lo.results) && !overlap(lo.results, lo.chart));
	ck_assert(within(lo.chart, 80, 50));
	ck_assert_int_le(lo.chart.y + lo.chart.h, lo.status.y);
}
END_TEST

START_TEST(list_and_presenter_screens)
{
	struct list_layout ll;
	struct present_layout pl;

	layout_list(80, 24, &ll);
	ck_assert(!ll.too_small);
	ck_assert_int_eq(ll.preview.w, 0);
	layout_list(200, 60, &ll);
	ck_assert_int_gt(ll.preview.w, 60);
	ck_assert(!overlap(ll.list, ll.preview));

	layout_present(80, 24, "0.1234", "3.21x", 10, &pl);
	ck_assert(!pl.too_small);
	ck_assert(pl.speedup_big);
	ck_assert_int_eq(pl.scale, 1);
	ck_assert(within(pl.big_time, 80, 24) && within(pl.big_speedup, 80, 24));
	ck_assert(!overlap(pl.big_time, pl.big_speedup));
	ck_assert(!overlap(pl.big_time, pl.text));
	ck_assert_int_ge(pl.text.h, 3);
	ck_assert_int_le(pl.text.y + pl.text.h, 22);
	ck_assert_int_eq(pl.chart.h, 0);	/* no room for it at 24 lines */

	/* a projector-sized terminal: bigger digits, and the chart too */
	layout_present(200, 60, "0.0193", "3.30x", 11, &pl);
	ck_assert_int_eq(pl.scale, 2);
	ck_assert_int_eq(pl.big_time.h, 5 * 2 + 2);
	ck_assert(within(pl.big_time, 200, 60) && within(pl.big_speedup, 200, 60));
	ck_assert(!overlap(pl.big_time, pl.big_speedup) && !overlap(pl.big_time, pl.text));
	ck_assert_int_eq(pl.chart.h, 12);
	ck_assert(!overlap(pl.text, pl.chart));
	ck_assert_int_le(pl.chart.y + pl.chart.h, 58);

	/* too wide for both: the speedup in small print */
	layout_present(80, 24, "123456789.1234", "12345.67x", 10, &pl);
	ck_assert(!pl.speedup_big);
	ck_assert_int_eq(pl.scale, 1);
}
END_TEST

START_TEST(diff_code_and_counters_screens)
{
	struct diff_layout dl;
	struct code_layout cl;
	struct metrics_layout ml;

	/* 80x24: one column of SASS; a table of 9 lines fits beside at least as many SASS rows */
	layout_diff(79, 24, 9, &dl);
	ck_assert(dl.too_small);
	layout_diff(80, 24, 9, &dl);
	ck_assert(!dl.side_by_side);
	ck_assert_int_eq(dl.mix.h, 9);
	ck_assert_int_ge(dl.sass.h, 9);
	ck_assert_int_eq(dl.mix.y + dl.mix.h, dl.sass_title.y);
	ck_assert_int_eq(dl.sass_title.y + 1, dl.sass.y);
	ck_assert_int_eq(dl.sass.y + dl.sass.h, dl.status.y);
	ck_assert(within(dl.sass, 80, 24) && within(dl.mix, 80, 24));
	/* a long table gives way: the SASS keeps at least half */
	layout_diff(80, 24, 30, &dl);
	ck_assert_int_ge(dl.sass.h, dl.mix.h);
	ck_assert_int_eq(dl.sass.y + dl.sass.h, dl.status.y);
	/* 160x48: side by side, the whole table */
	layout_diff(160, 48, 12, &dl);
	ck_assert(dl.side_by_side);
	ck_assert_int_eq(dl.mix.h, 12);
	ck_assert(within(dl.sass, 160, 48));
	layout_diff(119, 40, 12, &dl);
	ck_assert(!dl.side_by_side);

	/* the code view: the SASS panel below the source at 80 columns, beside it at 160 */
	layout_code(80, 24, 0, &cl);
	ck_assert_int_eq(cl.code.y, 5);
	ck_assert_int_eq(cl.code.h, 17);
	ck_assert_int_eq(cl.map.h, 0);
	layout_code(80, 24, 1, &cl);
	ck_assert(!cl.map_beside);
	ck_assert_int_ge(cl.map.h, 5);
	ck_assert_int_ge(cl.code.h, 8);
	ck_assert_int_eq(cl.code.y + cl.code.h, cl.map.y);
	ck_assert_int_eq(cl.map.y + cl.map.h, cl.status.y);
	layout_code(160, 48, 1, &cl);
	ck_assert(cl.map_beside);
	ck_assert_int_ge(cl.code.w, 79);
	ck_assert(!overlap(cl.code, cl.map));
	ck_assert(within(cl.map, 160, 48));
	ck_assert_int_eq(cl.map.h, cl.code.h);

	/* the counters: one column, not wider than reads well */
	layout_metrics(80, 24, &ml);
	ck_assert_int_eq(ml.body.w, 78);
	ck_assert_int_eq(ml.body.y + ml.body.h, ml.status.y);
	layout_metrics(300, 60, &ml);
	ck_assert_int_eq(ml.body.w, LAYOUT_METRICS_MAX_W);
}
END_TEST

/* ---- panes: the diff, the counters, the banks ---------------------------------- */

static const char sass_before[] =
    "/*0000*/ LDC R1, c[0x0][0x28] ;\n"
    "/*0010*/ LDG.E R2, desc[UR4][R2.64] ;\n"
    "/*0020*/ @!P0 BRA 0x10 ;\n"
    "/*0030*/ BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
    "/*0040*/ EXIT ;\n";
static const char sass_after[] =
    "/*0000*/ LDC R1, c[0x0][0x28] ;\n"
    "/*0010*/ LDG.E.128 R4, desc[UR4][R2.64] ;\n"
    "/*0020*/ BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
    "/*0030*/ SHFL.DOWN PT, R3, R2, 0x10, 0x1f ;\n"
    "/*0040*/ EXIT ;\n";

/* A comparison made from text, as compare_load makes it from the build's files. */
static void make_compare(struct compare *c)
{
	memset(c, 0, sizeof *c);
	snprintf(c->a.symbol, sizeof c->a.symbol, "before");
	snprintf(c->b.symbol, sizeof c->b.symbol, "after");
	snprintf(c->arch, sizeof c->arch, "sm_90");
	sass_parse(sass_before, &c->la);
	sass_parse(sass_after, &c->lb);
	sass_mix_of(&c->la, &c->ma);
	sass_mix_of(&c->lb, &c->mb);
	sass_diff(&c->la, &c->lb, &c->diff);
	c->have_res = true;
	c->ra.registers = 16;
	c->rb.registers = 20;
}

static int pane_has(const struct pane *p, const char *needle)
{
	for (int i = 0; i < p->n; i++) {
		char *t = pane_text(p, i);
		int found = strstr(t, needle) != NULL;
		free(t);
		if (found)
			return 1;
	}
	return 0;
}

START_TEST(diff_panes)
{
	struct compare c;
	struct pane p;
	int minus = 0, plus = 0;

	make_compare(&c);
	/* 80 columns: a line per row, marked - or + or not at all, none too wide */
	pane_diff(&c, 79, 1, &p);
	ck_assert_int_eq(p.n, c.diff.count);
	for (int i = 0; i < p.n; i++) {
		char *t = pane_text(&p, i);
		const struct sass_diff_row *r = &c.diff.rows[i];
		ck_assert_int_le(p.lines[i].width, 79);
		ck_assert(strncmp(t, r->b < 0 ? "- " : r->a < 0 ? "+ " : "  ", 2) == 0);
		minus += t[0] == '-';
		plus += t[0] == '+';
		ck_assert_ptr_null(strstr(t, "\xe2\x94\x82"));
		free(t);
	}
	ck_assert_int_eq(minus, c.diff.removed);
	ck_assert_int_eq(plus, c.diff.added);
	ck_assert(pane_has(&p, "- @!P0 BRA 0x10"));
	ck_assert(pane_has(&p, "+ SHFL.DOWN PT, R3, R2, 0x10, 0x1f"));
	pane_free(&p);

	/* 160 columns: before on the left, after on the right, a bar between */
	pane_diff(&c, 159, 1, &p);
	ck_assert_int_eq(p.n, c.diff.count);
	for (int i = 0; i < p.n; i++) {
		char *t = pane_text(&p, i);
		char *bar = strstr(t, " \xe2\x94\x82 ");
		const struct sass_diff_row *r = &c.diff.rows[i];
		ck_assert_ptr_nonnull(bar);
		ck_assert_int_eq(layout_width_n(t, (size_t)(bar - t)), 2 + (159 - 5) / 2);
		if (r->b < 0)	/* removed: nothing on the right */
			ck_assert_str_eq(bar, " \xe2\x94\x82 ");
		if (r->a >= 0 && r->b >= 0)	/* kept: the same opcode on both sides */
			ck_assert_ptr_nonnull(strstr(bar, c.lb.insns[r->b].opcode));
		ck_assert_int_le(p.lines[i].width, 159);
		free(t);
	}
	pane_free(&p);
	/* without Unicode, plain ASCII */
	pane_diff(&c, 159, 0, &p);
	ck_assert(pane_has(&p, " | "));
	pane_free(&p);

	/* the mix: headed by the steps, the change signed, unchanged rows "=" */
	pane_mix(&c, "step 4", "step 5", 79, &p);
	ck_assert(pane_has(&p, "step 4"));
	ck_assert(pane_has(&p, "change"));
	{
		int found = 0;
		for (int i = 0; i < p.n; i++) {
			char *t = pane_text(&p, i);
			if (strstr(t, "global loads, 128-bit") != NULL) {
				ck_assert_ptr_nonnull(strstr(t, "+1"));
				found++;
			}
			if (strstr(t, "branches") != NULL) {
				ck_assert_ptr_nonnull(strstr(t, "-1"));
				found++;
			}
			if (strstr(t, "barriers") != NULL) {
				ck_assert_ptr_nonnull(strstr(t, "="));
				found++;
			}
			if (strstr(t, "registers per thread") != NULL) {
				ck_assert_ptr_nonnull(strstr(t, "+4"));
				found++;
			}
			ck_assert_int_le(p.lines[i].width, 79);
			free(t);
		}
		ck_assert_int_eq(found, 4);
	}
	pane_free(&p);
	compare_free(&c);
}
END_TEST

/* A run of three vectorize steps on a GPU with this copy bandwidth and these times. */
static void gpu_run(struct run_report *r, const char *gpu, double copy, const double *ms)
{
	static const char *const kernels[] = { "vec_add_float", "vec_add_float4", "vec_add_char" };

	memset(r, 0, sizeof *r);
	snprintf(r->lesson, sizeof r->lesson, "vectorize");
	snprintf(r->gpu.name, sizeof r->gpu.name, "%s", gpu);
	r->recorded = true;
	r->copy_gbps = copy;
	r->nsteps = 3;
	r->steps = calloc(3, sizeof *r->steps);
	for (int i = 0; i < 3; i++) {
		r->steps[i].step = i + 1;
		snprintf(r->steps[i].kernel, sizeof r->steps[i].kernel, "%s", kernels[i]);
		r->steps[i].median_ms = ms[i];
		r->steps[i].ran = r->steps[i].correct = ms[i] > 0;
	}
}

/* The display column where the first `needle` at or after column `from` of line i ends; -1: none. */
static int ends_at(const struct pane *p, int i, const char *needle, int from)
{
	char *t = pane_text(p, i), *at = t;
	int end = -1;

	while ((at = strstr(at, needle)) != NULL) {
		if (layout_width_n(t, (size_t)(at - t)) >= from) {
			end = layout_width_n(t, (size_t)(at - t) + strlen(needle));
			break;
		}
		at++;
	}
	free(t);
	return end;
}

START_TEST(two_gpus_pane)
{
	static const double a_ms[] = { 0.0576, 0.0484, 0.0344 }, b_ms[] = { 0.0724, 0.0651, 0.0351 };
	static const char *const kernels[] = { "vec_add_float", "vec_add_float4", "vec_add_char" };
	struct run_report a, b;
	struct pane p;
	int head, w;

	utf8_locale();
	gpu_run(&a, "NVIDIA H200", 4176.6, a_ms);
	gpu_run(&b, "NVIDIA H100 80GB HBM3", 2977.3, b_ms);
	pane_compare(&a, &b, "H200", "H100 80GB HBM3", kernels, 3, 2, 78, 1, &p, &head);
	/* the bandwidth ratio, a heading, a row a step */
	ck_assert_int_eq(head, 2);
	ck_assert_int_eq(p.n, 5);
	ck_assert(pane_has(&p, "B's copy bandwidth is 0.71\xc3\x97 A's"));
	/* the names head the times, the ratio's heading ends over the ratios */
	w = ends_at(&p, 1, "H100 80GB HBM3", 0);
	ck_assert_int_gt(w, 0);
	ck_assert_int_eq(ends_at(&p, 1, "H200", 0) + 2 + 14, w);
	for (int i = 2; i < 5; i++) {
		ck_assert_int_eq(ends_at(&p, i, " ms", ends_at(&p, 1, "H200", 0) - 4), ends_at(&p, 1, "H200", 0));
		ck_assert_int_eq(ends_at(&p, i, " ms", w - 4), w);
		ck_assert_int_eq(ends_at(&p, i, "\xc3\x97", 0), ends_at(&p, 1, "B vs A", 0));
		ck_assert_int_le(p.lines[i].width, 78);
	}
	/* float4 follows the bandwidth ratio, one char a thread does not; step 2 is the page's */
	ck_assert(pane_has(&p, "\xe2\x96\xb8 2  vec_add_float4"));
	ck_assert(pane_has(&p, "0.74\xc3\x97  bandwidth"));
	{
		char *t = pane_text(&p, 4);
		ck_assert_ptr_nonnull(strstr(t, "vec_add_char "));
		ck_assert_ptr_nonnull(strstr(t, "0.98\xc3\x97"));
		ck_assert_ptr_null(strstr(t, "bandwidth"));
		free(t);
	}
	pane_free(&p);

	/* narrow: the kernels keep their whole names, the times are headed A and B */
	pane_compare(&a, &b, "H200", "H100 80GB HBM3", kernels, 3, 0, 64, 0, &p, &head);
	ck_assert(pane_has(&p, "vec_add_float4 "));
	ck_assert_int_eq(ends_at(&p, head - 1, "B vs A", 0), ends_at(&p, head + 1, "0.74x", 0));
	ck_assert_int_eq(ends_at(&p, head - 1, " A ", 0) - 1, ends_at(&p, head + 1, " ms", 0));
	ck_assert_int_eq(ends_at(&p, head - 1, "follows", 0), ends_at(&p, head + 1, "bandwidth", 0) - 2);
	for (int i = 0; i < p.n; i++) {
		char *t = pane_text(&p, i);
		ck_assert_ptr_null(strstr(t, "H100"));
		ck_assert_ptr_null(strstr(t, "~"));
		ck_assert_int_le(p.lines[i].width, 64);
		free(t);
	}
	pane_free(&p);

	/* a step that did not run on A, a GPU whose copy bandwidth is unknown: no ratio */
	a.steps[0].ran = false;
	b.copy_gbps = 0;
	pane_compare(&a, &b, "H200", "H100 80GB HBM3", kernels, 3, 0, 78, 1, &p, &head);
	ck_assert(pane_has(&p, "no ratio to follow"));
	for (int i = head; i < p.n; i++) {
		char *t = pane_text(&p, i);
		ck_assert_ptr_null(strstr(t, "bandwidth"));
		if (i == head) {
			ck_assert_ptr_nonnull(strstr(t, "vec_add_float "));
			ck_assert_ptr_nonnull(strstr(t, " - "));
		}
		free(t);
	}
	pane_free(&p);

	/* two GPUs that copy about as fast: the ratio cannot tell, and nothing is marked */
	b.copy_gbps = a.copy_gbps * 1.02;
	pane_compare(&a, &b, "H200", "H100 80GB HBM3", kernels, 3, 0, 78, 1, &p, &head);
	ck_assert(pane_has(&p, "too near to tell"));
	for (int i = head; i < p.n; i++) {
		char *t = pane_text(&p, i);
		ck_assert_ptr_null(strstr(t, "bandwidth"));
		free(t);
	}
	pane_free(&p);
	run_report_free(&a);
	run_report_free(&b);
}
END_TEST

/* Counters with the values of a 32-way conflict: 1000 loads took 32000 wavefronts. */
static void conflict_counters(struct step_metrics *m)
{
	static const struct { const char *ncu; double v; } values[] = {
		{ "smsp__sass_inst_executed_op_shared_ld.sum", 1000 },
		{ "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 32000 },
		{ "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 31000 },
		{ "smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct", 90.5 },
		{ "smsp__warp_issue_stalled_barrier_per_warp_active.pct", 2.0 },
		{ "smsp__warp_issue_stalled_selected_per_warp_active.pct", 0.1 },
	};

	memset(m, 0, sizeof *m);
	m->collected = true;
	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
		int row = metrics_find(values[i].ncu);
		ck_assert_int_ge(row, 0);
		m->have[row] = true;
		m->value[row] = values[i].v;
	}
}

START_TEST(counter_pane)
{
	struct step_metrics m;
	struct pane p;

	conflict_counters(&m);
	pane_counters(&m, 78, 1, &p);
	ck_assert(pane_has(&p, "Shared memory"));
	ck_assert(pane_has(&p, "extra wavefronts per shared load"));
	ck_assert(pane_has(&p, "31.00"));
	ck_assert(pane_has(&p, "31,000"));
	ck_assert(pane_has(&p, "n/a"));				/* what was not read */
	ck_assert(!pane_has(&p, "l1tex__"));			/* no room for the names */
	ck_assert(pane_has(&p, "\xe2\x96\x88"));		/* the stall bars */
	for (int i = 0; i < p.n; i++)
		ck_assert_int_le(p.lines[i].width, 78);
	pane_free(&p);
	pane_counters(&m, LAYOUT_METRICS_MAX_W, 0, &p);
	ck_assert(pane_has(&p, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"));
	ck_assert(pane_has(&p, "smsp__warp_issue_stalled_barrier_per_warp_active.pct"));
	ck_assert(pane_has(&p, "#"));
	for (int i = 0; i < p.n; i++)
		ck_assert_int_le(p.lines[i].width, LAYOUT_METRICS_MAX_W);
	pane_free(&p);
}
END_TEST

/* The grid row of pass i (0-based): the line after the bank numbers. */
static char *pass_row(const struct pane *p, int i)
{
	for (int k = 0; k < p->n; k++) {
		char *t = pane_text(p, k);
		if (strncmp(t, "bank", 4) == 0) {
			free(t);
			return pane_text(p, k + 1 + i);
		}
		free(t);
	}
	return NULL;
}

START_TEST(bank_picture)
{
	struct banks_access a;
	struct step_metrics m;
	struct pane p;
	char *row;

	/* stride 32, 80 columns: every lane in bank 0, one pass each, blocks for lanes */
	ck_assert_int_eq(banks_of_kernel("smem_stride_32", &a), 0);
	conflict_counters(&m);
	pane_banks(&a, &m, "none", 78, 10, 1, &p);
	ck_assert(pane_has(&p, "all 32 lanes in bank 0"));
	ck_assert(pane_has(&p, "32 passes per warp-wide load: 31 extra, a 32-way bank conflict"));
	ck_assert(pane_has(&p, "and 23 more passes"));
	ck_assert(pane_has(&p, "31.00 extra wavefronts per shared load"));
	ck_assert(pane_has(&p, "31,000 bank conflicts"));
	for (int i = 0; i < 9; i++) {
		row = pass_row(&p, i);
		ck_assert_ptr_nonnull(row);
		/* the block in bank 0's column, every other bank idle */
		ck_assert(strncmp(row + 8, "\xe2\x96\x88 ", 4) == 0);
		ck_assert_ptr_null(strstr(row + 12, "\xe2\x96\x88"));
		free(row);
	}
	for (int i = 0; i < p.n; i++)
		ck_assert_int_le(p.lines[i].width, 78);
	pane_free(&p);

	/* wide: lane numbers, lane i served in pass i+1 */
	pane_banks(&a, NULL, "no counters recorded for this step", 150, 40, 1, &p);
	ck_assert(!pane_has(&p, "more passes"));
	row = pass_row(&p, 5);
	ck_assert_int_eq(atoi(row + 8), 5);
	ck_assert_ptr_nonnull(strstr(row, "1 lane"));
	free(row);
	ck_assert(pane_has(&p, "measured:  no counters recorded for this step"));
	pane_free(&p);

	/* stride 1: one pass, lane l in bank l; broadcast: one word for all */
	banks_compute(1, 4, false, &a);
	pane_banks(&a, NULL, "", 150, 40, 0, &p);
	ck_assert(pane_has(&p, "one bank per lane"));
	ck_assert(pane_has(&p, "1 pass per warp-wide load, no bank conflict"));
	row = pass_row(&p, 0);
	ck_assert_ptr_nonnull(strstr(row, " 0  1  2  3"));
	ck_assert_ptr_nonnull(strstr(row, "32 lanes"));
	free(row);
	row = pass_row(&p, 1);
	ck_assert(row == NULL || strncmp(row, "pass", 4) != 0);
	free(row);
	pane_free(&p);
	banks_compute(0, 4, false, &a);
	pane_banks(&a, NULL, "", 78, 10, 0, &p);
	ck_assert(pane_has(&p, "one word for all 32 lanes"));
	row = pass_row(&p, 0);
	ck_assert(strncmp(row + 8, "* ", 2) == 0);
	free(row);
	pane_free(&p);
}
END_TEST

START_TEST(bars_and_big_digits)
{
	char buf[256], row[512];

	ck_assert_int_eq(layout_bar(10, 10, 8, 1, buf, sizeof buf), 8);
	ck_assert_str_eq(buf, "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88");
	/* half of 3 columns: one full block and a half block */
	ck_assert_int_eq(layout_bar(5, 10, 3, 1, buf, sizeof buf), 2);
	ck_assert_str_eq(buf, "\xe2\x96\x88\xe2\x96\x8c");
	ck_assert_int_eq(layout_bar(5, 10, 4, 0, buf, sizeof buf), 2);
	ck_assert_str_eq(buf, "##");
	ck_assert_int_eq(layout_bar(0, 10, 4, 1, buf, sizeof buf), 0);
	ck_assert_int_eq(layout_bar(0.0001, 10, 4, 1, buf, sizeof buf), 1);	/* never invisible */
	ck_assert_int_eq(layout_bar(20, 10, 4, 0, buf, sizeof buf), 4);		/* capped */

	ck_assert_int_eq(layout_big_width("8", 1), 6);
	ck_assert_int_eq(layout_big_width("0.5", 1), 6 + 1 + 2 + 1 + 6);
	ck_assert_int_eq(layout_big_width("0.5", 2), 2 * (6 + 1 + 2 + 1 + 6));
	for (int scale = 1; scale <= 3; scale++)
		for (int i = 0; i < LAYOUT_BIG_ROWS * scale; i++) {
			layout_big_row("0.1234", i, scale, 1, row, sizeof row);
			ck_assert_int_eq(layout_width(row), layout_big_width("0.1234", scale));
			layout_big_row("3.21x", i, scale, 0, row, sizeof row);
			ck_assert_int_eq((int)strlen(row), layout_big_width("3.21x", scale));
		}
	layout_big_row("1", 4, 1, 0, row, sizeof row);
	ck_assert_str_eq(row, "######");
	layout_big_row("-", 2, 1, 0, row, sizeof row);
	ck_assert_str_eq(row, "######");
	/* at scale 2 each pixel is two rows of four columns */
	layout_big_row("-", 4, 2, 0, row, sizeof row);
	ck_assert_str_eq(row, "############");
	layout_big_row("-", 6, 2, 0, row, sizeof row);
	ck_assert_str_eq(row, "            ");

	ck_assert_str_eq(layout_ms(12.345, buf, sizeof buf), "12.35");
	ck_assert_str_eq(layout_ms(0.12345, buf, sizeof buf), "0.1235");
	ck_assert_str_eq(layout_ms(0.012345, buf, sizeof buf), "0.01235");
	ck_assert_str_eq(layout_ms(0, buf, sizeof buf), "-");

	ck_assert_int_eq(layout_scroll_to(0, 5, 20, 7), 3);
	ck_assert_int_eq(layout_scroll_to(10, 5, 20, 2), 2);
	ck_assert_int_eq(layout_scroll_clamp(30, 5, 20), 15);
	ck_assert_int_eq(layout_scroll_clamp(3, 5, 2), 0);
}
END_TEST

/* ---- Markdown ------------------------------------------------------------- */

static const char lesson_md[] =
	"# A *test* lesson\n"
	"\n"
	"Intro with **strong**, *emphasis*, `code` and 2<sup>24</sup> ints, and a\n"
	"[link](https://example.org).\n"
	"\n"
	"- first item\n"
	"- second item that is long enough to wrap around the narrow width\n"
	"\n"
	"| lesson | steps |\n"
	"|---|---|\n"
	"| reduction | three |\n"
	"\n"
	"> a quote\n"
	"\n"
	"<!-- numbers: quote from the recorded results -->\n"
	"\n"
	"## The first step\n"
	"\n"
	"```step\n"
	"kernel: reduce_unroll8\n"
	"```\n"
	"\n"
	"Look for `LDG.E.128` and `BAR.SYNC`, not `__syncwarp()` nor `tid`.\n"
	"\n"
	"```\n"
	"x = y + z;\n"
	"```\n"
	"\n"
	"## The second step\n"
	"\n"
	"```step\n"
	"kernel: reduce_warp_shuffle\n"
	"look-for: WARPSYNC\n"
	"```\n"
	"\n"
	"Uses `SHFL.DOWN`, {{count SHFL.DOWN}} of them, and `WARPSYNC`.\n";

static char *doc_text(const struct markdown_doc *d, int step)
{
	struct strbuf b = { 0 };

	strbuf_add(&b, "", 0);
	for (int i = 0; i < d->n; i++) {
		char *t;
		if (step >= 0 && d->lines[i].step != step)
			continue;
		t = layout_line_text(&d->lines[i].line);
		strbuf_addf(&b, "%s\n", t);
		free(t);
	}
	return b.s;
}

static int has_style(const struct markdown_doc *d, const char *text, int style)
{
	for (int i = 0; i < d->n; i++)
		for (int k = 0; k < d->lines[i].line.nspans; k++)
			if (d->lines[i].line.spans[k].style == style &&
			    strstr(d->lines[i].line.spans[k].text, text) != NULL)
				return 1;
	return 0;
}

START_TEST(markdown_rendering)
{
	struct lesson l;
	struct error e;
	struct markdown_doc d;
	char *all, *intro, *one;
	int first, count;

	ck_assert_msg(lesson_load_buffer(lesson_md, strlen(lesson_md), "test.md", "test", &l, &e) == 0,
	    "%s", e.msg);
	markdown_render(&l, 40, 1, NULL, &d);
	for (int i = 0; i < d.n; i++)
		ck_assert_msg(d.lines[i].line.width <= 40, "line %d is %d wide", i, d.lines[i].line.width);
	all = doc_text(&d, -1);
	intro = doc_text(&d, 0);
	one = doc_text(&d, 1);
	ck_assert_ptr_nonnull(strstr(intro, "A test lesson"));
	ck_assert_ptr_nonnull(strstr(intro, "2\xc2\xb2\xe2\x81\xb4 ints"));		/* 2²⁴ */
	ck_assert_ptr_nonnull(strstr(intro, "\xe2\x80\xa2 first item"));		/* • */
	ck_assert_ptr_nonnull(strstr(intro, "<https://example.org>"));
	ck_assert(has_style(&d, "link", STYLE_LINK));
	ck_assert_ptr_nonnull(strstr(intro, "reduction \xe2\x94\x82 three"));		/* a table row */
	ck_assert_ptr_nonnull(strstr(intro, "\xe2\x94\x82 a quote"));
	ck_assert_ptr_null(strstr(all, "numbers:"));					/* HTML comments hidden */
	ck_assert_ptr_null(strstr(intro, "first step"));
	ck_assert_ptr_nonnull(strstr(one, "Step 1 of 2"));
	ck_assert_ptr_nonnull(strstr(one, "The first step"));
	ck_assert_ptr_nonnull(strstr(one, "runs reduce_unroll8"));
	ck_assert_ptr_nonnull(strstr(one, "  x = y + z;"));
	ck_assert_ptr_null(strstr(one, "kernel: reduce_unroll8"));
	ck_assert_ptr_null(strstr(one, "second step"));
	ck_assert(has_style(&d, "strong", STYLE_STRONG));
	ck_assert(has_style(&d, "emphasis", STYLE_EMPH));
	ck_assert(has_style(&d, "LDG.E.128", STYLE_CODE));
	ck_assert(has_style(&d, "x = y + z;", STYLE_CODE_BLOCK));
	ck_assert(has_style(&d, "The first step", STYLE_H2));
	/* a wrapped list item continues under its text, not under the bullet */
	ck_assert_ptr_nonnull(strstr(intro, "\n  "));
	markdown_page(&d, 2, &first, &count);
	ck_assert_int_gt(count, 0);
	ck_assert_int_eq(d.lines[first].step, 2);
	ck_assert_int_eq(d.lines[first].kind, MARKDOWN_HEADING);
	markdown_page(&d, 5, &first, &count);
	ck_assert_int_eq(count, 0);
	free(all);
	free(intro);
	free(one);
	markdown_free(&d);

	/* Without Unicode: plain bullets, rules and separators */
	markdown_render(&l, 60, 0, NULL, &d);
	all = doc_text(&d, -1);
	ck_assert_ptr_nonnull(strstr(all, "* first item"));
	ck_assert_ptr_nonnull(strstr(all, "2^24"));
	ck_assert_ptr_nonnull(strstr(all, "reduction | three"));
	for (const unsigned char *p = (const unsigned char *)all; *p; p++)
		ck_assert_msg(*p < 0x80, "non-ASCII in the ASCII rendering: %s", all);
	free(all);
	markdown_free(&d);

	{
		char **names;
		int n = markdown_mentions(&l, 1, &names);
		ck_assert_int_eq(n, 2);
		ck_assert_str_eq(names[0], "LDG.E.128");
		ck_assert_str_eq(names[1], "BAR.SYNC");
		markdown_mentions_free(names, n);
		/* the look-for list first, then what the text names */
		n = markdown_mentions(&l, 2, &names);
		ck_assert_int_eq(n, 2);
		ck_assert_str_eq(names[0], "WARPSYNC");
		ck_assert_str_eq(names[1], "SHFL.DOWN");
		markdown_mentions_free(names, n);
	}
	lesson_free(&l);
}
END_TEST

static const char exercise_md[] =
	"# Exercises\n"
	"\n"
	"Intro.\n"
	"\n"
	"## Unroll by two\n"
	"\n"
	"```step\n"
	"kernel: reduce_unroll2\n"
	"```\n"
	"\n"
	"Two at a time.\n"
	"\n"
	"## Exercise: unroll by eight\n"
	"\n"
	"```exercise\n"
	"id: unroll8\n"
	"```\n"
	"\n"
	"Write it, with `LDG.E` first.\n"
	"\n"
	"### Hint\n"
	"\n"
	"A first nudge.\n"
	"\n"
	"### Hint\n"
	"\n"
	"A second nudge.\n"
	"\n"
	"## Unroll by eight\n"
	"\n"
	"```step\n"
	"kernel: reduce_unroll8\n"
	"```\n"
	"\n"
	"Eight at a time.\n";

/* The text of lines first..first+count, the hints up to `hints` only. */
static char *lines_text(const struct markdown_doc *d, int first, int count, int hints)
{
	struct strbuf b = { 0 };

	strbuf_add(&b, "", 0);
	for (int i = first; i < first + count; i++) {
		char *t;
		if (d->lines[i].hint > hints)
			continue;
		t = layout_line_text(&d->lines[i].line);
		strbuf_addf(&b, "%s\n", t);
		free(t);
	}
	return b.s;
}

/* An exercise's section is a page of its own, not part of the step before it; its hints are marked. */
START_TEST(markdown_exercise_pages)
{
	struct lesson l;
	struct error e;
	struct markdown_doc d;
	char *step1, *task, *all, **names;
	int first, count, n;

	ck_assert_msg(lesson_load_buffer(exercise_md, strlen(exercise_md), "ex.md", "ex", &l, &e) == 0,
	    "%s", e.msg);
	markdown_render(&l, 60, 1, NULL, &d);
	markdown_page(&d, 1, &first, &count);
	step1 = lines_text(&d, first, count, 99);
	ck_assert_ptr_nonnull(strstr(step1, "Two at a time."));
	ck_assert_ptr_null(strstr(step1, "Write it"));
	ck_assert_ptr_null(strstr(step1, "nudge"));
	markdown_exercise_page(&d, 0, &first, &count);
	ck_assert_int_gt(count, 0);
	task = lines_text(&d, first, count, 0);
	all = lines_text(&d, first, count, 99);
	/* its heading has no step number; the block says what the student writes */
	ck_assert_ptr_nonnull(strstr(task, "Exercise: unroll by eight"));
	ck_assert_ptr_null(strstr(task, "Step "));
	ck_assert_ptr_nonnull(strstr(task, "you write reduce_unroll8, starting from reduce_unroll2"));
	ck_assert_ptr_null(strstr(all, "id: unroll8"));
	ck_assert_ptr_null(strstr(all, "```"));
	ck_assert_ptr_nonnull(strstr(task, "Write it, with LDG.E first."));
	/* the hints, numbered, apart from the task */
	ck_assert_ptr_null(strstr(task, "nudge"));
	ck_assert_ptr_nonnull(strstr(all, "Hint 1 of 2\n\nA first nudge."));
	ck_assert_ptr_nonnull(strstr(all, "Hint 2 of 2\n\nA second nudge."));
	for (int i = first; i < first + count; i++) {
		char *t = layout_line_text(&d.lines[i].line);
		ck_assert_int_eq(d.lines[i].exercise, 0);
		if (strstr(t, "second nudge") != NULL)
			ck_assert_int_eq(d.lines[i].hint, 2);
		free(t);
	}
	markdown_page(&d, 2, &first, &count);
	ck_assert_int_eq(d.lines[first].kind, MARKDOWN_HEADING);
	free(step1);
	free(task);
	free(all);
	all = lines_text(&d, first, count, 99);
	ck_assert_ptr_nonnull(strstr(all, "Step 2 of 2"));
	free(all);
	markdown_free(&d);
	/* what the exercise's text names is not what step 1 points at */
	n = markdown_mentions(&l, 1, &names);
	for (int i = 0; i < n; i++)
		ck_assert_str_ne(names[i], "LDG.E");
	markdown_mentions_free(names, n);
	lesson_free(&l);
}
END_TEST

/* What a check found, as the exercise's page shows it: the compiler's words, each SASS check, the GPU or its lack. */
/*
 * The one line a check's page and the chart show: right at every size and
 * fast enough, a failure after the timing (a tool's finding, a check where
 * it ran, no verdict) is said as what it is, never as a time; too slow is.
 */
START_TEST(exercise_summary_line)
{
	const struct exercise_def *def = exercise_def_find("float4");
	struct exercise_report r;
	char line[1024];

	ck_assert_ptr_nonnull(def);
	memset(&r, 0, sizeof r);
	r.def = def;
	r.compiled.ok = true;
	r.sass_checked = true;
	r.verdict.passed = true;
	r.gpu = true;
	r.run.nsizes = 1;
	r.run.sizes[0] = (struct exercise_size_check){ .size = 1024, .block = 256, .ran = true, .correct = true };
	r.run.correct = true;
	r.run.timed = true;
	r.run.fast_enough = true;
	r.run.ratio = 1.02;
	r.passed = true;
	ck_assert_int_eq(pane_exercise_summary(&r, line, sizeof line), STYLE_GOOD);
	ck_assert_msg(strstr(line, "PASSED") != NULL, "%s", line);

	/* racecheck found a race: the line says so, not the time */
	r.passed = false;
	r.ntools = 1;
	snprintf(r.tools[0].name, sizeof r.tools[0].name, "racecheck");
	r.tools[0].ran = true;
	snprintf(r.tools[0].note, sizeof r.tools[0].note, "a write-after-read hazard in shared memory");
	ck_assert_int_eq(pane_exercise_summary(&r, line, sizeof line), STYLE_ERROR);
	ck_assert_msg(strstr(line, "racecheck: a write-after-read hazard") && !strstr(line, "takes"), "%s", line);

	/* no verdict: the reads could not be read */
	r.ntools = 0;
	snprintf(r.unjudged, sizeof r.unjudged, "its device-memory reads could not be read: no ncu");
	ck_assert_int_eq(pane_exercise_summary(&r, line, sizeof line), STYLE_ERROR);
	ck_assert_msg(strstr(line, "not graded: its device-memory reads") && !strstr(line, "takes"), "%s", line);

	/* too slow: the time */
	r.unjudged[0] = '\0';
	r.run.fast_enough = false;
	r.run.ratio = 1.31;
	pane_exercise_summary(&r, line, sizeof line);
	ck_assert_msg(strstr(line, "takes 1.31x our time") != NULL, "%s", line);
}
END_TEST

START_TEST(exercise_report_pane)
{
	const struct exercise_def *def = exercise_def_find("float4");
	struct exercise_report r;
	struct pane p;
	int bad = 0;

	ck_assert_ptr_nonnull(def);
	memset(&r, 0, sizeof r);
	r.def = def;
	snprintf(r.compiled.arch, sizeof r.compiled.arch, "sm_90");
	r.compiled.diagnostics = xstrdup("float4.cu:3:39: error: expected an expression\n"
	    "      int i = blockIdx.x * blockDim.x + ;\n                                        ^\n");
	pane_exercise(&r, 70, 1, "H", &p);
	ck_assert(pane_has(&p, "float4.cu:3:39: error: expected an expression"));
	ck_assert(pane_has(&p, "int i = blockIdx.x * blockDim.x + ;"));
	ck_assert(pane_has(&p, "It does not compile yet"));
	ck_assert(!pane_has(&p, "In the SASS"));
	for (int i = 0; i < p.n; i++)
		for (int k = 0; k < p.lines[i].nspans; k++)
			bad += p.lines[i].spans[k].style == STYLE_BAD && strstr(p.lines[i].spans[k].text, ": error") != NULL;
	ck_assert_int_eq(bad, 1);
	pane_free(&p);
	free(r.compiled.diagnostics);

	/* compiled, one check passed and one not, no GPU */
	memset(&r, 0, sizeof r);
	r.def = def;
	snprintf(r.compiled.arch, sizeof r.compiled.arch, "sm_90");
	r.compiled.ok = true;
	r.sass_checked = true;
	r.verdict.count = 2;
	r.verdict.checks[0] = (struct exercise_check_outcome){ .check = &def->checks[0], .passed = true,
	    .found = 2, .message = "never shown" };
	r.verdict.checks[1] = (struct exercise_check_outcome){ .check = &def->checks[1], .passed = false,
	    .found = 0, .message = "store it wider" };
	snprintf(r.no_gpu, sizeof r.no_gpu, "no GPU here");
	pane_exercise(&r, 70, 1, "H", &p);
	ck_assert(pane_has(&p, "Compiled by NVRTC for sm_90"));
	ck_assert(pane_has(&p, "\xe2\x9c\x93 LDG.E.128: at least 2, found 2"));
	ck_assert(pane_has(&p, "\xe2\x9c\x97 STG.E.128: at least 1, found 0"));
	ck_assert(pane_has(&p, "store it wider"));
	ck_assert(!pane_has(&p, "never shown"));
	ck_assert(pane_has(&p, "On the GPU: not run (no GPU here)"));
	ck_assert(!pane_has(&p, "PASSED"));
	for (int i = 0; i < p.n; i++)
		ck_assert_int_le(p.lines[i].width, 70);
	pane_free(&p);
	/* without Unicode */
	pane_exercise(&r, 70, 0, "H", &p);
	ck_assert(pane_has(&p, "X  STG.E.128"));
	pane_free(&p);
}
END_TEST

static const char *arch_90(void *ctx, const struct kernel_def *k)
{
	(void)ctx;
	(void)k;
	return "sm_90";
}

START_TEST(counts_in_text)
{
	struct lesson l;
	struct error e;
	struct markdown_doc d;
	struct markdown_counts counts = { 1024, arch_90, NULL };
	char *two;

	ck_assert_msg(lesson_load_buffer(lesson_md, strlen(lesson_md), "test.md", "test", &l, &e) == 0,
	    "%s", e.msg);
	markdown_render(&l, 60, 1, NULL, &d);
	two = doc_text(&d, 2);
	ck_assert_ptr_nonnull(strstr(two, "{{count SHFL.DOWN}}"));	/* no counts asked for */
	free(two);
	markdown_free(&d);

	markdown_render(&l, 60, 1, &counts, &d);
	two = doc_text(&d, 2);
	ck_assert_ptr_null(strstr(two, "{{count"));
	/* counted in the kernel's SASS, or "?" where the build has none: never made up */
#ifdef HAVE_CUOBJDUMP
	ck_assert_msg(strstr(two, "Uses SHFL.DOWN, ?") == NULL, "%s", two);
#else
	ck_assert_ptr_nonnull(strstr(two, "Uses SHFL.DOWN, ? of them"));
#endif
	free(two);
	markdown_free(&d);
	lesson_free(&l);
}
END_TEST

START_TEST(markdown_cjk)
{
	/* A zh_CN lesson: title, a paragraph of Chinese with inline code, a step. */
	static const char zh[] =
	    "# \xe5\xbd\x92\xe7\xba\xa6\xe7\x9a\x84\xe5\xb1\x95\xe5\xbc\x80\n\n"
	    "\xe6\xaf\x8f\xe4\xb8\xaa\xe7\xba\xbf\xe7\xa8\x8b\xe5\x85\x88\xe6\x8a\x8a\xe5\x87\xa0\xe4\xb8\xaa"
	    "\xe6\x95\xb4\xe6\x95\xb0\xe5\x8a\xa0\xe8\xb5\xb7\xe6\x9d\xa5\xef\xbc\x8c\xe5\x86\x8d\xe5\xbc\x80"
	    "\xe5\xa7\x8b\xe5\xbd\x92\xe7\xba\xa6\xe6\xa0\x91\xe3\x80\x82\xe5\x9c\xa8 SASS \xe4\xb8\xad"
	    "\xe6\x89\xbe `LDG` \xe6\x8c\x87\xe4\xbb\xa4\xe3\x80\x82\n\n"
	    "## \xe5\xb1\x95\xe5\xbc\x80\xe4\xb8\xa4\xe6\xac\xa1\n\n"
	    "```step\nkernel: reduce_unroll2\n```\n";
	struct lesson l;
	struct error e;
	struct markdown_doc d;

	ck_assert_msg(lesson_load_buffer(zh, strlen(zh), "zh.md", "zh", &l, &e) == 0, "%s", e.msg);
	for (int width = 20; width <= 40; width += 7) {
		markdown_render(&l, width, 1, NULL, &d);
		ck_assert_int_gt(d.n, 4);
		for (int i = 0; i < d.n; i++)
			ck_assert_msg(d.lines[i].line.width <= width, "line %d is %d columns at width %d", i,
			    d.lines[i].line.width, width);
		ck_assert(has_style(&d, "LDG", STYLE_CODE));
		markdown_free(&d);
	}
	lesson_free(&l);
}
END_TEST

/* ---- code colouring ---------------------------------------------------------- */

START_TEST(opcodes_and_classes)
{
	const char *sass = "/*01e0*/              @!P2 LDG.E.128 R18, desc[UR4][R12.64] ;";
	const char *ptx = "\t@%p1 bra.uni \t$L__BB0_2;";
	int start, n;

	ck_assert(highlight_opcode(CODE_SASS, sass, (int)strlen(sass), &start, &n));
	ck_assert_int_eq(n, 9);
	ck_assert(strncmp(sass + start, "LDG.E.128", 9) == 0);
	ck_assert(highlight_opcode(CODE_PTX, ptx, (int)strlen(ptx), &start, &n));
	ck_assert(strncmp(ptx + start, "bra.uni", 7) == 0);
	ck_assert(!highlight_opcode(CODE_PTX, "$L__BB0_2:", 10, &start, &n));

	ck_assert_int_eq(highlight_class("LDG.E.128", 9), INSN_MEMORY);
	ck_assert_int_eq(highlight_class("STG.E", 5), INSN_MEMORY);
	ck_assert_int_eq(highlight_class("BAR.SYNC.DEFER_BLOCKING", 23), INSN_SYNC);
	ck_assert_int_eq(highlight_class("WARPSYNC", 8), INSN_SYNC);
	ck_assert_int_eq(highlight_class("SHFL.DOWN", 9), INSN_SHUFFLE);
	ck_assert_int_eq(highlight_class("BRA", 3), INSN_BRANCH);
	ck_assert_int_eq(highlight_class("bar.sync", 8), INSN_SYNC);
	ck_assert_int_eq(highlight_class("ld.global.u32", 13), INSN_MEMORY);
	ck_assert_int_eq(highlight_class("IMAD.WIDE", 9), INSN_OTHER);
	/* what the tensor-core lesson points at */
	ck_assert_int_eq(highlight_class("HMMA.16816.F32.BF16", 19), INSN_TENSOR);
	ck_assert_int_eq(highlight_class("HGMMA.64x128x16.F32.BF16", 24), INSN_TENSOR);
	ck_assert_int_eq(highlight_class("LDSM.16.M88.4", 13), INSN_MEMORY);
	ck_assert_int_eq(highlight_class("LDGSTS.E.BYPASS.128", 19), INSN_MEMORY);
	ck_assert_int_eq(highlight_class("UTMALDG.2D", 10), INSN_MEMORY);
	ck_assert_int_eq(highlight_class("SYNCS.PHASECHK.TRANS64.TRYWAIT", 30), INSN_SYNC);
	ck_assert_int_eq(highlight_class("WARPGROUP.ARRIVE", 16), INSN_SYNC);
	ck_assert_int_eq(highlight_class("BRANCHY", 7), INSN_OTHER);

	ck_assert(highlight_matches("LDG.E.128", 9, "LDG"));
	ck_assert(highlight_matches("LDG.E.128", 9, "LDG.E.128"));
	ck_assert(!highlight_matches("LDG.E", 5, "LDG.E.128"));
	ck_assert(!highlight_matches("LDGSTS", 6, "LDG"));
	ck_assert(highlight_matches("BAR.SYNC.DEFER_BLOCKING", 23, "BAR.SYNC"));
	ck_assert(highlight_matches("shfl.sync.down.b32", 18, "SHFL.DOWN"));
	ck_assert(!highlight_matches("SHFL.BFLY", 9, "SHFL.DOWN"));
}
END_TEST

START_TEST(line_spans)
{
	const char *sass = "/*0080*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;";
	const char *src = "__global__ void f(int *x) { // sum";
	char *focus[] = { "BAR.SYNC" };
	struct highlight_span sp[16];
	int n, in_comment = 0, covered = 0, saw_focus = 0, saw_comment = 0, saw_cuda = 0;

	n = highlight_line(CODE_SASS, sass, (int)strlen(sass), &in_comment, focus, 1, sp, 16);
	for (int i = 0; i < n; i++) {
		ck_assert_int_eq(sp[i].start, covered);	/* spans cover the line, in order */
		covered += sp[i].len;
		if (sp[i].style == STYLE_INSN_FOCUS) {
			ck_assert(strncmp(sass + sp[i].start, "BAR.SYNC.DEFER_BLOCKING", (size_t)sp[i].len) == 0);
			saw_focus = 1;
		}
	}
	ck_assert_int_eq(covered, (int)strlen(sass));
	ck_assert(saw_focus);
	ck_assert_int_eq(sp[0].style, STYLE_LINENO);

	n = highlight_line(CODE_SOURCE, src, (int)strlen(src), &in_comment, NULL, 0, sp, 16);
	covered = 0;
	for (int i = 0; i < n; i++) {
		covered += sp[i].len;
		saw_comment |= sp[i].style == STYLE_SRC_COMMENT &&
		    strncmp(src + sp[i].start, "// sum", 6) == 0;
		saw_cuda |= sp[i].style == STYLE_SRC_CUDA && strncmp(src + sp[i].start, "__global__", 10) == 0;
	}
	ck_assert_int_eq(covered, (int)strlen(src));
	ck_assert(saw_comment && saw_cuda);

	/* a block comment runs on to the next line */
	n = highlight_line(CODE_SOURCE, "int a; /* open", 14, &in_comment, NULL, 0, sp, 16);
	ck_assert(in_comment);
	n = highlight_line(CODE_SOURCE, "still */ int b;", 15, &in_comment, NULL, 0, sp, 16);
	ck_assert(!in_comment);
	ck_assert_int_eq(sp[0].style, STYLE_SRC_COMMENT);
	ck_assert_int_eq(sp[0].len, 8);
}
END_TEST

START_TEST(instruction_mix)
{
	const char *ptx =
	    "\t.reg .b32 \t%r<10>;\n"
	    "\tld.global.u32 \t%r1, [%rd1];\n"
	    "\tld.global.v4.u32 \t{%r2, %r3, %r4, %r5}, [%rd2];\n"
	    "\tbar.sync \t0;\n"
	    "\tshfl.sync.down.b32 \t%r6, %r1, 16, 31, -1;\n"
	    "\t@%p1 bra.uni \t$L__BB0_2;\n"
	    "$L__BB0_2:\n"
	    "\tst.global.u32 \t[%rd3], %r6;\n"
	    "\tret;\n";
	struct insn_mix m;

	highlight_ptx_mix(ptx, &m);
	ck_assert_int_eq(m.total, 7);
	ck_assert_int_eq(m.global_loads, 2);
	ck_assert_int_eq(m.global_stores, 1);
	ck_assert_int_eq(m.barriers, 1);
	ck_assert_int_eq(m.shuffles, 1);
	ck_assert_int_eq(m.branches, 1);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("layout");
	TCase *tc = tcase_create("layout");

	tcase_add_unchecked_fixture(tc, utf8_locale, NULL);
	tcase_add_test(tc, utf8_and_widths);
	tcase_add_test(tc, ellipsis_and_tabs);
	tcase_add_test(tc, wrap_words);
	tcase_add_test(tc, wrap_cjk);
	tcase_add_test(tc, wrap_keeps_styles);
	tcase_add_test(tc, columns);
	tcase_add_test(tc, lesson_screen);
	tcase_add_test(tc, list_and_presenter_screens);
	tcase_add_test(tc, diff_code_and_counters_screens);
	tcase_add_test(tc, diff_panes);
	tcase_add_test(tc, counter_pane);
	tcase_add_test(tc, bank_picture);
	tcase_add_test(tc, bars_and_big_digits);
	tcase_add_test(tc, markdown_rendering);
	tcase_add_test(tc, counts_in_text);
	tcase_add_test(tc, markdown_cjk);
	tcase_add_test(tc, markdown_exercise_pages);
	tcase_add_test(tc, exercise_report_pane);
	tcase_add_test(tc, exercise_summary_line);
	tcase_add_test(tc, opcodes_and_classes);
	tcase_add_test(tc, line_spans);
	tcase_add_test(tc, instruction_mix);
	tcase_add_test(tc, two_gpus_pane);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

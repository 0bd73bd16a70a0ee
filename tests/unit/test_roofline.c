/* The roofline in characters: its size, axes, roofs, ridge and points; and the canvas it is drawn on. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "roofline.h"
#include "textwrap.h"

/* A GPU whose roofs meet at 10 FLOP/byte: 1000 GB/s and 10000 GFLOP/s measured, a little more in theory. */
static void roofs(struct gpu_roofs *r)
{
	memset(r, 0, sizeof *r);
	r->have = true;
	r->dram_measured_gbps = 1000;
	r->dram_theoretical_gbps = 1200;
	r->fp32_measured_gflops = 10000;
	r->fp32_theoretical_gflops = 12000;
}

/* Row and column of the first c in the plot (not the labels), or -1. */
static void find(const struct canvas_lines *c, char mark, int *row, int *col)
{
	*row = *col = -1;
	for (int i = 0; i < c->nlines; i++) {
		const char *p = strchr(c->lines[i], mark);

		/* past the y label and the axis: in the plot */
		if (p != NULL && textwrap_columns(c->lines[i], (size_t)(p - c->lines[i])) > 5) {
			*row = i;
			*col = textwrap_columns(c->lines[i], (size_t)(p - c->lines[i]));
			return;
		}
	}
}

START_TEST(size_and_axes)
{
	struct gpu_roofs r;
	struct roofline_point p[] = { { '1', 0.25, 200, false } };
	struct canvas_lines c;
	int placed;

	roofs(&r);
	for (int unicode = 0; unicode < 2; unicode++) {
		roofline_draw(&r, p, 1, 80, 20, unicode, &c, &placed);
		ck_assert_int_eq(placed, 1);
		ck_assert_int_eq(c.nlines, 22);	/* the plot, the axis, the x labels */
		for (int i = 0; i < c.nlines; i++) {
			ck_assert_msg(textwrap_columns(c.lines[i], strlen(c.lines[i])) <= 80, "line %d: %s", i,
			    c.lines[i]);
			if (!unicode)
				for (const char *q = c.lines[i]; *q; q++)
					ck_assert_msg((unsigned char)*q < 0x80, "not ASCII: %s", c.lines[i]);
		}
		/* 10000 GFLOP/s ("10T") is the measured roof: near the top, a little room over the theoretical one */
		ck_assert_msg(strstr(c.lines[1], "10T") != NULL || strstr(c.lines[2], "10T") != NULL, "%s", c.lines[1]);
		ck_assert_ptr_nonnull(strstr(c.lines[c.nlines - 1], "0.1 "));
		ck_assert_ptr_nonnull(strstr(c.lines[c.nlines - 1], "10"));
		/* the ridge is marked on the axis line */
		ck_assert_ptr_nonnull(strstr(c.lines[c.nlines - 2], unicode ? "\u25b2" : "^"));
		canvas_lines_free(&c);
	}
}
END_TEST

/* The points sit where their figures say: a faster step higher, a more intense one further right. */
START_TEST(points_where_they_belong)
{
	struct gpu_roofs r;
	struct roofline_point p[] = {
		{ '1', 0.25, 100, false },	/* a slow reduction */
		{ '2', 0.25, 240, false },	/* the same work, faster: higher, same column */
		{ '3', 100, 9000, false },	/* a matrix multiply near the FP32 roof: far right, near the top */
	};
	struct canvas_lines c;
	int r1, c1, r2, c2, r3, c3;

	roofs(&r);
	roofline_draw(&r, p, 3, 80, 20, false, &c, NULL);
	find(&c, '1', &r1, &c1);
	find(&c, '2', &r2, &c2);
	find(&c, '3', &r3, &c3);
	ck_assert_int_ge(r1, 0);
	ck_assert_int_ge(r2, 0);
	ck_assert_int_ge(r3, 0);
	ck_assert_int_lt(r2, r1);
	ck_assert_int_eq(c2, c1);
	ck_assert_int_gt(c3, c1 + 30);
	ck_assert_int_lt(r3, r2);
	canvas_lines_free(&c);
}
END_TEST

/*
 * Two points in one cell: drawn once, in the cell their figures put it in
 * (where the first alone is drawn), counted "×2" beside it, and named in
 * words; never a column aside, where it would read as another intensity.
 */
START_TEST(points_in_one_cell_drawn_once_where_they_are)
{
	struct gpu_roofs r;
	struct roofline_point alone[] = { { '1', 0.25, 100, false } };
	struct roofline_point p[] = { { '1', 0.25, 100, false }, { '2', 0.25, 100.5, false }, { '3', 100, 9000, false } };
	struct canvas_lines c;
	int r0, c0, r1, c1, r2, c2, placed;
	char *spots;

	roofs(&r);
	roofline_draw(&r, alone, 1, 80, 20, true, &c, NULL);
	find(&c, '1', &r0, &c0);
	canvas_lines_free(&c);
	roofline_draw(&r, p, 3, 80, 20, true, &c, &placed);
	ck_assert_int_eq(placed, 3);
	find(&c, '1', &r1, &c1);
	find(&c, '2', &r2, &c2);
	ck_assert_int_ge(r0, 0);
	ck_assert_int_eq(r1, r0);
	ck_assert_int_eq(c1, c0);
	/* the only 2 in the plot is the count's, right of the mark */
	ck_assert_int_eq(r2, r1);
	ck_assert_int_eq(c2, c1 + 2);
	ck_assert_ptr_nonnull(strstr(c.lines[r1], "1\u00d72"));
	ck_assert_int_eq(p[0].drawn, '1');
	ck_assert_int_eq(p[0].here, 2);
	ck_assert_int_eq(p[1].drawn, '1');
	ck_assert_int_eq(p[2].drawn, '3');
	ck_assert_int_eq(p[2].here, 1);
	spots = roofline_spots(p, 3, true);
	ck_assert_str_eq(spots, "Steps at one spot: 1\u00d72 (1 2)");
	free(spots);
	canvas_lines_free(&c);
	/* in ASCII an x; every point alone: nothing to say */
	roofline_draw(&r, p, 2, 80, 20, false, &c, NULL);
	ck_assert_ptr_nonnull(strstr(c.lines[r1], "1x2"));
	canvas_lines_free(&c);
	roofline_draw(&r, alone, 1, 80, 20, false, &c, NULL);
	ck_assert_ptr_null(roofline_spots(alone, 1, false));
	canvas_lines_free(&c);
}
END_TEST

/* Another GPU's point in the same cell as this GPU's: this GPU's mark stays, the '+' goes beside it. */
START_TEST(another_gpu_beside)
{
	struct gpu_roofs r;
	struct roofline_point p[] = { { '1', 0.25, 100, true }, { '1', 0.25, 100, false } };
	struct canvas_lines c;
	int r1, c1, rp, cp, placed;

	roofs(&r);
	roofline_draw(&r, p, 2, 80, 20, false, &c, &placed);
	ck_assert_int_eq(placed, 2);
	find(&c, '1', &r1, &c1);
	find(&c, '+', &rp, &cp);
	ck_assert_int_ge(r1, 0);
	ck_assert_int_eq(rp, r1);
	ck_assert_int_eq(abs(cp - c1), 1);
	canvas_lines_free(&c);
}
END_TEST

/* The roofs in Braille: the flat FP32 roof is a run of dots on one row, right of the ridge. */
START_TEST(the_roofs_are_drawn)
{
	struct gpu_roofs r;
	struct canvas_lines c;
	int braille = 0, dashes = 0, slashes = 0;

	roofs(&r);
	roofline_draw(&r, NULL, 0, 80, 20, true, &c, NULL);
	for (int i = 0; i < c.nlines; i++)
		for (const char *q = c.lines[i]; *q; q++)
			braille += (unsigned char)q[0] == 0xe2 && ((unsigned char)q[1] & 0xfc) == 0xa0;
	ck_assert_int_gt(braille, 60);
	canvas_lines_free(&c);
	roofline_draw(&r, NULL, 0, 80, 20, false, &c, NULL);
	for (int i = 0; i < c.nlines - 2; i++) {
		dashes += strstr(c.lines[i], "----------") != NULL;
		slashes += strchr(c.lines[i] + 6, '/') != NULL;
	}
	ck_assert_int_eq(dashes, 1);	/* one flat roof */
	ck_assert_int_ge(slashes, 3);	/* the slope climbs rows */
	canvas_lines_free(&c);
}
END_TEST

/* No roofs, or a point with no rate: nothing made up. */
START_TEST(nothing_made_up)
{
	struct gpu_roofs r = { 0 };
	struct roofline_point p[] = { { '1', 0.25, 100, false }, { '2', 0, 100, false }, { '3', 0.5, 0, false } };
	struct canvas_lines c;
	int placed = -1;

	roofline_draw(&r, p, 1, 80, 20, true, &c, &placed);
	ck_assert_int_eq(c.nlines, 0);
	ck_assert_int_eq(placed, 0);
	roofs(&r);
	roofline_draw(&r, p, 3, 80, 20, true, &c, &placed);
	ck_assert_int_eq(placed, 1);
	canvas_lines_free(&c);
	ck_assert_int_eq(canvas_mark(1), '1');
	ck_assert_int_eq(canvas_mark(10), 'a');
	ck_assert_int_eq(canvas_mark(99), '?');
}
END_TEST

/* The row of the first line of the plot holding s, or -1. */
static int row_of(const struct canvas_lines *c, const char *s)
{
	for (int i = 0; i < c->nlines - 2; i++)
		if (strstr(c->lines[i], s) != NULL)
			return i;
	return -1;
}

/*
 * A tensor-core lesson: over the FP32 roof the BF16 tensor roof, the y
 * axis up to it (1000 TFLOP/s, "1P"), both ridges on the axis, the upper
 * roof named, and a step below it.
 */
START_TEST(the_tensor_roof)
{
	struct gpu_roofs r;
	/* a 4096^3 product: 1024 FLOP per byte, at 400 TFLOP/s */
	struct roofline_point p[] = { { '1', 1024, 400000, false } };
	struct canvas_lines c;
	int placed, r1, c1, top;

	roofs(&r);
	r.dram_measured_gbps = 3000;
	r.dram_theoretical_gbps = 3200;
	r.fp32_measured_gflops = 50000;
	r.fp32_theoretical_gflops = 64000;
	r.tensor_measured_gflops = 800000;
	r.tensor_spec_gflops = 1000000;
	for (int unicode = 0; unicode < 2; unicode++) {
		roofline_draw_roofs(&r, true, p, 1, 80, 20, unicode, &c, &placed);
		ck_assert_int_eq(placed, 1);
		ck_assert_int_eq(c.nlines, 22);
		for (int i = 0; i < c.nlines; i++)
			ck_assert_msg(textwrap_columns(c.lines[i], strlen(c.lines[i])) <= 80, "%s", c.lines[i]);
		/* up to 1000 TFLOP/s: "1P" is a decade's label, near the top */
		ck_assert_int_ge(row_of(&c, " 1P"), 0);
		ck_assert_int_le(row_of(&c, " 1P"), 1);
		/* two ridges: FP32's (16.7 FLOP/byte) and the tensor roof's (267) */
		ck_assert_int_eq(check_occurrences(c.lines[c.nlines - 2], unicode ? "\u25b2" : "^"), 2);
		ck_assert_ptr_nonnull(strstr(c.lines[c.nlines - 1], "1000"));
		/* the upper roof named, over the step, which sits below it */
		top = row_of(&c, "TENSOR");
		ck_assert_int_ge(top, 0);
		find(&c, '1', &r1, &c1);
		ck_assert_int_gt(r1, top);
		ck_assert_int_lt(r1, row_of(&c, "10T"));
		if (!unicode) {
			/* in ASCII the tensor roof's top is '=', the FP32 one's '-' */
			ck_assert_msg(check_occurrences(c.lines[0], "=") + check_occurrences(c.lines[1], "=") >= 10, "%s", c.lines[0]);
			ck_assert_int_ge(row_of(&c, "="), 0);
			ck_assert_int_le(row_of(&c, "="), 1);
		}
		canvas_lines_free(&c);
	}
	/* the same roofs for a lesson on the FP32 lanes: no tensor roof, the axis stops under 1P */
	roofline_draw_roofs(&r, false, p, 1, 80, 20, false, &c, &placed);
	ck_assert_int_eq(row_of(&c, "TENSOR"), -1);
	ck_assert_int_eq(row_of(&c, "="), -1);
	ck_assert_int_eq(check_occurrences(c.lines[c.nlines - 2], "^"), 1);
	ck_assert_int_eq(row_of(&c, " 1P"), -1);
	canvas_lines_free(&c);
	/* no ceiling measured: the spec's roof alone, dotted ('.', no '=' in ASCII), still named */
	r.tensor_measured_gflops = 0;
	roofline_draw_roofs(&r, true, p, 1, 80, 20, false, &c, &placed);
	ck_assert_int_eq(placed, 1);
	ck_assert_int_eq(row_of(&c, "="), -1);
	ck_assert_int_ge(row_of(&c, "TENSOR"), 0);
	ck_assert_int_ge(row_of(&c, " 1P"), 0);
	canvas_lines_free(&c);
}
END_TEST

/* The canvas under both charts: a character over dots, the UTF-8 twins, labels that never overlap. */
START_TEST(the_canvas)
{
	struct canvas cv;
	struct canvas_lines c = { 0 };
	const int marks[] = { 2 };
	char *line;
	int free_from;

	canvas_init(&cv, 4, 2, 3, true);
	canvas_dot(&cv, 0, 0);
	canvas_dot(&cv, 3, 7);
	canvas_at(&cv, 1, 0)->ch = '.';
	canvas_at(&cv, 2, 0)->ch = '|';
	canvas_at(&cv, 3, 0)->ch = '7';
	canvas_at(&cv, 3, 0)->dots = 1;
	ck_assert_ptr_null(canvas_at(&cv, 4, 0));
	canvas_ylabel(&cv, 0, "1");
	canvas_ylabel(&cv, 0, "10");
	canvas_ylabel(&cv, 5, "99");
	canvas_emit_rows(&cv, &c);
	canvas_emit_axis(&cv, "", marks, 1, &c);
	line = canvas_label_line(&cv);
	free_from = canvas_put_label(&cv, line, 0, "ab", 0);
	ck_assert_int_eq(canvas_put_label(&cv, line, 1, "cd", free_from), free_from);
	canvas_put_label(&cv, line, 3, "ef", free_from);
	canvas_emit_label_line(&cv, line, &c);
	ck_assert_int_eq(c.nlines, 4);
	ck_assert_str_eq(c.lines[0], "10\u2524\u2801\u00b7\u250a7");
	ck_assert_str_eq(c.lines[1], "  \u2502 \u2880  ");
	ck_assert_str_eq(c.lines[2], "  \u2514\u2500\u2500\u25b2\u2500");
	ck_assert_str_eq(c.lines[3], "  ab ef");
	canvas_lines_free(&c);
	canvas_free(&cv);

	canvas_init(&cv, 4, 1, 3, false);
	canvas_at(&cv, 0, 0)->ch = '.';
	canvas_at(&cv, 1, 0)->ch = '|';
	canvas_at(&cv, 2, 0)->dots = 1;
	canvas_emit_rows(&cv, &c);
	canvas_emit_axis(&cv, "1", marks, 1, &c);
	ck_assert_str_eq(c.lines[0], "  |.|  ");
	ck_assert_str_eq(c.lines[1], " 1+--^-");
	canvas_lines_free(&c);
	canvas_free(&cv);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("roofline");
	TCase *tc = tcase_create("roofline");

	tcase_add_test(tc, size_and_axes);
	tcase_add_test(tc, points_where_they_belong);
	tcase_add_test(tc, points_in_one_cell_drawn_once_where_they_are);
	tcase_add_test(tc, another_gpu_beside);
	tcase_add_test(tc, the_roofs_are_drawn);
	tcase_add_test(tc, nothing_made_up);
	tcase_add_test(tc, the_tensor_roof);
	tcase_add_test(tc, the_canvas);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

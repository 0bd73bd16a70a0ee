/* Statistics of timings, and parsing of counts. */
#include "config.h"

#include "check_main.h"
#include "stats.h"
#include "util.h"

START_TEST(median_of_odd_and_even)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 };
	struct stats s;

	stats_compute(odd, 3, &s);
	ck_assert_double_eq(s.median, 3);
	ck_assert_double_eq(s.min, 1);
	ck_assert_double_eq(s.max, 5);
	stats_compute(even, 4, &s);
	ck_assert_double_eq_tol(s.median, 2.5, 1e-12);
	ck_assert_double_eq_tol(s.q1, 1.75, 1e-12);
	ck_assert_double_eq_tol(s.q3, 3.25, 1e-12);
}
END_TEST

START_TEST(spread_is_iqr_over_median)
{
	double v[] = { 9, 10, 10, 10, 11, 100 };	/* one outlier */
	struct stats s;

	stats_compute(v, 6, &s);
	ck_assert_double_eq_tol(s.median, 10, 1e-12);
	/* q1 = 10 - 0.75, q3 = 10 + 0.75: the outlier does not move the spread */
	ck_assert_double_eq_tol(stats_spread_pct(&s), 7.5, 1e-9);
	ck_assert_double_eq(s.max, 100);
}
END_TEST

START_TEST(samples_are_not_modified)
{
	double v[] = { 3, 2, 1 };
	struct stats s;

	stats_compute(v, 3, &s);
	ck_assert_double_eq(v[0], 3);
	ck_assert_double_eq(v[2], 1);
	stats_compute(v, 0, &s);
	ck_assert_int_eq(s.n, 0);
	ck_assert_double_eq(stats_spread_pct(&s), 0);
}
END_TEST

START_TEST(counts_in_every_spelling)
{
	unsigned long long v;

	ck_assert_int_eq(parse_count("16777216", &v), 0);
	ck_assert_uint_eq(v, 16777216);
	ck_assert_int_eq(parse_count("2^24", &v), 0);
	ck_assert_uint_eq(v, 1ULL << 24);
	ck_assert_int_eq(parse_count("1<<28", &v), 0);
	ck_assert_uint_eq(v, 1ULL << 28);
	ck_assert_int_eq(parse_count("16M", &v), 0);
	ck_assert_uint_eq(v, 16ULL << 20);
	ck_assert_int_eq(parse_count("64Ki", &v), 0);
	ck_assert_uint_eq(v, 64ULL << 10);
}
END_TEST

START_TEST(bad_counts_are_refused)
{
	static const char *const bad[] = {
		"", "-1", "+5", "abc", "12abc", "3^4", "2^", "2^64", "1<<64",
		"99999999999999999999999", "18446744073709551615G", "1.5", " 7", "0x10",
	};
	unsigned long long v;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(parse_count(bad[i], &v) != 0, "'%s' was accepted", bad[i]);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("stats");

	tcase_add_test(tc, median_of_odd_and_even);
	tcase_add_test(tc, spread_is_iqr_over_median);
	tcase_add_test(tc, samples_are_not_modified);
	tcase_add_test(tc, counts_in_every_spelling);
	tcase_add_test(tc, bad_counts_are_refused);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

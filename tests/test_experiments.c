/* The experiments' CPU references and checks, without a GPU. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "check_main.h"
#include "experiments/experiments.h"

START_TEST(reduce_reference_is_exact)
{
	int data[1000];

	reduce_fill(data, 1000, 42);
	for (int i = 0; i < 1000; i++)
		ck_assert(data[i] >= 0 && data[i] <= 255);
	{
		int64_t sum = 0;
		for (int i = 0; i < 1000; i++)
			sum += data[i];
		ck_assert_int_eq(reduce_reference(data, 1000), sum);
	}
	/* the same seed gives the same data */
	{
		int again[1000];
		reduce_fill(again, 1000, 42);
		ck_assert_mem_eq(data, again, sizeof data);
	}
}
END_TEST

START_TEST(reduce_partials_that_add_up_pass)
{
	int partials[] = { 100, 200, 300 };
	struct check_result r;

	reduce_check_partials(partials, 3, 600, &r);
	ck_assert(r.correct);
	reduce_check_partials(partials, 3, 601, &r);
	ck_assert(!r.correct);
	ck_assert_ptr_nonnull(strstr(r.detail, "601"));
}
END_TEST

START_TEST(reduce_poisoned_partial_fails)
{
	/* A block that never wrote its partial leaves the 0xab poison. */
	int partials[] = { 100, (int)0xabababab, 300 };
	struct check_result r;

	reduce_check_partials(partials, 3, 100 + 250 + 300, &r);
	ck_assert(!r.correct);
}
END_TEST

START_TEST(reduce_sums_wrap_like_the_gpu)
{
	/* Partials summed modulo 2^32 agree with a 64-bit reference mod 2^32. */
	int partials[] = { 0x7fffffff, 0x7fffffff, 4 };
	struct check_result r;

	reduce_check_partials(partials, 3, 2LL * 0x7fffffff + 4, &r);
	ck_assert(r.correct);
	reduce_check_total(2LL * 0x7fffffff + 4, 2LL * 0x7fffffff + 4, &r);
	ck_assert(r.correct);
	reduce_check_total(3, 4, &r);
	ck_assert(!r.correct);
}
END_TEST

START_TEST(vec_add_check_is_bitwise)
{
	float x[64], y[64], z[64], ref[64];
	struct check_result r;

	vec_add_fill(x, y, 64, 7);
	vec_add_reference(x, y, ref, 64);
	memcpy(z, ref, sizeof z);
	vec_add_check(z, ref, 64, &r);
	ck_assert(r.correct);

	z[17] = nextafterf(z[17], 2.0f);	/* one ulp off */
	vec_add_check(z, ref, 64, &r);
	ck_assert(!r.correct);
	ck_assert_ptr_nonnull(strstr(r.detail, "17"));

	memcpy(z, ref, sizeof z);
	memset(&z[63], 0xff, sizeof z[63]);	/* the NaN poison, unwritten */
	vec_add_check(z, ref, 64, &r);
	ck_assert(!r.correct);
}
END_TEST

START_TEST(vec_add_inputs_are_in_range)
{
	float x[4096], y[4096];

	vec_add_fill(x, y, 4096, 1);
	for (int i = 0; i < 4096; i++) {
		ck_assert(x[i] >= -1.0f && x[i] < 1.0f);
		ck_assert(y[i] >= -1.0f && y[i] < 1.0f);
	}
	ck_assert(x[0] != x[1]);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("experiments");
	TCase *tc = tcase_create("references");

	tcase_add_test(tc, reduce_reference_is_exact);
	tcase_add_test(tc, reduce_partials_that_add_up_pass);
	tcase_add_test(tc, reduce_poisoned_partial_fails);
	tcase_add_test(tc, reduce_sums_wrap_like_the_gpu);
	tcase_add_test(tc, vec_add_check_is_bitwise);
	tcase_add_test(tc, vec_add_inputs_are_in_range);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

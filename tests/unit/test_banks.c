/* Shared-memory banks: which lanes meet in which bank, and the wavefronts that costs. */
#include "config.h"

#include "banks.h"
#include "check_main.h"
#include "experiments/experiments.h"
#include "registry.h"

START_TEST(stride_one_is_one_bank_per_lane)
{
	struct banks_access a;

	ck_assert_int_eq(banks_compute(1, 4, false, &a), 0);
	ck_assert_int_eq(a.wavefronts, 1);
	ck_assert_int_eq(a.ways, 1);
	ck_assert_int_eq(a.banks_used, 32);
	for (int l = 0; l < 32; l++)
		ck_assert_int_eq(a.bank[l], l);
}
END_TEST

/* Stride 2^k puts 2^k lanes in each bank it uses, up to all 32 in one. */
START_TEST(power_of_two_strides_conflict)
{
	for (unsigned int s = 2; s <= 32; s *= 2) {
		struct banks_access a;

		ck_assert_int_eq(banks_compute(s, 4, false, &a), 0);
		ck_assert_int_eq(a.wavefronts, (int)s);
		ck_assert_int_eq(a.ways, (int)s);
		ck_assert_int_eq(a.banks_used, 32 / (int)s);
	}
	{
		struct banks_access a;

		banks_compute(2, 4, false, &a);
		ck_assert_int_eq(a.bank[0], 0);
		ck_assert_int_eq(a.bank[16], 0);	/* the reference's example: lanes 0 and 16 */
		ck_assert_int_eq(a.bank[1], 2);
		ck_assert_int_eq(a.bank[17], 2);
		banks_compute(64, 4, false, &a);	/* past 32 it stays 32-way */
		ck_assert_int_eq(a.wavefronts, 32);
	}
}
END_TEST

START_TEST(odd_strides_do_not_conflict)
{
	for (unsigned int s = 1; s < 64; s += 2) {
		struct banks_access a;

		banks_compute(s, 4, false, &a);
		ck_assert_msg(a.wavefronts == 1, "stride %u: %d wavefronts", s, a.wavefronts);
	}
}
END_TEST

START_TEST(padding_removes_the_conflicts)
{
	struct banks_access a;

	banks_compute(32, 4, true, &a);
	ck_assert_int_eq(a.wavefronts, 1);
	for (int l = 0; l < 32; l++) {
		ck_assert_uint_eq(a.word[l][0], 33u * (unsigned int)l);	/* a column of a 32 x 33 array */
		ck_assert_int_eq(a.bank[l], l);
	}
	for (unsigned int s = 1; s <= 32; s *= 2) {
		banks_compute(s, 4, true, &a);
		ck_assert_msg(a.wavefronts == 1, "padded stride %u: %d wavefronts", s, a.wavefronts);
	}
}
END_TEST

START_TEST(one_word_is_broadcast)
{
	struct banks_access a;

	banks_compute(0, 4, false, &a);
	ck_assert_int_eq(a.wavefronts, 1);
	ck_assert_int_eq(a.ways, 1);
	ck_assert_int_eq(a.banks_used, 1);
	for (int l = 0; l < 32; l++)
		ck_assert_uint_eq(a.word[l][0], 0);
}
END_TEST

START_TEST(wide_elements_take_phases)
{
	struct banks_access a;

	banks_compute(1, 8, false, &a);		/* 256 bytes: two half-warps */
	ck_assert_int_eq(a.phases, 2);
	ck_assert_int_eq(a.wavefronts, 2);
	ck_assert_int_eq(a.ways, 1);
	ck_assert_uint_eq(a.word[3][1], 7);
	banks_compute(1, 16, false, &a);	/* 512 bytes: four quarter-warps */
	ck_assert_int_eq(a.wavefronts, 4);
	banks_compute(2, 8, false, &a);		/* every other double: two words per bank per phase */
	ck_assert_int_eq(a.ways, 2);
	ck_assert_int_eq(a.wavefronts, 4);
}
END_TEST

START_TEST(narrow_elements_share_words)
{
	struct banks_access a;

	banks_compute(1, 1, false, &a);		/* 32 chars: 8 words */
	ck_assert_int_eq(a.wavefronts, 1);
	ck_assert_int_eq(a.banks_used, 8);
	banks_compute(1, 2, false, &a);
	ck_assert_int_eq(a.banks_used, 16);
	ck_assert_int_eq(banks_compute(1, 3, false, &a), -1);
	ck_assert_int_eq(banks_compute(1, 32, false, &a), -1);
}
END_TEST

/* The sweep's kernels read where the picture says, and conflict as their names say. */
START_TEST(sweep_kernels_match_the_picture)
{
	int found = 0;

	for (int i = 0; i < registry_kernel_count; i++) {
		const struct kernel_def *k = &registry_kernels[i];
		unsigned int stride;
		bool padded;
		struct banks_access a;

		if (k->experiment != &experiment_smem_sweep)
			continue;
		ck_assert_msg(smem_sweep_case(k, &stride, &padded) == 0, "%s is not in the sweep", k->name);
		banks_compute(stride, 4, padded, &a);
		for (unsigned int l = 0; l < 32; l++)
			ck_assert_uint_eq(smem_sweep_first_word(l, stride, padded), a.word[l][0]);
		ck_assert_int_eq(a.wavefronts, padded || stride == 0 ? 1 : (int)stride);
		found++;
	}
	ck_assert_int_eq(found, 8);
}
END_TEST

/* The picture of a sweep step comes from the kernel's name through the sweep's own table. */
START_TEST(kernels_to_accesses)
{
	struct banks_access a;

	ck_assert_int_eq(banks_of_kernel("smem_stride_32", &a), 0);
	ck_assert_uint_eq(a.stride, 32);
	ck_assert(!a.padded);
	ck_assert_int_eq(a.wavefronts, 32);
	ck_assert_int_eq(banks_of_kernel("smem_stride_32_padded", &a), 0);
	ck_assert(a.padded);
	ck_assert_int_eq(a.wavefronts, 1);
	ck_assert_int_eq(banks_of_kernel("smem_broadcast", &a), 0);
	ck_assert_uint_eq(a.stride, 0);
	ck_assert_int_eq(banks_of_kernel("reduce_shared_strided", &a), -1);
	ck_assert_int_eq(banks_of_kernel("no_such_kernel", &a), -1);
}
END_TEST

/* Wavefront by wavefront: which lane each bank serves. */
START_TEST(waves_in_order)
{
	struct banks_access a;
	struct banks_wave w[64];
	int n;

	/* stride 1: one wave, lane l in bank l */
	banks_compute(1, 4, false, &a);
	ck_assert_int_eq(banks_waves(&a, w, 64), 1);
	for (int b = 0; b < 32; b++) {
		ck_assert_int_eq(w[0].lane[b], b);
		ck_assert_int_eq(w[0].lanes[b], 1);
	}
	/* stride 32: 32 waves, each bank 0 alone, lanes in order */
	banks_compute(32, 4, false, &a);
	ck_assert_int_eq(banks_waves(&a, w, 64), 32);
	for (int i = 0; i < 32; i++) {
		ck_assert_int_eq(w[i].lane[0], i);
		for (int b = 1; b < 32; b++)
			ck_assert_int_eq(w[i].lane[b], -1);
	}
	/* stride 2: lanes 0-15 first, then 16-31, in the even banks */
	banks_compute(2, 4, false, &a);
	ck_assert_int_eq(banks_waves(&a, w, 64), 2);
	ck_assert_int_eq(w[0].lane[2], 1);
	ck_assert_int_eq(w[1].lane[2], 17);
	ck_assert_int_eq(w[0].lane[3], -1);
	/* broadcast: one word for every lane */
	banks_compute(0, 4, false, &a);
	ck_assert_int_eq(banks_waves(&a, w, 64), 1);
	ck_assert_int_eq(w[0].lane[0], 0);
	ck_assert_int_eq(w[0].lanes[0], 32);
	/* 16-byte elements: four phases of 8 lanes, each lane in four banks */
	banks_compute(1, 16, false, &a);
	n = banks_waves(&a, w, 64);
	ck_assert_int_eq(n, 4);
	ck_assert_int_eq(w[1].lane[0], 8);
	ck_assert_int_eq(w[1].lane[3], 8);
	/* fewer asked for than there are: the count is still whole */
	banks_compute(32, 4, false, &a);
	ck_assert_int_eq(banks_waves(&a, w, 3), 32);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("banks");
	TCase *tc = tcase_create("banks");

	tcase_add_test(tc, stride_one_is_one_bank_per_lane);
	tcase_add_test(tc, power_of_two_strides_conflict);
	tcase_add_test(tc, odd_strides_do_not_conflict);
	tcase_add_test(tc, padding_removes_the_conflicts);
	tcase_add_test(tc, one_word_is_broadcast);
	tcase_add_test(tc, wide_elements_take_phases);
	tcase_add_test(tc, narrow_elements_share_words);
	tcase_add_test(tc, sweep_kernels_match_the_picture);
	tcase_add_test(tc, kernels_to_accesses);
	tcase_add_test(tc, waves_in_order);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

/* Theoretical occupancy: blocks and warps per multiprocessor from registers and shared memory. */
#include "config.h"

#include <string.h>

#include "check_main.h"
#include "occupancy.h"

static struct occupancy on(const char *arch, int registers, int shared, int block)
{
	struct occupancy o;
	const struct occupancy_arch *a = occupancy_arch_find(arch);

	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(occupancy_compute(a, registers, shared, block, &o), 0);
	return o;
}

START_TEST(full_when_registers_fit)
{
	struct occupancy o = on("sm_90", 32, 0, 1024);

	/* 2048 threads of 32 registers fill the 65536 exactly */
	ck_assert_int_eq(o.blocks, 2);
	ck_assert_int_eq(o.warps, 64);
	ck_assert_double_eq_tol(o.percent, 100.0, 1e-9);
	ck_assert_uint_eq(o.limits, LIMIT_WARPS | LIMIT_REGISTERS);
}
END_TEST

START_TEST(registers_cut_blocks)
{
	/* 40 registers: 1280 per warp, 12 warps per quarter of the file, 48 per SM: one block of 32 warps */
	struct occupancy o = on("sm_90", 40, 0, 1024);

	ck_assert_int_eq(o.blocks, 1);
	ck_assert_int_eq(o.warps, 32);
	ck_assert_uint_eq(o.limits, LIMIT_REGISTERS);
	/* 102 registers round up to 104: 3328 per warp, 4 warps per quarter: 2 blocks of 256 */
	o = on("sm_90", 102, 0, 256);
	ck_assert_int_eq(o.blocks, 2);
	ck_assert_double_eq_tol(o.percent, 25.0, 1e-9);
	/* 32 registers and blocks of 256: 8 blocks, full */
	o = on("sm_90", 32, 0, 256);
	ck_assert_int_eq(o.blocks, 8);
	ck_assert_double_eq_tol(o.percent, 100.0, 1e-9);
}
END_TEST

START_TEST(too_many_registers_cannot_launch)
{
	/* 65 registers round up to 72: 1024 threads would need 73728 */
	struct occupancy o = on("sm_90", 65, 0, 1024);

	ck_assert_int_eq(o.blocks, 0);
	ck_assert_int_eq(o.warps, 0);
	ck_assert(o.limits & LIMIT_REGISTERS);
	o = on("sm_90", 64, 0, 1024);
	ck_assert_int_eq(o.blocks, 1);
	o = on("sm_90", 256, 0, 32);
	ck_assert_int_eq(o.blocks, 0);
}
END_TEST

/* Fewer registers stop helping once the warp or block slots run out (the reference's table 6-2). */
START_TEST(slots_cap_small_kernels)
{
	struct occupancy o = on("sm_90", 16, 0, 64);

	ck_assert_int_eq(o.blocks, 32);
	ck_assert_int_eq(o.warps, 64);
	ck_assert_uint_eq(o.limits, LIMIT_WARPS | LIMIT_BLOCKS);
	o = on("sm_90", 16, 0, 32);
	ck_assert_int_eq(o.blocks, 32);
	ck_assert_double_eq_tol(o.percent, 50.0, 1e-9);
	ck_assert_uint_eq(o.limits, LIMIT_BLOCKS);
	o = on("sm_90", 8, 0, 256);
	ck_assert_int_eq(o.blocks, 8);
	ck_assert_uint_eq(o.limits, LIMIT_WARPS);
}
END_TEST

START_TEST(shared_memory_cuts_blocks)
{
	/* 48 KiB + the 1 KiB the system keeps per block: 4 of them in 228 KiB */
	struct occupancy o = on("sm_90", 8, 48 * 1024, 256);

	ck_assert_int_eq(o.blocks, 4);
	ck_assert_uint_eq(o.limits, LIMIT_SHARED);
	ck_assert_double_eq_tol(o.percent, 50.0, 1e-9);
	/* 8 KiB tiles of the matmul do not limit anything at 1024 threads */
	o = on("sm_90", 32, 8192, 1024);
	ck_assert_int_eq(o.blocks, 2);
	/* no reservation before Ampere; 256-byte steps */
	o = on("sm_75", 8, 16 * 1024 - 100, 128);
	ck_assert_int_eq(o.by_shared, 4);
}
END_TEST

START_TEST(architectures_differ)
{
	/* 1536 threads on sm_86: one block of 1024 is two thirds */
	struct occupancy o = on("sm_86", 32, 0, 1024);

	ck_assert_int_eq(o.blocks, 1);
	ck_assert_int_eq(o.max_warps, 48);
	ck_assert_double_eq_tol(o.percent, 100.0 * 32 / 48, 1e-9);
	o = on("sm_75", 32, 0, 1024);
	ck_assert_int_eq(o.blocks, 1);
	ck_assert_double_eq_tol(o.percent, 100.0, 1e-9);
	o = on("sm_80", 32, 0, 1024);
	ck_assert_int_eq(o.blocks, 2);
	ck_assert_ptr_null(occupancy_arch_find("sm_61"));
	ck_assert_ptr_null(occupancy_arch_find("90"));
}
END_TEST

START_TEST(bad_input_and_limit_names)
{
	struct occupancy o;
	char buf[128];

	ck_assert_int_eq(occupancy_compute(occupancy_arch_find("sm_90"), 32, 0, 0, &o), -1);
	ck_assert_int_eq(occupancy_compute(occupancy_arch_find("sm_90"), 32, 0, 2048, &o), -1);
	ck_assert_int_eq(occupancy_compute(occupancy_arch_find("sm_90"), -1, 0, 64, &o), -1);
	ck_assert_str_eq(occupancy_limits_text(LIMIT_REGISTERS | LIMIT_WARPS, buf, sizeof buf),
	    "registers, warps");
	ck_assert_str_eq(occupancy_limits_text(0, buf, sizeof buf), "");
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("occupancy");
	TCase *tc = tcase_create("occupancy");

	tcase_add_test(tc, full_when_registers_fit);
	tcase_add_test(tc, registers_cut_blocks);
	tcase_add_test(tc, too_many_registers_cannot_launch);
	tcase_add_test(tc, slots_cap_small_kernels);
	tcase_add_test(tc, shared_memory_cuts_blocks);
	tcase_add_test(tc, architectures_differ);
	tcase_add_test(tc, bad_input_and_limit_names);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

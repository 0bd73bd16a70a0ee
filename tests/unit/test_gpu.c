/* GPU tests: every kernel gives the right answer at awkward sizes (skips without a GPU). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "gpu.h"
#include "inspect.h"
#include "measure.h"
#include "occupancy.h"
#include "paths.h"
#include "registry.h"
#include "roofs.h"
#include "session.h"
#include "sweep.h"

/* Non-powers of two, a size of 1, sizes around a chunk, and a large one. */
static const unsigned long long sizes[] = {
	1, 2, 3, 31, 1000, 1023, 1024, 1025, 4097, 8191, 8192, 8193, 65537,
	(1ULL << 20) + 17, 1ULL << 24,
};
static const unsigned int blocks[] = { 1024, 256, 64, 96 };

static struct measure_options quick;

START_TEST(every_kernel_is_correct)
{
	const struct kernel_def *k = &registry_kernels[_i];
	int checked = 0;
	char why[256];

	if (registry_check_gpu(k, gpu_info()->cc_major, gpu_info()->cc_minor, why, sizeof why) != NULL) {
		printf("SKIP %s: %s\n", k->name, why);	/* built for another GPU (sm_90a) */
		return;
	}
	for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
		if (!registry_is_library(k) && registry_check_step(k, 1, blocks[b], why, sizeof why) != NULL)
			continue;
		/* a kernel whose block its experiment's table sets runs the same at every --block */
		if (k->shape == SHAPE_TABLE && b > 0)
			break;
		for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
			struct step_params p = { .size = sizes[s], .block = blocks[b] };
			struct measurement m;
			struct error e = { "" };

			if (sizes[s] > k->experiment->max_size)
				continue;
			int rc = measure_step(k, &p, &quick, &m, &e);

			if (rc != 0 && registry_is_library(k) && strncmp(e.msg, "cuBLAS not found", 16) == 0) {
				printf("SKIP %s: %s\n", k->name, e.msg);	/* a library this machine lacks */
				return;
			}
			ck_assert_msg(rc == 0,
			    "%s size %llu block %u did not run: %s", k->name, p.size, p.block, e.msg);
			if (k->flags & KF_WRONG_BY_DESIGN)
				continue;
			ck_assert_msg(m.check.correct, "%s size %llu block %u: %s", k->name, p.size,
			    p.block, m.check.detail);
			ck_assert(m.ms.median > 0);
			checked++;
		}
	}
	ck_assert_msg(checked > 0 || (k->flags & KF_WRONG_BY_DESIGN), "%s was never checked", k->name);
}
END_TEST

/*
 * The occupancy the tutor computes without a GPU (show --occupancy) is the
 * one the CUDA runtime reports, for every kernel at every block it takes.
 */
START_TEST(occupancy_rules_match_the_runtime)
{
	const struct occupancy_arch *a = occupancy_arch_find(gpu_info()->arch);
	static const unsigned int try_blocks[] = { 32, 64, 96, 128, 256, 512, 1024 };
	int compared = 0;

	if (a == NULL) {
		printf("SKIP occupancy: no rules for %s\n", gpu_info()->arch);
		return;
	}
	for (int i = 0; i < registry_kernel_count; i++) {
		const struct kernel_def *k = &registry_kernels[i];

		if (registry_is_library(k))
			continue;
		for (size_t b = 0; b < sizeof try_blocks / sizeof try_blocks[0]; b++) {
			struct inspect_target t;
			struct kernel_resources res;
			struct occupancy o;
			struct error e = { "" };
			char why[256];
			void *kernel;
			int api = -1, regs = -1;

			if (registry_check_step(k, 1, try_blocks[b], why, sizeof why) != NULL)
				continue;
			ck_assert_int_eq(inspect_resolve(k->name, try_blocks[b], &t, &e), 0);
			if (inspect_resources(&t, gpu_info()->arch, &res, &e) != 0)
				continue;	/* not built for this GPU: it runs JIT-compiled PTX */
			ck_assert_msg(gpu_kernel(k->module, t.symbol, &kernel, &e) == 0, "%s", e.msg);
			ck_assert_msg(gpu_blocks_per_sm(kernel, try_blocks[b], 0, &api, &e) == 0, "%s", e.msg);
			ck_assert_msg(gpu_kernel_registers(kernel, &regs, &e) == 0, "%s", e.msg);
			ck_assert_msg(regs == res.registers, "%s: %d registers, the report says %d",
			    t.symbol, regs, res.registers);
			occupancy_compute(a, res.registers, res.shared_bytes, (int)try_blocks[b], &o);
			ck_assert_msg(o.blocks == api, "%s block %u: the runtime says %d blocks per SM, the tutor %d",
			    t.symbol, try_blocks[b], api, o.blocks);
			compared++;
		}
	}
	printf("occupancy: %d kernel and block pairs agree with the runtime\n", compared);
}
END_TEST

/* A block size the kernel cannot take is refused, not run. */
START_TEST(bad_block_is_refused)
{
	const struct kernel_def *k = registry_find("reduce_complete_unroll_template");
	struct step_params p = { .size = 1000, .block = 96 };
	struct measurement m;
	struct error e = { "" };

	ck_assert_int_ne(measure_step(k, &p, &quick, &m, &e), 0);
	ck_assert_ptr_nonnull(strstr(e.msg, "power of two"));
}
END_TEST

/* A size that cannot fit in the GPU's memory is refused before allocating. */
START_TEST(too_large_is_refused)
{
	const struct kernel_def *k = registry_find("reduce_unroll8");
	struct step_params p = { .size = 1ULL << 31, .block = 1024 };
	struct error e = { "" };
	size_t free_before = 0, free_after = 0, total = 0;

	ck_assert_int_eq(gpu_mem_info(&free_before, &total, &e), 0);
	if (gpu_info()->total_bytes > (size_t)24 << 30)
		return;		/* 2^31 ints fit on this GPU: nothing to refuse */
	ck_assert_int_ne(measure_check_fits(k, &p, &e), 0);
	ck_assert_ptr_nonnull(strstr(e.msg, "smaller --size"));
	ck_assert_int_eq(gpu_mem_info(&free_after, &total, &e), 0);
	ck_assert_uint_eq(free_before, free_after);
}
END_TEST

/* Every step gives back all the memory it took. */
START_TEST(memory_is_returned)
{
	static const char *const kernels[] = { "reduce_neighbored", "reduce_warp_shuffle",
	    "cub_device_reduce_sum", "add_grid_stride" };
	struct step_params p = { .size = (1 << 22) + 5, .block = 1024 };
	size_t before = 0, after = 0, total = 0;
	struct measurement m;
	struct error e = { "" };

	/* the first step keeps the L2 flush buffer for the others */
	ck_assert(measure_step(registry_find("reduce_unroll2"), &p, &quick, &m, &e) == 0);
	ck_assert_int_eq(gpu_mem_info(&before, &total, &e), 0);
	for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
		ck_assert_msg(measure_step(registry_find(kernels[i]), &p, &quick, &m, &e) == 0,
		    "%s: %s", kernels[i], e.msg);
	ck_assert_int_eq(gpu_mem_info(&after, &total, &e), 0);
	ck_assert_msg(after == before, "free memory %zu before, %zu after", before, after);
}
END_TEST

START_TEST(copy_bandwidth_is_plausible)
{
	double gbps = 0;
	struct error e = { "" };

	ck_assert_msg(measure_copy_bandwidth(true, &gbps, &e) == 0, "%s", e.msg);
	ck_assert(gbps > 10 && gbps < 100000);
}
END_TEST

/*
 * The DRAM roofs by mix run and give rates near the copy's: none past the
 * theoretical roof, none under half the copy's (the stream kernels keep
 * enough in flight), reads alone at least as fast as a copy.
 */
START_TEST(dram_mixes_are_plausible)
{
	struct gpu_roofs r = { 0 };
	struct error e = { "" };
	double copy = 0, mix;

	ck_assert_msg(session_roofs(false, &r, NULL, NULL, &e) == 0, "%s", e.msg);
	copy = r.dram_measured_gbps;
	for (int m = MIX_READ; m < DRAM_MIXES; m++) {
		ck_assert_msg(measure_dram_mix((enum dram_mix)m, true, &mix, &e) == 0, "%s: %s", roofs_mix_name(m), e.msg);
		printf("DRAM %s: %.1f GB/s (copy %.1f, theory %.1f)\n", roofs_mix_name(m), mix, copy, r.dram_theoretical_gbps);
		ck_assert_msg(mix > copy / 2 && mix < r.dram_theoretical_gbps * 1.02, "%s: %.1f GB/s", roofs_mix_name(m), mix);
		if (m == MIX_READ)
			ck_assert_msg(mix > copy * 0.98, "reads alone at %.1f GB/s, slower than the copy's %.1f", mix, copy);
	}
}
END_TEST

/* The FP32 ceiling runs and gives a rate; the driver tells the clocks the theoretical roofs need. */
START_TEST(fp32_ceiling_is_plausible)
{
	const struct gpu_info *g = gpu_info();
	struct gpu_roofs r = { 0 };
	double gflops = 0;
	struct error e = { "" };

	ck_assert_msg(roofs_measure_fp32(true, &gflops, &e) == 0, "%s", e.msg);
	ck_assert(gflops > 10 && gflops < 1e7);
	ck_assert(g->sm_clock_max_khz > 0 && g->mem_clock_max_khz > 0 && g->bus_width_bits > 0);
	roofs_theoretical(&r, g->arch, g->sm_count, g->sm_clock_max_khz / 1000, g->mem_clock_max_khz / 1000,
	    g->bus_width_bits);
	if (r.fp32_lanes_per_sm > 0)
		ck_assert(r.fp32_theoretical_gflops > 0);
	ck_assert(r.dram_theoretical_gbps > 0);
}
END_TEST

/* The pointer chase: a load that misses L2 takes 100 ns to 3 us, one that hits it less. */
START_TEST(load_latency_is_plausible)
{
	double dram = 0, l2 = 0;
	struct error e = { "" };

	ck_assert_msg(roofs_measure_latency(true, &dram, &l2, &e) == 0, "%s", e.msg);
	ck_assert_msg(dram > 100 && dram < 3000, "DRAM %.1f ns", dram);
	ck_assert_msg(l2 > 0 && l2 < dram, "L2 %.1f ns, DRAM %.1f ns", l2, dram);
}
END_TEST

/* A tiny sweep, 2^10..2^14, of two vectorize steps and one unrolling step: every point runs, the L2 is known. */
START_TEST(a_tiny_sweep)
{
	static const char *const ids[] = { "vectorize", "unrolling" };
	struct lesson_set set = { 0 };
	struct error e = { "" };
	unsigned long long *sizes;
	int n;

	paths_init();
	ck_assert_msg(lesson_load_all("en", &set, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(sweep_parse_values("2^10..2^14", false, &sizes, &n, &e), 0);
	ck_assert_int_eq(n, 3);
	for (size_t j = 0; j < 2; j++) {
		const struct lesson *l = lesson_find(&set, ids[j]);
		const int steps[] = { 0, 2 };
		struct sweep s;

		ck_assert_ptr_nonnull(l);
		ck_assert_msg(sweep_run(l, steps, j == 0 ? 2 : 1, SWEEP_SIZE, sizes, n, 0, 256, &quick, NULL, &s, &e) == 0,
		    "%s", e.msg);
		ck_assert(s.gpu.l2_bytes > 0 && s.block == 256 && s.date[0] != '\0');
		for (int i = 0; i < s.nsteps; i++) {
			ck_assert_int_eq(s.steps[i].npoints, 3);
			ck_assert(s.steps[i].bytes_per_element > 0);
			for (int k = 0; k < 3; k++) {
				const struct sweep_point *p = &s.steps[i].points[k];
				char why[256];

				/* a size the kernel does not take is said, not run */
				if (session_step_unfit(l, s.steps[i].step - 1, p->size, 256, why, sizeof why) != NULL) {
					ck_assert(!p->ran && p->error[0] != '\0');
					continue;
				}
				ck_assert_msg(p->ran && p->correct && p->rate > 0 && p->median_ms > 0,
				    "%s step %d at %llu: %s", ids[j], s.steps[i].step, p->size, p->error);
			}
			ck_assert(s.steps[i].points[2].ran);
		}
		if (j == 0)
			ck_assert(s.steps[0].bytes_per_element == 12);
		sweep_free(&s);
	}
	free(sizes);
	lesson_set_free(&set);
}
END_TEST

/*
 * The tensor ceilings run and give a rate: mma.sync from compute
 * capability 8.0, and on a 9.0 Hopper's wgmma too; the one `roofs` keeps
 * is at most the spec's (5% over for the clock it may boost past).
 */
START_TEST(tensor_ceiling_is_plausible)
{
	const struct gpu_info *g = gpu_info();
	struct gpu_roofs r = { 0 };
	enum roofs_tensor_kernel k;
	double mma = 0, wgmma = 0, best = 0, random = 0;
	struct error e = { "" };

	if (g->cc_major < 8) {
		ck_assert(roofs_measure_tensor(true, &best, &k, &e) != 0);
		return;
	}
	ck_assert_msg(roofs_measure_tensor_kernel(TENSOR_MMA, false, &mma, &e) == 0, "%s", e.msg);
	ck_assert_msg(mma > 1000 && mma < 1e8, "%f GFLOP/s", mma);
	ck_assert(roofs_measure_tensor_kernel(TENSOR_MMA, true, &random, &e) != 0);
	if (g->cc_major == 9 && g->cc_minor == 0) {
		ck_assert_msg(roofs_measure_tensor_kernel(TENSOR_WGMMA, false, &wgmma, &e) == 0, "%s", e.msg);
		ck_assert_msg(wgmma > 1000 && wgmma < 1e8, "%f GFLOP/s", wgmma);
		/* random bits cost power, and under the cap, clock: never faster than near-constant ones by more than noise */
		ck_assert_msg(roofs_measure_tensor_random(true, &random, &e) == 0, "%s", e.msg);
		ck_assert_msg(random > 0.5 * wgmma && random < 1.03 * wgmma, "random %f, near-constant %f GFLOP/s",
		    random, wgmma);
	} else {
		ck_assert(roofs_measure_tensor_random(true, &random, &e) != 0);
	}
	ck_assert_msg(roofs_measure_tensor(true, &best, &k, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(k, g->cc_major == 9 && g->cc_minor == 0 ? TENSOR_WGMMA : TENSOR_MMA);
	roofs_theoretical(&r, g->arch, g->sm_count, g->sm_clock_max_khz / 1000, g->mem_clock_max_khz / 1000,
	    g->bus_width_bits);
	if (r.tensor_spec_gflops > 0)
		ck_assert_msg(best <= r.tensor_spec_gflops * 1.05, "%f of %f", best, r.tensor_spec_gflops);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("gpu");
	TCase *tc = tcase_create("kernels");

	measure_default_options(&quick);
	quick.warmup = 1;
	quick.min_reps = quick.max_reps = 2;
	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, every_kernel_is_correct, 0, registry_kernel_count);
	tcase_add_test(tc, occupancy_rules_match_the_runtime);
	tcase_add_test(tc, bad_block_is_refused);
	tcase_add_test(tc, too_large_is_refused);
	tcase_add_test(tc, copy_bandwidth_is_plausible);
	tcase_add_test(tc, dram_mixes_are_plausible);
	tcase_add_test(tc, fp32_ceiling_is_plausible);
	tcase_add_test(tc, load_latency_is_plausible);
	tcase_add_test(tc, tensor_ceiling_is_plausible);
	tcase_add_test(tc, memory_is_returned);
	tcase_add_test(tc, a_tiny_sweep);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN_GPU(make_suite)

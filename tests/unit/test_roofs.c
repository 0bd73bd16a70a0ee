/* The roofs: the tables and formulas, where a step stands, recorded files with and without them, the ceilings' SASS, Little's law. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "diagnosis.h"
#include "inspect.h"
#include "paths.h"
#include "registry.h"
#include "results.h"
#include "roofs.h"
#include "sass.h"

#define near(a, b) (fabs((double)(a) - (double)(b)) < 1e-6 * (fabs((double)(b)) + 1))

/* The H100 SXM as NVML reports it: the formulas give its published 3.35 TB/s and 67 TFLOP/s. */
START_TEST(h100_from_its_clocks)
{
	struct gpu_roofs r = { 0 };

	roofs_theoretical(&r, "sm_90", 132, 1980, 2619, 5120);
	ck_assert(r.have);
	ck_assert_msg(near(r.dram_theoretical_gbps, 3352.32), "%f", r.dram_theoretical_gbps);
	ck_assert_msg(near(r.fp32_theoretical_gflops, 66908.16), "%f", r.fp32_theoretical_gflops);
	/* 4096 per clock per SM: 989 TFLOP/s at the 1830 MHz of NVIDIA's figure */
	ck_assert_msg(near(r.tensor_spec_gflops, 132.0 * 4096 * 1980 / 1e3), "%f", r.tensor_spec_gflops);
	ck_assert_int_eq(r.fp32_lanes_per_sm, 128);
	ck_assert(near(132.0 * roofs_tensor_per_clock(9, 0) * 1830 / 1e6, 989.42976));
	/* 32 banks of 4 bytes and 4 warp schedulers a clock on each of 132 SMs */
	ck_assert_msg(near(roofs_shared_gbps(&r), 132.0 * 128 * 1980 / 1e3), "%f", roofs_shared_gbps(&r));
	ck_assert_msg(near(roofs_issue_ginst(&r), 132.0 * 4 * 1980 / 1e3), "%f", roofs_issue_ginst(&r));
	/* what is unknown stays unknown */
	roofs_theoretical(&r, "sm_50", 16, 1000, 0, 256);
	ck_assert(r.dram_theoretical_gbps == 0 && r.fp32_theoretical_gflops == 0 && r.tensor_spec_gflops == 0);
	r.sm_clock_max_mhz = 0;
	ck_assert(roofs_shared_gbps(&r) == 0 && roofs_issue_ginst(&r) == 0);
}
END_TEST

/* Held to the shared-memory or the issue roof: the percentage changes, the point on the roofline does not. */
START_TEST(held_to_another_roof)
{
	struct gpu_roofs r = { 0 };
	struct roof_point p;

	roofs_theoretical(&r, "sm_90", 132, 1980, 2619, 5120);
	r.dram_measured_gbps = 3000;
	r.fp32_measured_gflops = 60000;
	roofs_place(&r, 1e9, 1e8, 1.0, &p);
	ck_assert_int_eq(p.limiter, ROOF_DRAM);
	roofs_hold(&r, ROOF_ISSUE, 1045.44 * 0.5, &p);
	ck_assert_int_eq(p.limiter, ROOF_ISSUE);
	ck_assert_msg(near(p.pct_of_roof, 50) && near(p.pct_of_theoretical, 50), "%f", p.pct_of_roof);
	ck_assert(near(p.intensity, 0.1) && near(p.gflops, 100));
	ck_assert_str_eq(roofs_limiter_name(p.limiter), "issue");
	ck_assert_str_eq(roofs_limiter_unit(p.limiter), "Ginst/s");
	roofs_hold(&r, ROOF_SHARED, 33454.08 * 0.77, &p);
	ck_assert(p.limiter == ROOF_SHARED && near(p.pct_of_roof, 77));
	/* past 105% of it: a measurement error, as under any roof */
	roofs_hold(&r, ROOF_SHARED, 33454.08 * 1.06, &p);
	ck_assert(p.roof_exceeded);
	/* a shared-memory step: no point on the DRAM roofline */
	roofs_place_shared(&r, 33454.08e9 * 0.8 * 1e-3, 1.0, &p);
	ck_assert(p.have && p.limiter == ROOF_SHARED && near(p.pct_of_roof, 80) && p.intensity == 0 && p.gflops == 0);
}
END_TEST

/*
 * "Faster than the roof allows" at its edge, under each way a step is
 * placed: exactly ROOFS_EXCEEDED_PCT of the roof is within it, one part
 * in 10^12 past it is not.  The figures are chosen so that the percentage
 * comes out as exactly 105.0.
 */
START_TEST(roof_exceeded_at_its_edge)
{
	struct gpu_roofs r = { 0 };
	struct roof_point p;

	ck_assert(ROOFS_EXCEEDED_PCT == 105.0);
	/* one SM at 1000 MHz: a shared-memory roof of 128 GB/s, an issue roof of 4 Ginst/s */
	roofs_theoretical(&r, "sm_90", 1, 1000, 0, 0);
	r.dram_measured_gbps = 3000;
	r.fp32_measured_gflops = 60000;
	roofs_place_shared(&r, 134.4e6, 1.0, &p);
	ck_assert(p.pct_of_roof == 105.0 && !p.roof_exceeded);
	roofs_place_shared(&r, 134.4e6 * (1 + 1e-12), 1.0, &p);
	ck_assert(p.roof_exceeded);
	roofs_place(&r, 1e9, 1e8, 1.0, &p);
	roofs_hold(&r, ROOF_ISSUE, 4.2, &p);
	ck_assert(p.limiter == ROOF_ISSUE && p.pct_of_roof == 105.0 && !p.roof_exceeded);
	roofs_hold(&r, ROOF_ISSUE, 4.2 * (1 + 1e-12), &p);
	ck_assert(p.roof_exceeded);

	/* DRAM, against the measured roof */
	roofs_place(&r, 3.15e9, 0, 1.0, &p);
	ck_assert(p.limiter == ROOF_DRAM && p.pct_of_roof == 105.0 && !p.roof_exceeded);
	roofs_place(&r, 3.15e9 * (1 + 1e-12), 0, 1.0, &p);
	ck_assert(p.roof_exceeded);
	/* no measured roof: the theoretical one judges */
	r.dram_measured_gbps = 0;
	r.dram_theoretical_gbps = 4000;
	roofs_place(&r, 4.2e9, 0, 1.0, &p);
	ck_assert(p.roof == 0 && p.pct_of_theoretical == 105.0 && !p.roof_exceeded);
	roofs_place(&r, 4.2e9 * (1 + 1e-12), 0, 1.0, &p);
	ck_assert(p.roof_exceeded);
}
END_TEST

START_TEST(lanes_by_compute_capability)
{
	int major, minor;

	ck_assert_int_eq(roofs_fp32_lanes(7, 5), 64);
	ck_assert_int_eq(roofs_fp32_lanes(8, 0), 64);
	ck_assert_int_eq(roofs_fp32_lanes(8, 6), 128);
	ck_assert_int_eq(roofs_fp32_lanes(8, 9), 128);
	ck_assert_int_eq(roofs_fp32_lanes(9, 0), 128);
	ck_assert_int_eq(roofs_fp32_lanes(10, 0), 128);
	ck_assert_int_eq(roofs_fp32_lanes(12, 0), 128);
	ck_assert_int_eq(roofs_fp32_lanes(6, 1), 0);
	ck_assert_int_eq(roofs_tensor_per_clock(8, 0), 2048);
	ck_assert_int_eq(roofs_tensor_per_clock(8, 6), 0);
	ck_assert(roofs_parse_arch("sm_90", &major, &minor) && major == 9 && minor == 0);
	ck_assert(roofs_parse_arch("sm_120", &major, &minor) && major == 12 && minor == 0);
	ck_assert(roofs_parse_arch("sm_86", &major, &minor) && major == 8 && minor == 6);
	ck_assert(!roofs_parse_arch("compute_90", &major, &minor));
	ck_assert(!roofs_parse_arch("sm_", &major, &minor));
}
END_TEST

static void hand_made(struct gpu_roofs *r)
{
	memset(r, 0, sizeof *r);
	r->have = true;
	r->dram_measured_gbps = 3000;
	r->dram_theoretical_gbps = 4000;
	r->fp32_measured_gflops = 60000;
	r->fp32_theoretical_gflops = 80000;
}

START_TEST(limiter_intensity_and_percent)
{
	struct gpu_roofs r;
	struct roof_point p;

	hand_made(&r);
	ck_assert(near(roofs_ridge(&r, true), 20.0));
	ck_assert(near(roofs_ridge(&r, false), 20.0));
	/* a vector add: 12 bytes and one add an element, 2^28 of them in 1.2 ms */
	roofs_place(&r, 12.0 * (1 << 28), 1 << 28, 1.2, &p);
	ck_assert(p.have);
	ck_assert_int_eq(p.limiter, ROOF_DRAM);
	ck_assert(near(p.intensity, 1.0 / 12));
	ck_assert(near(p.roof, 3000) && near(p.roof_theoretical, 4000));
	ck_assert_msg(near(p.pct_of_roof, 12.0 * (1 << 28) / 1.2e-3 / 1e9 / 3000 * 100), "%f", p.pct_of_roof);
	ck_assert(near(p.pct_of_theoretical, p.pct_of_roof * 3000 / 4000));
	ck_assert(!p.roof_exceeded);
	ck_assert_str_eq(roofs_limiter_name(p.limiter), "dram");
	ck_assert_str_eq(roofs_limiter_unit(p.limiter), "GB/s");
	/* a matrix product: 1e12 FLOPs on 2e8 bytes in 20 ms is 50000 GFLOP/s */
	roofs_place(&r, 2e8, 1e12, 20, &p);
	ck_assert_int_eq(p.limiter, ROOF_FP32);
	ck_assert(near(p.intensity, 5000));
	ck_assert(near(p.roof, 60000));
	ck_assert(near(p.pct_of_roof, 50000.0 / 60000 * 100));
	ck_assert(near(p.pct_of_theoretical, 62.5));
	ck_assert_str_eq(roofs_limiter_unit(p.limiter), "GFLOP/s");
	/* at the ridge both roofs bind: memory is named */
	roofs_place(&r, 1e9, 2e10, 1, &p);
	ck_assert_int_eq(p.limiter, ROOF_DRAM);
	/* faster than the roof allows: flagged, at 105% and not below */
	roofs_place(&r, 3e9, 0, 0.5, &p);
	ck_assert(near(p.pct_of_roof, 200) && p.roof_exceeded);
	roofs_place(&r, 3.15e9, 0, 1.0, &p);
	ck_assert(near(p.pct_of_roof, 105) && !p.roof_exceeded);
	roofs_place(&r, 3.16e9, 0, 1.0, &p);
	ck_assert(p.roof_exceeded);
}
END_TEST

START_TEST(unknown_roofs_are_never_made_up)
{
	struct gpu_roofs r = { 0 };
	struct roof_point p;

	roofs_place(&r, 1e9, 1e9, 1, &p);
	ck_assert(!p.have);
	roofs_place(NULL, 1e9, 1e9, 1, &p);
	ck_assert(!p.have);
	/* no bytes or no time: nothing to place */
	hand_made(&r);
	roofs_place(&r, 0, 1e9, 1, &p);
	ck_assert(!p.have);
	roofs_place(&r, 1e9, 1e9, 0, &p);
	ck_assert(!p.have);
	/* theoretical roofs alone: the limiter from their ridge, no measured roof or percentage of it */
	r.dram_measured_gbps = r.fp32_measured_gflops = 0;
	roofs_place(&r, 4e9, 4e9, 2, &p);
	ck_assert(p.have);
	ck_assert_int_eq(p.limiter, ROOF_DRAM);
	ck_assert(p.roof == 0 && p.pct_of_roof == 0);
	ck_assert(near(p.pct_of_theoretical, 50));
	/* the FP32 ceiling not measured: the ridge of the theoretical roofs, the DRAM roof measured */
	hand_made(&r);
	r.fp32_measured_gflops = 0;
	roofs_place(&r, 1e9, 1e11, 10, &p);
	ck_assert_int_eq(p.limiter, ROOF_FP32);
	ck_assert(p.roof == 0 && near(p.pct_of_theoretical, 12.5));
}
END_TEST

START_TEST(json_both_ways)
{
	struct gpu_roofs r, back;
	struct gpu_clocks c = { true, 1755, 2619, 41 }, cb;
	struct error e;
	json_t *o;

	hand_made(&r);
	roofs_theoretical(&r, "sm_90", 132, 1980, 2619, 5120);
	snprintf(r.clock_source, sizeof r.clock_source, "nvml");
	o = roofs_to_json(&r);
	ck_assert(json_is_object(o));
	ck_assert(json_is_null(json_object_get(o, "tensor_bf16_measured_gflops")));
	ck_assert(near(json_real_value(json_object_get(o, "ridge_measured")), 20));
	ck_assert_int_eq(roofs_from_json(o, "f", &back, &e), 0);
	ck_assert(back.have && near(back.dram_theoretical_gbps, r.dram_theoretical_gbps) &&
	    near(back.fp32_measured_gflops, 60000) && back.bus_width_bits == 5120 &&
	    strcmp(back.clock_source, "nvml") == 0);
	ck_assert(back.tensor_measured_gflops == 0 && back.tensor_kernel == TENSOR_NONE);
	ck_assert(json_is_null(json_object_get(o, "tensor_bf16_random_gflops")) && back.tensor_random_gflops == 0);
	/* no mix measured: null, and 0 back */
	ck_assert(json_is_null(json_object_get(o, "dram_read_gbps")));
	ck_assert(back.dram_mix_gbps[MIX_READ] == 0 && back.dram_mix_gbps[MIX_WRITE] == 0);
	json_decref(o);
	/* the DRAM roofs by mix, under their names */
	r.dram_mix_gbps[MIX_READ] = 3150;
	r.dram_mix_gbps[MIX_ADD] = 3050;
	r.dram_mix_gbps[MIX_WRITE] = 2900;
	o = roofs_to_json(&r);
	ck_assert(near(json_real_value(json_object_get(o, "dram_read2_write1_gbps")), 3050));
	ck_assert_int_eq(roofs_from_json(o, "f", &back, &e), 0);
	ck_assert(near(back.dram_mix_gbps[MIX_READ], 3150) && near(back.dram_mix_gbps[MIX_ADD], 3050) &&
	    near(back.dram_mix_gbps[MIX_WRITE], 2900) && back.dram_mix_gbps[MIX_COPY] == 0);
	/* more than any GPU's: damage */
	json_object_set_new(o, "dram_write_gbps", json_real(1e308));
	ck_assert_int_ne(roofs_from_json(o, "f", &back, &e), 0);
	ck_assert_msg(strstr(e.msg, "roofs.dram_write_gbps") != NULL, "%s", e.msg);
	json_decref(o);
	memset(r.dram_mix_gbps, 0, sizeof r.dram_mix_gbps);
	/* the tensor ceiling, and which kernel measured it */
	r.tensor_measured_gflops = 700000;
	r.tensor_kernel = TENSOR_WGMMA;
	o = roofs_to_json(&r);
	ck_assert_str_eq(json_string_value(json_object_get(o, "tensor_bf16_measured_by")),
	    "tensor_wgmma_ceiling (kernels/roofs_hopper.cu)");
	ck_assert_int_eq(roofs_from_json(o, "f", &back, &e), 0);
	ck_assert(near(back.tensor_measured_gflops, 700000) && back.tensor_kernel == TENSOR_WGMMA);
	json_decref(o);
	/* and on random operands, under its own name */
	r.tensor_random_gflops = 660000;
	o = roofs_to_json(&r);
	ck_assert(near(json_real_value(json_object_get(o, "tensor_bf16_random_gflops")), 660000));
	ck_assert_int_eq(roofs_from_json(o, "f", &back, &e), 0);
	ck_assert(near(back.tensor_random_gflops, 660000) && near(back.tensor_measured_gflops, 700000));
	json_object_set_new(o, "tensor_bf16_random_gflops", json_real(2e9));
	ck_assert_int_ne(roofs_from_json(o, "f", &back, &e), 0);
	ck_assert_msg(strstr(e.msg, "roofs.tensor_bf16_random_gflops") != NULL, "%s", e.msg);
	json_object_set_new(o, "tensor_bf16_random_gflops", json_real(660000));
	/* a figure that is not a number: the file is damaged */
	json_object_set_new(o, "dram_measured_gbps", json_string("fast"));
	ck_assert_int_eq(roofs_from_json(o, "f.json", &back, &e), -1);
	ck_assert_msg(strstr(e.msg, "f.json: 'roofs'") != NULL, "%s", e.msg);
	/* a figure no GPU has (it would break every column): damaged, and said which; 1 PB/s is the edge */
	json_object_set_new(o, "dram_measured_gbps", json_real(1e308));
	ck_assert_int_eq(roofs_from_json(o, "f.json", &back, &e), -1);
	ck_assert_msg(strstr(e.msg, "roofs.dram_measured_gbps is 1e+308, more than any GPU's") != NULL, "%s", e.msg);
	ck_assert(!back.have);
	json_object_set_new(o, "dram_measured_gbps", json_real(1e6));
	ck_assert_int_eq(roofs_from_json(o, "f.json", &back, &e), 0);
	json_object_set_new(o, "dram_measured_gbps", json_real(1.0001e6));
	ck_assert_int_eq(roofs_from_json(o, "f.json", &back, &e), -1);
	json_object_set_new(o, "fp32_measured_gflops", json_real(2e9));
	json_object_set_new(o, "dram_measured_gbps", json_real(3000));
	ck_assert_int_eq(roofs_from_json(o, "f.json", &back, &e), -1);
	ck_assert_msg(strstr(e.msg, "roofs.fp32_measured_gflops") != NULL, "%s", e.msg);
	json_decref(o);
	/* none: unknown, and no error */
	ck_assert_int_eq(roofs_from_json(NULL, "f", &back, &e), 0);
	ck_assert(!back.have);
	o = json_null();
	ck_assert_int_eq(roofs_from_json(o, "f", &back, &e), 0);
	ck_assert(!back.have);
	memset(&r, 0, sizeof r);
	ck_assert(json_is_null(roofs_to_json(&r)));
	/* the clocks of a run */
	o = roofs_clocks_to_json(&c);
	ck_assert_int_eq(roofs_clocks_from_json(o, &cb), 0);
	ck_assert(cb.have && cb.sm_mhz == 1755 && cb.mem_mhz == 2619 && cb.temperature_c == 41);
	json_decref(o);
	c.temperature_c = -1;
	o = roofs_clocks_to_json(&c);
	ck_assert(json_is_null(json_object_get(o, "temperature_c")));
	ck_assert_int_eq(roofs_clocks_from_json(o, &cb), 0);
	ck_assert_int_eq(cb.temperature_c, -1);
	json_decref(o);
}
END_TEST

/* The loader: a fixture file with roofs puts every step on them; one without leaves them unknown. */
START_TEST(recorded_files_with_and_without_roofs)
{
	char *with = paths_source("tests/fixtures/results-roofs.json");
	char *without = paths_source("tests/fixtures/results-metrics.json");
	struct results_file f;
	struct error e;

	ck_assert_msg(results_file_load(with, &f, &e) == 0, "%s", e.msg);
	ck_assert(f.roofs.have);
	ck_assert(near(f.roofs.dram_measured_gbps, 1000) && near(f.roofs.fp32_measured_gflops, 800));
	ck_assert(near(f.roofs.dram_theoretical_gbps, 1024) && near(f.roofs.tensor_spec_gflops, 16384));
	ck_assert_int_eq(f.roofs.sm_clock_max_mhz, 1000);
	ck_assert_int_ge(f.nruns, 2);
	for (int i = 0; i < f.runs[0].nsteps; i++) {
		const struct step_result *s = &f.runs[0].steps[i];

		ck_assert(f.runs[0].roofs.have);
		ck_assert_msg(s->roof.have, "step %d", i + 1);
		ck_assert_int_eq(s->roof.limiter, ROOF_DRAM);
		ck_assert(near(s->roof.intensity, 0.25));	/* one add per 4-byte int */
		/* a sum only reads: held to the theoretical DRAM roof, not the copy's */
		ck_assert(near(s->roof.pct_of_roof, s->gbps / 1024 * 100));
		ck_assert(near(s->roof.roof, 1024));
	}
	/* the clocks as the run began and ended; none recorded for the first run */
	ck_assert(!f.runs[0].clocks_start.have && !f.runs[0].clocks_end.have);
	ck_assert(f.runs[1].clocks_start.have && f.runs[1].clocks_start.sm_mhz == 1980 &&
	    f.runs[1].clocks_start.temperature_c == 38);
	ck_assert(f.runs[1].clocks_end.have && f.runs[1].clocks_end.sm_mhz == 1755 &&
	    f.runs[1].clocks_end.temperature_c == -1);
	ck_assert_int_eq(f.runs[1].steps[0].roof.limiter, ROOF_FP32);
	ck_assert(near(f.runs[1].steps[0].roof.pct_of_roof, 80));
	ck_assert(f.runs[1].steps[1].roof.roof_exceeded);
	results_file_free(&f);

	ck_assert_msg(results_file_load(without, &f, &e) == 0, "%s", e.msg);
	ck_assert(!f.roofs.have);
	for (int i = 0; i < f.runs[0].nsteps; i++)
		ck_assert(!f.runs[0].steps[i].roof.have);
	results_file_free(&f);
	free(with);
	free(without);
}
END_TEST

/*
 * What the window shows of the traffic: bytes still in L2 when it closes
 * do not count as DRAM's work in it, and a read-only step meets the
 * theoretical roof.
 */
START_TEST(traffic_in_the_window)
{
	struct gpu_roofs r = { .have = true, .dram_measured_gbps = 3000, .dram_theoretical_gbps = 3350,
		.fp32_measured_gflops = 66000, .fp32_theoretical_gflops = 67000 };
	struct roof_traffic t = { 0 };
	struct roof_point p;

	/* 3.15 GB in a millisecond: 105% of the copy, over it with the must-move bytes alone */
	roofs_place_step(&r, 3.16e9, 0, 1.0, &t, &p);
	ck_assert(p.roof_exceeded);
	t.dram_bytes = 2.9e9;		/* the counters: 0.26 GB stayed in L2 */
	roofs_place_step(&r, 3.16e9, 0, 1.0, &t, &p);
	ck_assert(!p.roof_exceeded && near(p.pct_of_roof, 2900.0 / 3000 * 100));
	ck_assert(near(p.intensity, 0));
	t.dram_bytes = 4e9;		/* more than it must move (over-fetch): the work still counts */
	roofs_place_step(&r, 3e9, 0, 1.0, &t, &p);
	ck_assert(near(p.pct_of_roof, 100));
	t = (struct roof_traffic){ .mix = MIX_READ };
	roofs_place_step(&r, 3.2e9, 0, 1.0, &t, &p);
	ck_assert(!p.roof_exceeded && near(p.roof, 3350) && near(p.pct_of_roof, 3200.0 / 3350 * 100));
	roofs_place_step(&r, 3.2e9, 0, 1.0, NULL, &p);
	ck_assert(p.roof_exceeded);
	/* each mix measured: each step held to its own, the copy's and the theory's no more */
	r.dram_mix_gbps[MIX_READ] = 3200;
	r.dram_mix_gbps[MIX_ADD] = 3100;
	r.dram_mix_gbps[MIX_WRITE] = 2900;
	roofs_place_step(&r, 3.2e9, 0, 1.0, &t, &p);
	ck_assert(near(p.roof, 3200) && near(p.pct_of_roof, 100));
	t.mix = MIX_ADD;
	roofs_place_step(&r, 3.1e9 * 0.9, 0, 1.0, &t, &p);
	ck_assert(near(p.roof, 3100) && near(p.pct_of_roof, 90));
	t.mix = MIX_WRITE;
	roofs_place_step(&r, 2.9e9, 0, 1.0, &t, &p);
	ck_assert(near(p.roof, 2900) && near(p.pct_of_roof, 100));
	t.mix = MIX_COPY;
	roofs_place_step(&r, 2.9e9, 0, 1.0, &t, &p);
	ck_assert(near(p.roof, 3000));
	/* a mix not measured: the copy's, as before */
	r.dram_mix_gbps[MIX_ADD] = 0;
	t.mix = MIX_ADD;
	roofs_place_step(&r, 2.9e9, 0, 1.0, &t, &p);
	ck_assert(near(p.roof, 3000));
	ck_assert_str_eq(roofs_mix_name(MIX_ADD), "read2_write1");
}
END_TEST

/* A step of the experiment "tensor": above its ridge the tensor roof, its limiter "tensor". */
START_TEST(tensor_steps_meet_the_tensor_roof)
{
	struct gpu_roofs r = { .have = true, .dram_measured_gbps = 3000, .dram_theoretical_gbps = 3350,
		.fp32_measured_gflops = 66000, .fp32_theoretical_gflops = 67000,
		.tensor_measured_gflops = 660000, .tensor_spec_gflops = 1000000 };
	struct roof_traffic t = { .tensor = true };
	struct roof_point p;

	/* a 4096^3 BF16 product, 2 x 4096^3 FLOPs over 3 x 4096^2 x 2 bytes, in 0.25 ms */
	roofs_place_step(&r, 3.0 * 4096 * 4096 * 2, 2.0 * 4096 * 4096 * 4096, 0.25, &t, &p);
	ck_assert_int_eq(p.limiter, ROOF_TENSOR);
	ck_assert_str_eq(roofs_limiter_name(p.limiter), "tensor");
	ck_assert_str_eq(roofs_limiter_unit(p.limiter), "GFLOP/s");
	ck_assert(near(p.roof, 660000) && near(p.roof_theoretical, 1000000));
	ck_assert(near(p.pct_of_roof, p.gflops / 660000 * 100) && !p.roof_exceeded);
	/* the same step outside the tensor experiment: the FP32 roof, far exceeded */
	roofs_place_step(&r, 3.0 * 4096 * 4096 * 2, 2.0 * 4096 * 4096 * 4096, 0.25, NULL, &p);
	ck_assert_int_eq(p.limiter, ROOF_FP32);
	ck_assert(p.roof_exceeded);
	/* below the tensor ridge (220 FLOP per byte here): DRAM */
	roofs_place_step(&r, 1e9, 1e11, 1, &t, &p);
	ck_assert_int_eq(p.limiter, ROOF_DRAM);
	ck_assert(p.tensor);
	/* no ceiling measured: the spec's figure is the roof, never none (0%) */
	r.tensor_measured_gflops = 0;
	ck_assert(near(roofs_tensor_ridge(&r), 1000000.0 / 3000));
	roofs_place_step(&r, 3.0 * 4096 * 4096 * 2, 2.0 * 4096 * 4096 * 4096, 0.25, &t, &p);
	ck_assert_int_eq(p.limiter, ROOF_TENSOR);
	ck_assert(near(p.roof, 1000000) && near(p.pct_of_roof, p.gflops / 1000000 * 100) && p.pct_of_roof > 0);
	/* neither: no tensor roof; the FP32 one holds, as for any other step */
	r.tensor_spec_gflops = 0;
	ck_assert(roofs_tensor_ridge(&r) == 0);
	roofs_place_step(&r, 3.0 * 4096 * 4096 * 2, 2.0 * 4096 * 4096 * 4096, 0.25, &t, &p);
	ck_assert_int_eq(p.limiter, ROOF_FP32);
}
END_TEST

/* Whether kernel is a step of the experiment "tensor": its arithmetic runs on tensor cores. */
static bool tensor_kernel(const char *kernel)
{
	const struct kernel_def *k = registry_find(kernel);

	return k != NULL && strcmp(k->experiment->name, "tensor") == 0;
}

/*
 * A tensor-core step is held to the tensor roof (the measured ceiling,
 * else the spec's) above the tensor ridge, and to DRAM's below it: never
 * to the FP32 roof.
 */
static void tensor_step_roof(const char *rel, const struct gpu_roofs *g, const struct step_result *s)
{
	double ridge = roofs_tensor_ridge(g);

	ck_assert_msg(s->roof.tensor, "%s: %s not placed as a tensor-core step", rel, s->kernel);
	ck_assert_msg(ridge > 0, "%s: tensor steps, and neither a measured tensor ceiling nor a spec figure", rel);
	if (s->roof.intensity > ridge) {
		ck_assert_int_eq(s->roof.limiter, ROOF_TENSOR);
		ck_assert(near(s->roof.roof, roofs_tensor_roof(g, NULL)));
	} else {
		ck_assert_int_eq(s->roof.limiter, ROOF_DRAM);
	}
}

/* Every step of both recorded GPUs lies under its roof: 0 < pct <= 105, never flagged. */
static void within_roof(const char *rel, int at_least)
{
	char *path = paths_source(rel);
	struct results_file f;
	struct error e;
	int placed = 0;

	ck_assert_msg(results_file_load(path, &f, &e) == 0, "%s", e.msg);
	ck_assert(f.roofs.have);
	for (int i = 0; i < f.nruns; i++)
		for (int j = 0; j < f.runs[i].nsteps; j++) {
			const struct step_result *s = &f.runs[i].steps[j];

			/* every step that ran has a roof, the shared-memory sweep's too */
			ck_assert_msg(!s->ran || s->library || s->roof.have, "%s: %s step %d %s has no roof", rel,
			    f.runs[i].lesson, s->step, s->kernel);
			if (!s->roof.have)
				continue;
			ck_assert_msg(!s->roof.roof_exceeded && s->roof.pct_of_roof > 0 &&
			    s->roof.pct_of_roof <= ROOFS_EXCEEDED_PCT, "%s: %s (size %llu) step %d %s: %.1f%% of its roof",
			    rel, f.runs[i].lesson, f.runs[i].size, s->step, s->kernel, s->roof.pct_of_roof);
			if (tensor_kernel(s->kernel))
				tensor_step_roof(rel, &f.roofs, s);
			else
				ck_assert_int_ne(s->roof.limiter, ROOF_TENSOR);
			placed++;
		}
	ck_assert_int_ge(placed, at_least);
	results_file_free(&f);
	free(path);
}

/* In both recorded files: the instruction-bound steps under the issue roof, the FP32 step busiest in shared memory under its. */
START_TEST(recorded_steps_held_to_their_counters)
{
	static const char *const files[] = { "data/results/nvidia-h100.json", "data/results/nvidia-h200.json" };

	for (int k = 0; k < 2; k++) {
		char *path = paths_source(files[k]);
		struct results_file f;
		struct error e;
		int issue = 0;

		ck_assert_msg(results_file_load(path, &f, &e) == 0, "%s", e.msg);
		for (int i = 0; i < f.nruns; i++)
			for (int j = 0; j < f.runs[i].nsteps; j++) {
				const struct step_result *s = &f.runs[i].steps[j];
				double busy, memory;

				if (diagnosis_instruction_bound(s, &busy, &memory) && s->roof.have && !s->roof.tensor) {
					ck_assert_msg(s->roof.limiter == ROOF_ISSUE, "%s: %s is instruction-bound, held to %s",
					    files[k], s->kernel, roofs_limiter_name(s->roof.limiter));
					issue++;
				}
				if (strcmp(s->kernel, "matmul_shared_ab") == 0)
					ck_assert_msg(s->roof.limiter == ROOF_SHARED && s->roof.pct_of_roof > 60,
					    "%s: matmul_shared_ab at %.1f%% of %s", files[k], s->roof.pct_of_roof,
					    roofs_limiter_name(s->roof.limiter));
				if (strncmp(s->kernel, "smem_stride_", 12) == 0 && s->ran)
					ck_assert_int_eq(s->roof.limiter, ROOF_SHARED);
			}
		ck_assert_int_ge(issue, 4);	/* the bit-packing steps that compute, not load */
		results_file_free(&f);
		free(path);
	}
}
END_TEST

START_TEST(recorded_steps_within_their_roofs)
{
	within_roof("data/results/nvidia-h100.json", 100);
	within_roof("data/results/nvidia-h200.json", 100);
	/* a tensor-cores run against a measured tensor ceiling */
	within_roof("tests/fixtures/results-tensor.json", 7);
}
END_TEST

/* A recorded file with tensor-core steps and no measured tensor ceiling: the spec's figure, never 0%. */
START_TEST(tensor_steps_without_a_measured_ceiling)
{
	char *path = paths_source("tests/fixtures/results-tensor.json");
	struct results_file f;
	struct error e;
	struct run_report *r;

	ck_assert_msg(results_file_load(path, &f, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(f.nruns, 1);
	r = &f.runs[0];
	ck_assert(near(r->roofs.tensor_measured_gflops, 800000));
	ck_assert(near(r->steps[0].roof.pct_of_roof, 30000.0 / 800000 * 100));
	r->roofs.tensor_measured_gflops = 0;
	r->roofs.tensor_kernel = TENSOR_NONE;
	results_derive(r);
	for (int i = 0; i < r->nsteps; i++) {
		const struct step_result *s = &r->steps[i];

		ck_assert_int_eq(s->roof.limiter, ROOF_TENSOR);
		ck_assert(near(s->roof.roof, 1024000) && s->roof.pct_of_roof > 0 && !s->roof.roof_exceeded);
		tensor_step_roof("results-tensor.json", &r->roofs, s);
	}
	ck_assert(near(r->steps[0].roof.pct_of_roof, 30000.0 / 1024000 * 100));
	results_file_free(&f);
	free(path);
}
END_TEST

/* Writing the roofs into a recorded file keeps its runs, and refuses another GPU's file. */
START_TEST(roofs_into_a_recorded_file)
{
	char *src = paths_source("tests/fixtures/results-metrics.json");
	char path[] = "/tmp/cudatutor-test-roofs-XXXXXX";
	struct results_file before, after;
	struct gpu_roofs r;
	struct gpu_desc other;
	struct error e;
	char *text;
	int fd;

	text = file_read(src, NULL);
	ck_assert_ptr_nonnull(text);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	ck_assert_int_eq(results_file_load(path, &before, &e), 0);
	hand_made(&r);
	ck_assert_msg(results_file_set_roofs(path, &before.gpu, &r, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(results_file_load(path, &after, &e), 0);
	ck_assert(after.roofs.have && near(after.roofs.fp32_measured_gflops, 60000));
	ck_assert_int_eq(after.nruns, before.nruns);
	ck_assert_int_eq(after.runs[0].nsteps, before.runs[0].nsteps);
	ck_assert(near(after.copy_gbps, before.copy_gbps));
	ck_assert_str_eq(after.date, before.date);
	for (int i = 0; i < after.runs[0].nsteps; i++) {
		ck_assert(after.runs[0].steps[i].median_ms == before.runs[0].steps[i].median_ms);
		ck_assert(after.runs[0].steps[i].metrics.collected == before.runs[0].steps[i].metrics.collected);
		ck_assert(after.runs[0].steps[i].roof.have);
	}
	other = before.gpu;
	snprintf(other.name, sizeof other.name, "Another GPU");
	ck_assert_int_eq(results_file_set_roofs(path, &other, &r, &e), -1);
	ck_assert_msg(strstr(e.msg, "not on this Another GPU") != NULL, "%s", e.msg);
	results_file_free(&before);
	results_file_free(&after);
	unlink(path);
	free(text);
	free(src);
}
END_TEST

/* The FP32 ceiling as the build made it: FFMAs, enough of them independent, and no spills. */
START_TEST(fp32_ceiling_sass)
{
#ifndef HAVE_CUOBJDUMP
	return;
#else
	static const struct kernel_def k = { .name = "fp32_ceiling", .module = "roofs" };
	struct inspect_target t = { &k, "fp32_ceiling" };
	struct kernel_resources res;
	struct sass_listing l;
	struct error e;
	char *text = inspect_sass(&t, "sm_90", &e);

	ck_assert_msg(text != NULL, "%s", e.msg);
	sass_parse(text, &l);
	/* 16 chains x 16 steps unrolled in the loop */
	ck_assert_msg(sass_count(&l, "FFMA") >= 256, "%d FFMA", sass_count(&l, "FFMA"));
	ck_assert_int_eq(sass_count(&l, "LDG"), 0);
	sass_listing_free(&l);
	free(text);
	ck_assert_msg(inspect_resources(&t, "sm_90", &res, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(res.spill_store_bytes, 0);
	ck_assert_int_ge(res.registers, 16);
#endif
}
END_TEST


/*
 * The stream kernels that measure the DRAM roofs by mix: 16-byte accesses,
 * four loads on their way a thread where there are loads (64 bytes, more
 * than Little's law asks), no load where there should be none.
 */
START_TEST(dram_mix_kernels_sass)
{
#ifndef HAVE_CUOBJDUMP
	return;
#else
	static const struct { const char *name; int in_flight, stores; } want[] = {
		{ "stream_read", 64, 0 }, { "stream_read2_write1", 64, 1 }, { "stream_write", 0, 1 },
	};

	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		const struct kernel_def k = { .name = want[i].name, .module = "measure" };
		struct inspect_target t = { &k, "" };
		struct sass_listing l;
		struct error e;
		char *text;

		snprintf(t.symbol, sizeof t.symbol, "%s", want[i].name);
		text = inspect_sass(&t, "sm_90", &e);
		ck_assert_msg(text != NULL, "%s", e.msg);
		sass_parse(text, &l);
		ck_assert_msg(sass_load_bytes_in_flight(&l) >= want[i].in_flight, "%s: %d bytes in flight", want[i].name,
		    sass_load_bytes_in_flight(&l));
		ck_assert_int_eq(sass_count(&l, "LDG") - sass_count(&l, "LDG.E.128"), 0);
		if (want[i].stores)
			ck_assert_int_ge(sass_count(&l, "STG.E.128"), 1);
		else
			ck_assert_int_eq(sass_count(&l, "STG.E.128"), 0);
		if (want[i].in_flight == 0)
			ck_assert_int_eq(sass_count(&l, "LDG"), 0);
		sass_listing_free(&l);
		free(text);
	}
#endif
}
END_TEST

/* Little's law on hand-made figures; the latency keys both ways, and optional. */
START_TEST(latency_and_bytes_in_flight)
{
	struct gpu_roofs r = { 0 }, back;
	struct error e;
	json_t *o;

	roofs_theoretical(&r, "sm_90", 132, 1980, 2619, 5120);
	r.dram_measured_gbps = 3000;
	/* no latency: nothing in flight is made up */
	ck_assert(roofs_in_flight_gpu(&r) == 0 && roofs_in_flight_per_sm(&r) == 0);
	o = roofs_to_json(&r);
	ck_assert(json_is_null(json_object_get(o, "dram_latency_ns")));
	ck_assert(json_is_null(json_object_get(o, "dram_latency_measured_by")));
	ck_assert(json_is_null(json_object_get(o, "bytes_in_flight_gpu")));
	/* a file without the keys loads, the latency unknown */
	json_object_del(o, "dram_latency_ns");
	json_object_del(o, "l2_latency_ns");
	ck_assert_int_eq(roofs_from_json(o, "f", &back, &e), 0);
	ck_assert(back.have && back.dram_latency_ns == 0 && back.l2_latency_ns == 0);
	json_decref(o);
	/* 3000 GB/s x 650 ns = 1.95 MB on the GPU, / 132 SMs = 14.77 KB each */
	r.dram_latency_ns = 650;
	r.l2_latency_ns = 260;
	ck_assert(near(roofs_in_flight_gpu(&r), 1.95e6));
	ck_assert(near(roofs_in_flight_per_sm(&r), 1.95e6 / 132));
	o = roofs_to_json(&r);
	ck_assert(near(json_real_value(json_object_get(o, "bytes_in_flight_gpu")), 1.95e6));
	ck_assert(near(json_real_value(json_object_get(o, "bytes_in_flight_per_sm")), 1.95e6 / 132));
	ck_assert_str_eq(json_string_value(json_object_get(o, "dram_latency_measured_by")),
	    "pointer_chase (kernels/roofs.cu)");
	ck_assert_int_eq(roofs_from_json(o, "f", &back, &e), 0);
	ck_assert(near(back.dram_latency_ns, 650) && near(back.l2_latency_ns, 260));
	ck_assert(near(roofs_in_flight_per_sm(&back), 1.95e6 / 132));
	/* no SM count or no bandwidth: none per SM, none at all */
	back.sm_count = 0;
	ck_assert(roofs_in_flight_per_sm(&back) == 0 && roofs_in_flight_gpu(&back) > 0);
	back.dram_measured_gbps = 0;
	ck_assert(roofs_in_flight_gpu(&back) == 0);
	/* a latency that is not a number: damaged */
	json_object_set_new(o, "dram_latency_ns", json_string("slow"));
	ck_assert_int_eq(roofs_from_json(o, "f.json", &back, &e), -1);
	json_decref(o);
}
END_TEST

/* The register an operand names: "R12" of "R12.64]" or "[R12.64+0x4]"; -1 if none. */
static int reg_of(const char *s)
{
	const char *p = strchr(s, 'R');

	while (p != NULL && !(p[1] >= '0' && p[1] <= '9'))
		p = strchr(p + 1, 'R');
	return p != NULL ? atoi(p + 1) : -1;
}

/*
 * The pointer chase as the build made it: one L2-only load (LDG.E.STRONG.GPU,
 * ld.global.cg) in the loop, never unrolled, its address made from the
 * value the same load brought on the trip before: no two in flight.
 */
START_TEST(pointer_chase_sass)
{
#ifndef HAVE_CUOBJDUMP
	return;
#else
	static const struct kernel_def k = { .name = "pointer_chase", .module = "roofs" };
	struct inspect_target t = { &k, "pointer_chase" };
	struct sass_listing l;
	struct error e;
	char *text = inspect_sass(&t, "sm_90", &e);
	int ld = -1, dst, addr, i;
	char line[160];

	ck_assert_msg(text != NULL, "%s", e.msg);
	sass_parse(text, &l);
	ck_assert_msg(sass_count(&l, "LDG.E.STRONG.GPU") == 1, "%d loads in the chase",
	    sass_count(&l, "LDG.E.STRONG.GPU"));
	/* the chase's load and *state's: nothing else reads memory */
	ck_assert_int_eq(sass_count(&l, "LDG"), 2);
	for (i = 0; i < l.count; i++)
		if (sass_opcode_matches(l.insns[i].opcode, "LDG.E.STRONG.GPU"))
			ld = i;
	sass_insn_text(&l.insns[ld], line, sizeof line);
	/* "LDG.E.STRONG.GPU R5, desc[UR6][R4.64]": the address is in the last brackets */
	dst = reg_of(strchr(line, ' '));
	addr = reg_of(strrchr(line, '['));
	ck_assert_msg(dst >= 0 && addr >= 0, "%s", line);
	/* the instruction that makes the address reads the loaded value: a dependent chain */
	for (i = ld - 1; i >= 0; i--) {
		char prev[160], want[16];
		const char *ops;

		sass_insn_text(&l.insns[i], prev, sizeof prev);
		ops = strchr(prev, ' ');
		if (ops == NULL || reg_of(ops) != addr)
			continue;
		snprintf(want, sizeof want, "R%d,", dst);
		ck_assert_msg(strchr(ops, ',') != NULL && strstr(strchr(ops, ','), want) != NULL,
		    "the address (%s) is not made from the loaded value (%s)", prev, line);
		break;
	}
	ck_assert_msg(i >= 0, "nothing writes the address of %s", line);
	/* and a backward branch after it: the loop, one load a trip */
	ck_assert(ld + 1 < l.count);
	for (i = ld + 1; i < l.count && strcmp(l.insns[i].base, "BRA") != 0; i++)
		;
	ck_assert_msg(i < l.count && strtoul(strstr(l.insns[i].text, "BRA") + 4, NULL, 16) < l.insns[ld].addr,
	    "no loop around the load");
	sass_listing_free(&l);
	free(text);
#endif
}
END_TEST

#ifdef HAVE_CUOBJDUMP
/* kernel's SASS for arch: how many of each wanted instruction, and that it loads nothing from global memory. */
static int sass_of(const char *module, const char *kernel, const char *arch, const char *op)
{
	const struct kernel_def k = { .name = kernel, .module = module };
	struct inspect_target t = { &k, "" };
	struct sass_listing l;
	struct error e;
	char *text;
	int n;

	snprintf(t.symbol, sizeof t.symbol, "%s", kernel);
	text = inspect_sass(&t, arch, &e);
	ck_assert_msg(text != NULL, "%s %s: %s", kernel, arch, e.msg);
	sass_parse(text, &l);
	n = sass_count(&l, op);
	ck_assert_msg(sass_count(&l, "LDG") == 0, "%s %s: %d LDG", kernel, arch, sass_count(&l, "LDG"));
	ck_assert_msg(sass_count(&l, "LDS") == 0, "%s %s: %d LDS", kernel, arch, sass_count(&l, "LDS"));
	sass_listing_free(&l);
	free(text);
	return n;
}
#endif

/*
 * The tensor ceilings: mma.sync becomes HMMA on sm_80 and sm_90 (8
 * accumulators x 8 unrolled in the loop), wgmma HGMMA in the sm_90a
 * module (16 a trip); neither loads from memory: the fragments are in
 * registers, the wgmma tiles in shared memory read through descriptors.
 */
START_TEST(tensor_ceiling_sass)
{
#ifndef HAVE_CUOBJDUMP
	return;
#else
	char *archs;
	struct error e;

	/* on each architecture the build has of these two (a tree built for sm_90 alone has one) */
	archs = inspect_sass_archs("roofs", &e);
	ck_assert_msg(archs != NULL, "%s", e.msg);
	ck_assert_msg(strstr(archs, "sm_80") != NULL || strstr(archs, "sm_90") != NULL, "roofs built for %s", archs);
	if (strstr(archs, "sm_80") != NULL)
		ck_assert_int_ge(sass_of("roofs", "tensor_mma_ceiling", "sm_80", "HMMA"), 64);
	if (strstr(archs, "sm_90") != NULL)
		ck_assert_int_ge(sass_of("roofs", "tensor_mma_ceiling", "sm_90", "HMMA"), 64);
	free(archs);
	ck_assert_int_ge(sass_of("roofs_hopper", "tensor_wgmma_ceiling", "sm_90a", "HGMMA"), 16);
	/* built for sm_90a alone: its code runs on no other GPU */
	archs = inspect_sass_archs("roofs_hopper", &e);
	ck_assert_msg(archs != NULL, "%s", e.msg);
	ck_assert_str_eq(archs, "sm_90a");
	free(archs);
#endif
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("roofs");
	TCase *tc = tcase_create("roofs");

	tcase_add_test(tc, h100_from_its_clocks);
	tcase_add_test(tc, lanes_by_compute_capability);
	tcase_add_test(tc, limiter_intensity_and_percent);
	tcase_add_test(tc, unknown_roofs_are_never_made_up);
	tcase_add_test(tc, json_both_ways);
	tcase_add_test(tc, recorded_files_with_and_without_roofs);
	tcase_add_test(tc, traffic_in_the_window);
	tcase_add_test(tc, tensor_steps_meet_the_tensor_roof);
	tcase_add_test(tc, recorded_steps_within_their_roofs);
	tcase_add_test(tc, recorded_steps_held_to_their_counters);
	tcase_add_test(tc, held_to_another_roof);
	tcase_add_test(tc, roof_exceeded_at_its_edge);
	tcase_add_test(tc, dram_mix_kernels_sass);
	tcase_add_test(tc, tensor_steps_without_a_measured_ceiling);
	tcase_add_test(tc, roofs_into_a_recorded_file);
	tcase_add_test(tc, fp32_ceiling_sass);
	tcase_add_test(tc, tensor_ceiling_sass);
	tcase_add_test(tc, latency_and_bytes_in_flight);
	tcase_add_test(tc, pointer_chase_sass);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN_SASS(make_suite)

/* The roofs of a GPU on the command line. */
#include "config.h"

#include <string.h>

#include "cli/cli_roofs.h"
#include "i18n.h"
#include "textwrap.h"

/* "3352.3 GB/s", or "-" when unknown */
static const char *figure(double v, const char *unit, char *buf, size_t len)
{
	if (v > 0)
		snprintf(buf, len, "%.1f %s", v, unit);
	else
		snprintf(buf, len, "-");
	return buf;
}

static void roof_line(FILE *out, const char *name, double measured, double theoretical,
    const char *unit)
{
	char m[32], t[32], pct[16];

	if (measured > 0 && theoretical > 0)
		snprintf(pct, sizeof pct, "%.1f%%", measured / theoretical * 100.0);
	else
		snprintf(pct, sizeof pct, "-");
	/* fields counted in columns, not bytes: the names may be Chinese */
	fprintf(out, "%-*s %18s %18s %12s\n", textwrap_field(name, 12), name,
	    figure(measured, unit, m, sizeof m), figure(theoretical, unit, t, sizeof t), pct);
}

/* The latency of a load, and Little's law with it: what must be in flight for DRAM's bandwidth. */
static void print_latency(FILE *out, const struct gpu_roofs *r)
{
	if (r->dram_latency_ns <= 0)
		return;
	if (r->l2_latency_ns > 0)
		fprintf(out, _("latency %.0f ns a load that misses L2, %.0f ns one that hits it (one thread's\n"
		    "        chain of dependent loads)\n"), r->dram_latency_ns, r->l2_latency_ns);
	else
		fprintf(out, _("latency %.0f ns a load that misses L2 (one thread's chain of dependent loads)\n"),
		    r->dram_latency_ns);
	if (roofs_in_flight_gpu(r) > 0)
		fprintf(out, _("in flight %.1f MB on the GPU, %.1f KB per SM to keep DRAM busy\n"
		    "        (Little's law: measured bandwidth x latency)\n"), roofs_in_flight_gpu(r) / 1e6,
		    roofs_in_flight_per_sm(r) / 1e3);
}

static void print_text(FILE *out, const struct gpu_desc *g, const struct gpu_roofs *r,
    const struct results_file *recorded, const struct gpu_clocks *now)
{
	fprintf(out, _("GPU     %s (%s, driver %s, CUDA %s)\n"), g->name, g->arch, g->driver, g->cuda);
	if (recorded != NULL)
		fprintf(out, _("RECORDED on %s, read from %s: these are not live numbers\n"), recorded->date,
		    recorded->path);
	if (!r->have) {
		fprintf(out, "%s", _("no roofs are recorded in this file: record them on its GPU with\n"
		    "'cudatutor roofs --output FILE'\n"));
		return;
	}
	fprintf(out, _("clocks  SM %d MHz, memory %d MHz at most, a %d-bit memory bus, %d SMs (from %s)\n"),
	    r->sm_clock_max_mhz, r->mem_clock_max_mhz, r->bus_width_bits, r->sm_count,
	    r->clock_source[0] ? r->clock_source : "?");
	if (now != NULL && now->have) {
		if (now->temperature_c >= 0)
			fprintf(out, _("now     SM %d MHz, memory %d MHz, %d C\n"), now->sm_mhz, now->mem_mhz,
			    now->temperature_c);
		else
			fprintf(out, _("now     SM %d MHz, memory %d MHz\n"), now->sm_mhz, now->mem_mhz);
	}
	fputc('\n', out);
	{
		const char *h[] = { _("roof"), _("measured"), _("theoretical"), _("measured %") };

		fprintf(out, "%-*s %*s %*s %*s\n", textwrap_field(h[0], 12), h[0], textwrap_field(h[1], 18), h[1],
		    textwrap_field(h[2], 18), h[2], textwrap_field(h[3], 12), h[3]);
	}
	roof_line(out, "DRAM", r->dram_measured_gbps, r->dram_theoretical_gbps, "GB/s");
	/* the mixes measured (a file recorded before them has none): each step meets its own */
	if (r->dram_mix_gbps[MIX_READ] > 0)
		roof_line(out, _("  reads"), r->dram_mix_gbps[MIX_READ], r->dram_theoretical_gbps, "GB/s");
	if (r->dram_mix_gbps[MIX_ADD] > 0)
		roof_line(out, _("  2R : 1W"), r->dram_mix_gbps[MIX_ADD], r->dram_theoretical_gbps, "GB/s");
	if (r->dram_mix_gbps[MIX_WRITE] > 0)
		roof_line(out, _("  writes"), r->dram_mix_gbps[MIX_WRITE], r->dram_theoretical_gbps, "GB/s");
	roof_line(out, "FP32", r->fp32_measured_gflops, r->fp32_theoretical_gflops, "GFLOP/s");
	roof_line(out, _("BF16 tensor"), r->tensor_measured_gflops, r->tensor_spec_gflops, "GFLOP/s");
	if (r->tensor_random_gflops > 0)
		roof_line(out, _("  random"), r->tensor_random_gflops, r->tensor_spec_gflops, "GFLOP/s");
	fputc('\n', out);
	fprintf(out, "%s", _("DRAM measured: a device-to-device copy (bytes read + written);\n"
	    "     theoretical: memory clock x 2 (double data rate) x bus width / 8\n"));
	if (r->dram_mix_gbps[MIX_READ] > 0 || r->dram_mix_gbps[MIX_ADD] > 0 || r->dram_mix_gbps[MIX_WRITE] > 0)
		fprintf(out, "%s", _("     by mix: reads alone, two reads for one write (a vector add), writes\n"
		    "     alone; a step is held to the roof of its own mix\n"));
	fprintf(out, _("FP32 measured: independent FFMA chains on every SM (2 FLOPs an FFMA);\n"
	    "     theoretical: SMs x %d FP32 lanes x 2 x SM clock\n"), r->fp32_lanes_per_sm);
	if (r->tensor_measured_gflops > 0)
		fprintf(out, "%s", r->tensor_kernel == TENSOR_WGMMA ?
		    _("BF16 tensor measured: back-to-back wgmma m64n256k16 from shared memory (Hopper),\n"
		      "     on nearly constant operands; random operands draw more power: a lower clock\n") :
		    _("BF16 tensor measured: back-to-back mma.sync m16n8k16 on independent accumulators;\n"));
	else
		fprintf(out, "%s", _("BF16 tensor measured: none (no BF16 tensor cores here, or not measured);\n"));
	if (r->tensor_spec_gflops > 0)
		fprintf(out, _("     spec: SMs x %d FLOPs per clock per SM x SM clock (dense)\n"),
		    r->tensor_flops_per_clock_sm);
	else
		fprintf(out, "%s", _("     spec: not in the tutor's table for this GPU\n"));
	if (roofs_ridge(r, true) > 0)
		fprintf(out, _("ridge   %.1f FLOP per byte measured, %.1f theoretical: a step below it is\n"
		    "        bound by DRAM, above it by FP32 arithmetic\n"), roofs_ridge(r, true),
		    roofs_ridge(r, false));
	else if (roofs_ridge(r, false) > 0)
		fprintf(out, _("ridge   %.1f FLOP per byte theoretical: a step below it is bound by DRAM,\n"
		    "        above it by FP32 arithmetic\n"), roofs_ridge(r, false));	print_latency(out, r);
}

void cli_print_roofs(FILE *out, const struct gpu_desc *g, const struct gpu_roofs *r,
    const struct results_file *recorded, const struct gpu_clocks *now, enum cli_format f)
{
	json_t *o;

	if (f != FORMAT_JSON) {
		print_text(out, g, r, recorded, now);
		return;
	}
	o = json_object();
	json_object_set_new(o, "gpu", results_gpu_to_json(g));
	json_object_set_new(o, "recorded", recorded != NULL ? json_pack("{s:s, s:s}", "date",
	    recorded->date, "file", recorded->path) : json_null());
	json_object_set_new(o, "roofs", roofs_to_json(r));
	json_object_set_new(o, "clocks", roofs_clocks_to_json(now));
	json_dumpf(o, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
	fputc('\n', out);
	json_decref(o);
}

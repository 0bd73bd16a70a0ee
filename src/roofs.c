/* The roofs of a GPU: the tables, the ridge point, where a step stands, JSON, the FP32 ceiling. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "i18n.h"
#include "paths.h"
#include "roofs.h"
#include "stats.h"

int roofs_fp32_lanes(int major, int minor)
{
	/* FP32 lanes per SM, as NVIDIA's tuning guides give them */
	if (major == 7)
		return 64;
	if (major == 8)
		return minor == 0 ? 64 : 128;	/* A100: 64; GA10x, Orin, Ada: 128 */
	if (major == 9 || major == 10 || major == 11 || major == 12)
		return 128;
	return 0;
}

int roofs_tensor_per_clock(int major, int minor)
{
	/*
	 * Dense BF16/FP16 with FP32 accumulation, per SM per clock: A100
	 * 2048 (312 TFLOP/s at 1410 MHz x 108 SMs), H100 4096 (989 TFLOP/s at
	 * 1830 MHz x 132 SMs).  Other parts are left out rather than guessed.
	 */
	if (major == 8 && minor == 0)
		return 2048;
	if (major == 9 && minor == 0)
		return 4096;
	return 0;
}

bool roofs_parse_arch(const char *arch, int *major, int *minor)
{
	char *end;
	long v;

	if (arch == NULL || strncmp(arch, "sm_", 3) != 0)
		return false;
	v = strtol(arch + 3, &end, 10);
	/* "sm_90", "sm_90a", "sm_100": the last digit is the minor version */
	if (end == arch + 3 || v < 10)
		return false;
	*major = (int)(v / 10);
	*minor = (int)(v % 10);
	return true;
}

void roofs_theoretical(struct gpu_roofs *r, const char *arch, int sm_count, int sm_clock_max_mhz,
    int mem_clock_max_mhz, int bus_width_bits)
{
	int major = 0, minor = 0;

	if (!roofs_parse_arch(arch, &major, &minor))
		major = minor = 0;
	r->sm_count = sm_count;
	r->sm_clock_max_mhz = sm_clock_max_mhz;
	r->mem_clock_max_mhz = mem_clock_max_mhz;
	r->bus_width_bits = bus_width_bits;
	r->fp32_lanes_per_sm = roofs_fp32_lanes(major, minor);
	r->tensor_flops_per_clock_sm = roofs_tensor_per_clock(major, minor);
	r->dram_theoretical_gbps = r->fp32_theoretical_gflops = r->tensor_spec_gflops = 0;
	/* MHz x bytes = MB/s; / 1000 = GB/s */
	if (mem_clock_max_mhz > 0 && bus_width_bits > 0)
		r->dram_theoretical_gbps = mem_clock_max_mhz * 2.0 * bus_width_bits / 8.0 / 1e3;
	if (sm_count > 0 && sm_clock_max_mhz > 0 && r->fp32_lanes_per_sm > 0)
		r->fp32_theoretical_gflops = (double)sm_count * r->fp32_lanes_per_sm * 2.0 *
		    sm_clock_max_mhz / 1e3;
	if (sm_count > 0 && sm_clock_max_mhz > 0 && r->tensor_flops_per_clock_sm > 0)
		r->tensor_spec_gflops = (double)sm_count * r->tensor_flops_per_clock_sm *
		    sm_clock_max_mhz / 1e3;
	r->have = true;
}

const char *roofs_mix_name(enum dram_mix m)
{
	static const char *const names[] = { "copy", "read", "read2_write1", "write" };

	return m >= 0 && m < DRAM_MIXES ? names[m] : NULL;
}

/* The DRAM roof a step of this mix meets, and whether it was measured for it. */
static double dram_roof_of(const struct gpu_roofs *r, enum dram_mix mix)
{
	if (mix > MIX_COPY && mix < DRAM_MIXES && r->dram_mix_gbps[mix] > 0)
		return r->dram_mix_gbps[mix];
	return mix == MIX_READ ? r->dram_theoretical_gbps : r->dram_measured_gbps;
}

const char *roofs_limiter_name(enum roof_limiter l)
{
	switch (l) {
	case ROOF_DRAM: return "dram";
	case ROOF_FP32: return "fp32";
	case ROOF_TENSOR: return "tensor";
	case ROOF_SHARED: return "shared";
	case ROOF_ISSUE: return "issue";
	default: return NULL;
	}
}

const char *roofs_limiter_unit(enum roof_limiter l)
{
	return l == ROOF_FP32 || l == ROOF_TENSOR ? "GFLOP/s" : l == ROOF_ISSUE ? "Ginst/s" : "GB/s";
}

double roofs_shared_gbps(const struct gpu_roofs *r)
{
	/* MHz x bytes = MB/s; / 1000 = GB/s */
	return r->sm_count > 0 && r->sm_clock_max_mhz > 0 ?
	    (double)r->sm_count * ROOFS_SHARED_BYTES_PER_CLOCK_SM * r->sm_clock_max_mhz / 1e3 : 0;
}

double roofs_issue_ginst(const struct gpu_roofs *r)
{
	return r->sm_count > 0 && r->sm_clock_max_mhz > 0 ?
	    (double)r->sm_count * ROOFS_ISSUE_PER_CLOCK_SM * r->sm_clock_max_mhz / 1e3 : 0;
}

/* pct_of_roof and the rest, from what the step achieved against p->roof (theoretical: the same) */
static void percent(struct roof_point *p, double achieved)
{
	p->roof_theoretical = p->roof;
	p->pct_of_roof = p->pct_of_theoretical = p->roof > 0 ? achieved / p->roof * 100.0 : 0;
	p->roof_exceeded = p->pct_of_roof > ROOFS_EXCEEDED_PCT;
}

void roofs_place_shared(const struct gpu_roofs *r, double bytes, double ms, struct roof_point *p)
{
	memset(p, 0, sizeof *p);
	if (r == NULL || !r->have || bytes <= 0 || ms <= 0 || roofs_shared_gbps(r) <= 0)
		return;
	p->have = true;
	p->limiter = ROOF_SHARED;
	p->roof = roofs_shared_gbps(r);
	percent(p, bytes / (ms * 1e-3) / 1e9);
}

void roofs_hold(const struct gpu_roofs *r, enum roof_limiter lim, double achieved, struct roof_point *p)
{
	double roof = lim == ROOF_ISSUE ? roofs_issue_ginst(r) : lim == ROOF_SHARED ? roofs_shared_gbps(r) : 0;

	if (r == NULL || !r->have || !p->have || achieved <= 0 || roof <= 0)
		return;
	p->limiter = lim;
	p->roof = roof;
	percent(p, achieved);
}

double roofs_ridge(const struct gpu_roofs *r, bool measured)
{
	double fp32 = measured ? r->fp32_measured_gflops : r->fp32_theoretical_gflops;
	double dram = measured ? r->dram_measured_gbps : r->dram_theoretical_gbps;

	return fp32 > 0 && dram > 0 ? fp32 / dram : 0;
}

double roofs_tensor_roof(const struct gpu_roofs *r, bool *measured)
{
	if (measured != NULL)
		*measured = r->tensor_measured_gflops > 0;
	return r->tensor_measured_gflops > 0 ? r->tensor_measured_gflops : r->tensor_spec_gflops;
}

double roofs_tensor_ridge(const struct gpu_roofs *r)
{
	double tensor = roofs_tensor_roof(r, NULL);
	double dram = r->dram_measured_gbps > 0 ? r->dram_measured_gbps : r->dram_theoretical_gbps;

	return tensor > 0 && dram > 0 ? tensor / dram : 0;
}

void roofs_place(const struct gpu_roofs *r, double bytes, double flops, double ms,
    struct roof_point *p)
{
	roofs_place_step(r, bytes, flops, ms, NULL, p);
}

void roofs_place_step(const struct gpu_roofs *r, double bytes, double flops, double ms,
    const struct roof_traffic *t, struct roof_point *p)
{
	double ridge, seconds = ms * 1e-3, achieved;

	memset(p, 0, sizeof *p);
	if (r == NULL || !r->have || bytes <= 0 || flops < 0 || ms <= 0)
		return;
	ridge = roofs_ridge(r, true);
	if (ridge <= 0)
		ridge = roofs_ridge(r, false);
	if (ridge <= 0)
		return;
	p->have = true;
	p->intensity = flops / bytes;
	p->gflops = flops / seconds / 1e9;
	/*
	 * Below the ridge the bytes cannot arrive faster than DRAM brings
	 * them; above it the arithmetic cannot finish faster than the FP32
	 * lanes do it.  At the ridge both bind: memory is named.
	 */
	/*
	 * A step whose multiply-adds run on tensor cores (the experiment
	 * "tensor") has the tensor roof for its arithmetic, not the FP32 one:
	 * its ridge is the tensor roof's over DRAM's.
	 */
	if (t != NULL && t->tensor) {
		double tensor_ridge = roofs_tensor_ridge(r);

		p->tensor = true;
		if (tensor_ridge > 0 && p->intensity > tensor_ridge) {
			p->limiter = ROOF_TENSOR;
			achieved = flops / seconds / 1e9;
			/* no ceiling measured on that GPU: the spec's figure, never none (the legend says which) */
			p->roof = roofs_tensor_roof(r, NULL);
			p->roof_theoretical = r->tensor_spec_gflops;
			goto percent;
		}
		if (tensor_ridge > 0)
			ridge = tensor_ridge;
	}
	if (p->intensity <= ridge) {
		double moved = bytes;

		/* what was still in L2 when the window closed is not DRAM's work in it */
		if (t != NULL && t->dram_bytes > 0 && t->dram_bytes < moved)
			moved = t->dram_bytes;
		p->limiter = ROOF_DRAM;
		achieved = moved / seconds / 1e9;
		p->roof = dram_roof_of(r, t != NULL ? t->mix : MIX_COPY);
		p->roof_theoretical = r->dram_theoretical_gbps;
	} else {
		p->limiter = ROOF_FP32;
		achieved = flops / seconds / 1e9;
		p->roof = r->fp32_measured_gflops;
		p->roof_theoretical = r->fp32_theoretical_gflops;
	}
percent:
	if (p->roof > 0)
		p->pct_of_roof = achieved / p->roof * 100.0;
	if (p->roof_theoretical > 0)
		p->pct_of_theoretical = achieved / p->roof_theoretical * 100.0;
	p->roof_exceeded = p->roof > 0 ? p->pct_of_roof > ROOFS_EXCEEDED_PCT :
	    p->pct_of_theoretical > ROOFS_EXCEEDED_PCT;
}

double roofs_in_flight_gpu(const struct gpu_roofs *r)
{
	/* GB/s x ns: 1e9 bytes a second for 1e-9 seconds, bytes */
	return r->dram_measured_gbps > 0 && r->dram_latency_ns > 0 ? r->dram_measured_gbps * r->dram_latency_ns : 0;
}

double roofs_in_flight_per_sm(const struct gpu_roofs *r)
{
	return r->sm_count > 0 ? roofs_in_flight_gpu(r) / r->sm_count : 0;
}

/* ---- JSON ---------------------------------------------------------------- */

static json_t *num_or_null(double v)
{
	return v > 0 ? json_real(v) : json_null();
}

static json_t *int_or_null(int v)
{
	return v > 0 ? json_integer(v) : json_null();
}

json_t *roofs_to_json(const struct gpu_roofs *r)
{
	json_t *o;

	if (r == NULL || !r->have)
		return json_null();
	o = json_object();
	json_object_set_new(o, "clock_source", r->clock_source[0] ? json_string(r->clock_source) : json_null());
	json_object_set_new(o, "sm_count", int_or_null(r->sm_count));
	json_object_set_new(o, "sm_clock_max_mhz", int_or_null(r->sm_clock_max_mhz));
	json_object_set_new(o, "memory_clock_max_mhz", int_or_null(r->mem_clock_max_mhz));
	json_object_set_new(o, "memory_bus_bits", int_or_null(r->bus_width_bits));
	json_object_set_new(o, "fp32_lanes_per_sm", int_or_null(r->fp32_lanes_per_sm));
	json_object_set_new(o, "tensor_flops_per_clock_sm", int_or_null(r->tensor_flops_per_clock_sm));
	json_object_set_new(o, "dram_theoretical_gbps", num_or_null(r->dram_theoretical_gbps));
	json_object_set_new(o, "dram_measured_gbps", num_or_null(r->dram_measured_gbps));
	json_object_set_new(o, "dram_measured_by", json_string("device-to-device copy"));
	json_object_set_new(o, "fp32_theoretical_gflops", num_or_null(r->fp32_theoretical_gflops));
	json_object_set_new(o, "fp32_measured_gflops", num_or_null(r->fp32_measured_gflops));
	json_object_set_new(o, "fp32_measured_by", json_string("fp32_ceiling (kernels/roofs.cu)"));
	json_object_set_new(o, "tensor_bf16_spec_gflops", num_or_null(r->tensor_spec_gflops));
	json_object_set_new(o, "tensor_bf16_measured_gflops", num_or_null(r->tensor_measured_gflops));
	json_object_set_new(o, "tensor_bf16_measured_by", r->tensor_measured_gflops > 0 &&
	    roofs_tensor_kernel_name(r->tensor_kernel) ? json_string(roofs_tensor_kernel_name(r->tensor_kernel)) :
	    json_null());
	json_object_set_new(o, "tensor_bf16_random_gflops", num_or_null(r->tensor_random_gflops));
	json_object_set_new(o, "dram_latency_ns", num_or_null(r->dram_latency_ns));
	json_object_set_new(o, "l2_latency_ns", num_or_null(r->l2_latency_ns));
	json_object_set_new(o, "dram_latency_measured_by", r->dram_latency_ns > 0 ?
	    json_string("pointer_chase (kernels/roofs.cu)") : json_null());
	for (int m = MIX_READ; m < DRAM_MIXES; m++) {
		char key[64];

		snprintf(key, sizeof key, "dram_%s_gbps", roofs_mix_name(m));
		json_object_set_new(o, key, num_or_null(r->dram_mix_gbps[m]));
	}
	json_object_set_new(o, "bytes_in_flight_gpu", num_or_null(roofs_in_flight_gpu(r)));
	json_object_set_new(o, "bytes_in_flight_per_sm", num_or_null(roofs_in_flight_per_sm(r)));
	json_object_set_new(o, "ridge_measured", num_or_null(roofs_ridge(r, true)));
	json_object_set_new(o, "ridge_theoretical", num_or_null(roofs_ridge(r, false)));
	return o;
}

/* A number or null (unknown, 0); -1 for anything else. */
static int opt_number(json_t *o, const char *key, double *out)
{
	json_t *v = json_object_get(o, key);

	*out = 0;
	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_number(v) || json_number_value(v) < 0 || !isfinite(json_number_value(v)))
		return -1;
	*out = json_number_value(v);
	return 0;
}

static int opt_int(json_t *o, const char *key, int *out)
{
	double v;

	if (opt_number(o, key, &v) != 0 || v > 1e9)
		return -1;
	*out = (int)v;
	return 0;
}

int roofs_from_json(json_t *o, const char *file, struct gpu_roofs *r, struct error *e)
{
	static const char *const numbers[] = {
		"dram_theoretical_gbps", "dram_measured_gbps", "fp32_theoretical_gflops",
		"fp32_measured_gflops", "tensor_bf16_spec_gflops", "tensor_bf16_measured_gflops",
		"dram_latency_ns", "l2_latency_ns", "dram_read_gbps", "dram_read2_write1_gbps", "dram_write_gbps",
		"tensor_bf16_random_gflops",
	};
	double *dst[] = {
		&r->dram_theoretical_gbps, &r->dram_measured_gbps, &r->fp32_theoretical_gflops,
		&r->fp32_measured_gflops, &r->tensor_spec_gflops, &r->tensor_measured_gflops,
		&r->dram_latency_ns, &r->l2_latency_ns, &r->dram_mix_gbps[MIX_READ], &r->dram_mix_gbps[MIX_ADD],
		&r->dram_mix_gbps[MIX_WRITE], &r->tensor_random_gflops,
	};
	/*
	 * More than any GPU has, by a wide margin (1 PB/s, 1 EFLOP/s, a
	 * millisecond a load): a figure past these is damage, and would break
	 * every column it is printed in.
	 */
	static const double most[] = { 1e6, 1e6, 1e9, 1e9, 1e9, 1e9, 1e6, 1e6, 1e6, 1e6, 1e6, 1e9 };
	json_t *src;

	memset(r, 0, sizeof *r);
	if (o == NULL || json_is_null(o))
		return 0;
	if (!json_is_object(o))
		goto bad;
	for (size_t i = 0; i < ARRAY_LEN(numbers); i++) {
		if (opt_number(o, numbers[i], dst[i]) != 0)
			goto bad;
		if (*dst[i] > most[i]) {
			error_set(e, _("%s: roofs.%s is %g, more than any GPU's: the file is damaged; record it again"),
			    file, numbers[i], *dst[i]);
			memset(r, 0, sizeof *r);
			return -1;
		}
	}
	if (opt_int(o, "sm_count", &r->sm_count) || opt_int(o, "sm_clock_max_mhz", &r->sm_clock_max_mhz) ||
	    opt_int(o, "memory_clock_max_mhz", &r->mem_clock_max_mhz) ||
	    opt_int(o, "memory_bus_bits", &r->bus_width_bits) ||
	    opt_int(o, "fp32_lanes_per_sm", &r->fp32_lanes_per_sm) ||
	    opt_int(o, "tensor_flops_per_clock_sm", &r->tensor_flops_per_clock_sm))
		goto bad;
	src = json_object_get(o, "tensor_bf16_measured_by");
	if (json_is_string(src))
		r->tensor_kernel = strstr(json_string_value(src), "wgmma") != NULL ? TENSOR_WGMMA : TENSOR_MMA;
	src = json_object_get(o, "clock_source");
	if (json_is_string(src))
		snprintf(r->clock_source, sizeof r->clock_source, "%s", json_string_value(src));
	r->have = true;
	return 0;
bad:
	memset(r, 0, sizeof *r);
	error_set(e, _("%s: 'roofs' must hold numbers or null: the file is damaged; record it again"),
	    file);
	return -1;
}

json_t *roofs_clocks_to_json(const struct gpu_clocks *c)
{
	if (c == NULL || !c->have)
		return json_null();
	return json_pack("{s:o, s:o, s:o}", "sm_mhz", int_or_null(c->sm_mhz),
	    "memory_mhz", int_or_null(c->mem_mhz),
	    "temperature_c", c->temperature_c >= 0 ? json_integer(c->temperature_c) : json_null());
}

int roofs_clocks_from_json(json_t *o, struct gpu_clocks *c)
{
	double t;

	memset(c, 0, sizeof *c);
	c->temperature_c = -1;
	if (o == NULL || json_is_null(o))
		return 0;
	if (!json_is_object(o) || opt_int(o, "sm_mhz", &c->sm_mhz) || opt_int(o, "memory_mhz", &c->mem_mhz) ||
	    opt_number(o, "temperature_c", &t))
		return -1;
	if (json_is_number(json_object_get(o, "temperature_c")))
		c->temperature_c = (int)t;
	c->have = true;
	return 0;
}

/* ---- the ceilings, measured ------------------------------------------------ */

/* As kernels/roofs.cu has them. */
#define CHAINS 16
#define UNROLL 16
#define MMA_ACC 8
#define MMA_UNROLL 8
/* As kernels/roofs_hopper.cu has it. */
#define WGMMA_UNROLL 16
#define BLOCK 256
/* Trips of the FP32 kernel's loop: about 10 ms on an H100, tens on smaller GPUs. */
#define ITERS 1024
/* Trips of the tensor kernels' loops: about 10 ms at an H100's tensor peak. */
#define MMA_ITERS 512
#define WGMMA_ITERS 1024
/* Waves of resident blocks: every SM full, several times over. */
#define WAVES 4

/* A ceiling measured on each GPU, kept between runs as the copy bandwidth is. */
static int cached(const char *name, double *v)
{
	const struct gpu_info *g = gpu_info();

	return g != NULL && paths_gpu_figure_read(name, g->uuid, g->driver, v);
}

static void cache_write(const char *name, double v)
{
	const struct gpu_info *g = gpu_info();

	paths_gpu_figure_write(name, g->uuid, g->driver, v);
}

int roofs_fp32_cached(double *gflops)
{
	return cached("fp32-peak", gflops);
}

/* One launch of a ceiling kernel, as gpu_time_runs times it. */
struct launch_job {
	void *kernel;
	unsigned int grid;
	void **args;
};

static int one_launch(void *ctx, struct error *e)
{
	const struct launch_job *j = ctx;

	return gpu_launch(j->kernel, j->grid, BLOCK, 0, j->args, e);
}

/*
 * A ceiling kernel's rate: WAVES waves of full SMs, each thread writing
 * one float to out (args[0]); the median of its timed runs.  flops_per_block:
 * what one block does.
 */
static int ceiling_rate(void *kernel, void **args, double flops_per_block, double *gflops, struct error *e)
{
	enum { WARMUP = 3, REPS = 15 };
	double times[REPS];
	struct stats s;
	void *out = NULL;
	int blocks = 0, rc = -1;
	unsigned int grid;

	if (gpu_blocks_per_sm(kernel, BLOCK, 0, &blocks, e) != 0)
		return -1;
	if (blocks < 1)
		blocks = 1;
	grid = (unsigned int)(blocks * gpu_info()->sm_count * WAVES);
	if (gpu_malloc(&out, (size_t)grid * BLOCK * sizeof(float), e) != 0)
		goto out;
	args[0] = &out;
	for (int i = 0; i < WARMUP; i++)
		if (gpu_launch(kernel, grid, BLOCK, 0, args, e) != 0)
			goto out;
	if (gpu_time_runs(REPS, one_launch, &(struct launch_job){ kernel, grid, args }, times, e) != 0)
		goto out;
	stats_compute(times, REPS, &s);
	*gflops = flops_per_block * grid / (s.median * 1e-3) / 1e9;
	rc = 0;
out:
	gpu_free(out);
	return rc;
}

int roofs_measure_fp32(bool refresh, double *gflops, struct error *e)
{
	void *kernel, *args[4];
	int iters = ITERS;
	float m = 0.9999f, c = 1e-4f;

	if (gpu_init(e) != 0)
		return -1;
	if (!refresh && roofs_fp32_cached(gflops))
		return 0;
	if (gpu_kernel("roofs", "fp32_ceiling", &kernel, e) != 0)
		return -1;
	args[1] = &iters;
	args[2] = &m;
	args[3] = &c;
	/* two FLOPs per FFMA */
	if (ceiling_rate(kernel, args, 2.0 * BLOCK * (double)iters * UNROLL * CHAINS, gflops, e) != 0)
		return -1;
	cache_write("fp32-peak", *gflops);
	return 0;
}

const char *roofs_tensor_kernel_name(enum roofs_tensor_kernel k)
{
	return k == TENSOR_WGMMA ? "tensor_wgmma_ceiling (kernels/roofs_hopper.cu)" :
	    k == TENSOR_MMA ? "tensor_mma_ceiling (kernels/roofs.cu)" : NULL;
}

/* Hopper's wgmma where the GPU is a 9.0 and its module loads, else mma.sync; none below 8.0. */
static enum roofs_tensor_kernel tensor_kernel(void **kernel, struct error *e)
{
	const struct gpu_info *g = gpu_info();
	struct error ignored;

	if (g->cc_major < 8) {
		error_set(e, _("no BF16 tensor cores below compute capability 8.0 (this GPU: %s)"), g->arch);
		return TENSOR_NONE;
	}
	if (g->cc_major == 9 && g->cc_minor == 0 &&
	    gpu_kernel("roofs_hopper", "tensor_wgmma_ceiling", kernel, &ignored) == 0)
		return TENSOR_WGMMA;
	return gpu_kernel("roofs", "tensor_mma_ceiling", kernel, e) == 0 ? TENSOR_MMA : TENSOR_NONE;
}

int roofs_tensor_cached(double *gflops, enum roofs_tensor_kernel *k)
{
	double v;

	if (cached("tensor-bf16-peak", gflops) && cached("tensor-bf16-kernel", &v)) {
		*k = (enum roofs_tensor_kernel)(int)v;
		return *k == TENSOR_MMA || *k == TENSOR_WGMMA;
	}
	return 0;
}

int roofs_measure_tensor_kernel(enum roofs_tensor_kernel which, bool random, double *gflops, struct error *e)
{
	void *kernel, *args[4];
	unsigned int seed = 0x3f80u;
	int iters, random_operands = random;
	double per_block;

	if (random && which != TENSOR_WGMMA) {
		error_set(e, _("the tensor ceiling on random operands is measured by wgmma alone (Hopper)"));
		return -1;
	}
	if (gpu_init(e) != 0)
		return -1;
	if (which == TENSOR_WGMMA) {
		if (gpu_kernel("roofs_hopper", "tensor_wgmma_ceiling", &kernel, e) != 0)
			return -1;
		/* two warpgroups a block, each wgmma m64n256k16 2 x 64 x 256 x 16 FLOPs */
		iters = WGMMA_ITERS;
		per_block = (BLOCK / 128) * (double)iters * WGMMA_UNROLL * 2.0 * 64 * 256 * 16;
	} else {
		if (gpu_kernel("roofs", "tensor_mma_ceiling", &kernel, e) != 0)
			return -1;
		/* a warp's mma m16n8k16: 2 x 16 x 8 x 16 FLOPs */
		iters = MMA_ITERS;
		per_block = (BLOCK / 32) * (double)iters * MMA_UNROLL * MMA_ACC * 2.0 * 16 * 8 * 16;
	}
	args[1] = &iters;
	args[2] = &seed;
	args[3] = &random_operands;	/* the wgmma kernel's; mma.sync's takes three */
	return ceiling_rate(kernel, args, per_block, gflops, e);
}

int roofs_tensor_random_cached(double *gflops)
{
	return cached("tensor-bf16-random", gflops);
}

int roofs_measure_tensor_random(bool refresh, double *gflops, struct error *e)
{
	void *kernel;
	enum roofs_tensor_kernel k;

	if (gpu_init(e) != 0)
		return -1;
	if (!refresh && roofs_tensor_random_cached(gflops))
		return 0;
	/* the kernel the ceiling is measured by here; mma.sync's refuses random operands */
	if ((k = tensor_kernel(&kernel, e)) == TENSOR_NONE || roofs_measure_tensor_kernel(k, true, gflops, e) != 0)
		return -1;
	cache_write("tensor-bf16-random", *gflops);
	return 0;
}

int roofs_measure_tensor(bool refresh, double *gflops, enum roofs_tensor_kernel *k, struct error *e)
{
	void *kernel;

	if (gpu_init(e) != 0)
		return -1;
	if (!refresh && roofs_tensor_cached(gflops, k))
		return 0;
	if ((*k = tensor_kernel(&kernel, e)) == TENSOR_NONE ||
	    roofs_measure_tensor_kernel(*k, false, gflops, e) != 0)
		return -1;
	cache_write("tensor-bf16-peak", *gflops);
	cache_write("tensor-bf16-kernel", (double)*k);
	return 0;
}

/* ---- the latency of a load ------------------------------------------------- */

/* Loads of one timed chase, runs of it, and the chase before them. */
#define CHASE_LOADS 20000
#define CHASE_RUNS 5
#define CHASE_WARMUP 2000
/* Strides of 4 to 8 KB (in 4-byte words): a new 128-byte line every load, hundreds a 2 MiB page. */
#define CHASE_MIN 1024u
#define CHASE_WINDOW 1024u
#define CHASE_DRAM_BYTES ((size_t)1 << 30)
#define CHASE_L2_BYTES ((size_t)8 << 20)

int roofs_latency_cached(double *dram_ns, double *l2_ns)
{
	return cached("dram-latency-ns", dram_ns) && cached("l2-latency-ns", l2_ns);
}

struct chase_job {
	void *kernel;
	void *args[3];
};

static int chase_launch(void *ctx, struct error *e)
{
	struct chase_job *j = ctx;

	return gpu_launch(j->kernel, 1, 1, 0, j->args, e);
}

/*
 * ns a load of one thread's chase through bytes of device memory, linked
 * by chase_fill just before (what fits in L2 is then in it).  Each run
 * goes on where the last stopped: 102,000 loads of 4 to 8 KB strides stay
 * within 1 GiB, so no line is read twice.
 */
static int chase_ns(size_t bytes, double *ns, struct error *e)
{
	void *fill, *chain = NULL, *state = NULL;
	unsigned int n = (unsigned int)(bytes / 4), min = CHASE_MIN, window = CHASE_WINDOW, zero = 0;
	int warm = CHASE_WARMUP, loads = CHASE_LOADS, rc = -1;
	struct chase_job j;
	double times[CHASE_RUNS];
	struct stats s;

	if (gpu_kernel("roofs", "chase_fill", &fill, e) != 0 ||
	    gpu_kernel("roofs", "pointer_chase", &j.kernel, e) != 0)
		return -1;
	if (gpu_malloc(&chain, bytes, e) != 0 || gpu_malloc(&state, sizeof zero, e) != 0 ||
	    gpu_copy_to_device(state, &zero, sizeof zero, e) != 0)
		goto out;
	if (gpu_launch(fill, (unsigned int)gpu_info()->sm_count * 4, BLOCK, 0,
	    (void *[]){ &chain, &n, &min, &window }, e) != 0)
		goto out;
	j.args[0] = &chain;
	j.args[1] = &state;
	j.args[2] = &warm;
	if (chase_launch(&j, e) != 0)
		goto out;
	j.args[2] = &loads;
	if (gpu_time_runs(CHASE_RUNS, chase_launch, &j, times, e) != 0)
		goto out;
	stats_compute(times, CHASE_RUNS, &s);
	*ns = s.median * 1e6 / CHASE_LOADS;
	rc = 0;
out:
	gpu_free(state);
	gpu_free(chain);
	return rc;
}

int roofs_measure_latency(bool refresh, double *dram_ns, double *l2_ns, struct error *e)
{
	const struct gpu_info *g;
	size_t l2 = CHASE_L2_BYTES;

	if (gpu_init(e) != 0)
		return -1;
	if (!refresh && roofs_latency_cached(dram_ns, l2_ns))
		return 0;
	g = gpu_info();
	/* well inside L2 on a GPU whose L2 is smaller than 16 MiB */
	if (g->l2_bytes > 0 && g->l2_bytes < 2 * l2)
		l2 = g->l2_bytes / 2;
	if (chase_ns(l2, l2_ns, e) != 0 || chase_ns(CHASE_DRAM_BYTES, dram_ns, e) != 0)
		return -1;
	cache_write("dram-latency-ns", *dram_ns);
	cache_write("l2-latency-ns", *l2_ns);
	return 0;
}

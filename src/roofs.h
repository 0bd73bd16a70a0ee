/* The roofs of a GPU: how fast its memory and its arithmetic can go at all. */
#ifndef CUDATUTOR_ROOFS_H
#define CUDATUTOR_ROOFS_H

#include <stdbool.h>

#include <jansson.h>

#include "util.h"

/*
 * Each roof twice: theoretical, from the clocks the driver reports and a
 * table of what each architecture does per clock, and measured, by the
 * tutor on this GPU (DRAM: the device-to-device copy it already measures;
 * FP32: a kernel of independent FFMA chains, kernels/roofs.cu).  The
 * tensor peak is the spec's alone until a lesson brings its own ceiling
 * kernel.  0 stands for unknown everywhere: never a made-up figure.
 *
 *   DRAM   memory clock (max) x 2 (double data rate) x bus width / 8
 *          (H100 SXM: 2619 MHz x 2 x 5120 / 8 = 3352 GB/s, the 3.35 TB/s of its spec)
 *   FP32   multiprocessors x FP32 lanes per SM x 2 (an FFMA is two FLOPs) x SM clock (max)
 *   tensor multiprocessors x dense BF16/FP16 FLOPs per clock per SM x SM clock (max)
 */
/*
 * What a step's DRAM traffic is made of: a copy (one byte read for one
 * written), reads alone (a sum), two reads for one write (a vector add),
 * writes alone.  The bus turns between reading and writing cost a copy
 * what a stream of reads does not pay, so each has its own roof.
 */
enum dram_mix { MIX_COPY, MIX_READ, MIX_ADD, MIX_WRITE, DRAM_MIXES };
/* "copy", "read", "read2_write1", "write": the mix's name in JSON */
const char *roofs_mix_name(enum dram_mix m);

/* Which kernel measured the tensor ceiling. */
enum roofs_tensor_kernel { TENSOR_NONE, TENSOR_MMA, TENSOR_WGMMA };

struct gpu_roofs {
	bool have;			/* anything below is known */
	char clock_source[8];		/* where the clocks come from: "nvml", "cuda", "" */
	int sm_count;
	int sm_clock_max_mhz, mem_clock_max_mhz, bus_width_bits;
	int fp32_lanes_per_sm;		/* from the table, by compute capability */
	int tensor_flops_per_clock_sm;
	double dram_theoretical_gbps, fp32_theoretical_gflops, tensor_spec_gflops;
	double dram_measured_gbps, fp32_measured_gflops;
	double tensor_measured_gflops;	/* BF16 in, FP32 accumulate: the tensor ceiling kernel's rate */
	enum roofs_tensor_kernel tensor_kernel;	/* which one measured it */
	/*
	 * The same wgmma kernel on random BF16 operands, where the ceiling's
	 * own are nearly constant: the rate of a real product, whose bits
	 * draw more power.  0: not measured (mma.sync GPUs, files before).
	 */
	double tensor_random_gflops;
	/* one thread's chain of dependent loads (pointer_chase, kernels/roofs.cu): ns a load; 0: unknown */
	double dram_latency_ns, l2_latency_ns;
	/*
	 * DRAM measured by mix (stream_read, stream_add, stream_write in
	 * kernels/measure.cu, timed as the steps are); [MIX_COPY] is
	 * dram_measured_gbps's.  0: not measured (files recorded before).
	 */
	double dram_mix_gbps[DRAM_MIXES];
};

/* The clocks and the temperature at one moment of a run (NVML's). */
struct gpu_clocks {
	bool have;
	int sm_mhz, mem_mhz;
	int temperature_c;		/* -1: unknown */
};

/* FP32 lanes per multiprocessor of compute capability major.minor; 0: not in the table. */
int roofs_fp32_lanes(int major, int minor);
/* Dense BF16/FP16 tensor FLOPs per clock per multiprocessor; 0: not in the table. */
int roofs_tensor_per_clock(int major, int minor);
/* "sm_90" -> 9, 0; false if it is not one. */
bool roofs_parse_arch(const char *arch, int *major, int *minor);

/*
 * The theoretical roofs into r from the GPU's clocks (MHz), bus (bits)
 * and size; what a 0 leaves unknown stays 0.  The measured ones are
 * left as they are.
 */
void roofs_theoretical(struct gpu_roofs *r, const char *arch, int sm_count, int sm_clock_max_mhz,
    int mem_clock_max_mhz, int bus_width_bits);

/*
 * Which roof holds a step back: below the ridge point memory, above it
 * arithmetic; shared memory for a step whose bytes never leave it; the
 * issue of instructions for a step its counters show instruction-bound.
 */
enum roof_limiter { ROOF_NONE, ROOF_DRAM, ROOF_FP32, ROOF_TENSOR, ROOF_SHARED, ROOF_ISSUE };
/* "dram", "fp32", "tensor", "shared", "issue"; NULL for none */
const char *roofs_limiter_name(enum roof_limiter l);
/* "GB/s", "GFLOP/s" or "Ginst/s" (warp instructions): what a roof of this limiter counts */
const char *roofs_limiter_unit(enum roof_limiter l);

/*
 * Two theoretical roofs from the SM count and clock alone, the same on
 * every GPU the toolkit builds for (compute capability 7.5 and later):
 *
 *   shared memory  SMs x 32 banks x 4 bytes x SM clock (max), GB/s
 *   issue          SMs x 4 warp schedulers x 1 warp instruction x SM clock (max),
 *                  billions of warp instructions a second
 *
 * 0 where the SM count or clock is unknown.  Neither is measured.
 */
#define ROOFS_SHARED_BYTES_PER_CLOCK_SM 128
#define ROOFS_ISSUE_PER_CLOCK_SM 4
double roofs_shared_gbps(const struct gpu_roofs *r);
double roofs_issue_ginst(const struct gpu_roofs *r);

/* A step against the roofs. */
struct roof_point {
	bool have;			/* false: no roofs, no time, or no bytes to place it by */
	double intensity;		/* FLOP per byte of device memory */
	double gflops;			/* the FLOPs it must do over its time: where a roofline draws it */
	enum roof_limiter limiter;
	double roof;			/* the roof that applies, GB/s or GFLOP/s: measured (tensor: else the spec); 0: none */
	double roof_theoretical;	/* the theoretical one; 0: unknown */
	double pct_of_roof;		/* achieved / roof x 100; 0 where roof is 0 */
	double pct_of_theoretical;
	bool roof_exceeded;		/* faster than the roof allows: a measurement error */
	bool tensor;			/* placed as a tensor-core step: its arithmetic is held to the tensor roof */
};

/*
 * A step whose bytes move between shared memory and registers alone
 * (bytes in ms) against the shared-memory roof; intensity and GFLOP/s 0:
 * no point on the DRAM roofline.
 */
void roofs_place_shared(const struct gpu_roofs *r, double bytes, double ms, struct roof_point *p);
/*
 * A step placed already (roofs_place_step) held instead to the shared-memory
 * or the issue roof (lim), where its counters show that one binds: it
 * achieved `achieved` (GB/s of shared memory, or billions of warp
 * instructions a second).  Its point on the roofline stays where it was.
 */
void roofs_hold(const struct gpu_roofs *r, enum roof_limiter lim, double achieved, struct roof_point *p);

/* Above this percentage of its roof a time is a measurement error, not a result. */
#define ROOFS_EXCEEDED_PCT 105.0

/*
 * Place a step that moves bytes to and from device memory and does flops
 * in ms milliseconds.  The ridge point (FP32 roof / DRAM roof, FLOP per
 * byte) of the measured roofs, else of the theoretical ones, says which
 * roof applies.
 */
void roofs_place(const struct gpu_roofs *r, double bytes, double flops, double ms,
    struct roof_point *p);

/*
 * What the timed window shows of a step's DRAM traffic, beside the bytes
 * it must move (see roofs_place_step and doc/roofs.md).
 */
struct roof_traffic {
	/*
	 * The bytes the DRAM moved while the kernel ran (read + written, from
	 * the counters read at the same size); 0: not read.  The flush
	 * between timed runs writes back what the kernel left dirty in L2,
	 * outside the window: where the counters show fewer bytes than the
	 * step must move, only those reached DRAM in its time.
	 */
	double dram_bytes;
	/*
	 * What its traffic is made of: it is held to the DRAM roof measured
	 * for that mix.  Where none was (a file recorded before), a step that
	 * only reads is held to the theoretical roof, the one reads meet, and
	 * the others to the copy's.
	 */
	enum dram_mix mix;
	/* Its multiply-adds run on tensor cores (the experiment "tensor"): above its ridge the tensor roof holds it */
	bool tensor;
};

/* roofs_place, with what the window shows of the step's traffic (t may be NULL). */
void roofs_place_step(const struct gpu_roofs *r, double bytes, double flops, double ms,
    const struct roof_traffic *t, struct roof_point *p);
/* FLOP per byte where the two roofs meet; 0 when unknown.  measured: of the measured roofs. */
double roofs_ridge(const struct gpu_roofs *r, bool measured);
/*
 * The BF16 tensor roof a tensor-core step is held to: the measured
 * ceiling, else the spec's figure (*measured says which); 0 when neither
 * is known.
 */
double roofs_tensor_roof(const struct gpu_roofs *r, bool *measured);
/* FLOP per byte where DRAM's roof meets that tensor roof (measured DRAM, else theoretical); 0 when unknown. */
double roofs_tensor_ridge(const struct gpu_roofs *r);

/*
 * Little's law: the bytes that must be on their way from DRAM at every
 * moment for it to deliver its measured bandwidth, bandwidth x latency
 * (GB/s x ns = bytes), on the whole GPU and per SM; 0 where either is
 * unknown.
 */
double roofs_in_flight_gpu(const struct gpu_roofs *r);
double roofs_in_flight_per_sm(const struct gpu_roofs *r);

/* The "roofs" object of results files; null when nothing is known. */
json_t *roofs_to_json(const struct gpu_roofs *r);
/* Read it back: o NULL or null leaves r unknown.  0, or -1 and e (naming file) when it is damaged. */
int roofs_from_json(json_t *o, const char *file, struct gpu_roofs *r, struct error *e);
/* {"sm_mhz", "memory_mhz", "temperature_c"}, or null */
json_t *roofs_clocks_to_json(const struct gpu_clocks *c);
int roofs_clocks_from_json(json_t *o, struct gpu_clocks *c);

/*
 * On the GPU, in this process: the FP32 ceiling kernel's rate in
 * GFLOP/s, the median of its runs; cached per GPU and driver like the
 * copy bandwidth (refresh: measured again).
 */
int roofs_measure_fp32(bool refresh, double *gflops, struct error *e);
/* The cached figure for this GPU: 1 and *gflops, or 0. */
int roofs_fp32_cached(double *gflops);

/*
 * The BF16 tensor ceiling, in GFLOP/s: on compute capability 9.0 Hopper's
 * wgmma (m64n256k16 from shared memory, kernels/roofs_hopper.cu, built for
 * sm_90a alone), elsewhere from 8.0 on back-to-back mma.sync m16n8k16 on
 * independent accumulators (kernels/roofs.cu); -1 and e below 8.0.  *k
 * says which kernel measured it.  Cached per GPU and driver as the FP32
 * ceiling is.
 */
int roofs_measure_tensor(bool refresh, double *gflops, enum roofs_tensor_kernel *k, struct error *e);
/* One of the two tensor ceiling kernels, measured now (no cache), on random operands or not: for the tests. */
int roofs_measure_tensor_kernel(enum roofs_tensor_kernel which, bool random, double *gflops, struct error *e);
int roofs_tensor_cached(double *gflops, enum roofs_tensor_kernel *k);
/*
 * The wgmma ceiling on random BF16 operands (compute capability 9.0
 * alone; -1 and e elsewhere), cached as the others.
 */
int roofs_measure_tensor_random(bool refresh, double *gflops, struct error *e);
int roofs_tensor_random_cached(double *gflops);
/* "tensor_mma_ceiling (kernels/roofs.cu)"; NULL for none */
const char *roofs_tensor_kernel_name(enum roofs_tensor_kernel k);

/*
 * The latency of a load that misses L2 (a chase through 1 GiB, TLB
 * misses included where a stride crosses a page) and of one that hits
 * it (8 MiB, written just before), in ns: the median of timed chases of
 * one thread.  Cached per GPU and driver as the FP32 ceiling is.
 */
int roofs_measure_latency(bool refresh, double *dram_ns, double *l2_ns, struct error *e);
int roofs_latency_cached(double *dram_ns, double *l2_ns);

#endif

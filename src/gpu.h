/* The GPU: discovery, kernels loaded from fatbins, memory, launches, timers. */
#ifndef CUDATUTOR_GPU_H
#define CUDATUTOR_GPU_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

/*
 * Only this module and the experiments call CUDA.  The program links the
 * static CUDA runtime, so it starts and works without a driver or a GPU:
 * gpu_init() then fails with a reason, and the views show recorded
 * results instead.  Every CUDA call is checked and its error turned into
 * text naming the call.
 */

struct gpu_info {
	char name[256];
	int cc_major, cc_minor;
	char arch[16];			/* "sm_90" */
	char driver[64];		/* "580.159.04", or the CUDA driver API version */
	int cuda_driver_version;	/* 13000 */
	int cuda_runtime_version;
	int sm_count;
	int max_threads_per_sm;
	size_t l2_bytes;
	size_t total_bytes;
	char uuid[40];
	/* the most the clocks reach, as the CUDA driver says (0: unknown); NVML says more (nvml.h) */
	int sm_clock_max_khz, mem_clock_max_khz;
	int bus_width_bits;
};

/* Idempotent and thread-safe.  0: a GPU is ready; -1: none, e says why. */
int gpu_init(struct error *e);

/*
 * A kernel that faults (an illegal address, a trap) leaves the context
 * unusable for the rest of the process: every later call fails.
 * gpu_broken() says so; the process must end (see isolate.h).
 */
int gpu_broken(void);
const struct gpu_info *gpu_info(void);

/*
 * bytes on the GPU, and a guard zone after them that gpu_guard_check
 * reads: a write past the end is caught (see gpu.c).
 */
int gpu_malloc(void **p, size_t bytes, struct error *e);
void gpu_free(void *p);

/* Where a kernel wrote past the end of a buffer. */
struct gpu_guard_hit {
	bool hit;
	size_t buffer_bytes;	/* the buffer's size as asked for */
	size_t offset;		/* the first byte written past it, from its start */
};
/* Fill every live buffer's guard zone (in order with launches on the tutor's stream). */
int gpu_guard_arm(struct error *e);
/* Read the guards back (waits for the GPU): hit->hit says whether one was written. */
int gpu_guard_check(struct gpu_guard_hit *hit, struct error *e);
/* Page-locked host memory, which copies to and from the GPU at full speed; -1 where there is none. */
int gpu_host_alloc(void **p, size_t bytes);
void gpu_host_free(void *p);
int gpu_mem_info(size_t *free_bytes, size_t *total_bytes, struct error *e);
int gpu_copy_to_device(void *dst, const void *src, size_t bytes, struct error *e);
int gpu_copy_to_host(void *dst, const void *src, size_t bytes, struct error *e);
/* Asynchronous on the tutor's stream, in order with launches. */
int gpu_copy_on_device(void *dst, const void *src, size_t bytes, struct error *e);
int gpu_fill(void *dst, int byte, size_t bytes, struct error *e);
/*
 * Rows of width_bytes, each starting at a multiple of *pitch bytes that
 * suits the GPU's memory (cudaMallocPitch); the 2-D copies move such rows
 * between a pitched and a packed buffer (cudaMemcpy2D).
 */
int gpu_malloc_pitch(void **p, size_t *pitch, size_t width_bytes, size_t rows, struct error *e);
int gpu_copy_2d_to_device(void *dst, size_t dst_pitch, const void *src, size_t src_pitch,
    size_t width_bytes, size_t rows, struct error *e);
int gpu_copy_2d_to_host(void *dst, size_t dst_pitch, const void *src, size_t src_pitch,
    size_t width_bytes, size_t rows, struct error *e);
int gpu_synchronize(struct error *e);

/*
 * Code compiled at run time (a student's cubin, from NVRTC) as a module of
 * this name: gpu_kernel() and gpu_global() on that name then find its
 * kernels and variables.  Loading it again replaces it.
 */
int gpu_module_from_image(const char *module, const void *image, struct error *e);
/* A kernel by its C name, from kernels/<module>.fatbin (loaded once). */
int gpu_kernel(const char *module, const char *name, void **kernel, struct error *e);
/* A __device__ or __constant__ variable of a module: its device address and size. */
int gpu_global(const char *module, const char *name, void **ptr, size_t *bytes, struct error *e);
int gpu_launch(void *kernel, unsigned int grid, unsigned int block, size_t shared_bytes,
    void **args, struct error *e);
/* Let kernel take shared_bytes of dynamic shared memory a block (needed above 48 KB). */
int gpu_kernel_shared(void *kernel, size_t shared_bytes, struct error *e);
/*
 * A TMA descriptor (CUtensorMap, 128 bytes), passed to a kernel by value
 * as a __grid_constant__ parameter: args[] points at it.
 */
struct gpu_tensor_map {
	_Alignas(64) unsigned char bytes[128];
};
/*
 * The map of a row-major matrix of BF16 at base: rows of inner elements,
 * packed; the copies move boxes of box_inner x box_rows elements, with
 * a swizzle as wide as a box's row: 128 bytes for 64 elements (the
 * layout wgmma reads), 64 bytes for 32 (tensor_mma.cuh's swizzled()).
 */
int gpu_tensor_map_bf16(struct gpu_tensor_map *map, const void *base, unsigned long long inner,
    unsigned long long rows, unsigned int box_inner, unsigned int box_rows, struct error *e);
/* The same of FP32 (C stored by the TMA): boxes 32 floats wide, 128-byte swizzle. */
int gpu_tensor_map_f32(struct gpu_tensor_map *map, const void *base, unsigned long long inner,
    unsigned long long rows, unsigned int box_rows, struct error *e);
/*
 * Clusters of this kernel (its cluster size set where it is compiled,
 * __cluster_dims__) the GPU runs at once at this block size.
 */
int gpu_max_active_clusters(void *kernel, unsigned int block, size_t shared_bytes, int *clusters,
    struct error *e);
/* Resident blocks of this kernel per multiprocessor at this block size. */
int gpu_blocks_per_sm(void *kernel, unsigned int block, size_t shared_bytes, int *blocks,
    struct error *e);
/* Registers per thread the compiler gave the kernel (for this GPU's code). */
int gpu_kernel_registers(void *kernel, int *registers, struct error *e);
/* The stream all tutor work goes to, for libraries that take one. */
void *gpu_stream(void);

/*
 * A co-running load, for a check (measure_options.hold): a kernel of the
 * tutor's on a stream of its own holds n multiprocessors, one block on
 * each, so full that no block of another kernel fits beside it, until
 * gpu_hold_release.  gpu_hold_sms returns once every block of it runs;
 * the kernels launched meanwhile run on the other multiprocessors alone.
 */
int gpu_hold_sms(int n, struct error *e);
/* Let the load end and wait for it (e may be NULL); 0 where none holds. */
int gpu_hold_release(struct error *e);

/* Pairs of events around timed work. */
struct gpu_timers;
struct gpu_timers *gpu_timers_new(int n, struct error *e);
int gpu_timer_start(struct gpu_timers *t, int i, struct error *e);
int gpu_timer_stop(struct gpu_timers *t, int i, struct error *e);
/* After gpu_synchronize: milliseconds between start i and stop i. */
int gpu_timer_ms(struct gpu_timers *t, int i, double *ms, struct error *e);
void gpu_timers_free(struct gpu_timers *t);
/*
 * n runs of op(ctx), each between a pair of events, their milliseconds in
 * ms[0..n): the way the yardsticks (the copy, the FP32 ceiling) are timed.
 * 0, or -1 and e.
 */
int gpu_time_runs(int n, int (*op)(void *ctx, struct error *e), void *ctx, double *ms, struct error *e);

/* Turn a CUDA error code into "cudaErrorX: what it means". */
const char *gpu_error_text(int code, char *buf, size_t len);

#endif

/* The GPU: discovery, kernels loaded from fatbins, memory, launches, timers. */
#include "config.h"

#include <dirent.h>
#include <stdbool.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda.h>	/* types only (CUtensorMap): the driver is reached through the runtime */
#include <cuda_runtime_api.h>

#include "gpu.h"
#include "i18n.h"
#include "isolate.h"
#include "paths.h"

enum { GPU_NOT_TRIED, GPU_READY, GPU_ABSENT };

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static int state = GPU_NOT_TRIED;
static struct gpu_info info;
static char absent_reason[512];
static cudaStream_t stream;

/* Loaded fatbins, one per kernel family. */
struct loaded_module {
	char name[64];
	cudaLibrary_t lib;
};
static struct loaded_module modules[32];
static int module_count;
static pthread_mutex_t module_lock = PTHREAD_MUTEX_INITIALIZER;

const char *gpu_error_text(int code, char *buf, size_t len)
{
	snprintf(buf, len, "%s: %s", cudaGetErrorName((cudaError_t)code),
	    cudaGetErrorString((cudaError_t)code));
	return buf;
}

/* 0 on success, else fills e with the call's name and the error. */
/*
 * Errors after which the context is unusable until it is reset: a kernel
 * that faulted leaves them "sticky", and every later call returns them.
 */
static int is_sticky(cudaError_t rc)
{
	switch (rc) {
	case cudaErrorIllegalAddress:
	case cudaErrorLaunchFailure:
	case cudaErrorHardwareStackError:
	case cudaErrorIllegalInstruction:
	case cudaErrorMisalignedAddress:
	case cudaErrorInvalidAddressSpace:
	case cudaErrorInvalidPc:
	case cudaErrorAssert:
	case cudaErrorLaunchTimeout:
	case cudaErrorECCUncorrectable:
		return 1;
	default:
		return 0;
	}
}

static int broken;	/* a sticky error was seen: the context is lost */

static int check(cudaError_t rc, const char *call, struct error *e)
{
	char text[256];

	if (rc == cudaSuccess)
		return 0;
	if (is_sticky(rc)) {
		broken = 1;
		error_set(e, _("the kernel failed (%s); this process cannot use the GPU any more"),
		    gpu_error_text(rc, text, sizeof text));
		return -1;
	}
	error_set(e, _("CUDA error in %s: %s"), call, gpu_error_text(rc, text, sizeof text));
	return -1;
}

/*
 * The kernel module's version, e.g. "580.159.04", from the first line of
 * /proc/driver/nvidia/version ("NVRM version: NVIDIA UNIX [Open] Kernel
 * Module [for x86_64]  580.159.04  Release Build ..."): the first word made
 * of digits and dots.  Empty where unreadable.
 */
static void read_driver_version(char *buf, size_t len)
{
	FILE *f = fopen("/proc/driver/nvidia/version", "r");
	char line[512];

	buf[0] = '\0';
	if (f == NULL)
		return;
	if (fgets(line, sizeof line, f) != NULL) {
		for (char *w = strtok(line, " \t\n"); w != NULL; w = strtok(NULL, " \t\n")) {
			size_t n = strspn(w, "0123456789.");
			if (n == strlen(w) && n > 2 && strchr(w, '.') != NULL && n < len) {
				memcpy(buf, w, n + 1);
				break;
			}
		}
	}
	fclose(f);
}

/*
 * Whether the machine has an NVIDIA display or 3D controller on its PCI
 * bus (vendor 0x10de, class 0x03): only then is a missing driver the
 * reason, and driver advice of any use.
 */
static bool nvidia_device_present(void)
{
	DIR *d = opendir("/sys/bus/pci/devices");
	struct dirent *de;
	bool found = false;

	while (d != NULL && !found && (de = readdir(d)) != NULL) {
		char path[512], vendor[16] = "", class[16] = "";
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/vendor", de->d_name);
		if ((f = fopen(path, "r")) != NULL) {
			if (fgets(vendor, sizeof vendor, f) == NULL)
				vendor[0] = '\0';
			fclose(f);
		}
		snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/class", de->d_name);
		if ((f = fopen(path, "r")) != NULL) {
			if (fgets(class, sizeof class, f) == NULL)
				class[0] = '\0';
			fclose(f);
		}
		found = strncmp(vendor, "0x10de", 6) == 0 && strncmp(class, "0x03", 4) == 0;
	}
	if (d != NULL)
		closedir(d);
	return found;
}

/* Why there is no GPU, short enough for one status line; driver advice only beside an NVIDIA device. */
static void explain_absence(cudaError_t rc)
{
	char text[256];

	switch (rc) {
	case cudaErrorNoDevice:
		snprintf(absent_reason, sizeof absent_reason, "%s", _("no NVIDIA GPU found"));
		break;
	case cudaErrorInsufficientDriver:
		snprintf(absent_reason, sizeof absent_reason, "%s", nvidia_device_present() ?
		    _("NVIDIA driver missing or older than 580") : _("no NVIDIA GPU found"));
		break;
	default:
		snprintf(absent_reason, sizeof absent_reason, _("the GPU cannot be used (%s)"),
		    gpu_error_text(rc, text, sizeof text));
		break;
	}
}

static int init_locked(void)
{
	struct cudaDeviceProp prop;
	const char *env = getenv("CUDATUTOR_NO_GPU");
	int count = 0, device = 0;
	cudaError_t rc;

	if (env != NULL && *env != '\0' && strcmp(env, "0") != 0) {
		snprintf(absent_reason, sizeof absent_reason, "%s", _("switched off by CUDATUTOR_NO_GPU"));
		return GPU_ABSENT;
	}
	rc = cudaGetDeviceCount(&count);
	if (rc != cudaSuccess || count == 0) {
		explain_absence(rc == cudaSuccess ? cudaErrorNoDevice : rc);
		return GPU_ABSENT;
	}
	env = getenv("CUDATUTOR_DEVICE");
	if (env != NULL && *env != '\0') {
		device = atoi(env);
		if (device < 0 || device >= count)
			device = 0;
	}
	if ((rc = cudaSetDevice(device)) != cudaSuccess ||
	    (rc = cudaFree(NULL)) != cudaSuccess ||	/* creates the context now */
	    (rc = cudaGetDeviceProperties(&prop, device)) != cudaSuccess ||
	    (rc = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)) != cudaSuccess) {
		explain_absence(rc);
		return GPU_ABSENT;
	}

	snprintf(info.name, sizeof info.name, "%s", prop.name);
	info.cc_major = prop.major;
	info.cc_minor = prop.minor;
	snprintf(info.arch, sizeof info.arch, "sm_%d%d", prop.major, prop.minor);
	info.sm_count = prop.multiProcessorCount;
	info.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
	info.l2_bytes = (size_t)prop.l2CacheSize;
	info.total_bytes = prop.totalGlobalMem;
	/* for the roofs (roofs.c); an attribute a driver lacks stays 0 */
	if (cudaDeviceGetAttribute(&info.sm_clock_max_khz, cudaDevAttrClockRate, device) != cudaSuccess)
		info.sm_clock_max_khz = 0;
	if (cudaDeviceGetAttribute(&info.mem_clock_max_khz, cudaDevAttrMemoryClockRate, device) != cudaSuccess)
		info.mem_clock_max_khz = 0;
	if (cudaDeviceGetAttribute(&info.bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, device) != cudaSuccess)
		info.bus_width_bits = 0;
	cudaDriverGetVersion(&info.cuda_driver_version);
	cudaRuntimeGetVersion(&info.cuda_runtime_version);
	read_driver_version(info.driver, sizeof info.driver);
	if (info.driver[0] == '\0')
		snprintf(info.driver, sizeof info.driver, "CUDA %d.%d",
		    info.cuda_driver_version / 1000, info.cuda_driver_version % 1000 / 10);
	{
		const unsigned char *u = (const unsigned char *)prop.uuid.bytes;
		char *p = info.uuid;
		for (int i = 0; i < 16; i++)
			p += sprintf(p, "%02x", u[i]);
	}
	return GPU_READY;
}

/*
 * With isolation on (isolate.h) the tutor's own process never creates a
 * CUDA context: a child looks at the GPU and reports back, and the
 * parent keeps only what it said (remote = 1).  A child forked later
 * inherits that report but no context, so it initializes for real.
 */
static int remote;

struct probe_result {
	int state;
	struct gpu_info info;
	char reason[sizeof absent_reason];
};

static int probe(void *arg, void *result, struct isolate_channel *ch, struct error *e)
{
	struct probe_result *r = result;

	(void)arg;
	(void)ch;
	(void)e;
	r->state = init_locked();
	r->info = info;
	memcpy(r->reason, absent_reason, sizeof r->reason);
	return 0;
}

int gpu_init(struct error *e)
{
	pthread_mutex_lock(&init_lock);
	if (remote && !isolate_enabled()) {
		state = GPU_NOT_TRIED;
		remote = 0;
	}
	if (state == GPU_NOT_TRIED && isolate_enabled()) {
		struct probe_result r;
		struct error why;

		if (isolate_run(probe, NULL, &r, sizeof r, NULL, &why) == 0) {
			state = r.state;
			info = r.info;
			memcpy(absent_reason, r.reason, sizeof absent_reason);
		} else {
			state = GPU_ABSENT;
			snprintf(absent_reason, sizeof absent_reason, _("the GPU cannot be used (%.400s)"), why.msg);
		}
		remote = 1;
	} else if (state == GPU_NOT_TRIED) {
		state = init_locked();
	}
	pthread_mutex_unlock(&init_lock);
	if (state == GPU_READY)
		return 0;
	error_set(e, "%s", absent_reason);
	return -1;
}

/* GPU work in the isolated parent would make it a CUDA process after all. */
static int in_parent(struct error *e)
{
	if (!remote || !isolate_enabled())
		return 0;
	error_set(e, "%s", _("internal error: GPU work was asked of the tutor's own process instead of a step's"));
	return 1;
}

int gpu_broken(void)
{
	return broken;
}

const struct gpu_info *gpu_info(void)
{
	return state == GPU_READY ? &info : NULL;
}

/*
 * Every buffer gets a guard zone after its end, filled with GUARD_BYTE
 * before each run and read back after it (gpu_guard_arm, gpu_guard_check):
 * a kernel that writes one element too far writes into its own buffer's
 * guard, is caught there, and its index is named.  Without the guard such
 * a write lands in whatever the allocator put next, and shows, if at all,
 * as a wrong element of another buffer.
 */
#define GUARD_BYTES 4096
#define GUARD_BYTE 0xa5
#define MAX_GUARDED 64

static struct guarded {
	char *start;		/* the buffer; NULL: a free slot */
	size_t bytes;		/* what the caller asked for: the guard starts here */
} guarded[MAX_GUARDED];

static int guard_off = -1;	/* CUDATUTOR_NO_GUARD: no guards (compute-sanitizer's memcheck) */

static void guard_add(void *p, size_t bytes)
{
	for (int i = 0; i < MAX_GUARDED; i++)
		if (guarded[i].start == NULL) {
			guarded[i].start = p;
			guarded[i].bytes = bytes;
			return;
		}
	/* more buffers than slots: the last ones go unguarded, never unfreed */
}

int gpu_guard_arm(struct error *e)
{
	for (int i = 0; i < MAX_GUARDED; i++)
		if (guarded[i].start != NULL &&
		    check(cudaMemsetAsync(guarded[i].start + guarded[i].bytes, GUARD_BYTE, GUARD_BYTES, stream),
		    "cudaMemsetAsync", e) != 0)
			return -1;
	return 0;
}

int gpu_guard_check(struct gpu_guard_hit *hit, struct error *e)
{
	unsigned char back[GUARD_BYTES];

	memset(hit, 0, sizeof *hit);
	if (check(cudaStreamSynchronize(stream), "cudaStreamSynchronize", e) != 0)
		return -1;
	for (int i = 0; i < MAX_GUARDED; i++) {
		if (guarded[i].start == NULL)
			continue;
		if (check(cudaMemcpy(back, guarded[i].start + guarded[i].bytes, GUARD_BYTES,
		    cudaMemcpyDeviceToHost), "cudaMemcpy", e) != 0)
			return -1;
		for (size_t j = 0; j < GUARD_BYTES; j++)
			if (back[j] != GUARD_BYTE) {
				hit->hit = true;
				hit->buffer_bytes = guarded[i].bytes;
				hit->offset = guarded[i].bytes + j;
				return 0;
			}
	}
	return 0;
}

int gpu_malloc(void **p, size_t bytes, struct error *e)
{
	char text[256];
	cudaError_t rc;

	if (in_parent(e))
		return -1;
	/* under compute-sanitizer, memcheck is the guard: it must see the buffer's true end */
	if (guard_off < 0)
		guard_off = getenv("CUDATUTOR_NO_GUARD") != NULL;
	rc = cudaMalloc(p, bytes + (guard_off ? 0 : GUARD_BYTES));

	if (rc == cudaSuccess) {
		if (!guard_off)
			guard_add(*p, bytes);
		return 0;
	}
	*p = NULL;
	cudaGetLastError();	/* out of memory is not sticky: clear it */
	{
		char need[32];
		error_set(e, _("cannot allocate %s on the GPU (%s): try a smaller --size"),
		    format_bytes((double)bytes, need, sizeof need), gpu_error_text(rc, text, sizeof text));
	}
	return -1;
}

void gpu_free(void *p)
{
	if (p == NULL)
		return;
	for (int i = 0; i < MAX_GUARDED; i++)
		if (guarded[i].start == p)
			guarded[i].start = NULL;
	cudaFree(p);
}

int gpu_host_alloc(void **p, size_t bytes)
{
	struct error ignored;

	*p = NULL;
	if (state != GPU_READY || in_parent(&ignored))
		return -1;
	if (cudaMallocHost(p, bytes) == cudaSuccess)
		return 0;
	*p = NULL;
	cudaGetLastError();	/* not sticky: the caller falls back to malloc */
	return -1;
}

void gpu_host_free(void *p)
{
	if (p != NULL)
		cudaFreeHost(p);
}

int gpu_mem_info(size_t *free_bytes, size_t *total_bytes, struct error *e)
{
	if (in_parent(e))
		return -1;
	return check(cudaMemGetInfo(free_bytes, total_bytes), "cudaMemGetInfo", e);
}

int gpu_copy_to_device(void *dst, const void *src, size_t bytes, struct error *e)
{
	return check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream),
	    "cudaMemcpyAsync (to the GPU)", e) ||
	    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize", e) ? -1 : 0;
}

int gpu_copy_to_host(void *dst, const void *src, size_t bytes, struct error *e)
{
	return check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream),
	    "cudaMemcpyAsync (to the host)", e) ||
	    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize", e) ? -1 : 0;
}

int gpu_copy_on_device(void *dst, const void *src, size_t bytes, struct error *e)
{
	return check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream),
	    "cudaMemcpyAsync (on the GPU)", e);
}

int gpu_fill(void *dst, int byte, size_t bytes, struct error *e)
{
	return check(cudaMemsetAsync(dst, byte, bytes, stream), "cudaMemsetAsync", e);
}

int gpu_malloc_pitch(void **p, size_t *pitch, size_t width_bytes, size_t rows, struct error *e)
{
	char text[256];
	/* one row more than asked: its first GUARD_BYTES are the guard (see gpu_malloc) */
	size_t extra;
	cudaError_t rc;

	if (guard_off < 0)
		guard_off = getenv("CUDATUTOR_NO_GUARD") != NULL;
	extra = guard_off ? 0 : (GUARD_BYTES + width_bytes - 1) / width_bytes;
	rc = cudaMallocPitch(p, pitch, width_bytes, rows + extra);
	if (rc == cudaSuccess) {
		if (extra > 0 && *pitch * extra >= GUARD_BYTES)
			guard_add(*p, *pitch * rows);
		return 0;
	}
	*p = NULL;
	cudaGetLastError();	/* out of memory is not sticky: clear it */
	{
		char need[32];
		error_set(e, _("cannot allocate %s on the GPU (%s): try a smaller --size"),
		    format_bytes((double)width_bytes * (double)rows, need, sizeof need),
		    gpu_error_text(rc, text, sizeof text));
	}
	return -1;
}

int gpu_copy_2d_to_device(void *dst, size_t dst_pitch, const void *src, size_t src_pitch,
    size_t width_bytes, size_t rows, struct error *e)
{
	return check(cudaMemcpy2DAsync(dst, dst_pitch, src, src_pitch, width_bytes, rows,
	    cudaMemcpyHostToDevice, stream), "cudaMemcpy2DAsync (to the GPU)", e) ||
	    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize", e) ? -1 : 0;
}

int gpu_copy_2d_to_host(void *dst, size_t dst_pitch, const void *src, size_t src_pitch,
    size_t width_bytes, size_t rows, struct error *e)
{
	return check(cudaMemcpy2DAsync(dst, dst_pitch, src, src_pitch, width_bytes, rows,
	    cudaMemcpyDeviceToHost, stream), "cudaMemcpy2DAsync (to the host)", e) ||
	    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize", e) ? -1 : 0;
}

int gpu_synchronize(struct error *e)
{
	return check(cudaStreamSynchronize(stream), "cudaStreamSynchronize", e);
}

void *gpu_stream(void)
{
	return stream;
}

static cudaLibrary_t module_get(const char *module, struct error *e)
{
	cudaLibrary_t lib = NULL;
	char *rel, *path;

	pthread_mutex_lock(&module_lock);
	for (int i = 0; i < module_count; i++) {
		if (strcmp(modules[i].name, module) == 0) {
			lib = modules[i].lib;
			pthread_mutex_unlock(&module_lock);
			return lib;
		}
	}
	rel = xasprintf("kernels/%s.fatbin", module);
	path = paths_build(rel);
	if (!file_exists(path)) {
		error_set(e, _("kernel file %s is missing: run make (or reinstall)"), path);
	} else if (check(cudaLibraryLoadFromFile(&lib, path, NULL, NULL, 0, NULL, NULL, 0),
	    "cudaLibraryLoadFromFile", e) == 0) {
		if (module_count < (int)ARRAY_LEN(modules)) {
			snprintf(modules[module_count].name, sizeof modules[0].name, "%s", module);
			modules[module_count].lib = lib;
			module_count++;
		}
	} else {
		char *msg = xstrdup(e->msg);
		error_set(e, _("%s (loading %s; if the GPU is newer than the build, rebuild with --with-cuda-arch)"),
		    msg, path);
		free(msg);
		lib = NULL;
	}
	pthread_mutex_unlock(&module_lock);
	free(rel);
	free(path);
	return lib;
}

int gpu_module_from_image(const char *module, const void *image, struct error *e)
{
	cudaLibrary_t lib;

	if (in_parent(e) || gpu_init(e) != 0)
		return -1;
	if (check(cudaLibraryLoadData(&lib, image, NULL, NULL, 0, NULL, NULL, 0), "cudaLibraryLoadData",
	    e) != 0)
		return -1;
	pthread_mutex_lock(&module_lock);
	for (int i = 0; i < module_count; i++)
		if (strcmp(modules[i].name, module) == 0) {
			/* the student compiled again: the new code replaces the old */
			cudaLibraryUnload(modules[i].lib);
			modules[i].lib = lib;
			pthread_mutex_unlock(&module_lock);
			return 0;
		}
	if (module_count == (int)ARRAY_LEN(modules)) {
		pthread_mutex_unlock(&module_lock);
		cudaLibraryUnload(lib);
		error_set(e, "%s", _("too many kernel modules loaded in one process"));
		return -1;
	}
	snprintf(modules[module_count].name, sizeof modules[0].name, "%s", module);
	modules[module_count].lib = lib;
	module_count++;
	pthread_mutex_unlock(&module_lock);
	return 0;
}

int gpu_kernel(const char *module, const char *name, void **kernel, struct error *e)
{
	cudaLibrary_t lib;
	cudaKernel_t k;
	cudaError_t rc;

	if (gpu_init(e) != 0 || in_parent(e))
		return -1;
	lib = module_get(module, e);
	if (lib == NULL)
		return -1;
	rc = cudaLibraryGetKernel(&k, lib, name);
	if (rc != cudaSuccess) {
		char text[256];
		error_set(e, _("kernel %s not found in kernels/%s.fatbin (%s)"), name, module,
		    gpu_error_text(rc, text, sizeof text));
		return -1;
	}
	*kernel = (void *)k;
	return 0;
}

int gpu_global(const char *module, const char *name, void **ptr, size_t *bytes, struct error *e)
{
	cudaLibrary_t lib;
	cudaError_t rc;

	if (gpu_init(e) != 0 || in_parent(e))
		return -1;
	lib = module_get(module, e);
	if (lib == NULL)
		return -1;
	rc = cudaLibraryGetGlobal(ptr, bytes, lib, name);
	if (rc != cudaSuccess) {
		char text[256];
		error_set(e, _("variable %s not found in kernels/%s.fatbin (%s)"), name, module,
		    gpu_error_text(rc, text, sizeof text));
		return -1;
	}
	return 0;
}

int gpu_launch(void *kernel, unsigned int grid, unsigned int block, size_t shared_bytes,
    void **args, struct error *e)
{
	dim3 g = { grid, 1, 1 }, b = { block, 1, 1 };

	return check(cudaLaunchKernel(kernel, g, b, args, shared_bytes, stream),
	    "cudaLaunchKernel", e);
}

int gpu_kernel_shared(void *kernel, size_t shared_bytes, struct error *e)
{
	/*
	 * Up to 48 KB a block takes by default, its static shared memory and
	 * the dynamic together; more only when the kernel asks.  Asked
	 * whenever dynamic memory is used: a kernel with static arrays too
	 * (an exercise's starting file can be one) may pass 48 KB with less.
	 */
	if (shared_bytes == 0)
		return 0;
	return check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
	    (int)shared_bytes), "cudaFuncSetAttribute", e);
}

/* ---- a co-running load ------------------------------------------------ */

static cudaStream_t hold_stream;
static unsigned int *hold_flags;	/* page-locked: [0] the release, then one per block held */
static int held;

int gpu_hold_sms(int n, struct error *e)
{
	volatile unsigned int *flags;
	int device, per_sm = 0, reserved = 0, optin = 0, started = 0;
	void *kernel, *resident, *release;
	void *args[] = { &resident, &release };
	size_t shared;
	double t0;

	if (n < 1 || held > 0)
		return 0;
	if (in_parent(e) || gpu_kernel("measure", "hold_sm", &kernel, e) != 0)
		return -1;
	if (n > info.sm_count)
		n = info.sm_count;
	if ((hold_stream == NULL &&
	     check(cudaStreamCreateWithFlags(&hold_stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags", e) != 0) ||
	    (hold_flags == NULL &&
	     check(cudaHostAlloc((void **)&hold_flags, (size_t)(info.sm_count + 1) * sizeof *hold_flags,
	     cudaHostAllocMapped), "cudaHostAlloc", e) != 0))
		return -1;
	/* a block's own shared memory and the little every block keeps: all the multiprocessor has */
	if (check(cudaGetDevice(&device), "cudaGetDevice", e) != 0 ||
	    check(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device),
	    "cudaDeviceGetAttribute", e) != 0 ||
	    check(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, device),
	    "cudaDeviceGetAttribute", e) != 0 ||
	    check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
	    "cudaDeviceGetAttribute", e) != 0)
		return -1;
	shared = (size_t)(per_sm - reserved < optin ? per_sm - reserved : optin);
	flags = hold_flags;
	for (int i = 0; i <= n; i++)
		flags[i] = 0;
	if (check(cudaHostGetDevicePointer(&release, hold_flags, 0), "cudaHostGetDevicePointer", e) != 0)
		return -1;
	resident = (unsigned int *)release + 1;
	if (check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared),
	    "cudaFuncSetAttribute", e) != 0 ||
	    check(cudaLaunchKernel(kernel, (dim3){ (unsigned int)n, 1, 1 }, (dim3){ 32, 1, 1 }, args, shared,
	    hold_stream), "cudaLaunchKernel", e) != 0)
		return -1;
	held = n;
	/* every block of it running before the kernel it loads starts */
	t0 = now_seconds();
	while (started < n && now_seconds() - t0 < 2.0) {
		started = 0;
		for (int i = 1; i <= n; i++)
			started += flags[i] != 0;
		if (started < n)
			nanosleep(&(struct timespec){ 0, 20 * 1000 }, NULL);
	}
	if (started < n) {
		gpu_hold_release(NULL);
		error_set(e, _("the load that holds %d multiprocessors started on %d of them within 2 s"), n, started);
		return -1;
	}
	return 0;
}

int gpu_hold_release(struct error *e)
{
	struct error ignored;

	if (held == 0)
		return 0;
	((volatile unsigned int *)hold_flags)[0] = 1;
	held = 0;
	return check(cudaStreamSynchronize(hold_stream), "cudaStreamSynchronize", e != NULL ? e : &ignored);
}

typedef CUresult (*encode_tiled_fn)(CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank,
    void *address, const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
    const cuuint32_t *element_strides, CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
    CUtensorMapL2promotion promotion, CUtensorMapFloatOOBfill fill);

/* The map of a row-major matrix of elem_bytes elements, boxes of box_inner x box_rows, the swizzle as wide as a box's row. */
static int tensor_map(struct gpu_tensor_map *map, CUtensorMapDataType type, unsigned int elem_bytes,
    const void *base, unsigned long long inner, unsigned long long rows, unsigned int box_inner,
    unsigned int box_rows, struct error *e)
{
	static encode_tiled_fn encode;
	enum cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
	cuuint64_t dims[2] = { inner, rows }, strides[1] = { inner * elem_bytes };	/* bytes between rows */
	cuuint32_t box[2] = { box_inner, box_rows }, element_strides[2] = { 1, 1 };
	unsigned int row_bytes = box_inner * elem_bytes;
	CUresult rc;

	_Static_assert(sizeof map->bytes == sizeof(CUtensorMap), "a tensor map is 128 bytes");
	if (gpu_init(e) != 0 || in_parent(e))
		return -1;
	/* the driver's function through the runtime: the tutor does not link libcuda */
	if (encode == NULL &&
	    (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&encode, 12000,
	    cudaEnableDefault, &found) != cudaSuccess || found != cudaDriverEntryPointSuccess || encode == NULL)) {
		encode = NULL;
		error_set(e, "%s", _("this CUDA driver has no cuTensorMapEncodeTiled (CUDA 12 or newer is needed)"));
		return -1;
	}
	if (row_bytes != 64 && row_bytes != 128) {
		error_set(e, _("a tensor map's box is %u bytes wide: only 64 and 128 (a 64- or 128-byte swizzle) are made"),
		    row_bytes);
		return -1;
	}
	rc = encode((CUtensorMap *)map->bytes, type, 2, (void *)base, dims,
	    strides, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
	    row_bytes == 128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_64B,
	    CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
	if (rc != CUDA_SUCCESS) {
		error_set(e, _("CUDA error in cuTensorMapEncodeTiled: code %d"), (int)rc);
		return -1;
	}
	return 0;
}

int gpu_tensor_map_bf16(struct gpu_tensor_map *map, const void *base, unsigned long long inner,
    unsigned long long rows, unsigned int box_inner, unsigned int box_rows, struct error *e)
{
	return tensor_map(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, base, inner, rows, box_inner, box_rows, e);
}

int gpu_tensor_map_f32(struct gpu_tensor_map *map, const void *base, unsigned long long inner,
    unsigned long long rows, unsigned int box_rows, struct error *e)
{
	return tensor_map(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, base, inner, rows, 32, box_rows, e);
}

int gpu_blocks_per_sm(void *kernel, unsigned int block, size_t shared_bytes, int *blocks,
    struct error *e)
{
	return check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, kernel, (int)block,
	    shared_bytes), "cudaOccupancyMaxActiveBlocksPerMultiprocessor", e);
}

int gpu_max_active_clusters(void *kernel, unsigned int block, size_t shared_bytes, int *clusters,
    struct error *e)
{
	cudaLaunchConfig_t config;

	memset(&config, 0, sizeof config);
	/* a grid of whole clusters; the size is the kernel's own */
	config.gridDim = (dim3){ 2 * (unsigned int)gpu_info()->sm_count, 1, 1 };
	config.blockDim = (dim3){ block, 1, 1 };
	config.dynamicSmemBytes = shared_bytes;
	config.stream = stream;
	return check(cudaOccupancyMaxActiveClusters(clusters, kernel, &config),
	    "cudaOccupancyMaxActiveClusters", e);
}

int gpu_kernel_registers(void *kernel, int *registers, struct error *e)
{
	struct cudaFuncAttributes a;

	if (check(cudaFuncGetAttributes(&a, kernel), "cudaFuncGetAttributes", e) != 0)
		return -1;
	*registers = a.numRegs;
	return 0;
}

struct gpu_timers {
	int n;
	cudaEvent_t *start, *stop;
};

struct gpu_timers *gpu_timers_new(int n, struct error *e)
{
	struct gpu_timers *t = xcalloc(1, sizeof *t);

	t->n = n;
	t->start = xcalloc((size_t)n, sizeof *t->start);
	t->stop = xcalloc((size_t)n, sizeof *t->stop);
	for (int i = 0; i < n; i++) {
		if (check(cudaEventCreate(&t->start[i]), "cudaEventCreate", e) != 0 ||
		    check(cudaEventCreate(&t->stop[i]), "cudaEventCreate", e) != 0) {
			gpu_timers_free(t);
			return NULL;
		}
	}
	return t;
}

int gpu_timer_start(struct gpu_timers *t, int i, struct error *e)
{
	return check(cudaEventRecord(t->start[i], stream), "cudaEventRecord", e);
}

int gpu_timer_stop(struct gpu_timers *t, int i, struct error *e)
{
	return check(cudaEventRecord(t->stop[i], stream), "cudaEventRecord", e);
}

int gpu_timer_ms(struct gpu_timers *t, int i, double *ms, struct error *e)
{
	float f = 0;

	if (check(cudaEventElapsedTime(&f, t->start[i], t->stop[i]), "cudaEventElapsedTime", e) != 0)
		return -1;
	*ms = f;
	return 0;
}

void gpu_timers_free(struct gpu_timers *t)
{
	if (t == NULL)
		return;
	for (int i = 0; i < t->n; i++) {
		if (t->start[i] != NULL)
			cudaEventDestroy(t->start[i]);
		if (t->stop[i] != NULL)
			cudaEventDestroy(t->stop[i]);
	}
	free(t->start);
	free(t->stop);
	free(t);
}

int gpu_time_runs(int n, int (*op)(void *ctx, struct error *e), void *ctx, double *ms, struct error *e)
{
	struct gpu_timers *t = gpu_timers_new(n, e);
	int rc = -1;

	if (t == NULL)
		return -1;
	for (int i = 0; i < n; i++)
		if (gpu_timer_start(t, i, e) != 0 || op(ctx, e) != 0 || gpu_timer_stop(t, i, e) != 0)
			goto out;
	if (gpu_synchronize(e) != 0)
		goto out;
	for (int i = 0; i < n; i++)
		if (gpu_timer_ms(t, i, &ms[i], e) != 0)
			goto out;
	rc = 0;
out:
	gpu_timers_free(t);
	return rc;
}

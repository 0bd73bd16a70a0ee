/* NVML, loaded at run time: the GPU's clocks, memory bus and temperature. */
#include "config.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "nvml.h"

/*
 * The few NVML calls the tutor makes, declared here: nvml.h is not in
 * every toolkit, and these have kept their ABI since NVML began.
 */
typedef int nvml_return;		/* nvmlReturn_t: 0 is NVML_SUCCESS */
typedef struct nvml_device *nvml_device;
enum { NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2, NVML_TEMPERATURE_GPU = 0 };

static struct {
	nvml_return (*init)(void);
	nvml_return (*by_uuid)(const char *uuid, nvml_device *d);
	nvml_return (*clock)(nvml_device d, int type, unsigned int *mhz);
	nvml_return (*max_clock)(nvml_device d, int type, unsigned int *mhz);
	nvml_return (*bus_width)(nvml_device d, unsigned int *bits);
	nvml_return (*temperature)(nvml_device d, int sensor, unsigned int *c);
	const char *(*error_string)(nvml_return rc);
	nvml_return (*count)(unsigned int *n);
	nvml_return (*by_index)(unsigned int i, nvml_device *d);
	nvml_return (*name)(nvml_device d, char *name, unsigned int len);
	int state;			/* 0 not tried, 1 ready, -1 missing */
	char why[256];
} lib;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
	void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	nvml_return rc;

	lib.state = -1;
	if (h == NULL) {
		snprintf(lib.why, sizeof lib.why, "%s", dlerror());
		return;
	}
	/* the _v2 names are what nvml.h maps the plain ones to */
	*(void **)&lib.init = dlsym(h, "nvmlInit_v2");
	*(void **)&lib.by_uuid = dlsym(h, "nvmlDeviceGetHandleByUUID");
	*(void **)&lib.clock = dlsym(h, "nvmlDeviceGetClockInfo");
	*(void **)&lib.max_clock = dlsym(h, "nvmlDeviceGetMaxClockInfo");
	*(void **)&lib.bus_width = dlsym(h, "nvmlDeviceGetMemoryBusWidth");
	*(void **)&lib.temperature = dlsym(h, "nvmlDeviceGetTemperature");
	*(void **)&lib.error_string = dlsym(h, "nvmlErrorString");
	*(void **)&lib.count = dlsym(h, "nvmlDeviceGetCount_v2");
	*(void **)&lib.by_index = dlsym(h, "nvmlDeviceGetHandleByIndex_v2");
	*(void **)&lib.name = dlsym(h, "nvmlDeviceGetName");
	if (lib.init == NULL || lib.by_uuid == NULL || lib.clock == NULL || lib.max_clock == NULL) {
		snprintf(lib.why, sizeof lib.why, "%s", _("libnvidia-ml.so.1 lacks the calls the tutor makes"));
		return;
	}
	if ((rc = lib.init()) != 0) {
		snprintf(lib.why, sizeof lib.why, "nvmlInit: %s",
		    lib.error_string ? lib.error_string(rc) : "?");
		return;
	}
	lib.state = 1;
}

int nvml_read(const char *uuid, struct nvml_reading *r, struct error *e)
{
	char name[48];
	nvml_device d;
	unsigned int v;
	nvml_return rc;

	memset(r, 0, sizeof *r);
	r->temperature_c = -1;
	pthread_once(&once, load);
	if (lib.state != 1) {
		error_set(e, _("NVML is not available (%s)"), lib.why);
		return -1;
	}
	if (uuid == NULL || strlen(uuid) != 32) {
		error_set(e, "%s", _("NVML: the GPU has no UUID to find it by"));
		return -1;
	}
	/* "GPU-" and the UUID as 8-4-4-4-12 */
	snprintf(name, sizeof name, "GPU-%.8s-%.4s-%.4s-%.4s-%.12s", uuid, uuid + 8, uuid + 12,
	    uuid + 16, uuid + 20);
	if ((rc = lib.by_uuid(name, &d)) != 0) {
		error_set(e, _("NVML does not know %s (%s)"), name,
		    lib.error_string ? lib.error_string(rc) : "?");
		return -1;
	}
	r->have = true;
	if (lib.clock(d, NVML_CLOCK_SM, &v) == 0)
		r->sm_clock_mhz = (int)v;
	if (lib.clock(d, NVML_CLOCK_MEM, &v) == 0)
		r->mem_clock_mhz = (int)v;
	if (lib.max_clock(d, NVML_CLOCK_SM, &v) == 0)
		r->sm_clock_max_mhz = (int)v;
	if (lib.max_clock(d, NVML_CLOCK_MEM, &v) == 0)
		r->mem_clock_max_mhz = (int)v;
	if (lib.bus_width != NULL && lib.bus_width(d, &v) == 0)
		r->bus_width_bits = (int)v;
	if (lib.temperature != NULL && lib.temperature(d, NVML_TEMPERATURE_GPU, &v) == 0)
		r->temperature_c = (int)v;
	return 0;
}

int nvml_gpus(char names[][96], int max, struct error *e)
{
	unsigned int n = 0;
	int got = 0;

	pthread_once(&once, load);
	if (lib.state != 1) {
		error_set(e, _("NVML is not available (%s)"), lib.why);
		return -1;
	}
	if (lib.count == NULL || lib.by_index == NULL || lib.name == NULL || lib.count(&n) != 0) {
		error_set(e, "%s", _("NVML cannot count the GPUs"));
		return -1;
	}
	for (unsigned int i = 0; i < n && got < max; i++) {
		nvml_device d;

		if (lib.by_index(i, &d) != 0 || lib.name(d, names[got], 96) != 0)
			snprintf(names[got], 96, "GPU %u", i);
		got++;
	}
	return got;
}

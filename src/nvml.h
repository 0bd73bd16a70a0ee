/* NVML, loaded at run time: the GPU's clocks, memory bus and temperature. */
#ifndef CUDATUTOR_NVML_H
#define CUDATUTOR_NVML_H

#include <stdbool.h>

#include "util.h"

/*
 * libnvidia-ml.so.1 comes with the driver, not the toolkit: the tutor
 * dlopens it, so it builds, starts and runs where it is missing (then
 * every reading is unknown).  NVML makes no CUDA context, so the tutor's
 * own process may ask it (see isolate.h).
 */

/* What NVML says of one GPU; 0 where it could not say. */
struct nvml_reading {
	bool have;			/* NVML answered for this GPU */
	int sm_clock_mhz, mem_clock_mhz;		/* now */
	int sm_clock_max_mhz, mem_clock_max_mhz;	/* the most they reach */
	int bus_width_bits;		/* of device memory */
	int temperature_c;		/* the GPU's core; -1: unknown (0 °C is a temperature) */
};

/*
 * Read the GPU whose CUDA UUID is uuid (32 hexadecimal digits, as
 * gpu_info gives it).  0, or -1 and e when NVML is missing or does not
 * know the GPU.
 */
int nvml_read(const char *uuid, struct nvml_reading *r, struct error *e);

/*
 * The GPUs of this machine in NVML's order (by PCI bus, as CUDA's with
 * CUDA_DEVICE_ORDER=PCI_BUS_ID), at most max of them, each one's name into
 * names: how many, or -1 and e when NVML is missing.
 */
int nvml_gpus(char names[][96], int max, struct error *e);

#endif

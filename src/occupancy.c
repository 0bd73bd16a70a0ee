/* Theoretical occupancy from a kernel's resources, by the rules of CUDA's occupancy calculator. */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "occupancy.h"

#define WARP 32
#define REGISTER_GRANULARITY 256	/* registers go to warps in steps of 256 */
#define SUBPARTITIONS 4			/* each with a quarter of the register file */
#define MAX_REGISTERS_PER_THREAD 255

/* From the CUDA programming guide's table of compute capabilities: the default build's architectures. */
static const struct occupancy_arch archs[] = {
	/* arch     threads blocks registers shared         reserved granularity */
	{ "sm_75",  1024,   16,    65536,     64 * 1024,   0,       256 },
	{ "sm_80",  2048,   32,    65536,     164 * 1024,  1024,    128 },
	{ "sm_86",  1536,   16,    65536,     100 * 1024,  1024,    128 },
	{ "sm_89",  1536,   24,    65536,     100 * 1024,  1024,    128 },
	{ "sm_90",  2048,   32,    65536,     228 * 1024,  1024,    128 },
	{ "sm_100", 2048,   32,    65536,     228 * 1024,  1024,    128 },
	{ "sm_120", 1536,   24,    65536,     100 * 1024,  1024,    128 },
};

const struct occupancy_arch *occupancy_arch_find(const char *arch)
{
	for (size_t i = 0; i < sizeof archs / sizeof archs[0]; i++)
		if (strcmp(archs[i].arch, arch) == 0)
			return &archs[i];
	return NULL;
}

static int round_up(int x, int step)
{
	return (x + step - 1) / step * step;
}

int occupancy_compute(const struct occupancy_arch *a, int registers, int shared_bytes,
    int block, struct occupancy *o)
{
	int warps_per_block, least;

	memset(o, 0, sizeof *o);
	if (block < 1 || block > 1024 || registers < 0 || shared_bytes < 0)
		return -1;
	warps_per_block = (block + WARP - 1) / WARP;
	o->max_warps = a->max_threads / WARP;

	o->by_warps = o->max_warps / warps_per_block;
	o->by_blocks = a->max_blocks;

	/*
	 * Registers: each warp gets registers * 32, rounded up to 256, from one
	 * of four sub-partitions of the register file.  A block must also fit
	 * the per-block limit with its warps rounded up to a multiple of four.
	 */
	{
		int per_warp = round_up(registers * WARP, REGISTER_GRANULARITY);

		if (registers > MAX_REGISTERS_PER_THREAD ||
		    per_warp * round_up(warps_per_block, SUBPARTITIONS) > a->registers)
			o->by_registers = 0;
		else if (per_warp == 0)
			o->by_registers = INT_MAX;
		else
			o->by_registers = (a->registers / SUBPARTITIONS / per_warp) * SUBPARTITIONS /
			    warps_per_block;
	}

	/* Shared memory: the block's own plus what the system reserves, in steps. */
	{
		int per_block = round_up(shared_bytes + a->reserved_shared_bytes, a->shared_granularity);

		if (per_block == 0)
			o->by_shared = INT_MAX;
		else if (per_block > a->shared_bytes)
			o->by_shared = 0;
		else
			o->by_shared = a->shared_bytes / per_block;
	}

	least = o->by_warps;
	if (o->by_blocks < least)
		least = o->by_blocks;
	if (o->by_registers < least)
		least = o->by_registers;
	if (o->by_shared < least)
		least = o->by_shared;
	o->blocks = least;
	o->limits = (o->by_warps == least ? LIMIT_WARPS : 0) |
	    (o->by_blocks == least ? LIMIT_BLOCKS : 0) |
	    (o->by_registers == least ? LIMIT_REGISTERS : 0) |
	    (o->by_shared == least ? LIMIT_SHARED : 0);
	o->warps = o->blocks * warps_per_block;
	o->percent = o->max_warps > 0 ? 100.0 * o->warps / o->max_warps : 0;
	return 0;
}

const char *occupancy_limits_text(unsigned int limits, char *buf, unsigned long len)
{
	static const struct {
		unsigned int bit;
		const char *name;
	} names[] = {
		{ LIMIT_REGISTERS, N_("registers") },
		{ LIMIT_SHARED, N_("shared memory") },
		{ LIMIT_WARPS, N_("warps") },
		{ LIMIT_BLOCKS, N_("blocks") },
	};
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (limits & names[i].bit) {
			int n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", _(names[i].name));
			if (n < 0 || (size_t)n >= len - used)
				break;
			used += (size_t)n;
		}
	return buf;
}

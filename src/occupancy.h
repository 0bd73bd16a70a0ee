/* Theoretical occupancy from a kernel's resources, by the rules of CUDA's occupancy calculator. */
#ifndef CUDATUTOR_OCCUPANCY_H
#define CUDATUTOR_OCCUPANCY_H

/*
 * The same rules as cudaOccupancyMaxActiveBlocksPerMultiprocessor (see the
 * toolkit's cuda_occupancy.h), for a block of threads that uses `registers`
 * per thread and `shared_bytes` of shared memory, with the default
 * shared-memory carveout.  Works without a GPU, from the resource report,
 * so the tutor can show the table for any architecture it was built for.
 * Barrier and cluster limits are left out: no kernel of the tutor meets them.
 */

/* What one multiprocessor of an architecture holds. */
struct occupancy_arch {
	const char *arch;		/* "sm_90" */
	int max_threads;		/* resident threads */
	int max_blocks;			/* resident blocks */
	int registers;			/* 32-bit registers */
	int shared_bytes;		/* shared memory usable by blocks */
	int reserved_shared_bytes;	/* taken by the system from every block (sm_80 on) */
	int shared_granularity;		/* shared memory is handed out in these steps */
};

enum occupancy_limit {
	LIMIT_WARPS = 1 << 0,		/* the multiprocessor's warp slots */
	LIMIT_BLOCKS = 1 << 1,		/* its block slots */
	LIMIT_REGISTERS = 1 << 2,
	LIMIT_SHARED = 1 << 3,
};

struct occupancy {
	int blocks;			/* resident blocks per multiprocessor (0: cannot launch) */
	int warps;			/* resident warps */
	int max_warps;
	double percent;			/* warps / max_warps */
	int by_warps, by_blocks, by_registers, by_shared;	/* each limit alone */
	unsigned int limits;		/* the limits that decide it (enum occupancy_limit) */
};

/* The architecture's limits, or NULL if the tutor does not know it. */
const struct occupancy_arch *occupancy_arch_find(const char *arch);

/* -1 if the inputs make no sense (block < 1 or > 1024, negative resources). */
int occupancy_compute(const struct occupancy_arch *a, int registers, int shared_bytes,
    int block, struct occupancy *o);

/* "registers", "warps" ... for the limits in a bit set, joined by ", ", into buf. */
const char *occupancy_limits_text(unsigned int limits, char *buf, unsigned long len);

#endif

/* The one table of exercises: what each asks for, checked in the SASS (see doc/exercises.md). */
#ifndef CUDATUTOR_EXERCISE_TABLE_H
#define CUDATUTOR_EXERCISE_TABLE_H

#include <stdbool.h>

enum exercise_check_kind {
	CHECK_END = 0,		/* ends the list */
	CHECK_AT_LEAST,		/* at least n instructions of opcode prefix op ("A|B": either) */
	CHECK_AT_MOST,		/* at most n of them */
	CHECK_BEFORE,		/* at least n op before the first other (or in all, without one) */
	CHECK_NONE_AFTER,	/* no op after the first other */
	CHECK_MAX_REGISTERS,	/* at most n registers per thread */
	CHECK_READS_PARAM,	/* the kernel reads its n-th parameter (from 1): an ld.param of it in the PTX */
	/*
	 * At least n% of the bytes moved by the instructions of other are
	 * moved by those of op, as they ran: the technique in proportion (one
	 * float4 load among scalar ones is not vectorized code).  Judged on
	 * the instructions executed (ncu, on a GPU); in the compiled code
	 * alone it is a hint, shown and never failed.
	 */
	CHECK_SHARE,
	/*
	 * At n = size, the kernel reads at most n% of the bytes ours (the
	 * target) reads from device memory: what a technique for the L2 (a
	 * tile order) is for, and no instruction shows.  Read by Nsight
	 * Compute (dram__bytes_read.sum, caches flushed), one launch of each
	 * in one process on one GPU; in the compiled code alone it is not
	 * judged.
	 */
	CHECK_DRAM_READS,
};

struct exercise_check {
	enum exercise_check_kind kind;
	const char *op;
	const char *other;
	int n;
	const char *message;	/* N_(): what the kernel still lacks, when the check fails */
	/*
	 * The work the task cannot be done without, whatever the technique
	 * (the loads, the stores, the barriers): the starting file passes it,
	 * an empty kernel fails it.  The other checks look for the technique.
	 */
	bool work;
	/*
	 * Count only instructions inside a loop (from a backward branch's
	 * target to the branch): a stride's doubling is a shift in the loop,
	 * while "1u << s" before it builds a stride that is then halved.
	 */
	bool in_loop;
	/* CHECK_DRAM_READS: the side of the matrices it is read at */
	unsigned long long size;
};

#define EXERCISE_MAX_CHECKS 8

struct exercise_def {
	const char *id;			/* "unroll8": kernels/exercises/unroll8.cu */
	const char *lesson;		/* the lesson id: "unrolling" */
	const char *target;		/* the registry kernel it writes: same symbol and experiment */
	const char *start_from;		/* the registry kernel its starting file is */
	struct exercise_check checks[EXERCISE_MAX_CHECKS];
};

extern const struct exercise_def exercise_defs[];
extern const int exercise_def_count;

const struct exercise_def *exercise_def_find(const char *id);

#endif

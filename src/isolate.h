/* GPU work in a child process: a kernel that faults can take only that process with it. */
#ifndef CUDATUTOR_ISOLATE_H
#define CUDATUTOR_ISOLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "util.h"

/*
 * A kernel that faults (an illegal address, a trap) leaves its CUDA
 * context broken for good: CUDA's own documentation says the process must
 * be restarted to use the GPU again.  So the tutor never lets GPU work
 * touch its own process.  Each piece of work runs in a forked child that
 * sends its result back through a pipe: one child a piece, or one for
 * piece after piece (the worker, below); a failure, a crash or a cancel
 * ends the child, and the next piece gets a fresh one.
 *
 * For this to work the parent must never initialize CUDA itself: with
 * isolation on, gpu_init() asks a child about the GPU (see gpu.h).
 * Isolation is off until isolate_enable() (the program turns it on; unit
 * tests that drive the GPU in-process leave it off), and always off in a
 * child.  CUDATUTOR_ISOLATE=0 turns it off, e.g. under compute-sanitizer.
 */
void isolate_enable(void);
int isolate_enabled(void);

/* What the work function may do in the child besides computing its result. */
struct isolate_channel;
void isolate_progress(struct isolate_channel *ch, int done, int total);

/*
 * The work: fill result (result_size bytes) or e; return 0 or -1.  In the
 * child when isolation is on, else called directly with ch NULL.
 */
typedef int (*isolate_fn)(void *arg, void *result, struct isolate_channel *ch, struct error *e);

struct isolate_options {
	volatile int *cancel;				/* non-zero: kill the child */
	void (*progress)(void *ctx, int done, int total);
	void *progress_ctx;
	double time_limit;				/* seconds; past it the child is killed (0: none) */
	bool limit_each_part;				/* the limit counts from the last progress message */
	/*
	 * With limit_each_part: part i's own limit (the progress message's
	 * done), where i < nparts and it is less than time_limit.
	 */
	const double *part_limits;
	int nparts;
};

/*
 * Run fn(arg) and wait for it.  0 with result filled, or -1 with e: the
 * work's own error, or why the child ended ("cancelled", "the kernel
 * crashed the process (signal 11: Segmentation fault)").
 */
int isolate_run(isolate_fn fn, void *arg, void *result, size_t result_size,
    const struct isolate_options *o, struct error *e);

/*
 * The same in the worker: one child that stays for the next piece of
 * work, so that a lesson's steps share one process and CUDA context
 * rather than paying for a fresh one each (tenths of a second a step).
 * arg's arg_size bytes are copied to it, so they must hold no pointer
 * to memory made after the worker started.  The worker ends after any
 * failure, a cancel or a time limit (the next piece gets a fresh one),
 * and at isolate_worker_end().
 */
int isolate_run_in_worker(isolate_fn fn, const void *arg, size_t arg_size, void *result,
    size_t result_size, const struct isolate_options *o, struct error *e);
void isolate_worker_end(void);
/*
 * Start the worker now if none runs: before a thread is started that
 * might hold a lock when the worker is forked (a fork copies the lock, not
 * its owner).  0, or -1 and e.
 */
int isolate_worker_warm(struct error *e);

/*
 * A child process and a channel to it, for the forks above and the
 * compiler's: fds[0] is the parent's end, fds[1] the child's (a pipe from
 * the child, or with both_ways a socket pair).  stdout and stderr are
 * flushed first, so that the child does not write the parent's buffered
 * output again.  Returns the child's pid in the parent and 0 in the
 * child, each with the other's end closed; -1 with e set from fail_fmt
 * (its one %s says why) when either cannot be made.
 */
pid_t isolate_fork(int fds[2], bool both_ways, const char *fail_fmt, struct error *e);

#endif

/*
 * A class's submissions, judged again here: a folder of handed-in
 * kernels, each checked by `cudatutor check` in a process of its own on
 * this machine's GPUs (one at a time per GPU), verdicts kept by source
 * hash (and the build of the tutor that judged), and a ranking per
 * exercise and GPU model.  A time a student sent
 * is never ranked.
 */
#ifndef CUDATUTOR_CLASS_H
#define CUDATUTOR_CLASS_H

#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

#include "submission.h"
#include "util.h"

/* The most files a folder may hold that are read; past it, one line says so. */
#define CLASS_MAX_FILES 10000
/* GPUs judged on at once. */
#define CLASS_MAX_SLOTS 32
#define CLASS_MAX_GPUS 8
/* Seconds one submission's check may take in all, past its kernels' own limits. */
#define CLASS_TIME_LIMIT 180.0

enum class_state {
	CLASS_BAD,		/* not a submission that can be judged: problem says why */
	CLASS_OLDER,		/* a newer one of the same name and exercise is ranked instead */
	CLASS_WAITING,
	CLASS_JUDGING,
	CLASS_JUDGED,
};

struct class_verdict {
	bool graded;		/* a GPU judged answers and time (else reason says why not) */
	bool passed;
	char reason[512];	/* the first thing that failed, or why it was not graded; "" on a pass */
	int sass_passed, sass_checks;	/* the technique checks in its SASS */
	double ms, reference_ms, ratio;	/* 0 where not timed */
	char gpu[96];		/* the GPU that judged it */
	unsigned long long seed;	/* check --seed repeats its inputs */
	double seconds;		/* what judging it took (a verdict from the cache: what it took then) */
	bool cached;		/* from an earlier look at the folder */
};

struct class_entry {
	char *file;		/* its name in the folder */
	struct timespec mtime;	/* when it arrived, as the folder says */
	off_t size;
	enum class_state state;
	char problem[512];	/* CLASS_BAD: what is wrong, in one line */
	struct submission sub;	/* read, unless CLASS_BAD */
	bool other_version;	/* made for another version of the exercise */
	int newer;		/* CLASS_OLDER: the entry ranked instead */
	struct class_verdict v;	/* CLASS_JUDGED */
	int rank;		/* 1 the fastest that passed, among its exercise and GPU; 0 none */
	bool seen;		/* in the folder at the last look */
	bool reread;		/* it changed while it was read: read again at the next look */
	/* while judged */
	pid_t pid;
	int fd, slot;
	struct strbuf out;
	double started;
};

struct class_board {
	char *dir;
	char *only;		/* the one exercise to judge, or NULL */
	struct class_entry *entries;
	int n, cap;
	char note[512];		/* about the folder as a whole (too many files), or "" */
	int nslots;
	int per_gpu;		/* checks judged at once on each GPU (they take turns to time) */
	bool gpu;		/* the slots are GPUs; else none is here and nothing is graded */
	char slot_gpu[CLASS_MAX_SLOTS][96];
	int slot_device[CLASS_MAX_SLOTS];	/* its NVML index, as CUDA_VISIBLE_DEVICES takes it */
	int slot_entry[CLASS_MAX_SLOTS];	/* judging, or -1 */
	double time_limit;
	char *program;		/* the cudatutor that checks */
	char judge[64];		/* which build of it: part of a kept verdict's key */
	char *cache;		/* its verdicts, sources and logs */
};

/*
 * Open the folder dir for judging (only: one exercise, or NULL): find the
 * GPUs and the cache.  Nothing in dir is ever written.  0, or -1 and e.
 */
int class_open(struct class_board *b, const char *dir, const char *only, struct error *e);

/*
 * Look at the folder again: read each new or changed file (a bad one
 * gets its line), forget those gone, take verdicts kept by source hash
 * from the cache, and decide which of two submissions of one name counts.
 * Returns how many entries changed.
 */
int class_scan(struct class_board *b);

/*
 * Judge: start a check on each free GPU for the next waiting submission,
 * then wait up to timeout_ms for any to end.  A check past its time limit
 * is killed and fails.  Returns how many are still waiting or being
 * judged; *changed (may be NULL) says whether any verdict came in.
 */
int class_judge(struct class_board *b, int timeout_ms, bool *changed);

/* Rank each exercise's passes on each GPU model, fastest first. */
void class_rank(struct class_board *b);

/*
 * The entries in the order a board shows them: by exercise, then by GPU,
 * ranked first, then failed, then not judged, then the rest.  order gets
 * b->n indices; returns how many.
 */
int class_order(const struct class_board *b, int *order);

/*
 * CUDA_VISIBLE_DEVICES (v) as the GPUs' indices, when it is a plain list
 * of numbers ("0,2"): how many, at most max, into index; -1 when v is
 * NULL or names GPUs otherwise (UUIDs, MIG instances), and then the
 * GPUs are used as CUDA numbers them, one check at a time.
 */
int class_visible_devices(const char *v, int *index, int max);

/* The submission that arrived in the folder last (a board marks it), or -1. */
int class_newest(const struct class_board *b);

/* Stop every check going on and free all. */
void class_close(struct class_board *b);

#endif

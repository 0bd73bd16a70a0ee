/* Exercises: the student writes a step's kernel; the tutor compiles it and checks its SASS. */
#ifndef CUDATUTOR_EXERCISE_H
#define CUDATUTOR_EXERCISE_H

#include <stdbool.h>
#include <stddef.h>

#include "exercise_table.h"
#include "inspect.h"
#include "lesson.h"
#include "nvrtc.h"
#include "progress.h"
#include "util.h"

/*
 * An exercise is a row of exercise_defs (src/exercise_table.c), two files
 * under kernels/exercises/ and a section of its lesson (doc/exercises.md).
 * The student edits a working copy of the starting file; the tutor
 * compiles it with NVRTC for one architecture and checks the technique in
 * its SASS.  None of this needs a GPU; running the cubin on one is the
 * caller's part, through the target's own experiment.
 */

/* ---- the list ---------------------------------------------------------------- */

struct exercise_entry {
	const struct exercise_def *def;
	const struct lesson *lesson;			/* its lesson in the set, or NULL */
	const struct lesson_exercise *section;		/* the task and hints there, or NULL */
	const struct progress_exercise *progress;	/* NULL: never started */
};

/*
 * Every exercise, in the table's order, with its lesson's text and the
 * student's progress (set and p may be NULL).  Returns how many; the
 * caller frees *out.
 */
int exercise_list(const struct lesson_set *set, const struct progress *p, struct exercise_entry **out);

/* The row of id, or NULL and e naming the exercises there are. */
const struct exercise_def *exercise_lookup(const char *id, struct error *e);

/* ---- files --------------------------------------------------------------------- */

/*
 * Working copies live in one directory: dir as the caller names it, or
 * with dir NULL $XDG_DATA_HOME/cudatutor/exercises (by default
 * ~/.local/share/cudatutor/exercises).  The copy of exercise id is
 * <dir>/<id>.cu; the cubins compiled from it go beside it.
 */
char *exercise_dir(const char *dir);
char *exercise_working_path(const char *dir, const char *id);

/* kernels/exercises/<id>.cu and <id>.solution.cu, where the tutor's files are. */
char *exercise_starting_path(const char *id);
char *exercise_solution_path(const char *id);
/* The solution's text. */
char *exercise_solution(const char *id, struct error *e);

/*
 * The path of the working copy, first copying the starting file there
 * when there is none (*created says which; created may be NULL).  The
 * student's file is never written over.
 */
char *exercise_start(const char *dir, const char *id, bool *created, struct error *e);

/*
 * Put the starting file back.  The student's file, where it differs, is
 * kept as the next numbered backup, <id>.cu.~1~, ~2~, ... (none is ever
 * written over): *backup is its path, to free; else NULL.  Returns one of
 * these, or -1 and e (the working copy then as it was):
 */
enum {
	EXERCISE_RESET_MADE,		/* there was no working copy: now the starting file */
	EXERCISE_RESET_UNTOUCHED,	/* it was the starting file already: nothing done */
	EXERCISE_RESET_KEPT,		/* the student's kept as *backup, the starting file back */
};
int exercise_reset(const char *dir, const char *id, char **backup, struct error *e);

/*
 * The most a student's source may be: a kernel is a few pages, and a file
 * larger than this is not one (a log, a data file given by mistake).
 */
#define EXERCISE_MAX_SOURCE (1u << 20)

/*
 * The text of a student's file, NUL-terminated, its length in *len (which
 * may be NULL): only a regular file of at most EXERCISE_MAX_SOURCE bytes
 * (a device such as /dev/zero, a pipe or a directory is refused before
 * anything is read).  NULL and e, one line saying what is wrong and what
 * to do.
 */
char *exercise_read_source(const char *path, size_t *len, struct error *e);

/* ---- compiling -------------------------------------------------------------------- */

/* How many sides a check of device-memory reads (CHECK_DRAM_READS) reads them at. */
#define EXERCISE_DRAM_SIZES 2

struct exercise_result {
	const struct exercise_def *def;
	char *path;			/* the file compiled */
	char arch[16];			/* "sm_90" */
	bool ok;			/* it compiled: NVRTC made PTX and a cubin */
	struct nvrtc_result nvrtc;	/* errors and warnings apart, PTX whole, the cubin's bytes */
	double compile_seconds;		/* the wall time NVRTC took, both compiles */
	char *diagnostics;		/* errors, then warnings, as gcc writes them; "" when none */
	/*
	 * With ok: why the kernel cannot stand in for the target (it does
	 * not define the target's symbol, or takes other parameters), else
	 * NULL.
	 */
	char *problem;
	char *ptx;			/* the target's .entry in the PTX, or NULL */
	char *cubin_path;		/* the cubin: beside the working copies, or in the cache (see below) */
	char *sass;			/* the target's SASS, as inspect_sass() gives it; or NULL */
	char *sass_error;		/* why there is no SASS (no cuobjdump), or NULL */
	bool have_resources;
	struct kernel_resources resources;	/* registers etc., from cuobjdump -res-usage */
	/*
	 * Where sass is what ran (read by ncu): how many threads ran each of
	 * its instructions, predicate true, in its order; else NULL.
	 */
	const double *sass_counts;
	int nsass_counts;
	/*
	 * Where it ran under Nsight Compute, at each side of
	 * exercise_dram_sizes: the bytes this kernel and ours (the target's)
	 * read from device memory (all dram_ours > 0); else all 0.
	 */
	double dram_yours[EXERCISE_DRAM_SIZES], dram_ours[EXERCISE_DRAM_SIZES];
	int *lines;			/* the source line of each SASS instruction (0: unknown) */
	int nlines;
	char *lines_error;		/* why there are none (no nvdisasm), or NULL */
};

/*
 * Compile the exercise's working copy (id_or_path an exercise id) or a
 * file (a path: "vec4.cu", "dir/vec4.solution.cu", its exercise told by
 * its name) for arch ("sm_90").  dir is where working copies live (NULL:
 * the default); a working copy's cubin goes beside it, a file's where
 * exercise_compile_file puts it with cubin_dir dir.  Returns 0 when the
 * compile ran: r->ok says whether the file compiled (r->diagnostics says
 * why not: a NUL byte in it is an error at its line), and r->sass holds
 * its SASS where cuobjdump could be run.  -1 and e when it could not run:
 * an unknown exercise, a file that cannot be read or is not a kernel's
 * source (see exercise_read_source), no NVRTC.  r is always safe to free.
 */
int exercise_compile(const char *dir, const char *id_or_path, const char *arch, struct exercise_result *r,
    struct error *e);
/*
 * The same for a file named any way, as exercise def; its cubin goes in
 * cubin_dir (made if need be), or with cubin_dir NULL in
 * $XDG_CACHE_HOME/cudatutor/cubins: a file checked where it is leaves
 * nothing in the exercises' folder, and nothing beside itself.
 */
int exercise_compile_file(const struct exercise_def *def, const char *path, const char *arch,
    const char *cubin_dir, struct exercise_result *r, struct error *e);
/*
 * The same two without the SASS (nvdisasm takes about half a second): the
 * cubin is written and r->ok, r->problem are set; exercise_read_sass reads
 * its SASS, resources and lines later, e.g. while the GPU runs the cubin.
 */
int exercise_build(const char *dir, const char *id_or_path, const char *arch, struct exercise_result *r,
    struct error *e);
int exercise_build_file(const struct exercise_def *def, const char *path, const char *arch,
    const char *cubin_dir, struct exercise_result *r, struct error *e);
void exercise_read_sass(struct exercise_result *r);
/*
 * The file r was built from, built again with its blocks numbered from
 * the other end (blockIdx.x read as gridDim.x - 1 - blockIdx.x, and y and
 * z likewise) into out: the GPU starts blocks roughly in index order, so
 * in this build block 0 starts last.  CUDA promises no order, so a right
 * kernel stays right; one that counts on block 0 going first (a counter
 * it resets when it starts) does not.  0 when out->ok; else -1 and e,
 * with what NVRTC said (a file that names blockIdx where no expression
 * may stand).
 */
int exercise_build_reversed(const struct exercise_result *r, struct nvrtc_result *out, struct error *e);
/* The first error of a compile's diagnostics ("float4.cu:12:9: error: ..."), else their first line, into buf. */
void exercise_first_error(const char *diagnostics, char *buf, size_t len);
/*
 * The architecture exercise def is compiled for, arch being the one its
 * views show: a target built for sm_90a alone (wgmma, TMA, setmaxnreg)
 * has code for no other, so its exercise is compiled for sm_90a wherever
 * it is checked, a GPU of another kind or none (its SASS is checked; the
 * run is refused off Hopper, as the target's is).  Otherwise arch.
 */
const char *exercise_arch(const struct exercise_def *def, const char *arch);
void exercise_result_free(struct exercise_result *r);

/* ---- checking ----------------------------------------------------------------------- */

struct exercise_check_outcome {
	const struct exercise_check *check;
	bool passed;
	bool hint;		/* not judged here (CHECK_SHARE on the compiled code): shown, never failed */
	int found;		/* what it counted: instructions, registers, or a share in % */
	double bytes[2];	/* CHECK_DRAM_READS judged: the bytes read, yours and ours, */
	unsigned long long size;	/* at the side where yours read the most of ours */
	const char *message;	/* the row's message, translated: what the kernel still lacks */
};

struct exercise_verdict {
	int count;
	struct exercise_check_outcome checks[EXERCISE_MAX_CHECKS];
	bool passed;		/* every check passed */
};

/*
 * Each check of def on r's SASS (opcode prefixes as {{count}} matches
 * them, see sass_count()), registers and parameters read.  0 and v; -1 and e when there is
 * nothing to check: the file did not compile, does not define the target,
 * or cuobjdump is missing.
 */
int exercise_check_sass(const struct exercise_def *def, const struct exercise_result *r,
    struct exercise_verdict *v, struct error *e);

/* The row's check of device-memory reads (CHECK_DRAM_READS), judged only where it runs; or NULL. */
const struct exercise_check *exercise_dram_check(const struct exercise_def *def);
/* v's outcome of that check where it was judged (read where the kernel ran), else NULL. */
const struct exercise_check_outcome *exercise_dram_judged(const struct exercise_verdict *v);
/*
 * The sides a check of device-memory reads reads them at, both judged:
 * one tile of 256 below the row's size, and the size itself, so that no
 * kernel keeps its technique for the size the lesson names alone.
 */
void exercise_dram_sizes(const struct exercise_check *c, unsigned long long sizes[EXERCISE_DRAM_SIZES]);

/*
 * Check c (CHECK_DRAM_READS) judged on r's device-memory reads into o:
 * a hint, passed, where r has none; else the worse of the sizes.
 */
void exercise_judge_dram(const struct exercise_check *c, const struct exercise_result *r,
    struct exercise_check_outcome *o);

/* How many checks of v were judged (hints are not) and how many of those passed. */
void exercise_verdict_tally(const struct exercise_verdict *v, int *passed, int *judged);

/* Is op a check's opcode: one opcode prefix ("LDG.E.128"), or alternatives ("USHF.L|SHF.L")? */
bool exercise_op_is_valid(const char *op);

/* What a check asks and what it found, for a list: "LDG.E.128: at least 1, found 0". */

void exercise_check_describe(const struct exercise_check_outcome *o, char *buf, size_t len);

/* ---- hints --------------------------------------------------------------------------- */

/*
 * The next hint of the exercise's section after those p says were shown,
 * now counted as shown (*number: its 1-based number); NULL when every
 * hint has been shown.  The caller saves p.
 */
const char *exercise_next_hint(struct progress *p, const struct lesson_exercise *section, int *number);

#endif

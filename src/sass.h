/* Reading SASS: instructions, their mix by kind and width, and aligned diffs. */
#ifndef CUDATUTOR_SASS_H
#define CUDATUTOR_SASS_H

#include <stddef.h>

#include <jansson.h>

/*
 * Works on the text inspect_sass() returns: one instruction a line, an
 * address in a comment, an optional predicate, the opcode with its
 * modifiers, the operands.  Nothing here needs a GPU or a file.
 */

struct sass_insn {
	unsigned int addr;
	char pred[8];		/* "@!P0", or empty */
	char opcode[48];	/* with modifiers: "LDG.E.128.CONSTANT" */
	char base[16];		/* without: "LDG" */
	const char *text;	/* the whole line, address included */
	int text_len;
};

struct sass_listing {
	int count;
	struct sass_insn *insns;
};

/* Split text into instructions (text must outlive the listing). */
void sass_parse(const char *text, struct sass_listing *out);
void sass_listing_free(struct sass_listing *l);

/*
 * What a lesson points at.  Memory accesses by space and width in bits;
 * "branches" are BRA, BRX, JMP, JMX, CALL and RET (the listing's final
 * self-branch included, so counts match a plain count of the text).
 */
enum sass_kind {
	SASS_TOTAL,
	SASS_GLOBAL_LD8, SASS_GLOBAL_LD16, SASS_GLOBAL_LD32, SASS_GLOBAL_LD64, SASS_GLOBAL_LD128,
	SASS_GLOBAL_LD256,
	SASS_GLOBAL_ST8, SASS_GLOBAL_ST16, SASS_GLOBAL_ST32, SASS_GLOBAL_ST64, SASS_GLOBAL_ST128,
	SASS_GLOBAL_ST256,
	SASS_SHARED_LD, SASS_SHARED_ST,
	SASS_LOCAL_LD, SASS_LOCAL_ST,
	SASS_GENERIC_LD, SASS_GENERIC_ST,
	SASS_ATOMIC,
	SASS_BARRIER,
	SASS_WARPSYNC,
	SASS_SHUFFLE,
	SASS_BRANCH,
	SASS_FP32,
	SASS_NOP,
	SASS_KIND_COUNT
};

struct sass_mix {
	int n[SASS_KIND_COUNT];
};

/* The key a kind has in JSON ("global_ld128") and its label for people. */
const char *sass_kind_key(enum sass_kind k);
const char *sass_kind_label(enum sass_kind k);

void sass_mix_of(const struct sass_listing *l, struct sass_mix *m);
json_t *sass_mix_to_json(const struct sass_mix *m);

/* An instruction for display: without its address and the " ;" at the end. */
void sass_insn_text(const struct sass_insn *i, char *buf, size_t len);

/*
 * The kinds worth a row when two mixes are compared: the total, then
 * every kind either kernel has, in enum order.  Fills kinds (room for
 * SASS_KIND_COUNT) and returns how many.
 */
int sass_mix_rows(const struct sass_mix *a, const struct sass_mix *b, enum sass_kind *kinds);

/*
 * Does the opcode start with this prefix, whole parts only ("LDG.E" is a
 * prefix of "LDG.E.128", not of "LDG.EL")?
 */
int sass_opcode_matches(const char *opcode, const char *prefix);
/* How many instructions start with this opcode prefix ("LDG.E.128", "BAR"). */
int sass_count(const struct sass_listing *l, const char *prefix);

/*
 * The bytes of global loads (LDG, and generic LD) one thread has in flight
 * at most: the loads it issues, in the listing's order, before an
 * instruction reads (or overwrites) a register one of them fills, that
 * instruction waiting for them.  Eight independent 4-byte loads before
 * the first add: 32; a float add's two loads: 8.  0: no load.
 */
int sass_load_bytes_in_flight(const struct sass_listing *l);

/*
 * Align two listings by their opcodes (a longest common subsequence):
 * unrolling, vectorizing or dropping barriers then shows as whole runs of
 * inserted and removed lines.  Each row pairs an instruction of a with one
 * of b (same opcode), or has only one side.
 */
struct sass_diff_row {
	int a, b;		/* indices, or -1 */
};

struct sass_diff {
	int count;
	struct sass_diff_row *rows;
	int added, removed, kept;
};

void sass_diff(const struct sass_listing *a, const struct sass_listing *b, struct sass_diff *out);
void sass_diff_free(struct sass_diff *d);

/*
 * Where the next run of inserted or removed rows starts after row from
 * (dir 1; from -1 finds the first), or the one before row from (dir -1):
 * its first row, or -1 if there is none that way.
 */
int sass_diff_next_change(const struct sass_diff *d, int from, int dir);

#endif

/* Colouring of CUDA source, PTX and SASS, and the instructions lessons point at (no curses). */
#ifndef CUDATUTOR_TUI_HIGHLIGHT_H
#define CUDATUTOR_TUI_HIGHLIGHT_H

enum code_kind { CODE_SOURCE, CODE_PTX, CODE_SASS };

/* A piece of a line: bytes [start, start+len) in an enum style. */
struct highlight_span {
	int start, len, style;
};

/*
 * Split one line (no newline) into styled spans that cover it, in order.
 * *in_comment carries a block comment from line to line (start it at 0).
 * Instructions that match one of focus[] get STYLE_INSN_FOCUS, others the
 * style of their class.  Returns the number of spans (at most max).
 */
int highlight_line(enum code_kind kind, const char *line, int len, int *in_comment,
    char *const *focus, int nfocus, struct highlight_span *out, int max);

/* Where the opcode of a PTX or SASS line is: 1 and its bytes, or 0 for none. */
int highlight_opcode(enum code_kind kind, const char *line, int len, int *start, int *oplen);

enum insn_class { INSN_OTHER, INSN_MEMORY, INSN_SYNC, INSN_SHUFFLE, INSN_BRANCH, INSN_TENSOR };

/* The class of an opcode, SASS or PTX, any case: LDG.E.128, bar.sync, SHFL.DOWN, BRA. */
enum insn_class highlight_class(const char *op, int len);

/*
 * Whether an opcode is one the lesson points at: the first parts agree and
 * every part of the focus is in the opcode, any case ("LDG" matches
 * LDG.E.128; "SHFL.DOWN" matches SHFL.DOWN and shfl.sync.down.b32).
 */
int highlight_matches(const char *op, int len, const char *focus);

/* What a kernel is made of, for the line above the code. */
struct insn_mix {
	int total, global_loads, global_stores, shared, barriers, shuffles, branches;
};
/* Of PTX (SASS has its own reader, sass.h). */
void highlight_ptx_mix(const char *ptx, struct insn_mix *m);

#endif

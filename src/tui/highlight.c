/* Colouring of CUDA source, PTX and SASS, and the instructions lessons point at (no curses). */
#include "config.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "tui/highlight.h"
#include "tui/style.h"
#include "util.h"

struct spans {
	struct highlight_span *out;
	int n, max;
};

static void span(struct spans *s, int start, int len, int style)
{
	if (len <= 0)
		return;
	if (s->n > 0 && s->out[s->n - 1].style == style &&
	    s->out[s->n - 1].start + s->out[s->n - 1].len == start) {
		s->out[s->n - 1].len += len;
		return;
	}
	if (s->n == s->max) {
		/* Out of room: the last span takes the rest of the line. */
		s->out[s->n - 1].len = start + len - s->out[s->n - 1].start;
		return;
	}
	s->out[s->n].start = start;
	s->out[s->n].len = len;
	s->out[s->n].style = style;
	s->n++;
}

/* ---- instructions ------------------------------------------------------ */

static int part_len(const char *p, int len)
{
	int i = 0;
	while (i < len && p[i] != '.')
		i++;
	return i;
}

static int part_is(const char *p, int n, const char *word)
{
	return (int)strlen(word) == n && strncasecmp(p, word, (size_t)n) == 0;
}

enum insn_class highlight_class(const char *op, int len)
{
	static const char *const memory[] = { "LDG", "STG", "LDS", "STS", "LD", "ST", "LDL", "STL",
	    "ATOM", "ATOMG", "ATOMS", "RED", "REDUX", "LDGSTS", "LDSM", "STSM", "CP",
	    /* the Tensor Memory Accelerator's copies */
	    "UTMALDG", "UTMASTG", "UTMAPF", "UBLKCP" };
	static const char *const sync[] = { "BAR", "BARRIER", "WARPSYNC", "MEMBAR", "FENCE",
	    "DEPBAR", "SYNCS", "ERRBAR", "CCTL", "WARPGROUP" };
	/* the tensor cores' matrix multiply-adds, warp-wide (HMMA) and warpgroup-wide (HGMMA) */
	static const char *const tensor[] = { "HMMA", "HGMMA", "IMMA", "IGMMA", "DMMA", "QGMMA",
	    "BMMA" };
	static const char *const branch[] = { "BRA", "BRX", "JMP", "JMX", "CALL", "RET", "EXIT",
	    "BSSY", "BSYNC", "BREAK", "BMOV", "KILL" };
	int n = part_len(op, len);

	if (part_is(op, n, "SHFL"))
		return INSN_SHUFFLE;
	for (size_t i = 0; i < ARRAY_LEN(memory); i++)
		if (part_is(op, n, memory[i]))
			return INSN_MEMORY;
	for (size_t i = 0; i < ARRAY_LEN(sync); i++)
		if (part_is(op, n, sync[i]))
			return INSN_SYNC;
	for (size_t i = 0; i < ARRAY_LEN(branch); i++)
		if (part_is(op, n, branch[i]))
			return INSN_BRANCH;
	for (size_t i = 0; i < ARRAY_LEN(tensor); i++)
		if (part_is(op, n, tensor[i]))
			return INSN_TENSOR;
	return INSN_OTHER;
}

int highlight_matches(const char *op, int len, const char *focus)
{
	int fn = (int)strlen(focus), on = part_len(op, len);
	const char *f = focus;

	/* The first parts must agree. */
	if (part_len(f, fn) != on || strncasecmp(op, f, (size_t)on) != 0)
		return 0;
	f += on;
	fn -= on;
	while (fn > 0) {
		int k, found = 0;

		f++;
		fn--;
		k = part_len(f, fn);
		for (int i = on; i < len && !found;) {
			int pk;
			i++;	/* the dot */
			pk = part_len(op + i, len - i);
			if (pk == k && strncasecmp(op + i, f, (size_t)k) == 0)
				found = 1;
			i += pk;
		}
		if (!found)
			return 0;
		f += k;
		fn -= k;
	}
	return 1;
}

static int skip_space(const char *s, int i, int len)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

int highlight_opcode(enum code_kind kind, const char *line, int len, int *start, int *oplen)
{
	int i = skip_space(line, 0, len), j;

	if (kind == CODE_SASS) {
		/* An address comment, a predicate, the opcode: @!P2 LDG.E R18, desc[UR4][R12.64] ; */
		if (i + 1 < len && line[i] == '/' && line[i + 1] == '*') {
			const char *end = memmem(line + i, (size_t)(len - i), "*/", 2);
			if (end == NULL)
				return 0;
			i = skip_space(line, (int)(end - line) + 2, len);
		}
		if (i < len && line[i] == '@') {
			while (i < len && line[i] != ' ' && line[i] != '\t')
				i++;
			i = skip_space(line, i, len);
		}
		if (i >= len || !isupper((unsigned char)line[i]))
			return 0;
		for (j = i; j < len && (isupper((unsigned char)line[j]) || isdigit((unsigned char)line[j]) ||
		    line[j] == '.' || line[j] == '_'); j++)
			;
	} else if (kind == CODE_PTX) {
		/* "\t@%p1 bra.uni $L__BB0_2;"  "ld.global.u32 %r1, [%rd1];" */
		if (i < len && line[i] == '@') {
			while (i < len && line[i] != ' ' && line[i] != '\t')
				i++;
			i = skip_space(line, i, len);
		}
		if (i >= len || !islower((unsigned char)line[i]))
			return 0;
		for (j = i; j < len && (isalnum((unsigned char)line[j]) || line[j] == '.' || line[j] == '_'); j++)
			;
		/* "label:" is not an instruction */
		if (j < len && line[j] == ':')
			return 0;
	} else {
		return 0;
	}
	*start = i;
	*oplen = j - i;
	return j > i;
}

static int insn_style(const char *op, int len, char *const *focus, int nfocus)
{
	for (int f = 0; f < nfocus; f++)
		if (highlight_matches(op, len, focus[f]))
			return STYLE_INSN_FOCUS;
	switch (highlight_class(op, len)) {
	case INSN_MEMORY:
		return STYLE_INSN_MEM;
	case INSN_SYNC:
		return STYLE_INSN_SYNC;
	case INSN_SHUFFLE:
		return STYLE_INSN_SHFL;
	case INSN_BRANCH:
		return STYLE_INSN_BRANCH;
	case INSN_TENSOR:
		return STYLE_INSN_TENSOR;
	default:
		return STYLE_NORMAL;
	}
}

/* ---- CUDA source ----------------------------------------------------------- */

static int in_list(const char *w, int n, const char *const *list, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if ((int)strlen(list[i]) == n && strncmp(w, list[i], (size_t)n) == 0)
			return 1;
	return 0;
}

static int word_style(const char *w, int n)
{
	static const char *const keywords[] = { "if", "else", "for", "while", "do", "return",
	    "break", "continue", "switch", "case", "default", "goto", "sizeof", "typedef", "struct",
	    "union", "enum", "static", "const", "volatile", "extern", "inline", "template",
	    "typename", "constexpr", "auto", "unsigned", "signed", "namespace", "using" };
	static const char *const types[] = { "void", "int", "char", "short", "long", "float",
	    "double", "bool", "size_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "int8_t",
	    "int16_t", "int32_t", "int64_t", "float2", "float4", "int2", "int4", "uint2", "uint4",
	    "char4", "half", "half2", "dim3" };
	static const char *const cuda[] = { "threadIdx", "blockIdx", "blockDim", "gridDim",
	    "warpSize", "atomicAdd", "atomicExch", "atomicCAS" };

	if (n > 2 && w[0] == '_' && w[1] == '_')
		return STYLE_SRC_CUDA;		/* __global__, __syncthreads, __shfl_down_sync */
	if (in_list(w, n, cuda, ARRAY_LEN(cuda)))
		return STYLE_SRC_CUDA;
	if (in_list(w, n, keywords, ARRAY_LEN(keywords)))
		return STYLE_SRC_KEYWORD;
	if (in_list(w, n, types, ARRAY_LEN(types)))
		return STYLE_SRC_TYPE;
	return STYLE_NORMAL;
}

static void source_line(struct spans *s, const char *line, int len, int *in_comment)
{
	int i = 0;

	if (!*in_comment) {
		int k = skip_space(line, 0, len);
		if (k < len && line[k] == '#') {
			span(s, 0, len, STYLE_SRC_PREPROC);
			return;
		}
	}
	while (i < len) {
		char c = line[i];
		int j;

		if (*in_comment) {
			const char *end = memmem(line + i, (size_t)(len - i), "*/", 2);
			j = end ? (int)(end - line) + 2 : len;
			span(s, i, j - i, STYLE_SRC_COMMENT);
			if (end != NULL)
				*in_comment = 0;
			i = j;
		} else if (c == '/' && i + 1 < len && line[i + 1] == '/') {
			span(s, i, len - i, STYLE_SRC_COMMENT);
			i = len;
		} else if (c == '/' && i + 1 < len && line[i + 1] == '*') {
			*in_comment = 1;
			span(s, i, 2, STYLE_SRC_COMMENT);
			i += 2;
		} else if (c == '"' || c == '\'') {
			for (j = i + 1; j < len && line[j] != c; j++)
				if (line[j] == '\\')
					j++;
			j = j < len ? j + 1 : len;
			span(s, i, j - i, STYLE_SRC_STRING);
			i = j;
		} else if (isdigit((unsigned char)c) ||
		    (c == '.' && i + 1 < len && isdigit((unsigned char)line[i + 1]))) {
			for (j = i; j < len && (isalnum((unsigned char)line[j]) || line[j] == '.'); j++)
				;
			span(s, i, j - i, STYLE_SRC_NUMBER);
			i = j;
		} else if (isalpha((unsigned char)c) || c == '_') {
			for (j = i; j < len && (isalnum((unsigned char)line[j]) || line[j] == '_'); j++)
				;
			span(s, i, j - i, word_style(line + i, j - i));
			i = j;
		} else {
			span(s, i, 1, STYLE_NORMAL);
			i++;
		}
	}
}

int highlight_line(enum code_kind kind, const char *line, int len, int *in_comment,
    char *const *focus, int nfocus, struct highlight_span *out, int max)
{
	struct spans s = { out, 0, max };
	int start, oplen;

	if (max <= 0)
		return 0;
	if (kind == CODE_SOURCE) {
		source_line(&s, line, len, in_comment);
		return s.n;
	}
	if (kind == CODE_PTX) {
		const char *comment = memmem(line, (size_t)len, "//", 2);
		int code_len = comment ? (int)(comment - line) : len;
		int k = skip_space(line, 0, code_len);

		if (k < code_len && line[k] == '.') {
			/* Debug line information (.loc, .file) is the least of it. */
			int debug = strncmp(line + k, ".loc", 4) == 0 || strncmp(line + k, ".file", 5) == 0;
			span(&s, 0, code_len, debug ? STYLE_DIM : STYLE_SRC_PREPROC);
		} else if (highlight_opcode(kind, line, code_len, &start, &oplen)) {
			span(&s, 0, start, STYLE_DIM);
			span(&s, start, oplen, insn_style(line + start, oplen, focus, nfocus));
			span(&s, start + oplen, code_len - start - oplen, STYLE_NORMAL);
		} else {
			span(&s, 0, code_len, k < code_len && line[k] == '$' ? STYLE_DIM : STYLE_NORMAL);
		}
		span(&s, code_len, len - code_len, STYLE_SRC_COMMENT);
		return s.n;
	}
	/* SASS: the address dim, the predicate dim, the opcode by class. */
	if (highlight_opcode(kind, line, len, &start, &oplen)) {
		const char *addr_end = memmem(line, (size_t)start, "*/", 2);
		int a = addr_end ? (int)(addr_end - line) + 2 : 0;

		span(&s, 0, a, STYLE_LINENO);
		span(&s, a, start - a, STYLE_DIM);
		span(&s, start, oplen, insn_style(line + start, oplen, focus, nfocus));
		span(&s, start + oplen, len - start - oplen, STYLE_NORMAL);
	} else {
		span(&s, 0, len, STYLE_DIM);
	}
	return s.n;
}

void highlight_ptx_mix(const char *ptx, struct insn_mix *m)
{
	const char *p = ptx;

	memset(m, 0, sizeof *m);
	while (p != NULL && *p != '\0') {
		const char *end = strchr(p, '\n');
		int len = end ? (int)(end - p) : (int)strlen(p), start, n;

		if (highlight_opcode(CODE_PTX, p, len, &start, &n)) {
			const char *op = p + start;
			int first = part_len(op, n);

			m->total++;
			if (highlight_matches(op, n, "LD.GLOBAL"))
				m->global_loads++;
			else if (highlight_matches(op, n, "ST.GLOBAL"))
				m->global_stores++;
			else if (highlight_matches(op, n, "LD.SHARED") || highlight_matches(op, n, "ST.SHARED"))
				m->shared++;
			else if (part_is(op, first, "BAR") || part_is(op, first, "BARRIER"))
				m->barriers++;
			else if (part_is(op, first, "SHFL"))
				m->shuffles++;
			else if (part_is(op, first, "BRA"))
				m->branches++;
		}
		p = end ? end + 1 : NULL;
	}
}

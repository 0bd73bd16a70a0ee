/* Reading SASS: instructions, their mix by kind and width, and aligned diffs. */
#include "config.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "sass.h"
#include "util.h"

static const struct {
	const char *key;
	const char *label;
} kinds[SASS_KIND_COUNT] = {
	[SASS_TOTAL] = { "total", N_("instructions") },
	[SASS_GLOBAL_LD8] = { "global_ld8", N_("global loads, 8-bit") },
	[SASS_GLOBAL_LD16] = { "global_ld16", N_("global loads, 16-bit") },
	[SASS_GLOBAL_LD32] = { "global_ld32", N_("global loads, 32-bit") },
	[SASS_GLOBAL_LD64] = { "global_ld64", N_("global loads, 64-bit") },
	[SASS_GLOBAL_LD128] = { "global_ld128", N_("global loads, 128-bit") },
	[SASS_GLOBAL_LD256] = { "global_ld256", N_("global loads, 256-bit") },
	[SASS_GLOBAL_ST8] = { "global_st8", N_("global stores, 8-bit") },
	[SASS_GLOBAL_ST16] = { "global_st16", N_("global stores, 16-bit") },
	[SASS_GLOBAL_ST32] = { "global_st32", N_("global stores, 32-bit") },
	[SASS_GLOBAL_ST64] = { "global_st64", N_("global stores, 64-bit") },
	[SASS_GLOBAL_ST128] = { "global_st128", N_("global stores, 128-bit") },
	[SASS_GLOBAL_ST256] = { "global_st256", N_("global stores, 256-bit") },
	[SASS_SHARED_LD] = { "shared_ld", N_("shared loads (LDS)") },
	[SASS_SHARED_ST] = { "shared_st", N_("shared stores (STS)") },
	[SASS_LOCAL_LD] = { "local_ld", N_("local loads (LDL: spills, stack)") },
	[SASS_LOCAL_ST] = { "local_st", N_("local stores (STL)") },
	[SASS_GENERIC_LD] = { "generic_ld", N_("generic loads (LD)") },
	[SASS_GENERIC_ST] = { "generic_st", N_("generic stores (ST)") },
	[SASS_ATOMIC] = { "atomics", N_("atomics (ATOM, RED)") },
	[SASS_BARRIER] = { "barriers", N_("barriers (BAR)") },
	[SASS_WARPSYNC] = { "warpsync", N_("warp syncs (WARPSYNC)") },
	[SASS_SHUFFLE] = { "shuffles", N_("warp shuffles (SHFL)") },
	[SASS_BRANCH] = { "branches", N_("branches (BRA, JMP, CALL, RET)") },
	[SASS_FP32] = { "fp32", N_("fp32 arithmetic (FADD, FMUL, FFMA)") },
	[SASS_NOP] = { "nop", N_("NOP") },
};

const char *sass_kind_key(enum sass_kind k)
{
	return kinds[k].key;
}

const char *sass_kind_label(enum sass_kind k)
{
	return _(kinds[k].label);
}

/* One line of SASS into its parts; 0 if it is not an instruction. */
static int parse_line(const char *line, int len, struct sass_insn *i)
{
	const char *p = line, *end = line + len;
	size_t n;

	memset(i, 0, sizeof *i);
	while (p < end && isspace((unsigned char)*p))
		p++;
	if (end - p < 4 || p[0] != '/' || p[1] != '*' || !isxdigit((unsigned char)p[2]))
		return 0;
	i->addr = (unsigned int)strtoul(p + 2, NULL, 16);
	p = strstr(p, "*/");
	if (p == NULL || p >= end)
		return 0;
	p += 2;
	while (p < end && isspace((unsigned char)*p))
		p++;
	if (p < end && *p == '@') {
		n = strcspn(p, " \t");
		if (n >= sizeof i->pred)
			n = sizeof i->pred - 1;
		memcpy(i->pred, p, n);
		p += strcspn(p, " \t");
		while (p < end && isspace((unsigned char)*p))
			p++;
	}
	n = 0;
	while (p + n < end && !isspace((unsigned char)p[n]) && p[n] != ';')
		n++;
	if (n == 0)
		return 0;
	if (n >= sizeof i->opcode)
		n = sizeof i->opcode - 1;
	memcpy(i->opcode, p, n);
	n = strcspn(i->opcode, ".");
	if (n >= sizeof i->base)
		n = sizeof i->base - 1;
	memcpy(i->base, i->opcode, n);
	i->text = line;
	i->text_len = len;
	return 1;
}

void sass_parse(const char *text, struct sass_listing *out)
{
	int cap = 0;

	memset(out, 0, sizeof *out);
	for (const char *ls = text; ls != NULL && *ls != '\0';) {
		const char *nl = strchr(ls, '\n');
		int len = nl ? (int)(nl - ls) : (int)strlen(ls);
		struct sass_insn i;

		if (parse_line(ls, len, &i)) {
			if (out->count == cap) {
				cap = cap ? 2 * cap : 256;
				out->insns = xrealloc(out->insns, (size_t)cap * sizeof *out->insns);
			}
			out->insns[out->count++] = i;
		}
		ls = nl ? nl + 1 : NULL;
	}
}

void sass_listing_free(struct sass_listing *l)
{
	free(l->insns);
	memset(l, 0, sizeof *l);
}

/* Has the dotted opcode this modifier ("LDG.E.128" has ".128")? */
static int has_mod(const char *opcode, const char *mod)
{
	size_t n = strlen(mod);

	for (const char *p = strchr(opcode, '.'); p != NULL; p = strchr(p + 1, '.'))
		if (strncmp(p + 1, mod, n) == 0 && (p[1 + n] == '.' || p[1 + n] == '\0'))
			return 1;
	return 0;
}

/* 8, 16, 32, 64, 128 or 256: the access width its modifiers give. */
static int width_bits(const char *opcode)
{
	if (has_mod(opcode, "256"))
		return 256;
	if (has_mod(opcode, "128"))
		return 128;
	if (has_mod(opcode, "64"))
		return 64;
	if (has_mod(opcode, "U16") || has_mod(opcode, "S16"))
		return 16;
	if (has_mod(opcode, "U8") || has_mod(opcode, "S8"))
		return 8;
	return 32;
}

static enum sass_kind by_width(enum sass_kind first, const char *opcode)
{
	switch (width_bits(opcode)) {
	case 8: return first;
	case 16: return first + 1;
	case 32: return first + 2;
	case 64: return first + 3;
	case 128: return first + 4;
	default: return first + 5;
	}
}

static enum sass_kind sass_classify(const struct sass_insn *i)
{
	const char *b = i->base;

	if (strcmp(b, "LDG") == 0)
		return by_width(SASS_GLOBAL_LD8, i->opcode);
	if (strcmp(b, "STG") == 0)
		return by_width(SASS_GLOBAL_ST8, i->opcode);
	if (strcmp(b, "LDS") == 0 || strcmp(b, "LDSM") == 0)
		return SASS_SHARED_LD;
	if (strcmp(b, "STS") == 0)
		return SASS_SHARED_ST;
	if (strcmp(b, "LDL") == 0)
		return SASS_LOCAL_LD;
	if (strcmp(b, "STL") == 0)
		return SASS_LOCAL_ST;
	if (strcmp(b, "LD") == 0)
		return SASS_GENERIC_LD;
	if (strcmp(b, "ST") == 0)
		return SASS_GENERIC_ST;
	if (strncmp(b, "ATOM", 4) == 0 || strcmp(b, "RED") == 0 || strcmp(b, "REDG") == 0)
		return SASS_ATOMIC;
	if (strcmp(b, "BAR") == 0)
		return SASS_BARRIER;
	if (strcmp(b, "WARPSYNC") == 0)
		return SASS_WARPSYNC;
	if (strcmp(b, "SHFL") == 0)
		return SASS_SHUFFLE;
	if (strcmp(b, "BRA") == 0 || strcmp(b, "BRX") == 0 || strcmp(b, "JMP") == 0 ||
	    strcmp(b, "JMX") == 0 || strcmp(b, "CALL") == 0 || strcmp(b, "RET") == 0)
		return SASS_BRANCH;
	if (strcmp(b, "FADD") == 0 || strcmp(b, "FMUL") == 0 || strcmp(b, "FFMA") == 0)
		return SASS_FP32;
	if (strcmp(b, "NOP") == 0)
		return SASS_NOP;
	return SASS_TOTAL;	/* counted in the total only */
}

void sass_mix_of(const struct sass_listing *l, struct sass_mix *m)
{
	memset(m, 0, sizeof *m);
	for (int i = 0; i < l->count; i++) {
		enum sass_kind k = sass_classify(&l->insns[i]);
		m->n[SASS_TOTAL]++;
		if (k != SASS_TOTAL)
			m->n[k]++;
	}
}

json_t *sass_mix_to_json(const struct sass_mix *m)
{
	json_t *o = json_object();

	for (int k = 0; k < SASS_KIND_COUNT; k++)
		json_object_set_new(o, kinds[k].key, json_integer(m->n[k]));
	return o;
}

void sass_insn_text(const struct sass_insn *i, char *buf, size_t len)
{
	const char *p = strstr(i->text, "*/");
	const char *end = i->text + i->text_len;
	size_t n;

	p = p != NULL && p < end ? p + 2 : i->text;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	n = (size_t)(end - p);
	while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == ';'))
		n--;
	snprintf(buf, len, "%.*s", (int)n, p);
}

int sass_mix_rows(const struct sass_mix *a, const struct sass_mix *b, enum sass_kind *kinds)
{
	int n = 0;

	for (int k = 0; k < SASS_KIND_COUNT; k++)
		if (k == SASS_TOTAL || a->n[k] != 0 || b->n[k] != 0)
			kinds[n++] = (enum sass_kind)k;
	return n;
}

int sass_opcode_matches(const char *opcode, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(opcode, prefix, n) == 0 && (opcode[n] == '\0' || opcode[n] == '.');
}

int sass_count(const struct sass_listing *l, const char *prefix)
{
	int count = 0;

	for (int i = 0; i < l->count; i++)
		count += sass_opcode_matches(l->insns[i].opcode, prefix);
	return count;
}

/* The operands of an instruction: its text after the opcode, up to the " ;". */
static void operands_of(const struct sass_insn *i, char *buf, size_t len)
{
	char text[256];
	const char *p;

	sass_insn_text(i, text, sizeof text);
	p = strstr(text, i->opcode);
	p = p != NULL ? p + strlen(i->opcode) : text;
	snprintf(buf, len, "%s", p);
}

/* Does text name register n (R12) as a word of its own: in "R12", "[R12.64]", not in "UR12" or "R120"? */
static bool names_register(const char *text, int n)
{
	char name[16];
	size_t len;

	snprintf(name, sizeof name, "R%d", n);
	len = strlen(name);
	for (const char *p = text; (p = strstr(p, name)) != NULL; p++) {
		char before = p > text ? p[-1] : ' ', after = p[len];

		if (!isalnum((unsigned char)before) && before != '_' && !isalnum((unsigned char)after))
			return true;
	}
	return false;
}

int sass_load_bytes_in_flight(const struct sass_listing *l)
{
	int pending[64], npending = 0, bytes = 0, most = 0;

	for (int i = 0; i < l->count; i++) {
		const struct sass_insn *in = &l->insns[i];
		char ops[256];
		int first, width;

		operands_of(in, ops, sizeof ops);
		/* the first instruction that reads (or overwrites) a loaded register waits for it */
		for (int k = 0; k < npending; k++)
			if (names_register(ops, pending[k])) {
				if (bytes > most)
					most = bytes;
				npending = bytes = 0;
				break;
			}
		if (strcmp(in->base, "LDG") != 0 && strcmp(in->base, "LD") != 0)
			continue;
		width = width_bits(in->opcode);
		bytes += width / 8;
		/* a wide load fills a run of registers from its first: LDG.E.128 R4 is R4 to R7 */
		if (sscanf(ops, " R%d", &first) == 1)
			for (int r = 0; r < (width + 31) / 32 && npending < (int)ARRAY_LEN(pending); r++)
				pending[npending++] = first + r;
	}
	return bytes > most ? bytes : most;
}

void sass_diff(const struct sass_listing *a, const struct sass_listing *b, struct sass_diff *out)
{
	int n = a->count, m = b->count;
	/* lengths of common subsequences of the suffixes, (n+1) x (m+1) */
	int *len = xcalloc((size_t)(n + 1) * (size_t)(m + 1), sizeof *len);
	int i = 0, j = 0;

#define LEN(i, j) len[(size_t)(i) * (size_t)(m + 1) + (size_t)(j)]
	for (i = n - 1; i >= 0; i--)
		for (j = m - 1; j >= 0; j--)
			LEN(i, j) = strcmp(a->insns[i].opcode, b->insns[j].opcode) == 0 ?
			    LEN(i + 1, j + 1) + 1 :
			    (LEN(i + 1, j) >= LEN(i, j + 1) ? LEN(i + 1, j) : LEN(i, j + 1));
	memset(out, 0, sizeof *out);
	out->rows = xcalloc((size_t)(n + m) + 1, sizeof *out->rows);
	i = j = 0;
	while (i < n || j < m) {
		struct sass_diff_row *r = &out->rows[out->count++];
		if (i < n && j < m && strcmp(a->insns[i].opcode, b->insns[j].opcode) == 0) {
			r->a = i++;
			r->b = j++;
			out->kept++;
		} else if (j < m && (i == n || LEN(i, j + 1) >= LEN(i + 1, j))) {
			r->a = -1;
			r->b = j++;
			out->added++;
		} else {
			r->a = i++;
			r->b = -1;
			out->removed++;
		}
	}
#undef LEN
	free(len);
}

void sass_diff_free(struct sass_diff *d)
{
	free(d->rows);
	memset(d, 0, sizeof *d);
}

static int changed(const struct sass_diff *d, int r)
{
	return d->rows[r].a < 0 || d->rows[r].b < 0;
}

int sass_diff_next_change(const struct sass_diff *d, int from, int dir)
{
	int step = dir > 0 ? 1 : -1;
	int r = dir > 0 ? (from < 0 ? 0 : from + 1) : (from > d->count ? d->count : from) - 1;

	for (; r >= 0 && r < d->count; r += step)
		if (changed(d, r) && (r == 0 || !changed(d, r - 1)))
			return r;
	return -1;
}

/* What the compiler made of a kernel: source, PTX, SASS and resources. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "inspect.h"
#include "paths.h"

int inspect_resolve(const char *name, unsigned int block, struct inspect_target *t,
    struct error *e)
{
	memset(t, 0, sizeof *t);
	t->kernel = registry_find(name);
	if (t->kernel != NULL) {
		registry_symbol(t->kernel, block ? block : 1024, t->symbol, sizeof t->symbol);
	} else {
		/* an exported per-block-size symbol: name_<block> */
		for (int i = 0; i < registry_kernel_count && t->kernel == NULL; i++) {
			const struct kernel_def *k = &registry_kernels[i];
			size_t n = strlen(k->name);
			if ((k->flags & KF_BLOCK_TEMPLATE) && strncmp(name, k->name, n) == 0 &&
			    name[n] == '_' && isdigit((unsigned char)name[n + 1])) {
				t->kernel = k;
				snprintf(t->symbol, sizeof t->symbol, "%s", name);
			}
		}
	}
	if (t->kernel == NULL) {
		error_set(e, _("unknown kernel '%s' (see 'cudatutor list --kernels')"), name);
		return -1;
	}
	if (registry_is_library(t->kernel)) {
		error_set(e, _("%s is a library call, not a kernel of ours: its code is the library's"),
		    t->kernel->name);
		return -1;
	}
	return 0;
}

static char *read_artifact(const char *module, const char *ext, int from_source, struct error *e)
{
	char *rel = xasprintf("kernels/%s.%s", module, ext);
	char *path = from_source ? paths_source(rel) : paths_build(rel);
	char *text = file_read(path, NULL);

	if (text == NULL) {
		if (strcmp(ext, "sass") == 0)
			error_set(e, _("%s was not built: cuobjdump was missing when cudatutor was configured; "
			    "install it (the CUDA toolkit, or pip install nvidia-cuda-cuobjdump) and run configure and make again"),
			    path);
		else
			error_set(e, _("cannot read %s (%s): run make (or reinstall)"), path, strerror(errno));
	}
	free(rel);
	free(path);
	return text;
}

/* ---- source -------------------------------------------------------------- */

/* Offset of the line start at or before p. */
static const char *line_start(const char *text, const char *p)
{
	while (p > text && p[-1] != '\n')
		p--;
	return p;
}

static const char *prev_line(const char *text, const char *ls)
{
	if (ls <= text)
		return NULL;
	return line_start(text, ls - 1);
}

static int line_is(const char *ls, const char *prefix)
{
	while (*ls == ' ' || *ls == '\t')
		ls++;
	return strncmp(ls, prefix, strlen(prefix)) == 0;
}

/*
 * Where the definition of name starts (with any template line and the
 * comment just above) and ends (its closing brace and newline).
 */
static int find_definition(const char *text, const char *name, const char *qualifier,
    const char **start, const char **end)
{
	static const char *const attributes[] = { "__launch_bounds__(", "__cluster_dims__(" };
	size_t n = strlen(name);

	for (const char *p = strstr(text, name); p != NULL; p = strstr(p + 1, name)) {
		const char *ls = line_start(text, p), *q, *brace;
		char *line;
		int depth = 0;

		if ((p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) ||
		    (p[n] != '(' && p[n] != ' '))
			continue;
		line = xmalloc((size_t)(p - ls) + 1);
		memcpy(line, ls, (size_t)(p - ls));
		line[p - ls] = '\0';
		/* __launch_bounds__(...) and __cluster_dims__(...) before the name are part of the definition */
		for (size_t i = 0; i < ARRAY_LEN(attributes); i++) {
			char *at = strstr(line, attributes[i]), *close;

			if (at != NULL && (close = strchr(at, ')')) != NULL)
				memmove(at, close + 1, strlen(close + 1) + 1);
		}
		if (strstr(line, qualifier) == NULL || strchr(line, ';') != NULL ||
		    strchr(line, '(') != NULL) {
			free(line);
			continue;
		}
		free(line);
		brace = strchr(p, '{');
		q = strchr(p, ';');
		if (brace == NULL || (q != NULL && q < brace))
			continue;	/* a declaration */
		for (q = brace; *q != '\0'; q++) {
			if (*q == '{')
				depth++;
			else if (*q == '}' && --depth == 0)
				break;
		}
		if (*q == '\0')
			return -1;
		*end = q + 1;
		if (**end == '\n')
			(*end)++;
		/* back over a template line and the comment above */
		{
			const char *pl = prev_line(text, ls);
			if (pl != NULL && line_is(pl, "template")) {
				ls = pl;
				pl = prev_line(text, ls);
			}
			if (pl != NULL && (line_is(pl, "*/") || line_is(pl, "//") ||
			    (line_is(pl, "/*") && strstr(pl, "*/") != NULL))) {
				while (pl != NULL && !line_is(pl, "/*") && line_is(pl, "*") + line_is(pl, "//") > 0)
					pl = prev_line(text, pl);
				if (pl != NULL && (line_is(pl, "/*") || line_is(pl, "//")))
					ls = pl;
			}
		}
		*start = ls;
		return 0;
	}
	return -1;
}

/* Names of the __device__ functions defined in text, in file order. */
static int device_functions(const char *text, char names[][64], int max)
{
	int count = 0;

	for (const char *p = strstr(text, "__device__"); p != NULL && count < max;
	    p = strstr(p + 1, "__device__")) {
		const char *paren = strchr(p, '('), *nl = strchr(p, '\n'), *q;
		size_t len;

		if (paren == NULL || (nl != NULL && nl < paren))
			continue;
		q = paren;
		while (q > p && q[-1] == ' ')
			q--;
		len = 0;
		while (q > p && (isalnum((unsigned char)q[-1]) || q[-1] == '_')) {
			q--;
			len++;
		}
		if (len == 0 || len >= 64)
			continue;
		memcpy(names[count], q, len);
		names[count][len] = '\0';
		count++;
	}
	return count;
}

static int mentions(const char *text, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = strstr(text, name); p != NULL; p = strstr(p + 1, name)) {
		int before = p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
		if (!before && (p[n] == '(' || p[n] == '<'))
			return 1;
	}
	return 0;
}

/* 1-based line number of p in text. */
static int line_number(const char *text, const char *p)
{
	int n = 1;

	for (const char *q = text; q < p; q++)
		n += *q == '\n';
	return n;
}

/* Append the lines [start, end) of text to out, and their numbers to lines. */
static void add_part(struct strbuf *out, const char *text, const char *start, const char *end,
    int **lines, int *count)
{
	int first = line_number(text, start);

	strbuf_add(out, start, (size_t)(end - start));
	if (lines == NULL)
		return;
	for (const char *p = start; p < end; p++)
		if (*p == '\n') {
			*lines = xrealloc(*lines, (size_t)(*count + 1) * sizeof **lines);
			(*lines)[(*count)++] = first++;
		}
}

/*
 * The kernel's definition, preceded by the __device__ helpers it calls
 * (and those they call), in file order, a blank line between parts.
 */
static char *assemble_source(const char *text, const char *symbol, int **lines, int *count)
{
	char names[64][64];
	int n = device_functions(text, names, 64);
	int used[64] = { 0 };
	const char *start, *end;
	struct strbuf calls = { 0 }, out = { 0 };
	int changed = 1;

	if (lines != NULL) {
		*lines = NULL;
		*count = 0;
	}
	if (find_definition(text, symbol, "__global__", &start, &end) != 0)
		return NULL;
	/* the text whose calls matter grows as helpers join */
	strbuf_add(&calls, start, (size_t)(end - start));
	while (changed) {
		changed = 0;
		for (int i = 0; i < n; i++) {
			const char *hs, *he;
			if (used[i] || !mentions(calls.s, names[i]))
				continue;
			if (find_definition(text, names[i], "__device__", &hs, &he) == 0)
				strbuf_add(&calls, hs, (size_t)(he - hs));
			used[i] = 1;
			changed = 1;
		}
	}
	strbuf_free(&calls);
	for (int i = 0; i < n; i++) {
		const char *hs, *he;
		if (used[i] && find_definition(text, names[i], "__device__", &hs, &he) == 0) {
			add_part(&out, text, hs, he, lines, count);
			strbuf_add(&out, "\n", 1);
			if (lines != NULL) {
				*lines = xrealloc(*lines, (size_t)(*count + 1) * sizeof **lines);
				(*lines)[(*count)++] = 0;
			}
		}
	}
	add_part(&out, text, start, end, lines, count);
	return out.s;
}

char *inspect_source_from_text(const char *text, const char *symbol)
{
	return assemble_source(text, symbol, NULL, NULL);
}

char *inspect_source_numbered(const struct inspect_target *t, int **lines, int *count,
    struct error *e)
{
	char *text = read_artifact(t->kernel->module, "cu", 1, e);
	char *src;

	if (text == NULL)
		return NULL;
	src = assemble_source(text, t->symbol, lines, count);
	free(text);
	if (src == NULL)
		error_set(e, _("the definition of %s was not found in kernels/%s.cu"), t->symbol,
		    t->kernel->module);
	return src;
}

char *inspect_source(const struct inspect_target *t, struct error *e)
{
	char *text = read_artifact(t->kernel->module, "cu", 1, e);
	char *src;

	if (text == NULL)
		return NULL;
	src = inspect_source_from_text(text, t->symbol);
	free(text);
	if (src == NULL)
		error_set(e, _("the definition of %s was not found in kernels/%s.cu"), t->symbol,
		    t->kernel->module);
	return src;
}

/* ---- PTX ----------------------------------------------------------------- */

char *inspect_ptx_from_text(const char *ptx, const char *symbol)
{
	char *head = xasprintf(".entry %s(", symbol);
	const char *p = strstr(ptx, head), *end;
	char *out;

	free(head);
	if (p == NULL)
		return NULL;
	p = line_start(ptx, p);
	end = strstr(p, "\n}\n");
	end = end ? end + 3 : p + strlen(p);
	out = xmalloc((size_t)(end - p) + 1);
	memcpy(out, p, (size_t)(end - p));
	out[end - p] = '\0';
	return out;
}

char *inspect_ptx(const struct inspect_target *t, struct error *e)
{
	char *text = read_artifact(t->kernel->module, "ptx", 0, e);
	char *ptx;

	if (text == NULL)
		return NULL;
	ptx = inspect_ptx_from_text(text, t->symbol);
	free(text);
	if (ptx == NULL)
		error_set(e, _("%s is not in kernels/%s.ptx"), t->symbol, t->kernel->module);
	return ptx;
}

/* ---- SASS ---------------------------------------------------------------- */

/* The architecture a "arch = sm_90" line names, into buf. */
static int arch_line(const char *ls, char *buf, size_t len)
{
	if (strncmp(ls, "arch = ", 7) != 0)
		return 0;
	snprintf(buf, len, "%.*s", (int)strcspn(ls + 7, " \n"), ls + 7);
	return 1;
}

char *inspect_sass_archs(const char *module, struct error *e)
{
	char *text = read_artifact(module, "sass", 0, e);
	struct strbuf b = { 0 };
	int in_elf = 0;

	if (text == NULL)
		return NULL;
	for (const char *ls = text; ls != NULL && *ls != '\0';) {
		char arch[32];
		const char *nl = strchr(ls, '\n');

		if (strncmp(ls, "Fatbin elf code", 15) == 0)
			in_elf = 1;
		else if (strncmp(ls, "Fatbin ptx code", 15) == 0)
			in_elf = 0;
		else if (in_elf && arch_line(ls, arch, sizeof arch) &&
		    (b.s == NULL || strstr(b.s, arch) == NULL))
			strbuf_addf(&b, "%s%s", b.len ? " " : "", arch);
		ls = nl ? nl + 1 : NULL;
	}
	free(text);
	if (b.s == NULL)
		b.s = xstrdup("");
	return b.s;
}

/* An instruction line without its trailing encoding comment; NULL if none. */
static int sass_instruction(const char *ls, size_t n, struct strbuf *out)
{
	const char *addr = memchr(ls, '/', n);
	const char *enc;
	size_t len;

	if (addr == NULL || addr[1] != '*' || !isxdigit((unsigned char)addr[2]))
		return 0;
	enc = strstr(addr + 2, "/* 0x");
	len = enc != NULL && enc < ls + n ? (size_t)(enc - addr) : n - (size_t)(addr - ls);
	while (len > 0 && (addr[len - 1] == ' ' || addr[len - 1] == '\t'))
		len--;
	strbuf_add(out, addr, len);
	strbuf_add(out, "\n", 1);
	return 1;
}

char *inspect_sass_from_text(const char *sass, const char *symbol, const char *arch)
{
	struct strbuf out = { 0 };
	int in_elf = 0, in_arch = 0, in_fn = 0, fatbin = 0;
	char cur[32] = "";

	for (const char *ls = sass; ls != NULL && *ls != '\0';) {
		const char *nl = strchr(ls, '\n');
		size_t n = nl ? (size_t)(nl - ls) : strlen(ls);
		const char *t = ls;

		while (*t == ' ' || *t == '\t')
			t++;
		if (strncmp(ls, "Fatbin elf code", 15) == 0) {
			in_elf = fatbin = 1;
			in_fn = 0;
		} else if (strncmp(ls, "Fatbin ptx code", 15) == 0) {
			in_elf = 0;
			fatbin = 1;
			in_fn = 0;
		} else if (in_elf && arch_line(ls, cur, sizeof cur)) {
			in_arch = strcmp(cur, arch) == 0;
			in_fn = 0;
		} else if (!fatbin && strncmp(t, "code for ", 9) == 0) {
			/* a lone cubin's listing (NVRTC's): no fatbin headers, its architecture here */
			snprintf(cur, sizeof cur, "%.*s", (int)strcspn(t + 9, " \n"), t + 9);
			in_elf = 1;
			in_arch = strcmp(cur, arch) == 0;
			in_fn = 0;
		} else if (strncmp(t, "Function : ", 11) == 0) {
			size_t len = strcspn(t + 11, " \n");
			in_fn = in_elf && in_arch && len == strlen(symbol) &&
			    strncmp(t + 11, symbol, len) == 0;
		} else if (in_fn && strncmp(t, "....", 4) == 0) {
			in_fn = 0;
		} else if (in_fn) {
			sass_instruction(ls, n, &out);
		}
		ls = nl ? nl + 1 : NULL;
	}
	return out.s;
}

/* The address of label (".L_x_3", ending at end) in listing: of the first instruction after it; -1: none. */
static long label_address(const char *from, const char *to, const char *label, size_t n)
{
	for (const char *p = from; p < to && (p = strstr(p, label)) != NULL && p < to; p += n) {
		const char *at;

		/* the definition: at a line's start, a colon after it */
		if ((p > from && p[-1] != '\n') || strncmp(p + n, ":", 1) != 0)
			continue;
		at = strstr(p, "/*");
		while (at != NULL && at < to && !isxdigit((unsigned char)at[2]))
			at = strstr(at + 2, "/*");
		return at != NULL && at < to ? strtol(at + 2, NULL, 16) : -1;
	}
	return -1;
}

char *inspect_sass_from_disasm(const char *text, const char *symbol)
{
	char *section = xasprintf(".text.%s:\n", symbol);
	const char *p = strstr(text, section), *end;
	struct strbuf out = { 0 };

	if (p != NULL) {
		p += strlen(section);
		/* up to the next function's header */
		end = strstr(p, "\n//----");
		if (end == NULL)
			end = p + strlen(p);
		for (const char *ls = p; ls < end;) {
			const char *nl = memchr(ls, '\n', (size_t)(end - ls));
			size_t n = nl ? (size_t)(nl - ls) : (size_t)(end - ls);
			const char *t = ls, *tick;
			struct strbuf line = { 0 };

			while (*t == ' ' || *t == '\t')
				t++;
			/* instructions only, not the //## File lines nor the labels; a branch's label as cuobjdump
			 * prints its target, an address: "BRA `(.L_x_2)" is "BRA 0x180" */
			if (t[0] == '/' && t[1] == '*') {
				strbuf_add(&line, ls, n);
				while ((tick = strstr(line.s, "`(.L")) != NULL) {
					size_t len = strcspn(tick + 2, ")");
					char *label = xasprintf("%.*s", (int)len, tick + 2), *with;
					long addr = label_address(p, end, label, len);

					with = addr >= 0 ? xasprintf("%.*s0x%lx%s", (int)(tick - line.s), line.s, addr,
					    tick + 2 + len + 1) : NULL;
					free(label);
					if (with == NULL)
						break;
					strbuf_free(&line);
					strbuf_add(&line, with, strlen(with));
					free(with);
				}
				sass_instruction(line.s, line.len, &out);
				strbuf_free(&line);
			}
			ls = nl ? nl + 1 : end;
		}
	}
	free(section);
	return out.s;
}

int inspect_arch_for(const char *module, int major, int minor, char *buf, size_t len,
    struct error *e)
{
	char *archs = inspect_sass_archs(module, e), best_name[16] = "";
	int best = -1;

	if (archs == NULL)
		return -1;
	for (char *tok = strtok(archs, " "); tok != NULL; tok = strtok(NULL, " ")) {
		int v = atoi(tok + 3);	/* "sm_86" -> 86; "sm_90a" (Hopper's own features) -> 90 */
		if (v / 10 == major && v % 10 <= minor && v > best) {
			best = v;
			snprintf(best_name, sizeof best_name, "%s", tok);
		}
	}
	free(archs);
	if (best < 0) {
		error_set(e, _("this GPU (sm_%d%d) runs kernels/%s.fatbin's PTX, compiled by the driver; "
		    "that SASS cannot be shown: rebuild with --with-cuda-arch=%d%d"),
		    major, minor, module, major, minor);
		return -1;
	}
	snprintf(buf, len, "%s", best_name);
	return 0;
}

char *inspect_sass(const struct inspect_target *t, const char *arch, struct error *e)
{
	char *text, *sass, *archs;

	archs = inspect_sass_archs(t->kernel->module, e);
	if (archs == NULL)
		return NULL;
	{
		/* whole-word match of arch in the list */
		int found = 0;
		for (char *tok = strtok(archs, " "); tok != NULL; tok = strtok(NULL, " "))
			if (strcmp(tok, arch) == 0)
				found = 1;
		free(archs);
		if (!found) {
			char *list = inspect_sass_archs(t->kernel->module, e);
			error_set(e, _("kernels/%s.fatbin has no SASS for %s (it has: %s): pick one with --arch, or rebuild with --with-cuda-arch"),
			    t->kernel->module, arch, list ? list : "");
			free(list);
			return NULL;
		}
	}
	text = read_artifact(t->kernel->module, "sass", 0, e);
	if (text == NULL)
		return NULL;
	sass = inspect_sass_from_text(text, t->symbol, arch);
	free(text);
	if (sass == NULL)
		error_set(e, _("%s has no SASS for %s in kernels/%s.sass"), t->symbol, arch,
		    t->kernel->module);
	return sass;
}

/* ---- resources ------------------------------------------------------------ */

/* The number before word in s, or -1. "Used 28 registers" -> 28 for "registers". */
static int number_before(const char *s, const char *end, const char *word)
{
	for (const char *p = strstr(s, word); p != NULL && p < end; p = strstr(p + 1, word)) {
		const char *q = p;
		while (q > s && q[-1] == ' ')
			q--;
		if (q > s && isdigit((unsigned char)q[-1])) {
			while (q > s && isdigit((unsigned char)q[-1]))
				q--;
			return atoi(q);
		}
	}
	return -1;
}

int inspect_resources_from_text(const char *res, const char *symbol, const char *arch,
    struct kernel_resources *r)
{
	char *head = xasprintf("Compiling entry function '%s' for '%s'", symbol, arch);
	const char *p = strstr(res, head), *end;
	int v;

	free(head);
	memset(r, 0, sizeof *r);
	if (p == NULL)
		return -1;
	p = strchr(p, '\n');
	if (p == NULL)
		return -1;
	end = strstr(p, "Compiling entry function");
	if (end == NULL)
		end = p + strlen(p);
	r->registers = number_before(p, end, "registers");
	if (r->registers < 0)
		return -1;
	if ((v = number_before(p, end, "barriers")) >= 0)
		r->barriers = v;
	if ((v = number_before(p, end, "bytes smem")) >= 0)
		r->shared_bytes = v;
	if ((v = number_before(p, end, "bytes stack frame")) >= 0)
		r->stack_bytes = v;
	if ((v = number_before(p, end, "bytes spill stores")) >= 0)
		r->spill_store_bytes = v;
	if ((v = number_before(p, end, "bytes spill loads")) >= 0)
		r->spill_load_bytes = v;
	if ((v = number_before(p, end, "bytes lmem")) >= 0)
		r->local_bytes = v;
	if ((v = number_before(p, end, "bytes cmem[0]")) >= 0)
		r->constant_bytes = v;
	return 0;
}

/* "REG:32" in a line of key:value pairs: the value, or -1. */
static int usage_value(const char *line, const char *end, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = line; p < end; p++)
		if ((p == line || p[-1] == ' ') && strncmp(p, key, n) == 0 && p[n] == ':' &&
		    isdigit((unsigned char)p[n + 1]))
			return atoi(p + n + 1);
	return -1;
}

int inspect_resources_from_usage(const char *text, const char *symbol, struct kernel_resources *r)
{
	char *head = xasprintf("Function %s:", symbol);
	const char *p = text, *line, *end;
	size_t n = strlen(head);
	int v;

	memset(r, 0, sizeof *r);
	for (p = strstr(p, head); p != NULL; p = strstr(p + 1, head))
		if ((p[n] == '\n' || p[n] == '\r') && (p == text || p[-1] == ' '))
			break;
	free(head);
	if (p == NULL)
		return -1;
	line = strchr(p, '\n');
	if (line == NULL)
		return -1;
	line++;
	end = line + strcspn(line, "\n");
	if ((r->registers = usage_value(line, end, "REG")) < 0)
		return -1;
	if ((v = usage_value(line, end, "SHARED")) >= 0)
		r->shared_bytes = v;
	if ((v = usage_value(line, end, "STACK")) >= 0)
		r->stack_bytes = v;
	if ((v = usage_value(line, end, "LOCAL")) >= 0)
		r->local_bytes = v;
	if ((v = usage_value(line, end, "CONSTANT[0]")) >= 0)
		r->constant_bytes = v;
	return 0;
}

int inspect_resources(const struct inspect_target *t, const char *arch,
    struct kernel_resources *r, struct error *e)
{
	char *text = read_artifact(t->kernel->module, "res", 0, e);
	int rc;

	if (text == NULL)
		return -1;
	rc = inspect_resources_from_text(text, t->symbol, arch, r);
	free(text);
	if (rc != 0)
		error_set(e, _("no resource report for %s on %s in kernels/%s.res"), t->symbol, arch,
		    t->kernel->module);
	return rc;
}

/* ---- source lines of SASS -------------------------------------------------- */

/*
 * From a "//## File "...", line N [inlined at "...", line M ...]" comment,
 * the line in the module's own .cu file: the innermost location there, so
 * an intrinsic inlined into a helper maps to the helper's line.
 */
static int our_line(const char *comment, const char *module_cu)
{
	for (const char *p = strstr(comment, "File \""); p != NULL; p = strstr(p + 1, "File \"")) {
		const char *q = strchr(p + 6, '"');
		const char *ln;
		size_t n = strlen(module_cu);

		if (q == NULL)
			return 0;
		ln = strstr(q, ", line ");
		if ((size_t)(q - (p + 6)) >= n && strncmp(q - n, module_cu, n) == 0 &&
		    (q - n == p + 6 || q[-(long)n - 1] == '/') && ln != NULL)
			return atoi(ln + 7);
	}
	/* "inlined at" locations */
	for (const char *p = strstr(comment, "inlined at \""); p != NULL; p = strstr(p + 1, "inlined at \"")) {
		const char *q = strchr(p + 12, '"');
		size_t n = strlen(module_cu);
		const char *ln = q ? strstr(q, ", line ") : NULL;

		if (q != NULL && ln != NULL && (size_t)(q - (p + 12)) >= n && strncmp(q - n, module_cu, n) == 0)
			return atoi(ln + 7);
	}
	return 0;
}

int inspect_sass_lines_from_text(const char *text, const char *symbol, const char *arch,
    const char *module, int **lines, int *count)
{
	char *archline = xasprintf("arch = %s\n", arch);
	char *section = xasprintf(".text.%s:\n", symbol);
	char *module_cu = xasprintf("%s.cu", module);
	const char *p = strstr(text, archline), *end;
	int n = 0, cap = 256, current = 0, fresh = 1;

	*lines = NULL;
	*count = 0;
	if (p != NULL)
		p = strstr(p, section);
	if (p != NULL) {
		const char *next_arch = strstr(p, "\narch = ");
		end = strstr(p + strlen(section), "\n.text.");
		if (end == NULL || (next_arch != NULL && next_arch < end))
			end = next_arch ? next_arch : p + strlen(p);
		*lines = xmalloc((size_t)cap * sizeof **lines);
		for (const char *ls = strchr(p, '\n') + 1; ls < end;) {
			const char *nl = strchr(ls, '\n');
			const char *t = ls;

			if (nl == NULL)
				nl = ls + strlen(ls);
			while (*t == ' ' || *t == '\t')
				t++;
			/*
			 * Before an instruction, nvdisasm -gi lists its location
			 * innermost first, then each call site: the first one
			 * that lies in our file is the line to show.
			 */
			if (strncmp(t, "//## File", 9) == 0) {
				char *c = xmalloc((size_t)(nl - t) + 1);
				int line;
				memcpy(c, t, (size_t)(nl - t));
				c[nl - t] = '\0';
				line = our_line(c, module_cu);
				free(c);
				if (fresh && line > 0) {
					current = line;
					fresh = 0;
				}
			} else if (t[0] == '/' && t[1] == '*' && isxdigit((unsigned char)t[2])) {
				fresh = 1;
				if (n == cap) {
					cap *= 2;
					*lines = xrealloc(*lines, (size_t)cap * sizeof **lines);
				}
				(*lines)[n++] = current;
			}
			ls = nl + (*nl == '\n');
			if (*nl == '\0')
				break;
		}
	}
	free(archline);
	free(section);
	free(module_cu);
	*count = n;
	return p != NULL ? 0 : -1;
}

int inspect_sass_lines(const struct inspect_target *t, const char *arch, int **lines, int *count,
    struct error *e)
{
	char *rel = xasprintf("kernels/%s.lines", t->kernel->module);
	char *path = paths_build(rel);
	char *text = file_read(path, NULL);
	int rc;

	free(rel);
	if (text == NULL) {
		error_set(e, _("%s was not built: source-line mapping needs cuobjdump and nvdisasm when cudatutor "
		    "is configured; install them (the CUDA toolkit, or pip install nvidia-cuda-cuobjdump "
		    "nvidia-cuda-nvdisasm) and run configure and make again"), path);
		free(path);
		return -1;
	}
	rc = inspect_sass_lines_from_text(text, t->symbol, arch, t->kernel->module, lines, count);
	if (rc != 0)
		error_set(e, _("%s has no line information for %s on %s"), path, t->symbol, arch);
	free(text);
	free(path);
	return rc;
}

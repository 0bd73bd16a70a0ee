/* Counts of SASS instructions that lesson text quotes: {{count LDG.E.128}}. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "counts.h"
#include "inspect.h"
#include "lesson.h"
#include "sass.h"

/* The count itself, -1 if the SASS cannot be read. */
static int counts_of(const struct kernel_def *kernel, unsigned int block, const char *arch,
    const char *opcode)
{
	struct inspect_target t;
	struct sass_listing l;
	struct error e;
	char *sass;
	int n;

	if (kernel == NULL || inspect_resolve(kernel->name, block, &t, &e) != 0)
		return -1;
	sass = inspect_sass(&t, arch, &e);
	if (sass == NULL)
		return -1;
	sass_parse(sass, &l);
	n = sass_count(&l, opcode);
	sass_listing_free(&l);
	free(sass);
	return n;
}

char *counts_expand(const char *text, const struct kernel_def *kernel, unsigned int block,
    const char *arch)
{
	struct strbuf out = { 0 };
	const char *p = text;

	for (const char *open; (open = strstr(p, "{{count ")) != NULL;) {
		const char *close = strstr(open, "}}");
		char inner[160], *word2;
		const struct kernel_def *k = kernel;
		const char *opcode = inner;
		int n;

		if (close == NULL || close - open - 8 >= (long)sizeof inner) {
			strbuf_add(&out, p, (size_t)(open - p) + 8);
			p = open + 8;
			continue;
		}
		strbuf_add(&out, p, (size_t)(open - p));
		memcpy(inner, open + 8, (size_t)(close - open - 8));
		inner[close - open - 8] = '\0';
		word2 = strchr(inner, ' ');
		if (word2 != NULL) {
			*word2++ = '\0';
			k = registry_find(inner);
			opcode = word2;
		}
		n = lesson_is_opcode(opcode) ? counts_of(k, block, arch, opcode) : -1;
		if (n >= 0)
			strbuf_addf(&out, "%d", n);
		else
			strbuf_add(&out, "?", 1);
		p = close + 2;
	}
	strbuf_add(&out, p, strlen(p));
	return out.s;
}

void counts_expand_nodes(cmark_node *from, cmark_node *to, const struct kernel_def *kernel,
    unsigned int block, const char *arch)
{
	for (cmark_node *top = from; top != NULL && top != to; top = cmark_node_next(top)) {
		cmark_iter *it = cmark_iter_new(top);
		cmark_event_type ev;

		while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
			cmark_node *n = cmark_iter_get_node(it);
			const char *lit;

			if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(n) != CMARK_NODE_TEXT)
				continue;
			lit = cmark_node_get_literal(n);
			if (lit != NULL && strstr(lit, "{{count ") != NULL) {
				char *expanded = counts_expand(lit, kernel, block, arch);
				cmark_node_set_literal(n, expanded);
				free(expanded);
			}
		}
		cmark_iter_free(it);
	}
}

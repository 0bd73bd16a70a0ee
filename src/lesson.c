/* Lessons: Markdown files of prose and steps, each step naming a kernel. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm-core-extensions.h>

#include "i18n.h"
#include "lesson.h"
#include "paths.h"
#include "textwrap.h"

cmark_parser *lesson_parser_new(void)
{
	static const char *const extensions[] = { "table", "strikethrough" };
	cmark_parser *p;

	cmark_gfm_core_extensions_ensure_registered();
	p = cmark_parser_new(CMARK_OPT_DEFAULT);
	for (size_t i = 0; i < ARRAY_LEN(extensions); i++) {
		cmark_syntax_extension *ext = cmark_find_syntax_extension(extensions[i]);
		if (ext != NULL)
			cmark_parser_attach_syntax_extension(p, ext);
	}
	return p;
}

void lesson_free(struct lesson *l)
{
	if (l == NULL)
		return;
	for (int i = 0; i < l->nexercises; i++) {
		struct lesson_exercise *x = &l->exercises[i];
		free(x->id);
		free(x->title);
		free(x->task);
		for (int k = 0; k < x->nhints; k++)
			free(x->hints[k]);
		free(x->hints);
	}
	free(l->exercises);
	for (int i = 0; i < l->nsteps; i++) {
		free(l->steps[i].title);
		for (char **p = l->steps[i].look_for; p != NULL && *p != NULL; p++)
			free(*p);
		free(l->steps[i].look_for);
	}
	free(l->steps);
	if (l->doc != NULL)
		cmark_node_free(l->doc);
	free(l->id);
	free(l->path);
	free(l->lang);
	free(l->title);
	free(l->error);
	memset(l, 0, sizeof *l);
}

/* Line of the first byte that is not valid UTF-8, or 0 if all is well. */
static int invalid_utf8_line(const unsigned char *s, size_t len)
{
	int line = 1;

	for (size_t i = 0; i < len;) {
		unsigned char c = s[i];
		size_t need;

		if (c == '\n')
			line++;
		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			need = 1;
		else if (c >= 0xe0 && c <= 0xef)
			need = 2;
		else if (c >= 0xf0 && c <= 0xf4)
			need = 3;
		else
			return line;
		for (size_t k = 1; k <= need; k++)
			if (i + k >= len || (s[i + k] & 0xc0) != 0x80)
				return line;
		/* overlong forms, UTF-16 surrogates, beyond U+10FFFF */
		if ((c == 0xe0 && s[i + 1] < 0xa0) || (c == 0xed && s[i + 1] >= 0xa0) ||
		    (c == 0xf0 && s[i + 1] < 0x90) || (c == 0xf4 && s[i + 1] >= 0x90))
			return line;
		i += need + 1;
	}
	return 0;
}

/* Plain text of a heading, trimmed. */
static char *heading_text(cmark_node *h)
{
	char *text = cmark_render_plaintext(h, CMARK_OPT_DEFAULT, 0);
	size_t n = strlen(text);

	while (n > 0 && isspace((unsigned char)text[n - 1]))
		text[--n] = '\0';
	{
		char *copy = xstrdup(text);
		free(text);
		return copy;
	}
}

/* A fenced block with this info string ("step", "exercise"). */
static int is_block(cmark_node *n, const char *kind)
{
	const char *info;

	if (n == NULL || cmark_node_get_type(n) != CMARK_NODE_CODE_BLOCK)
		return 0;
	info = cmark_node_get_fence_info(n);
	return info != NULL && strcmp(info, kind) == 0;
}

/*
 * An opcode prefix: capitals, digits and dots, starting with a capital
 * ("LDG.E.128"); a modifier may hold small letters too, as a shape does
 * ("HGMMA.64x232x16").
 */
int lesson_is_opcode(const char *s)
{
	int modifier = 0;

	if (*s < 'A' || *s > 'Z')
		return 0;
	for (; *s != '\0'; s++) {
		modifier |= *s == '.';
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '.' || *s == '_' ||
		    (modifier && *s >= 'a' && *s <= 'z')))
			return 0;
	}
	return s[-1] != '.';
}

/* "LDG.E.128, BAR.SYNC" -> the step's look-for list. */
static int parse_look_for(const char *value, const char *path, int line, struct lesson_step *step,
    struct error *e)
{
	char *copy = xstrdup(value);
	int n = 0;

	for (char **p = step->look_for; p != NULL && *p != NULL; p++)
		n++;
	for (char *tok = strtok(copy, ", "); tok != NULL; tok = strtok(NULL, ", ")) {
		if (!lesson_is_opcode(tok)) {
			error_set(e, _("%s:%d: look-for: '%s' is not a SASS opcode such as LDG.E.128 or BAR.SYNC"),
			    path, line, tok);
			free(copy);
			return -1;
		}
		step->look_for = xrealloc(step->look_for, (size_t)(n + 2) * sizeof *step->look_for);
		step->look_for[n++] = xstrdup(tok);
		step->look_for[n] = NULL;
	}
	free(copy);
	return 0;
}

/* One "key: value" line of a step block; -1 and e when the key or its value is wrong. */
static int step_key(const char *key, const char *value, const char *path, int line,
    struct lesson_step *step, int *have_kernel, struct error *e)
{
	if (strcmp(key, "kernel") == 0) {
		step->kernel = registry_find(value);
		if (step->kernel == NULL) {
			error_set(e, _("%s:%d: unknown kernel '%s' (see 'cudatutor list --kernels')"),
			    path, line, value);
			return -1;
		}
		*have_kernel = 1;
		return 0;
	}
	if (strcmp(key, "look-for") == 0)
		return parse_look_for(value, path, line, step, e);
	if (strcmp(key, "control") == 0) {
		/* a control step: it isolates one change, and is no rung of the lesson's ladder */
		if (strcmp(value, "yes") != 0 && strcmp(value, "no") != 0) {
			error_set(e, _("%s:%d: 'control' is 'yes' or 'no', not '%s'"), path, line, value);
			return -1;
		}
		step->control = strcmp(value, "yes") == 0;
		return 0;
	}
	error_set(e, _("%s:%d: unknown key '%s' in a step block (known: kernel, look-for, control)"),
	    path, line, key);
	return -1;
}

/* Read "key: value" lines of a step block into step. */
static int parse_step_block(cmark_node *block, const char *path, struct lesson_step *step,
    struct error *e)
{
	const char *text = cmark_node_get_literal(block);
	int line = cmark_node_get_start_line(block) + 1;	/* the fence is the first line */
	const char *p = text ? text : "";
	int have_kernel = 0;

	while (*p != '\0') {
		const char *end = strchr(p, '\n');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char *ln = xmalloc(n + 1), *colon, *key, *value;

		memcpy(ln, p, n);
		ln[n] = '\0';
		key = ln;
		while (isspace((unsigned char)*key))
			key++;
		if (*key == '\0' || *key == '#') {
			free(ln);
			goto next;
		}
		colon = strchr(key, ':');
		if (colon == NULL) {
			error_set(e, _("%s:%d: a step block holds lines 'key: value'; this one has no colon"),
			    path, line);
			free(ln);
			return -1;
		}
		*colon = '\0';
		value = colon + 1;
		for (char *q = colon - 1; q >= key && isspace((unsigned char)*q); q--)
			*q = '\0';
		while (isspace((unsigned char)*value))
			value++;
		for (char *q = value + strlen(value); q > value && isspace((unsigned char)q[-1]); q--)
			q[-1] = '\0';

		if (step_key(key, value, path, line, step, &have_kernel, e) != 0) {
			free(ln);
			return -1;
		}
		free(ln);
next:
		if (end == NULL)
			break;
		p = end + 1;
		line++;
	}
	if (!have_kernel) {
		error_set(e, _("%s:%d: this step block names no kernel: add a line 'kernel: NAME'"),
		    path, cmark_node_get_start_line(block));
		return -1;
	}
	return 0;
}

/* Read the "id: NAME" of an exercise block into x. */
static int parse_exercise_block(cmark_node *block, const char *path, struct lesson_exercise *x,
    struct error *e)
{
	const char *p = cmark_node_get_literal(block);
	int line = cmark_node_get_start_line(block) + 1;	/* the fence is the first line */

	for (p = p ? p : ""; *p != '\0'; line++) {
		size_t n = strcspn(p, "\n");
		char *ln = xmalloc(n + 1), *key = ln, *colon, *value;

		memcpy(ln, p, n);
		ln[n] = '\0';
		p += n + (p[n] == '\n');
		while (isspace((unsigned char)*key))
			key++;
		if (*key == '\0' || *key == '#') {
			free(ln);
			continue;
		}
		if ((colon = strchr(key, ':')) == NULL) {
			error_set(e, _("%s:%d: an exercise block holds lines 'key: value'; this one has no colon"),
			    path, line);
			free(ln);
			return -1;
		}
		*colon = '\0';
		for (char *q = colon - 1; q >= key && isspace((unsigned char)*q); q--)
			*q = '\0';
		value = colon + 1;
		while (isspace((unsigned char)*value))
			value++;
		for (char *q = value + strlen(value); q > value && isspace((unsigned char)q[-1]); q--)
			q[-1] = '\0';
		if (strcmp(key, "id") != 0) {
			error_set(e, _("%s:%d: unknown key '%s' in an exercise block (known: id)"), path, line, key);
			free(ln);
			return -1;
		}
		if (x->id != NULL) {
			error_set(e, _("%s:%d: a second id in an exercise block: one exercise per section"),
			    path, line);
			free(ln);
			return -1;
		}
		x->def = exercise_def_find(value);
		if (x->def == NULL) {
			error_set(e, _("%s:%d: unknown exercise '%s' (see src/exercise_table.c)"), path, line, value);
			free(ln);
			return -1;
		}
		x->id = xstrdup(value);
		free(ln);
	}
	if (x->id == NULL) {
		error_set(e, _("%s:%d: this exercise block names no exercise: add a line 'id: NAME'"),
		    path, cmark_node_get_start_line(block));
		return -1;
	}
	return 0;
}

/* Lines first..last (1-based) of text, without the last newline; "" when first is 0. */
static char *text_lines(const char *text, size_t len, int first, int last)
{
	const char *p = text, *end = text + len, *start = NULL;
	int line = 1;

	if (first < 1 || last < first)
		return xstrdup("");
	for (; p < end; p++) {
		if (line == first && start == NULL)
			start = p;
		if (*p == '\n' && line++ == last)
			break;
	}
	if (start == NULL)
		return xstrdup("");
	{
		size_t n = (size_t)(p - start);
		char *out = xmalloc(n + 1);

		memcpy(out, start, n);
		out[n] = '\0';
		while (n > 0 && isspace((unsigned char)out[n - 1]))
			out[--n] = '\0';
		return out;
	}
}

int lesson_is_hint_heading(cmark_node *n)
{
	char *text;
	int hint;

	if (cmark_node_get_type(n) != CMARK_NODE_HEADING || cmark_node_get_heading_level(n) != 3)
		return 0;
	text = heading_text(n);
	hint = strcmp(text, "Hint") == 0 || strcmp(text, "提示") == 0;
	free(text);
	return hint;
}

/* The part of exercise x read so far (the task, or its last hint) is lines first..last. */
static void end_part(struct lesson_exercise *x, const char *text, size_t len, int first, int last)
{
	char **slot = x->nhints > 0 ? &x->hints[x->nhints - 1] : &x->task;

	free(*slot);
	*slot = text_lines(text, len, first, last);
}

/*
 * Every {{count ...}} must be whole inside one run of plain text: on one
 * line, with no markup inside, or the views could not fill it in.
 */
static int check_placeholders(cmark_node *doc, const char *path, struct error *e)
{
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;
	int rc = 0;

	while (rc == 0 && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		const char *lit, *p;

		if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(n) != CMARK_NODE_TEXT)
			continue;
		lit = cmark_node_get_literal(n);
		for (p = lit ? strstr(lit, "{{") : NULL; p != NULL && rc == 0; p = strstr(p + 2, "{{")) {
			const char *close = strstr(p, "}}");
			char word[64];

			if (strncmp(p, "{{count ", 8) != 0 || close == NULL) {
				int line = cmark_node_get_start_line(n);
				cmark_node *parent = cmark_node_parent(n);
				while (line == 0 && parent != NULL) {
					line = cmark_node_get_start_line(parent);
					parent = cmark_node_parent(parent);
				}
				error_set(e, _("%s:%d: a {{...}} in the text must be {{count OPCODE}} or {{count KERNEL OPCODE}}, on one line"),
				    path, line);
				rc = -1;
			} else if (sscanf(p + 8, "%63[A-Za-z0-9_]", word) == 1 && strchr(word, '_') != NULL &&
			    registry_find(word) == NULL) {
				error_set(e, _("%s:%d: {{count %s ...}}: unknown kernel '%s'"), path,
				    cmark_node_get_start_line(cmark_node_parent(n)), word, word);
				rc = -1;
			}
		}
	}
	cmark_iter_free(it);
	return rc;
}

/* The first or last code point of an inline node's text, 0 if it has none. */
static unsigned int edge_code_point(cmark_node *n, int last)
{
	const char *lit, *p;
	size_t len, used;

	while (n != NULL && cmark_node_first_child(n) != NULL)
		n = last ? cmark_node_last_child(n) : cmark_node_first_child(n);
	lit = n != NULL ? cmark_node_get_literal(n) : NULL;
	if (lit == NULL || *lit == '\0')
		return 0;
	len = strlen(lit);
	p = lit;
	if (last)
		for (p = lit + len - 1; p > lit && (*p & 0xc0) == 0x80; p--)
			;
	return textwrap_decode(p, len - (size_t)(p - lit), &used);
}

/* Full-width punctuation (，。：（）): never a space on either side of it. */
static int is_cjk_punct(unsigned int c)
{
	return (c >= 0x3000 && c <= 0x303f) || (c >= 0xff01 && c <= 0xff0f) ||
	    (c >= 0xff1a && c <= 0xff20) || (c >= 0xff3b && c <= 0xff40) ||
	    (c >= 0xff5b && c <= 0xff65);
}

/* Punctuation English and Chinese share (— … “ ”): Chinese when it touches Chinese. */
static int is_shared_punct(unsigned int c)
{
	return c == 0x2014 || c == 0x2026 || (c >= 0x2018 && c <= 0x201d);
}

/* Does a line break between a and b join them without a space? */
static int joins(unsigned int a, unsigned int b)
{
	int wa = textwrap_is_wide(a), wb = textwrap_is_wide(b);

	if (is_cjk_punct(a) || is_cjk_punct(b))
		return 1;
	return (wa || wb) && (wa || is_shared_punct(a)) && (wb || is_shared_punct(b));
}

/*
 * A line break in the source between two Chinese characters, or next to
 * Chinese punctuation, joins the lines as print does; as a soft break every
 * view would show it as a space in the middle of a sentence.
 */
static void join_cjk_lines(cmark_node *doc)
{
	cmark_iter *it = cmark_iter_new(doc);
	cmark_node **drop = NULL;
	size_t ndrop = 0;
	cmark_event_type ev;

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		unsigned int a, b;

		if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(n) != CMARK_NODE_SOFTBREAK)
			continue;
		a = edge_code_point(cmark_node_previous(n), 1);
		b = edge_code_point(cmark_node_next(n), 0);
		if (joins(a, b)) {
			drop = xrealloc(drop, (ndrop + 1) * sizeof *drop);
			drop[ndrop++] = n;
		}
	}
	cmark_iter_free(it);
	for (size_t i = 0; i < ndrop; i++)
		cmark_node_free(drop[i]);	/* unlinks it too */
	free(drop);
}

/* Where the reading of a lesson's blocks stands, from one block to the next. */
struct reader {
	const char *text;
	size_t len;
	const char *path;
	struct lesson *l;
	int have_block;			/* the current step has its ```step block */
	int ex;				/* the exercise whose section is being read (-1 in a step) */
	int part_first, part_last;	/* and its current part's lines */
};

/* A '## ' heading ends the exercise's part or the step before it. */
static int end_section(struct reader *r, struct error *e)
{
	struct lesson *l = r->l;

	if (r->ex >= 0) {
		end_part(&l->exercises[r->ex], r->text, r->len, r->part_first, r->part_last);
	} else if (l->nsteps > 0 && !r->have_block) {
		struct lesson_step *prev = &l->steps[l->nsteps - 1];
		error_set(e, _("%s:%d: step '%s' has no ```step block naming its kernel"),
		    r->path, prev->line, prev->title);
		return -1;
	}
	r->ex = -1;
	return 0;
}

/* A '## ' heading with an ```exercise block right after it: an exercise's section. */
static int begin_exercise(struct reader *r, cmark_node *heading, struct error *e)
{
	struct lesson *l = r->l;
	struct lesson_exercise *x;
	int line = cmark_node_get_start_line(heading);

	l->exercises = xrealloc(l->exercises, (size_t)(l->nexercises + 1) * sizeof *l->exercises);
	x = &l->exercises[l->nexercises];
	memset(x, 0, sizeof *x);
	r->ex = l->nexercises++;
	x->title = heading_text(heading);
	x->line = line;
	x->heading = heading;
	x->before_step = l->nsteps;
	if (parse_exercise_block(cmark_node_next(heading), r->path, x, e) != 0)
		return -1;
	for (int k = 0; k < r->ex; k++)
		if (strcmp(l->exercises[k].id, x->id) == 0) {
			error_set(e, _("%s:%d: exercise '%s' a second time: each has one section"),
			    r->path, line, x->id);
			return -1;
		}
	r->part_first = r->part_last = 0;
	return 0;
}

/* Any other '## ' heading: a step. */
static void begin_step(struct reader *r, cmark_node *heading)
{
	struct lesson *l = r->l;

	l->steps = xrealloc(l->steps, (size_t)(l->nsteps + 1) * sizeof *l->steps);
	memset(&l->steps[l->nsteps], 0, sizeof *l->steps);
	l->steps[l->nsteps].title = heading_text(heading);
	l->steps[l->nsteps].line = cmark_node_get_start_line(heading);
	l->steps[l->nsteps].heading = heading;
	l->nsteps++;
	r->have_block = 0;
}

/* A block in an exercise's section: a hint's heading begins a part, the rest is the part's text. */
static int read_exercise_part(struct reader *r, cmark_node *n, struct error *e)
{
	struct lesson_exercise *x = &r->l->exercises[r->ex];
	int line = cmark_node_get_start_line(n);

	if (is_block(n, "step")) {
		error_set(e, _("%s:%d: a step block in exercise '%s': give the step its own '## ' heading"),
		    r->path, line, x->id);
		return -1;
	}
	if (lesson_is_hint_heading(n)) {
		end_part(x, r->text, r->len, r->part_first, r->part_last);
		x->hints = xrealloc(x->hints, (size_t)(x->nhints + 1) * sizeof *x->hints);
		x->hints[x->nhints++] = NULL;
		r->part_first = r->part_last = 0;
	} else if (line > 0) {
		if (r->part_first == 0)
			r->part_first = line;
		if (cmark_node_get_end_line(n) >= line)
			r->part_last = cmark_node_get_end_line(n);
	}
	return 0;
}

/* A ```step block: one per step, under its heading. */
static int read_step_block(struct reader *r, cmark_node *n, struct error *e)
{
	struct lesson *l = r->l;
	int line = cmark_node_get_start_line(n);

	if (l->nsteps == 0) {
		error_set(e, _("%s:%d: a step block before the first '## ' step heading"),
		    r->path, line);
		return -1;
	}
	if (r->have_block) {
		error_set(e, _("%s:%d: a second step block in step '%s': one kernel per step"),
		    r->path, line, l->steps[l->nsteps - 1].title);
		return -1;
	}
	if (parse_step_block(n, r->path, &l->steps[l->nsteps - 1], e) != 0)
		return -1;
	r->have_block = 1;
	return 0;
}

/* After the last block: a title, a step, the last step's block, the placeholders. */
static int end_lesson(struct reader *r, struct error *e)
{
	struct lesson *l = r->l;

	if (r->ex >= 0)
		end_part(&l->exercises[r->ex], r->text, r->len, r->part_first, r->part_last);
	if (l->title == NULL) {
		error_set(e, _("%s:1: the file is empty: a lesson starts with a line '# Title'"), r->path);
		return -1;
	}
	if (l->nsteps == 0) {
		error_set(e, _("%s: the lesson has no steps: each step is a '## ' heading and a step block"),
		    r->path);
		return -1;
	}
	if (r->ex < 0 && !r->have_block) {
		struct lesson_step *last = &l->steps[l->nsteps - 1];
		error_set(e, _("%s:%d: step '%s' has no ```step block naming its kernel"),
		    r->path, last->line, last->title);
		return -1;
	}
	return check_placeholders(l->doc, r->path, e);
}

int lesson_load_buffer(const char *text, size_t len, const char *path, const char *id,
    struct lesson *l, struct error *e)
{
	struct reader r = { .text = text, .len = len, .path = path, .l = l, .ex = -1 };
	cmark_parser *parser;
	cmark_node *n;
	int bad_line;

	memset(l, 0, sizeof *l);
	l->id = xstrdup(id);
	l->path = xstrdup(path);
	bad_line = invalid_utf8_line((const unsigned char *)text, len);
	if (bad_line) {
		error_set(e, _("%s:%d: not valid UTF-8 text: save the file as UTF-8"), path, bad_line);
		return -1;
	}
	parser = lesson_parser_new();
	cmark_parser_feed(parser, text, len);
	l->doc = cmark_parser_finish(parser);
	cmark_parser_free(parser);
	join_cjk_lines(l->doc);

	for (n = cmark_node_first_child(l->doc); n != NULL; n = cmark_node_next(n)) {
		int type = cmark_node_get_type(n);
		int line = cmark_node_get_start_line(n);
		int rc = 0;

		if (type == CMARK_NODE_HEADING && cmark_node_get_heading_level(n) == 1) {
			if (l->title != NULL) {
				error_set(e, _("%s:%d: a second '# ' title; a lesson has one, and steps start with '## '"),
				    path, line);
				return -1;
			}
			l->title = heading_text(n);
		} else if (l->title == NULL && type != CMARK_NODE_HTML_BLOCK) {
			error_set(e, _("%s:%d: a lesson starts with its title, a line '# Title'"), path, line);
			return -1;
		} else if (type == CMARK_NODE_HEADING && cmark_node_get_heading_level(n) == 2) {
			if (end_section(&r, e) != 0)
				return -1;
			if (is_block(cmark_node_next(n), "exercise")) {
				rc = begin_exercise(&r, n, e);
				n = cmark_node_next(n);		/* the block, read there */
			} else {
				begin_step(&r, n);
			}
		} else if (is_block(n, "exercise")) {
			error_set(e, _("%s:%d: an exercise block comes right after its '## ' heading"), path, line);
			return -1;
		} else if (r.ex >= 0) {
			rc = read_exercise_part(&r, n, e);
		} else if (is_block(n, "step")) {
			rc = read_step_block(&r, n, e);
		}
		if (rc != 0)
			return -1;
	}
	return end_lesson(&r, e);
}

int lesson_load_file(const char *path, const char *id, struct lesson *l, struct error *e)
{
	size_t len = 0;
	char *text = file_read(path, &len);
	int rc;

	if (text == NULL) {
		memset(l, 0, sizeof *l);
		l->id = xstrdup(id);
		l->path = xstrdup(path);
		error_set(e, _("%s: cannot read the lesson (%s)"), path, strerror(errno));
		return -1;
	}
	rc = lesson_load_buffer(text, len, path, id, l, e);
	free(text);
	return rc;
}

const struct lesson_exercise *lesson_find_exercise(const struct lesson *l, const char *id)
{
	for (int i = 0; i < l->nexercises; i++)
		if (strcmp(l->exercises[i].id, id) == 0)
			return &l->exercises[i];
	return NULL;
}

/* "02-unrolling.md" -> "unrolling"; NULL for names that are not lessons. */
static char *id_from_file(const char *name)
{
	size_t n = strlen(name);
	const char *start = name;

	if (n < 4 || strcmp(name + n - 3, ".md") != 0 || name[0] == '.')
		return NULL;
	while (isdigit((unsigned char)*start))
		start++;
	if (start != name && *start == '-')
		start++;
	else
		start = name;
	{
		size_t len = (size_t)(name + n - 3 - start);
		char *id = xmalloc(len + 1);
		memcpy(id, start, len);
		id[len] = '\0';
		return id;
	}
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *lesson_pick_language(const char *wanted)
{
	char lang[64];
	char *dir, *path;
	DIR *d;
	struct dirent *ent;
	char *found = NULL;

	if (wanted == NULL || *wanted == '\0' || strcmp(wanted, "C") == 0 ||
	    strcmp(wanted, "POSIX") == 0)
		return xstrdup("en");
	snprintf(lang, sizeof lang, "%s", wanted);
	lang[strcspn(lang, ".@:")] = '\0';	/* zh_CN.UTF-8, de_DE@euro, LANGUAGE lists */
	path = paths_source("lessons");
	dir = xasprintf("%s/%s", path, lang);
	if (lang[0] != '\0' && dir_exists(dir)) {
		free(dir);
		free(path);
		return xstrdup(lang);
	}
	free(dir);
	/* "zh" or "zh_TW": the first directory of the same language */
	lang[strcspn(lang, "_-")] = '\0';
	d = opendir(path);
	while (d != NULL && (ent = readdir(d)) != NULL && found == NULL) {
		size_t n = strlen(lang);
		if (n > 0 && strncmp(ent->d_name, lang, n) == 0 &&
		    (ent->d_name[n] == '\0' || ent->d_name[n] == '_'))
			found = xstrdup(ent->d_name);
	}
	if (d != NULL)
		closedir(d);
	free(path);
	return found ? found : xstrdup("en");
}

int lesson_load_all(const char *lang, struct lesson_set *set, struct error *e)
{
	char *en_dir = paths_source("lessons/en");
	DIR *d = opendir(en_dir);
	struct dirent *ent;
	char **names = NULL;
	size_t count = 0;

	memset(set, 0, sizeof *set);
	if (d == NULL) {
		error_set(e, _("no lessons: %s cannot be read (%s); set CUDATUTOR_SRCDIR or reinstall"),
		    en_dir, strerror(errno));
		free(en_dir);
		return -1;
	}
	while ((ent = readdir(d)) != NULL) {
		char *id = id_from_file(ent->d_name);
		if (id == NULL)
			continue;
		free(id);
		names = xrealloc(names, (count + 1) * sizeof *names);
		names[count++] = xstrdup(ent->d_name);
	}
	closedir(d);
	if (count > 1)
		qsort(names, count, sizeof *names, compare_names);

	set->lessons = xcalloc(count + 1, sizeof *set->lessons);
	for (size_t i = 0; i < count; i++) {
		struct lesson *l = &set->lessons[set->count++];
		char *id = id_from_file(names[i]);
		char *rel = xasprintf("lessons/%s/%s", lang ? lang : "en", names[i]);
		char *path = paths_source(rel);
		const char *used = lang ? lang : "en";
		struct error why;

		if (!file_exists(path)) {
			free(rel);
			free(path);
			rel = xasprintf("lessons/en/%s", names[i]);
			path = paths_source(rel);
			used = "en";
		}
		if (lesson_load_file(path, id, l, &why) != 0)
			l->error = xstrdup(why.msg);
		l->lang = xstrdup(used);
		free(id);
		free(rel);
		free(path);
		free(names[i]);
	}
	free(names);
	free(en_dir);
	if (set->count == 0) {
		error_set(e, _("no lessons found in %s"), paths_source_root());
		lesson_set_free(set);	/* callers free nothing after a failure */
		return -1;
	}
	return 0;
}

void lesson_set_free(struct lesson_set *set)
{
	for (int i = 0; i < set->count; i++)
		lesson_free(&set->lessons[i]);
	free(set->lessons);
	memset(set, 0, sizeof *set);
}

struct lesson *lesson_find(const struct lesson_set *set, const char *id)
{
	for (int i = 0; i < set->count; i++)
		if (strcmp(set->lessons[i].id, id) == 0)
			return &set->lessons[i];
	return NULL;
}

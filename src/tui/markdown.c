/* A lesson's Markdown as styled, wrapped lines, page by page (no curses). */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "counts.h"
#include "i18n.h"
#include "summary.h"
#include "tui/markdown.h"
#include "tui/style.h"
#include "util.h"

struct md {
	struct markdown_doc *d;
	const struct lesson *l;
	const struct markdown_counts *counts;
	int width, unicode;
	int step, block;
	int exercise, hint;		/* the exercise section being read (-1: none), and its part */
	int want_blank;
	int page_lines;			/* lines already on the current page */
	/* the inline runs of the block being built */
	struct layout_run *runs;
	int nruns;
	char **pool;			/* text made here, freed after each block */
	int npool;
	int sup;			/* inside <sup> */
};

static const char *bullet(const struct md *m)
{
	return m->unicode ? "\xe2\x80\xa2 " : "* ";
}

static char *pool_keep(struct md *m, char *s)
{
	m->pool = xrealloc(m->pool, (size_t)(m->npool + 1) * sizeof *m->pool);
	m->pool[m->npool++] = s;
	return s;
}

static void add_run(struct md *m, const char *text, int style)
{
	m->runs = xrealloc(m->runs, (size_t)(m->nruns + 1) * sizeof *m->runs);
	m->runs[m->nruns].text = text;
	m->runs[m->nruns].style = style;
	m->nruns++;
}

static void clear_runs(struct md *m)
{
	for (int i = 0; i < m->npool; i++)
		free(m->pool[i]);
	free(m->pool);
	m->pool = NULL;
	m->npool = 0;
	free(m->runs);
	m->runs = NULL;
	m->nruns = 0;
}

/* 2<sup>24</sup> as 2²⁴, or 2^24 without Unicode. */
static const char *superscript(struct md *m, const char *s)
{
	static const char *const digits[] = { "\xe2\x81\xb0", "\xc2\xb9", "\xc2\xb2", "\xc2\xb3",
	    "\xe2\x81\xb4", "\xe2\x81\xb5", "\xe2\x81\xb6", "\xe2\x81\xb7", "\xe2\x81\xb8",
	    "\xe2\x81\xb9" };
	struct strbuf b = { 0 };
	int all = 1;

	for (const char *p = s; *p; p++)
		if (!isdigit((unsigned char)*p) && *p != '-' && *p != '+')
			all = 0;
	if (!m->unicode || !all) {
		strbuf_addf(&b, "^%s", s);
		return pool_keep(m, b.s);
	}
	strbuf_add(&b, "", 0);
	for (const char *p = s; *p; p++) {
		const char *g = *p == '-' ? "\xe2\x81\xbb" : *p == '+' ? "\xe2\x81\xba" : digits[*p - '0'];
		strbuf_add(&b, g, strlen(g));
	}
	return pool_keep(m, b.s);
}

/* {{count LDG.E}} as the figure counted in the step kernel's SASS. */
static const char *count_text(struct md *m, const char *lit)
{
	const struct kernel_def *k;
	const char *arch;

	if (m->counts == NULL || m->counts->arch == NULL || m->l == NULL || m->l->nsteps == 0)
		return lit;
	/* The introduction counts in the first step's kernel, unless the text names one. */
	k = m->l->steps[m->step > 0 ? m->step - 1 : 0].kernel;
	arch = m->counts->arch(m->counts->ctx, k);
	if (arch == NULL)
		return lit;
	return pool_keep(m, counts_expand(lit, k, m->counts->block, arch));
}

static int is_type(cmark_node *n, const char *name)
{
	const char *t = cmark_node_get_type_string(n);
	return t != NULL && strcmp(t, name) == 0;
}

static void inlines(struct md *m, cmark_node *parent, int style)
{
	for (cmark_node *n = cmark_node_first_child(parent); n != NULL; n = cmark_node_next(n)) {
		const char *lit = cmark_node_get_literal(n);

		switch (cmark_node_get_type(n)) {
		case CMARK_NODE_TEXT:
			if (lit != NULL && strstr(lit, "{{count ") != NULL)
				lit = count_text(m, lit);
			add_run(m, m->sup ? superscript(m, lit ? lit : "") : lit ? lit : "", style);
			break;
		case CMARK_NODE_CODE:
			add_run(m, lit ? lit : "", STYLE_CODE);
			break;
		case CMARK_NODE_SOFTBREAK:
			add_run(m, " ", style);
			break;
		case CMARK_NODE_LINEBREAK:
			add_run(m, "\n", style);
			break;
		case CMARK_NODE_EMPH:
			inlines(m, n, style == STYLE_STRONG ? STYLE_STRONG : STYLE_EMPH);
			break;
		case CMARK_NODE_STRONG:
			inlines(m, n, STYLE_STRONG);
			break;
		case CMARK_NODE_LINK: {
			const char *url = cmark_node_get_url(n);
			int before = m->nruns;
			struct strbuf text = { 0 };

			inlines(m, n, STYLE_LINK);
			for (int i = before; i < m->nruns; i++)
				strbuf_add(&text, m->runs[i].text, strlen(m->runs[i].text));
			if (url != NULL && *url != '\0' && (text.s == NULL || strcmp(text.s, url) != 0))
				add_run(m, pool_keep(m, xasprintf(" <%s>", url)), STYLE_DIM);
			strbuf_free(&text);
			break;
		}
		case CMARK_NODE_IMAGE:
			add_run(m, "[", STYLE_DIM);
			inlines(m, n, STYLE_EMPH);
			add_run(m, "]", STYLE_DIM);
			break;
		case CMARK_NODE_HTML_INLINE:
			if (lit != NULL && strcasecmp(lit, "<sup>") == 0)
				m->sup = 1;
			else if (lit != NULL && strcasecmp(lit, "</sup>") == 0)
				m->sup = 0;
			else if (lit != NULL && strncasecmp(lit, "<br", 3) == 0)
				add_run(m, "\n", style);
			break;
		default:
			if (is_type(n, "strikethrough"))
				inlines(m, n, STYLE_DIM);
			else
				inlines(m, n, style);
			break;
		}
	}
}

static struct markdown_line *new_line(struct md *m, enum markdown_kind kind)
{
	struct markdown_doc *d = m->d;
	struct markdown_line *l;

	d->lines = xrealloc(d->lines, (size_t)(d->n + 1) * sizeof *d->lines);
	l = &d->lines[d->n++];
	memset(l, 0, sizeof *l);
	l->step = m->step;
	l->exercise = m->exercise;
	l->hint = m->hint;
	l->block = m->block;
	l->kind = kind;
	m->page_lines++;
	return l;
}

static void blank_if_wanted(struct md *m)
{
	if (m->want_blank && m->page_lines > 0)
		new_line(m, MARKDOWN_BLANK);
	m->want_blank = 0;
}

/* Prepend a prefix span to a wrapped line (moving the line's spans). */
static void add_line(struct md *m, enum markdown_kind kind, struct layout_line *src, const char *prefix,
    int prefix_style)
{
	struct markdown_line *l = new_line(m, kind);
	int np = prefix != NULL && *prefix != '\0';

	l->line.nspans = src->nspans + np;
	l->line.spans = xcalloc((size_t)l->line.nspans + 1, sizeof *l->line.spans);
	if (np) {
		l->line.spans[0].text = xstrdup(prefix);
		l->line.spans[0].style = prefix_style;
	}
	if (src->nspans > 0)	/* an empty line has no spans, and memcpy takes no NULL */
		memcpy(l->line.spans + np, src->spans, (size_t)src->nspans * sizeof *src->spans);
	l->line.width = src->width + (np ? layout_width(prefix) : 0);
	free(src->spans);
	src->spans = NULL;
	src->nspans = 0;
}

/* Wrap the collected runs and add them, first line after p1, the others after p2. */
static void flush_runs(struct md *m, enum markdown_kind kind, const char *p1, const char *p2, int pstyle)
{
	struct layout_line *lines;
	int w = m->width - layout_width(p1), n;

	n = layout_wrap(m->runs, m->nruns, w < 10 ? 10 : w, &lines);
	for (int i = 0; i < n; i++)
		add_line(m, kind, &lines[i], i == 0 ? p1 : p2, pstyle);
	layout_lines_free(lines, n);
	clear_runs(m);
}

static void rule(struct md *m, const char *prefix, int width, int style)
{
	struct layout_line l = { 0 };
	struct strbuf b = { 0 };

	strbuf_add(&b, "", 0);
	for (int i = 0; i < width; i++)
		strbuf_add(&b, m->unicode ? "\xe2\x94\x80" : "-", m->unicode ? 3 : 1);
	l.nspans = 1;
	l.spans = xmalloc(sizeof *l.spans);
	l.spans[0].text = b.s;
	l.spans[0].style = style;
	l.width = width;
	add_line(m, MARKDOWN_TEXT, &l, prefix, STYLE_DIM);
}

static void code_block(struct md *m, cmark_node *n, const char *p1, const char *p2)
{
	const char *lit = cmark_node_get_literal(n);
	const char *p = lit ? lit : "";
	int first = 1;

	while (*p != '\0') {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char *text = layout_expand_tabs(p, len, 4);
		struct layout_run run = { text, STYLE_CODE_BLOCK };
		struct layout_line *lines;
		char *prefix = xasprintf("%s  ", first ? p1 : p2);
		int k = layout_wrap(&run, 1, m->width - layout_width(prefix), &lines);

		for (int i = 0; i < k; i++)
			add_line(m, MARKDOWN_TEXT, &lines[i], prefix, STYLE_DIM);
		layout_lines_free(lines, k);
		free(prefix);
		free(text);
		first = 0;
		if (end == NULL)
			break;
		p = end + 1;
	}
}

static void block(struct md *m, cmark_node *n, const char *p1, const char *p2,
    const struct lesson *l);

static void children(struct md *m, cmark_node *n, const char *p1, const char *p2,
    const struct lesson *l)
{
	int first = 1;

	for (cmark_node *c = cmark_node_first_child(n); c != NULL; c = cmark_node_next(c)) {
		block(m, c, first ? p1 : p2, p2, l);
		first = 0;
	}
}

static void list(struct md *m, cmark_node *n, const char *p1, const char *p2,
    const struct lesson *l)
{
	int ordered = cmark_node_get_list_type(n) == CMARK_ORDERED_LIST;
	int tight = cmark_node_get_list_tight(n);
	int number = cmark_node_get_list_start(n), count = 0, digits;
	int first = 1;

	for (cmark_node *c = cmark_node_first_child(n); c != NULL; c = cmark_node_next(c))
		count++;
	digits = snprintf(NULL, 0, "%d", number + count - 1);
	for (cmark_node *item = cmark_node_first_child(n); item != NULL; item = cmark_node_next(item)) {
		char *mark, *q1, *q2;

		if (ordered)
			mark = xasprintf("%*d. ", digits, number++);
		else
			mark = xstrdup(bullet(m));
		q1 = xasprintf("%s%s", first ? p1 : p2, mark);
		q2 = xasprintf("%s%*s", p2, layout_width(mark), "");
		if (tight && !first)
			m->want_blank = 0;
		children(m, item, q1, q2, l);
		free(mark);
		free(q1);
		free(q2);
		first = 0;
	}
	m->want_blank = 1;
}

/* A table being laid out: its columns' widths, and each cell wrapped to its column. */
struct md_table {
	int ncols, nrows;
	int *w;
	struct layout_line ***cells;	/* [row][column]: the cell's lines */
	int **ncell;			/* [row][column]: how many */
	const char *sep;
};

/* A cell's text as styled runs, in m->runs: the header row (r 0) in bold. */
static void cell_runs(struct md *m, cmark_node *cell, int r)
{
	inlines(m, cell, r == 0 ? STYLE_STRONG : STYLE_NORMAL);
}

/* Natural widths: each cell on one line. */
static void natural_widths(struct md *m, cmark_node *n, int *w)
{
	int r = 0;

	for (cmark_node *row = cmark_node_first_child(n); row != NULL; row = cmark_node_next(row), r++) {
		int c = 0;
		for (cmark_node *cell = cmark_node_first_child(row); cell != NULL; cell = cmark_node_next(cell), c++) {
			struct layout_line *ln;
			int k;

			cell_runs(m, cell, r);
			k = layout_wrap(m->runs, m->nruns, 100000, &ln);
			for (int i = 0; i < k; i++)
				if (ln[i].width > w[c])
					w[c] = ln[i].width;
			layout_lines_free(ln, k);
			clear_runs(m);
		}
	}
}

/* Narrow the widest column until the table fits in avail columns (or every column is narrow). */
static void fit_widths(int *w, int ncols, int avail)
{
	for (;;) {
		int total = 0, widest = 0;
		for (int c = 0; c < ncols; c++) {
			total += w[c];
			if (w[c] > w[widest])
				widest = c;
		}
		if (total <= avail || w[widest] <= 6)
			break;
		w[widest]--;
	}
}

/* Every cell wrapped to its column's width. */
static void wrap_cells(struct md *m, cmark_node *n, struct md_table *t)
{
	int r = 0;

	for (cmark_node *row = cmark_node_first_child(n); row != NULL; row = cmark_node_next(row), r++) {
		int c = 0;
		t->cells[r] = xcalloc((size_t)t->ncols, sizeof **t->cells);
		t->ncell[r] = xcalloc((size_t)t->ncols, sizeof **t->ncell);
		for (cmark_node *cell = cmark_node_first_child(row); cell != NULL; cell = cmark_node_next(cell), c++) {
			cell_runs(m, cell, r);
			t->ncell[r][c] = layout_wrap(m->runs, m->nruns, t->w[c], &t->cells[r][c]);
			clear_runs(m);
		}
	}
}

/* Add a span to out: text (taken), in style. */
static void span_add(struct layout_line *out, char *text, int style)
{
	out->spans = xrealloc(out->spans, (size_t)(out->nspans + 1) * sizeof *out->spans);
	out->spans[out->nspans].text = text;
	out->spans[out->nspans++].style = style;
}

/* Line i of row r: each column's line i, padded to the column's width, between separators. */
static void table_line(struct md_table *t, int r, int i, struct layout_line *out)
{
	memset(out, 0, sizeof *out);
	for (int c = 0; c < t->ncols; c++) {
		struct layout_line *cl = i < t->ncell[r][c] ? &t->cells[r][c][i] : NULL;
		int used = cl ? cl->width : 0;

		if (c > 0) {
			span_add(out, xstrdup(t->sep), STYLE_DIM);
			out->width += layout_width(t->sep);
		}
		for (int s = 0; cl != NULL && s < cl->nspans; s++)
			span_add(out, xstrdup(cl->spans[s].text), cl->spans[s].style);
		if (c + 1 < t->ncols && used < t->w[c])
			span_add(out, xasprintf("%*s", t->w[c] - used, ""), STYLE_NORMAL);
		out->width += c + 1 < t->ncols ? t->w[c] : used;
	}
}

/* The rule under the header: ─────┼───── */
static void header_rule(struct md *m, const struct md_table *t, const char *prefix)
{
	struct layout_line out = { 0 };
	struct strbuf b = { 0 };
	const char *h = m->unicode ? "\xe2\x94\x80" : "-";
	const char *x = m->unicode ? "\xe2\x94\xbc" : "+";

	strbuf_add(&b, "", 0);
	for (int c = 0; c < t->ncols; c++) {
		if (c > 0) {
			strbuf_add(&b, h, strlen(h));
			strbuf_add(&b, x, strlen(x));
			strbuf_add(&b, h, strlen(h));
		}
		for (int k = 0; k < t->w[c]; k++)
			strbuf_add(&b, h, strlen(h));
	}
	span_add(&out, b.s, STYLE_DIM);
	out.width = layout_width(b.s);
	add_line(m, MARKDOWN_TEXT, &out, prefix, STYLE_DIM);
}

static void table_free(struct md_table *t)
{
	for (int r = 0; r < t->nrows; r++) {
		for (int c = 0; c < t->ncols; c++)
			if (t->cells[r] != NULL)
				layout_lines_free(t->cells[r][c], t->ncell[r][c]);
		free(t->cells[r]);
		free(t->ncell[r]);
	}
	free(t->cells);
	free(t->ncell);
	free(t->w);
}

/* A table: cells wrapped in their columns, the header row in bold. */
static void table(struct md *m, cmark_node *n, const char *p1, const char *p2)
{
	struct md_table t = { .sep = m->unicode ? " \xe2\x94\x82 " : " | " };
	const char *prefix = p1;

	for (cmark_node *row = cmark_node_first_child(n); row != NULL; row = cmark_node_next(row)) {
		int k = 0;
		for (cmark_node *c = cmark_node_first_child(row); c != NULL; c = cmark_node_next(c))
			k++;
		if (k > t.ncols)
			t.ncols = k;
		t.nrows++;
	}
	if (t.ncols == 0)
		return;
	t.w = xcalloc((size_t)t.ncols, sizeof *t.w);
	t.cells = xcalloc((size_t)t.nrows, sizeof *t.cells);
	t.ncell = xcalloc((size_t)t.nrows, sizeof *t.ncell);
	natural_widths(m, n, t.w);
	fit_widths(t.w, t.ncols, m->width - layout_width(p1) - (t.ncols - 1) * layout_width(t.sep));
	wrap_cells(m, n, &t);
	for (int r = 0; r < t.nrows; r++) {
		int h = 1;
		for (int c = 0; c < t.ncols; c++)
			if (t.ncell[r][c] > h)
				h = t.ncell[r][c];
		for (int i = 0; i < h; i++) {
			struct layout_line out;

			table_line(&t, r, i, &out);
			add_line(m, MARKDOWN_TEXT, &out, prefix, STYLE_DIM);
			prefix = p2;
		}
		if (r == 0)
			header_rule(m, &t, prefix);
	}
	table_free(&t);
	m->want_blank = 1;
}

static const struct kernel_def *step_kernel(const struct lesson *l, int step)
{
	if (l == NULL || step < 1 || step > l->nsteps)
		return NULL;
	return l->steps[step - 1].kernel;
}

/*
 * A heading: a step's numbered ("Step 2 of 5"), an exercise's hints
 * counted; under levels 1 and 2 a rule.
 */
static void heading(struct md *m, cmark_node *n, const char *p1, const char *p2, const struct lesson *l)
{
	int level = cmark_node_get_heading_level(n);
	int start = m->d->n;

	blank_if_wanted(m);
	if (level == 2 && m->step > 0 && m->exercise < 0 && l != NULL) {
		char *label = xasprintf(_("Step %d of %d  "), m->step, l->nsteps);
		add_run(m, pool_keep(m, label), STYLE_DIM);
	}
	if (m->exercise >= 0 && m->hint > 0 && lesson_is_hint_heading(n))
		/* "Hint" alone says nothing of how many there are */
		add_run(m, pool_keep(m, xasprintf(_("Hint %d of %d"), m->hint,
		    l->exercises[m->exercise].nhints)), STYLE_H3);
	else
		inlines(m, n, level == 1 ? STYLE_H1 : level == 2 ? STYLE_H2 : STYLE_H3);
	flush_runs(m, MARKDOWN_HEADING, p1, p2, STYLE_DIM);
	if (level <= 2) {
		int hw = 0;
		for (int i = start; i < m->d->n; i++)
			if (m->d->lines[i].line.width > hw)
				hw = m->d->lines[i].line.width;
		rule(m, p2, level == 1 ? m->width - layout_width(p2) : hw - layout_width(p2),
		    level == 1 ? STYLE_H1 : STYLE_BORDER);
		m->d->lines[m->d->n - 1].kind = MARKDOWN_HEADING;
	}
	m->want_blank = 1;
}

/* The table a ```summary block stands for, drawn from the recorded files (see summary.h). */
static void summary_block(struct md *m, const struct lesson *l, const char *p1)
{
	char **lines;
	int n = lesson_summary(l, m->width - layout_width(p1) - 2, m->unicode, &lines);

	for (int i = 0; i < n; i++) {
		struct layout_run run = { lines[i], i == 0 ? STYLE_STRONG : STYLE_CODE_BLOCK };
		struct layout_line *wrapped;
		char *prefix = xasprintf("%s  ", p1);
		int k = layout_wrap(&run, 1, m->width - layout_width(prefix), &wrapped);

		for (int j = 0; j < k; j++)
			add_line(m, MARKDOWN_TEXT, &wrapped[j], prefix, STYLE_DIM);
		layout_lines_free(wrapped, k);
		free(prefix);
	}
	lesson_summary_free(lines, n);
}

/* A fenced block: a step's (the kernel it runs), an exercise's (what the student writes), or code. */
static void fenced(struct md *m, cmark_node *n, const char *p1, const char *p2, const struct lesson *l)
{
	const char *info = cmark_node_get_fence_info(n);

	blank_if_wanted(m);
	if (info != NULL && strcmp(info, "step") == 0) {
		const struct kernel_def *k = step_kernel(l, m->step);
		add_run(m, m->unicode ? "\xe2\x96\xb6 " : "> ", STYLE_STEP_BLOCK);
		add_run(m, _("runs "), STYLE_STEP_BLOCK);
		add_run(m, k ? k->name : "?", STYLE_CODE);
		if (k != NULL && k->summary != NULL) {
			add_run(m, m->unicode ? " \xe2\x80\x94 " : " - ", STYLE_DIM);
			add_run(m, _(k->summary), STYLE_DIM);
		}
		flush_runs(m, MARKDOWN_STEP, p1, p2, STYLE_DIM);
	} else if (info != NULL && strcmp(info, "exercise") == 0 && m->exercise >= 0) {
		const struct exercise_def *x = l->exercises[m->exercise].def;
		add_run(m, m->unicode ? "\xe2\x96\xb6 " : "> ", STYLE_STEP_BLOCK);
		add_run(m, pool_keep(m, xasprintf(_("you write %s, starting from %s"), x->target,
		    x->start_from)), STYLE_STEP_BLOCK);
		flush_runs(m, MARKDOWN_STEP, p1, p2, STYLE_DIM);
	} else if (info != NULL && strcmp(info, "summary") == 0) {
		summary_block(m, l, p1);
	} else {
		/* code, and a ```picture block: drawn as is (without Unicode, crt maps its box characters) */
		code_block(m, n, p1, p2);
	}
	m->want_blank = 1;
}

static void block(struct md *m, cmark_node *n, const char *p1, const char *p2,
    const struct lesson *l)
{
	switch (cmark_node_get_type(n)) {
	case CMARK_NODE_PARAGRAPH:
		blank_if_wanted(m);
		inlines(m, n, STYLE_NORMAL);
		flush_runs(m, MARKDOWN_TEXT, p1, p2, STYLE_H2);
		m->want_blank = 1;
		break;
	case CMARK_NODE_HEADING:
		heading(m, n, p1, p2, l);
		break;
	case CMARK_NODE_CODE_BLOCK:
		fenced(m, n, p1, p2, l);
		break;
	case CMARK_NODE_LIST:
		blank_if_wanted(m);
		list(m, n, p1, p2, l);
		break;
	case CMARK_NODE_BLOCK_QUOTE: {
		const char *bar = m->unicode ? "\xe2\x94\x82 " : "| ";
		char *q1 = xasprintf("%s%s", p1, bar), *q2 = xasprintf("%s%s", p2, bar);

		blank_if_wanted(m);
		children(m, n, q1, q2, l);
		free(q1);
		free(q2);
		m->want_blank = 1;
		break;
	}
	case CMARK_NODE_THEMATIC_BREAK:
		blank_if_wanted(m);
		rule(m, p1, m->width - layout_width(p1), STYLE_BORDER);
		m->want_blank = 1;
		break;
	case CMARK_NODE_HTML_BLOCK:
		break;		/* comments for the authors, e.g. where numbers will go */
	case CMARK_NODE_ITEM:
		children(m, n, p1, p2, l);
		break;
	default:
		if (is_type(n, "table")) {
			blank_if_wanted(m);
			table(m, n, p1, p2);
		} else {
			children(m, n, p1, p2, l);
		}
		break;
	}
}

void markdown_render(const struct lesson *l, int width, int unicode, const struct markdown_counts *counts,
    struct markdown_doc *d)
{
	struct md m = { 0 };

	m.l = l;
	m.counts = counts;

	memset(d, 0, sizeof *d);
	d->width = width;
	m.d = d;
	m.exercise = -1;
	m.width = width < 20 ? 20 : width;
	m.unicode = unicode;
	if (l == NULL || l->doc == NULL)
		return;
	for (cmark_node *n = cmark_node_first_child(l->doc); n != NULL; n = cmark_node_next(n)) {
		for (int k = 0; k < l->nsteps; k++)
			if (l->steps[k].heading == n) {
				m.step = k + 1;
				m.exercise = -1;
				m.page_lines = 0;
				m.want_blank = 0;
			}
		for (int x = 0; x < l->nexercises; x++)
			if (l->exercises[x].heading == n) {
				m.exercise = x;
				m.hint = 0;
				m.page_lines = 0;
				m.want_blank = 0;
			}
		if (m.exercise >= 0 && lesson_is_hint_heading(n))
			m.hint++;
		block(&m, n, "", "", l);
		m.block++;
	}
	clear_runs(&m);
}

void markdown_free(struct markdown_doc *d)
{
	for (int i = 0; i < d->n; i++) {
		for (int k = 0; k < d->lines[i].line.nspans; k++)
			free(d->lines[i].line.spans[k].text);
		free(d->lines[i].line.spans);
	}
	free(d->lines);
	memset(d, 0, sizeof *d);
}

void markdown_page(const struct markdown_doc *d, int step, int *first, int *count)
{
	*first = 0;
	*count = 0;
	for (int i = 0; i < d->n; i++) {
		if (d->lines[i].step != step || d->lines[i].exercise >= 0)
			continue;
		if (*count == 0)
			*first = i;
		(*count)++;
	}
}

void markdown_exercise_page(const struct markdown_doc *d, int x, int *first, int *count)
{
	*first = 0;
	*count = 0;
	for (int i = 0; i < d->n; i++) {
		if (d->lines[i].exercise != x)
			continue;
		if (*count == 0)
			*first = i;
		(*count)++;
	}
}

/* LDG, LDG.E.128, BAR.SYNC, SHFL.DOWN, WARPSYNC; not a one-letter variable. */
static int looks_like_opcode(const char *s)
{
	return strlen(s) >= 3 && lesson_is_opcode(s);
}

static void mentions_in(cmark_node *n, char ***names, int *count)
{
	for (cmark_node *c = cmark_node_first_child(n); c != NULL; c = cmark_node_next(c)) {
		if (cmark_node_get_type(c) == CMARK_NODE_CODE) {
			const char *lit = cmark_node_get_literal(c);
			int dup = 0;

			if (lit == NULL || !looks_like_opcode(lit))
				continue;
			for (int i = 0; i < *count; i++)
				if (strcmp((*names)[i], lit) == 0)
					dup = 1;
			if (!dup) {
				*names = xrealloc(*names, (size_t)(*count + 1) * sizeof **names);
				(*names)[(*count)++] = xstrdup(lit);
			}
		} else {
			mentions_in(c, names, count);
		}
	}
}

int markdown_mentions(const struct lesson *l, int step, char ***names)
{
	int count = 0, in = 0;

	*names = NULL;
	if (l == NULL || l->doc == NULL || step < 1 || step > l->nsteps)
		return 0;
	for (char **p = l->steps[step - 1].look_for; p != NULL && *p != NULL; p++) {
		*names = xrealloc(*names, (size_t)(count + 1) * sizeof **names);
		(*names)[count++] = xstrdup(*p);
	}
	for (cmark_node *n = cmark_node_first_child(l->doc); n != NULL; n = cmark_node_next(n)) {
		for (int k = 0; k < l->nsteps; k++)
			if (l->steps[k].heading == n)
				in = k + 1 == step;
		/* an exercise's section is not its step's text */
		for (int x = 0; x < l->nexercises; x++)
			if (l->exercises[x].heading == n)
				in = 0;
		if (in)
			mentions_in(n, names, &count);
	}
	return count;
}

void markdown_mentions_free(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

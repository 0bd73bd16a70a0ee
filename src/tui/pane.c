/* The tutor's figures as styled lines, without curses: a diff, counters, the bank picture, two GPUs. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "tui/highlight.h"
#include "tui/pane.h"
#include "tui/style.h"
#include "util.h"

/* ---- building lines ---------------------------------------------------------- */

void pane_free(struct pane *p)
{
	layout_lines_free(p->lines, p->n);
	p->lines = NULL;
	p->n = 0;
}

char *pane_text(const struct pane *p, int i)
{
	return i >= 0 && i < p->n ? layout_line_text(&p->lines[i]) : xstrdup("");
}

static struct layout_line *new_line(struct pane *p)
{
	struct layout_line *l;

	p->lines = xrealloc(p->lines, (size_t)(p->n + 1) * sizeof *p->lines);
	l = &p->lines[p->n++];
	memset(l, 0, sizeof *l);
	return l;
}

static void add_n(struct layout_line *l, int style, const char *text, size_t n)
{
	struct layout_span *s;

	if (n == 0)
		return;
	l->spans = xrealloc(l->spans, (size_t)(l->nspans + 1) * sizeof *l->spans);
	s = &l->spans[l->nspans++];
	s->text = xmalloc(n + 1);
	memcpy(s->text, text, n);
	s->text[n] = '\0';
	s->style = style;
	l->width += layout_width(s->text);
}

static void add(struct layout_line *l, int style, const char *text)
{
	add_n(l, style, text, strlen(text));
}

static void addf(struct layout_line *l, int style, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void addf(struct layout_line *l, int style, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (s != NULL)
		add(l, style, s);
	free(s);
}

void pane_add_line(struct pane *p, const struct layout_line *line)
{
	struct layout_line *l = new_line(p);

	for (int i = 0; i < line->nspans; i++)
		add(l, line->spans[i].style, line->spans[i].text);
}

void pane_add_text(struct pane *p, const char *prefix, const char *text, int style, int width)
{
	struct layout_run run = { text, style };
	struct layout_line *lines;
	int pw = layout_width(prefix), n = layout_wrap(&run, 1, width - pw > 10 ? width - pw : 10, &lines);

	for (int i = 0; i < n; i++) {
		struct layout_line *l = new_line(p);

		if (pw > 0)
			addf(l, STYLE_NORMAL, "%*s", i == 0 ? 0 : pw, i == 0 ? prefix : "");
		for (int k = 0; k < lines[i].nspans; k++)
			add(l, lines[i].spans[k].style, lines[i].spans[k].text);
	}
	layout_lines_free(lines, n);
}

/* Spaces up to column col. */
static void pad_to(struct layout_line *l, int col)
{
	static const char spaces[] = "                                                                ";

	while (l->width < col) {
		int n = col - l->width;
		add_n(l, STYLE_NORMAL, spaces, n < (int)sizeof spaces - 1 ? (size_t)n : sizeof spaces - 1);
	}
}

/* text in w columns: cut with an ellipsis, or padded (pad), right-aligned (right). */
static void add_fit(struct layout_line *l, int style, const char *text, int w, int right, int pad,
    int unicode)
{
	char *fit;
	int tw, start = l->width;

	if (w <= 0)
		return;
	fit = layout_ellipsize(text, w, 0, unicode);
	tw = layout_width(fit);
	if (right && tw < w)
		pad_to(l, start + w - tw);
	add(l, style, fit);
	if (pad)
		pad_to(l, start + w);
	free(fit);
}

/* ---- the diff ---------------------------------------------------------------- */

static void mix_row(struct pane *p, const char *label, int a, int b, int lw, int aw, int bw)
{
	struct layout_line *l = new_line(p);
	char buf[32];

	add(l, STYLE_NORMAL, "  ");
	add_fit(l, a == b ? STYLE_DIM : STYLE_NORMAL, label, lw, 0, 1, 0);
	snprintf(buf, sizeof buf, "%d", a);
	add_fit(l, a == b ? STYLE_DIM : STYLE_NORMAL, buf, aw, 1, 1, 0);
	snprintf(buf, sizeof buf, "%d", b);
	add_fit(l, a == b ? STYLE_DIM : STYLE_STRONG, buf, bw, 1, 1, 0);
	if (a == b) {
		add_fit(l, STYLE_DIM, "=", 9, 1, 0, 0);
	} else {
		snprintf(buf, sizeof buf, "%+d", b - a);
		add_fit(l, b > a ? STYLE_DIFF_ADD : STYLE_DIFF_DEL, buf, 9, 1, 0, 0);
	}
}

void pane_mix(const struct compare *c, const char *ha, const char *hb, int width, struct pane *out)
{
	enum sass_kind kinds[SASS_KIND_COUNT];
	int nk = sass_mix_rows(&c->ma, &c->mb, kinds);
	int aw = layout_width(ha) + 2, bw = layout_width(hb) + 2, lw;
	struct layout_line *l;

	memset(out, 0, sizeof *out);
	if (aw < 8)
		aw = 8;
	if (bw < 8)
		bw = 8;
	lw = width - 2 - aw - bw - 9;
	if (lw > 38)
		lw = 38;
	l = new_line(out);
	pad_to(l, 2 + lw);
	add_fit(l, STYLE_H3, ha, aw, 1, 1, 0);
	add_fit(l, STYLE_H3, hb, bw, 1, 1, 0);
	add_fit(l, STYLE_H3, _("change"), 9, 1, 0, 0);
	for (int i = 0; i < nk; i++)
		mix_row(out, sass_kind_label(kinds[i]), c->ma.n[kinds[i]], c->mb.n[kinds[i]], lw, aw, bw);
	if (!c->have_res)
		return;
	mix_row(out, _("registers per thread"), c->ra.registers, c->rb.registers, lw, aw, bw);
	if (c->ra.shared_bytes || c->rb.shared_bytes)
		mix_row(out, _("shared memory, static (bytes)"), c->ra.shared_bytes, c->rb.shared_bytes, lw, aw, bw);
	if (c->ra.stack_bytes || c->rb.stack_bytes)
		mix_row(out, _("stack frame (bytes)"), c->ra.stack_bytes, c->rb.stack_bytes, lw, aw, bw);
	if (c->ra.spill_store_bytes || c->rb.spill_store_bytes)
		mix_row(out, _("spill stores (bytes)"), c->ra.spill_store_bytes, c->rb.spill_store_bytes, lw, aw, bw);
	if (c->ra.spill_load_bytes || c->rb.spill_load_bytes)
		mix_row(out, _("spill loads (bytes)"), c->ra.spill_load_bytes, c->rb.spill_load_bytes, lw, aw, bw);
}

/*
 * One instruction in w columns: coloured by its class (style < 0), or all
 * in one style; padded to w if pad.
 */
static void add_insn(struct layout_line *l, const struct sass_insn *i, int style, int w, int pad,
    int unicode)
{
	char text[256];
	char *fit;
	int start = l->width;

	sass_insn_text(i, text, sizeof text);
	fit = layout_ellipsize(text, w, 0, unicode);
	if (style >= 0) {
		add(l, style, fit);
	} else {
		struct highlight_span sp[16];
		int ic = 0, n = highlight_line(CODE_SASS, fit, (int)strlen(fit), &ic, NULL, 0, sp, 16);
		for (int k = 0; k < n; k++)
			add_n(l, sp[k].style, fit + sp[k].start, (size_t)sp[k].len);
	}
	free(fit);
	if (pad)
		pad_to(l, start + w);
}

void pane_diff(const struct compare *c, int width, int unicode, struct pane *out)
{
	const struct sass_diff *d = &c->diff;
	int col = (width - 5) / 2;

	memset(out, 0, sizeof *out);
	for (int r = 0; r < d->count; r++) {
		struct layout_line *l = new_line(out);
		int ia = d->rows[r].a, ib = d->rows[r].b;

		if (width < COMPARE_SIDE_BY_SIDE_COLS) {
			if (ib < 0) {
				add(l, STYLE_DIFF_DEL, "- ");
				add_insn(l, &c->la.insns[ia], STYLE_DIFF_DEL, width - 2, 0, unicode);
			} else if (ia < 0) {
				add(l, STYLE_DIFF_ADD, "+ ");
				add_insn(l, &c->lb.insns[ib], STYLE_DIFF_ADD, width - 2, 0, unicode);
			} else {
				add(l, STYLE_NORMAL, "  ");
				add_insn(l, &c->lb.insns[ib], -1, width - 2, 0, unicode);
			}
			continue;
		}
		add(l, ib < 0 ? STYLE_DIFF_DEL : ia < 0 ? STYLE_DIFF_ADD : STYLE_NORMAL,
		    ib < 0 ? "- " : ia < 0 ? "+ " : "  ");
		if (ia >= 0)
			add_insn(l, &c->la.insns[ia], ib < 0 ? STYLE_DIFF_DEL : -1, col, 1, unicode);
		else
			pad_to(l, 2 + col);
		add(l, STYLE_BORDER, unicode ? " \xe2\x94\x82 " : " | ");
		if (ib >= 0)
			add_insn(l, &c->lb.insns[ib], ia < 0 ? STYLE_DIFF_ADD : -1, col, 0, unicode);
	}
}

/* ---- two GPUs ---------------------------------------------------------------- */

enum { GPU_STEP, GPU_KERNEL, GPU_A, GPU_B, GPU_RATIO, GPU_FOLLOWS, GPU_COUNT };

/* Columns between two of the table's: two, so that times side by side read as two. */
#define GPU_GAP 2

/* The pair of kernel in c, or NULL when a has no such step (the recording predates it). */
static const struct results_pair *pair_of(const struct results_comparison *c, const char *kernel)
{
	for (int i = 0; i < c->count; i++)
		if (strcmp(c->pairs[i].a->kernel, kernel) == 0)
			return &c->pairs[i];
	return NULL;
}

/* A time with its unit, as the command line prints it: "0.06507 ms"; "-" when the step did not run. */
static const char *gpu_time(const struct step_result *s, char *buf, size_t len)
{
	char ms[32];

	if (s == NULL || !s->ran)
		return "-";
	snprintf(buf, len, "%s ms", layout_ms(s->median_ms, ms, sizeof ms));
	return buf;
}

/* The widest time of either run: the time columns' width. */
static int time_width(const struct run_report *a, const struct run_report *b)
{
	char buf[32];
	int w = 1;

	for (int i = 0; i < a->nsteps + b->nsteps; i++) {
		const struct step_result *s = i < a->nsteps ? &a->steps[i] : &b->steps[i - a->nsteps];
		int sw = layout_width(gpu_time(s, buf, sizeof buf));

		if (sw > w)
			w = sw;
	}
	return w;
}

/* One cell of a row at column i: the columns' widths in c, GPU_GAP between them. */
static void gpu_cell(struct layout_line *l, const struct layout_column *c, int i, int style,
    const char *text, int right, int unicode)
{
	int x = 0;

	for (int k = 0; k < i; k++)
		if (c[k].width > 0)
			x += c[k].width + GPU_GAP;
	if (c[i].width <= 0)
		return;
	pad_to(l, x);
	add_fit(l, style, text, c[i].width, right, 0, unicode);
}

static void gpu_row(struct pane *p, const struct results_comparison *cmp, const struct run_report *b,
    const char *kernel, int step, int current, const struct layout_column *c, int unicode)
{
	const struct results_pair *pr = pair_of(cmp, kernel);
	const struct step_result *sa = pr != NULL ? pr->a : NULL;
	const struct step_result *sb = pr != NULL ? pr->b : results_step_of(b, kernel);
	struct layout_line *l = new_line(p);
	char buf[64], ta[32], tb[32];
	const char *tag = _("(control)");
	int w = c[GPU_KERNEL].width, tw = layout_width(tag) + 1;
	char *name;

	snprintf(buf, sizeof buf, "%s%2d", step == current ? (unicode ? "\xe2\x96\xb8" : ">") : " ", step);
	gpu_cell(l, c, GPU_STEP, step == current ? STYLE_BAR_CURRENT : STYLE_DIM, buf, 0, unicode);
	/* a control step keeps its tag whole, as in the results table, the name cut short for it */
	if (((sa != NULL && sa->control) || (sb != NULL && sb->control)) && w > tw + 4) {
		char *cut = layout_ellipsize(kernel, w - tw, 1, unicode);

		name = xasprintf("%s %s", cut, tag);
		free(cut);
	} else {
		name = layout_ellipsize(kernel, w, 1, unicode);
	}
	gpu_cell(l, c, GPU_KERNEL, step == current ? STYLE_STRONG : STYLE_NORMAL, name, 0, unicode);
	free(name);
	gpu_cell(l, c, GPU_A, sa != NULL && sa->ran ? STYLE_NORMAL : STYLE_DIM, gpu_time(sa, ta, sizeof ta), 1,
	    unicode);
	gpu_cell(l, c, GPU_B, sb != NULL && sb->ran ? STYLE_NORMAL : STYLE_DIM, gpu_time(sb, tb, sizeof tb), 1,
	    unicode);
	if (pr != NULL && pr->speedup > 0)
		snprintf(buf, sizeof buf, "%.2f%s", pr->speedup, unicode ? "\xc3\x97" : "x");
	else
		snprintf(buf, sizeof buf, "-");
	gpu_cell(l, c, GPU_RATIO, pr != NULL && pr->follows_copy ? STYLE_STRONG : STYLE_NORMAL, buf, 1, unicode);
	if (pr != NULL && pr->follows_copy)
		gpu_cell(l, c, GPU_FOLLOWS, STYLE_BAR_MARK, _("bandwidth"), 0, unicode);
}

/* The table's columns in width: the times tw wide, or as wide as their headings when names. */
static void compare_columns(struct layout_column *c, const char *const *heads, int kw, int tw, int names,
    int width)
{
	int fw = layout_width(_("bandwidth")), rw = layout_width(heads[GPU_RATIO]);
	int aw = names && layout_width(heads[GPU_A]) > tw ? layout_width(heads[GPU_A]) : tw;
	int bw = names && layout_width(heads[GPU_B]) > tw ? layout_width(heads[GPU_B]) : tw;

	if (layout_width(heads[GPU_FOLLOWS]) > fw)
		fw = layout_width(heads[GPU_FOLLOWS]);
	memset(c, 0, GPU_COUNT * sizeof *c);
	c[GPU_STEP] = (struct layout_column){ 3, 3, 10, 0, 0 };
	c[GPU_KERNEL] = (struct layout_column){ 12, kw, 9, 0, 0 };
	c[GPU_A] = (struct layout_column){ tw, aw, 8, 0, 0 };
	c[GPU_B] = (struct layout_column){ tw, bw, 8, 0, 0 };
	c[GPU_RATIO] = (struct layout_column){ rw > 6 ? rw : 6, rw > 6 ? rw : 6, 9, 0, 0 };
	c[GPU_FOLLOWS] = (struct layout_column){ fw, fw, 7, 0, 0 };
	layout_columns(c, GPU_COUNT, width, GPU_GAP);
}

void pane_compare(const struct run_report *a, const struct run_report *b, const char *ha,
    const char *hb, const char *const *kernels, int n, int current, int width, int unicode,
    struct pane *out, int *head)
{
	struct results_comparison cmp;
	struct layout_column c[GPU_COUNT];
	const char *heads[GPU_COUNT] = { "#", _("kernel"), ha, hb, _("B vs A"), _("follows") };
	struct layout_line *l;
	int kw = 12, tw;

	memset(out, 0, sizeof *out);
	results_compare(a, b, &cmp);
	if (cmp.copy_ratio > 0) {
		char *text = xasprintf(results_copy_ratio_tells(cmp.copy_ratio) ?
		    _("B's copy bandwidth is %.2f%s A's: memory-bound steps should follow that ratio.") :
		    _("B's copy bandwidth is %.2f%s A's: too near to tell memory-bound steps from the others."),
		    cmp.copy_ratio, unicode ? "\xc3\x97" : "x");
		pane_add_text(out, "", text, STYLE_NORMAL, width);
		free(text);
	} else {
		pane_add_text(out, "", _("A's or B's copy bandwidth was not recorded: there is no ratio to "
		    "follow."), STYLE_DIM, width);
	}
	for (int k = 0; k < n; k++) {
		const struct step_result *s = results_step_of(a, kernels[k]);
		int w = layout_width(kernels[k]) + (s != NULL && s->control ? 1 + layout_width(_("(control)")) : 0);

		if (w > kw)
			kw = w;
	}
	if (kw > 34)
		kw = 34;
	tw = time_width(a, b);
	compare_columns(c, heads, kw, tw, 1, width);
	/*
	 * Neither a kernel's name nor a GPU's is cut, nor a column left out,
	 * for a heading: where all do not fit, the times are headed with the
	 * letters the title line explains.
	 */
	if (c[GPU_KERNEL].width < kw || c[GPU_FOLLOWS].width == 0 || layout_width(ha) > c[GPU_A].width ||
	    layout_width(hb) > c[GPU_B].width) {
		heads[GPU_A] = "A";
		heads[GPU_B] = "B";
		compare_columns(c, heads, kw, tw, 0, width);
	}
	l = new_line(out);
	for (int i = 0; i < GPU_COUNT; i++)
		gpu_cell(l, c, i, STYLE_H3, heads[i], i >= GPU_A && i <= GPU_RATIO, unicode);
	*head = out->n;
	for (int k = 0; k < n; k++)
		gpu_row(out, &cmp, b, kernels[k], k + 1, current, c, unicode);
	results_comparison_free(&cmp);
}

/* ---- counters ---------------------------------------------------------------- */

/* Columns of a counter row: label, value, (bar), Nsight Compute's name. */
#define COUNTER_INDENT 2
#define COUNTER_LABEL 40
#define COUNTER_VALUE 14
#define COUNTER_BAR 20

static void counter_row(struct pane *p, const struct step_metrics *m, int i, int bar, int width,
    int unicode)
{
	const struct metric_def *d = &metrics_table[i];
	struct layout_line *l = new_line(p);
	char buf[64], name[512];
	int names = width >= LAYOUT_METRICS_NAMES_W, x;
	double v;
	int have = metrics_value(m, i, &v) == 0;

	add(l, STYLE_NORMAL, "  ");
	add_fit(l, d->column != NULL ? STYLE_STRONG : STYLE_NORMAL, _(d->label), COUNTER_LABEL, 0, 1, unicode);
	add_fit(l, have ? STYLE_NORMAL : STYLE_DIM, have ? metrics_format(d, v, buf, sizeof buf) : "n/a",
	    COUNTER_VALUE, 1, 1, unicode);
	x = COUNTER_INDENT + COUNTER_LABEL + COUNTER_VALUE;
	if (bar) {
		char b[256];
		pad_to(l, x + 2);
		if (have && layout_bar(v, 100.0, COUNTER_BAR, unicode, b, sizeof b) > 0)
			add(l, STYLE_BAR, b);
		x += 2 + COUNTER_BAR;
	}
	if (names && width - x - 2 > 8) {
		pad_to(l, x + 2);
		add_fit(l, STYLE_DIM, metrics_source(d, name, sizeof name), width - x - 2, 0, 0, unicode);
	}
}

void pane_busy_units(const struct busy_unit *u, int n, int width, int unicode, struct pane *out)
{
	memset(out, 0, sizeof *out);
	if (n <= 0)
		return;
	add(new_line(out), STYLE_H3, _("Busiest units, as a share of their peak"));
	for (int i = 0; i < n; i++) {
		struct layout_line *l = new_line(out);
		char buf[32], b[256];

		snprintf(buf, sizeof buf, "%.1f %%", u[i].pct);
		add(l, STYLE_NORMAL, "  ");
		add_fit(l, i == 0 ? STYLE_STRONG : STYLE_NORMAL, _(u[i].name), COUNTER_LABEL, 0, 1, unicode);
		add_fit(l, STYLE_NORMAL, buf, COUNTER_VALUE, 1, 1, unicode);
		if (width >= COUNTER_INDENT + COUNTER_LABEL + COUNTER_VALUE + 2 + COUNTER_BAR) {
			pad_to(l, COUNTER_INDENT + COUNTER_LABEL + COUNTER_VALUE + 2);
			if (layout_bar(u[i].pct, 100.0, COUNTER_BAR, unicode, b, sizeof b) > 0)
				add(l, STYLE_BAR, b);
		}
	}
}

void pane_counters(const struct step_metrics *m, int width, int unicode, struct pane *out)
{
	int shown[METRICS_MAX], n;
	struct layout_line *l;

	memset(out, 0, sizeof *out);
	for (int g = MG_DRAM; g <= MG_INST; g++) {
		if (g != MG_DRAM)
			new_line(out);
		add(new_line(out), STYLE_H3, _(metrics_group_label((enum metric_group)g)));
		for (int i = 0; i < metrics_count; i++)
			if (metrics_table[i].group == (enum metric_group)g)
				counter_row(out, m, i, 0, width, unicode);
		if (g == MG_GLOBAL && metrics_no_global_loads(m)) {
			add(new_line(out), STYLE_DIM, "  ");
			add_fit(out->lines + out->n - 1, STYLE_DIM,
			    metrics_no_global_loads_note(), width - 2, 0, 0,
			    unicode);
		}
	}
	new_line(out);
	l = new_line(out);
	add(l, STYLE_H3, _(metrics_group_label(MG_STALL)));
	add(l, STYLE_H3, _(", largest first"));
	n = metrics_stalls_shown(m, 6, shown, METRICS_MAX);
	for (int j = 0; j < n; j++)
		counter_row(out, m, shown[j], 1, width, unicode);
}

/* ---- banks ------------------------------------------------------------------- */

/* The row of the table that is extra wavefronts per shared load: wavefronts / instructions - 1. */
static int extra_wavefronts_row(void)
{
	for (int i = 0; i < metrics_count; i++) {
		const struct metric_def *d = &metrics_table[i];
		if (d->ncu == NULL && d->num != NULL && d->den != NULL &&
		    strcmp(d->num, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 0 &&
		    strcmp(d->den, "smsp__sass_inst_executed_op_shared_ld.sum") == 0)
			return i;
	}
	return -1;
}

/* "32·l", "33·l", "2·l + 2·l/32": which word lane l reads. */
static void word_of_lane(const struct banks_access *a, int unicode, char *buf, size_t len)
{
	const char *dot = unicode ? "\xc2\xb7" : "*";

	if (a->stride == 0)
		snprintf(buf, len, "0");
	else if (a->stride == 1 && !a->padded)
		snprintf(buf, len, "l");
	else if (!a->padded)
		snprintf(buf, len, "%u%sl", a->stride, dot);
	else if (a->stride % 32 == 0)
		snprintf(buf, len, "%u%sl", a->stride + a->stride / 32, dot);
	else
		snprintf(buf, len, "%u%sl + %u%sl/32", a->stride, dot, a->stride, dot);
}

#define BANK_LABEL 8

/* What each lane reads, and where that puts the warp; a blank line after. */
static void banks_headline(const struct banks_access *a, int unicode, struct pane *out)
{
	struct layout_line *l = new_line(out);
	char word[64];

	word_of_lane(a, unicode, word, sizeof word);
	addf(l, STYLE_STRONG, _("Lane l reads word %s"), word);
	add(l, STYLE_NORMAL, a->padded ? _(" (rows padded to 33 words)") : "");
	add(l, STYLE_NORMAL, ": ");
	if (a->stride == 0)
		add(l, STYLE_GOOD, _("one word for all 32 lanes"));
	else if (a->banks_used == 1)
		addf(l, STYLE_BAD, _("all 32 lanes in bank %d"), a->bank[0]);
	else if (a->banks_used == BANKS)
		add(l, STYLE_GOOD, _("one bank per lane"));
	else
		addf(l, STYLE_BAD, _("%d banks, %d lanes in each"), a->banks_used, BANKS_WARP / a->banks_used);
	new_line(out);
}

/* The grid's header: the banks across, cw columns each (every fourth numbered when 2). */
static void banks_numbers(int cw, int unicode, struct pane *out)
{
	struct layout_line *l = new_line(out);

	add_fit(l, STYLE_H3, _("bank"), BANK_LABEL, 0, 1, unicode);
	for (int b = 0; b < BANKS; b++) {
		char num[16];
		if (cw == 3) {
			snprintf(num, sizeof num, "%2d ", b);
			add(l, STYLE_DIM, num);
		} else if (b % 4 == 0) {
			snprintf(num, sizeof num, "%-8d", b);
			add(l, STYLE_DIM, num);
		}
	}
}

/* Pass i of the grid: the lane each bank serves (a share of one word marked), then how many lanes. */
static void banks_pass(const struct banks_wave *w, int i, int cw, int width, int unicode, struct pane *out)
{
	struct layout_line *l = new_line(out);
	int lanes = 0;
	char label[32];

	snprintf(label, sizeof label, _("pass %d"), i + 1);
	add_fit(l, STYLE_H3, label, BANK_LABEL, 0, 1, unicode);
	for (int b = 0; b < BANKS; b++) {
		char cell[16];
		int lane = w->lane[b], share = w->lanes[b];
		int style = i == 0 ? STYLE_BAR : STYLE_BAR_BAD;

		lanes += share;
		if (lane < 0)
			add(l, STYLE_DIM, cw == 3 ? (unicode ? " \xc2\xb7 " : " . ") :
			    (unicode ? "\xc2\xb7 " : ". "));
		else if (cw == 3 && share > 1)
			addf(l, STYLE_GOOD, unicode ? "\xc3\x97%-2d" : "x%-2d", share);
		else if (cw == 3) {
			snprintf(cell, sizeof cell, "%2d ", lane);
			add(l, style, cell);
		} else
			add(l, share > 1 ? STYLE_GOOD : style, unicode ? (share > 1 ?
			    "\xe2\x96\x93 " : "\xe2\x96\x88 ") : (share > 1 ? "* " : "# "));
	}
	if (width - l->width >= 10) {
		char count[32];
		snprintf(count, sizeof count, lanes == 1 ? _(" %d lane") : _(" %d lanes"), lanes);
		add(l, STYLE_DIM, count);
	}
}

/* What the model says it costs. */
static void banks_model(const struct banks_access *a, int unicode, struct pane *out)
{
	struct layout_line *l = new_line(out);
	int extra = a->wavefronts - a->phases;

	add_fit(l, STYLE_DIM, _("the model:"), layout_width(_("measured:  ")), 0, 1, unicode);
	if (a->stride == 0)
		add(l, STYLE_GOOD, _("1 pass per warp-wide load: one word, broadcast, no conflict"));
	else if (extra == 0)
		addf(l, STYLE_GOOD, _("%d pass per warp-wide load, no bank conflict"), a->wavefronts);
	else
		addf(l, STYLE_BAD, _("%d passes per warp-wide load: %d extra, a %d-way bank conflict"),
		    a->wavefronts, extra, a->ways);
}

/* What the counters say, or none when they were not read. */
static void banks_measured(const struct step_metrics *m, const char *none, struct pane *out)
{
	struct layout_line *l = new_line(out);
	int xr, cr;
	char buf[64];
	double v;

	add(l, STYLE_DIM, _("measured:  "));
	if (m == NULL || !m->collected) {
		add(l, STYLE_DIM, none != NULL ? none : "");
		return;
	}
	xr = extra_wavefronts_row();
	cr = metrics_find("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
	if (xr >= 0 && metrics_value(m, xr, &v) == 0) {
		addf(l, STYLE_STRONG, "%.2f", v);
		add(l, STYLE_NORMAL, _(" extra wavefronts per shared load"));
	} else {
		add(l, STYLE_DIM, _("extra wavefronts per shared load n/a"));
	}
	if (cr >= 0 && metrics_value(m, cr, &v) == 0) {
		l = new_line(out);
		pad_to(l, layout_width(_("measured:  ")));
		add(l, STYLE_STRONG, metrics_format(&metrics_table[cr], v, buf, sizeof buf));
		add(l, STYLE_NORMAL, _(" bank conflicts in shared loads"));
	}
}

void pane_banks(const struct banks_access *a, const struct step_metrics *m, const char *none,
    int width, int max_waves, int unicode, struct pane *out)
{
	struct banks_wave waves[BANKS_WARP * 4];
	int n = banks_waves(a, waves, (int)ARRAY_LEN(waves));
	int cw = width >= BANK_LABEL + 3 * BANKS + 12 ? 3 : 2;
	int shown = n;

	memset(out, 0, sizeof *out);
	if (max_waves < 2)
		max_waves = 2;
	if (shown > max_waves)
		shown = max_waves - 1;
	banks_headline(a, unicode, out);
	/* The grid: banks across, passes down. */
	banks_numbers(cw, unicode, out);
	for (int i = 0; i < shown; i++)
		banks_pass(&waves[i], i, cw, width, unicode, out);
	if (shown < n) {
		struct layout_line *l = new_line(out);

		pad_to(l, BANK_LABEL);
		addf(l, STYLE_DIM, _("%s and %d more passes like these"), unicode ? "\xe2\x8b\xae" : ":",
		    n - shown);
	}
	new_line(out);
	banks_model(a, unicode, out);
	banks_measured(m, none, out);
}

/* ---- a check of the student's kernel ------------------------------------------------ */

/* The compiler's words, line by line: the errors in red, the source line and caret as code. */
static void diagnostics(struct pane *out, const char *text, int width)
{
	int shown = 0;

	for (const char *line = text; *line != '\0' && shown < 24; shown++) {
		size_t n = strcspn(line, "\n");
		char *one = xasprintf("%.*s", (int)n, line);
		char *flat = layout_expand_tabs(one, strlen(one), 4);
		int style = strstr(one, ": error") != NULL ? STYLE_BAD : strstr(one, ": warning") != NULL ?
		    STYLE_EXPECTED : STYLE_CODE_BLOCK;

		pane_add_text(out, "  ", flat, style, width);
		free(flat);
		free(one);
		line += n + (line[n] == '\n');
	}
}

/*
 * A verdict's checks, a line each; under a failed one, what is missing
 * (the check's message, or failed_note when given).
 */
static void add_checks(struct pane *out, const struct exercise_verdict *v, const char *ok, const char *no,
    const char *failed_note, int width)
{
	char what[256];

	for (int i = 0; i < v->count; i++) {
		const struct exercise_check_outcome *o = &v->checks[i];
		struct layout_line *l;

		exercise_check_describe(o, what, sizeof what);
		l = new_line(out);
		add(l, STYLE_NORMAL, "  ");
		/* a hint (a share in the compiled code) is shown, never judged: neither mark */
		if (o->hint)
			add(l, STYLE_DIM, "-  ");
		else
			add(l, o->passed ? STYLE_GOOD : STYLE_BAD, o->passed ? ok : no);
		add(l, STYLE_NORMAL, what);
		if (!o->passed)
			pane_add_text(out, "     ", failed_note ? failed_note : o->message, STYLE_EXPECTED, width);
	}
}

/* Each size's answer on the GPU, and the time against ours. */
static void exercise_gpu(const struct exercise_report *r, const char *ok, const char *no, int width,
    struct pane *out)
{
	add(new_line(out), STYLE_H3, _("On the GPU, against the CPU:"));
	for (int i = 0; i < r->run.nsizes; i++) {
		const struct exercise_size_check *z = &r->run.sizes[i];
		bool right = z->ran && z->correct;
		struct layout_line *l;
		char where[160];

		session_exercise_size_words(z, where, sizeof where);
		l = new_line(out);
		add(l, STYLE_NORMAL, "  ");
		add(l, right ? STYLE_GOOD : STYLE_BAD, right ? ok : no);
		if (z->ran)
			addf(l, STYLE_NORMAL, "%s: %s", where, z->detail);
		else
			addf(l, STYLE_BAD, _("%s: did not run: %s"), where, z->error);
	}
	if (r->run.timed) {
		const struct step_result *ours = &r->run.report.steps[1], *yours = &r->run.report.steps[2];
		char a[32], b[32], ratio[16], *line;

		line = xasprintf(_("Yours takes %s ms, ours %s ms: %sx our time (passing asks for at most %.2fx)."),
		    layout_ms(yours->median_ms, a, sizeof a), layout_ms(ours->median_ms, b, sizeof b),
		    session_exercise_ratio_text(r->run.ratio, ratio, sizeof ratio), SESSION_EXERCISE_SLACK);
		pane_add_text(out, "", line, STYLE_NORMAL, width);
		free(line);
	}
	if (r->ntools > 0) {
		new_line(out);
		add(new_line(out), STYLE_H3, _("compute-sanitizer, over the same sizes and inputs:"));
		for (int i = 0; i < r->ntools; i++) {
			const struct exercise_tool *t = &r->tools[i];
			char *line = xasprintf("%s%s%s", t->name, t->note[0] ? ": " : _(": nothing found"), t->note);

			pane_add_text(out, !t->ran ? "  -  " : t->clean ? ok : no, line,
			    !t->ran ? STYLE_DIM : t->clean ? STYLE_NORMAL : STYLE_BAD, width);
			free(line);
		}
	}
	if (r->executed_checked) {
		new_line(out);
		add(new_line(out), STYLE_H3, _("Where it ran (the instructions executed at least once, read by Nsight Compute):"));
		add_checks(out, &r->executed, ok, no, _("in the compiled code, but never executed: code that does "
		    "not run does not count"), width);
	} else if (r->executed_note[0] != '\0') {
		char *why = xasprintf(_("Not checked where it ran (%s): the SASS checks count the compiled code, "
		    "whether or not it runs."), r->executed_note);
		pane_add_text(out, "", why, STYLE_DIM, width);
		free(why);
	}
}

int pane_exercise_summary(const struct exercise_report *r, char *buf, size_t len)
{
	const struct exercise_result *c = &r->compiled;
	char what[512], ratio[16];

	if (!c->ok) {
		exercise_first_error(c->diagnostics, what, sizeof what);
		snprintf(buf, len, _("It does not compile: %s"), what);
		return STYLE_ERROR;
	}
	if (c->problem != NULL) {
		snprintf(buf, len, "%s", c->problem);
		return STYLE_ERROR;
	}
	if (!r->sass_checked) {
		snprintf(buf, len, _("It compiles, but its SASS could not be checked: %s"), r->sass_error);
		return STYLE_ERROR;
	}
	if (!r->verdict.passed) {
		int passed, judged;
		const char *message = "";

		exercise_verdict_tally(&r->verdict, &passed, &judged);
		for (int i = r->verdict.count - 1; i >= 0; i--)
			if (!r->verdict.checks[i].passed)
				message = r->verdict.checks[i].message;
		snprintf(buf, len, _("Not yet (%d of %d SASS checks pass): %s"), passed, judged, message);
		return STYLE_ERROR;
	}
	if (!r->gpu) {
		/* one line: the page says why there is no GPU */
		snprintf(buf, len, "%s", _("The SASS checks pass; no GPU here judged the answers and the time."));
		return STYLE_GOOD;
	}
	for (int i = 0; i < r->run.nsizes; i++) {
		const struct exercise_size_check *z = &r->run.sizes[i];

		if (!z->ran) {
			snprintf(buf, len, _("Your kernel did not run at size %llu (block %u): %s"), z->size, z->block,
			    z->error);
			return STYLE_ERROR;
		}
		if (!z->correct) {
			snprintf(buf, len, _("Your kernel gave a WRONG answer at size %llu (block %u): %s"), z->size,
			    z->block, z->detail);
			return STYLE_ERROR;
		}
	}
	if (!r->run.timed) {
		snprintf(buf, len, "%s", _("Right at every size, but it could not be timed."));
		return STYLE_ERROR;
	}
	if (!r->passed && !r->run.fast_enough) {
		snprintf(buf, len, _("Right, but it takes %sx our time: passing asks for at most %.2fx."),
		    session_exercise_ratio_text(r->run.ratio, ratio, sizeof ratio), SESSION_EXERCISE_SLACK);
		return STYLE_ERROR;
	}
	if (!r->passed) {
		/* a tool's finding, the technique where it ran, or no verdict: the report's first reason */
		session_exercise_reason(r, what, sizeof what);
		snprintf(buf, len, _("Right and fast enough, but %s"), what);
		return STYLE_ERROR;
	}
	snprintf(buf, len, r->new_best ? _("PASSED: right at every size, %sx our time; your best on this GPU.") :
	    _("PASSED: right at every size, %sx our time."), session_exercise_ratio_text(r->run.ratio, ratio, sizeof ratio));
	return STYLE_GOOD;
}

void pane_exercise(const struct exercise_report *r, int width, int unicode, const char *hint_key,
    struct pane *out)
{
	const struct exercise_result *c = &r->compiled;
	const char *ok = unicode ? "\xe2\x9c\x93 " : "ok ", *no = unicode ? "\xe2\x9c\x97 " : "X  ";
	struct layout_line *l;

	memset(out, 0, sizeof *out);
	l = new_line(out);
	if (c->ok)
		addf(l, STYLE_H3, _("Compiled by NVRTC for %s"), c->arch);
	else
		addf(l, STYLE_H3, _("NVRTC, compiling for %s, finds errors:"), c->arch);
	if (c->diagnostics != NULL && c->diagnostics[0] != '\0')
		diagnostics(out, c->diagnostics, width);
	if (!c->ok) {
		pane_add_text(out, "", _("It does not compile yet: fix the first error above, then check again."), STYLE_BAD, width);
		return;
	}
	if (c->problem != NULL) {
		pane_add_text(out, "", c->problem, STYLE_BAD, width);
		return;
	}
	new_line(out);
	if (!r->sass_checked) {
		char *why = xasprintf(_("The SASS checks could not run: %s"), r->sass_error);
		pane_add_text(out, "", why, STYLE_BAD, width);
		free(why);
	} else {
		add(new_line(out), STYLE_H3, _("In the SASS:"));
		add_checks(out, &r->verdict, ok, no, NULL, width);
	}
	new_line(out);
	if (!r->gpu) {
		char *why = xasprintf(_("On the GPU: not run (%s). The answers and the time are not judged: that "
		    "needs a GPU, and the time is what shows a flaw the SASS cannot, such as divergence. The SASS "
		    "checks above count instructions in the compiled code, whether or not they run."), r->no_gpu);
		pane_add_text(out, "", why, STYLE_DIM, width);
		free(why);
		return;
	}
	exercise_gpu(r, ok, no, width, out);
	new_line(out);
	if (r->passed) {
		add(new_line(out), STYLE_GOOD, r->new_best ? _("PASSED, and your best time on this GPU.") : _("PASSED."));
	} else if (r->unjudged[0] != '\0') {
		char *why = xasprintf(_("NOT GRADED: %s. The technique of this exercise shows only as the kernel runs."),
		    r->unjudged);
		pane_add_text(out, "", why, STYLE_DIM, width);
		free(why);
	} else
		/* TRANSLATORS: %s is a key, e.g. "H" */
		addf(new_line(out), STYLE_BAD, _("Not yet: see what failed above; %s shows a hint."), hint_key);
}

/* The code views of a step's kernel (or of a student's, for an exercise): CUDA source, PTX and SASS, with what the lesson points at. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exercise.h"
#include "i18n.h"
#include "inspect.h"
#include "metrics.h"
#include "sass.h"
#include "tui/tui_internal.h"

/* The code screen's own state: the code shown, and what is kept for coming back. */
static struct {
	enum code_kind kind;
	int step;			/* 1-based */
	const struct lesson_exercise *yours;	/* the student's kernel for it, as last checked; or NULL */
	char arch[16];
	bool arch_chosen;		/* by the user, with a */
	char *text;			/* tabs expanded */
	char **lines;
	int n, top, cursor;
	int *nums;			/* each line's line in kernels/<module>.cu, or NULL */
	int nnums;
	char *error;
	char **focus;			/* what the lesson points at */
	int nfocus;
	struct insn_mix mix;
	struct kernel_resources res;
	bool have_res;
	char symbol[128];
	/* the source view: its cursor, and the SASS each source line became */
	int src_cursor, src_top;
	char src_symbol[128];		/* the kernel they belong to */
	char *map_text;			/* the SASS, whose instructions map_listing points into */
	struct sass_listing map_listing;
	int *map_lines;			/* each instruction's line in kernels/<module>.cu */
	int nmap_lines;
	char *map_error;		/* why there is no mapping */
	int mark;			/* the SASS view marks what this .cu line became; 0 none */
	bool tensor;			/* the SASS holds tensor-core instructions: the colours name them */
	struct stall_profile stalls;	/* where the step's warps wait, as recorded; have false: none */
} code;

static const char *const view_names[] = { N_("Source"), "PTX", "SASS" };

static void code_free(void)
{
	free(code.text);
	free(code.lines);
	free(code.error);
	free(code.nums);
	code.nums = NULL;
	code.nnums = 0;
	markdown_mentions_free(code.focus, code.nfocus);
	code.text = NULL;
	code.lines = NULL;
	code.error = NULL;
	code.focus = NULL;
	code.nfocus = 0;
	code.n = 0;
	code.have_res = false;
	code.tensor = false;
	memset(&code.mix, 0, sizeof code.mix);
	free(code.map_text);
	sass_listing_free(&code.map_listing);
	free(code.map_lines);
	free(code.map_error);
	code.map_text = NULL;
	code.map_lines = NULL;
	code.nmap_lines = 0;
	code.map_error = NULL;
}

/*
 * For the source view: the SASS of the kernel and the source line each
 * instruction came from, or why that is not available.
 */
static void load_map(const struct inspect_target *target)
{
	struct error e;

	code.map_text = inspect_sass(target, code.arch, &e);
	if (code.map_text == NULL) {
		code.map_error = xstrdup(e.msg);
		return;
	}
	sass_parse(code.map_text, &code.map_listing);
	if (inspect_sass_lines(target, code.arch, &code.map_lines, &code.nmap_lines, &e) != 0) {
		code.map_lines = NULL;
		code.nmap_lines = 0;
		code.map_error = xstrdup(e.msg);
	}
}

/*
 * cuobjdump leaves a wide gap for the predicate: close it, so the opcodes
 * line up just after the addresses and long lines fit an 80-column screen.
 */
static char *tighten_sass(const char *text)
{
	struct strbuf b = { 0 };

	strbuf_add(&b, "", 0);
	for (const char *p = text; *p != '\0';) {
		const char *end = strchr(p, '\n'), *q, *close;
		size_t n = end ? (size_t)(end - p) : strlen(p);

		q = p;
		while (q < p + n && *q == ' ')
			q++;
		close = q + 1 < p + n && q[0] == '/' && q[1] == '*' ? strstr(q, "*/") : NULL;
		if (close != NULL && close < p + n) {
			const char *rest = close + 2, *pred = "", *pe;
			size_t pn = 0;

			while (rest < p + n && *rest == ' ')
				rest++;
			if (*rest == '@') {
				pred = rest;
				for (pe = rest; pe < p + n && *pe != ' '; pe++)
					;
				pn = (size_t)(pe - rest);
				rest = pe;
				while (rest < p + n && *rest == ' ')
					rest++;
			}
			strbuf_add(&b, q, (size_t)(close + 2 - q));
			strbuf_addf(&b, " %*s%.*s ", pn ? 0 : 5, "", (int)pn, pred);
			if (pn > 0 && pn < 5)
				strbuf_addf(&b, "%*s", (int)(5 - pn), "");
			strbuf_add(&b, rest, (size_t)(p + n - rest));
		} else {
			strbuf_add(&b, p, n);
		}
		strbuf_add(&b, "\n", 1);
		if (end == NULL)
			break;
		p = end + 1;
	}
	return b.s;
}

/* A copy of n ints. */
static int *copy_ints(const int *a, int n)
{
	int *b = xcalloc((size_t)n + 1, sizeof *b);

	if (n > 0)
		memcpy(b, a, (size_t)n * sizeof *b);
	return b;
}

/*
 * The student's kernel as its last check compiled it: the file, its PTX
 * and SASS with the source line of each instruction; what the exercise's
 * checks count is what the view points at.  Its text, or NULL and e.
 */
static char *load_yours(const struct exercise_result *c, struct error *e)
{
	const struct exercise_def *def = code.yours->def;
	char *text = NULL;

	for (int i = 0; i < EXERCISE_MAX_CHECKS && def->checks[i].kind != CHECK_END; i++) {
		const char *ops[2] = { def->checks[i].op, def->checks[i].other };
		for (int k = 0; k < 2; k++)
			if (ops[k] != NULL) {
				code.focus = xrealloc(code.focus, (size_t)(code.nfocus + 1) * sizeof *code.focus);
				code.focus[code.nfocus++] = xstrdup(ops[k]);
			}
	}
	snprintf(code.symbol, sizeof code.symbol, "%s", def->target);
	snprintf(code.arch, sizeof code.arch, "%s", c->arch);
	if (code.kind == CODE_SOURCE) {
		size_t len;

		/* read as a check reads it: a file, not too large */
		text = exercise_read_source(c->path, &len, e);
		if (text == NULL)
			return NULL;
		code.nnums = 0;
		for (const char *p = text; *p != '\0'; p++)
			code.nnums += *p == '\n';
		code.nums = xcalloc((size_t)code.nnums + 2, sizeof *code.nums);
		for (int i = 0; i <= code.nnums; i++)
			code.nums[i] = i + 1;
		code.nnums++;
		code.map_text = xstrdup(c->sass);
		sass_parse(code.map_text, &code.map_listing);
		if (c->lines != NULL) {
			code.map_lines = copy_ints(c->lines, c->nlines);
			code.nmap_lines = c->nlines;
		} else {
			code.map_error = xstrdup(c->lines_error != NULL ? c->lines_error :
			    _("which line made which instruction is not known"));
		}
	} else if (code.kind == CODE_PTX) {
		text = xstrdup(c->ptx != NULL ? c->ptx : "");
	} else {
		text = xstrdup(c->sass);
		if (c->lines != NULL) {
			code.nums = copy_ints(c->lines, c->nlines);
			code.nnums = c->nlines;
		}
	}
	code.have_res = c->have_resources;
	if (c->have_resources)
		code.res = c->resources;
	return text;
}

/* The step's kernel (what the lesson points at marked): its source, PTX or SASS; or NULL and e. */
static char *load_step(struct tui *t, struct inspect_target *target, struct error *e)
{
	const struct lesson *l = tui_lesson(t);
	const struct kernel_def *k = l->steps[code.step - 1].kernel;
	char *text;

	code.nfocus = markdown_mentions(l, code.step, &code.focus);
	if (inspect_resolve(k->name, study_block(t), target, e) != 0)
		return NULL;
	snprintf(code.symbol, sizeof code.symbol, "%s", target->symbol);
	if (!code.arch_chosen && tui_arch(t, k->module, code.arch, sizeof code.arch) == NULL)
		snprintf(code.arch, sizeof code.arch, "%s", "sm_90");
	if (code.kind == CODE_SOURCE) {
		text = inspect_source_numbered(target, &code.nums, &code.nnums, e);
		if (text != NULL)
			load_map(target);
	} else if (code.kind == CODE_PTX) {
		text = inspect_ptx(target, e);
	} else {
		struct error none;
		const struct run_report *rec = study_counters(t, &(const char *){ NULL });

		/* the recorded samples of where its warps wait, for the column beside each line */
		memset(&code.stalls, 0, sizeof code.stalls);
		for (int i = 0; rec != NULL && i < rec->nsteps; i++)
			if (strcmp(rec->steps[i].kernel, k->name) == 0 && rec->steps[i].metrics.stalls.have)
				code.stalls = rec->steps[i].metrics.stalls;
		text = inspect_sass(target, code.arch, e);
		/* Which line of the source each instruction came from, where the build knows. */
		if (text != NULL && inspect_sass_lines(target, code.arch, &code.nums,
		    &code.nnums, &none) != 0) {
			code.nums = NULL;
			code.nnums = 0;
		}
	}
	return text;
}

/* What the instructions of text are (row 3 counts them): SASS or PTX. */
static void count_mix(const char *text)
{
	if (code.kind == CODE_SASS) {
		struct sass_listing listing;
		struct sass_mix mix;

		sass_parse(text, &listing);
		sass_mix_of(&listing, &mix);
		code.mix.total = mix.n[SASS_TOTAL];
		code.mix.global_loads = mix.n[SASS_GLOBAL_LD8] + mix.n[SASS_GLOBAL_LD16] +
		    mix.n[SASS_GLOBAL_LD32] + mix.n[SASS_GLOBAL_LD64] + mix.n[SASS_GLOBAL_LD128] +
		    mix.n[SASS_GLOBAL_LD256];
		code.mix.global_stores = mix.n[SASS_GLOBAL_ST8] + mix.n[SASS_GLOBAL_ST16] +
		    mix.n[SASS_GLOBAL_ST32] + mix.n[SASS_GLOBAL_ST64] + mix.n[SASS_GLOBAL_ST128] +
		    mix.n[SASS_GLOBAL_ST256];
		code.mix.shared = mix.n[SASS_SHARED_LD] + mix.n[SASS_SHARED_ST];
		code.mix.barriers = mix.n[SASS_BARRIER];
		code.mix.shuffles = mix.n[SASS_SHUFFLE];
		code.mix.branches = mix.n[SASS_BRANCH];
		code.tensor = false;
		for (int i = 0; i < listing.count && !code.tensor; i++)
			code.tensor = highlight_class(listing.insns[i].opcode,
			    (int)strlen(listing.insns[i].opcode)) == INSN_TENSOR;
		sass_listing_free(&listing);
	} else if (code.kind == CODE_PTX) {
		highlight_ptx_mix(text, &code.mix);
	}
}

/* text (taken) as the view's lines: tabs expanded, split in place. */
static void keep_lines(char *text)
{
	code.text = layout_expand_tabs(text, strlen(text), 4);
	free(text);
	for (char *p = code.text; p != NULL && *p != '\0';) {
		char *end = strchr(p, '\n');
		code.lines = xrealloc(code.lines, (size_t)(code.n + 1) * sizeof *code.lines);
		code.lines[code.n++] = p;
		if (end == NULL)
			break;
		*end = '\0';
		p = end + 1;
	}
}

static void load(struct tui *t)
{
	const struct exercise_report *yours = code.yours != NULL ? practice_report(code.yours->def) : NULL;
	struct inspect_target target;
	struct error e;
	char *text = NULL;

	code_free();
	if (code.yours != NULL && (yours == NULL || yours->compiled.sass == NULL)) {
		/* TRANSLATORS: the %s are keys, e.g. "e" and "r" */
		code.error = xasprintf(_("Your kernel has not been compiled yet: %s writes it, %s checks it."),
		    tui_key(t, exercise_key_write, 0), tui_key(t, exercise_key_check, 0));
		return;
	}
	text = code.yours != NULL ? load_yours(&yours->compiled, &e) : load_step(t, &target, &e);
	if (text == NULL) {
		code.error = xstrdup(e.msg);
		return;
	}
	count_mix(text);
	if (code.kind == CODE_SASS) {
		char *tight = tighten_sass(text);
		free(text);
		text = tight;
	}
	if (code.yours == NULL)
		code.have_res = inspect_resources(&target, code.arch, &code.res, &e) == 0;
	keep_lines(text);
}

static int interesting(int i);
static int code_rows(void);

/* Leaving the source view: its cursor is kept for coming back to the same kernel. */
static void keep_cursor(void)
{
	if (code.lines != NULL && code.kind == CODE_SOURCE && code.error == NULL && code.yours == NULL) {
		code.src_cursor = code.cursor;
		code.src_top = code.top;
		snprintf(code.src_symbol, sizeof code.src_symbol, "%s", code.symbol);
	}
}

static int code_open(struct tui *t, const struct screen_arg *arg)
{
	const struct lesson *l = tui_lesson(t);
	enum code_kind kind = arg->kind;
	int rows, step = arg->step;

	const struct lesson_exercise *yours = l != NULL && arg->exercise > 0 && arg->exercise <= l->nexercises ?
	    &l->exercises[arg->exercise - 1] : NULL;

	if (l == NULL || step < 1 || step > l->nsteps)
		return -1;
	keep_cursor();
	if (kind == CODE_SOURCE || step != code.step || yours != code.yours)
		code.mark = 0;
	code.kind = kind;
	code.step = step;
	code.yours = yours;
	code.top = 0;
	code.cursor = -1;
	load(t);
	rows = code_rows();
	if (kind == CODE_SOURCE && code.error == NULL) {
		if (code.yours == NULL && strcmp(code.src_symbol, code.symbol) == 0 && code.src_cursor >= 0 &&
		    code.src_cursor < code.n) {
			code.cursor = code.src_cursor;
			code.top = layout_scroll_to(code.src_top, rows, code.n, code.cursor);
			return 0;
		}
		/* The kernel itself, below the helpers it calls. */
		for (int i = 0; i < code.n; i++) {
			const char *at = strstr(code.lines[i], code.symbol);
			if (at != NULL && strstr(code.lines[i], "__global__") != NULL) {
				code.cursor = i;
				if (i + rows > code.n)
					i = code.n - rows;
				code.top = i > 0 ? i : 0;
				break;
			}
		}
		if (code.cursor < 0)
			code.cursor = 0;
		return 0;
	}
	/* Straight to what the source line became, or to what the lesson talks about. */
	if (code.mark > 0 || code.nfocus > 0) {
		for (int i = 0; i < code.n; i++)
			if (interesting(i)) {
				code.cursor = i;
				if (i >= rows)
					code.top = i - rows / 3;
				break;
			}
	}
	return 0;
}

static void code_close(struct tui *t)
{
	(void)t;
	keep_cursor();
	code_free();
}

/* Another code of this screen's step, or another step's. */
static int show(struct tui *t, enum code_kind kind, int step)
{
	int x = code.yours != NULL ? (int)(code.yours - tui_lesson(t)->exercises) + 1 : 0;

	return tui_switch(t, SCREEN_CODE, &(struct screen_arg){ step, kind, x });
}

/* Whether line i holds an instruction worth stopping at with n. */
static int interesting(int i)
{
	const char *s = code.lines[i];
	int start, n;

	if (code.kind == CODE_SOURCE || !highlight_opcode(code.kind, s, (int)strlen(s), &start, &n))
		return 0;
	if (code.kind == CODE_SASS && code.mark > 0)
		return code.nums != NULL && i < code.nnums && code.nums[i] == code.mark;
	if (code.nfocus > 0) {
		for (int f = 0; f < code.nfocus; f++)
			if (highlight_matches(s + start, n, code.focus[f]))
				return 1;
		return 0;
	}
	return highlight_class(s + start, n) != INSN_OTHER;
}

/* Where the code goes: below the tabs and three lines about the kernel, the SASS panel with the source. */
static void code_layout(struct code_layout *lo)
{
	layout_code(crt_cols(), crt_rows(), code.kind == CODE_SOURCE && code.error == NULL, lo);
}

static int code_rows(void)
{
	struct code_layout lo;

	code_layout(&lo);
	return lo.code.h;
}

static void draw_tabs(void)
{
	int x = 1, cols = crt_cols();
	char buf[192];

	crt_hline(1, 0, cols, STYLE_BORDER);
	for (int i = 0; i < 3; i++) {
		if (i == CODE_SASS)
			snprintf(buf, sizeof buf, " %s %s ", _(view_names[i]), code.arch);
		else
			snprintf(buf, sizeof buf, " %s ", _(view_names[i]));
		x += crt_text(1, x, cols - x, (int)code.kind == i ? STYLE_SELECTED : STYLE_PANEL_TITLE, buf);
		x += 1;
	}
	snprintf(buf, sizeof buf, " %s ", code.symbol);
	if (x + layout_width(buf) + 2 < cols)
		crt_text(1, cols - layout_width(buf) - 1, layout_width(buf), STYLE_CODE, buf);
}

/* The keys the hints name: the table is at the end. */
static int key_line(struct tui *t, const struct crt_event *ev, int dir);
static int key_enter(struct tui *t, const struct crt_event *ev, int arg);
static int key_cycle(struct tui *t, const struct crt_event *ev, int dir);
static int key_kind(struct tui *t, const struct crt_event *ev, int kind);
static int key_jump(struct tui *t, const struct crt_event *ev, int dir);

static int item(int y, int x, int style, const char *fmt, int value)
{
	char buf[128];

	snprintf(buf, sizeof buf, fmt, value);
	return crt_text(y, x, crt_cols() - x - 1, style, buf);
}

/* Row 2: what the kernel is; for PTX and SASS, what ptxas gave it. */
static void draw_resources(struct tui *t, const char *dot)
{
	const struct kernel_def *k = tui_lesson(t)->steps[code.step - 1].kernel;
	int cols = crt_cols(), x = 1;

	if (code.yours != NULL && (code.kind == CODE_SOURCE || code.error != NULL || !code.have_res)) {
		char buf[256];
		snprintf(buf, sizeof buf, _("Your kernel for '%s', as your last check compiled it"), code.yours->id);
		crt_text(2, x, cols - 2, STYLE_STRONG, buf);
	} else if (code.kind == CODE_SOURCE || code.error != NULL || !code.have_res) {
		crt_text(2, x, cols - 2, STYLE_STRONG, _(k->summary));
	} else if (code.yours != NULL) {
		/* cuobjdump -res-usage of a lone cubin tells neither barriers nor spills */
		x += item(2, x, STYLE_NORMAL, _("registers %d"), code.res.registers);
		x += crt_text(2, x, cols - x, STYLE_DIM, dot);
		item(2, x, STYLE_NORMAL, _("shared %d B"), code.res.shared_bytes);
	} else {
		x += item(2, x, STYLE_NORMAL, _("registers %d"), code.res.registers);
		x += crt_text(2, x, cols - x, STYLE_DIM, dot);
		x += item(2, x, STYLE_NORMAL, _("barrier slots %d"), code.res.barriers);
		x += crt_text(2, x, cols - x, STYLE_DIM, dot);
		x += item(2, x, STYLE_NORMAL, _("shared %d B"), code.res.shared_bytes);
		x += crt_text(2, x, cols - x, STYLE_DIM, dot);
		if (code.res.spill_store_bytes || code.res.spill_load_bytes)
			x += item(2, x, STYLE_BAD, _("SPILLS %d B"), code.res.spill_store_bytes + code.res.spill_load_bytes);
		else
			x += crt_text(2, x, cols - x, STYLE_NORMAL, _("no spills"));
		crt_text(2, x, cols - x, STYLE_DIM, code.kind == CODE_SASS ? "" : _("  (for SASS of this arch)"));
	}
}

/* Row 3: what the instructions are, or what the source is. */
static void draw_mix(const char *dot)
{
	int cols = crt_cols(), x = 1;

	if (code.kind != CODE_SOURCE && code.error == NULL) {
		int sass = code.kind == CODE_SASS;

		x += item(3, x, STYLE_NORMAL, _("%d instructions: "), code.mix.total);
		x += item(3, x, STYLE_INSN_MEM, sass ? "LDG %d" : "ld.global %d", code.mix.global_loads);
		x += crt_text(3, x, cols - x, STYLE_DIM, dot);
		x += item(3, x, STYLE_INSN_MEM, sass ? "STG %d" : "st.global %d", code.mix.global_stores);
		x += crt_text(3, x, cols - x, STYLE_DIM, dot);
		x += item(3, x, STYLE_INSN_SYNC, sass ? "BAR %d" : "bar %d", code.mix.barriers);
		x += crt_text(3, x, cols - x, STYLE_DIM, dot);
		x += item(3, x, STYLE_INSN_SHFL, sass ? "SHFL %d" : "shfl %d", code.mix.shuffles);
		x += crt_text(3, x, cols - x, STYLE_DIM, dot);
		x += item(3, x, STYLE_INSN_BRANCH, sass ? "BRA %d" : "bra %d", code.mix.branches);
		crt_text(3, x, cols - x, STYLE_DIM, _("  (global loads, stores, barriers, shuffles, branches)"));
	} else if (code.error == NULL && code.yours != NULL) {
		crt_text(3, x, cols - x, STYLE_DIM, _("Your file as it was checked."));
	} else if (code.error == NULL) {
		crt_text(3, x, cols - x, STYLE_DIM, _("The kernel as written, with the device functions it calls."));
	}
}

/* Row 4 in the source: how to choose a line. */
static void draw_source_hint(struct tui *t)
{
	char hint[256];

	if (code.map_error == NULL)
		/* TRANSLATORS: the %s are keys, e.g. "j", "k" and "Enter" */
		snprintf(hint, sizeof hint, _("%s %s choose a line to see its SASS; %s marks it in the SASS view."),
		    tui_key(t, key_line, 1), tui_key(t, key_line, -1), tui_key(t, key_enter, 0));
	else
		/* TRANSLATORS: the %s are keys, e.g. "j" and "k" */
		snprintf(hint, sizeof hint, _("%s %s choose a line; the panel says why its SASS cannot be shown."),
		    tui_key(t, key_line, 1), tui_key(t, key_line, -1));
	crt_text(4, 1, crt_cols() - 2, STYLE_DIM, hint);
}

/* Row 4 in the SASS with a source line marked: what it became. */
static void draw_marked(struct tui *t)
{
	int count = 0, cols = crt_cols(), x = 1;
	char buf[256];

	for (int i = 0; i < code.n; i++)
		count += interesting(i);
	if (count == 1)
		snprintf(buf, sizeof buf, _("Source line %d became the instruction marked %s"),
		    code.mark, t->unicode ? "\xe2\x96\x8c" : "|");
	else
		snprintf(buf, sizeof buf, _("Source line %d became the %d instructions marked %s"),
		    code.mark, count, t->unicode ? "\xe2\x96\x8c" : "|");
	x += crt_text(4, x, cols - x, STYLE_STRONG, buf);
	/* TRANSLATORS: the %s are keys, e.g. "n" and "c" */
	snprintf(buf, sizeof buf, _("(%s: the next; %s: the source)"), tui_key(t, key_jump, 1),
	    tui_key(t, key_kind, CODE_SOURCE));
	crt_text(4, x + 1, cols - x - 2, STYLE_DIM, buf);
}

/* Row 4 in PTX or SASS: what the lesson (or the checks) point at, else what the colours mean. */
static void draw_focus(struct tui *t)
{
	int cols = crt_cols(), x = 1;
	char next[128];

	if (code.nfocus > 0) {
		x += crt_text(4, x, cols - x, STYLE_DIM, code.yours != NULL ? _("The checks count: ") :
		    _("The lesson points at: "));
		for (int f = 0; f < code.nfocus; f++) {
			x += crt_text(4, x, cols - x, STYLE_INSN_FOCUS, code.focus[f]);
			x += 1;
		}
	} else {
		x += crt_text(4, x, cols - x, STYLE_DIM, _("Colours: "));
		x += crt_text(4, x, cols - x, STYLE_INSN_MEM, _("memory")) + 1;
		x += crt_text(4, x, cols - x, STYLE_INSN_SYNC, _("barriers")) + 1;
		x += crt_text(4, x, cols - x, STYLE_INSN_SHFL, _("shuffles")) + 1;
		x += crt_text(4, x, cols - x, STYLE_INSN_BRANCH, _("branches")) + 1;
		if (code.tensor)
			x += crt_text(4, x, cols - x, STYLE_INSN_TENSOR, _("tensor cores")) + 1;
	}
	/* TRANSLATORS: %s is a key, e.g. "n" */
	snprintf(next, sizeof next, _("(%s: the next one)"), tui_key(t, key_jump, 1));
	crt_text(4, x + 1, cols - x - 2, STYLE_DIM, next);
}

/* Rows 2 to 4, over the code: what the kernel is, its instructions, and what to look at. */
static void draw_info(struct tui *t)
{
	const char *dot = t->unicode ? " \xc2\xb7 " : " - ";

	draw_resources(t, dot);
	draw_mix(dot);
	if (code.kind == CODE_SOURCE && code.error == NULL)
		draw_source_hint(t);
	else if (code.kind == CODE_SASS && code.error == NULL && code.mark > 0)
		draw_marked(t);
	else if (code.kind != CODE_SOURCE && code.error == NULL)
		draw_focus(t);
}

/* How many instructions of the kernel came from line line of the .cu file. */
static int mapped_count(int line)
{
	int n = 0;

	for (int i = 0; i < code.nmap_lines && i < code.map_listing.count; i++)
		n += code.map_lines[i] == line;
	return n;
}

/* The .cu line of the source line at the cursor; 0 for none. */
static int cursor_line(void)
{
	int c = code.cursor;

	return code.nums != NULL && c >= 0 && c < code.nnums ? code.nums[c] : 0;
}

/* text wrapped to w columns, from row y at column x, at most rows lines. */
static void draw_wrapped(const char *text, int style, int y, int x, int w, int rows)
{
	struct layout_run run = { text, style };
	struct layout_line *lines;
	int n = layout_wrap(&run, 1, w, &lines);

	for (int i = 0; i < n && i < rows; i++)
		crt_text(y + i, x, w, style, lines[i].nspans ? lines[i].spans[0].text : "");
	layout_lines_free(lines, n);
}

/* The map's title: which line, and how many instructions it became. */
static void map_title(struct layout_rect r, int line)
{
	char buf[256];
	int n = code.map_error == NULL ? mapped_count(line) : 0;
	int tx = r.x + 1;

	if (code.map_error != NULL)
		snprintf(buf, sizeof buf, _(" The SASS of line %d: not available "), line);
	else
		snprintf(buf, sizeof buf, _(" Line %d became "), line);
	tx += crt_text(r.y, tx, r.w - 2, STYLE_PANEL_TITLE, buf);
	if (code.map_error != NULL)
		return;
	if (n == 0)
		snprintf(buf, sizeof buf, "%s", _("no instruction of its own "));
	else
		snprintf(buf, sizeof buf, n == 1 ? _("%d instruction ") : _("%d instructions "), n);
	tx += crt_text(r.y, tx, r.x + r.w - tx - 1, n > 0 ? STYLE_STRONG : STYLE_DIM, buf);
	snprintf(buf, sizeof buf, " SASS %s ", code.arch);
	if (tx + layout_width(buf) + 2 < r.x + r.w)
		crt_text(r.y, r.x + r.w - layout_width(buf) - 1, layout_width(buf), STYLE_DIM, buf);
}

/* The instructions line became, from row y, at most rows of them: the last says how many more. */
static void map_instructions(struct tui *t, int line, int y, int x, int w, int rows)
{
	int total = mapped_count(line), shown = 0;
	char buf[256];

	if (total == 0) {
		draw_wrapped(_("A comment, a declaration, a brace, or code the compiler merged into the instructions "
		    "of other lines."), STYLE_DIM, y, x, w, rows);
		return;
	}
	for (int i = 0; i < code.nmap_lines && i < code.map_listing.count && shown < rows; i++) {
		const struct sass_insn *in = &code.map_listing.insns[i];
		struct highlight_span sp[16];
		char text[256], line_text[300];
		int ic = 0, n, used = 0;

		if (code.map_lines[i] != line)
			continue;
		if (shown == rows - 1 && total > rows) {
			/* TRANSLATORS: the second %s is a key, e.g. "Enter" */
			snprintf(buf, sizeof buf, _("%s and %d more: %s marks them all in the SASS view"),
			    t->unicode ? "\xe2\x80\xa6" : "...", total - shown, tui_key(t, key_enter, 0));
			crt_text(y + shown, x, w, STYLE_DIM, buf);
			break;
		}
		sass_insn_text(in, text, sizeof text);
		snprintf(line_text, sizeof line_text, "/*%04x*/ %s", in->addr, text);
		n = highlight_line(CODE_SASS, line_text, (int)strlen(line_text), &ic, code.focus, code.nfocus, sp, 16);
		for (int k = 0; k < n && used < w; k++)
			used += crt_textn(y + shown, x + used, w - used, sp[k].style, line_text + sp[k].start,
			    (size_t)sp[k].len);
		shown++;
	}
}

/* The panel under (or beside) the source: the SASS the line at the cursor became. */
static void draw_map(struct tui *t, const struct code_layout *lo)
{
	struct layout_rect r = lo->map;
	int line = cursor_line(), y = r.y + 1, x = r.x + 1, w = r.w - 2;
	char buf[256];

	if (lo->map_beside)
		crt_vline(r.y, r.x - 1, r.h, STYLE_BORDER);
	crt_hline(r.y, r.x, r.w, STYLE_BORDER);
	if (line > 0)
		map_title(r, line);
	else
		crt_text(r.y, r.x + 1, r.w - 2, STYLE_PANEL_TITLE, _(" The SASS of the line at the cursor "));
	if (code.map_error != NULL) {
		draw_wrapped(code.map_error, STYLE_DIM, y, x, w, r.h - 1);
	} else if (line <= 0) {
		/* TRANSLATORS: the %s are keys, e.g. "j" and "k" */
		snprintf(buf, sizeof buf, _("This line is not in the kernel's file: choose another with %s and %s."),
		    tui_key(t, key_line, 1), tui_key(t, key_line, -1));
		crt_text(y, x, w, STYLE_DIM, buf);
	} else {
		map_instructions(t, line, y, x, w, r.h - 1);
	}
}

/* "48.7% ▌   barrier  ": a line's share of the step's samples, a bar, its largest reason. */
#define STALL_COLUMN 22

static int stall_column_width(void)
{
	return code.kind == CODE_SASS && code.stalls.have ? STALL_COLUMN : 0;
}

/* The recorded samples of the SASS line s (its address in a comment), or NULL. */
static const struct stall_line *stall_of_line(const char *s)
{
	unsigned int addr;

	while (*s == ' ' || *s == '\t')
		s++;
	if (sscanf(s, "/*%x*/", &addr) != 1)
		return NULL;
	for (int k = 0; k < code.stalls.nlines; k++)
		if (code.stalls.lines[k].offset == addr)
			return &code.stalls.lines[k];
	return NULL;
}

/* The stall column of line s at x: nothing where no sample fell. */
static void draw_stall_cell(struct tui *t, const char *s, int y, int x)
{
	const struct stall_line *l = stall_of_line(s);
	char cell[96], bar[64];
	double pct;

	if (l == NULL)
		return;
	pct = metrics_stall_pct(&code.stalls, l);
	/* four cells for the whole kernel */
	layout_bar(pct, 100.0, 4, t->unicode, bar, sizeof bar);
	snprintf(cell, sizeof cell, "%5.1f%% %s", pct, bar);
	crt_text(y, x, 12, pct >= 10 ? STYLE_BAD : STYLE_DIM, cell);
	if (l->nreasons > 0)
		crt_text(y, x + 12, STALL_COLUMN - 13, STYLE_DIM, l->reasons[0].name);
}

/* The gutter: wide enough for the largest line number, and the cursor's mark. */
static int gutter_width(void)
{
	char num[16];
	int top = 0;

	if (code.nums == NULL)
		return code.kind == CODE_SASS ? 2 : snprintf(num, sizeof num, "%d", code.n) + 3;
	for (int i = 0; i < code.nnums; i++)
		if (code.nums[i] > top)
			top = code.nums[i];
	return snprintf(num, sizeof num, "%d", top) + 3;
}

/* Line i of the code on row y: its mark, its number in the gutter, its text highlighted up to right. */
static void draw_code_line(struct tui *t, int i, int y, int gutter, int right, int *in_comment)
{
	const char *s = code.lines[i];
	struct highlight_span sp[64];
	int n = highlight_line(code.kind, s, (int)strlen(s), in_comment, code.focus, code.nfocus, sp, 64);
	int num_i = code.nums != NULL && i < code.nnums ? code.nums[i] : 0;
	int marked = code.kind == CODE_SASS && code.mark > 0 && num_i == code.mark;
	int source = code.kind == CODE_SOURCE, x;
	char num[16];

	if (i == code.cursor)
		crt_text(y, 0, 1, STYLE_BAR_CURRENT, t->unicode ? "\xe2\x96\xb8" : ">");
	else if (marked)
		crt_text(y, 0, 1, STYLE_BAR_CURRENT, t->unicode ? "\xe2\x96\x8c" : "|");
	if (code.nums != NULL) {
		/* The line of the .cu file: the same in the source and the SASS views. */
		if (num_i > 0) {
			int style = STYLE_LINENO;
			/* In the source: the chosen line, and lines that made no SASS dimmed. */
			if (source && i == code.cursor)
				style = STYLE_CURSOR;
			else if (source && code.map_error == NULL && mapped_count(num_i) == 0)
				style = STYLE_DIM;
			else if (marked)
				style = STYLE_BAR_CURRENT;
			snprintf(num, sizeof num, "%*d ", gutter - 2, num_i);
			crt_text(y, 1, gutter - 1, style, num);
		}
	} else if (code.kind != CODE_SASS) {
		snprintf(num, sizeof num, "%*d ", gutter - 2, i + 1);
		crt_text(y, 1, gutter, STYLE_LINENO, num);
	}
	/* the samples between the line numbers and the code */
	if (stall_column_width() > 0)
		draw_stall_cell(t, s, y, gutter);
	x = gutter + stall_column_width();
	for (int k = 0; k < n; k++) {
		x += crt_textn(y, x, right - x - 1, sp[k].style, s + sp[k].start, (size_t)sp[k].len);
		if (x >= right - 1)
			break;
	}
	if (layout_width(s) > right - 1 - gutter - stall_column_width())
		crt_text(y, right - 1, 1, STYLE_DIM, t->unicode ? "\xe2\x80\xa6" : ">");
}

/* The code in its rectangle, from code.top; where that is, on the tabs' row; the map under the source. */
static void draw_lines(struct tui *t, const struct code_layout *lo)
{
	int rows = lo->code.h, right = lo->code.x + lo->code.w, gutter = gutter_width(), in_comment = 0;

	code.top = layout_scroll_clamp(code.top, rows, code.n);
	/* A comment that began above the window. */
	for (int i = 0; code.kind == CODE_SOURCE && i < code.top; i++) {
		struct highlight_span sp[64];
		highlight_line(CODE_SOURCE, code.lines[i], (int)strlen(code.lines[i]), &in_comment, NULL, 0, sp, 64);
	}
	for (int row = 0; row < rows && code.top + row < code.n; row++)
		draw_code_line(t, code.top + row, lo->code.y + row, gutter, right, &in_comment);
	if (code.n > rows) {
		char pos[64];
		int cols = crt_cols();
		snprintf(pos, sizeof pos, " %d-%d/%d ", code.top + 1,
		    code.top + rows < code.n ? code.top + rows : code.n, code.n);
		crt_text(1, cols - layout_width(pos) - layout_width(code.symbol) - 4, 20, STYLE_DIM, pos);
	}
	if (code.kind == CODE_SOURCE)
		draw_map(t, lo);
}

static void draw_code(struct tui *t)
{
	const struct lesson *l = tui_lesson(t);
	struct code_layout lo;
	char where[512], hint[256];

	code_layout(&lo);
	if (code.yours != NULL)
		snprintf(where, sizeof where, _("%s %s yours: %s"), l->id, t->unicode ? "\xc2\xb7" : "-",
		    code.yours->title);
	else
		snprintf(where, sizeof where, _("%s %s step %d/%d: %s"), l->id, t->unicode ? "\xc2\xb7" : "-",
		    code.step, l->nsteps, l->steps[code.step - 1].title);
	tui_draw_header(t, where);
	draw_tabs();
	draw_info(t);
	if (code.error != NULL)
		draw_wrapped(code.error, STYLE_BAD, lo.code.y + 2, 4, lo.code.w - 8, lo.code.h - 2);
	else
		draw_lines(t, &lo);
	/* TRANSLATORS: %s is a key, e.g. "Tab" */
	snprintf(hint, sizeof hint, _("%s shows the PTX and the SASS the compiler made of this code."),
	    tui_key(t, key_cycle, 1));
	tui_draw_status(t, lo.status.y, code.kind == CODE_SASS ?
	    _("SASS is what the GPU runs: compare the highlighted instructions from step to step.") :
	    code.kind == CODE_PTX ? _("PTX is the compiler's portable assembly; ptxas turns it into SASS.") :
	    hint);
	tui_draw_footer(t, lo.footer.y);
}

static void next_arch(struct tui *t)
{
	const struct lesson *l = tui_lesson(t);
	struct error e;
	char *archs, *first = NULL, *pick = NULL;
	int after = 0;

	if (code.yours != NULL) {
		tui_message(t, STYLE_MESSAGE, _("Your kernel was compiled for %s alone: the architecture the SASS views show."),
		    code.arch);
		return;
	}
	archs = inspect_sass_archs(l->steps[code.step - 1].kernel->module, &e);
	if (archs == NULL) {
		tui_message(t, STYLE_ERROR, "%s", e.msg);
		return;
	}
	for (char *a = strtok(archs, " "); a != NULL; a = strtok(NULL, " ")) {
		if (first == NULL)
			first = a;
		if (after && pick == NULL)
			pick = a;
		if (strcmp(a, code.arch) == 0)
			after = 1;
	}
	if (pick == NULL)
		pick = first;
	if (pick != NULL) {
		snprintf(code.arch, sizeof code.arch, "%s", pick);
		code.arch_chosen = true;
	}
	free(archs);
	tui_message(t, STYLE_MESSAGE, _("SASS for %s (built for: %s)"), code.arch, CUDATUTOR_CUDA_ARCHS);
	if (code.kind != CODE_SASS)
		show(t, CODE_SASS, code.step);
	else
		load(t);
}

static int jump(struct tui *t, int dir)
{
	int rows = code_rows();
	int i = code.cursor >= 0 ? code.cursor : code.top - (dir > 0 ? 1 : 0);

	for (i += dir; i >= 0 && i < code.n; i += dir)
		if (interesting(i)) {
			code.cursor = i;
			if (i < code.top || i >= code.top + rows)
				code.top = i - rows / 3;
			return REACT_DRAW;
		}
	tui_message(t, STYLE_MESSAGE, "%s", dir > 0 ? _("No highlighted instruction below.") :
	    _("No highlighted instruction above."));
	return REACT_DRAW;
}

/* The source view's cursor to line i, the window following it. */
static int move_cursor(int i)
{
	if (i < 0)
		i = 0;
	if (i >= code.n)
		i = code.n - 1;
	if (i == code.cursor || i < 0)
		return REACT_NONE;
	code.cursor = i;
	code.top = layout_scroll_to(code.top, code_rows(), code.n, i);
	return REACT_DRAW;
}

/* Enter in the source: the SASS view, with what the line at the cursor became marked. */
static int show_mapped(struct tui *t)
{
	int line = cursor_line();

	if (code.map_error != NULL) {
		tui_message(t, STYLE_MESSAGE, "%s", code.map_error);
		return REACT_DRAW;
	}
	if (line <= 0 || mapped_count(line) == 0) {
		tui_message(t, STYLE_MESSAGE, "%s", _("This line made no instruction of its own: choose another."));
		return REACT_DRAW;
	}
	code.mark = line;
	show(t, CODE_SASS, code.step);
	code.mark = line;
	return REACT_DRAW;
}

/* ---- keys and the mouse -------------------------------------------------------- */

/* In the source view, the keys that scroll move the cursor, and the window follows it. */
static int source_view(void)
{
	return code.kind == CODE_SOURCE && code.error == NULL;
}

static int key_line(struct tui *t, const struct crt_event *ev, int dir)
{
	(void)t;
	(void)ev;
	if (source_view())
		return move_cursor(code.cursor + dir);
	return tui_scroll(&code.top, dir);
}

static int key_screenful(struct tui *t, const struct crt_event *ev, int dir)
{
	int rows = code_rows();

	(void)t;
	(void)ev;
	tui_scroll(&code.top, dir * (rows - 1));
	if (!source_view())
		return REACT_DRAW;
	if (dir > 0)
		code.top = layout_scroll_clamp(code.top, rows, code.n);
	return move_cursor(code.cursor + dir * (rows - 1)) | REACT_DRAW;
}

/* The top, or (end 1) the bottom. */
static int key_ends(struct tui *t, const struct crt_event *ev, int end)
{
	(void)t;
	(void)ev;
	if (source_view())
		return move_cursor(end ? code.n - 1 : 0);
	code.top = end ? code.n : 0;
	return REACT_DRAW;
}

static int key_enter(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)ev;
	(void)arg;
	return source_view() ? show_mapped(t) : REACT_NONE;
}

/* Source, PTX, SASS in turn: the next (dir 1) or the one before. */
static int key_cycle(struct tui *t, const struct crt_event *ev, int dir)
{
	(void)ev;
	show(t, (enum code_kind)((code.kind + (dir > 0 ? 1 : 2)) % 3), code.step);
	return REACT_DRAW;
}

static int key_kind(struct tui *t, const struct crt_event *ev, int kind)
{
	(void)ev;
	show(t, (enum code_kind)kind, code.step);
	return REACT_DRAW;
}

static int key_jump(struct tui *t, const struct crt_event *ev, int dir)
{
	(void)ev;
	return jump(t, dir);
}

static int key_arch(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)ev;
	(void)arg;
	next_arch(t);
	return REACT_DRAW;
}

static int key_diff(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)ev;
	(void)arg;
	tui_switch(t, SCREEN_DIFF, &(struct screen_arg){ code.step, CODE_SASS,
	    code.yours != NULL ? (int)(code.yours - tui_lesson(t)->exercises) + 1 : 0 });
	return REACT_DRAW;
}

static int code_scroll(struct tui *t, int y, int x, int lines)
{
	(void)t;
	(void)y;
	(void)x;
	tui_scroll(&code.top, lines);
	return REACT_DRAW;
}

/* A click in the source chooses a line; on the tabs, shows that code. */
static int code_click(struct tui *t, int y, int x)
{
	struct code_layout lo;

	code_layout(&lo);
	if (source_view() && y >= lo.code.y && y < lo.code.y + lo.code.h && x < lo.code.x + lo.code.w)
		return move_cursor(code.top + y - lo.code.y) | REACT_DRAW;
	if (y != 1)
		return REACT_NONE;
	for (int i = 0, tx = 1; i < 3; i++) {
		int w = layout_width(_(view_names[i])) + 2 + (i == CODE_SASS ? 1 + (int)strlen(code.arch) : 0);

		if (x >= tx && x < tx + w) {
			show(t, (enum code_kind)i, code.step);
			break;
		}
		tx += w + 1;
	}
	return REACT_DRAW;
}

static const struct key_binding code_keys[] = {
	{ "\xe2\x86\x91 \xe2\x86\x93  j k", N_("scroll; in the source, choose a line: the panel shows the SASS it became"),
	  NULL, NULL, { 'j', CRT_KEY_DOWN }, key_line, 1 },
	{ NULL, NULL, NULL, NULL, { 'k', CRT_KEY_UP }, key_line, -1 },
	{ "Enter", N_("in the source: the SASS view, with what the chosen line became marked"), NULL, NULL,
	  { CRT_KEY_ENTER }, key_enter, 0 },
	{ "PgUp PgDn Space", N_("a screenful up / down"), NULL, NULL, { CRT_KEY_PGDN, ' ' }, key_screenful, 1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_PGUP }, key_screenful, -1 },
	{ "Home End  g G", N_("top / bottom"), NULL, NULL, { CRT_KEY_HOME, 'g' }, key_ends, 0 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_END, 'G' }, key_ends, 1 },
	{ "Tab  \xe2\x86\x90 \xe2\x86\x92", N_("source, PTX, SASS in turn"), "Tab", N_("view"),
	  { CRT_KEY_TAB, CRT_KEY_RIGHT, 'l' }, key_cycle, 1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_BTAB, CRT_KEY_LEFT, 'h' }, key_cycle, -1 },
	{ "c p s", N_("source / PTX / SASS"), NULL, NULL, { 'c', '1' }, key_kind, CODE_SOURCE },
	{ NULL, NULL, NULL, NULL, { 'p', '2' }, key_kind, CODE_PTX },
	{ NULL, NULL, NULL, NULL, { 's', '3' }, key_kind, CODE_SASS },
	{ "n N", N_("next / previous highlighted instruction"), "n", N_("next"), { 'n' }, key_jump, 1 },
	{ NULL, NULL, NULL, NULL, { 'N' }, key_jump, -1 },
	{ "a", N_("SASS of another GPU architecture"), "a", N_("arch"), { 'a' }, key_arch, 0 },
	{ "d", N_("this step's kernel against the previous step's"), "d", N_("diff"), { 'd', 'D' }, key_diff, 0 },
	{ "Esc  Backspace", N_("back to the lesson"), "Esc", N_("back"), { CRT_KEY_ESC, CRT_KEY_BACKSPACE },
	  tui_key_back, 0 },
};

const struct screen screen_code = {
	.id = SCREEN_CODE,
	.name = "code", .place = SCREEN_ON_TOP, .open = code_open, .close = code_close, .draw = draw_code,
	.click = code_click, .scroll = code_scroll, .keys = code_keys, .nkeys = (int)ARRAY_LEN(code_keys),
};

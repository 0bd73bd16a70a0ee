/* The code views of a step's kernel: CUDA source, PTX and SASS, with what the lesson points at. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "sass.h"
#include "tui/tui_internal.h"

static const struct key_help code_keys[] = {
	{ "\xe2\x86\x91 \xe2\x86\x93  j k", N_("scroll; in the source, choose a line: the panel shows the SASS it became"),
	  NULL, NULL, 0 },
	{ "Enter", N_("in the source: the SASS view, with what the chosen line became marked"), NULL, NULL, 0 },
	{ "PgUp PgDn Space", N_("a screenful up / down"), NULL, NULL, 0 },
	{ "Home End  g G", N_("top / bottom"), NULL, NULL, 0 },
	{ "Tab  \xe2\x86\x90 \xe2\x86\x92", N_("source, PTX, SASS in turn"), "Tab", N_("view"), CRT_KEY_TAB },
	{ "c p s", N_("source / PTX / SASS"), NULL, NULL, 0 },
	{ "n N", N_("next / previous highlighted instruction"), "n", N_("next"), 'n' },
	{ "a", N_("SASS of another GPU architecture"), "a", N_("arch"), 'a' },
	{ "d", N_("this step's kernel against the previous step's"), "d", N_("diff"), 'd' },
	{ "Esc  Backspace", N_("back to the lesson"), "Esc", N_("back"), CRT_KEY_ESC },
};

static const char *const view_names[] = { N_("Source"), "PTX", "SASS" };

void view_code_free(struct tui *t)
{
	free(t->code_text);
	free(t->code_lines);
	free(t->code_error);
	free(t->code_nums);
	t->code_nums = NULL;
	t->ncode_nums = 0;
	markdown_mentions_free(t->focus, t->nfocus);
	t->code_text = NULL;
	t->code_lines = NULL;
	t->code_error = NULL;
	t->focus = NULL;
	t->nfocus = 0;
	t->code_n = 0;
	t->have_res = false;
	memset(&t->mix, 0, sizeof t->mix);
	free(t->map_text);
	sass_listing_free(&t->map_listing);
	free(t->map_lines);
	free(t->map_error);
	t->map_text = NULL;
	t->map_lines = NULL;
	t->nmap_lines = 0;
	t->map_error = NULL;
}

/*
 * For the source view: the SASS of the kernel and the source line each
 * instruction came from, or why that is not available.
 */
static void load_map(struct tui *t, const struct inspect_target *target)
{
	struct error e;

	t->map_text = inspect_sass(target, t->code_arch, &e);
	if (t->map_text == NULL) {
		t->map_error = xstrdup(e.msg);
		return;
	}
	sass_parse(t->map_text, &t->map_listing);
	if (inspect_sass_lines(target, t->code_arch, &t->map_lines, &t->nmap_lines, &e) != 0) {
		t->map_lines = NULL;
		t->nmap_lines = 0;
		t->map_error = xstrdup(e.msg);
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

static void load(struct tui *t)
{
	const struct lesson *l = tui_lesson(t);
	const struct kernel_def *k = l->steps[t->code_step - 1].kernel;
	struct inspect_target target;
	struct error e;
	char *text = NULL;

	view_code_free(t);
	t->nfocus = markdown_mentions(l, t->code_step, &t->focus);
	if (inspect_resolve(k->name, t->block, &target, &e) != 0) {
		t->code_error = xstrdup(e.msg);
		return;
	}
	snprintf(t->code_symbol, sizeof t->code_symbol, "%s", target.symbol);
	if (!t->code_arch_chosen && tui_arch(t, k->module, t->code_arch, sizeof t->code_arch) == NULL)
		snprintf(t->code_arch, sizeof t->code_arch, "%s", "sm_90");
	if (t->code_kind == CODE_SOURCE) {
		text = inspect_source_numbered(&target, &t->code_nums, &t->ncode_nums, &e);
		if (text != NULL)
			load_map(t, &target);
	} else if (t->code_kind == CODE_PTX) {
		text = inspect_ptx(&target, &e);
	} else {
		struct error none;
		text = inspect_sass(&target, t->code_arch, &e);
		/* Which line of the source each instruction came from, where the build knows. */
		if (text != NULL && inspect_sass_lines(&target, t->code_arch, &t->code_nums,
		    &t->ncode_nums, &none) != 0) {
			t->code_nums = NULL;
			t->ncode_nums = 0;
		}
	}
	if (text == NULL) {
		t->code_error = xstrdup(e.msg);
		return;
	}
	if (t->code_kind == CODE_SASS) {
		struct sass_listing listing;
		struct sass_mix mix;

		sass_parse(text, &listing);
		sass_mix_of(&listing, &mix);
		t->mix.total = mix.n[SASS_TOTAL];
		t->mix.global_loads = mix.n[SASS_GLOBAL_LD8] + mix.n[SASS_GLOBAL_LD16] +
		    mix.n[SASS_GLOBAL_LD32] + mix.n[SASS_GLOBAL_LD64] + mix.n[SASS_GLOBAL_LD128] +
		    mix.n[SASS_GLOBAL_LD256];
		t->mix.global_stores = mix.n[SASS_GLOBAL_ST8] + mix.n[SASS_GLOBAL_ST16] +
		    mix.n[SASS_GLOBAL_ST32] + mix.n[SASS_GLOBAL_ST64] + mix.n[SASS_GLOBAL_ST128] +
		    mix.n[SASS_GLOBAL_ST256];
		t->mix.shared = mix.n[SASS_SHARED_LD] + mix.n[SASS_SHARED_ST];
		t->mix.barriers = mix.n[SASS_BARRIER];
		t->mix.shuffles = mix.n[SASS_SHUFFLE];
		t->mix.branches = mix.n[SASS_BRANCH];
		sass_listing_free(&listing);
	} else if (t->code_kind == CODE_PTX) {
		highlight_ptx_mix(text, &t->mix);
	}
	if (t->code_kind == CODE_SASS) {
		char *tight = tighten_sass(text);
		free(text);
		text = tight;
	}
	t->have_res = inspect_resources(&target, t->code_arch, &t->res, &e) == 0;
	t->code_text = layout_expand_tabs(text, strlen(text), 4);
	free(text);
	/* Split in place into lines. */
	for (char *p = t->code_text; p != NULL && *p != '\0';) {
		char *end = strchr(p, '\n');
		t->code_lines = xrealloc(t->code_lines, (size_t)(t->code_n + 1) * sizeof *t->code_lines);
		t->code_lines[t->code_n++] = p;
		if (end == NULL)
			break;
		*end = '\0';
		p = end + 1;
	}
}

static int interesting(const struct tui *t, int i);
static int code_rows(const struct tui *t);

/* Leaving the source view: its cursor is kept for coming back to the same kernel. */
static void keep_cursor(struct tui *t)
{
	if (t->screen == &screen_code && t->code_kind == CODE_SOURCE && t->code_error == NULL) {
		t->src_cursor = t->code_cursor;
		t->src_top = t->code_top;
		snprintf(t->src_symbol, sizeof t->src_symbol, "%s", t->code_symbol);
	}
}

void view_code_open(struct tui *t, enum code_kind kind, int step)
{
	const struct lesson *l = tui_lesson(t);
	int rows;

	if (l == NULL || step < 1 || step > l->nsteps)
		return;
	keep_cursor(t);
	if (t->screen != &screen_code)
		t->back = t->screen;
	if (kind == CODE_SOURCE || step != t->code_step)
		t->code_mark = 0;
	t->screen = &screen_code;
	t->code_kind = kind;
	t->code_step = step;
	t->code_top = 0;
	t->code_cursor = -1;
	load(t);
	rows = code_rows(t);
	if (kind == CODE_SOURCE && t->code_error == NULL) {
		if (strcmp(t->src_symbol, t->code_symbol) == 0 && t->src_cursor >= 0 && t->src_cursor < t->code_n) {
			t->code_cursor = t->src_cursor;
			t->code_top = layout_scroll_to(t->src_top, rows, t->code_n, t->code_cursor);
			return;
		}
		/* The kernel itself, below the helpers it calls. */
		for (int i = 0; i < t->code_n; i++) {
			const char *at = strstr(t->code_lines[i], t->code_symbol);
			if (at != NULL && strstr(t->code_lines[i], "__global__") != NULL) {
				t->code_cursor = i;
				if (i + rows > t->code_n)
					i = t->code_n - rows;
				t->code_top = i > 0 ? i : 0;
				break;
			}
		}
		if (t->code_cursor < 0)
			t->code_cursor = 0;
		return;
	}
	/* Straight to what the source line became, or to what the lesson talks about. */
	if (t->code_mark > 0 || t->nfocus > 0) {
		for (int i = 0; i < t->code_n; i++)
			if (interesting(t, i)) {
				t->code_cursor = i;
				if (i >= rows)
					t->code_top = i - rows / 3;
				break;
			}
	}
}

/* Whether line i holds an instruction worth stopping at with n. */
static int interesting(const struct tui *t, int i)
{
	const char *s = t->code_lines[i];
	int start, n;

	if (t->code_kind == CODE_SOURCE || !highlight_opcode(t->code_kind, s, (int)strlen(s), &start, &n))
		return 0;
	if (t->code_kind == CODE_SASS && t->code_mark > 0)
		return t->code_nums != NULL && i < t->ncode_nums && t->code_nums[i] == t->code_mark;
	if (t->nfocus > 0) {
		for (int f = 0; f < t->nfocus; f++)
			if (highlight_matches(s + start, n, t->focus[f]))
				return 1;
		return 0;
	}
	return highlight_class(s + start, n) != INSN_OTHER;
}

/* Where the code goes: below the tabs and three lines about the kernel, the SASS panel with the source. */
static void code_layout(const struct tui *t, struct code_layout *lo)
{
	layout_code(crt_cols(), crt_rows(), t->code_kind == CODE_SOURCE && t->code_error == NULL, lo);
}

static int code_rows(const struct tui *t)
{
	struct code_layout lo;

	code_layout(t, &lo);
	return lo.code.h;
}

static void draw_tabs(struct tui *t)
{
	int x = 1, cols = crt_cols();
	char buf[192];

	crt_hline(1, 0, cols, STYLE_BORDER);
	for (int i = 0; i < 3; i++) {
		if (i == CODE_SASS)
			snprintf(buf, sizeof buf, " %s %s ", _(view_names[i]), t->code_arch);
		else
			snprintf(buf, sizeof buf, " %s ", _(view_names[i]));
		x += crt_text(1, x, cols - x, (int)t->code_kind == i ? STYLE_SELECTED : STYLE_PANEL_TITLE, buf);
		x += 1;
	}
	snprintf(buf, sizeof buf, " %s ", t->code_symbol);
	if (x + layout_width(buf) + 2 < cols)
		crt_text(1, cols - layout_width(buf) - 1, layout_width(buf), STYLE_CODE, buf);
}

static int item(int y, int x, int style, const char *fmt, int value)
{
	char buf[128];

	snprintf(buf, sizeof buf, fmt, value);
	return crt_text(y, x, crt_cols() - x - 1, style, buf);
}

static void draw_info(struct tui *t)
{
	const struct lesson *l = tui_lesson(t);
	const struct kernel_def *k = l->steps[t->code_step - 1].kernel;
	int cols = crt_cols(), x = 1;
	const char *dot = t->unicode ? " \xc2\xb7 " : " - ";

	/* Row 2: what the kernel is; for PTX and SASS, what ptxas gave it. */
	if (t->code_kind == CODE_SOURCE || t->code_error != NULL || !t->have_res) {
		crt_text(2, x, cols - 2, STYLE_STRONG, _(k->summary));
	} else {
		x += item(2, x, STYLE_NORMAL, _("registers %d"), t->res.registers);
		x += crt_text(2, x, cols - x, STYLE_DIM, dot);
		x += item(2, x, STYLE_NORMAL, _("barrier slots %d"), t->res.barriers);
		x += crt_text(2, x, cols - x, STYLE_DIM, dot);
		x += item(2, x, STYLE_NORMAL, _("shared %d B"), t->res.shared_bytes);
		x += crt_text(2, x, cols - x, STYLE_DIM, dot);
		if (t->res.spill_store_bytes || t->res.spill_load_bytes)
			x += item(2, x, STYLE_BAD, _("SPILLS %d B"), t->res.spill_store_bytes + t->res.spill_load_bytes);
		else
			x += crt_text(2, x, cols - x, STYLE_NORMAL, _("no spills"));
		crt_text(2, x, cols - x, STYLE_DIM, t->code_kind == CODE_SASS ? "" : _("  (for SASS of this arch)"));
	}
	/* Row 3: what the instructions are. */
	x = 1;
	if (t->code_kind != CODE_SOURCE && t->code_error == NULL) {
		int sass = t->code_kind == CODE_SASS;

		x += item(3, x, STYLE_NORMAL, _("%d instructions: "), t->mix.total);
		x += item(3, x, STYLE_INSN_MEM, sass ? "LDG %d" : "ld.global %d", t->mix.global_loads);
		x += crt_text(3, x, cols - x, STYLE_DIM, dot);
		x += item(3, x, STYLE_INSN_MEM, sass ? "STG %d" : "st.global %d", t->mix.global_stores);
		x += crt_text(3, x, cols - x, STYLE_DIM, dot);
		x += item(3, x, STYLE_INSN_SYNC, sass ? "BAR %d" : "bar %d", t->mix.barriers);
		x += crt_text(3, x, cols - x, STYLE_DIM, dot);
		x += item(3, x, STYLE_INSN_SHFL, sass ? "SHFL %d" : "shfl %d", t->mix.shuffles);
		x += crt_text(3, x, cols - x, STYLE_DIM, dot);
		x += item(3, x, STYLE_INSN_BRANCH, sass ? "BRA %d" : "bra %d", t->mix.branches);
		crt_text(3, x, cols - x, STYLE_DIM, _("  (global loads, stores, barriers, shuffles, branches)"));
	} else if (t->code_error == NULL) {
		crt_text(3, x, cols - x, STYLE_DIM, _("The kernel as written, with the device functions it calls."));
	}
	/* Row 4: what the lesson points at, or what a source line became. */
	x = 1;
	if (t->code_kind == CODE_SOURCE && t->code_error == NULL) {
		crt_text(4, x, cols - x - 1, STYLE_DIM, t->map_error == NULL ?
		    _("j k choose a line to see its SASS; Enter marks it in the SASS view.") :
		    _("j k choose a line; the panel says why its SASS cannot be shown."));
	} else if (t->code_kind == CODE_SASS && t->code_error == NULL && t->code_mark > 0) {
		int count = 0;
		char buf[256];

		for (int i = 0; i < t->code_n; i++)
			count += interesting(t, i);
		if (count == 1)
			snprintf(buf, sizeof buf, _("Source line %d became the instruction marked %s"),
			    t->code_mark, t->unicode ? "\xe2\x96\x8c" : "|");
		else
			snprintf(buf, sizeof buf, _("Source line %d became the %d instructions marked %s"),
			    t->code_mark, count, t->unicode ? "\xe2\x96\x8c" : "|");
		x += crt_text(4, x, cols - x, STYLE_STRONG, buf);
		crt_text(4, x + 1, cols - x - 2, STYLE_DIM, _("(n: the next; c: the source)"));
	} else if (t->code_kind != CODE_SOURCE && t->code_error == NULL) {
		if (t->nfocus > 0) {
			x += crt_text(4, x, cols - x, STYLE_DIM, _("The lesson points at: "));
			for (int f = 0; f < t->nfocus; f++) {
				x += crt_text(4, x, cols - x, STYLE_INSN_FOCUS, t->focus[f]);
				x += 1;
			}
		} else {
			x += crt_text(4, x, cols - x, STYLE_DIM, _("Colours: "));
			x += crt_text(4, x, cols - x, STYLE_INSN_MEM, _("memory")) + 1;
			x += crt_text(4, x, cols - x, STYLE_INSN_SYNC, _("barriers")) + 1;
			x += crt_text(4, x, cols - x, STYLE_INSN_SHFL, _("shuffles")) + 1;
			x += crt_text(4, x, cols - x, STYLE_INSN_BRANCH, _("branches")) + 1;
		}
		crt_text(4, x + 1, cols - x - 2, STYLE_DIM, _("(n: the next one)"));
	}
}

/* How many instructions of the kernel came from line line of the .cu file. */
static int mapped_count(const struct tui *t, int line)
{
	int n = 0;

	for (int i = 0; i < t->nmap_lines && i < t->map_listing.count; i++)
		n += t->map_lines[i] == line;
	return n;
}

/* The .cu line of the source line at the cursor; 0 for none. */
static int cursor_line(const struct tui *t)
{
	int c = t->code_cursor;

	return t->code_nums != NULL && c >= 0 && c < t->ncode_nums ? t->code_nums[c] : 0;
}

/* The panel under (or beside) the source: the SASS the line at the cursor became. */
static void draw_map(struct tui *t, const struct code_layout *lo)
{
	struct layout_rect r = lo->map;
	int line = cursor_line(t), y = r.y + 1, x = r.x + 1, w = r.w - 2;
	char buf[256];

	if (lo->map_beside) {
		crt_vline(r.y, r.x - 1, r.h, STYLE_BORDER);
		x = r.x + 1;
	}
	crt_hline(r.y, r.x, r.w, STYLE_BORDER);
	if (line > 0) {
		int n = t->map_error == NULL ? mapped_count(t, line) : 0;
		int tx = r.x + 1;

		if (t->map_error != NULL)
			snprintf(buf, sizeof buf, _(" The SASS of line %d: not available "), line);
		else
			snprintf(buf, sizeof buf, _(" Line %d became "), line);
		tx += crt_text(r.y, tx, r.w - 2, STYLE_PANEL_TITLE, buf);
		if (t->map_error == NULL) {
			if (n == 0)
				snprintf(buf, sizeof buf, "%s", _("no instruction of its own "));
			else
				snprintf(buf, sizeof buf, n == 1 ? _("%d instruction ") : _("%d instructions "), n);
			tx += crt_text(r.y, tx, r.x + r.w - tx - 1, n > 0 ? STYLE_STRONG : STYLE_DIM, buf);
			snprintf(buf, sizeof buf, " SASS %s ", t->code_arch);
			if (tx + layout_width(buf) + 2 < r.x + r.w)
				crt_text(r.y, r.x + r.w - layout_width(buf) - 1, layout_width(buf), STYLE_DIM, buf);
		}
	} else {
		crt_text(r.y, r.x + 1, r.w - 2, STYLE_PANEL_TITLE, _(" The SASS of the line at the cursor "));
	}
	if (t->map_error != NULL) {
		struct layout_run run = { t->map_error, STYLE_DIM };
		struct layout_line *lines;
		int n = layout_wrap(&run, 1, w, &lines);

		for (int i = 0; i < n && i < r.h - 1; i++)
			crt_text(y + i, x, w, STYLE_DIM, lines[i].nspans ? lines[i].spans[0].text : "");
		layout_lines_free(lines, n);
		return;
	}
	if (line <= 0) {
		crt_text(y, x, w, STYLE_DIM, _("This line is not in the kernel's file: choose another with j and k."));
		return;
	}
	{
		int total = mapped_count(t, line), shown = 0, rows = r.h - 1;

		if (total == 0) {
			struct layout_run run = { _("A comment, a declaration, a brace, or code the compiler merged "
			    "into the instructions of other lines."), STYLE_DIM };
			struct layout_line *lines;
			int n = layout_wrap(&run, 1, w, &lines);

			for (int i = 0; i < n && i < rows; i++)
				crt_text(y + i, x, w, STYLE_DIM, lines[i].nspans ? lines[i].spans[0].text : "");
			layout_lines_free(lines, n);
			return;
		}
		for (int i = 0; i < t->nmap_lines && i < t->map_listing.count && shown < rows; i++) {
			const struct sass_insn *in = &t->map_listing.insns[i];
			struct highlight_span sp[16];
			char text[256], line_text[300];
			int ic = 0, n, used = 0;

			if (t->map_lines[i] != line)
				continue;
			if (shown == rows - 1 && total > rows) {
				snprintf(buf, sizeof buf, _("%s and %d more: Enter marks them all in the SASS view"),
				    t->unicode ? "\xe2\x80\xa6" : "...", total - shown);
				crt_text(y + shown, x, w, STYLE_DIM, buf);
				break;
			}
			sass_insn_text(in, text, sizeof text);
			snprintf(line_text, sizeof line_text, "/*%04x*/ %s", in->addr, text);
			n = highlight_line(CODE_SASS, line_text, (int)strlen(line_text), &ic, t->focus, t->nfocus, sp, 16);
			for (int k = 0; k < n && used < w; k++)
				used += crt_textn(y + shown, x + used, w - used, sp[k].style, line_text + sp[k].start,
				    (size_t)sp[k].len);
			shown++;
		}
	}
}

static void draw_code(struct tui *t)
{
	const struct lesson *l = tui_lesson(t);
	struct code_layout lo;
	int rows, right, gutter, in_comment = 0, source = t->code_kind == CODE_SOURCE;
	char where[512];

	code_layout(t, &lo);
	rows = lo.code.h;
	right = lo.code.x + lo.code.w;
	snprintf(where, sizeof where, _("%s %s step %d/%d: %s"), l->id, t->unicode ? "\xc2\xb7" : "-",
	    t->code_step, l->nsteps, l->steps[t->code_step - 1].title);
	tui_draw_header(t, where);
	draw_tabs(t);
	draw_info(t);
	if (t->code_error != NULL) {
		struct layout_run run = { t->code_error, STYLE_BAD };
		struct layout_line *lines;
		int n = layout_wrap(&run, 1, lo.code.w - 8, &lines);
		for (int i = 0; i < n && i < rows - 2; i++)
			crt_text(lo.code.y + 2 + i, 4, lo.code.w - 8, STYLE_BAD, lines[i].nspans ? lines[i].spans[0].text : "");
		layout_lines_free(lines, n);
	} else {
		char num[16];

		if (t->code_nums != NULL) {
			int top = 0;
			for (int i = 0; i < t->ncode_nums; i++)
				if (t->code_nums[i] > top)
					top = t->code_nums[i];
			gutter = snprintf(num, sizeof num, "%d", top) + 3;
		} else {
			gutter = t->code_kind == CODE_SASS ? 2 : snprintf(num, sizeof num, "%d", t->code_n) + 3;
		}
		t->code_top = layout_scroll_clamp(t->code_top, rows, t->code_n);
		/* A comment that began above the window. */
		for (int i = 0; source && i < t->code_top; i++) {
			struct highlight_span sp[64];
			highlight_line(CODE_SOURCE, t->code_lines[i], (int)strlen(t->code_lines[i]), &in_comment,
			    NULL, 0, sp, 64);
		}
		for (int row = 0; row < rows && t->code_top + row < t->code_n; row++) {
			int i = t->code_top + row, y = lo.code.y + row, x = 0;
			const char *s = t->code_lines[i];
			struct highlight_span sp[64];
			int n = highlight_line(t->code_kind, s, (int)strlen(s), &in_comment, t->focus, t->nfocus, sp, 64);
			int num_i = t->code_nums != NULL && i < t->ncode_nums ? t->code_nums[i] : 0;
			int marked = t->code_kind == CODE_SASS && t->code_mark > 0 && num_i == t->code_mark;

			if (i == t->code_cursor)
				crt_text(y, 0, 1, STYLE_BAR_CURRENT, t->unicode ? "\xe2\x96\xb8" : ">");
			else if (marked)
				crt_text(y, 0, 1, STYLE_BAR_CURRENT, t->unicode ? "\xe2\x96\x8c" : "|");
			if (t->code_nums != NULL) {
				/* The line of the .cu file: the same in the source and the SASS views. */
				if (num_i > 0) {
					int style = STYLE_LINENO;
					/* In the source: the chosen line, and lines that made no SASS dimmed. */
					if (source && i == t->code_cursor)
						style = STYLE_CURSOR;
					else if (source && t->map_error == NULL && mapped_count(t, num_i) == 0)
						style = STYLE_DIM;
					else if (marked)
						style = STYLE_BAR_CURRENT;
					snprintf(num, sizeof num, "%*d ", gutter - 2, num_i);
					crt_text(y, 1, gutter - 1, style, num);
				}
			} else if (t->code_kind != CODE_SASS) {
				snprintf(num, sizeof num, "%*d ", gutter - 2, i + 1);
				crt_text(y, 1, gutter, STYLE_LINENO, num);
			}
			x = gutter;
			for (int k = 0; k < n; k++) {
				int w = crt_textn(y, x, right - x - 1, sp[k].style, s + sp[k].start, (size_t)sp[k].len);
				x += w;
				if (x >= right - 1)
					break;
			}
			if (layout_width(s) > right - 1 - gutter)
				crt_text(y, right - 1, 1, STYLE_DIM, t->unicode ? "\xe2\x80\xa6" : ">");
		}
		if (t->code_n > rows) {
			char pos[64];
			int cols = crt_cols();
			snprintf(pos, sizeof pos, " %d-%d/%d ", t->code_top + 1,
			    t->code_top + rows < t->code_n ? t->code_top + rows : t->code_n, t->code_n);
			crt_text(1, cols - layout_width(pos) - layout_width(t->code_symbol) - 4, 20, STYLE_DIM, pos);
		}
		if (source)
			draw_map(t, &lo);
	}
	tui_draw_status(t, lo.status.y, t->code_kind == CODE_SASS ?
	    _("SASS is what the GPU runs: compare the highlighted instructions from step to step.") :
	    t->code_kind == CODE_PTX ? _("PTX is the compiler's portable assembly; ptxas turns it into SASS.") :
	    _("Tab shows the PTX and the SASS the compiler made of this code."));
	tui_draw_footer(t, lo.footer.y, &screen_code);
}

static void next_arch(struct tui *t)
{
	const struct lesson *l = tui_lesson(t);
	struct error e;
	char *archs = inspect_sass_archs(l->steps[t->code_step - 1].kernel->module, &e);
	char *first = NULL, *pick = NULL;
	int after = 0;

	if (archs == NULL) {
		tui_message(t, STYLE_ERROR, "%s", e.msg);
		return;
	}
	for (char *a = strtok(archs, " "); a != NULL; a = strtok(NULL, " ")) {
		if (first == NULL)
			first = a;
		if (after && pick == NULL)
			pick = a;
		if (strcmp(a, t->code_arch) == 0)
			after = 1;
	}
	if (pick == NULL)
		pick = first;
	if (pick != NULL) {
		snprintf(t->code_arch, sizeof t->code_arch, "%s", pick);
		t->code_arch_chosen = true;
	}
	free(archs);
	tui_message(t, STYLE_MESSAGE, _("SASS for %s (built for: %s)"), t->code_arch, CUDATUTOR_CUDA_ARCHS);
	if (t->code_kind != CODE_SASS)
		view_code_open(t, CODE_SASS, t->code_step);
	else
		load(t);
}

static int jump(struct tui *t, int dir)
{
	int rows = code_rows(t);
	int i = t->code_cursor >= 0 ? t->code_cursor : t->code_top - (dir > 0 ? 1 : 0);

	for (i += dir; i >= 0 && i < t->code_n; i += dir)
		if (interesting(t, i)) {
			t->code_cursor = i;
			if (i < t->code_top || i >= t->code_top + rows)
				t->code_top = i - rows / 3;
			return REACT_DRAW;
		}
	tui_message(t, STYLE_MESSAGE, "%s", dir > 0 ? _("No highlighted instruction below.") :
	    _("No highlighted instruction above."));
	return REACT_DRAW;
}

/* The source view's cursor to line i, the window following it. */
static int move_cursor(struct tui *t, int i)
{
	if (i < 0)
		i = 0;
	if (i >= t->code_n)
		i = t->code_n - 1;
	if (i == t->code_cursor || i < 0)
		return REACT_NONE;
	t->code_cursor = i;
	t->code_top = layout_scroll_to(t->code_top, code_rows(t), t->code_n, i);
	return REACT_DRAW;
}

/* Enter in the source: the SASS view, with what the line at the cursor became marked. */
static int show_mapped(struct tui *t)
{
	int line = cursor_line(t);

	if (t->map_error != NULL) {
		tui_message(t, STYLE_MESSAGE, "%s", t->map_error);
		return REACT_DRAW;
	}
	if (line <= 0 || mapped_count(t, line) == 0) {
		tui_message(t, STYLE_MESSAGE, "%s", _("This line made no instruction of its own: choose another."));
		return REACT_DRAW;
	}
	t->code_mark = line;
	view_code_open(t, CODE_SASS, t->code_step);
	t->code_mark = line;
	return REACT_DRAW;
}

/* Keys that move through the source view's lines: a reaction, or -1 for another key. */
static int source_key(struct tui *t, const struct crt_event *ev)
{
	int rows = code_rows(t);
	struct code_layout lo;

	switch (ev->key) {
	case CRT_KEY_DOWN:
	case 'j':
		return move_cursor(t, t->code_cursor + 1);
	case CRT_KEY_UP:
	case 'k':
		return move_cursor(t, t->code_cursor - 1);
	case CRT_KEY_PGDN:
	case ' ':
		t->code_top += rows - 1;
		t->code_top = layout_scroll_clamp(t->code_top, rows, t->code_n);
		return move_cursor(t, t->code_cursor + rows - 1) | REACT_DRAW;
	case CRT_KEY_PGUP:
		t->code_top = t->code_top > rows - 1 ? t->code_top - (rows - 1) : 0;
		return move_cursor(t, t->code_cursor - (rows - 1)) | REACT_DRAW;
	case CRT_KEY_HOME:
	case 'g':
		return move_cursor(t, 0);
	case CRT_KEY_END:
	case 'G':
		return move_cursor(t, t->code_n - 1);
	case CRT_KEY_ENTER:
		return show_mapped(t);
	case CRT_KEY_MOUSE:
		code_layout(t, &lo);
		if (ev->button == CRT_CLICK && ev->y >= lo.code.y && ev->y < lo.code.y + lo.code.h &&
		    ev->x < lo.code.x + lo.code.w)
			return move_cursor(t, t->code_top + ev->y - lo.code.y) | REACT_DRAW;
		return -1;
	default:
		return -1;
	}
}

static int code_key(struct tui *t, const struct crt_event *ev)
{
	int rows = code_rows(t);

	if (t->code_kind == CODE_SOURCE && t->code_error == NULL) {
		int r = source_key(t, ev);
		if (r >= 0)
			return r;
	}
	switch (ev->key) {
	case CRT_KEY_DOWN:
	case 'j':
		t->code_top++;
		return REACT_DRAW;
	case CRT_KEY_UP:
	case 'k':
		if (t->code_top == 0)
			return REACT_NONE;
		t->code_top--;
		return REACT_DRAW;
	case CRT_KEY_PGDN:
	case ' ':
		t->code_top += rows - 1;
		return REACT_DRAW;
	case CRT_KEY_PGUP:
		t->code_top -= rows - 1;
		if (t->code_top < 0)
			t->code_top = 0;
		return REACT_DRAW;
	case CRT_KEY_HOME:
	case 'g':
		t->code_top = 0;
		return REACT_DRAW;
	case CRT_KEY_END:
	case 'G':
		t->code_top = t->code_n;
		return REACT_DRAW;
	case CRT_KEY_TAB:
	case CRT_KEY_RIGHT:
	case 'l':
		view_code_open(t, (t->code_kind + 1) % 3, t->code_step);
		return REACT_DRAW;
	case CRT_KEY_BTAB:
	case CRT_KEY_LEFT:
	case 'h':
		view_code_open(t, (t->code_kind + 2) % 3, t->code_step);
		return REACT_DRAW;
	case 'c':
	case '1':
		view_code_open(t, CODE_SOURCE, t->code_step);
		return REACT_DRAW;
	case 'p':
	case '2':
		view_code_open(t, CODE_PTX, t->code_step);
		return REACT_DRAW;
	case 's':
	case '3':
		view_code_open(t, CODE_SASS, t->code_step);
		return REACT_DRAW;
	case 'a':
		next_arch(t);
		return REACT_DRAW;
	case 'd':
	case 'D':
		keep_cursor(t);
		view_diff_open(t, t->code_step);
		return REACT_DRAW;
	case 'n':
		return jump(t, 1);
	case 'N':
		return jump(t, -1);
	case CRT_KEY_MOUSE:
		if (tui_wheel_scroll(ev, &t->code_top))
			return REACT_DRAW;
		if (ev->button != CRT_CLICK || ev->y != 1)
			return REACT_NONE;
		/* the tabs */
		for (int i = 0, x = 1; i < 3; i++) {
			int w = layout_width(_(view_names[i])) + 2 + (i == CODE_SASS ? 1 +
			    (int)strlen(t->code_arch) : 0);
			if (ev->x >= x && ev->x < x + w) {
				view_code_open(t, (enum code_kind)i, t->code_step);
				break;
			}
			x += w + 1;
		}
		return REACT_DRAW;
	case CRT_KEY_ESC:
	case CRT_KEY_BACKSPACE:
		keep_cursor(t);
		t->screen = t->back ? t->back : &screen_lesson;
		return REACT_DRAW;
	case 'P':
	case CRT_KEY_F(5):
		keep_cursor(t);
		t->screen = &screen_present;
		return REACT_DRAW;
	default:
		return REACT_NONE;
	}
}

const struct screen screen_code = {
	"code", draw_code, code_key, code_keys, (int)ARRAY_LEN(code_keys),
};

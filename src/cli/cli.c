/* The batch view: lessons, results and kernel code as text, JSON or CSV. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"
#include "counts.h"
#include "diagnosis.h"
#include "i18n.h"
#include "summary.h"
#include "occupancy.h"
#include "registry.h"
#include "textwrap.h"

int cli_parse_format(const char *s, enum cli_format *f)
{
	if (strcmp(s, "text") == 0)
		*f = FORMAT_TEXT;
	else if (strcmp(s, "json") == 0)
		*f = FORMAT_JSON;
	else if (strcmp(s, "csv") == 0)
		*f = FORMAT_CSV;
	else
		return -1;
	return 0;
}

const char *cli_count(unsigned long long n, char *buf, size_t len)
{
	return results_count(n, buf, len);
}

void cli_progress_runs(FILE *out, int step, int nsteps, const char *kernel, int done, int total)
{
	fprintf(out, "\r\033[K  %d/%d  %-32s %d/%d runs", step, nsteps, kernel, done, total);
}

void cli_progress_clear(FILE *out)
{
	fputs("\r\033[K", out);
}

int cli_output_width(void)
{
	struct winsize ws;
	const char *c = getenv("COLUMNS");

	if (isatty(fileno(stdout)) && ioctl(fileno(stdout), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	if (c != NULL && atoi(c) > 0)
		return atoi(c);
	return 80;
}

static void print_json(FILE *out, json_t *j)
{
	json_dumpf(j, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
	fputc('\n', out);
	json_decref(j);
}

static const char *check_word(const struct step_result *s)
{
	if (!s->ran)
		return _("error");
	if (s->correct)
		return _("ok");
	return s->wrong_by_design ? _("WRONG (expected)") : _("WRONG");
}

/* Whether the time includes the whole answer, or partials left for the host to add. */
static const char *answer_word(const struct step_result *s)
{
	return s->complete ? _("whole") : _("partial");
}

static const char *step_element(const struct step_result *s)
{
	const struct kernel_def *k = registry_find(s->kernel);

	return k != NULL ? k->experiment->element : "element";
}

/*
 * A table's cell: s padded to width columns, right-aligned, or left-aligned
 * when width is negative; a translated heading lines up with its numbers.
 */
static void cell(FILE *out, const char *s, int width)
{
	if (width < 0)
		fprintf(out, "%-*s", textwrap_field(s, -width), s);
	else
		fprintf(out, "%*s", textwrap_field(s, width), s);
}

/* " #  kernel ... check": each heading as wide as its column, widths[] as cell() takes them. */
static void table_head(FILE *out, const char *const *heads, const int *widths, int n)
{
	fprintf(out, " %2s  ", "#");
	for (int i = 0; i < n; i++) {
		if (i > 0)
			fputc(' ', out);
		cell(out, heads[i], widths[i]);
	}
}

/*
 * The lines above a report's table: the lesson, the GPU, the size, the copy
 * rate; *flops, *bytes and *shared say which units its steps are in.
 */
static void print_text_header(FILE *out, const struct run_report *r, const struct lesson *l,
    int *flops, int *bytes, int *shared)
{
	char count[32];
	const char *element = NULL;
	int reps = 0;

	fprintf(out, "%s%s%s\n", r->lesson, l && l->title ? ": " : "", l && l->title ? l->title : "");
	fprintf(out, _("GPU     %s (%s, driver %s, CUDA %s)\n"), r->gpu.name, r->gpu.arch,
	    r->gpu.driver, r->gpu.cuda);
	if (r->recorded)
		fprintf(out, _("RECORDED on %s, read from %s: these are not live numbers\n"),
		    r->recorded_date, r->recorded_file);
	*flops = *bytes = *shared = 0;
	for (int i = 0; i < r->nsteps; i++) {
		enum experiment_unit u = r->steps[i].unit;
		const char *el = step_element(&r->steps[i]);

		if (r->steps[i].reps > reps)
			reps = r->steps[i].reps;
		*flops |= u == UNIT_GFLOPS;
		*bytes |= u == UNIT_GBPS;
		*shared |= u == UNIT_SHARED_GBPS;
		element = i == 0 || (element != NULL && strcmp(element, el) == 0) ? el : NULL;
	}
	cli_count(r->size, count, sizeof count);
	/* the tensor-core kernels launch with their table's block, whatever --block says */
	if (results_block_per_kernel(r) && element != NULL)
		fprintf(out, _("size    %s %ss, each kernel with its own block; each time is the median of up to %d runs\n"),
		    count, element, reps);
	else if (results_block_per_kernel(r))
		fprintf(out, _("size    %s, each kernel with its own block; each time is the median of up to %d runs\n"),
		    count, reps);
	else if (element != NULL)
		fprintf(out, _("size    %s %ss, block %u; each time is the median of up to %d runs\n"),
		    count, element, r->block, reps);
	else
		fprintf(out, _("size    %s, block %u; each time is the median of up to %d runs\n"),
		    count, r->block, reps);
	fprintf(out, _("copy    %.1f GB/s device-to-device (bytes read + written)\n"), r->copy_gbps);
	if (*shared)
		fprintf(out, "%s", _("smem    the rate of steps marked 'smem' counts bytes read from shared memory\n"));
	fputc('\n', out);
}

/* The table's headings: GFLOP/s and the percentage of the library for arithmetic, GB/s and of copy for bytes. */
static void print_text_head(FILE *out, int flops, int bytes, int shared, int name_width)
{
	const char *rate_head = flops && !bytes && !shared ? "GFLOP/s" : !flops ? "GB/s" : _("rate");
	const char *pct_head = flops && !bytes && !shared ? _("%lib") : !flops ? _("%copy") : _("%ref");
	const char *heads[] = { _("kernel"), _("grid"), _("median ms"), _("IQR %"), _("runs"),
	    rate_head, pct_head, _("%roof"), _("vs 1st"), _("vs prev"), _("regs"), _("blk/SM"), _("occ %"),
	    _("answer") };
	int widths[] = { -name_width, 7, 10, 6, 5, 8, 6, 6, 7, 7, 4, 6, 5, -7 };

	table_head(out, heads, widths, (int)ARRAY_LEN(widths));
	fprintf(out, "  %s\n", _("check"));
}

/* The kernel column's text: a control step says so after its name (it is no rung of the ladder). */
static const char *row_name(const struct step_result *s, char *buf, size_t len)
{
	if (s->control)
		snprintf(buf, len, "%s %s", s->kernel, _("(control)"));
	else
		snprintf(buf, len, "%s", s->kernel);
	return buf;
}

/* The kernel column's width: 32, or the widest name with its tag where one is wider. */
static int name_width(const struct run_report *r)
{
	char name[160];
	int w = 32;

	for (int i = 0; i < r->nsteps; i++) {
		int c;

		row_name(&r->steps[i], name, sizeof name);
		c = textwrap_columns(name, strlen(name));
		if (c > w)
			w = c;
	}
	return w;
}

/* A step's row of the table; 1 when it has a note under the table (it did not run, or was wrong). */
static int print_text_row(FILE *out, const struct step_result *s, int nw)
{
	char grid[16], pct[16], roof[16], regs[16], blocks[16], occ[16], name[160];

	if (s->library)
		snprintf(grid, sizeof grid, "%s", _("lib"));
	else if (s->ran)
		snprintf(grid, sizeof grid, "%u", s->grid);
	else
		snprintf(grid, sizeof grid, "-");
	/* the kernel column holds a name, or a label in an exercise's report ("yours") */
	row_name(s, name, sizeof name);
	if (!s->ran) {
		fprintf(out, " %2d  %-*s %*s %10s %6s %5s %8s %6s %6s %7s %7s %4s %6s %5s %-*s  %s\n",
		    s->step, textwrap_field(name, nw), name, textwrap_field(grid, 7), grid,
		    "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-",
		    textwrap_field(answer_word(s), 7), answer_word(s), check_word(s));
		return 1;
	}
	if (s->pct > 0)
		snprintf(pct, sizeof pct, "%.1f", s->pct);
	else
		snprintf(pct, sizeof pct, "%s", s->unit == UNIT_SHARED_GBPS ? "smem" : "-");
	results_pct_of_roof(s, roof, sizeof roof);
	if (s->library) {
		snprintf(regs, sizeof regs, "-");
		snprintf(blocks, sizeof blocks, "-");
		snprintf(occ, sizeof occ, "-");
	} else {
		snprintf(regs, sizeof regs, "%d", s->registers);
		snprintf(blocks, sizeof blocks, "%d", s->blocks_per_sm);
		snprintf(occ, sizeof occ, "%.0f", s->occupancy_pct);
	}
	fprintf(out, " %2d  %-*s %*s %10.4f %6.1f %5d %8.1f %6s %6s %6.2fx %6.2fx %4s %6s %5s %-*s  %s\n",
	    s->step, textwrap_field(name, nw), name, textwrap_field(grid, 7), grid,
	    s->median_ms, s->spread_pct, s->reps, s->rate, pct, roof, s->speedup_first, s->speedup_prev,
	    regs, blocks, occ, textwrap_field(answer_word(s), 7), answer_word(s), check_word(s));
	return !s->correct;
}

/* A step the lesson has and the recording lacks (added since): said, never left out silently. */
static void print_text_missing(FILE *out, const struct run_report *r, const struct lesson *l, int nw)
{
	for (int i = 0; r->recorded && l != NULL && i < l->nsteps; i++) {
		bool found = false;

		for (int j = 0; j < r->nsteps; j++)
			found |= strcmp(r->steps[j].kernel, l->steps[i].kernel->name) == 0;
		if (!found)
			fprintf(out, _(" %2d  %-*s not in this recorded file: run it on a GPU\n"), i + 1,
			    textwrap_field(l->steps[i].kernel->name, nw), l->steps[i].kernel->name);
	}
}

/* Under the table: why a step did not run, or what was wrong. */
static void print_text_notes(FILE *out, const struct run_report *r)
{
	fputc('\n', out);
	for (int i = 0; i < r->nsteps; i++) {
		const struct step_result *s = &r->steps[i];
		if (!s->ran)
			fprintf(out, _(" %2d  did not run: %s\n"), s->step, s->error);
		else if (!s->correct)
			fprintf(out, " %2d  %s%s\n", s->step, s->check_detail,
			    s->wrong_by_design ? _(" (the lesson shows this failure on purpose)") : "");
	}
}

/*
 * Under the table: the SM clock the steps' timed runs ended at, where
 * NVML gave it, lowest and highest: the GPU boosts and throttles as it
 * warms, and two steps timed at different clocks are not compared alone.
 */
static void print_text_clocks(FILE *out, const struct run_report *r)
{
	int lo = 0, hi = 0, at = 0;

	for (int i = 0; i < r->nsteps; i++) {
		int c = r->steps[i].sm_clock_mhz;

		if (c <= 0)
			continue;
		if (lo == 0 || c < lo) {
			lo = c;
			at = r->steps[i].step;
		}
		if (c > hi)
			hi = c;
	}
	if (lo == 0)
		return;
	if (lo == hi)
		fprintf(out, _("SM clock as each step's runs ended: %d MHz\n"), lo);
	else
		fprintf(out, _("SM clock as each step's runs ended: %d to %d MHz (step %d at %d)\n"), lo, hi, at, lo);
}

/* Under the table: each step's diagnosis, wrapped to 80 columns under its number. */
static void print_text_diagnoses(FILE *out, const struct run_report *r)
{
	bool head = false;

	for (int i = 0; i < r->nsteps; i++) {
		struct diagnosis d;
		char text[1024], *wrapped, *line, *next;

		if (!diagnose_in_run(r, i, &d))
			continue;
		if (!head)
			fprintf(out, "\n%s\n", _("What holds each step back, and the lesson that attacks it:"));
		head = true;
		wrapped = textwrap(diagnosis_text(&d, r->lesson, true, text, sizeof text), 80 - 5);
		for (line = wrapped; line != NULL; line = next) {
			next = strchr(line, '\n');
			if (next != NULL)
				*next++ = '\0';
			if (line == wrapped)
				fprintf(out, " %2d  %s\n", r->steps[i].step, line);
			else if (*line != '\0')
				fprintf(out, "     %s\n", line);
		}
		free(wrapped);
	}
}

static void print_report_text(FILE *out, const struct run_report *r, const struct lesson *l)
{
	int any_notes = 0, flops, bytes, shared, nw = name_width(r);

	print_text_header(out, r, l, &flops, &bytes, &shared);
	print_text_head(out, flops, bytes, shared, nw);
	for (int i = 0; i < r->nsteps; i++)
		any_notes |= print_text_row(out, &r->steps[i], nw);
	print_text_missing(out, r, l, nw);
	if (any_notes)
		print_text_notes(out, r);
	print_text_clocks(out, r);
	print_text_diagnoses(out, r);
}

/* A CSV field, quoted when it needs to be. */
static void csv_field(FILE *out, const char *s, int last)
{
	if (strpbrk(s, ",\"\n") != NULL) {
		fputc('"', out);
		for (const char *p = s; *p; p++) {
			if (*p == '"')
				fputc('"', out);
			fputc(*p, out);
		}
		fputc('"', out);
	} else {
		fputs(s, out);
	}
	fputc(last ? '\n' : ',', out);
}

/* The step against the roofs; empty where unknown, and the percentages where the time beat the roof. */
static void print_roof_csv(FILE *out, const struct roof_point *p)
{
	bool pct = p->have && !p->roof_exceeded;

	if (!p->have) {
		fputs(",,,,,", out);
		return;
	}
	fprintf(out, "%.4f,%s,", p->intensity, roofs_limiter_name(p->limiter));
	if (p->roof > 0)
		fprintf(out, "%.1f", p->roof);
	fputc(',', out);
	if (pct && p->roof > 0)
		fprintf(out, "%.1f", p->pct_of_roof);
	fputc(',', out);
	if (pct && p->roof_theoretical > 0)
		fprintf(out, "%.1f", p->pct_of_theoretical);
	fputc(',', out);
}

static void print_report_csv(FILE *out, const struct run_report *r, bool header)
{
	if (header)
		fputs("lesson,gpu,recorded,step,kernel,size,block,grid,median_ms,spread_pct,gbps,"
	    "pct_copy,speedup_first,speedup_prev,correct,wrong_by_design,error,"
	    "gflops,pct_library,registers,blocks_per_sm,occupancy_pct,reps,complete,"
	    "intensity,limiter,roof,pct_of_roof,pct_of_theoretical,diagnosis,control\n", out);
	for (int i = 0; i < r->nsteps; i++) {
		const struct step_result *s = &r->steps[i];
		struct diagnosis d;
		char num[64], text[1024];

		csv_field(out, r->lesson, 0);
		csv_field(out, r->gpu.name, 0);
		csv_field(out, r->recorded ? r->recorded_date : "", 0);
		fprintf(out, "%d,", s->step);
		csv_field(out, s->kernel, 0);
		fprintf(out, "%llu,%u,", s->size, s->block);
		if (s->grid)
			fprintf(out, "%u,", s->grid);
		else
			fputs(",", out);
		if (s->ran) {
			fprintf(out, "%.6f,%.3f,%.3f,%.3f,%.4f,%.4f,%s,", s->median_ms, s->spread_pct,
			    s->gbps, s->pct_copy, s->speedup_first, s->speedup_prev,
			    s->correct ? "true" : "false");
		} else {
			fputs(",,,,,,,", out);
		}
		snprintf(num, sizeof num, "%s", s->wrong_by_design ? "true" : "false");
		csv_field(out, num, 0);
		csv_field(out, s->ran ? "" : s->error, 0);
		if (s->ran)
			fprintf(out, "%.4f,%.3f,%d,%d,%.1f,%d,", s->gflops, s->pct_library, s->registers,
			    s->blocks_per_sm, s->occupancy_pct, s->reps);
		else
			fputs(",,,,,,", out);
		fprintf(out, "%s,", s->complete ? "true" : "false");
		print_roof_csv(out, &s->roof);
		/* what holds it back, in English as the rest; empty where nothing says */
		(void)diagnose_in_run(r, (int)(s - r->steps), &d);
		csv_field(out, diagnosis_text(&d, r->lesson, false, text, sizeof text), 0);
		csv_field(out, s->control ? "true" : "false", 1);
	}
}

/* A report as JSON, each step with its diagnosis (shown, never stored in the recorded files). */
static json_t *report_json(const struct run_report *r)
{
	json_t *o = results_report_to_json(r);

	/* block is what the run was asked for and is found at; true here: no step launched with it */
	json_object_set_new(o, "block_per_kernel", json_boolean(results_block_per_kernel(r)));
	diagnosis_add_to_json(o, r);
	return o;
}

void cli_print_report(FILE *out, const struct run_report *r, const struct lesson *l,
    enum cli_format f)
{
	switch (f) {
	case FORMAT_JSON:
		print_json(out, report_json(r));
		break;
	case FORMAT_CSV:
		print_report_csv(out, r, true);
		break;
	default:
		print_report_text(out, r, l);
		break;
	}
}

void cli_print_reports(FILE *out, const struct run_report *r, const struct lesson *const *l, int n,
    enum cli_format f)
{
	json_t *all;

	if (n == 1) {
		cli_print_report(out, r, l[0], f);
		return;
	}
	switch (f) {
	case FORMAT_JSON:
		all = json_array();
		for (int i = 0; i < n; i++)
			json_array_append_new(all, report_json(&r[i]));
		print_json(out, all);
		break;
	case FORMAT_CSV:
		for (int i = 0; i < n; i++)
			print_report_csv(out, &r[i], i == 0);
		break;
	default:
		for (int i = 0; i < n; i++) {
			if (i > 0)
				fputc('\n', out);
			print_report_text(out, &r[i], l[i]);
		}
		break;
	}
}

/* "NVIDIA H200" -> "H200": short enough for a column head. */
static const char *gpu_short(const char *name)
{
	return strncmp(name, "NVIDIA ", 7) == 0 ? name + 7 : name;
}

static void describe_run(FILE *out, const char *label, const struct run_report *r)
{
	fprintf(out, _("%s  %s (%s, driver %s, CUDA %s), %s; copy %.1f GB/s\n"), label, r->gpu.name,
	    r->gpu.arch, r->gpu.driver, r->gpu.cuda,
	    r->recorded ? r->recorded_date : _("live"), r->copy_gbps);
}

/* The lines above a comparison's table: the lesson, the two runs, the size and what B's bandwidth predicts. */
static void print_comparison_head(FILE *out, const struct run_report *a, const struct run_report *b,
    const struct lesson *l, double copy_ratio)
{
	char count[32];

	fprintf(out, "%s%s%s\n", a->lesson, l && l->title ? ": " : "", l && l->title ? l->title : "");
	describe_run(out, "A", a);
	describe_run(out, "B", b);
	cli_count(a->size, count, sizeof count);
	if (results_block_per_kernel(a))
		fprintf(out, _("size    %s, each kernel with its own block; B's copy bandwidth is %.2fx A's: a step "
		    "bound by memory bandwidth should run about %.2fx as fast on B\n\n"), count, copy_ratio,
		    copy_ratio);
	else
		fprintf(out, _("size    %s, block %u; B's copy bandwidth is %.2fx A's: a step bound by "
		    "memory bandwidth should run about %.2fx as fast on B\n\n"), count, a->block, copy_ratio,
		    copy_ratio);
}

void cli_print_comparison(FILE *out, const struct run_report *a, const struct run_report *b,
    const struct lesson *l, enum cli_format f)
{
	struct results_comparison c;

	results_compare(a, b, &c);
	if (f == FORMAT_CSV) {
		fputs("lesson,size,block,step,kernel,a_gpu,a_ms,b_gpu,b_ms,speedup,copy_ratio\n", out);
		for (int i = 0; i < c.count; i++) {
			const struct results_pair *p = &c.pairs[i];
			csv_field(out, a->lesson, 0);
			fprintf(out, "%llu,%u,%d,", a->size, a->block, p->a->step);
			csv_field(out, p->a->kernel, 0);
			csv_field(out, a->gpu.name, 0);
			if (p->a->ran)
				fprintf(out, "%.6f", p->a->median_ms);
			fputc(',', out);
			csv_field(out, b->gpu.name, 0);
			if (p->b != NULL && p->b->ran)
				fprintf(out, "%.6f", p->b->median_ms);
			fputc(',', out);
			if (p->speedup > 0)
				fprintf(out, "%.4f", p->speedup);
			fprintf(out, ",%.4f\n", c.copy_ratio);
		}
		results_comparison_free(&c);
		return;
	}
	if (f == FORMAT_JSON) {
		json_t *steps = json_array();
		for (int i = 0; i < c.count; i++) {
			const struct results_pair *p = &c.pairs[i];
			json_array_append_new(steps, json_pack("{s:i, s:s, s:o, s:o, s:o}",
			    "step", p->a->step, "kernel", p->a->kernel,
			    "a_ms", p->a->ran ? json_real(p->a->median_ms) : json_null(),
			    "b_ms", p->b != NULL && p->b->ran ? json_real(p->b->median_ms) : json_null(),
			    "speedup", p->speedup > 0 ? json_real(p->speedup) : json_null()));
		}
		print_json(out, json_pack("{s:s, s:I, s:i, s:o, s:o, s:o, s:o}", "lesson", a->lesson,
		    "size", (json_int_t)a->size, "block", a->block,
		    "a", results_gpu_to_json(&a->gpu), "b", results_gpu_to_json(&b->gpu),
		    "copy_ratio", c.copy_ratio > 0 ? json_real(c.copy_ratio) : json_null(),
		    "steps", steps));
		results_comparison_free(&c);
		return;
	}
	print_comparison_head(out, a, b, l, c.copy_ratio);
	{
		const char *heads[] = { _("kernel"), gpu_short(a->gpu.name), gpu_short(b->gpu.name),
		    _("B vs A") };
		static const int widths[] = { -32, 12, 12, 8 };

		table_head(out, heads, widths, (int)ARRAY_LEN(widths));
		fprintf(out, "  %s\n", _("follows"));
	}
	for (int i = 0; i < c.count; i++) {
		const struct results_pair *p = &c.pairs[i];
		char ta[32] = "-", tb[32] = "-", sp[32] = "-";
		const char *follows = "";

		if (p->a->ran)
			snprintf(ta, sizeof ta, "%.4f ms", p->a->median_ms);
		if (p->b != NULL && p->b->ran)
			snprintf(tb, sizeof tb, "%.4f ms", p->b->median_ms);
		if (p->speedup > 0)
			snprintf(sp, sizeof sp, "%.2fx", p->speedup);
		if (p->follows_copy)
			follows = _("bandwidth");
		fprintf(out, " %2d  %-*s %12s %12s %8s%s%s\n", p->a->step,
		    textwrap_field(p->a->kernel, 32), p->a->kernel, ta, tb, sp, *follows ? "  " : "", follows);
	}
	results_comparison_free(&c);
}

void cli_print_lessons(FILE *out, const struct lesson_set *set, enum cli_format f)
{
	if (f == FORMAT_JSON) {
		json_t *arr = json_array();
		for (int i = 0; i < set->count; i++) {
			const struct lesson *l = &set->lessons[i];
			json_t *steps = json_array();
			for (int j = 0; j < l->nsteps; j++) {
				json_t *look = json_array();
				for (char **p = l->steps[j].look_for; p != NULL && *p != NULL; p++)
					json_array_append_new(look, json_string(*p));
				json_array_append_new(steps, json_pack("{s:s, s:s, s:o}", "title",
				    l->steps[j].title, "kernel", l->steps[j].kernel->name, "look_for", look));
			}
			json_array_append_new(arr, json_pack("{s:s, s:s?, s:s, s:s, s:o, s:s?}",
			    "id", l->id, "title", l->title, "lang", l->lang, "file", l->path,
			    "steps", steps, "error", l->error));
		}
		print_json(out, arr);
		return;
	}
	if (f == FORMAT_CSV) {
		fputs("lesson,step,title,kernel\n", out);
		for (int i = 0; i < set->count; i++)
			for (int j = 0; j < set->lessons[i].nsteps; j++) {
				fprintf(out, "%s,%d,", set->lessons[i].id, j + 1);
				csv_field(out, set->lessons[i].steps[j].title, 0);
				csv_field(out, set->lessons[i].steps[j].kernel->name, 1);
			}
		return;
	}
	for (int i = 0; i < set->count; i++) {
		const struct lesson *l = &set->lessons[i];
		if (l->error != NULL) {
			fprintf(out, "%-16s %s\n", l->id, _("(does not load)"));
			fprintf(out, "    %s\n", l->error);
			continue;
		}
		fprintf(out, "%-16s %s\n", l->id, l->title);
		for (int j = 0; j < l->nsteps; j++)
			fprintf(out, "  %2d  %-34s %s\n", j + 1, l->steps[j].kernel->name, l->steps[j].title);
	}
}

void cli_print_kernels(FILE *out, enum cli_format f)
{
	if (f == FORMAT_JSON) {
		json_t *arr = json_array();
		for (int i = 0; i < registry_kernel_count; i++) {
			const struct kernel_def *k = &registry_kernels[i];
			json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:b, s:b, s:s}", "kernel", k->name,
			    "module", k->module, "experiment", k->experiment->name,
			    "library", registry_is_library(k),
			    "wrong_by_design", (k->flags & KF_WRONG_BY_DESIGN) != 0, "summary", _(k->summary)));
		}
		print_json(out, arr);
		return;
	}
	for (int i = 0; i < registry_kernel_count; i++) {
		const struct kernel_def *k = &registry_kernels[i];
		if (f == FORMAT_CSV)
			fprintf(out, "%s,%s,%s\n", k->name, k->module, k->experiment->name);
		else
			fprintf(out, "%-34s %-14s %s\n", k->name, k->module, _(k->summary));
	}
}

/* ---- banks ----------------------------------------------------------------- */

/* A sorted list of numbers, runs of three or more as "a-b". */
static void add_list(struct strbuf *b, const unsigned int *v, int n)
{
	for (int i = 0; i < n;) {
		int j = i;
		while (j + 1 < n && v[j + 1] == v[j] + 1)
			j++;
		if (j - i >= 2)
			strbuf_addf(b, "%s%u-%u", i ? " " : "", v[i], v[j]);
		else
			for (int k = i; k <= j; k++)
				strbuf_addf(b, "%s%u", k ? " " : "", v[k]);
		i = j + 1;
	}
}

static void sorted_insert(unsigned int *v, int *n, unsigned int x)
{
	int i = *n;

	for (int k = 0; k < *n; k++)
		if (v[k] == x)
			return;
	while (i > 0 && v[i - 1] > x) {
		v[i] = v[i - 1];
		i--;
	}
	v[i] = x;
	(*n)++;
}

void cli_print_banks(FILE *out, const struct banks_access *a, enum cli_format f)
{
	if (f == FORMAT_JSON) {
		json_t *lanes = json_array();
		for (int l = 0; l < BANKS_WARP; l++) {
			json_t *words = json_array(), *banks = json_array();
			for (unsigned int k = 0; k < a->words_per_lane; k++) {
				json_array_append_new(words, json_integer(a->word[l][k]));
				json_array_append_new(banks, json_integer(a->word[l][k] % BANKS));
			}
			json_array_append_new(lanes, json_pack("{s:i, s:o, s:o}", "lane", l,
			    "words", words, "banks", banks));
		}
		print_json(out, json_pack("{s:i, s:i, s:b, s:i, s:i, s:i, s:i, s:o}",
		    "stride", (int)a->stride, "element_bytes", (int)a->element_bytes, "padded", a->padded,
		    "wavefronts", a->wavefronts, "ways", a->ways, "phases", a->phases,
		    "banks_used", a->banks_used, "lanes", lanes));
		return;
	}

	if (a->stride == 0)
		fprintf(out, _("Every lane reads element 0 (%u-byte elements)"), a->element_bytes);
	else
		fprintf(out, _("Lane l reads element %u*l (%u-byte elements)"), a->stride, a->element_bytes);
	fputs(a->padded ? _(", padded: one spare word after every 32.\n") : ".\n", out);
	if (a->phases > 1)
		fprintf(out, _("A warp's %u-byte reads are served %d lanes at a time, in %d phases.\n"),
		    a->element_bytes, BANKS_WARP / a->phases, a->phases);
	fputc('\n', out);
	fprintf(out, " %*s  %-*s %s\n", textwrap_field(_("bank"), 4), _("bank"),
	    textwrap_field(_("lanes"), 30), _("lanes"), _("words"));
	for (int b = 0; b < BANKS; b++) {
		unsigned int lanes[BANKS_WARP], words[BANKS_WARP * 4];
		int nl = 0, nw = 0;
		struct strbuf lb = { 0 }, wb = { 0 };

		for (int l = 0; l < BANKS_WARP; l++)
			for (unsigned int k = 0; k < a->words_per_lane; k++)
				if (a->word[l][k] % BANKS == (unsigned int)b) {
					sorted_insert(lanes, &nl, (unsigned int)l);
					sorted_insert(words, &nw, a->word[l][k]);
				}
		if (nl == 0) {
			fprintf(out, " %4d  %s\n", b, ".");
			continue;
		}
		add_list(&lb, lanes, nl);
		add_list(&wb, words, nw);
		fprintf(out, " %4d  %-30s %s\n", b, lb.s, wb.s);
		strbuf_free(&lb);
		strbuf_free(&wb);
	}
	fputc('\n', out);
	if (a->wavefronts == a->phases)
		fprintf(out, _("%d wavefront%s: no bank conflict (%d of %d banks used%s).\n"),
		    a->wavefronts, a->wavefronts == 1 ? "" : "s", a->banks_used, BANKS,
		    a->stride == 0 ? _(", one word broadcast to every lane") : "");
	else
		fprintf(out, _("%d wavefronts instead of %d: a %d-way bank conflict (the busiest bank "
		    "holds %d different words; %d of %d banks used).\n"),
		    a->wavefronts, a->phases, a->ways, a->ways, a->banks_used, BANKS);
}

/* ---- occupancy ------------------------------------------------------------- */

int cli_print_occupancy(FILE *out, const struct inspect_target *t, const char *arch,
    enum cli_format f, struct error *e)
{
	const struct occupancy_arch *oa = occupancy_arch_find(arch);
	const struct kernel_def *k = t->kernel;
	struct kernel_resources first;
	json_t *rows = NULL;

	if (oa == NULL) {
		error_set(e, _("the tutor has no occupancy rules for %s: pick one of sm_75, sm_80, sm_86, sm_89, sm_90, sm_100, sm_120 with --arch"),
		    arch);
		return -1;
	}
	if (inspect_resources(t, arch, &first, e) != 0)
		return -1;
	if (f == FORMAT_JSON)
		rows = json_array();
	else {
		fprintf(out, _("%s on %s: %d registers per thread, %d bytes of static shared memory\n"),
		    t->symbol, arch, first.registers, first.shared_bytes);
		fprintf(out, _("a multiprocessor holds %d threads (%d warps), %d blocks, %d registers, "
		    "%d KiB of shared memory\n\n"), oa->max_threads, oa->max_threads / 32,
		    oa->max_blocks, oa->registers, oa->shared_bytes / 1024);
		fprintf(out, " %*s %*s %*s %*s %*s  %s\n", textwrap_field(_("block"), 5), _("block"),
		    textwrap_field(_("regs"), 5), _("regs"), textwrap_field(_("blocks/SM"), 9), _("blocks/SM"),
		    textwrap_field(_("warps/SM"), 8), _("warps/SM"), textwrap_field(_("occupancy"), 9),
		    _("occupancy"), _("limited by"));
	}
	for (unsigned int block = 32; block <= 1024; block += block < 64 ? 32 : 64) {
		struct inspect_target bt = *t;
		struct kernel_resources res;
		struct occupancy o;
		char why[256], limits[128];

		if (registry_check_step(k, 1, block, why, sizeof why) != NULL)
			continue;
		/* one exported kernel per block size for some: each has its own report */
		registry_symbol(k, block, bt.symbol, sizeof bt.symbol);
		if (strcmp(bt.symbol, t->symbol) == 0)
			res = first;
		else if (inspect_resources(&bt, arch, &res, e) != 0) {
			json_decref(rows);
			return -1;
		}
		occupancy_compute(oa, res.registers, res.shared_bytes, (int)block, &o);
		occupancy_limits_text(o.limits, limits, sizeof limits);
		if (f == FORMAT_JSON)
			json_array_append_new(rows, json_pack("{s:i, s:i, s:i, s:i, s:f, s:s}",
			    "block", (int)block, "registers", res.registers, "blocks_per_sm", o.blocks,
			    "warps_per_sm", o.warps, "occupancy_pct", o.percent, "limited_by", limits));
		else if (o.blocks == 0)
			fprintf(out, _(" %5u %5d %9d %8d %9s  cannot launch: %s\n"), block, res.registers,
			    0, 0, "-", limits);
		else
			fprintf(out, " %5u %5d %9d %8d %8.1f%%  %s\n", block, res.registers, o.blocks,
			    o.warps, o.percent, limits);
	}
	if (f == FORMAT_JSON)
		print_json(out, json_pack("{s:s, s:s, s:i, s:i, s:o}", "kernel", t->symbol, "arch", arch,
		    "registers", first.registers, "shared_bytes", first.shared_bytes, "blocks", rows));
	return 0;
}

/* ---- instruction mix and diffs ---------------------------------------- */

void cli_print_resources(FILE *out, const char *kernel, const char *arch,
    const struct kernel_resources *r, enum cli_format f)
{
	if (f == FORMAT_JSON)
		fprintf(out, "{\"kernel\": \"%s\", \"arch\": \"%s\", \"registers\": %d, "
		    "\"barriers\": %d, \"shared_bytes\": %d, \"stack_bytes\": %d, "
		    "\"spill_store_bytes\": %d, \"spill_load_bytes\": %d, \"local_bytes\": %d}\n",
		    kernel, arch, r->registers, r->barriers, r->shared_bytes,
		    r->stack_bytes, r->spill_store_bytes, r->spill_load_bytes, r->local_bytes);
	else
		fprintf(out, _("%s on %s\n"
		    "  registers per thread  %d\n"
		    "  barriers              %d\n"
		    "  shared memory         %d bytes (static)\n"
		    "  stack frame           %d bytes\n"
		    "  spill stores/loads    %d / %d bytes\n"),
		    kernel, arch, r->registers, r->barriers, r->shared_bytes,
		    r->stack_bytes, r->spill_store_bytes, r->spill_load_bytes);
}

int cli_print_numbered(FILE *out, const struct inspect_target *t, bool sass, const char *arch,
    int only_line, struct error *e)
{
	int *lines = NULL, count = 0, shown = 0, i = 0;
	char *text = sass ? inspect_sass(t, arch, e) : inspect_source_numbered(t, &lines, &count, e);

	if (text == NULL)
		return -1;
	if (sass && inspect_sass_lines(t, arch, &lines, &count, e) != 0) {
		free(text);
		return -1;
	}
	for (char *ls = text; *ls != '\0'; i++) {
		char *nl = strchr(ls, '\n');
		int num = i < count ? lines[i] : 0;

		if (nl != NULL)
			*nl = '\0';
		if (only_line == 0 || num == only_line) {
			if (num > 0)
				fprintf(out, "%5d  %s\n", num, ls);
			else
				fprintf(out, "%5s  %s\n", "", ls);
			shown++;
		}
		if (nl == NULL)
			break;
		ls = nl + 1;
	}
	free(text);
	free(lines);
	if (only_line > 0 && shown == 0) {
		if (sass)
			error_set(e, _("no instruction of %s comes from line %d of kernels/%s.cu (see show --source --lines)"),
			    t->symbol, only_line, t->kernel->module);
		else
			error_set(e, _("line %d is not part of %s's source (see show --source --lines)"),
			    only_line, t->symbol);
		return -1;
	}
	return 0;
}

static json_t *resources_to_json(const struct kernel_resources *r)
{
	return json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i}", "registers", r->registers,
	    "barriers", r->barriers, "shared_bytes", r->shared_bytes, "stack_bytes", r->stack_bytes,
	    "spill_store_bytes", r->spill_store_bytes, "spill_load_bytes", r->spill_load_bytes,
	    "local_bytes", r->local_bytes);
}

/* "  label            n", the numbers in one column whatever the label's language */
static void cli_label_row(FILE *out, const char *label, int n)
{
	fprintf(out, "  %-*s %6d\n", textwrap_field(label, 38), label, n);
}

void cli_print_stats(FILE *out, const char *kernel, const char *arch, const struct sass_mix *m,
    int in_flight, const struct kernel_resources *r, enum cli_format f)
{
	if (f == FORMAT_JSON) {
		json_t *j = json_pack("{s:s, s:s, s:o, s:i}", "kernel", kernel, "arch", arch,
		    "mix", sass_mix_to_json(m), "load_bytes_in_flight", in_flight);
		if (r != NULL)
			json_object_set_new(j, "resources", resources_to_json(r));
		print_json(out, j);
		return;
	}
	if (f == FORMAT_CSV) {
		fputs("kernel,arch,kind,count\n", out);
		for (int k = 0; k < SASS_KIND_COUNT; k++)
			fprintf(out, "%s,%s,%s,%d\n", kernel, arch, sass_kind_key(k), m->n[k]);
		return;
	}
	fprintf(out, _("%s on %s\n\n"), kernel, arch);
	for (int k = 0; k < SASS_KIND_COUNT; k++)
		if (m->n[k] != 0 || k == SASS_TOTAL)
			cli_label_row(out, sass_kind_label(k), m->n[k]);
	/* what Little's law counts: the loads one thread issues before it waits for the first */
	cli_label_row(out, _("load bytes in flight per thread"), in_flight);
	if (r != NULL) {
		fputc('\n', out);
		cli_label_row(out, _("registers per thread"), r->registers);
		cli_label_row(out, _("barriers used"), r->barriers);
		cli_label_row(out, _("shared memory, static (bytes)"), r->shared_bytes);
		cli_label_row(out, _("stack frame (bytes)"), r->stack_bytes);
		cli_label_row(out, _("spill stores (bytes)"), r->spill_store_bytes);
		cli_label_row(out, _("spill loads (bytes)"), r->spill_load_bytes);
	}
}

/* s cut to w columns (SASS is ASCII), padded to w if pad. */
static void fit(FILE *out, const char *s, int w, int pad)
{
	int n = (int)strlen(s);

	if (n > w) {
		fprintf(out, "%.*s~", w - 1, s);
	} else {
		fputs(s, out);
		for (; pad && n < w; n++)
			fputc(' ', out);
	}
}

/* The diff as JSON: both mixes, the change in each kind, the aligned rows. */
static void print_diff_json(FILE *out, const struct compare *c)
{
	const struct sass_diff *d = &c->diff;
	const struct sass_mix *ma = &c->ma, *mb = &c->mb;
	json_t *change = json_object(), *rows = json_array();
	char ta[256], tb[256];

	for (int k = 0; k < SASS_KIND_COUNT; k++)
		json_object_set_new(change, sass_kind_key(k), json_integer(mb->n[k] - ma->n[k]));
	for (int r = 0; r < d->count; r++) {
		json_t *row = json_object();
		const char *op = d->rows[r].a < 0 ? "+" : d->rows[r].b < 0 ? "-" : "=";
		json_object_set_new(row, "op", json_string(op));
		if (d->rows[r].a >= 0) {
			sass_insn_text(&c->la.insns[d->rows[r].a], ta, sizeof ta);
			json_object_set_new(row, "a", json_string(ta));
		}
		if (d->rows[r].b >= 0) {
			sass_insn_text(&c->lb.insns[d->rows[r].b], tb, sizeof tb);
			json_object_set_new(row, "b", json_string(tb));
		}
		json_array_append_new(rows, row);
	}
	print_json(out, json_pack("{s:s, s:{s:s, s:o}, s:{s:s, s:o}, s:o, s:{s:i, s:i, s:i, s:o}}",
	    "arch", c->arch, "a", "kernel", c->a.symbol, "mix", sass_mix_to_json(ma),
	    "b", "kernel", c->b.symbol, "mix", sass_mix_to_json(mb), "change", change,
	    "sass", "kept", d->kept, "removed", d->removed, "added", d->added, "rows", rows));
}

/* The two kernels' instruction mixes, kind by kind, and the count of rows kept, removed and added. */
static void print_diff_mix(FILE *out, const struct compare *c)
{
	const struct sass_mix *ma = &c->ma, *mb = &c->mb;
	enum sass_kind kinds[SASS_KIND_COUNT];
	int nk = sass_mix_rows(ma, mb, kinds);

	fprintf(out, _("%s -> %s, SASS for %s\n\n"), c->a.symbol, c->b.symbol, c->arch);
	fprintf(out, "  %-38s %8s %8s %*s\n", "", "A", "B", textwrap_field(_("change"), 8), _("change"));
	for (int i = 0; i < nk; i++) {
		enum sass_kind k = kinds[i];
		fprintf(out, "  %-*s %8d %8d ", textwrap_field(sass_kind_label(k), 38), sass_kind_label(k),
		    ma->n[k], mb->n[k]);
		if (mb->n[k] != ma->n[k])
			fprintf(out, "%+8d\n", mb->n[k] - ma->n[k]);
		else
			fprintf(out, "%8s\n", "=");
	}
	fprintf(out, _("\nSASS aligned by opcode: %d kept, %d removed (-), %d added (+)\n\n"),
	    c->diff.kept, c->diff.removed, c->diff.added);
}

/* The aligned SASS in two columns, A on the left. */
static void print_diff_columns(FILE *out, const struct compare *c, int width)
{
	const struct sass_diff *d = &c->diff;
	int col = (width - 5) / 2;
	char ta[256], tb[256];

	fprintf(out, "  ");
	fit(out, c->a.symbol, col, 1);
	fprintf(out, "   ");
	fit(out, c->b.symbol, col, 0);
	fputc('\n', out);
	for (int r = 0; r < d->count; r++) {
		const char *mark = d->rows[r].a < 0 ? "+" : d->rows[r].b < 0 ? "-" : " ";
		ta[0] = tb[0] = '\0';
		if (d->rows[r].a >= 0)
			sass_insn_text(&c->la.insns[d->rows[r].a], ta, sizeof ta);
		if (d->rows[r].b >= 0)
			sass_insn_text(&c->lb.insns[d->rows[r].b], tb, sizeof tb);
		fprintf(out, "%s ", mark);
		fit(out, ta, col, 1);
		fputs(" | ", out);
		fit(out, tb, col, 0);
		fputc('\n', out);
	}
}

/* The aligned SASS in one column, as a unified diff: B's rows, and A's removed marked '-'. */
static void print_diff_unified(FILE *out, const struct compare *c, int width)
{
	const struct sass_diff *d = &c->diff;
	char ta[256];

	for (int r = 0; r < d->count; r++) {
		if (d->rows[r].b < 0) {
			sass_insn_text(&c->la.insns[d->rows[r].a], ta, sizeof ta);
			fputs("- ", out);
		} else {
			sass_insn_text(&c->lb.insns[d->rows[r].b], ta, sizeof ta);
			fputs(d->rows[r].a < 0 ? "+ " : "  ", out);
		}
		fit(out, ta, width > 10 ? width - 3 : 77, 0);
		fputc('\n', out);
	}
}

void cli_print_diff(FILE *out, const struct compare *c, int width, enum cli_format f)
{
	if (f == FORMAT_JSON) {
		print_diff_json(out, c);
		return;
	}
	print_diff_mix(out, c);
	if (width >= COMPARE_SIDE_BY_SIDE_COLS)
		print_diff_columns(out, c, width);
	else
		print_diff_unified(out, c, width);
}

/* ---- lesson text ------------------------------------------------------------ */

/* Render the top-level nodes [from, to) as plain text, counts filled in. */
static void print_section(FILE *out, const struct lesson *l, cmark_node *from, cmark_node *to,
    const struct kernel_def *k, const char *arch, int width)
{
	for (cmark_node *n = from; n != NULL && n != to; n = cmark_node_next(n)) {
		const char *info = cmark_node_get_type(n) == CMARK_NODE_CODE_BLOCK ?
		    cmark_node_get_fence_info(n) : NULL;
		char *text;

		if (info != NULL && strcmp(info, "step") == 0)
			continue;	/* the step block is for the tutor, not the reader */
		if (info != NULL && strcmp(info, "summary") == 0) {
			/* drawn from the recorded files, as the tutor draws it */
			char **lines;
			int n = lesson_summary(l, width, true, &lines);

			for (int i = 0; i < n; i++) {
				/* the table's rows fit; its first and last lines are sentences, wrapped */
				char *text = i == 0 || i == n - 1 ? textwrap(lines[i], width) : xstrdup(lines[i]);

				fprintf(out, "%s\n", text);
				free(text);
			}
			fputc('\n', out);
			lesson_summary_free(lines, n);
			continue;
		}
		counts_expand_nodes(n, cmark_node_next(n), k, RESULTS_DEFAULT_BLOCK, arch);
		if (cmark_node_get_type(n) == CMARK_NODE_CODE_BLOCK ||
		    strcmp(cmark_node_get_type_string(n), "table") == 0) {
			text = cmark_render_plaintext(n, CMARK_OPT_DEFAULT, width);
		} else {
			/*
			 * cmark wraps by characters and only at spaces, which
			 * leaves Chinese lines twice too wide: render each
			 * paragraph on one line and wrap by columns here.
			 */
			char *flat = cmark_render_plaintext(n, CMARK_OPT_DEFAULT | CMARK_OPT_NOBREAKS, 0);
			text = textwrap(flat, width);
			free(flat);
		}
		fputs(text, out);
		fputc('\n', out);
		free(text);
	}
}

void cli_print_lesson(FILE *out, const struct lesson *l, int only, const char *arch, int width)
{
	if (only == 0) {
		fprintf(out, "%s\n\n", l->title);
		print_section(out, l, cmark_node_next(cmark_node_first_child(l->doc)),
		    l->nsteps ? l->steps[0].heading : NULL, NULL, arch, width);
	}
	for (int i = 0; i < l->nsteps; i++) {
		const struct lesson_step *s = &l->steps[i];

		if (only != 0 && only != i + 1)
			continue;
		fprintf(out, _("Step %d: %s  [%s]\n\n"), i + 1, s->title, s->kernel->name);
		print_section(out, l, cmark_node_next(s->heading),
		    i + 1 < l->nsteps ? l->steps[i + 1].heading : NULL, s->kernel, arch, width);
	}
}

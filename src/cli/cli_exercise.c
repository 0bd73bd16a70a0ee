/* The batch view of the exercises: the list, a task, a check's report. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli_exercise.h"
#include "diagnosis.h"
#include "i18n.h"
#include "textwrap.h"

/* "passed, best 0.0251 ms on NVIDIA H200", "started", "not started" */
static void status_words(const struct progress_exercise *p, char *buf, size_t len)
{
	if (p == NULL)
		snprintf(buf, len, "%s", _("not started"));
	else if (p->passed && p->best_ms > 0)
		snprintf(buf, len, _("passed, best %.4f ms on %s"), p->best_ms, p->gpu);
	else if (p->passed)
		snprintf(buf, len, "%s", _("passed"));
	else
		snprintf(buf, len, "%s", _("started"));
}

/* One exercise as the list's JSON has it: what it is and how far the student is. */
static json_t *entry_json(const struct exercise_entry *x)
{
	const struct progress_exercise *p = x->progress;

	return json_pack("{s:s, s:s, s:s, s:s, s:s?, s:i, s:b, s:b, s:o, s:s?}",
	    "id", x->def->id, "lesson", x->def->lesson, "target", x->def->target,
	    "start_from", x->def->start_from,
	    "title", x->section != NULL ? x->section->title : NULL,
	    "hints", x->section != NULL ? x->section->nhints : 0,
	    "started", p != NULL,
	    "passed", p != NULL && p->passed,
	    "best_ms", p != NULL && p->best_ms > 0 ? json_real(p->best_ms) : json_null(),
	    "gpu", p != NULL && p->gpu[0] ? p->gpu : NULL);
}

static void print_json_value(FILE *out, json_t *j)
{
	char *text = json_dumps(j, JSON_INDENT(2));

	fprintf(out, "%s\n", text);
	free(text);
	json_decref(j);
}

void cli_print_exercises(FILE *out, const struct exercise_entry *list, int n, enum cli_format f)
{
	char status[256];

	if (f == FORMAT_JSON) {
		json_t *a = json_array();

		for (int i = 0; i < n; i++)
			json_array_append_new(a, entry_json(&list[i]));
		print_json_value(out, a);
		return;
	}
	fprintf(out, " %-*s %-*s %-*s  %s\n", textwrap_field(_("exercise"), 18), _("exercise"),
	    textwrap_field(_("lesson"), 16), _("lesson"), textwrap_field(_("writes"), 30), _("writes"),
	    _("status"));
	for (int i = 0; i < n; i++) {
		const struct exercise_entry *x = &list[i];

		status_words(x->progress, status, sizeof status);
		fprintf(out, " %-18s %-16s %-30s  %s\n", x->def->id, x->def->lesson, x->def->target, status);
		if (x->section != NULL)
			fprintf(out, " %-18s %s\n", "", x->section->title);
	}
	fprintf(out, "\n%s\n", _("Start one with: cudatutor exercise ID; check it with: cudatutor check ID"));
}

void cli_print_exercise_task(FILE *out, const struct exercise_entry *x, const char *path,
    bool created, enum cli_format f)
{
	if (f == FORMAT_JSON) {
		json_t *o = entry_json(x);

		/* started now, whatever the list said before */
		json_object_set_new(o, "started", json_true());
		json_object_set_new(o, "file", json_string(path));
		json_object_set_new(o, "created", json_boolean(created));
		json_object_set_new(o, "task", x->section != NULL ? json_string(x->section->task) : json_null());
		print_json_value(out, o);
		return;
	}
	if (x->section != NULL) {
		fprintf(out, "%s\n\n", x->section->title);
		fprintf(out, "%s\n", x->section->task);
	}
	fprintf(out, _("It writes %s, starting from %s, in lesson '%s'.\n"), x->def->target,
	    x->def->start_from, x->def->lesson);
	fprintf(out, created ? _("Your working copy, new: %s\n") : _("Your working copy: %s\n"), path);
	fprintf(out, _("Edit it, then: cudatutor check %s (hints: cudatutor hint %s)\n"), x->def->id,
	    x->def->id);
}

static const char *yes_no(bool ok)
{
	return ok ? _("ok") : _("FAIL");
}

static json_t *report_json(const struct exercise_report *r)
{
	const struct exercise_result *c = &r->compiled;
	json_t *checks = json_array(), *sizes = json_array(), *executed = json_array();
	char what[256];

	for (int i = 0; r->sass_checked && i < r->verdict.count; i++) {
		const struct exercise_check_outcome *o = &r->verdict.checks[i];
		exercise_check_describe(o, what, sizeof what);
		/* the message says what the kernel still lacks: none where it lacks nothing */
		json_array_append_new(checks, json_pack("{s:s, s:b, s:i, s:s?}", "check", what,
		    "passed", o->passed, "found", o->found, "message", o->passed ? NULL : o->message));
	}
	for (int i = 0; r->executed_checked && i < r->executed.count; i++) {
		const struct exercise_check_outcome *o = &r->executed.checks[i];
		exercise_check_describe(o, what, sizeof what);
		json_array_append_new(executed, json_pack("{s:s, s:b, s:i}", "check", what,
		    "passed", o->passed, "found", o->found));
	}
	for (int i = 0; r->gpu && i < r->run.nsizes; i++) {
		const struct exercise_size_check *z = &r->run.sizes[i];
		json_array_append_new(sizes, json_pack("{s:I, s:i, s:b, s:b, s:b, s:b, s:b, s:s, s:s}", "size",
		    (json_int_t)z->size, "block", (int)z->block, "random", z->random, "reversed", z->reversed,
		    "held", z->held, "ran", z->ran, "correct", z->correct, "detail", z->detail, "error", z->error));
	}
	json_t *j = json_pack("{s:s, s:s?, s:s, s:b, s:f, s:s, s:s?, s:b, s:o, s:s?, s:b, s:s?, s:o, s:o, s:o, s:o, s:o, s:b}",
	    "exercise", r->def->id, "file", c->path, "arch", c->arch, "compiled", c->ok,
	    "compile_s", c->compile_seconds,
	    "diagnostics", c->diagnostics ? c->diagnostics : "", "problem", c->problem,
	    "sass_checked", r->sass_checked, "checks", checks,
	    "sass_error", r->sass_error[0] ? r->sass_error : NULL,
	    "gpu", r->gpu, "no_gpu", r->no_gpu[0] ? r->no_gpu : NULL, "sizes", sizes,
	    "timed", r->gpu && r->run.timed ? results_report_to_json(&r->run.report) : json_null(),
	    "ratio", r->gpu && r->run.timed ? json_real(r->run.ratio) : json_null(),
	    "faster_than_possible", r->gpu && r->run.timed ? json_boolean(r->run.impossible) : json_null(),
	    "start_ratio", r->gpu && r->run.timed && r->run.start_ratio > 0 ? json_real(r->run.start_ratio) : json_null(),
	    "passed", r->passed);
	json_object_set_new(j, "seed", r->gpu ? json_integer((json_int_t)r->seed) : json_null());
	{
		json_t *tools = json_array();

		for (int i = 0; i < r->ntools; i++)
			json_array_append_new(tools, json_pack("{s:s, s:b, s:o, s:s?}", "tool", r->tools[i].name,
			    "ran", r->tools[i].ran, "clean", r->tools[i].ran ? json_boolean(r->tools[i].clean) : json_null(),
			    "note", r->tools[i].note[0] ? r->tools[i].note : NULL));
		json_object_set_new(j, "tools", tools);
	}
	/* where the check's time went, part by part (on a GPU) */
	json_object_set_new(j, "seconds", !r->gpu ? json_null() : json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}",
	    "compile", c->compile_seconds, "answers", r->seconds.answers, "reversed", r->seconds.reversed,
	    "held", r->seconds.held, "timing", r->seconds.timing, "tools", r->seconds.tools, "executed", r->seconds.executed,
	    "dram", r->seconds.dram));
	/* blocks in reverse order: run (its wrong size, if any, is among sizes), or why not, or null */
	json_object_set_new(j, "reversed_blocks", !r->gpu || (!r->reversed_ran && r->reversed_note[0] == '\0') ?
	    json_null() : json_pack("{s:b, s:s?}", "ran", r->reversed_ran,
	    "note", r->reversed_note[0] ? r->reversed_note : NULL));
	/* beside a load that holds half the GPU: the same */
	json_object_set_new(j, "half_gpu_held", !r->gpu || (!r->held_ran && r->held_note[0] == '\0') ?
	    json_null() : json_pack("{s:b, s:s?}", "ran", r->held_ran,
	    "note", r->held_note[0] ? r->held_note : NULL));
	/* each timed step, yours too, with what holds it back (shown, never stored) */
	if (r->gpu && r->run.timed)
		diagnosis_add_to_json(json_object_get(j, "timed"), &r->run.report);
	/* false: no GPU judged the answers and the time, so "passed" can only be false */
	json_object_set_new(j, "graded", json_boolean(session_exercise_graded(r)));
	json_object_set_new(j, "unjudged", r->unjudged[0] ? json_string(r->unjudged) : json_null());
	{
		/* what a grade book needs, without reading the timed report: why not, and the times */
		char reason[1024];

		session_exercise_reason(r, reason, sizeof reason);
		json_t *why = json_string(reason);
		/* a compiler's line may quote a source that is not UTF-8: the line in ASCII then */
		for (char *q = reason; why == NULL && *q != '\0'; q++)
			if ((unsigned char)*q >= 0x80)
				*q = '?';
		if (why == NULL)
			why = json_string(reason);
		json_object_set_new(j, "reason", r->passed ? (json_decref(why), json_null()) : why);
		json_object_set_new(j, "gpu_name", r->gpu && r->run.timed ? json_string(r->run.report.gpu.name) : json_null());
		json_object_set_new(j, "yours_ms", r->gpu && r->run.timed ? json_real(r->run.report.steps[2].median_ms) : json_null());
		json_object_set_new(j, "reference_ms", r->gpu && r->run.timed ? json_real(r->run.report.steps[1].median_ms) :
		    json_null());
	}
	json_object_set_new(j, "executed_checked", json_boolean(r->executed_checked));
	json_object_set_new(j, "executed_checks", executed);
	json_object_set_new(j, "executed_note", r->executed_note[0] ? json_string(r->executed_note) : json_null());
	return j;
}

/* Each check of a verdict: ok or FAIL, what it counted, and what is missing when it failed. */
static void print_checks(FILE *out, const struct exercise_verdict *v)
{
	char what[256];

	for (int i = 0; i < v->count; i++) {
		const struct exercise_check_outcome *o = &v->checks[i];

		const char *word = o->hint ? "-" : yes_no(o->passed);	/* a hint is shown, never judged */

		exercise_check_describe(o, what, sizeof what);
		fprintf(out, "  %-*s  %s\n", textwrap_field(word, 4), word, what);
		if (!o->passed)
			fprintf(out, "        %s\n", o->message);
	}
}

bool cli_print_exercise_answers(FILE *out, const struct exercise_report *r)
{
	const struct exercise_result *c = &r->compiled;

	fprintf(out, _("exercise %s: %s, for %s\n"), r->def->id, c->path ? c->path : "?", c->arch);
	if (c->diagnostics != NULL && c->diagnostics[0] != '\0')
		fprintf(out, "%s%s", c->diagnostics,
		    c->diagnostics[strlen(c->diagnostics) - 1] == '\n' ? "" : "\n");
	if (!c->ok) {
		fprintf(out, "%s\n", _("It does not compile yet: fix the errors above and check again."));
		return false;
	}
	if (c->problem != NULL) {
		fprintf(out, "%s\n", c->problem);
		return false;
	}
	if (!r->sass_checked && r->sass_skipped) {
		/* run again under a tool: the first check judged the SASS */
	} else if (!r->sass_checked) {
		fprintf(out, _("The SASS checks could not run: %s\n"), r->sass_error);
	} else {
		fprintf(out, "\n%s\n", _("In the SASS (counted in the compiled code: code that never runs "
		    "counts too):"));
		print_checks(out, &r->verdict);
	}
	if (!r->gpu) {
		fprintf(out, _("\nOn the GPU: not run: %s.  The compile and the SASS checks above are all "
		    "that can be checked here.\n"), r->no_gpu);
		fprintf(out, "  %s\n  %s\n", _("answers: not judged (no GPU)"),
		    _("time: not judged (no GPU); the time is what shows a flaw the SASS cannot, such as "
		    "divergence or scattered accesses"));
		if (r->sass_checked && r->verdict.passed)
			fprintf(out, "%s\n", _("The SASS checks pass; that is all that was judged. On a GPU, "
			    "check also runs your kernel at several sizes against the CPU and times it beside ours."));
		return false;
	}
	fprintf(out, _("\nOn the GPU (%s), against the CPU, inputs drawn from seed %llu:\n"),
	    r->run.report.gpu.name[0] ? r->run.report.gpu.name : _("this GPU"), r->seed);
	for (int i = 0; i < r->run.nsizes; i++) {
		const struct exercise_size_check *z = &r->run.sizes[i];
		char where[160];

		session_exercise_size_words(z, where, sizeof where);
		if (!z->ran)
			fprintf(out, _("  FAIL  %s: %s\n"), where, z->error);
		else
			fprintf(out, "  %-*s  %s: %s\n", textwrap_field(yes_no(z->correct), 4),
			    yes_no(z->correct), where, z->detail);
	}
	/* its blocks meet through global atomics: the same sizes again with block 0 starting last */
	if (r->reversed_ran && r->run.correct)
		fprintf(out, "  %-*s  %s\n", textwrap_field(yes_no(true), 4), yes_no(true),
		    _("every size again with its blocks started in reverse order (blocks may start in any order)"));
	else if (!r->reversed_ran && r->reversed_note[0] != '\0')
		fprintf(out, _("  -     blocks in reverse order: %s\n"), r->reversed_note);
	/* and so with half the GPU held by another kernel: its blocks cannot all run at once */
	if (r->held_ran && r->run.correct)
		fprintf(out, "  %-*s  %s\n", textwrap_field(yes_no(true), 4), yes_no(true),
		    _("every size again so, while another kernel held half of the GPU (a launch's blocks need not all "
		    "run at once)"));
	else if (!r->held_ran && r->held_note[0] != '\0')
		fprintf(out, _("  -     half of the GPU held: %s\n"), r->held_note);
	/* the seed repeats the random size and every input: the one line a student needs */
	if (!r->run.correct)
		fprintf(out, _("  to repeat this check, the same sizes and inputs: cudatutor check %s --seed %llu\n"),
		    r->def->id, r->seed);
	return true;
}

/* What holds yours back, in a sentence, where its place against the roof says (no counters are read here). */
static void print_yours_diagnosis(FILE *out, const struct exercise_report *r)
{
	struct diagnosis d;
	char text[1024];
	char *wrapped;

	if (!diagnose_in_run(&r->run.report, 2, &d))
		return;
	wrapped = textwrap(diagnosis_text(&d, r->def->lesson, true, text, sizeof text), 78);
	fprintf(out, "%s%s\n", _("What holds yours back: "), wrapped);
	free(wrapped);
}

void cli_print_exercise_timing(FILE *out, const struct exercise_report *r)
{
	if (r->run.timed) {
		fputc('\n', out);
		cli_print_report(out, &r->run.report, NULL, FORMAT_TEXT);
		const struct roof_point *q = &r->run.report.steps[2].roof;

		char ratio[16];

		fprintf(out, _("\nYours takes %sx the reference's time (passing asks for at most %.2fx).\n"),
		    session_exercise_ratio_text(r->run.ratio, ratio, sizeof ratio), SESSION_EXERCISE_SLACK);
		if (r->run.retimed)
			fprintf(out, "%s\n", _("(It was just past that: both were timed again, and each kept its faster time.)"));
		if (r->run.impossible)
			fprintf(out, "%s\n", _("FAIL: yours ran faster than this GPU can do the work, and ours did not: it did not do "
			    "the work it was timed on (an answer kept from an earlier run, say)."));
		else if (q->have && q->roof_exceeded)
			fprintf(out, "%s\n", _("It ran faster than this GPU's roof allows: a measurement error, not a result."));
		else if (q->have && q->roof > 0)
			/* TRANSLATORS: the roof is "dram" or "fp32"; its figure is in GB/s or GFLOP/s */
			fprintf(out, _("That is %.1f%% of this GPU's %s roof (%.0f %s, measured; cudatutor roofline %s draws it).\n"),
			    q->pct_of_roof, roofs_limiter_name(q->limiter), q->roof, roofs_limiter_unit(q->limiter),
			    r->def->lesson);
		print_yours_diagnosis(out, r);
	}
}

/* What a verdict rests on, in one line: each kind of evidence that was judged. */
static void print_rests_on(FILE *out, const struct exercise_report *r)
{
	const struct exercise_check_outcome *dram;
	struct strbuf b = { 0 };
	int blocks = 0, clean = 0, ran = 0;

	for (int i = 0; i < r->run.nsizes; i++) {
		bool seen = false;

		for (int j = 0; j < i; j++)
			seen |= r->run.sizes[j].block == r->run.sizes[i].block;
		blocks += !seen;
	}
	strbuf_addf(&b, _("answers at %d sizes and %d block sizes, inputs from seed %llu"), r->run.nsizes, blocks,
	    r->seed);
	for (int i = 0; i < r->ntools; i++) {
		ran += r->tools[i].ran;
		clean += r->tools[i].ran && r->tools[i].clean;
	}
	if (r->reversed_ran)
		strbuf_addf(&b, "%s", _("; the answers again with its blocks in reverse order"));
	if (r->held_ran)
		strbuf_addf(&b, "%s", _("; and so again with half of the GPU held by another kernel"));
	if (ran > 0)
		strbuf_addf(&b, _("; %d of %d compute-sanitizer tools clean"), clean, ran);
	strbuf_addf(&b, "; %s", r->executed_checked ? _("the technique in the SASS and where it ran") :
	    _("the technique in the SASS"));
	if (r->executed_checked && (dram = exercise_dram_judged(&r->executed)) != NULL) {
		unsigned long long sizes[EXERCISE_DRAM_SIZES];

		exercise_dram_sizes(dram->check, sizes);
		strbuf_addf(&b, _("; its device-memory reads at n = %llu and %llu against ours"), sizes[0], sizes[1]);
	}
	if (r->run.timed && r->run.start_ratio > 0 && r->run.start_ratio <= SESSION_EXERCISE_SLACK)
		/* the starting file itself passes the time here: the time shows a slower kernel, not the technique */
		strbuf_addf(&b, _("; the time against the reference's, which cannot tell the technique here (the "
		    "starting file takes %.2fx the reference's time)"), r->run.start_ratio);
	else if (r->run.timed)
		strbuf_addf(&b, _("; the time against the reference's"));
	fprintf(out, _("The verdict rests on: %s.\n"), b.s);
	strbuf_free(&b);
}

void cli_print_exercise_verdict(FILE *out, const struct exercise_report *r)
{
	if (r->ntools > 0) {
		fprintf(out, "\n%s\n", _("compute-sanitizer, over the same sizes and inputs:"));
		for (int i = 0; i < r->ntools; i++) {
			const struct exercise_tool *t = &r->tools[i];
			const char *word = !t->ran ? "-" : yes_no(t->clean);

			fprintf(out, "  %-*s  %s%s%s\n", textwrap_field(word, 4), word, t->name,
			    t->note[0] ? ": " : _(": nothing found"), t->note);
		}
		fprintf(out, "  %s\n", _("(no tool sees a race in global memory: only a wrong answer on the GPU shows it)"));
	}
	if (r->executed_checked) {
		fprintf(out, "\n%s\n", _("Where it ran (the instructions executed at least once, read by Nsight Compute):"));
		print_checks(out, &r->executed);
	} else if (r->executed_note[0] != '\0') {
		fprintf(out, _("\nNot checked where it ran (%s): the SASS checks count the compiled code, "
		    "whether or not it runs.\n"), r->executed_note);
	}
	if (r->passed)
		fprintf(out, r->new_best ? _("\nPASSED, and your best time on this GPU.\n") : _("\nPASSED.\n"));
	else if (r->unjudged[0] != '\0')
		fprintf(out, _("\nNOT GRADED: %s. The technique of this exercise shows only as the kernel runs.\n"),
		    r->unjudged);
	else
		fprintf(out, "\n%s\n", _("Not yet: see what failed above (cudatutor hint shows the next hint)."));
	if (r->gpu)
		print_rests_on(out, r);
}

void cli_print_exercise_report(FILE *out, const struct exercise_report *r, enum cli_format f)
{
	if (f == FORMAT_JSON) {
		json_t *j = report_json(r);
		char *text = json_dumps(j, JSON_INDENT(2));
		fprintf(out, "%s\n", text);
		free(text);
		json_decref(j);
		return;
	}
	if (cli_print_exercise_answers(out, r)) {
		cli_print_exercise_timing(out, r);
		cli_print_exercise_verdict(out, r);
	}
}

/* The batch view of a class: each exercise's board, and the grade book as CSV or JSON. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli_class.h"
#include "i18n.h"
#include "textwrap.h"

const char *cli_class_word(const struct class_entry *x)
{
	switch (x->state) {
	case CLASS_JUDGED:
		return x->v.passed ? _("passed") : x->v.graded ? _("FAIL") : _("not graded");
	case CLASS_JUDGING:
		return _("judging");
	case CLASS_WAITING:
		return _("waiting");
	case CLASS_OLDER:
		return _("older");
	default:
		return _("bad file");
	}
}

void cli_class_detail(const struct class_board *b, const struct class_entry *x, char *buf, size_t len)
{
	const char *other = _("made for another version of the exercise");
	bool marked = x->state != CLASS_BAD && x->other_version;

	switch (x->state) {
	case CLASS_JUDGED:
		/* its SASS passed, and no GPU graded the rest */
		if (!x->v.graded && x->v.sass_checks > 0 && x->v.sass_passed == x->v.sass_checks)
			snprintf(buf, len, _("SASS %d of %d checks; not judged: no GPU"), x->v.sass_passed,
			    x->v.sass_checks);
		else if (x->v.passed)
			buf[0] = '\0';
		else
			snprintf(buf, len, "%s", x->v.reason);
		if (marked)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s(%s)", buf[0] ? " " : "", other);
		return;
	case CLASS_OLDER:
		snprintf(buf, len, _("%s of the same name is newer and counts instead"), b->entries[x->newer].file);
		return;
	case CLASS_BAD:
		snprintf(buf, len, "%s", x->problem);
		return;
	default:
		snprintf(buf, len, marked ? "(%s)" : "", other);
		return;
	}
}

/* A CSV cell: quoted when it must be; a text a spreadsheet would run as a formula is kept as text. */
static void csv_cell(FILE *out, const char *s, bool last)
{
	bool formula = s[0] != '\0' && strchr("=+-@", s[0]) != NULL;
	bool quote = formula || strpbrk(s, ",\"\n\r") != NULL;

	if (!quote) {
		fputs(s, out);
	} else {
		fputc('"', out);
		if (formula)
			fputc('\'', out);
		for (const char *q = s; *q != '\0'; q++) {
			if (*q == '"')
				fputc('"', out);
			fputc(*q, out);
		}
		fputc('"', out);
	}
	fputc(last ? '\n' : ',', out);
}

static void print_csv(FILE *out, const struct class_board *b, const int *order)
{
	char detail[1024], num[64];

	fputs("exercise,rank,name,verdict,reason,ms,reference_ms,ratio,gpu,seed,file,sha256,other_version\n", out);
	for (int k = 0; k < b->n; k++) {
		const struct class_entry *x = &b->entries[order[k]];
		bool timed = x->state == CLASS_JUDGED && x->v.ms > 0;

		cli_class_detail(b, x, detail, sizeof detail);
		csv_cell(out, x->state == CLASS_BAD ? "" : x->sub.exercise, false);
		snprintf(num, sizeof num, "%d", x->rank);
		csv_cell(out, x->rank > 0 ? num : "", false);
		csv_cell(out, x->state == CLASS_BAD ? "" : x->sub.name, false);
		csv_cell(out, cli_class_word(x), false);
		csv_cell(out, detail, false);
		snprintf(num, sizeof num, "%.6f", x->v.ms);
		csv_cell(out, timed ? num : "", false);
		snprintf(num, sizeof num, "%.6f", x->v.reference_ms);
		csv_cell(out, timed ? num : "", false);
		snprintf(num, sizeof num, "%.3f", x->v.ratio);
		csv_cell(out, timed ? num : "", false);
		csv_cell(out, x->state == CLASS_JUDGED ? x->v.gpu : "", false);
		snprintf(num, sizeof num, "%llu", x->v.seed);
		csv_cell(out, x->state == CLASS_JUDGED && x->v.seed ? num : "", false);
		csv_cell(out, x->file, false);
		csv_cell(out, x->state == CLASS_BAD ? "" : x->sub.sha256, false);
		csv_cell(out, x->state != CLASS_BAD && x->other_version ? "yes" : "", true);
	}
}

static void print_json(FILE *out, const struct class_board *b, const int *order)
{
	json_t *list = json_array(), *gpus = json_array(), *root;
	char detail[1024];
	char *text;

	/* each GPU once: its slots come per_gpu times */
	for (int s = 0; b->gpu && s < b->nslots / b->per_gpu; s++)
		json_array_append_new(gpus, json_string(b->slot_gpu[s]));
	for (int k = 0; k < b->n; k++) {
		const struct class_entry *x = &b->entries[order[k]];
		bool judged = x->state == CLASS_JUDGED, timed = judged && x->v.ms > 0;
		json_t *o;

		cli_class_detail(b, x, detail, sizeof detail);
		o = json_pack("{s:s, s:s, s:s}", "file", x->file, "verdict", cli_class_word(x), "detail", detail);
		if (x->state != CLASS_BAD) {
			json_object_set_new(o, "exercise", json_string(x->sub.exercise));
			json_object_set_new(o, "name", json_string(x->sub.name));
			json_object_set_new(o, "sha256", json_string(x->sub.sha256));
			json_object_set_new(o, "other_version", json_boolean(x->other_version));
		}
		json_object_set_new(o, "rank", x->rank > 0 ? json_integer(x->rank) : json_null());
		json_object_set_new(o, "graded", json_boolean(judged && x->v.graded));
		json_object_set_new(o, "passed", json_boolean(judged && x->v.passed));
		json_object_set_new(o, "reason", judged && !x->v.passed ? json_string(x->v.reason) : json_null());
		json_object_set_new(o, "ms", timed ? json_real(x->v.ms) : json_null());
		json_object_set_new(o, "reference_ms", timed ? json_real(x->v.reference_ms) : json_null());
		json_object_set_new(o, "ratio", timed ? json_real(x->v.ratio) : json_null());
		json_object_set_new(o, "gpu", judged && x->v.gpu[0] ? json_string(x->v.gpu) : json_null());
		json_object_set_new(o, "seed", judged && x->v.seed ? json_integer((json_int_t)x->v.seed) : json_null());
		json_object_set_new(o, "sass_checks", judged && x->v.sass_checks ?
		    json_pack("{s:i, s:i}", "passed", x->v.sass_passed, "of", x->v.sass_checks) : json_null());
		json_object_set_new(o, "from_cache", json_boolean(judged && x->v.cached));
		json_object_set_new(o, "judge_seconds", judged ? json_real(x->v.seconds) : json_null());
		json_array_append_new(list, o);
	}
	root = json_pack("{s:s, s:o, s:b, s:o, s:o}", "folder", b->dir, "gpus", gpus, "ranked", b->gpu,
	    "note", b->note[0] ? json_string(b->note) : json_null(), "submissions", list);
	text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fprintf(out, "%s\n", text);
	free(text);
	json_decref(root);
}

/* A name in width columns: cut with an ellipsis when it is wider. */
static void name_cell(FILE *out, const char *name, int width)
{
	char cut[SUBMISSION_MAX_NAME + 8];
	size_t len = strlen(name), i = 0, n;
	int cols = 0;

	if (textwrap_columns(name, len) > width) {
		while (i < len) {
			int w = textwrap_is_wide(textwrap_decode(name + i, len - i, &n)) ? 2 : 1;
			if (cols + w > width - 1)
				break;
			cols += w;
			i += n;
		}
		snprintf(cut, sizeof cut, "%.*s\xe2\x80\xa6", (int)i, name);
		name = cut;
	}
	fprintf(out, "%-*s", textwrap_field(name, width), name);
}

void cli_print_class(FILE *out, const struct class_board *b, enum cli_format f)
{
	int *order = xmalloc(((size_t)b->n + 1) * sizeof *order);
	char detail[1024];
	const char *exercise = NULL;
	int bad = 0;

	class_order(b, order);
	if (f == FORMAT_CSV) {
		print_csv(out, b, order);
		free(order);
		return;
	}
	if (f == FORMAT_JSON) {
		print_json(out, b, order);
		free(order);
		return;
	}
	if (b->note[0])
		fprintf(out, "%s\n", b->note);
	if (!b->gpu)
		fprintf(out, "%s\n", _("No GPU here: each kernel's SASS is checked, nothing is timed, and nothing is "
		    "ranked (a time a student sent never is)."));
	for (int k = 0; k < b->n; k++) {
		const struct class_entry *x = &b->entries[order[k]];

		if (x->state == CLASS_BAD) {
			bad++;
			continue;
		}
		if (exercise == NULL || strcmp(exercise, x->sub.exercise) != 0) {
			int count = 0;
			const struct class_entry *best = NULL;

			exercise = x->sub.exercise;
			for (int j = 0; j < b->n; j++) {
				const struct class_entry *y = &b->entries[j];
				if (y->state != CLASS_BAD && strcmp(y->sub.exercise, exercise) == 0) {
					count++;
					if (y->rank == 1 && (best == NULL || y->v.ms < best->v.ms))
						best = y;
				}
			}
			fprintf(out, ngettext("\nExercise %s: %d submission", "\nExercise %s: %d submissions", count),
			    exercise, count);
			if (best != NULL)
				fprintf(out, _("; best %.4f ms, %s, on %s"), best->v.ms, best->sub.name, best->v.gpu);
			/* widths in columns: a heading in Chinese is two columns a character */
			fprintf(out, "\n %*s  %-*s  %-*s  %*s  %*s  %s\n", textwrap_field(_("rank"), 4), _("rank"),
			    textwrap_field(_("name"), 20), _("name"), textwrap_field(_("verdict"), 10), _("verdict"),
			    textwrap_field(_("ms"), 9), _("ms"), textwrap_field(_("x ref"), 6), _("x ref"),
			    _("why, or the GPU"));
		}
		cli_class_detail(b, x, detail, sizeof detail);
		if (x->rank > 0)
			fprintf(out, " %4d  ", x->rank);
		else
			fprintf(out, " %4s  ", "-");
		name_cell(out, x->sub.name, 20);
		fprintf(out, "  %-*s  ", textwrap_field(cli_class_word(x), 10), cli_class_word(x));
		if (x->state == CLASS_JUDGED && x->v.ms > 0)
			fprintf(out, "%9.4f  %5.2fx  ", x->v.ms, x->v.ratio);
		else
			fprintf(out, "%9s  %6s  ", "", "");
		fprintf(out, "%s\n", x->rank > 0 ? x->v.gpu : detail);
	}
	if (bad > 0) {
		fprintf(out, "\n%s\n", _("Files that are not submissions (nothing in the folder is changed):"));
		for (int k = 0; k < b->n; k++) {
			const struct class_entry *x = &b->entries[order[k]];
			if (x->state == CLASS_BAD)
				fprintf(out, "  %s: %s\n", x->file, x->problem);
		}
	}
	if (b->n == 0)
		fprintf(out, _("No submissions in %s yet: students hand them in with cudatutor submit.\n"), b->dir);
	free(order);
}

/* What each change of a lesson bought, on each recorded GPU (see summary.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "registry.h"
#include "results.h"
#include "session.h"
#include "summary.h"
#include "textwrap.h"

#define SUMMARY_GPUS 4
#define SUMMARY_COLUMN 18	/* one GPU's pair: "  %9s %6s" */

/* The recorded runs of one lesson, read once a process: the files do not change under it. */
static struct summary_cache {
	char lesson[64];
	int n;
	struct run_report runs[SUMMARY_GPUS];
} cache[16];
static int ncache;

static const struct summary_cache *runs_of(const struct lesson *l)
{
	struct summary_cache *c;
	char path[4096] = "";
	struct error e;

	for (int i = 0; i < ncache; i++)
		if (strcmp(cache[i].lesson, l->id) == 0)
			return &cache[i];
	c = &cache[ncache < (int)ARRAY_LEN(cache) ? ncache++ : ncache - 1];
	for (int i = 0; i < c->n; i++)
		run_report_free(&c->runs[i]);
	memset(c, 0, sizeof *c);
	snprintf(c->lesson, sizeof c->lesson, "%s", l->id);
	while (c->n < SUMMARY_GPUS && results_next_file(path, NULL, path, sizeof path, &e) == 0)
		/* at the lesson's own size and block, where record puts its first run */
		if (results_find_recorded(path, l->id, session_default_size(l), session_default_block(l), &c->runs[c->n],
		    &e) == 0)
			c->n++;
	return c;
}

/* "H200" of "NVIDIA H200", "H100" of "NVIDIA H100 80GB HBM3". */
static void gpu_short(const char *name, char *buf, size_t len)
{
	const char *s = strncmp(name, "NVIDIA ", 7) == 0 ? name + 7 : name;
	size_t n = strcspn(s, " ");

	snprintf(buf, len, "%.*s", (int)n, s);
}

/* s cut to width columns, with an ellipsis where it was cut, padded to width. */
static void fit(const char *s, int width, bool unicode, char *buf, size_t len)
{
	size_t at = 0, n = strlen(s);
	int used = 0;

	if (textwrap_columns(s, n) > width) {
		int room = width - 1;

		while (at < n) {
			size_t k;
			unsigned int cp = textwrap_decode(s + at, n - at, &k);
			int w = textwrap_is_wide(cp) ? 2 : 1;

			if (used + w > room)
				break;
			used += w;
			at += k;
		}
		snprintf(buf, len, "%.*s%s%*s", (int)at, s, unicode ? "\u2026" : ".", room - used, "");
		return;
	}
	snprintf(buf, len, "%s%*s", s, width - textwrap_columns(s, n), "");
}

/* 2^24 for the large powers of two the vector lessons use; a matrix's side as it is. */
static void size_text(unsigned long long size, char *buf, size_t len)
{
	int k = 0;

	while (k < 63 && (1ULL << k) < size)
		k++;
	if (size >= 65536 && (1ULL << k) == size)
		snprintf(buf, len, "2^%d", k);
	else
		snprintf(buf, len, "%llu", size);
}

static void add(char ***lines, int *n, char *line)
{
	*lines = xrealloc(*lines, (size_t)(*n + 1) * sizeof **lines);
	(*lines)[(*n)++] = line;
}

int lesson_summary(const struct lesson *l, int width, bool unicode, char ***lines)
{
	const struct summary_cache *c = runs_of(l);
	const char *times = unicode ? "\u00d7" : "x";
	int n = 0, ngpu = c->n, title_w = width - 4 - ngpu * SUMMARY_COLUMN;
	char size[32], name[32], cell[512], row[1024];

	*lines = NULL;
	if (ngpu == 0) {
		add(lines, &n, xstrdup(_("No recorded file holds this lesson yet: 'cudatutor record' on a GPU draws this table.")));
		return n;
	}
	/* narrow: as many GPUs as fit, the first files' */
	while (ngpu > 1 && title_w < 12) {
		ngpu--;
		title_w += SUMMARY_COLUMN;
	}
	if (title_w < 8)
		title_w = 8;
	size_text(c->runs[0].size, size, sizeof size);
	snprintf(row, sizeof row, _("What each change bought, as recorded at size %s (%s: as fast as the step before it):"),
	    size, times);
	add(lines, &n, xstrdup(row));
	fit(_("step"), title_w, unicode, cell, sizeof cell);
	snprintf(row, sizeof row, " #  %s", cell);
	for (int g = 0; g < ngpu; g++) {
		char ms[48];

		gpu_short(c->runs[g].gpu.name, name, sizeof name);
		snprintf(ms, sizeof ms, "%s ms", name);
		snprintf(row + strlen(row), sizeof row - strlen(row), "  %9s %*s", ms, textwrap_field(times, 6), times);
	}
	add(lines, &n, xstrdup(row));
	for (int i = 0; i < l->nsteps; i++) {
		char title[400];

		/* a control's title says it is one */
		snprintf(title, sizeof title, "%s", l->steps[i].title);
		fit(title, title_w, unicode, cell, sizeof cell);
		snprintf(row, sizeof row, "%2d  %s", i + 1, cell);
		for (int g = 0; g < ngpu; g++) {
			const struct step_result *s = results_step_of(&c->runs[g], l->steps[i].kernel->name);
			char ms[32] = "-", x[32] = "-";

			if (s != NULL && s->ran && s->median_ms > 0) {
				snprintf(ms, sizeof ms, "%.4f", s->median_ms);
				if (!s->correct)
					snprintf(x, sizeof x, "%s", _("wrong"));
				else if (i > 0 && s->speedup_prev > 0)
					snprintf(x, sizeof x, "%.2f%s", s->speedup_prev, times);
			}
			/* %*s counts bytes: × is two, but one column */
			snprintf(row + strlen(row), sizeof row - strlen(row), "  %9s %*s", ms, textwrap_field(x, 6), x);
		}
		add(lines, &n, xstrdup(row));
	}
	/* the last step of the ladder against the first: what the changes bought together */
	snprintf(row, sizeof row, "%s", _("All the changes together:"));
	size_t bare = strlen(row);
	for (int g = 0, shown = 0; g < ngpu; g++) {
		const struct step_result *last = NULL;
		const struct kernel_def *first = NULL, *lk = NULL;
		int last_step = 0;	/* its number in today's lesson, which a file recorded before may not share */

		for (int i = 0; i < l->nsteps; i++) {
			const struct step_result *s = results_step_of(&c->runs[g], l->steps[i].kernel->name);

			if (s != NULL && s->ran && s->correct && !s->control && !s->library && s->speedup_first > 0) {
				last = s;
				last_step = i + 1;
				lk = l->steps[i].kernel;
				if (first == NULL)
					first = lk;
			}
		}
		/* steps of different work (a lesson of several types) have no "together" */
		if (last == NULL || !experiment_same_work(first->experiment, lk->experiment))
			continue;
		gpu_short(c->runs[g].gpu.name, name, sizeof name);
		/* TRANSLATORS: between two GPUs' figures of "All the changes together:" */
		if (shown++)
			snprintf(row + strlen(row), sizeof row - strlen(row), "%s", _(";"));
		/* TRANSLATORS: " 1.95× on the H200, step 4 against the first", after "All the changes together:" */
		snprintf(row + strlen(row), sizeof row - strlen(row), _(" %.2f%s on the %s, step %d against the first"),
		    last->speedup_first, times, name, last_step);
	}
	if (strlen(row) > bare)
		add(lines, &n, xstrdup(row));
	return n;
}

void lesson_summary_free(char **lines, int n)
{
	for (int i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

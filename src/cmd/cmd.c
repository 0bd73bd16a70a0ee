/* What the commands share: messages, lessons, live runs. */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_metrics.h"
#include "cmd/cmd.h"
#include "i18n.h"
#include "session.h"

const char cmd_program[] = "cudatutor";

/*
 * The line on stderr: a control byte in it (an escape from a name the
 * user typed, an id, a file's name) is written as \xNN, so that no message
 * can move the cursor, clear the screen or retitle the terminal.
 */
void cmd_fail(const char *fmt, ...)
{
	va_list ap;
	char *line;

	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) < 0)
		line = NULL;
	va_end(ap);
	fprintf(stderr, "%s: ", cmd_program);
	for (const unsigned char *p = (const unsigned char *)(line != NULL ? line : fmt); *p != '\0'; p++) {
		if (*p < 0x20 || *p == 0x7f)
			fprintf(stderr, "\\x%02x", *p);
		else
			fputc(*p, stderr);
	}
	fputc('\n', stderr);
	free(line);
}

int cmd_arch(const struct cmd_ctx *c, const char *module, char *buf, size_t len, struct error *e)
{
	if (c->arch[0] != '\0') {
		snprintf(buf, len, "%s", c->arch);
		return 0;
	}
	if (e == NULL) {
		session_counts_arch(module, buf, len);
		return 0;
	}
	return session_arch_here(module, buf, len, e);
}

char *cmd_language(const char *option)
{
	return lesson_pick_language(i18n_asked(option));
}

int cmd_load_lessons(const char *lang_option, struct lesson_set *set)
{
	char *lang = cmd_language(lang_option);
	struct error e;
	int rc = lesson_load_all(lang, set, &e);

	free(lang);
	if (rc != 0)
		cmd_fail("%s", e.msg);
	return rc;
}

struct lesson *cmd_find_lesson(struct lesson_set *set, const char *id, unsigned long long step)
{
	struct lesson *l = lesson_find(set, id);

	if (l == NULL) {
		cmd_fail(_("unknown lesson '%s' (see cudatutor list)"), id);
		return NULL;
	}
	if (l->error != NULL) {
		cmd_fail("%s", l->error);
		return NULL;
	}
	if (step > (unsigned long long)l->nsteps) {
		cmd_fail(_("lesson '%s' has %d steps, not %llu"), l->id, l->nsteps, step);
		return NULL;
	}
	return l;
}

struct lesson *cmd_open_lesson(const char *lang_option, const char *id, unsigned long long step,
    struct lesson_set *set)
{
	if (cmd_load_lessons(lang_option, set) != 0)
		return NULL;
	return cmd_find_lesson(set, id, step);
}

const struct lesson *cmd_one_step(const struct lesson *l, unsigned long long step,
    struct lesson *view)
{
	if (step == 0)
		return l;
	*view = *l;
	view->steps = &l->steps[step - 1];
	view->nsteps = 1;
	return view;
}

/* ---- progress lines ---- */

static void show_progress(void *ctx, int done, int total)
{
	struct cmd_run_progress *p = ctx;

	cli_progress_runs(stderr, p->step + 1, p->lesson->nsteps,
	    p->lesson->steps[p->step].kernel->name, done, total);
	p->shown = true;
}

static void progress_step_begins(void *ctx, int i)
{
	((struct cmd_run_progress *)ctx)->step = i;
}

void cmd_run_progress(struct cmd_run_progress *p, const struct lesson *l, int runs,
    struct measure_options *o)
{
	*p = (struct cmd_run_progress){ l, 0, false, { progress_step_begins, NULL, p } };
	session_measure_options(o, runs);
	if (isatty(STDERR_FILENO)) {
		o->progress = show_progress;
		o->progress_ctx = p;
	}
}

void cmd_run_progress_end(struct cmd_run_progress *p)
{
	if (p->shown)
		cli_progress_clear(stderr);
	p->shown = false;
}

void cmd_counters_begin(void *ctx, int i)
{
	struct cmd_counters_progress *p = ctx;

	if (!isatty(STDERR_FILENO))
		return;
	cli_metrics_progress(stderr, i, p->lesson->nsteps, p->lesson->steps[i].kernel->name);
	p->shown = true;
}

void cmd_counters_done(void *ctx, const struct run_report *r, int i)
{
	struct cmd_counters_progress *p = ctx;

	(void)r;
	(void)i;
	if (p->shown)
		cli_progress_clear(stderr);
	p->shown = false;
}

/* submit: hand in an exercise's kernel as one self-contained file, for the teacher's tutor to judge. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "exercise.h"
#include "i18n.h"
#include "progress.h"
#include "submission.h"

/* "ID-NAME.submission.json" in the current folder, spaces as underscores: newly allocated. */
static char *default_output(const char *id, const char *name)
{
	char *path = xasprintf("%s-%s.submission.json", id, name);

	for (char *q = path; *q != '\0'; q++)
		if (*q == ' ')
			*q = '_';
	return path;
}

static int submit_exec(struct cmd_ctx *c)
{
	const struct exercise_def *def;
	const struct progress_exercise *own;
	struct submission s;
	struct progress p;
	struct error e, notice;
	char *path, *output, *text;
	time_t now = time(NULL);
	int rc = EXIT_FAILURE;

	if (c->argc != 1) {
		cmd_fail(c->argc == 0 ? _("submit needs an exercise: cudatutor submit ID --name NAME (see cudatutor exercise)") :
		    _("submit takes one exercise; '%s' is extra"), c->argc > 1 ? c->argv[1] : "");
		return EXIT_USAGE;
	}
	if (c->name == NULL) {
		cmd_fail("%s", _("submit needs your name: cudatutor submit ID --name NAME, as your teacher's class list has it"));
		return EXIT_USAGE;
	}
	if ((def = exercise_lookup(c->argv[0], &e)) == NULL) {
		cmd_fail("%s", e.msg);
		return EXIT_FAILURE;
	}
	if (submission_name_check(c->name, &e) != 0) {
		cmd_fail("--name: %s", e.msg);
		return EXIT_USAGE;
	}
	memset(&s, 0, sizeof s);
	path = c->file != NULL ? xstrdup(c->file) : exercise_working_path(c->dir, def->id);
	/* what check refuses, refused here: not a regular file, over 1 MiB, a NUL byte */
	if ((s.source = exercise_read_source(path, &s.len, &e)) == NULL) {
		cmd_fail("%s", e.msg);
		free(path);
		return EXIT_FAILURE;
	}
	if (memchr(s.source, '\0', s.len) != NULL) {
		cmd_fail(_("%s holds a NUL byte at byte %zu: it is not a .cu file; nothing was handed in"), path,
		    (size_t)((char *)memchr(s.source, '\0', s.len) - s.source) + 1);
		goto out;
	}
	if (submission_exercise_version(def->id, s.exercise_version, &e) != 0) {
		cmd_fail("%s", e.msg);
		goto out;
	}
	snprintf(s.exercise, sizeof s.exercise, "%s", def->id);
	snprintf(s.name, sizeof s.name, "%s", c->name);
	snprintf(s.tutor, sizeof s.tutor, "cudatutor %s", PACKAGE_VERSION);
	strftime(s.submitted, sizeof s.submitted, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	submission_sha256(s.source, s.len, s.sha256);
	/* the student's own check, as information: the teacher's tutor judges it again */
	if (progress_load(&p, NULL, &notice) == 0) {
		if ((own = progress_find_exercise(&p, def->id)) != NULL) {
			s.student_passed = own->passed;
			s.student_best_ms = own->best_ms;
			snprintf(s.student_gpu, sizeof s.student_gpu, "%s", own->gpu);
		}
		progress_free(&p);
	}
	output = c->output != NULL ? xstrdup(c->output) : default_output(def->id, c->name);
	text = submission_to_text(&s);
	if (file_write_atomic(output, text, strlen(text), &e) != 0) {
		cmd_fail("%s", e.msg);
	} else {
		printf(_("Handed in %s as %s: exercise %s, %zu bytes, SHA-256 %.16s.\n"), path, output, def->id,
		    s.len, s.sha256);
		printf("%s\n", _("Put that file where your teacher collects the class's work; their tutor compiles, "
		    "runs and times it again on its own GPU."));
		rc = 0;
	}
	free(text);
	free(output);
out:
	submission_free(&s);
	free(path);
	return rc;
}

const struct command cmd_submit_entry = {
	.name = "submit",
	.args = "ID",
	.summary = N_("hand in your kernel for an exercise: one file with its source and\n"
	    "your name, for your teacher's cudatutor class to judge again"),
	.options = (const enum cmd_opt[]){ OPT_NAME, OPT_FILE, OPT_DIR, OPT_OUTPUT, OPT_END },
	.exec = submit_exec,
};

/* submit: hand in an exercise's kernel as one self-contained file, for the teacher's tutor to judge. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "exercise.h"
#include "i18n.h"
#include "progress.h"
#include "submission.h"

static int submit_exec(struct cmd_ctx *c)
{
	const struct exercise_def *def;
	struct submission s;
	struct progress p;
	struct error e, notice;
	char *path, *output, *text, *file;
	bool into_folder, have_progress;
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
	path = c->file != NULL ? xstrdup(c->file) : exercise_working_path(c->dir, def->id);
	have_progress = progress_load(&p, NULL, &notice) == 0;
	rc = submission_make(def->id, path, c->name, have_progress ? &p : NULL, &s, &e);
	if (have_progress)
		progress_free(&p);
	if (rc != 0) {
		cmd_fail("%s", e.msg);
		free(path);
		return EXIT_FAILURE;
	}
	rc = EXIT_FAILURE;
	/* --output a folder: the file goes in it, and the folder and name are kept for the tutor's hand-in key */
	into_folder = c->output != NULL && dir_exists(c->output);
	file = submission_file_name(&s);
	output = c->output == NULL ? xstrdup(file) : into_folder ? xasprintf("%s/%s", c->output, file) :
	    xstrdup(c->output);
	text = submission_to_text(&s);
	if (file_write_atomic(output, text, strlen(text), &e) != 0) {
		cmd_fail("%s", e.msg);
	} else {
		printf(_("Handed in %s as %s: exercise %s, %zu bytes, SHA-256 %.16s.\n"), path, output, def->id,
		    s.len, s.sha256);
		if (into_folder && submission_place_keep(c->output, c->name, &e) == 0)
			printf(_("The tutor's hand-in key (i on an exercise's page) now hands in to %s as %s.\n"), c->output,
			    c->name);
		printf("%s\n", _("Put that file where your teacher collects the class's work; their tutor compiles, "
		    "runs and times it again on its own GPU."));
		rc = 0;
	}
	free(text);
	free(output);
	free(file);
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

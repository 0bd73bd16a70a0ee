/* hint: the next hint of an exercise, from a nudge to nearly the answer. */
#include "config.h"

#include "cmd/cmd.h"
#include "exercise.h"
#include "i18n.h"

static int hint_exec(struct cmd_ctx *c)
{
	struct lesson_set set = { 0 };
	const struct exercise_def *def;
	const struct lesson *l;
	const struct lesson_exercise *x;
	struct progress p;
	struct error notice, e;
	const char *hint;
	int number = 0, rc = EXIT_FAILURE;

	if (c->argc != 1) {
		cmd_fail(c->argc == 0 ? _("hint needs an exercise: cudatutor hint ID (see cudatutor exercise)") :
		    _("hint takes one exercise"));
		return EXIT_USAGE;
	}
	if ((def = exercise_lookup(c->argv[0], &e)) == NULL) {
		cmd_fail("%s", e.msg);
		return EXIT_FAILURE;
	}
	if ((l = cmd_open_lesson(c->lang, def->lesson, 0, &set)) == NULL)
		goto out_set;
	if ((x = lesson_find_exercise(l, def->id)) == NULL) {
		cmd_fail(_("lesson '%s' has no text for exercise '%s'"), l->id, def->id);
		goto out_set;
	}
	if (progress_load(&p, NULL, &notice) != 0)
		cmd_fail("%s", notice.msg);
	hint = exercise_next_hint(&p, x, &number);
	if (hint == NULL) {
		printf(_("Every hint of '%s' has been shown (%d); cudatutor solution %s shows ours.\n"),
		    def->id, x->nhints, def->id);
		rc = 0;
	} else {
		printf(_("Hint %d of %d for '%s':\n\n%s\n"), number, x->nhints, def->id, hint);
		rc = progress_save(&p, &e) == 0 ? 0 : (cmd_fail("%s", e.msg), EXIT_FAILURE);
	}
	progress_free(&p);
out_set:
	lesson_set_free(&set);
	return rc;
}

const struct command cmd_hint_entry = {
	.name = "hint",
	.args = "ID",
	.summary = N_("the next hint of an exercise"),
	.options = (const enum cmd_opt[]){ OPT_LANG, OPT_END },
	.exec = hint_exec,
};

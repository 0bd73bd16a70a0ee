/* roofline: a lesson's steps against the roofs of the GPU they ran on, drawn in the terminal. */
#include "config.h"

#include <langinfo.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_roofline.h"
#include "cmd/cmd.h"
#include "i18n.h"
#include "session.h"

/* Braille and box drawing where the terminal speaks UTF-8, as the tutor decides (crt.c). */
static bool unicode_terminal(void)
{
	const char *ascii = getenv("CUDATUTOR_ASCII");

	return strcmp(nl_langinfo(CODESET), "UTF-8") == 0 && (ascii == NULL || ascii[0] == '\0');
}

static int roofline_exec(struct cmd_ctx *c)
{
	struct lesson_set set = { 0 };
	struct run_report r = { 0 }, other = { 0 };
	const struct lesson *l;
	struct cmd_run_progress p;
	struct measure_options o;
	struct error note, e;
	unsigned long long size;
	unsigned int block;
	bool have_other = false;
	int source, rc = 0;

	if (c->argc != 1) {
		cmd_fail(c->argc == 0 ? _("roofline needs a lesson: cudatutor roofline LESSON (see cudatutor list)") :
		    _("roofline takes one lesson; '%s' is extra"), c->argc > 1 ? c->argv[1] : "");
		return EXIT_USAGE;
	}
	if (cmd_load_lessons(c->lang, &set) != 0)
		return EXIT_FAILURE;
	if ((l = cmd_find_lesson(&set, c->argv[0], 0)) == NULL) {
		lesson_set_free(&set);
		return EXIT_FAILURE;
	}
	size = c->size ? c->size : session_default_size(l);
	block = c->block ? c->block : session_default_block(l);
	cmd_run_progress(&p, l, (int)c->runs, &o);
	source = session_results(&r, l, size, block, c->given[OPT_RECORDED], c->recorded_file, &o, &p.hooks,
	    &note, &e);
	cmd_run_progress_end(&p);
	if (source < 0) {
		cmd_fail("%s", e.msg);
		lesson_set_free(&set);
		return EXIT_FAILURE;
	}
	if (source == SESSION_NO_GPU)
		cmd_fail(_("%s: showing results recorded on %s on %.10s (not live numbers)"), note.msg, r.gpu.name,
		    r.recorded_date);
	if (c->compare_file != NULL) {
		if (session_recorded(c->compare_file, l, r.size, r.block, &other, &e) != 0) {
			cmd_fail("%s", e.msg);
			rc = EXIT_FAILURE;
		} else {
			have_other = true;
		}
	}
	if (rc == 0 && cli_print_roofline(stdout, &r, have_other ? &other : NULL, l,
	    c->width ? (int)c->width : cli_output_width(), unicode_terminal(), c->format) != 0)
		rc = EXIT_FAILURE;
	run_report_free(&r);
	run_report_free(&other);
	lesson_set_free(&set);
	return rc;
}

const struct command cmd_roofline_entry = {
	.name = "roofline",
	.args = "LESSON",
	.summary = N_("draw each step of a lesson against the roofs of the GPU it ran on:\n"
	    "FLOP per byte across, GFLOP/s up, the memory and FP32 roofs, the\n"
	    "ridge between them; live on this GPU, else as recorded (--compare\n"
	    "FILE: another GPU's steps beside them)"),
	.options = (const enum cmd_opt[]){ OPT_SIZE, OPT_BLOCK, OPT_FORMAT, OPT_RECORDED, OPT_COMPARE, OPT_RUNS,
	    OPT_WIDTH, OPT_LANG, OPT_END },
	.formats = FORMATS_TEXT_JSON,
	.min_width = 40,
	.exec = roofline_exec,
};

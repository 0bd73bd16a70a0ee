/* --help, made from the command table: synopses, commands, options. */
#include "config.h"

#include <string.h>

#include "cmd/cmd.h"
#include "i18n.h"
#include "textwrap.h"
#include "util.h"

#define USAGE_COLUMNS 80
#define CONTINUED 18	/* where a synopsis or an option's help goes on */

/* A synopsis line being written: words wrap before USAGE_COLUMNS. */
struct line {
	FILE *out;
	int col;
};

static void word(struct line *l, const char *w)
{
	int n = (int)strlen(w);

	if (l->col + 1 + n > USAGE_COLUMNS) {
		fprintf(l->out, "\n%*s%s", CONTINUED, "", w);
		l->col = CONTINUED + n;
	} else {
		fprintf(l->out, " %s", w);
		l->col += 1 + n;
	}
}

/* "--size N", "--recorded [FILE]", "--format text|json", "--lines". */
static void label(struct strbuf *b, enum cmd_opt id, enum cmd_formats formats)
{
	const struct cmd_option *o = cmd_option(id);
	const char *value = id == OPT_FORMAT && formats != FORMATS_NONE ?
	    cmd_formats_words(formats) : o->value;

	strbuf_addf(b, "--%s", o->name);
	if (o->arg == ARG_REQUIRED)
		strbuf_addf(b, " %s", value);
	else if (o->arg == ARG_OPTIONAL)
		strbuf_addf(b, " [%s]", value);
}

static bool takes(const struct command *cmd, enum cmd_opt id)
{
	for (const enum cmd_opt *o = cmd->options; *o != OPT_END; o++)
		if (*o == id)
			return true;
	return false;
}

/* cmd's synopsis, after lead ("Usage: ", or "") padded to indent columns. */
static void synopsis(FILE *out, const char *lead, int indent, const struct command *cmd)
{
	struct line l = { out, 0 };
	struct strbuf b = { 0 };
	char args[256];

	fprintf(out, "%-*s%s", textwrap_field(lead, indent), lead, cmd_program);
	l.col = indent + (int)strlen(cmd_program);
	if (cmd->name != NULL)
		word(&l, cmd->name);
	snprintf(args, sizeof args, "%s", cmd->args != NULL ? cmd->args : "");
	for (char *a = strtok(args, " "); a != NULL; a = strtok(NULL, " "))
		word(&l, a);
	for (const enum cmd_opt *o = cmd->options; *o != OPT_END; o++) {
		if (*o == cmd->mode)
			continue;
		/* a command's choices in one pair of brackets: [--source|--ptx] */
		if (cmd_option(*o)->choice && o != cmd->options && cmd_option(o[-1])->choice)
			continue;
		strbuf_add(&b, "[", 1);
		label(&b, *o, cmd->formats);
		while (cmd_option(*o)->choice && cmd_option(o[1])->choice)
			strbuf_addf(&b, "|--%s", cmd_option(*++o)->name);
		strbuf_add(&b, "]", 1);
		word(&l, b.s);
		b.len = 0;
	}
	fputc('\n', out);
	if (cmd->mode != OPT_END) {
		/* the mode's own line: metrics --explain [--format text|json|markdown] */
		l.col = fprintf(out, "%*s%s %s", indent, "", cmd_program, cmd->name);
		label(&b, cmd->mode, FORMATS_NONE);
		word(&l, b.s);
		b.len = 0;
		if (takes(cmd, OPT_FORMAT)) {
			strbuf_add(&b, "[", 1);
			label(&b, OPT_FORMAT, cmd->mode_formats);
			strbuf_add(&b, "]", 1);
			word(&l, b.s);
		}
		fputc('\n', out);
	}
	strbuf_free(&b);
}

/* text at column `at` of a line that is already `col` wide; its further lines indented to at. */
static void indented(FILE *out, int col, int at, const char *text)
{
	const char *nl;

	fprintf(out, "%*s", at > col ? at - col : 2, "");
	while ((nl = strchr(text, '\n')) != NULL) {
		fprintf(out, "%.*s\n%*s", (int)(nl - text), text, at, "");
		text = nl + 1;
	}
	fprintf(out, "%s\n", text);
}

void cmd_usage(FILE *out, const struct command *const *table, size_t n)
{
	const char *usage = _("Usage: ");
	/* columns, not bytes: the lines below line up under a translated "Usage: " */
	int indent = textwrap_columns(usage, strlen(usage)), width = 0;

	for (size_t i = 0; i < n; i++) {
		synopsis(out, i == 0 ? usage : "", indent, table[i]);
		if (table[i]->name != NULL && (int)strlen(table[i]->name) > width)
			width = (int)strlen(table[i]->name);
	}
	fprintf(out, "%*s%s --help | --version\n", indent, "", cmd_program);

	for (size_t i = 0; i < n; i++)
		if (table[i]->name == NULL)
			fprintf(out, "\n%s\n", _(table[i]->summary));
	fprintf(out, "\n%s\n", _("Commands:"));
	for (size_t i = 0; i < n; i++)
		if (table[i]->name != NULL)
			indented(out, fprintf(out, "  %s", table[i]->name), width + 4, _(table[i]->summary));

	fprintf(out, "\n%s\n", _("Options:"));
	for (enum cmd_opt id = OPT_END + 1; id < OPT_COUNT; id++) {
		struct strbuf b = { 0 };
		bool used = false;

		for (size_t i = 0; i < n; i++)
			used = used || takes(table[i], id);
		if (!used || cmd_option(id)->help == NULL)
			continue;
		label(&b, id, FORMATS_NONE);
		indented(out, fprintf(out, "  %s", b.s), CONTINUED, _(cmd_option(id)->help));
		strbuf_free(&b);
	}
	fprintf(out, "\n%s\n",
	    _("Exit status: 0 success, 1 error, 2 bad usage, 3 a step gave a wrong answer."));
}

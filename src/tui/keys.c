/* Key tables: lookup, the checks the unit tests run, and the help and key line made from them. */
#include "config.h"

#include <locale.h>	/* LC_MESSAGES, which pgettext names even without NLS */
#include <stdio.h>
#include <stdlib.h>

#include "i18n.h"
#include "util.h"
#include "tui/crt.h"
#include "tui/keys.h"
#include "tui/layout.h"
#include "tui/style.h"

const struct key_binding *keys_find(const struct key_binding *b, int n, int key)
{
	for (int i = 0; i < n; i++)
		for (int k = 0; k < KEYS_MAX && b[i].codes[k] != 0; k++)
			if (b[i].codes[k] == key)
				return &b[i];
	return NULL;
}

const char *keys_name(const struct key_binding *b, int n, key_run run, int arg)
{
	for (int i = 0; i < n; i++)
		if (b[i].run == run && b[i].arg == arg)
			return keys_code_name(b[i].codes[0]);
	return NULL;
}

const char *keys_code_name(int code)
{
	/* a character, a function key, a control key: the same bytes each time, so no call spoils another's */
	static char one[0x7f][2], fn[25][4], ctrl[32][7];

	if (code > ' ' && code < 0x7f) {
		one[code][0] = (char)code;
		return one[code];
	}
	if (code >= CRT_KEY_F(1) && code <= CRT_KEY_F(24)) {
		snprintf(fn[code - CRT_KEY_F0], sizeof fn[0], "F%d", code - CRT_KEY_F0);
		return fn[code - CRT_KEY_F0];
	}
	if (code > 0 && code < 32 && code != '\t' && code != '\r' && code != 27) {
		snprintf(ctrl[code], sizeof ctrl[0], "Ctrl-%c", 'A' + code - 1);
		return ctrl[code];
	}
	switch (code) {
	/* TRANSLATORS: the space bar, as a message names it: "right arrow or Space" */
	case ' ': return pgettext("key", "Space");
	case CRT_KEY_UP: return pgettext("key", "up arrow");
	case CRT_KEY_DOWN: return pgettext("key", "down arrow");
	case CRT_KEY_LEFT: return pgettext("key", "left arrow");
	case CRT_KEY_RIGHT: return pgettext("key", "right arrow");
	case CRT_KEY_PGUP: return "PgUp";
	case CRT_KEY_PGDN: return "PgDn";
	case CRT_KEY_HOME: return "Home";
	case CRT_KEY_END: return "End";
	case CRT_KEY_ENTER: return "Enter";
	case CRT_KEY_ESC: return "Esc";
	case CRT_KEY_BACKSPACE: return "Backspace";
	case CRT_KEY_TAB: return "Tab";
	case CRT_KEY_BTAB: return "Shift-Tab";
	default: return "?";
	}
}

int keys_check(const struct key_binding *b, int n, const int *reserved, int nreserved, char *why,
    size_t len)
{
	for (int i = 0; i < n; i++) {
		const char *name = b[i].keys != NULL ? b[i].keys : "(goes on)";

		if (b[i].codes[0] == 0) {
			snprintf(why, len, "row %d (%s) takes no key", i, name);
			return -1;
		}
		if (b[i].run == NULL) {
			snprintf(why, len, "row %d (%s) has no handler", i, name);
			return -1;
		}
		if ((b[i].keys == NULL) != (b[i].help == NULL)) {
			snprintf(why, len, "row %d (%s) has keys or help but not both", i, name);
			return -1;
		}
		if (b[i].keys == NULL && (i == 0 || b[i].label_keys != NULL)) {
			snprintf(why, len, "row %d goes on from no row, or has a label of its own", i);
			return -1;
		}
		if ((b[i].label_keys == NULL) != (b[i].label == NULL)) {
			snprintf(why, len, "row %d (%s) has a label without its keys, or keys without a label", i,
			    name);
			return -1;
		}
		for (int k = 0; k < KEYS_MAX && b[i].codes[k] != 0; k++) {
			const struct key_binding *first = keys_find(b, n, b[i].codes[k]);

			if (first != &b[i]) {
				snprintf(why, len, "key %#x is taken by row %d (%s) and row %d", (unsigned)b[i].codes[k],
				    (int)(first - b), first->keys != NULL ? first->keys : "(goes on)", i);
				return -1;
			}
			for (int r = 0; r < KEYS_MAX && b[i].codes[r] != 0 && r < k; r++)
				if (b[i].codes[r] == b[i].codes[k]) {
					snprintf(why, len, "row %d (%s) takes key %#x twice", i, name,
					    (unsigned)b[i].codes[k]);
					return -1;
				}
			for (int r = 0; r < nreserved; r++)
				if (reserved[r] == b[i].codes[k]) {
					snprintf(why, len, "row %d (%s) takes key %#x, which the frame keeps", i, name,
					    (unsigned)reserved[r]);
					return -1;
				}
		}
	}
	return 0;
}

static int label_width(const struct key_binding *b)
{
	return layout_width(b->label_keys) + layout_width(_(b->label)) + 3;
}

int keys_line(const struct key_binding *screen, int nscreen, const struct key_binding *tail, int ntail,
    int cols, struct key_place *out, int max)
{
	int x = 0, tail_w = 0, n = 0;

	for (int i = 0; i < ntail; i++)
		if (tail[i].label_keys != NULL)
			tail_w += label_width(&tail[i]);
	for (int pass = 0; pass < 2; pass++) {
		const struct key_binding *b = pass == 0 ? screen : tail;
		int count = pass == 0 ? nscreen : ntail;

		for (int i = 0; i < count; i++) {
			int w;

			if (b[i].label_keys == NULL)
				continue;
			w = label_width(&b[i]);
			/* The tail always has room: a label that leaves it none is left out. */
			if (x + w + (pass == 0 ? tail_w : 0) > cols)
				continue;
			if (n < max)
				out[n++] = (struct key_place){ &b[i], x, x + w };
			x += w;
		}
	}
	return n;
}

static void help_add(struct help_line **out, int *n, const char *keys, const char *text, int style)
{
	*out = xrealloc(*out, (size_t)(*n + 1) * sizeof **out);
	(*out)[(*n)++] = (struct help_line){ keys, xstrdup(text), style };
}

static void help_row(struct help_line **out, int *n, const struct key_binding *b, int width)
{
	struct layout_run run = { _(b->help), STYLE_NORMAL };
	struct layout_line *lines;
	int m = layout_wrap(&run, 1, width, &lines);

	*out = xrealloc(*out, (size_t)(*n + m) * sizeof **out);
	for (int j = 0; j < m; j++)
		(*out)[(*n)++] = (struct help_line){ j == 0 ? _(b->keys) : NULL, layout_line_text(&lines[j]),
		    STYLE_NORMAL };
	layout_lines_free(lines, m);
}

int keys_help(const struct key_binding *screen, int nscreen, const struct key_binding *frame, int nframe,
    int width, struct help_line **out)
{
	int n = 0;

	*out = NULL;
	for (int i = 0; i < nscreen; i++)
		if (screen[i].help != NULL)
			help_row(out, &n, &screen[i], width);
	help_add(out, &n, NULL, "", STYLE_NORMAL);
	help_add(out, &n, NULL, _("Everywhere"), STYLE_H3);
	for (int i = 0; i < nframe; i++)
		if (frame[i].help != NULL && keys_find(screen, nscreen, frame[i].codes[0]) == NULL)
			help_row(out, &n, &frame[i], width);
	return n;
}

void keys_help_free(struct help_line *lines, int n)
{
	for (int i = 0; i < n; i++)
		free(lines[i].text);
	free(lines);
}

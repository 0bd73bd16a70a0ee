/* Key tables: lookup, the checks, the key line and the help made from them; and the tutor's own tables. */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "tui/crt.h"
#include "tui/keys.h"
#include "tui/layout.h"
#include "tui/style.h"
#include "tui/tui_internal.h"

static int ran_arg;

static int note(struct tui *t, const struct crt_event *ev, int arg)
{
	(void)t;
	(void)ev;
	ran_arg = arg;
	return 1;
}

/* A small screen: a row with a label, a row that goes on from it, rows without labels. */
static const struct key_binding sample[] = {
	{ "\xe2\x86\x90 \xe2\x86\x92", "previous / next", "\xe2\x86\x90\xe2\x86\x92", "step",
	  { CRT_KEY_RIGHT, 'l' }, note, 1 },
	{ NULL, NULL, NULL, NULL, { CRT_KEY_LEFT, 'h' }, note, -1 },
	{ "r  Enter", "run this step", "r", "run", { 'r', CRT_KEY_ENTER }, note, 7 },
	{ "b", "chart GB/s or time, a help text long enough to wrap at a narrow width", NULL, NULL, { 'b' },
	  note, 8 },
	{ "Esc", "back", "Esc", "back", { CRT_KEY_ESC }, note, 9 },
};
#define NSAMPLE ((int)ARRAY_LEN(sample))

static const struct key_binding frame[] = {
	{ "?", "this help", "?", "help", { '?' }, note, 100 },
	{ "q", "quit", "q", "quit", { 'q', 'Q' }, note, 101 },
	{ "Esc", "back", NULL, NULL, { CRT_KEY_ESC }, note, 102 },
	{ "x", "cancel", NULL, NULL, { 'x' }, note, 103 },
};
#define NFRAME ((int)ARRAY_LEN(frame))

START_TEST(find_takes_every_code_of_a_row)
{
	ck_assert_ptr_eq(keys_find(sample, NSAMPLE, CRT_KEY_RIGHT), &sample[0]);
	ck_assert_ptr_eq(keys_find(sample, NSAMPLE, 'l'), &sample[0]);
	ck_assert_ptr_eq(keys_find(sample, NSAMPLE, 'h'), &sample[1]);
	ck_assert_ptr_eq(keys_find(sample, NSAMPLE, CRT_KEY_ENTER), &sample[2]);
	ck_assert_ptr_null(keys_find(sample, NSAMPLE, 'z'));
	/* 0 ends a row's codes: it is no key */
	ck_assert_ptr_null(keys_find(sample, NSAMPLE, 0));
	ck_assert_int_eq(keys_find(sample, NSAMPLE, 'h')->run(NULL, NULL, keys_find(sample, NSAMPLE, 'h')->arg), 1);
	ck_assert_int_eq(ran_arg, -1);
}
END_TEST

/* keys_check on a copy of sample with one row changed: -1, and why mentions what. */
static void refused(struct key_binding *t, int n, const char *what)
{
	static const int reserved[] = { '?', 'q' };
	char why[256] = "";

	ck_assert_int_eq(keys_check(t, n, reserved, 2, why, sizeof why), -1);
	ck_assert_msg(strstr(why, what) != NULL, "'%s' does not say '%s'", why, what);
}

START_TEST(check_finds_what_is_wrong)
{
	static const int reserved[] = { '?', 'q' };
	struct key_binding t[NSAMPLE];
	char why[256] = "";

	ck_assert_int_eq(keys_check(sample, NSAMPLE, reserved, 2, why, sizeof why), 0);
	ck_assert_int_eq(keys_check(frame, NFRAME, NULL, 0, why, sizeof why), 0);

	memcpy(t, sample, sizeof t);
	t[3].codes[0] = 'r';			/* r twice */
	refused(t, NSAMPLE, "taken by row 2");
	memcpy(t, sample, sizeof t);
	t[2].codes[1] = 'r';			/* twice in one row */
	refused(t, NSAMPLE, "twice");
	memcpy(t, sample, sizeof t);
	t[3].run = NULL;
	refused(t, NSAMPLE, "no handler");
	memcpy(t, sample, sizeof t);
	memset(t[3].codes, 0, sizeof t[3].codes);
	refused(t, NSAMPLE, "takes no key");
	memcpy(t, sample, sizeof t);
	t[3].help = NULL;			/* keys without help */
	refused(t, NSAMPLE, "not both");
	memcpy(t, sample, sizeof t);
	t[2].label = NULL;
	refused(t, NSAMPLE, "label");
	memcpy(t, sample, sizeof t);
	t[3].codes[0] = 'q';			/* the frame's */
	refused(t, NSAMPLE, "the frame keeps");
	/* a row that goes on needs one to go on from */
	refused(&t[1], 1, "goes on from no row");
}
END_TEST

START_TEST(the_key_line_keeps_help_and_quit)
{
	struct key_place p[16];
	int n = keys_line(sample, NSAMPLE, frame, NFRAME, 80, p, 16);

	/* " ←→ step  r run  Esc back  ? help  q quit" */
	ck_assert_int_eq(n, 5);
	ck_assert_ptr_eq(p[0].b, &sample[0]);
	ck_assert_int_eq(p[0].x0, 0);
	ck_assert_int_eq(p[0].x1, 2 + 4 + 3);
	ck_assert_ptr_eq(p[1].b, &sample[2]);
	ck_assert_int_eq(p[1].x0, p[0].x1);
	ck_assert_ptr_eq(p[2].b, &sample[4]);
	ck_assert_ptr_eq(p[3].b, &frame[0]);
	ck_assert_ptr_eq(p[4].b, &frame[1]);
	ck_assert_int_eq(p[4].x1, p[3].x1 + 1 + 4 + 3);

	/* Narrow: what does not fit before the tail is left out, the tail stays. */
	n = keys_line(sample, NSAMPLE, frame, NFRAME, 9 + 6 + 9, p, 16);
	ck_assert_int_eq(n, 3);
	ck_assert_ptr_eq(p[0].b, &sample[2]);
	ck_assert_ptr_eq(p[1].b, &frame[0]);
	ck_assert_ptr_eq(p[2].b, &frame[1]);
	ck_assert_int_le(p[2].x1, 24);
}
END_TEST

START_TEST(help_says_each_row_once_and_the_frame_keys_the_screen_leaves)
{
	struct help_line *l;
	int n = keys_help(sample, NSAMPLE, frame, NFRAME, 30, &l), everywhere = -1, wrapped = 0;

	for (int i = 0; i < n; i++) {
		if (strcmp(l[i].text, "Everywhere") == 0) {
			everywhere = i;
			ck_assert_int_eq(l[i].style, STYLE_H3);
		}
		if (l[i].keys == NULL && everywhere < 0 && l[i].text[0] != '\0')
			wrapped++;
	}
	ck_assert_int_ge(everywhere, 0);
	/* before it: four rows with help (the one that goes on has none), b's wrapped */
	ck_assert_str_eq(l[0].keys, "\xe2\x86\x90 \xe2\x86\x92");
	ck_assert_str_eq(l[0].text, "previous / next");
	ck_assert_str_eq(l[1].keys, "r  Enter");
	ck_assert_str_eq(l[2].keys, "b");
	ck_assert_int_ge(wrapped, 1);
	ck_assert_int_eq(everywhere, 4 + wrapped + 1);
	/* after it: ?, q, x; not Esc, which the screen says itself */
	ck_assert_int_eq(n, everywhere + 4);
	ck_assert_str_eq(l[everywhere + 1].keys, "?");
	ck_assert_str_eq(l[everywhere + 2].keys, "q");
	ck_assert_str_eq(l[everywhere + 3].keys, "x");
	keys_help_free(l, n);
}
END_TEST

START_TEST(a_message_names_a_row_by_its_first_key)
{
	ck_assert_str_eq(keys_name(sample, NSAMPLE, note, 7), "r");
	ck_assert_str_eq(keys_name(sample, NSAMPLE, note, 1), "right arrow");
	ck_assert_str_eq(keys_name(sample, NSAMPLE, note, -1), "left arrow");
	ck_assert_str_eq(keys_name(sample, NSAMPLE, note, 9), "Esc");
	ck_assert_ptr_null(keys_name(sample, NSAMPLE, note, 42));
	ck_assert_str_eq(keys_code_name(' '), "Space");
	ck_assert_str_eq(keys_code_name(CRT_KEY_ENTER), "Enter");
	ck_assert_str_eq(keys_code_name(CRT_KEY_F(5)), "F5");
	ck_assert_str_eq(keys_code_name(CRT_CTRL('l')), "Ctrl-L");
	/* names stay apart: one call does not spoil another's */
	ck_assert_str_eq(keys_code_name('['), "[");
	ck_assert_str_eq(keys_code_name(']'), "]");
	ck_assert_str_eq(keys_code_name('['), "[");
}
END_TEST

/* ---- the tutor's own tables ---- */

START_TEST(every_screen_table_is_sound)
{
	char why[256];

	for (int i = 0; i < tui_nscreens; i++) {
		const struct screen *s = tui_screens[i];

		ck_assert_msg(keys_check(s->keys, s->nkeys, tui_reserved_keys, tui_nreserved_keys, why,
		    sizeof why) == 0, "the %s screen: %s", s->name, why);
	}
	ck_assert_msg(keys_check(tui_frame_keys, tui_nframe_keys, NULL, 0, why, sizeof why) == 0,
	    "the frame: %s", why);
}
END_TEST

START_TEST(every_screen_says_what_esc_does)
{
	for (int i = 0; i < tui_nscreens; i++) {
		const struct screen *s = tui_screens[i];
		const struct key_binding *b = keys_find(s->keys, s->nkeys, CRT_KEY_ESC);

		ck_assert_msg(b != NULL, "the %s screen does not say what Esc does", s->name);
		/* the row that says it, or the one it goes on from */
		while (b->help == NULL)
			b--;
		ck_assert_msg(strstr(b->keys, "Esc") != NULL, "the %s screen: Esc is under '%s'", s->name, b->keys);
	}
}
END_TEST

START_TEST(every_screen_has_its_hooks_and_place)
{
	for (int i = 0; i < tui_nscreens; i++) {
		const struct screen *s = tui_screens[i];

		ck_assert_ptr_nonnull(s->draw);
		ck_assert_int_gt(s->nkeys, 0);
		/* the frame finds a screen by its id: one each */
		ck_assert_int_ne(s->id, SCREEN_NONE);
		for (int j = 0; j < i; j++)
			ck_assert_msg(tui_screens[j]->id != s->id, "the %s screen", s->name);
		/* Esc from a root goes to another screen; from the others, down the stack */
		if (s->place == SCREEN_ROOT)
			ck_assert_msg(s->up != SCREEN_NONE && s->up != s->id, "the %s screen", s->name);
		else
			ck_assert_msg(s->up == SCREEN_NONE, "the %s screen", s->name);
	}
}
END_TEST

START_TEST(every_key_line_keeps_help_and_quit_at_80_columns)
{
	for (int i = 0; i < tui_nscreens; i++) {
		const struct screen *s = tui_screens[i];
		struct key_place p[32];
		int n = keys_line(s->keys, s->nkeys, tui_frame_keys, tui_nframe_keys, LAYOUT_MIN_COLS, p, 32);

		ck_assert_int_ge(n, 3);
		ck_assert_str_eq(p[n - 2].b->label_keys, "?");
		ck_assert_str_eq(p[n - 1].b->label_keys, "q");
		ck_assert_int_le(p[n - 1].x1, LAYOUT_MIN_COLS);
		/* a click on a label sends a key its row takes */
		for (int k = 0; k < n; k++)
			ck_assert_ptr_eq(keys_find(p[k].b, 1, p[k].b->codes[0]), p[k].b);
	}
}
END_TEST

START_TEST(every_key_has_a_name_for_messages)
{
	struct tui t;

	for (int i = 0; i <= tui_nscreens; i++) {
		const struct key_binding *b = i < tui_nscreens ? tui_screens[i]->keys : tui_frame_keys;
		int n = i < tui_nscreens ? tui_screens[i]->nkeys : tui_nframe_keys;

		for (int k = 0; k < n; k++)
			if (b[k].codes[0] != CRT_KEY_MOUSE && b[k].codes[0] != CRT_KEY_RESIZE)
				ck_assert_msg(b[k].codes[0] == '?' || strcmp(keys_code_name(b[k].codes[0]), "?") != 0,
				    "key %#x has no name", (unsigned)b[k].codes[0]);
	}
	/* what the messages say today, from the tables (the screens as tui_main registers them) */
	memset(&t, 0, sizeof t);
	tui_set_screens(tui_screens, tui_nscreens);
	ck_assert_str_eq(tui_key(&t, tui_key_cancel, 0), "x");
	ck_assert_str_eq(tui_key(&t, tui_key_back, 0), "Esc");
	ck_assert_str_eq(tui_key(&t, study_key_run, 0), "r");
	ck_assert_str_eq(tui_key(&t, study_key_run_all, 0), "a");
	ck_assert_str_eq(tui_key(&t, study_key_block, -1), "[");
	ck_assert_str_eq(tui_key(&t, study_key_block, 1), "]");
	ck_assert_str_eq(tui_key(&t, study_key_bars, 0), "b");
	ck_assert_str_eq(tui_key(&t, study_key_other, 0), "o");
	ck_assert_str_eq(tui_key(&t, exercise_key_write, 0), "e");
	ck_assert_str_eq(tui_key(&t, exercise_key_check, 0), "r");
	ck_assert_str_eq(tui_key(&t, exercise_key_hint, 0), "H");
	/* the screen shown first: its own keys for the same action */
	t.stack[0] = &screen_present;
	t.depth = 1;
	ck_assert_str_eq(tui_key(&t, tui_key_cancel, 0), "x");
	ck_assert_str_eq(tui_key(&t, study_key_run, 0), "r");
}
END_TEST

static Suite *keys_suite(void)
{
	Suite *s = suite_create("keys");
	TCase *tc = tcase_create("tables");

	tcase_add_test(tc, find_takes_every_code_of_a_row);
	tcase_add_test(tc, check_finds_what_is_wrong);
	tcase_add_test(tc, the_key_line_keeps_help_and_quit);
	tcase_add_test(tc, help_says_each_row_once_and_the_frame_keys_the_screen_leaves);
	tcase_add_test(tc, a_message_names_a_row_by_its_first_key);
	suite_add_tcase(s, tc);
	tc = tcase_create("the tutor's");
	tcase_add_test(tc, every_screen_table_is_sound);
	tcase_add_test(tc, every_screen_says_what_esc_does);
	tcase_add_test(tc, every_screen_has_its_hooks_and_place);
	tcase_add_test(tc, every_key_line_keeps_help_and_quit_at_80_columns);
	tcase_add_test(tc, every_key_has_a_name_for_messages);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(keys_suite)

/* Wrapping by display columns: English at spaces, Chinese between characters, punctuation kept in place. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "textwrap.h"
#include "util.h"

/* Each line of text fits in width columns. */
static void assert_fits(const char *text, int width)
{
	const char *p = text;

	while (*p != '\0') {
		size_t len = strcspn(p, "\n");
		int cols = textwrap_columns(p, len);

		ck_assert_msg(cols <= width, "%d columns, wider than %d: '%.*s'", cols, width, (int)len, p);
		p += len;
		if (*p == '\n')
			p++;
	}
}

/* The text without spaces and line breaks: wrapping may move those only. */
static char *squeeze(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *q = out;

	for (; *s != '\0'; s++)
		if (*s != ' ' && *s != '\n')
			*q++ = *s;
	*q = '\0';
	return out;
}

static void assert_same_text(const char *a, const char *b)
{
	char *sa = squeeze(a), *sb = squeeze(b);

	ck_assert_str_eq(sa, sb);
	free(sa);
	free(sb);
}

START_TEST(columns)
{
	ck_assert_int_eq(textwrap_columns("abc", 3), 3);
	ck_assert_int_eq(textwrap_columns("线程束", strlen("线程束")), 6);
	ck_assert_int_eq(textwrap_columns("（warp）", strlen("（warp）")), 8);
	ck_assert_int_eq(textwrap_columns("0.265 ms", 8), 8);
	ck_assert_int_eq(textwrap_columns("\xff", 1), 1);	/* a bad byte still takes a place */
	ck_assert(textwrap_is_wide(0x4e00));
	ck_assert(textwrap_is_wide(0xff0c));	/* ， */
	ck_assert(!textwrap_is_wide('a'));
	ck_assert(!textwrap_is_wide(0x2026));	/* … is narrow in terminals */
}
END_TEST

/* printf pads by bytes: the field width that pads to columns, Chinese or not */
START_TEST(fields_pad_to_columns)
{
	char buf[64];

	ck_assert_int_eq(textwrap_field("regs", 6), 6);
	ck_assert_int_eq(textwrap_field("寄存器", 8), 11);
	snprintf(buf, sizeof buf, "%-*s|", textwrap_field("寄存器", 8), "寄存器");
	ck_assert_str_eq(buf, "寄存器  |");
	snprintf(buf, sizeof buf, "%*s|", textwrap_field("占用率", 9), "占用率");
	ck_assert_int_eq(textwrap_columns(buf, strlen(buf)), 10);
	ck_assert_str_eq(buf, "   占用率|");
	/* wider than the field: whole, as printf prints it */
	snprintf(buf, sizeof buf, "%-*s|", textwrap_field("线程束/SM", 4), "线程束/SM");
	ck_assert_str_eq(buf, "线程束/SM|");
}
END_TEST

START_TEST(english_breaks_at_spaces)
{
	const char *in = "Each block now covers two chunks: thread tid adds the int one block ahead to its own.";
	char *out = textwrap(in, 30);

	assert_fits(out, 30);
	assert_same_text(in, out);
	ck_assert_str_eq(out, "Each block now covers two\nchunks: thread tid adds the\nint one block ahead to its\nown.");
	free(out);
}
END_TEST

START_TEST(chinese_breaks_between_characters)
{
	const char *in = "现在每个线程块负责两段数据：线程 tid 把往后隔一个线程块的那个 int 加到自己的 int 上，写回这个和。";
	char *out = textwrap(in, 20);

	assert_fits(out, 20);
	assert_same_text(in, out);
	/* full lines: 20 columns are ten characters */
	ck_assert(strncmp(out, "现在每个线程块负责两\n", strlen("现在每个线程块负责两\n")) == 0);
	free(out);
}
END_TEST

START_TEST(punctuation_stays_with_its_word)
{
	/* at width 10 the comma would start a line; it pulls a character down with it */
	char *out = textwrap("一二三四五，六七八", 10);

	ck_assert_str_eq(out, "一二三四\n五，六七八");
	free(out);
	/* an opening bracket does not end a line */
	out = textwrap("一二三四（五六七）", 10);
	ck_assert_str_eq(out, "一二三四\n（五六七）");
	free(out);
	/* nor does a line start with an ellipsis */
	out = textwrap("一二三四……", 8);
	ck_assert_str_eq(out, "一二三\n四……");
	free(out);
	/* latin next to Chinese breaks between them, but not inside the word */
	out = textwrap("一二三四LDG.E.128", 12);
	ck_assert_str_eq(out, "一二三四\nLDG.E.128");
	free(out);
}
END_TEST

START_TEST(list_items_hang)
{
	const char *in = "  - median ms：多次计时运行的中位数。每次运行之前都会恢复输入数据。";
	char *out = textwrap(in, 24);
	const char *second = strchr(out, '\n');

	assert_fits(out, 24);
	assert_same_text(in, out);
	ck_assert_ptr_nonnull(second);
	ck_assert_msg(strncmp(second + 1, "    ", 4) == 0 && second[5] != ' ',
	    "continuation not under the text: '%s'", out);
	free(out);
	out = textwrap("12. one two three four five six", 14);
	ck_assert_str_eq(out, "12. one two\n    three four\n    five six");
	free(out);
}
END_TEST

START_TEST(what_is_left_alone)
{
	char *out;

	/* lines that fit, empty lines, and a word wider than the line */
	out = textwrap("short\n\n  indented\n", 20);
	ck_assert_str_eq(out, "short\n\n  indented\n");
	free(out);
	out = textwrap("a reduce_complete_unroll_template b", 10);
	ck_assert_str_eq(out, "a\nreduce_complete_unroll_template\nb");
	free(out);
	out = textwrap("", 10);
	ck_assert_str_eq(out, "");
	free(out);
	/* trailing spaces of a long line go, not onto a line of their own */
	out = textwrap("aaaa bbbb   ", 6);
	ck_assert_str_eq(out, "aaaa\nbbbb");
	free(out);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("textwrap");
	TCase *tc = tcase_create("textwrap");

	tcase_add_test(tc, columns);
	tcase_add_test(tc, fields_pad_to_columns);
	tcase_add_test(tc, english_breaks_at_spaces);
	tcase_add_test(tc, chinese_breaks_between_characters);
	tcase_add_test(tc, punctuation_stays_with_its_word);
	tcase_add_test(tc, list_items_hang);
	tcase_add_test(tc, what_is_left_alone);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)

/* Wrapping text to a terminal's width in display columns, Chinese as well as English. */
#include "config.h"

#include <string.h>

#include "textwrap.h"
#include "util.h"

struct range {
	unsigned int lo, hi;
};

/* East Asian wide and full-width blocks (Unicode's EastAsianWidth W and F, by block). */
static const struct range wide_ranges[] = {
	{ 0x1100, 0x115f },	/* Hangul Jamo */
	{ 0x2e80, 0x303e },	/* CJK radicals, CJK symbols and punctuation */
	{ 0x3041, 0x33ff },	/* kana, bopomofo, CJK compatibility */
	{ 0x3400, 0x4dbf },	/* CJK extension A */
	{ 0x4e00, 0x9fff },	/* CJK unified ideographs */
	{ 0xa000, 0xa4cf },	/* Yi */
	{ 0xa960, 0xa97f },
	{ 0xac00, 0xd7a3 },	/* Hangul syllables */
	{ 0xf900, 0xfaff },	/* CJK compatibility ideographs */
	{ 0xfe10, 0xfe19 },	/* vertical forms */
	{ 0xfe30, 0xfe6f },	/* CJK compatibility and small forms */
	{ 0xff00, 0xff60 },	/* full-width forms */
	{ 0xffe0, 0xffe6 },
	{ 0x1f300, 0x1f64f },	/* pictographs, emoticons */
	{ 0x1f900, 0x1f9ff },
	{ 0x20000, 0x2fffd },	/* CJK extensions B and later */
	{ 0x30000, 0x3fffd },
};

/* A line never starts with these (closing punctuation, as Chinese and English typesetting agree). */
static const unsigned int no_break_before[] = {
	'!', ')', ',', '.', ':', ';', '?', ']', '}', '%',
	0x00b7, 0x2014, 0x2019, 0x201d, 0x2026, 0x3001, 0x3002, 0x3005, 0x3009, 0x300b,
	0x300d, 0x300f, 0x3011, 0x3015, 0x30fc, 0xff01, 0xff05, 0xff09, 0xff0c, 0xff0e,
	0xff1a, 0xff1b, 0xff1f, 0xff3d, 0xff5d,
};

/* A line never ends with these (opening punctuation). */
static const unsigned int no_break_after[] = {
	'(', '[', '{',
	0x2018, 0x201c, 0x3008, 0x300a, 0x300c, 0x300e, 0x3010, 0x3014, 0xff08, 0xff3b, 0xff5b,
};

static int in_list(unsigned int cp, const unsigned int *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == cp)
			return 1;
	return 0;
}

int textwrap_is_wide(unsigned int cp)
{
	size_t lo = 0, hi = ARRAY_LEN(wide_ranges);

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (cp < wide_ranges[mid].lo)
			hi = mid;
		else if (cp > wide_ranges[mid].hi)
			lo = mid + 1;
		else
			return 1;
	}
	return 0;
}

unsigned int textwrap_decode(const char *str, size_t len, size_t *n)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned int c = s[0];
	size_t need;

	*n = 1;
	if (c < 0x80)
		return c;
	if (c >= 0xc2 && c <= 0xdf)
		need = 1, c &= 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		need = 2, c &= 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		need = 3, c &= 0x07;
	else
		return 0xfffd;
	if (need >= len)
		return 0xfffd;
	for (size_t i = 1; i <= need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0xfffd;
		c = (c << 6) | (s[i] & 0x3f);
	}
	*n = need + 1;
	return c;
}

static int cp_columns(unsigned int cp)
{
	if (cp >= 0x300 && cp <= 0x36f)
		return 0;	/* combining accents sit on the letter before */
	return textwrap_is_wide(cp) ? 2 : 1;
}

int textwrap_columns(const char *s, size_t len)
{
	int cols = 0;
	size_t n;

	for (size_t i = 0; i < len; i += n)
		cols += cp_columns(textwrap_decode(s + i, len - i, &n));
	return cols;
}

int textwrap_field(const char *s, int width)
{
	size_t len = strlen(s);

	return width + (int)len - textwrap_columns(s, len);
}

/* May a line end after a and the next start with b (neither a space)? */
static int may_break(unsigned int a, unsigned int b)
{
	if (!textwrap_is_wide(a) && !textwrap_is_wide(b))
		return 0;	/* inside a word of a script that breaks at spaces */
	return !in_list(b, no_break_before, ARRAY_LEN(no_break_before)) &&
	    !in_list(a, no_break_after, ARRAY_LEN(no_break_after));
}

/* Bytes of a list marker with its space ("- ", "12. ") at s, else 0. */
static size_t list_marker(const char *s, size_t len)
{
	size_t i = 0;

	if (len >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && s[1] == ' ')
		return 2;
	while (i < len && i < 9 && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i > 0 && i + 1 < len && (s[i] == '.' || s[i] == ')') && s[i + 1] == ' ')
		return i + 2;
	return 0;
}

static void wrap_line(struct strbuf *out, const char *s, size_t len, int width)
{
	size_t lead = 0, p;
	int hang, col, first = 1;

	if (textwrap_columns(s, len) <= width) {
		strbuf_add(out, s, len);
		return;
	}
	while (lead < len && s[lead] == ' ')
		lead++;
	p = lead + list_marker(s + lead, len - lead);
	hang = (int)p;		/* spaces and an ASCII marker: one column a byte */
	strbuf_add(out, s, p);
	col = hang;
	while (p < len) {
		size_t sep = 0, start, end, n;
		unsigned int prev;
		int cols;

		while (p + sep < len && s[p + sep] == ' ')
			sep++;
		start = p + sep;
		if (start >= len)
			break;		/* trailing spaces */
		/* one unit: up to the next space or place a line may break */
		prev = textwrap_decode(s + start, len - start, &n);
		for (end = start + n; end < len && s[end] != ' '; end += n) {
			unsigned int cp = textwrap_decode(s + end, len - end, &n);
			if (may_break(prev, cp))
				break;
			prev = cp;
		}
		cols = textwrap_columns(s + start, end - start);
		if (col > hang && col + (int)sep + cols > width) {
			strbuf_add(out, "\n", 1);
			for (int i = 0; i < hang; i++)
				strbuf_add(out, " ", 1);
			col = hang;
		} else if (col > hang || first) {
			strbuf_add(out, s + p, sep);
			col += (int)sep;
		}
		strbuf_add(out, s + start, end - start);
		col += cols;
		first = 0;
		p = end;
	}
}

char *textwrap(const char *text, int width)
{
	struct strbuf out = { 0 };
	const char *p = text;

	strbuf_add(&out, "", 0);
	while (*p != '\0') {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		wrap_line(&out, p, len, width);
		if (nl == NULL)
			break;
		strbuf_add(&out, "\n", 1);
		p = nl + 1;
	}
	return out.s;
}

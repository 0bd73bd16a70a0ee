#!/bin/sh
# The program run from its build tree speaks the user's language: under
# LANGUAGE=zh_CN --help and an error come out in Chinese, with the same
# options as in English (LANG=zh_CN.UTF-8 where that locale is not
# installed: tests/cli/locale-missing.sh).
. "$(dirname "$0")/../lib/lib.sh"
T=$CUDATUTOR

if ! [ -f "$CUDATUTOR_BUILDDIR/locale/zh_CN/LC_MESSAGES/cudatutor.mo" ]; then
	echo "skip: no zh_CN catalog in the build tree (configured without NLS?)"
	exit 77
fi
zh() { LANGUAGE=zh_CN LANG=C.UTF-8 "$@"; }

"$T" --help | grep -o -e '--[a-z][a-z-]*' | sort -u > "$tmp/options-en"
ok "help in Chinese" zh "$T" --help
has "help says usage in Chinese" '^用法：' "$tmp/out"
has "help names the commands in Chinese" '^命令：' "$tmp/out"
grep -o -e '--[a-z][a-z-]*' "$tmp/out" | sort -u > "$tmp/options-zh"
missing=$(comm -3 "$tmp/options-en" "$tmp/options-zh" | tr -d '\t' | tr '\n' ' ')
[ -z "$missing" ] && echo "ok: the Chinese --help names the same options" ||
	fail "options in only one of the English and the Chinese --help: $missing"
# The run table and the A/B comparison line up in Chinese: in display columns
# (a 汉字 is two), each row and heading up to its last column is exactly as
# wide as in English, so the headings stand over their numbers.
widths() {
	python3 -c '
import re, sys, unicodedata
cols = lambda s: sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
seen = False
for line in sys.stdin.read().splitlines():
    if seen and line and not line.startswith(" "):
        break   # the diagnoses under the table: sentences, not columns
    if re.match(r" +(#|[0-9]+) ", line):
        seen = True
        # a step the recording lacks is a sentence in its row, not columns
        if re.match(r" +[0-9]+ ", line) and sum(bool(re.match(r"^[0-9.x-]+$", f)) for f in line.split()) < 4:
            continue
        print(cols(line[:line.rindex(" ") + 1]))'
}
fixture=$CUDATUTOR_SRCDIR/tests/fixtures/results-metrics.json
for args in "--recorded=$fixture" "--compare $fixture"; do
	# shellcheck disable=SC2086
	"$T" run reduction $args 2> /dev/null | widths > "$tmp/cols-en"
	# shellcheck disable=SC2086
	zh "$T" run reduction $args 2> /dev/null | tee "$tmp/table-zh" | widths > "$tmp/cols-zh"
	if ! grep -q '核函数' "$tmp/table-zh"; then
		fail "run reduction $args: no Chinese table heading"
	elif [ "$(wc -l < "$tmp/cols-en")" -lt 2 ] || ! cmp -s "$tmp/cols-en" "$tmp/cols-zh"; then
		fail "run reduction $args: the Chinese table's columns do not line up with the English one's: $(tr '\n' ' ' < "$tmp/cols-en")/ $(tr '\n' ' ' < "$tmp/cols-zh")"
	else
		echo "ok: run reduction $args: the Chinese table's columns line up"
	fi
done
# The diagnoses under the table, in Chinese, with the same figures, wrapped to 80 columns.
zh "$T" run reduction --recorded="$fixture" > "$tmp/out" 2>&1
has "the diagnoses' heading in Chinese" '^每一步被什么拖慢，以及对付它的那一课：$' "$tmp/out"
has "a diagnosis in Chinese" '^  1  共享内存 bank 冲突：每次共享加载 2\.0 次冲突' "$tmp/out"
python3 -c '
import sys, unicodedata
cols = lambda s: sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
lines = open(sys.argv[1]).read().splitlines()
start = [i for i, l in enumerate(lines) if l.startswith("每一步")][0]
sys.exit(any(cols(l) > 80 for l in lines[start:]))' "$tmp/out" ||
	fail "a Chinese diagnosis wider than 80 columns"

# LANG=zh_CN.UTF-8 where it is not installed: tests/cli/locale-missing.sh

# --lang zh_CN under an English (or C) locale: the interface follows the lessons
ok "run --lang zh_CN under LANG=C.UTF-8" env -u LANGUAGE LANG=C.UTF-8 "$T" run reduction --lang zh_CN \
	--recorded="$fixture"
has "the lesson in Chinese" '^reduction: 并行归约' "$tmp/out"
has "the interface in Chinese too" '^ *# +核函数' "$tmp/out"
ok "--lang en under LANGUAGE=zh_CN" zh "$T" run reduction --lang en --recorded="$fixture"
has "the interface in English" '^ *# +kernel' "$tmp/out"

refused "an unknown command, in Chinese" '未知命令“frobnicate”' zh "$T" frobnicate
refused "an unknown option, in Chinese" '未知选项' zh "$T" list --frobnicate

# A sweep's kind in Chinese too: 'over size' was left in English
zh "$T" sweep reduction --recorded > "$tmp/out" 2> "$tmp/err"
has "a lesson without a recorded sweep, said in Chinese" '没有记录课程“reduction”按规模的扫描' "$tmp/err"
lacks "no English word for the sweep's kind" 'size|block' "$tmp/err"

finish

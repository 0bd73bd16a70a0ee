#!/bin/sh
# The sweep in the tutor (W in a lesson), as a user sees it without a GPU:
# the fixture's recorded sweep of vectorize (a source tree whose
# data/results holds only tests/fixtures/results-sweep.json), at 80x24 and
# 160x48, in UTF-8 and in ASCII: the axes, the legend, the L2 line; b for
# the block sweep; Esc goes back to the lesson.
. "$(dirname "$0")/../lib/lib.sh"

. "$(dirname "$0")/../lib/tmux.sh"
export XDG_DATA_HOME="$tmp/data"

# A source tree of links, but for data/results: the fixture alone.
src="$tmp/src"
mkdir -p "$src/data/results"
for f in "$CUDATUTOR_SRCDIR"/*; do
	[ "$(basename "$f")" = data ] || ln -s "$f" "$src/$(basename "$f")"
done
cp "$CUDATUTOR_SRCDIR/tests/fixtures/results-sweep.json" "$src/data/results/fixture-gpu.json"

# start COLS ROWS LANG [LESSON]: the tutor at the introduction of LESSON (vectorize).
start() {
	tutor_at "${4:-vectorize}" 0 "$1" "$2" CUDATUTOR_SRCDIR="$src" LANG="$3"
	wait_for "the lesson at ${1}x$2" "${4:-vectorize}"
}

for size in "80 24" "160 48"; do
	set -- $size
	start "$1" "$2" C.UTF-8
	keys W
	wait_for "W draws the sweep at ${1}x$2" 'vectorize · size sweep'
	on_screen "the unit and the recording (${1}x$2)" 'GB/s, recorded on Fixture GPU on 2000-01-02'
	on_screen "a decade up the side (${1}x$2)" '^ +1000┤'
	on_screen "the x axis (${1}x$2)" '^ +└─{40,}'
	on_screen "the sizes under it (${1}x$2)" '2\^10 .*2\^20 .*2\^28'
	on_screen "the L2 marker over the chart (${1}x$2)" '^ +L2 +L2 *$'
	on_screen "the legend (${1}x$2)" '1 vec_add_float +3 vec_add_float4 +5 vec_add_char'
	on_screen "where the L2 fills (${1}x$2)" 'L2 at 2\^22\.4 elements: 12 bytes an element fill its 64\.00 MiB L2'
	on_screen "the launch floor's line, whole (${1}x$2)" 'Rising line: launch floor; no run took under 1\.0 µs, no point lies above it$'
	screen > "$tmp/screen"
	python3 - "$tmp/screen" "$1" <<'PY' || fail "sweep at ${1}x$2: each step's marks in the plot, the L2 lines, nothing wider than the screen"
import sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
width = int(sys.argv[2])
assert max(len(l) for l in lines) <= width, max(len(l) for l in lines)
plot = [l[7:] for l in lines if "┤" in l[:8] or "│" in l[:8]]
marks = "".join(plot)
for m in "135":
    assert marks.count(m) >= 5, (m, marks.count(m))
# the two L2 lines run down the plot
assert sum(l.count("┊") for l in plot) >= len(plot), sum(l.count("┊") for l in plot)
PY
	keys b
	wait_for "b: the block sweep (${1}x$2)" 'vectorize · block sweep'
	on_screen "the blocks under it (${1}x$2)" '64 +.*128 .*1024'
	not_on_screen "no L2 line for blocks (${1}x$2)" 'L2 at'
	keys b
	wait_for "b again: the size sweep (${1}x$2)" 'vectorize · size sweep'
	keys Escape
	wait_for "Esc goes back to the lesson (${1}x$2)" 'Step [0-9]+ of [0-9]+|Vectorized'
	not_on_screen "the sweep is gone (${1}x$2)" '· size sweep'
done

# A lesson with no recorded sweep says so, and what to run on a GPU.
start 80 24 C.UTF-8 reduction
keys W
wait_for "W on a lesson without a sweep" 'No recorded sweep of this lesson\.'
on_screen "what records one, whole" "reduction --record' records one"
keys q

# In Chinese: the header, the axis title and the L2 lines.
tutor_at vectorize 0 80 24 CUDATUTOR_SRCDIR="$src" -- --lang zh_CN
wait_for "the lesson in Chinese" 'vectorize'
keys W
wait_for "W in Chinese" 'vectorize · 规模扫描'
on_screen "the x axis titled in Chinese" '元素个数（log2）'
on_screen "the L2 line explained in Chinese" 'L2 在 2\^22\.4 个元素处：每个元素 12 字节填满 64\.00 MiB 的 L2'
keys q

# Where the terminal does not speak UTF-8: ASCII only.
start 80 24 C
keys W
wait_for "W draws the sweep in ASCII" 'vectorize - size sweep'
on_screen "an ASCII axis" '^ +\+-{40,}'
on_screen "an ASCII L2 line" '\|.*\|'
screen > "$tmp/screen"
python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); sys.exit(any(b > 127 for b in d))' "$tmp/screen" ||
	fail "the ASCII sweep has bytes that are not ASCII"
keys q


# n, N and a (one step picked out among the others): tests/screen/sweep-pick.sh

finish

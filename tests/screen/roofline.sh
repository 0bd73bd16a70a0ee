#!/bin/sh
# The roofline in the tutor (R in a lesson), as a user sees it without a GPU:
# the steps recorded on a real GPU against that GPU's recorded roofs (each
# step's mark once, or counted in a cell it shares: tests/screen/roofline-spots.sh), at
# 80x24 and at 160x48, in UTF-8 and in ASCII; Esc goes back to the lesson.
. "$(dirname "$0")/../lib/lib.sh"

. "$(dirname "$0")/../lib/tmux.sh"
export XDG_DATA_HOME="$tmp/data"
results="$CUDATUTOR_SRCDIR/data/results"

# The newest recorded file is the one the tutor shows: it must hold roofs for this test.
python3 - "$results" <<'PY' || { echo "skip: no recorded file with roofs in $results"; exit 77; }
import json, os, sys
files = [json.load(open(os.path.join(sys.argv[1], f))) for f in os.listdir(sys.argv[1]) if f.endswith(".json")]
newest = max(files, key=lambda d: d["recorded"]["date"])
sys.exit(0 if newest.get("roofs") else 1)
PY

# start COLS ROWS LANG: the tutor at the introduction of register-tiling.
start() {
	tutor_at register-tiling 0 "$1" "$2" LANG="$3"
	wait_for "the lesson at ${1}x$2" 'register-tiling'
}

for size in "80 24" "160 48"; do
	set -- $size
	start "$1" "$2" C.UTF-8
	keys R
	wait_for "R draws the roofline at ${1}x$2" 'register-tiling · roofline'
	on_screen "a decade up the side (${1}x$2)" '^ +10T┤'
	on_screen "the x axis, the ridge marked on it (${1}x$2)" '^ +[0-9]+[GT]└─+▲─+'
	on_screen "the intensities under it (${1}x$2)" '^ +0\.1 +1 +10 +100'
	on_screen "the roofs in a line (${1}x$2)" 'DRAM [0-9]+ GB/s measured \([0-9]+ in theory\), FP32'
	[ "$1" -lt 160 ] || on_screen "and the ridge (${1}x$2)" 'ridge [0-9.]+ FLOP/byte; solid: measured, dotted: theory'
	on_screen "step 1 in the legend (${1}x$2)" '^ 1 matmul_tiled_4x +341\.333 FLOP/B'
	[ "$1" -lt 160 ] || on_screen "cuBLAS in the legend (${1}x$2)" 'cublas_sgemm +341\.333 FLOP/B .* fp32 +[0-9.]+%'
	screen > "$tmp/screen"
	python3 - "$tmp/screen" "$1" <<'PY' || fail "roofline at ${1}x$2: every step's mark in the plot, nothing wider than the screen"
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
width = int(sys.argv[2])
assert max(len(l) for l in lines) <= width, max(len(l) for l in lines)
plot = [l[6:] for l in lines if "┤" in l or "│" in l[:8]]
# a count after a mark ("3×4": four steps in that cell) is not a mark; the steps it counts are named under the chart
marks = re.sub(r"×[0-9]+", "", "".join(plot))
spots = re.search(r"Steps at one spot: (.*)", " ".join(lines))
shared = re.findall(r"\(([0-9a-z ]+)\)", spots.group(1)) if spots else []
for m in "1234567":
    assert marks.count(m) == 1 or (marks.count(m) == 0 and any(m in g.split() for g in shared)), (m, marks.count(m))
# the Braille roofs are drawn
assert sum(1 for ch in marks if 0x2800 <= ord(ch) <= 0x28ff) > 20
PY
	keys o
	wait_for "o: the other recorded GPU's steps beside these (${1}x$2)" '\+: the same steps on H100'
	on_screen "drawn as + (${1}x$2)" '│.*[0-9]\+|\+[0-9]'
	keys Escape
	# the lesson's own words: the roofline page says "Step 3:" and "Steps at one spot" too
	wait_for "Esc goes back to the lesson (${1}x$2)" 'Step [0-9]+ of [0-9]+|Register tiling'
	not_on_screen "the roofline is gone (${1}x$2)" '· roofline'
done

# On a step's page, what holds that step back, from its recorded counters: stride 32's conflicts.
tutor_at bank-conflicts 8 100 30
wait_for "step 8 of bank-conflicts" 'Step 8 of'
keys R
wait_for "the step's diagnosis under the roofs" '^ Step 8: shared-memory bank conflicts: 31\.0 per shared load, each load taking'
keys q

# The tensor cores' lesson, from a fixture (a source tree whose data/results holds it alone): the
# BF16 tensor roof over the FP32 one, the y axis up to 1000 TFLOP/s, both ridges marked.
fake="$tmp/src"
mkdir -p "$fake/data/results"
for e in "$CUDATUTOR_SRCDIR"/*; do [ "${e##*/}" = data ] || ln -s "$e" "$fake/${e##*/}"; done
for e in "$CUDATUTOR_SRCDIR"/data/*; do [ "${e##*/}" = results ] || ln -s "$e" "$fake/data/${e##*/}"; done
cp "$CUDATUTOR_SRCDIR/tests/fixtures/results-tensor.json" "$fake/data/results/fixture.json"
tutor_at tensor-cores 0 80 24 CUDATUTOR_SRCDIR="$fake"
wait_for "the tensor cores' lesson" 'tensor-cores'
keys R
wait_for "R draws the tensor cores' roofline" 'tensor-cores · roofline'
on_screen "the y axis up to 1000 TFLOP/s" '^ +1P┤'
on_screen "the upper roof named" '│.*TENSOR'
on_screen "both ridges on the x axis" '^ +[0-9]+[GT]└─+▲─+▲─+'
on_screen "the tensor roof and its ridge in the legend" '^ tensor \(BF16\) 800000 GFLOP/s measured, 1024000 spec; ▲ ridge 266\.7 FLOP/B'
on_screen "step 1 against it" '^ 1 tc_wmma_global +1024\.000 FLOP/B +30000\.0 GFLOP/s tensor +3\.8%'
screen > "$tmp/screen"
python3 - "$tmp/screen" <<'PY' || fail "tensor roofline at 80x24: every step's mark once, the tensor roof in Braille"
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
assert max(len(l) for l in lines) <= 80, max(len(l) for l in lines)
plot = [l[6:] for l in lines if "┤" in l or "│" in l[:8]]
marks = re.sub(r"×[0-9]+", "", "".join(plot))
spots = re.search(r"Steps at one spot: (.*)", " ".join(lines))
shared = re.findall(r"\(([0-9a-z ]+)\)", spots.group(1)) if spots else []
for m in "1357dgm":
    assert marks.count(m) == 1 or (marks.count(m) == 0 and any(m in g.split() for g in shared)), m
# the top row holds the tensor roof's flat top, in Braille
assert sum(1 for ch in plot[0] if 0x2800 <= ord(ch) <= 0x28ff) > 10, plot[0]
PY
# back on the lesson, every recorded step: a rate of 100,000 GFLOP/s or more in thousands
# (697k), never cut to its first five digits
keys Escape
keys a
wait_for "the tensor steps' rates in thousands" ' [0-9]{3}k +[0-9]+% '
screen > "$tmp/screen"
grep -Eq ' [0-9]{6} +[0-9]+% ' "$tmp/screen" && fail "a rate of six digits in the results table"
keys q

# Where the terminal does not speak UTF-8: ASCII only.
start 80 24 C
keys R
wait_for "R draws the roofline in ASCII" 'register-tiling - roofline'
on_screen "an ASCII axis and ridge" '^ +[0-9]+[GT]\+-+\^-+'
screen > "$tmp/screen"
python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); sys.exit(any(b > 127 for b in d))' "$tmp/screen" ||
	fail "the ASCII roofline has bytes that are not ASCII"
keys q


# ---- 16 steps at 80x24: the GPU and date named, the advice whole, the list scrolled to its end -------
tutor_at vectorize 1 80 24
wait_for "vectorize's first step" 'Step 1 of 16'
keys R
wait_for "R draws vectorize's roofline" 'vectorize · roofline'
on_screen "its header names the GPU and the date" '^ GFLOP/s, recorded on H[0-9]+[^ ]* on 20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]'
gpu=$(screen | sed -n 's/^ GFLOP\/s, recorded on \([^ ]*\) on .*/\1/p')
keys Escape W
wait_for "W: the sweep" 'vectorize · size sweep'
on_screen "the sweep is of the same GPU" "^ GB/s, recorded on $gpu"
keys Escape R
screen | tr -s ' \n' '  ' > "$tmp/words"
has "the step's advice whole, to the lesson that attacks it" 'Step 1: at [0-9.]+% of the DRAM roof.*\(vectorize lesson\)' "$tmp/words"
on_screen "the list says there is more below" '↓ *$'
not_on_screen "the last step is not in view yet" '^ g vec_add_int8'
for k in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do tm send-keys -t tutor j; done
sleep 0.3
wait_for "j scrolls the list down to the last step" '^ g vec_add_int8 +[0-9.]+ FLOP/B'
on_screen "and says there is more above" '↑ *$'
keys q

finish

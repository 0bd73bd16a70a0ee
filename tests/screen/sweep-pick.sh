#!/bin/sh
# A sweep you can read at 80x24: n picks one step out of the others (N the
# previous, a all alike again): its points drawn with its mark, each other
# step's points as dots with no joining dots between them, and under the
# chart its name and a table of its rate at each size, every rate under its
# size and as recorded.  The fixture's recorded sweep of vectorize (a source
# tree whose data/results holds only tests/fixtures/results-sweep.json).
. "$(dirname "$0")/../lib/lib.sh"

. "$(dirname "$0")/../lib/tmux.sh"
export XDG_DATA_HOME="$tmp/data"

src="$tmp/src"
mkdir -p "$src/data/results"
for f in "$CUDATUTOR_SRCDIR"/*; do
	[ "$(basename "$f")" = data ] || ln -s "$f" "$src/$(basename "$f")"
done
cp "$CUDATUTOR_SRCDIR/tests/fixtures/results-sweep.json" "$src/data/results/fixture-gpu.json"

# start LANG: the tutor at vectorize's introduction, 80x24, its sweep open.
start() {
	tutor_at vectorize 0 80 24 CUDATUTOR_SRCDIR="$src" LANG="$1"
	wait_for "vectorize at 80x24 ($1)" 'vectorize'
	keys W
	wait_for "W: the sweep ($1)" 'vectorize . size sweep'
}

# picked STEP DOT: the screen shows step STEP (1-based in the fixture) picked out, the others as DOT.
picked() {
	screen > "$tmp/screen"
	python3 - "$tmp/screen" "$src/data/results/fixture-gpu.json" "$1" "$2" <<'PY' && echo "ok: step $1 picked out: its marks, the others' points as '$2', its rates in a table under their sizes" ||
import json, re, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
sw = [s for s in json.load(open(sys.argv[2]))["sweeps"] if s["lesson"] == "vectorize" and s["over"] == "size"][0]
k, dot = int(sys.argv[3]), sys.argv[4]
st = sw["steps"][k - 1]
mark = str(st["step"])
bad = []
assert max(len(l) for l in lines) <= 80
# the plot: the rows left of the y axis; the marks' and dots' columns
plot = [l[7:] for l in lines if len(l) > 6 and l[6] in "┤│+|" and re.match(r"^ *[0-9.]*$", l[:6])]
marks = {c for l in plot for c, ch in enumerate(l) if ch == mark}
dots = {c for l in plot for c, ch in enumerate(l) if ch == dot}
n = sum(l.count(mark) for l in plot)
if n != len(st["points"]):
    bad.append("%d marks %s in the plot, %d points" % (n, mark, len(st["points"])))
if not dots:
    bad.append("no other step drawn as %s" % dot)
if not dots <= marks:
    bad.append("dots between the points, in columns %s" % sorted(dots - marks))
for other in sw["steps"]:
    if other is not st and any(str(other["step"]) in l for l in plot):
        bad.append("step %d's mark is still drawn" % other["step"])
# the title, then size and rate rows: each rate ends in the column its size ends in
title = "%s %s, step %d (%d of %d), GB/s:" % (mark, st["kernel"], st["step"], k, len(sw["steps"]))
if not any(l.startswith(" " + title) for l in lines):
    bad.append("no title '%s'" % title)
table = {}
for i, l in enumerate(lines[:-1]):
    if l.startswith(" size ") and lines[i + 1].startswith(" GB/s "):
        for m in re.finditer(r"\S+", l[6:]):
            r = lines[i + 1][6 + m.start():6 + m.end()]
            table[m.group(0)] = r.strip()
for p in st["points"]:
    at = "2^%d" % (p["size"].bit_length() - 1)
    want = "%.4g" % p["rate"] if p["ran"] and p["correct"] else "-"
    if table.get(at) != want:
        bad.append("at %s: '%s' under it, recorded %s" % (at, table.get(at), want))
for b in bad:
    print(b, file=sys.stderr)
if bad:
    print("\n".join(lines), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
	fail "step $1 is not picked out as it should be (above)"
}

start C.UTF-8
keys n
picked 1 ·
not_on_screen "the legend of every step gives way to the table" '3 vec_add_float4 +5 vec_add_char'
keys n
picked 2 ·
keys N N
picked 3 ·
keys a
on_screen "a: every step alike again, in the legend" '1 vec_add_float +3 vec_add_float4 +5 vec_add_char'
on_screen "the key line names n and a" '^ n pick a step +a all '
keys ?
wait_for "the help says what n does" 'pick out the next / previous step \(the'
keys q

# In ASCII: the others as '.'.
start C
keys n
picked 1 .
keys q

finish

#!/bin/sh
# The roofline at 80x24 keeps every step where its figures put it: each
# step's mark (or the mark of the steps it shares a cell with, "3×4") sits
# in the row and column its FLOP per byte and GFLOP/s fall in, read off the
# chart's own axes; steps in one cell are drawn once, counted, and named in
# the line under the chart, never pushed sideways to look like another
# intensity.  The figures come from 'cudatutor roofline --format json', the
# same recorded results the tutor shows.
. "$(dirname "$0")/../lib/lib.sh"

. "$(dirname "$0")/../lib/tmux.sh"
export XDG_DATA_HOME="$tmp/data"

# start LESSON LANG: the tutor at the introduction of LESSON, 80x24, its roofline open.
start() {
	tutor_at "$1" 0 80 24 LANG="$2"
	wait_for "$1 at 80x24" "$1"
	keys R
	wait_for "R draws $1's roofline" "$1 . roofline"
}

# pinned LESSON: every step in its cell, as above (the screen in $tmp/screen).
pinned() {
	"$CUDATUTOR" roofline "$1" --format json > "$tmp/points.json" 2> /dev/null ||
		{ fail "$1: roofline --format json"; return; }
	screen > "$tmp/screen"
	python3 - "$tmp/screen" "$tmp/points.json" <<'PY' && echo "ok: $1: every step in the row and column of its figures, none pushed aside" ||
import json, math, re, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
d = json.load(open(sys.argv[2]))
axis = next(i for i, l in enumerate(lines) if re.match(r"^ +[0-9.]+[MGTP]?(└|\+-)", l))
x0 = re.search(r"└|\+-", lines[axis]).start() + 1          # the plot's first column on the screen
w = len(lines[axis].rstrip()) - x0
top = axis
while top > 0 and len(lines[top - 1]) > x0 - 1 and lines[top - 1][x0 - 1] in "│┤|+":
    top -= 1
plot = [l.ljust(x0 + w)[x0:x0 + w] for l in lines[top:axis]]
h = len(plot)
# the axes: decades under the x axis, the lowest decade in the corner
xl = [float(v) for v in lines[axis + 1].split()]
xmin, xmax = math.log10(xl[0]), math.log10(xl[-1])
units = {"M": -3, "G": 0, "T": 3, "P": 6}
corner = re.match(r"^ +([0-9.]+)([MGTP])", lines[axis])
ymin = math.log10(float(corner.group(1))) + units[corner.group(2)]
roofs = d["roofs"]
gflops = roofs["fp32_measured_gflops"] or roofs["fp32_theoretical_gflops"]
pts = [p for p in d["points"] if p["placed"]]
yhi = max([gflops, roofs["fp32_theoretical_gflops"]] + [p["gflops"] for p in pts])
ymax = math.log10(yhi * 1.25)
# the spots line: "Steps at one spot: 3×4 (3 4 5 6); ..."
text = " ".join(lines)
spot = {}
m = re.search(r"Steps at one spot: (.*)", text)
if m:
    for item in re.finditer(r"(\w)[×x](\d+) \(([\w ]+)\)", m.group(1)):
        members = item.group(3).split()
        assert len(members) == int(item.group(2)), item.group(0)
        for k in members:
            spot[k] = item.group(1)
def cells(v):
    # the cells a value may fall in: the one it does, and its neighbour when it lies on the edge
    return {math.floor(v + e) for e in (-0.01, 0, 0.01)}
bad = []
for p in pts:
    col = (math.log10(p["intensity"]) - xmin) / (xmax - xmin) * w
    row = (ymax - math.log10(p["gflops"])) / (ymax - ymin) * h
    want = spot.get(p["mark"], p["mark"])
    found = [(r, c) for r in range(h) for c in range(w) if plot[r][c] == want]
    if len(found) != 1:
        bad.append("%s: its mark %s is in the plot %d times" % (p["kernel"], want, len(found)))
        continue
    r, c = found[0]
    if min(c, w - 1) not in {min(x, w - 1) for x in cells(col)} or min(r, h - 1) not in {min(y, h - 1) for y in cells(row)}:
        bad.append("%s (%.3f FLOP/B, %.1f GFLOP/s): drawn at row %d column %d, its figures say row %.2f column %.2f"
                   % (p["kernel"], p["intensity"], p["gflops"], r, c, row, col))
    if want != p["mark"] or sum(1 for k in spot.values() if k == p["mark"]) > 1:
        n = sum(1 for k in spot.values() if k == want)
        if plot[r][c + 1:c + 2 + len(str(n))] not in ("×%d" % n, "x%d" % n):
            bad.append("%s: its cell is not counted: '%s'" % (p["kernel"], plot[r][c:c + 4]))
for b in bad:
    print(b, file=sys.stderr)
print("\n".join(plot), file=sys.stderr) if bad else None
sys.exit(1 if bad else 0)
PY
	fail "$1: a step is not where its figures put it (above)"
}

start register-tiling C.UTF-8
pinned register-tiling
on_screen "register-tiling: the four steps at 341 FLOP/B and 29 to 39 TFLOP/s in one cell, counted" '│.* 3×4 '
on_screen "and named under the chart" '^ Steps at one spot: 3×4 \(3 4 5 6\) *$'
keys q

start vectorize C.UTF-8
pinned vectorize
on_screen "vectorize: the eight 0.083 FLOP/B steps of float and int, in one cell" '1×8'
on_screen "named under the chart" '^ Steps at one spot: 1×8 \(1 2 3 4 d e f g\)'
keys q

# In ASCII: an x for the count.
start register-tiling C
pinned register-tiling
on_screen "the count in ASCII" '\|.* 3x4 '
on_screen "named in ASCII" '^ Steps at one spot: 3x4 \(3 4 5 6\) *$'
keys q

finish

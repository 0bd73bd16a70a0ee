#!/bin/sh
# A lesson's ```summary block, drawn from the recorded files by `read` (the tutor draws the same
# lines): each step's median on each GPU and its speed against the step before it on the ladder,
# the figures checked against the files here, computed again; a control is never the step before;
# a matrix lesson's at its own size (2048), not another the files hold;
# a narrow terminal keeps the rows within its width; no recorded file, one line that says so.
. "$(dirname "$0")/../lib/lib.sh"
T=$CUDATUTOR
src="$tmp/src"
mkdir -p "$src/data"
cp -R "$CUDATUTOR_SRCDIR/lessons" "$CUDATUTOR_SRCDIR/kernels" "$src/"
cp -R "$CUDATUTOR_SRCDIR/data/results" "$src/data/"
chmod -R u+w "$src"
grep -q '^```summary' "$src/lessons/en/01-reduction.md" ||
	printf '\n```summary\n```\n' >> "$src/lessons/en/01-reduction.md"
export CUDATUTOR_SRCDIR="$src" CUDATUTOR_NO_GPU=1

"$T" read reduction --width 90 > "$tmp/out" 2> "$tmp/err" || fail "read: $(cat "$tmp/err")"
python3 - "$tmp/out" "$src/data/results" <<'PY' && echo "ok: each step's time and its speed against the ladder's step before, on each GPU" || fail "the summary: $(grep -A8 'What each change' "$tmp/out")"
import json, os, re, sys
out = open(sys.argv[1]).read().splitlines()
at = next(i for i, l in enumerate(out) if l.startswith("What each change bought"))
head, rows = out[at + 1], out[at + 2:at + 6]
gpus = re.findall(r"(H\d+) ms", head)
assert gpus == ["H100", "H200"], head
for g, name in enumerate(gpus):
    d = json.load(open(os.path.join(sys.argv[2], "nvidia-%s.json" % name.lower())))
    run = next(r for r in d["runs"] if r["lesson"] == "reduction" and r["size"] == 1 << 24)
    steps = run["steps"]
    prev = None
    for i, (s, row) in enumerate(zip(steps, rows)):
        cells = row.split()
        ms, x = cells[-4 + 2 * g], cells[-3 + 2 * g]
        assert ms == "%.4f" % s["median_ms"], (row, s["median_ms"])
        if prev is None:
            assert x == "-", row
        else:
            assert x == "%.2f\u00d7" % (prev["median_ms"] / s["median_ms"]), (row, x)
        if not s.get("control"):
            prev = s   # a control is measured against the ladder, never the step before the next
    last = [s for s in steps if not s.get("control")][-1]
    together = "%.2f\u00d7 on the %s" % (steps[0]["median_ms"] / last["median_ms"], name)
    assert together in " ".join(out[at + 6:at + 9]), together
PY
# the control step is marked in its title, and the step after it is measured against step 1
grep -q '^ 2  Control:' "$tmp/out" && echo "ok: the control says it is one" || fail "no control row"

# A matrix lesson's table, at the lesson's own size and block (2048, the side of the matrices; block
# 256 for register tiling, 1024 for shared memory), where both recorded files also hold a run at
# 4096: each step's time is the 2048 run's, on each GPU.
for case in "register-tiling 2048 256" "shared-memory 2048 1024"; do
	set -- $case
	"$T" read "$1" --width 100 > "$tmp/matrix" 2> "$tmp/err" || fail "read $1: $(cat "$tmp/err")"
	python3 - "$tmp/matrix" "$src/data/results" "$1" "$2" "$3" <<'PY' && echo "ok: $1: the table at size $2, each step's time as recorded there" ||
import json, os, re, sys
out = open(sys.argv[1]).read().splitlines()
lesson, size, block = sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
at = next(i for i, l in enumerate(out) if l.startswith("What each change bought"))
assert "as recorded at size %d " % size in out[at], out[at]
head = out[at + 1]
gpus = re.findall(r"(H\d+) ms", head)
assert gpus == ["H100", "H200"], head
for g, name in enumerate(gpus):
    runs = json.load(open(os.path.join(sys.argv[2], "nvidia-%s.json" % name.lower())))["runs"]
    run = next(r for r in runs if r["lesson"] == lesson and r["size"] == size and r["block"] == block)
    other = [r for r in runs if r["lesson"] == lesson and r["size"] != size]
    # the other size's times differ: a table of the wrong run cannot pass
    assert other and all(o["steps"][0]["median_ms"] != run["steps"][0]["median_ms"] for o in other), lesson
    rows = out[at + 2:at + 2 + len(run["steps"])]
    for s, row in zip(run["steps"], rows):
        cells = row.split()
        assert cells[0] == str(s["step"]), (row, s["step"])
        assert cells[-4 + 2 * g] == "%.4f" % s["median_ms"], (name, row, s["median_ms"])
PY
	fail "$1's summary: $(sed -n '/^What each change/,/^$/p' "$tmp/matrix")"
done

"$T" read reduction --width 60 > "$tmp/narrow" || fail "read --width 60"
# the table's lines (from its heading to the blank line after it) within 60 columns
sed -n '/^What each change bought/,/^$/p' "$tmp/narrow" | python3 -c "
import sys
lines = sys.stdin.read().splitlines()
bad = [l for l in lines if len(l) > 60]
sys.exit(1 if bad or len(lines) < 7 else 0)" && echo "ok: at 60 columns the table fits" || fail "the table at 60 columns: $(sed -n '/^What each/,/^$/p' "$tmp/narrow")"

rm -f "$src"/data/results/*.json
"$T" read reduction > "$tmp/none" 2>&1
grep -q "No recorded file holds this lesson yet" "$tmp/none" && echo "ok: no recorded file, said in one line" ||
	fail "without recorded files: $(grep -A2 'summary' "$tmp/none")"
finish

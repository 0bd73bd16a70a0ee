#!/bin/sh
# The figures the lessons quote from a recorded GPU, checked against its file
# in data/results (see figures.py); and --rewrite, on a copy, changes a
# figure made wrong back to its recorded value and leaves the rest alone.
: "${CUDATUTOR_SRCDIR:?run the tests through make check}"
ls "$CUDATUTOR_SRCDIR"/data/results/*.json > /dev/null 2>&1 || { echo "skip: data/results is empty"; exit 77; }
# A recorded file keeps measurements; the figures derived from them (GB/s, %roof...) are the
# tutor's, derived on load (figures.py asks it for them), never a stale copy in the file.
for f in "$CUDATUTOR_SRCDIR"/data/results/*.json; do
	! grep -Eq '^ +"(gbps|pct_copy|pct_of_roof|speedup_first|limiter)": ' "$f" ||
	    { echo "$f keeps derived figures: record it again, or remove them"; exit 1; }
done
python3 "$CUDATUTOR_SRCDIR/tests/lessons/figures.py" "$CUDATUTOR_SRCDIR" || exit 1

copy=$(mktemp -d) || exit 1
trap 'rm -rf "$copy"' EXIT
mkdir -p "$copy/tests/lessons" "$copy/data"
cp -R "$CUDATUTOR_SRCDIR/lessons" "$copy/" && cp -R "$CUDATUTOR_SRCDIR/data/results" "$copy/data/" &&
    cp "$CUDATUTOR_SRCDIR/tests/lessons/figures.map" "$copy/tests/lessons/" || exit 1
chmod -R u+w "$copy"
lesson=$copy/lessons/en/10-tensor-cores.md
# step 1's long-scoreboard stall on the recorded H100, the first figure of the lesson's steps
old=$(sed -n 's/.*On the recorded H100 its warps spend \([0-9.]*\)% .*/\1/p' "$lesson" | head -1)
[ -n "$old" ] || { echo "no H100 stall for step 1 in $lesson"; exit 1; }
sed "0,/spend $old%/s//spend 12.34%/" "$lesson" > "$lesson.new" && mv "$lesson.new" "$lesson"
if python3 "$CUDATUTOR_SRCDIR/tests/lessons/figures.py" "$copy" > /dev/null 2>&1; then
	echo "the check passed a figure made wrong (12.34% for $old)"; exit 1
fi
python3 "$CUDATUTOR_SRCDIR/tests/lessons/figures.py" "$copy" --rewrite 10-tensor-cores || exit 1
grep -q "spend $old%" "$lesson" || { echo "--rewrite did not write $old back"; exit 1; }
diff -r "$CUDATUTOR_SRCDIR/lessons" "$copy/lessons" || { echo "--rewrite changed more than the wrong figure"; exit 1; }
echo "--rewrite wrote $old% back, and nothing else"

# Its power, measured as figures-mutate.py measures it: a sample of figures, each made 3% wrong,
# every one caught that the change does not round back to itself; and a figure off by one in its
# last digit.  (The tolerance widened tenfold let wrong figures through and passed.)
cp "$CUDATUTOR_SRCDIR/tests/lessons/figures.py" "$CUDATUTOR_SRCDIR/tests/lessons/figures-mutate.py" \
    "$copy/tests/lessons/" || exit 1
FIGURES_DERIVED_CACHE=$copy/derived; export FIGURES_DERIVED_CACHE
python3 "$copy/tests/lessons/figures-mutate.py" "$copy" 1.03 12 > "$copy/mutate.out" || exit 1
set -- $(sed -n 's/^caught \([0-9]*\) of [0-9]* figures multiplied by [0-9.]* (\([0-9]*\) changed by it)$/\1 \2/p' \
    "$copy/mutate.out")
if [ -z "${2:-}" ] || [ "$2" -eq 0 ] || [ "$1" != "$2" ]; then
	cat "$copy/mutate.out"
	echo "figures-mutate: not every figure changed by 3% was caught"
	exit 1
fi
echo "every one of $2 figures changed by 3% caught"
python3 - "$copy" <<'PY' || exit 1
import os, subprocess, sys
root = sys.argv[1]
sys.path.insert(0, os.path.join(root, "tests/lessons"))
import figures
cases = [f for f in figures.figures(root, figures.load(root), "en") if len(f["text"].replace(".", "")) >= 3]
f = cases[len(cases) // 2]
text = open(f["path"], encoding="utf-8").read()
last = f["text"][-1]
new = f["text"][:-1] + ("8" if last == "9" else str(int(last) + 1))
open(f["path"], "w", encoding="utf-8").write(text[:f["offset"]] + new + text[f["offset"] + len(f["text"]):])
r = subprocess.run([sys.executable, os.path.join(root, "tests/lessons/figures.py"), root], capture_output=True)
open(f["path"], "w", encoding="utf-8").write(text)
if r.returncode == 0:
    sys.exit("figures.py passed %s written %s in %s" % (f["text"], new, os.path.basename(f["path"])))
print("a figure off by one in its last digit caught: %s written %s in %s" % (f["text"], new, os.path.basename(f["path"])))
PY

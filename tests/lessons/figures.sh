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
# step 1's time on the recorded H100, the first figure of its kind in the lesson
old=$(sed -n 's/.*On the recorded H100 this step takes \([0-9.]*\) ms.*/\1/p' "$lesson" | head -1)
[ -n "$old" ] || { echo "no H100 time for step 1 in $lesson"; exit 1; }
sed "0,/takes $old ms/s//takes 9.9999 ms/" "$lesson" > "$lesson.new" && mv "$lesson.new" "$lesson"
if python3 "$CUDATUTOR_SRCDIR/tests/lessons/figures.py" "$copy" > /dev/null 2>&1; then
	echo "the check passed a figure made wrong (9.9999 ms for $old)"; exit 1
fi
python3 "$CUDATUTOR_SRCDIR/tests/lessons/figures.py" "$copy" --rewrite 10-tensor-cores || exit 1
grep -q "takes $old ms" "$lesson" || { echo "--rewrite did not write $old back"; exit 1; }
diff -r "$CUDATUTOR_SRCDIR/lessons" "$copy/lessons" || { echo "--rewrite changed more than the wrong figure"; exit 1; }
echo "--rewrite wrote $old ms back, and nothing else"

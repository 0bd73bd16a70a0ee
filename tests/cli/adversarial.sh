#!/bin/sh
# The adversarial exercise kernels (tests/exercises/adversarial/) without a
# GPU: scripts/adversarial checks each one, and the SASS alone must already
# give the verdict a careful grader gives where it can.  Every case expected
# "fail (sass)" exits 3; every case expected "pass" exits 0 or 4 (its SASS
# passes).  The other cases need a GPU to judge: scripts/device-run
# adversarial.
. "$(dirname "$0")/../lib/lib.sh"
T=$CUDATUTOR
set_dir=$CUDATUTOR_SRCDIR/tests/exercises/adversarial

# the set itself: at least 55 cases, every exercise among them, each with its verdict on line 1
"$T" exercise --format json > "$tmp/exercises.json" || fail "exercise --format json failed"
python3 - "$set_dir" "$tmp/exercises.json" <<'PY' && echo "ok: 55 cases or more, every exercise, each first line an expect line" ||
import glob, json, os, re, sys
d, ids = sys.argv[1], {x["id"] for x in json.load(open(sys.argv[2]))}
files = sorted(glob.glob(os.path.join(d, "*.cu")))
bad = []
for f in files:
    name = os.path.basename(f)
    first = open(f, encoding="utf-8").readline()
    if not re.match(r"// expect: (pass|fail|fail \(sass\)) — \S", first):
        bad.append("%s: first line %r" % (name, first[:60]))
    if name.split(".")[0] not in ids:
        bad.append("%s: no exercise %s" % (name, name.split(".")[0]))
missing = sorted(ids - {os.path.basename(f).split(".")[0] for f in files})
passes = sum(open(f, encoding="utf-8").readline().startswith("// expect: pass") for f in files)
for b in bad:
    print(b)
if missing:
    print("exercises with no case: " + " ".join(missing))
print("%d cases, %d expected to pass" % (len(files), passes))
sys.exit(1 if bad or missing or len(files) < 55 or passes < 12 else 0)
PY
	fail "the adversarial set is short, or a file's first line is not an expect line"

if [ -z "${CUOBJDUMP:-}" ]; then
	skip "the adversarial kernels' SASS (configure found no cuobjdump)"
	finish
fi

# the runner without a GPU: a WRONG line is a fail (sass) case the SASS let through, or a
# pass case it failed; a case that does not compile or cannot be checked is one too
CUDATUTOR=$T "$CUDATUTOR_SRCDIR/scripts/adversarial" > "$tmp/out" 2> "$tmp/err"
rc=$?
cat "$tmp/out"
if grep -q 'SASS not checked' "$tmp/out"; then
	skip "the adversarial kernels' SASS (the program cannot read SASS here)"
	finish
fi
grep -E ' expect fail \(sass\) ' "$tmp/out" | grep -v -E ' got fail +OK ' | while read -r name _; do
	echo "FAIL: $name: expected to fail in the SASS (exit 3)"
done > "$tmp/sass-let-through"
grep -E ' expect pass ' "$tmp/out" | grep -v -E ' got (pass \(SASS\)|not graded|pass) +OK ' | while read -r name _; do
	echo "FAIL: $name: expected its SASS to pass (exit 0 or 4)"
done > "$tmp/sass-failed"
cat "$tmp/sass-let-through" "$tmp/sass-failed"
n=$(cat "$tmp/sass-let-through" "$tmp/sass-failed" | wc -l)
[ "$n" -eq 0 ] && echo "ok: every fail (sass) case exits 3, every pass case 0 or 4" ||
	fail "$n adversarial cases judged wrong from their SASS"
[ "$rc" -eq 0 ] && echo "ok: scripts/adversarial exits 0" ||
	fail "scripts/adversarial exits $rc: $(tail -1 "$tmp/out") $(head -3 "$tmp/err")"

# several checks at once (ADVERSARIAL_JOBS, as on the GPU machine): the same lines, in the same order
ADVERSARIAL_JOBS=3 CUDATUTOR=$T "$CUDATUTOR_SRCDIR/scripts/adversarial" char8 float4 > "$tmp/jobs" 2> "$tmp/err"
grep -E '^(char8|float4)\.' "$tmp/out" > "$tmp/alone"
grep -v ' cases: ' "$tmp/jobs" > "$tmp/together"
if [ -s "$tmp/alone" ] && diff "$tmp/alone" "$tmp/together" > /dev/null; then
	echo "ok: three checks at once give the $(wc -l < "$tmp/alone") lines of char8 and float4 one at a time gave"
else
	fail "three checks at once differ from one at a time: $(diff "$tmp/alone" "$tmp/together" | head -4)"
fi
exits 2 "ADVERSARIAL_JOBS=0 is refused" env ADVERSARIAL_JOBS=0 CUDATUTOR=$T "$CUDATUTOR_SRCDIR/scripts/adversarial" char8
finish

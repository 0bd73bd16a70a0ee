#!/bin/sh
# Class mode on a GPU: two passing kernels ranked by the time this GPU measured (never the one
# a student sent), the starting file failing its SASS check, a kernel that never ends failing
# with its reason while the rest are judged.  Skips where no GPU can judge.
. "$(dirname "$0")/../lib/lib.sh"
T=$CUDATUTOR
src="$CUDATUTOR_SRCDIR/kernels/exercises"
class="$tmp/class"
mkdir -p "$class"
unset CUDATUTOR_NO_GPU

"$T" check float4 --file "$src/float4.solution.cu" > "$tmp/out" 2> "$tmp/err"
case $? in
1) echo "skip: the exercises cannot be checked here: $(cat "$tmp/err")"; exit 77 ;;
4) echo "skip: no GPU here judges the exercises"; exit 77 ;;
esac

"$T" submit float4 --name "Ann" --file "$src/float4.solution.cu" --output "$class/ann.json" > /dev/null
{ cat "$src/float4.solution.cu"; echo "// Dee's copy"; } > "$tmp/dee.cu"
"$T" submit float4 --name "Dee" --file "$tmp/dee.cu" --output "$class/dee.json" > /dev/null
"$T" submit float4 --name "Ben" --file "$src/float4.cu" --output "$class/ben.json" > /dev/null
python3 - "$src/float4.solution.cu" "$tmp/cy.cu" <<'PY'
import sys
text = open(sys.argv[1]).read()
at = text.index("{", text.index("__global__"))
open(sys.argv[2], "w").write(text[:at + 1] + "\n    while (n > 0)\n        __nanosleep(1000);\n" + text[at + 1:])
PY
"$T" submit float4 --name "Cy" --file "$tmp/cy.cu" --output "$class/cy.json" > /dev/null
# a time sent by a student is information only: a fast one must not move Ben up
python3 - "$class/ben.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["student_check"] = {"passed": True, "best_ms": 0.000001, "gpu": "NVIDIA H200", "note": "sent"}
json.dump(s, open(sys.argv[1], "w"))
PY

ok "class judges the folder on the GPU" "$T" class "$class" --format json
cp "$tmp/out" "$tmp/class.json"
python3 - "$tmp/class.json" <<'PY' && echo "ok: two passes ranked by this GPU's times, the start and the endless kernel failed" ||
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ranked"] and d["gpus"], d["gpus"]
by = {s["name"]: s for s in d["submissions"]}
ann, dee, ben, cy = by["Ann"], by["Dee"], by["Ben"], by["Cy"]
for s in (ann, dee):
    assert s["passed"] and s["graded"] and s["ms"] > 0 and s["ratio"] > 0 and s["gpu"] and s["seed"], s
assert sorted([ann["rank"], dee["rank"]]) == [1, 2], (ann["rank"], dee["rank"])
fast, slow = (ann, dee) if ann["rank"] == 1 else (dee, ann)
assert fast["ms"] <= slow["ms"], (fast["ms"], slow["ms"])
assert ben["verdict"] == "FAIL" and ben["rank"] is None and ben["reason"].startswith("SASS: LDG.E.128"), ben
assert cy["verdict"] == "FAIL" and cy["rank"] is None and cy["reason"], cy
print("Ann %.4f ms, Dee %.4f ms on %s; Cy: %s" % (ann["ms"], dee["ms"], ann["gpu"], cy["reason"]))
PY
	fail "the class's verdicts on the GPU: $(cat "$tmp/class.json" | head -60)"
ok "the board as text" "$T" class "$class"
has "rank 1, with its time and ratio" '^ +1  (Ann|Dee) +passed +[0-9.]+ +[0-9.]+x  ' "$tmp/out"
has "the best time in the heading" '^Exercise float4: 4 submissions; best [0-9.]+ ms, (Ann|Dee), on ' "$tmp/out"
finish

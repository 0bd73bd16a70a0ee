#!/bin/sh
# The exercises from the command line, as a student uses them, without a GPU:
# the list, a working copy, check (NVRTC, the SASS checks, file:line:col),
# hint, solution and reset; and run --compare on recorded files.
. "$(dirname "$0")/../lib/lib.sh"
T=$CUDATUTOR
export XDG_DATA_HOME="$tmp/data"
work="$XDG_DATA_HOME/cudatutor/exercises"

ok "exercise lists them" "$T" exercise
has "the list has a status column" 'not started' "$tmp/out"
ok "exercise --format json" "$T" exercise --format json
n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$tmp/out")
lessons=$(python3 -c 'import json,sys; print(len({x["lesson"] for x in json.load(open(sys.argv[1]))}))' "$tmp/out")
[ "$n" -ge 16 ] && [ "$lessons" -ge 8 ] && echo "ok: $n exercises in $lessons lessons" ||
	fail "want at least 16 exercises over every lesson, have $n in $lessons lessons"
# every exercise has its text, in English and in Chinese
python3 - "$tmp/out" <<'PY' && echo "ok: every exercise has a title and hints in English" || fail "an exercise lacks its English text"
import json, sys
sys.exit(0 if all(x["title"] and x["hints"] >= 2 for x in json.load(open(sys.argv[1]))) else 1)
PY
ok "exercise --format json --lang zh_CN" "$T" exercise --format json --lang zh_CN
python3 - "$tmp/out" <<'PY' && echo "ok: every exercise has a title and hints in Chinese" || fail "an exercise lacks its Chinese text"
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if all(x["title"] and x["hints"] >= 2 and any(ord(c) > 0x2e80 for c in x["title"]) for x in d) else 1)
PY

id=$(python3 -c 'import json,sys; print([x["id"] for x in json.load(open(sys.argv[1])) if x["target"] == "vec_add_float4"][0])' "$tmp/out")
[ -n "$id" ] || fail "no exercise writes vec_add_float4"

refused "an unknown exercise" "unknown exercise 'nope'" "$T" exercise nope
refused "check without a working copy" "no working copy yet" "$T" check "$id"
ok "exercise $id starts it" "$T" exercise "$id"
has "the task is printed" 'Your working copy, new:' "$tmp/out"
[ -f "$work/$id.cu" ] && echo "ok: the working copy is there" || fail "no $work/$id.cu"
echo "// mine" >> "$work/$id.cu"
ok "starting it again" "$T" exercise "$id"
grep -q '// mine' "$work/$id.cu" && echo "ok: the student's file is never written over" ||
	fail "exercise $id wrote over the working copy"

# the untouched starting file compiles and fails the SASS check with its message
"$T" check "$id" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" -eq 3 ] && echo "ok: check of the starting file exits 3" || fail "check of the starting file: exit $rc"
has "the failed check is named" 'FAIL +LDG\.E\.128: at least 2, found 0' "$tmp/out"
has "no GPU is said" 'On the GPU: not run' "$tmp/out"

# our solution passes everything that can be checked without a GPU
ok "check --file the solution" "$T" check "$id" --file "$CUDATUTOR_SRCDIR/kernels/exercises/$id.solution.cu"
has "the technique is there" 'ok +LDG\.E\.128' "$tmp/out"
has "the SASS checks say they are static" 'code that never runs counts too' "$tmp/out"
has "the answers are not judged without a GPU" 'answers: not judged \(no GPU\)' "$tmp/out"
has "nor is the time" 'time: not judged \(no GPU\)' "$tmp/out"
ok "check --format json" "$T" check "$id" --format json --file "$CUDATUTOR_SRCDIR/kernels/exercises/$id.solution.cu"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["compiled"] and d["sass_checked"] and all(c["passed"] for c in d["checks"]) and not d["gpu"] else 1)' "$tmp/out" &&
	echo "ok: the JSON says compiled, checked, no GPU" || fail "check --format json: $(head -c 300 "$tmp/out")"

# a syntax error: file:line:col, the line, and a caret
cat > "$tmp/broken.cu" <<'CU'
extern "C" __global__ void vec_add_float4(const float *x, const float *y, float *z, unsigned long long n)
{
    unsigned long long i = blockIdx.x * blockDim.x + ;
}
CU
"$T" check "$id" --file "$tmp/broken.cu" > "$tmp/out" 2> "$tmp/err"
has "a compile error says file:line:col" "broken\.cu:3:[0-9]+: error: " "$tmp/out"
has "and shows the line" 'blockIdx\.x \* blockDim\.x \+ ;' "$tmp/out"
has "and a caret under it" '^ +\^$' "$tmp/out"

# a kernel that is not the target's
printf 'extern "C" __global__ void something_else(float *p) { p[0] = 1.0f; }\n' > "$tmp/other.cu"
"$T" check "$id" --file "$tmp/other.cu" > "$tmp/out" 2> "$tmp/err"
has "a missing kernel is named" 'kernels must keep the name vec_add_float4' "$tmp/out"

ok "hint" "$T" hint "$id"
has "the first hint" "^Hint 1 of [0-9]+ for '$id'" "$tmp/out"
ok "hint again" "$T" hint "$id"
has "the second hint" "^Hint 2 of " "$tmp/out"
refused "solution without a terminal asks for --yes" 'add --yes' "$T" solution "$id"
ok "solution --yes" "$T" solution "$id" --yes
has "our solution is printed" 'vec_add_float4' "$tmp/out"
ok "reset" "$T" reset "$id"
has "reset names the backup" "what you had is kept as .*/$id\.cu\.~1~\$" "$tmp/out"
grep -q '// mine' "$work/$id.cu.~1~" && ! grep -q '// mine' "$work/$id.cu" &&
	echo "ok: reset puts the starting file back and keeps the student's as .~1~" || fail "reset"
# a second edit and reset: both versions kept, neither written over
echo "// mine again" >> "$work/$id.cu"
ok "reset after a second edit" "$T" reset "$id"
grep -q '// mine again' "$work/$id.cu.~2~" && grep -q '// mine' "$work/$id.cu.~1~" &&
	! grep -q '// mine again' "$work/$id.cu.~1~" && ! grep -q '// mine' "$work/$id.cu" &&
	echo "ok: a second reset keeps the second version as .~2~, the first still .~1~" ||
	fail "a second reset lost a version: $(ls "$work")"
# a reset of the untouched starting file keeps nothing new
ok "reset of an untouched copy" "$T" reset "$id"
has "it says nothing was to do" 'is the starting file already: nothing to reset' "$tmp/out"
[ ! -e "$work/$id.cu.~3~" ] && grep -q '// mine again' "$work/$id.cu.~2~" &&
	echo "ok: resetting the starting file keeps no copy of it" || fail "reset of an untouched copy: $(ls "$work")"

# two GPUs side by side: the recorded H200 against the fixture's (A named:
# plain --recorded takes the newest file, which a new recording changes)
h200=$CUDATUTOR_SRCDIR/data/results/nvidia-h200.json h100=$CUDATUTOR_SRCDIR/data/results/nvidia-h100.json
ok "run --compare" "$T" run reduction --recorded="$h200" --compare "$CUDATUTOR_SRCDIR/tests/fixtures/results-metrics.json"
has "both GPUs are named" '^B  Fixture GPU' "$tmp/out"
has "a ratio per step" 'reduce_neighbored +[0-9.]+ ms +[0-9.]+ ms +[0-9.]+x' "$tmp/out"
has "the bandwidth ratio" "B's copy bandwidth is 0\.24x A's" "$tmp/out"
# the two GPUs recorded in data/results: the vectorize lesson's claims
ok "run --compare of the two recorded GPUs" "$T" run vectorize --recorded="$h200" --compare "$h100"
has "the H100's copy bandwidth against the H200's" "B's copy bandwidth is 0\.71x A's" "$tmp/out"
has "float4 follows the bandwidth" 'vec_add_float4 +[0-9.]+ ms +[0-9.]+ ms +0\.74x  bandwidth' "$tmp/out"
has "one char a thread does not" 'vec_add_char +[0-9.]+ ms +[0-9.]+ ms +0\.98x *$' "$tmp/out"
refused "run --compare with a file that lacks the run" 'has no run of lesson' \
	"$T" run unrolling --recorded --compare "$CUDATUTOR_SRCDIR/tests/fixtures/results-metrics.json"
finish

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
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d and all(x["started"] is False for x in d) else 1)' "$tmp/out" &&
	echo "ok: the JSON says whether each was started: none yet" || fail "exercise --format json: no started, or started before any"
cp "$tmp/out" "$tmp/exercises.json"
# one exercise started as JSON (it printed text): its working copy, started, its task; in folders of its own
mkdir -p "$tmp/one"
XDG_DATA_HOME=$tmp/one XDG_STATE_HOME=$tmp/one "$T" exercise float4 --format json > "$tmp/one.json" 2>&1
python3 - "$tmp/one.json" "$tmp/one/cudatutor/exercises/float4.cu" <<'PY' && echo "ok: the started exercise as JSON" ||
import json, sys
d = json.load(open(sys.argv[1]))
assert d["id"] == "float4" and d["started"] is True and d["file"] == sys.argv[2], d
assert d["created"] is True and "float4" in d["task"], d
PY
	fail "exercise float4 --format json is not the started exercise as JSON: $(head -c 200 "$tmp/one.json")"
"$T" list --format json > "$tmp/lessons.json" || fail "list --format json failed"
# two exercises or more in every lesson (the manual says so), the tensor-core lesson's two included
python3 - "$tmp/exercises.json" "$tmp/lessons.json" <<'PY' && echo "ok: every lesson has two exercises or more" ||
import collections, json, sys
ex = json.load(open(sys.argv[1]))
per = collections.Counter(x["lesson"] for x in ex)
lessons = [l["id"] for l in json.load(open(sys.argv[2]))]
few = [l for l in lessons if per[l] < 2]
print("%d exercises in %d lessons" % (len(ex), len(per)))
if few:
    print("fewer than two exercises: " + " ".join(few))
ids = {x["id"] for x in ex}
sys.exit(1 if few or not {"cp-async", "warp-specialize"} <= ids or len(ex) < 23 else 0)
PY
	fail "a lesson has fewer than two exercises, or the list lacks the tensor-core lesson's"
# every exercise has its text, in English and in Chinese
python3 - "$tmp/out" <<'PY' && echo "ok: every exercise has a title and three hints in English" || fail "an exercise lacks its English text"
import json, sys
sys.exit(0 if all(x["title"] and x["hints"] == 3 for x in json.load(open(sys.argv[1]))) else 1)
PY
ok "exercise --format json --lang zh_CN" "$T" exercise --format json --lang zh_CN
python3 - "$tmp/out" <<'PY' && echo "ok: every exercise has a title and three hints in Chinese" || fail "an exercise lacks its Chinese text"
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if all(x["title"] and x["hints"] == 3 and any(ord(c) > 0x2e80 for c in x["title"]) for x in d) else 1)
PY

id=$(python3 -c 'import json,sys; print([x["id"] for x in json.load(open(sys.argv[1])) if x["target"] == "vec_add_float4"][0])' "$tmp/out")
[ -n "$id" ] || fail "no exercise writes vec_add_float4"

refused "an unknown exercise" "unknown exercise 'nope'" "$T" exercise nope
# a file checked where it is leaves nothing in the exercises' folder: its cubin goes in the cache
# without a GPU a kernel whose SASS passes is not graded: 4, never 0, so no grading script takes it for a pass
exits 4 "check --file before the exercise is started: not graded" "$T" check "$id" --file "$CUDATUTOR_SRCDIR/kernels/exercises/$id.solution.cu"
[ ! -e "$XDG_DATA_HOME/cudatutor" ] && echo "ok: check --file made no exercises folder" ||
	fail "check --file wrote into the exercises folder: $(find "$XDG_DATA_HOME" | head -5)"
if [ -n "${CUOBJDUMP:-}" ]; then
	ls "$XDG_CACHE_HOME"/cudatutor/cubins/"$id".solution-*.sm_*.cubin > /dev/null 2>&1 &&
		echo "ok: its cubin is in the cache" || fail "no cubin in $XDG_CACHE_HOME/cudatutor/cubins"
fi
ok "the list after check --file" "$T" exercise
has "the exercise is still not started" "^ $id .*not started" "$tmp/out"
refused "check without a working copy" "no working copy yet.*: start the exercise first: cudatutor exercise $id\$" "$T" check "$id"

# what is not a kernel's source is refused before it is read: a device, a directory, a large file
# (under a memory limit: a /dev/zero read for ever fails here rather than fill the machine)
# (AddressSanitizer reserves terabytes of address space: there, the timeout alone)
if grep -q -a __asan_init "$CUDATUTOR"; then
	limited() { timeout 20 "$@"; }
else
	limited() { sh -c 'ulimit -v 4000000; exec "$@"' sh timeout 20 "$@"; }
fi
refused "check --file /dev/zero" "^cudatutor: /dev/zero is not a regular file (a device, a pipe or a socket): give the path of the \.cu file with your kernel\$" \
	limited "$T" check "$id" --file /dev/zero
refused "check --file a directory" "is a directory: give the path of the \.cu file with your kernel" \
	limited "$T" check "$id" --file "$tmp"
python3 -c 'import sys; open(sys.argv[1], "w").write("//" + "x" * (1 << 20) + "\n")' "$tmp/large.cu"
refused "check --file a file over 1 MiB" "large\.cu is 1048579 bytes, more than a kernel's source (at most 1 MiB)" \
	limited "$T" check "$id" --file "$tmp/large.cu"

# a NUL byte cuts nothing silently: an error at its line
printf 'extern "C" __global__ void vec_add_float4(const float *x, const float *y, float *z, unsigned long long n)\n{\n  z[0] = 1;\000 z[1] = 2;\n}\n' \
    > "$tmp/nul.cu"
"$T" check "$id" --file "$tmp/nul.cu" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" -eq 3 ] && echo "ok: a NUL byte fails the check (exit 3)" || fail "a NUL byte: exit $rc: $(cat "$tmp/err")"
has "the NUL byte is an error at its line and column" 'nul\.cu:3:12: error: a NUL byte \(\\x00\) in the source' "$tmp/out"
has "and it does not compile" 'It does not compile yet' "$tmp/out"

# an escape byte in a line with an error is shown escaped, never sent to the terminal
printf 'extern "C" __global__ void vec_add_float4(const float *x, const float *y, float *z, unsigned long long n)\n{\n  z[0] = 1 \033[2J\033[31m;\n}\n' \
    > "$tmp/escape.cu"
"$T" check "$id" --file "$tmp/escape.cu" > "$tmp/out" 2> "$tmp/err"
has "an error on the line with the escape bytes" 'escape\.cu:3:[0-9]+: error' "$tmp/out"
has "the line is shown with them escaped" 'z\[0\] = 1 \\x1b\[2J\\x1b\[31m;' "$tmp/out"
if LC_ALL=C grep -q "$(printf '\033')" "$tmp/out"; then
	fail "a raw escape byte is printed: $(od -c "$tmp/out" | grep -m1 '033')"
else
	echo "ok: no raw escape byte in the report"
fi
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
exits 4 "check --file the solution: not graded" "$T" check "$id" --file "$CUDATUTOR_SRCDIR/kernels/exercises/$id.solution.cu"
has "the technique is there" 'ok +LDG\.E\.128' "$tmp/out"
has "the SASS checks say they are static" 'code that never runs counts too' "$tmp/out"
has "the answers are not judged without a GPU" 'answers: not judged \(no GPU\)' "$tmp/out"
has "nor is the time" 'time: not judged \(no GPU\)' "$tmp/out"
exits 4 "check --format json: not graded" "$T" check "$id" --format json --file "$CUDATUTOR_SRCDIR/kernels/exercises/$id.solution.cu"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["compiled"] and d["sass_checked"] and all(c["passed"] for c in d["checks"]) and not d["gpu"] and d["graded"] is False and not d["passed"] and d["seed"] is None else 1)' "$tmp/out" &&
	echo "ok: the JSON says compiled, checked, no GPU, not graded" || fail "check --format json: $(head -c 300 "$tmp/out")"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if all(c["message"] is None for c in d["checks"]) and d["reason"].startswith("not graded: ") else 1)' "$tmp/out" &&
	echo "ok: a check that passed has no failure message" || fail "check --format json: a passing check with a message: $(head -c 600 "$tmp/out")"
# --sanitize without a GPU: said in a line, never taken for a clean run
exits 4 "check --sanitize without a GPU: not graded" "$T" check "$id" --sanitize --file "$CUDATUTOR_SRCDIR/kernels/exercises/$id.solution.cu"
has "--sanitize says its tools need a GPU" 'compute-sanitizer not run: .*no GPU ran it here' "$tmp/out"
# a kernel that fails its SASS checks has failed, GPU or none: graded, 3
exits 3 "check --format json of the starting file: failed" "$T" check "$id" --format json --file "$CUDATUTOR_SRCDIR/kernels/exercises/$id.cu"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["graded"] is True and not d["passed"] else 1)' "$tmp/out" &&
	echo "ok: its JSON says graded, not passed" || fail "check --format json of the starting file: $(head -c 300 "$tmp/out")"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); f=[c for c in d["checks"] if not c["passed"]]; sys.exit(0 if f and all(c["message"] for c in f) and d["reason"].startswith("SASS: ") else 1)' "$tmp/out" &&
	echo "ok: each check that failed says what is missing, and the reason is the first of them" || fail "check --format json: failed checks' messages: $(head -c 600 "$tmp/out")"

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

# Ctrl-C in check --watch, during a check or while it watches: a clean end, 130, as without --watch
# (the whole process group gets it, as from a terminal: the check's cuobjdump and nvdisasm too)
watch_sigint() {
	python3 - "$T" "$id" "$1" > "$tmp/out" 2> "$tmp/err" <<'PY'
import os, signal, subprocess, sys, time
program, exercise, when = sys.argv[1:4]
p = subprocess.Popen([program, "check", exercise, "--watch"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                     start_new_session=True)
os.set_blocking(p.stdout.fileno(), False)
out = b""
def read():
    global out
    try:
        out += p.stdout.read() or b""
    except (BlockingIOError, TypeError):
        pass
def tools():
    # the check's own children: the compiler's process, cuobjdump, nvdisasm
    names = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.getpgid(int(pid)) == p.pid and int(pid) != p.pid:
                names.append(open("/proc/%s/comm" % pid).read().strip())
        except (OSError, ValueError):
            pass
    return names
deadline = time.time() + 60
while time.time() < deadline:
    read()
    if when == "checking" and any(n in ("cuobjdump", "nvdisasm") for n in tools()):
        break
    if b"Watching" in out:
        break
    time.sleep(0.01)
seen = "during the check" if b"Watching" not in out else "while watching"
os.killpg(p.pid, signal.SIGINT)
try:
    rc = p.wait(30)
except subprocess.TimeoutExpired:
    os.killpg(p.pid, signal.SIGKILL)
    rc = p.wait()
os.set_blocking(p.stdout.fileno(), True)
out += p.stdout.read()
sys.stdout.write(out.decode(errors="replace"))
sys.stderr.write("%s\n" % seen)
sys.exit(128 - rc if rc < 0 else rc)
PY
}
for when in checking watching; do
	watch_sigint "$when"
	rc=$?
	[ "$rc" -eq 130 ] && echo "ok: Ctrl-C in check --watch ($(cat "$tmp/err")) ends with 130" ||
		fail "Ctrl-C in check --watch ($(cat "$tmp/err")): exit $rc: $(tail -3 "$tmp/out")"
	lacks "and reports no failure" 'failed|said nothing|crashed' "$tmp/out"
done

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

#!/bin/sh
# Class mode without a GPU: students hand in kernels (submit), the teacher's tutor judges the
# folder (class): SASS verdicts, never a ranking; damaged files, hostile names, duplicates and
# another version each get their line; verdicts kept by source hash; nothing in the folder changes.
. "$(dirname "$0")/../lib/lib.sh"
T=$CUDATUTOR
src="$CUDATUTOR_SRCDIR/kernels/exercises"
class="$tmp/class"
mkdir -p "$class"

# The check compiles with NVRTC: without it there is nothing to judge.
"$T" check float4 --file "$src/float4.solution.cu" > "$tmp/out" 2> "$tmp/err"
if [ $? -eq 1 ]; then
	echo "skip: the exercises cannot be checked here: $(cat "$tmp/err")"
	exit 77
fi

# ---- submit --------------------------------------------------------------------------------
cd "$tmp"
ok "submit writes a submission" "$T" submit float4 --name "Li Wei" --file "$src/float4.solution.cu"
has "and says where" 'as float4-Li_Wei\.submission\.json: exercise float4, [0-9]+ bytes, SHA-256 [0-9a-f]{16}' "$tmp/out"
python3 - "$tmp/float4-Li_Wei.submission.json" "$src/float4.solution.cu" "$src/float4.cu" <<'PY' &&
import hashlib, json, sys
s = json.load(open(sys.argv[1]))
source = open(sys.argv[2]).read()
assert s["format"] == "cudatutor-submission" and s["version"] == 1, s
assert s["exercise"] == "float4" and s["name"] == "Li Wei", s
assert s["source"] == source, "the source is not the file's"
assert s["sha256"] == hashlib.sha256(source.encode()).hexdigest(), "the SHA-256 is not the source's"
assert s["exercise_version"] == hashlib.sha256(open(sys.argv[3], "rb").read()).hexdigest()[:16], s
assert s["tutor"].startswith("cudatutor "), s
PY
	echo "ok: it holds the source, its SHA-256, the exercise, its version, the name and the tutor" ||
	fail "the submission file is not what it should be"
mv float4-Li_Wei.submission.json "$class/"
ok "submit --output" "$T" submit float4 --name "Bob" --file "$src/float4.cu" --output "$class/bob.json"
ok "a second exercise" "$T" submit char8 --name "Li Wei" --file "$src/char8.solution.cu" --output "$class/li-char8.json"

refused "submit without a name" '^cudatutor: submit needs your name' "$T" submit float4 --file "$src/float4.cu"
refused "a name with a slash" "a name is not a path" "$T" submit float4 --name "a/b" --file "$src/float4.cu"
refused "a name with a backslash" "a name is not a path" "$T" submit float4 --name 'a\b' --file "$src/float4.cu"
refused "a name with an escape byte" "control byte .0x1b. at byte 2" "$T" submit float4 --name "$(printf 'x\033[2J')" --file "$src/float4.cu"
refused "a name that is not UTF-8" "not UTF-8" "$T" submit float4 --name "$(printf 'x\377y')" --file "$src/float4.cu"
refused "a name of 65 bytes" "65 bytes long: at most 64" "$T" submit float4 --name "$(printf '%065d' 0)" --file "$src/float4.cu"
ok "a name of 64 bytes" "$T" submit float4 --name "$(printf '%064d' 0)" --file "$src/float4.cu" --output "$tmp/long.json"
ok "a name in Chinese" "$T" submit float4 --name "李伟" --file "$src/float4.cu" --output "$tmp/zh.json"
refused "an unknown exercise" "exercise" "$T" submit nosuch --name Bob --file "$src/float4.cu"
refused "a device" "not a regular file" "$T" submit float4 --name Bob --file /dev/zero
head -c 1048577 /dev/zero | tr '\0' ' ' > "$tmp/big.cu"
refused "over 1 MiB" "is 1048577 bytes, more than a kernel's source" "$T" submit float4 --name Bob --file "$tmp/big.cu"
printf 'int x;\0\n' > "$tmp/nul.cu"
refused "a NUL byte" "NUL byte at byte 7" "$T" submit float4 --name Bob --file "$tmp/nul.cu"
[ ! -e "$tmp/float4-Bob.submission.json" ] && echo "ok: nothing refused was written" ||
	fail "a refused submission left a file"

# ---- files that are not submissions, and names no submit would write ------------------------
echo '{"format": "cudatutor-submission", "version": 1, "exer' > "$class/cut-short.json"
echo 'hello' > "$class/notes.txt"
echo '{"format": "something-else"}' > "$class/other.json"
mkdir "$class/a-folder"
echo 'hidden' > "$class/.DS_Store"
python3 - "$class" "$src" <<'PY'
import hashlib, json, os, sys
d, src = sys.argv[1], sys.argv[2]
base = json.load(open(os.path.join(d, "bob.json")))
def write(fname, **kw):
    s = dict(base); s.update(kw)
    if "source" in kw and "sha256" not in kw:
        s["sha256"] = hashlib.sha256(kw["source"].encode()).hexdigest()
    json.dump(s, open(os.path.join(d, fname), "w"))
write("edited.json", name="Eve", source=base["source"] + "\n// edited", sha256=base["sha256"])
write("escape.json", name="Mallory\u001b[2J")
write("path.json", name="../../etc/passwd")
write("unknown.json", exercise="nosuch", name="Zoe")
write("future.json", version=2, name="Yan")
write("old-version.json", name="Olga", exercise_version="0123456789abcdef")
broken = "extern \"C\" __global__ void vec_add_float4(const float *x, const float *y, float *z, int n)\n{\n    int i = ;\n}\n"
write("broken-compile.json", name="Carl", source=broken)
# Bob hands in twice: the newer (the solution) counts
write("bob-again.json", submitted="2099-01-01T00:00:00Z",
      source=open(os.path.join(src, "float4.solution.cu")).read())
# Kim's later submission reached the folder first: the time she handed in decides, not the file's
write("kim-later.json", name="Kim", submitted="2099-01-01T00:00:00Z")
write("kim-earlier.json", name="Kim", submitted="2001-01-01T00:00:00Z")
t = int(os.stat(os.path.join(d, "bob.json")).st_mtime)
os.utime(os.path.join(d, "kim-later.json"), ns=((t - 100) * 10**9, (t - 100) * 10**9))
os.utime(os.path.join(d, "kim-earlier.json"), ns=(t * 10**9, t * 10**9))
# Lin's two arrive in the same second, handed in at the same time: the later nanosecond counts, not the name
write("lin-a.json", name="Lin", submitted="2050-01-01T00:00:00Z")
write("lin-b.json", name="Lin", submitted="2050-01-01T00:00:00Z")
os.utime(os.path.join(d, "lin-a.json"), ns=(t * 10**9 + 900, t * 10**9 + 900))
os.utime(os.path.join(d, "lin-b.json"), ns=(t * 10**9 + 100, t * 10**9 + 100))
# Max's: a second apart, the earlier with the larger nanoseconds: the second decides first
write("max-a.json", name="Max", submitted="2050-01-01T00:00:00Z")
write("max-b.json", name="Max", submitted="2050-01-01T00:00:00Z")
os.utime(os.path.join(d, "max-a.json"), ns=((t + 1) * 10**9 + 100, (t + 1) * 10**9 + 100))
os.utime(os.path.join(d, "max-b.json"), ns=(t * 10**9 + 900, t * 10**9 + 900))
PY
find "$class" -exec stat -c '%n %s %Y' {} + | sort > "$tmp/before"
(cd "$class" && sha256sum $(ls) 2>/dev/null) > "$tmp/sums-before"

# ---- class, without a GPU --------------------------------------------------------------------
ok "class judges the folder" "$T" class "$class"
cp "$tmp/out" "$tmp/board"
has "no GPU: said once, and nothing ranked" '^No GPU here: each kernel.s SASS is checked, nothing is timed, and nothing is ranked' "$tmp/board"
lacks "no rank without a GPU" '^ +[0-9]+  ' "$tmp/board"
has "the exercise's heading" '^Exercise float4: [0-9]+ submissions' "$tmp/board"
has "the solution: its SASS passes, not judged" 'Li Wei +not graded +SASS [0-9]+ of [0-9]+ checks; not judged: no GPU' "$tmp/board"
has "the starting file fails its SASS check, with its message" 'FAIL +SASS: LDG\.E\.128: at least 2, found 0: ' "$tmp/board"
has "a compile error, file and line" 'Carl +FAIL +does not compile: .*:3:[0-9]+: error' "$tmp/board"
has "two of one name: the older says which counts" "Bob +older +bob-again\\.json of the same name is newer and counts instead" "$tmp/board"
has "the newer is judged" 'Bob +not graded +SASS' "$tmp/board"
has "the later handed in counts, though its file came first" "Kim +older +kim-later\\.json of the same name is newer and counts instead" "$tmp/board"
lacks "and not the other way" "kim-earlier\\.json of the same name is newer" "$tmp/board"
has "in one second, the later nanosecond counts" "Lin +older +lin-a\\.json of the same name is newer and counts instead" "$tmp/board"
has "a second later counts, whatever the nanoseconds" "Max +older +max-a\\.json of the same name is newer and counts instead" "$tmp/board"
has "another version of the exercise: judged, and said" 'Olga +.*made for another version of the exercise' "$tmp/board"
has "a second exercise has its own board" '^Exercise char8: 1 submission$' "$tmp/board"
has "a cut-short file" '^  cut-short\.json: not a submission \(line [0-9]+: .*\): damaged or cut short' "$tmp/board"
has "a text file" '^  notes\.txt: not a submission' "$tmp/board"
has "another format" '^  other\.json: not a cudatutor submission' "$tmp/board"
has "an edited source" '^  edited\.json: its source is not the one it was handed in with' "$tmp/board"
has "an escape in a name" '^  escape\.json: the name has a control byte \(0x1b\)' "$tmp/board"
has "a path for a name" '^  path\.json: the name has a ./.: a name is not a path' "$tmp/board"
has "an unknown exercise" "^  unknown\\.json: for exercise 'nosuch', which this cudatutor does not have" "$tmp/board"
has "another format version" '^  future\.json: a submission of format version 2, not 1' "$tmp/board"
lacks "no escape byte reaches the terminal" "$(printf '\033')" "$tmp/board"
lacks "hidden files and folders are not read" 'DS_Store|a-folder' "$tmp/board"

find "$class" -exec stat -c '%n %s %Y' {} + | sort > "$tmp/after"
(cd "$class" && sha256sum $(ls) 2>/dev/null) > "$tmp/sums-after"
cmp -s "$tmp/before" "$tmp/after" && cmp -s "$tmp/sums-before" "$tmp/sums-after" &&
	echo "ok: nothing in the folder changed" || fail "the folder changed: $(diff "$tmp/before" "$tmp/after")"

# ---- the grade book: CSV and JSON --------------------------------------------------------------
ok "class --format csv" "$T" class "$class" --format csv
python3 - "$tmp/out" <<'PY' && echo "ok: the CSV has a row per file, the header's columns in each" || fail "the CSV is not right"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head = rows[0]
assert head[:5] == ["exercise", "rank", "name", "verdict", "reason"], head
assert all(len(r) == len(head) for r in rows), "a row has other columns"
assert len(rows) - 1 == 20, len(rows)
by = {r[head.index("file")]: r for r in rows[1:]}
assert by["bob.json"][3] == "older"
assert by["kim-earlier.json"][3] == "older" and by["kim-later.json"][3] != "older"
assert by["lin-b.json"][3] == "older" and by["lin-a.json"][3] != "older"
assert by["max-b.json"][3] == "older" and by["max-a.json"][3] != "older"
assert by["broken-compile.json"][3] == "FAIL"
assert all(r[1] == "" for r in rows[1:]), "a rank without a GPU"
PY
ok "class --format json" "$T" class "$class" --format json
python3 - "$tmp/out" <<'PY' && echo "ok: the JSON: nothing ranked, every verdict from the cache the second time" || fail "the JSON is not right"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ranked"] is False and d["gpus"] == []
subs = [s for s in d["submissions"] if s["verdict"] not in ("bad file", "older")]
assert subs and all(s["from_cache"] for s in subs), [s["file"] for s in subs if not s["from_cache"]]
assert all(s["rank"] is None for s in d["submissions"])
li = [s for s in subs if s["name"] == "Li Wei" and s["exercise"] == "float4"][0]
assert li["graded"] is False and li["passed"] is False and li["sass_checks"]["passed"] == li["sass_checks"]["of"]
PY

# ---- judged again: only what changed -------------------------------------------------------------
{ cat "$src/float4.solution.cu"; echo "// fixed"; } > "$tmp/carl.cu"
"$T" submit float4 --name "Carl" --file "$tmp/carl.cu" --output "$class/broken-compile.json" > /dev/null
ok "the folder again, one file changed" "$T" class "$class" --format json
python3 - "$tmp/out" <<'PY' && echo "ok: only the changed file was judged again" || fail "the cache did not keep the others"
import json, sys
d = json.load(open(sys.argv[1]))
fresh = [s["file"] for s in d["submissions"] if s["verdict"] not in ("bad file", "older") and not s["from_cache"]]
assert fresh == ["broken-compile.json"], fresh
PY
# Bob's newer file is damaged: his older one counts again, and is judged
cp "$class/bob-again.json" "$tmp/bob-again.json"
head -c 40 "$tmp/bob-again.json" > "$class/bob-again.json"
ok "the folder again, Bob's newer file damaged" "$T" class "$class" --format csv
python3 - "$tmp/out" <<'PY' && echo "ok: the older counts again once the newer is damaged" || fail "the older still says it is older"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
by = {r[rows[0].index("file")]: r for r in rows[1:]}
assert by["bob.json"][3] not in ("older", "bad file"), by["bob.json"]
assert by["bob-again.json"][3] == "bad file", by["bob-again.json"]
PY
cp "$tmp/bob-again.json" "$class/bob-again.json"

# ---- 500 files: each read and judged, one check for each source however many hand it in --------------
mkdir "$tmp/many"
{ cat "$src/float4.solution.cu"; echo "// many"; } > "$tmp/many1.cu"
{ cat "$src/float4.cu"; echo "// many"; } > "$tmp/many2.cu"
"$T" submit float4 --name "x" --file "$tmp/many1.cu" --output "$tmp/many1.json" > /dev/null
"$T" submit float4 --name "x" --file "$tmp/many2.cu" --output "$tmp/many2.json" > /dev/null
python3 - "$tmp/many1.json" "$tmp/many2.json" "$tmp/many" <<'PY'
import json, os, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
for k in range(500):
    s = dict(a if k % 3 else b, name="student %03d" % k)
    json.dump(s, open(os.path.join(sys.argv[3], "s%03d.json" % k), "w"))
PY
ok "500 files" "$T" class "$tmp/many" --format json
python3 - "$tmp/out" <<'PY' && echo "ok: 500 verdicts, from two checks" || fail "500 files were not all judged"
import json, sys
subs = json.load(open(sys.argv[1]))["submissions"]
assert len(subs) == 500, len(subs)
assert sum(s["verdict"] == "FAIL" for s in subs) == 167 and sum(s["verdict"] == "not graded" for s in subs) == 333
assert sum(not s["from_cache"] for s in subs) == 2, sum(not s["from_cache"] for s in subs)
PY

# ---- a check past its time limit: killed, failed with its reason, the rest go on; nothing kept -------
mkdir "$tmp/slow"
{ cat "$src/float4.solution.cu"; echo "// slow 1"; } > "$tmp/slow1.cu"
{ cat "$src/char8.solution.cu"; echo "// slow 2"; } > "$tmp/slow2.cu"
"$T" submit float4 --name "Sam" --file "$tmp/slow1.cu" --output "$tmp/slow/sam.json" > /dev/null
"$T" submit char8 --name "Sam" --file "$tmp/slow2.cu" --output "$tmp/slow/sam-char8.json" > /dev/null
CUDATUTOR_CLASS_TIME_LIMIT=0.05 "$T" class "$tmp/slow" --format json > "$tmp/out" 2> "$tmp/err"
python3 - "$tmp/out" <<'PY' && echo "ok: past the time limit each check is killed and fails, with its reason" ||
import json, sys
d = json.load(open(sys.argv[1]))
subs = d["submissions"]
assert len(subs) == 2 and all(s["verdict"] == "FAIL" for s in subs), subs
assert all(s["reason"].startswith("stopped after 0 s, the time one check may take") for s in subs), subs
assert all(not s["from_cache"] and s["judge_seconds"] < 5 for s in subs), subs
PY
	fail "the time limit: $(head -c 600 "$tmp/out") $(cat "$tmp/err")"
ok "a killed check's verdict is not kept: judged again, it is judged anew" "$T" class "$tmp/slow" --format json
python3 - "$tmp/out" <<'PY' && echo "ok: and then judged in full" || fail "a killed check's verdict was kept"
import json, sys
subs = json.load(open(sys.argv[1]))["submissions"]
assert all(s["verdict"] == "not graded" and not s["from_cache"] for s in subs), subs
PY

# ---- --exercise, a formula in a name, bad arguments -----------------------------------------------
ok "class --exercise char8" "$T" class "$class" --exercise char8
has "its board" '^Exercise char8' "$tmp/out"
lacks "no other exercise's" '^Exercise float4' "$tmp/out"
"$T" submit float4 --name "=HYPERLINK(1)" --file "$src/float4.cu" --output "$class/formula.json" > /dev/null
ok "a name a spreadsheet would run" "$T" class "$class" --format csv
has "is kept as text" ",\"'=HYPERLINK\\(1\\)\"," "$tmp/out"
refused "class without a folder" '^cudatutor: class needs a folder' "$T" class
refused "a folder that is not there" 'is not a folder' "$T" class "$tmp/nosuch"
refused "--exercise unknown" '^cudatutor: --exercise: ' "$T" class "$class" --exercise nosuch
refused "--format markdown" 'format' "$T" class "$class" --format markdown

finish

#!/bin/sh
# The batch CLI as a user runs it: help, list, show, run without a GPU, bad input.
. "$(dirname "$0")/../lib/lib.sh"
T=$CUDATUTOR

ok "help" "$T" --help
for c in list run show record banks; do has "help names $c" "^ +$c " "$tmp/out"; done
# --help and the manual name the same commands and options.
"$T" --help | grep -o -e '--[a-z][a-z-]*' | sort -u > "$tmp/help-options"
# the manual's own options: Fl \-name (and | \-name) in SYNOPSIS through OPTIONS
sed -n '/^\.Sh SYNOPSIS/,/^\.Sh MEASURING/p' "$CUDATUTOR_SRCDIR/man/cudatutor.1" | sed 's/\\-/-/g' |
	grep -o -E '(Fl|\|) -[a-z][a-z-]*' | sed 's/^.* -/--/' | sort -u > "$tmp/man-options"
missing=$(comm -23 "$tmp/help-options" "$tmp/man-options" | tr '\n' ' ')
[ -z "$missing" ] && echo "ok: every option in --help is in the manual" || fail "options missing from the manual: $missing"
missing=$(comm -13 "$tmp/help-options" "$tmp/man-options" | tr '\n' ' ')
[ -z "$missing" ] && echo "ok: every option in the manual is in --help" || fail "options missing from --help: $missing"
for c in $("$T" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p'); do
	grep -q "^\.It Cm $c" "$CUDATUTOR_SRCDIR/man/cudatutor.1" && echo "ok: manual documents $c" ||
		fail "the manual does not document the command $c"
done
# Each command's synopsis (made from the command table) and the manual's: the same words, the
# same options, each with the same value ("--size N" and ".Fl \-size Ar n").
"$T" --help > "$tmp/help"
python3 - "$tmp/help" "$CUDATUTOR_SRCDIR/man/cudatutor.1" <<'PY' || fail "--help and the manual's SYNOPSIS disagree"
import re, sys
from collections import defaultdict

def form(forms, command):
    return forms.setdefault(command, {"args": set(), "options": defaultdict(set)})

def from_help(path):
    lines, forms = [], {}
    for line in open(path).read().split("\n\n")[0].splitlines():
        if re.match(r"^(Usage: | {7})cudatutor\b", line):
            lines.append(line.split("cudatutor", 1)[1])
        else:
            lines[-1] += " " + line.strip()
    for line in lines:
        words = re.findall(r"\[[^][]*(?:\[[^]]*\])?\]|\S+", line)
        if words[:1] == ["--help"]:
            continue
        command = words.pop(0) if words and re.match(r"^[a-z]+$", words[0]) else ""
        f = form(forms, command)
        for w in words:
            inner = w[1:-1] if w.startswith("[") else w
            if not inner.startswith("--"):
                f["args"].add(inner.lower())
                continue
            for alt in inner.split("|--"):
                name, _, value = ("--" + alt.lstrip("-")).partition(" ")
                f["options"][name].add(value.strip("[]").lower())
    return forms

def from_man(path):
    text = open(path).read().replace("\\-", "-")
    synopsis = text.split(".Sh SYNOPSIS\n", 1)[1].split(".Sh ", 1)[0]
    forms, f, start = {}, None, False
    for line in synopsis.splitlines():
        # "n , Ns Ar n" is one value, "n,n"
        words = re.sub(r"\s+Ns\s+Ar\s+", " ", line.lstrip(".")).split()
        if words == ["Nm"]:
            start = True
            continue
        if start:
            start = False
            f = form(forms, words[1] if words[0] == "Cm" else "")
            if words[0] == "Cm":
                continue
        mode, option, value = None, None, []
        def flush():
            if mode != "Ar" or not value:
                return
            if option:
                f["options"][option].discard("")
                f["options"][option].add("".join(value))
            else:
                # ".Ar lesson ..." is the help's "LESSON...": one or more
                args = []
                for v in value:
                    if v == "..." and args:
                        args[-1] += v
                    else:
                        args.append(v)
                f["args"].update(args)
        for w in words:
            if w in ("Op", "Ns"):
                continue
            if w in ("Fl", "Ar"):
                flush()
                mode, value = w, []
            elif mode == "Fl" and w.startswith("-"):
                option = "-" + w
                f["options"][option].add("")
            elif mode == "Ar":
                value.append(w.lower() if w != "|" else w)
        flush()
    return forms

help, man = from_help(sys.argv[1]), from_man(sys.argv[2])
bad = 0
for command in sorted(set(help) | set(man)):
    name = command or "(the tutor)"
    h, m = help.get(command), man.get(command)
    if h is None or m is None:
        print(f"{name}: only in {'the manual' if h is None else '--help'}", file=sys.stderr)
        bad += 1
        continue
    if h["args"] != m["args"]:
        print(f"{name}: --help has {sorted(h['args'])}, the manual {sorted(m['args'])}", file=sys.stderr)
        bad += 1
    for option in sorted(set(h["options"]) | set(m["options"])):
        if h["options"].get(option) != m["options"].get(option):
            print(f"{name} {option}: --help has {sorted(h['options'].get(option, []))}, "
                  f"the manual {sorted(m['options'].get(option, []))}", file=sys.stderr)
            bad += 1
    print(f"ok: {name}: {len(h['options'])} options, the same in --help and the manual")
sys.exit(1 if bad else 0)
PY

ok "version" "$T" --version
has "version number" '^cudatutor [0-9]' "$tmp/out"

ok "list" "$T" list
has "reduction lesson" '^reduction ' "$tmp/out"
has "unrolling step" 'reduce_unroll8 +Unroll by eight' "$tmp/out"
ok "list kernels as JSON" "$T" list --kernels --format json
python3 -c 'import json,sys; k=json.load(open(sys.argv[1])); assert any(x["kernel"]=="reduce_unroll8" for x in k)' "$tmp/out" ||
	fail "list --kernels --format json is not a list of kernels"

ok "source of a kernel" "$T" show reduce_unroll8 --source
has "source has the kernel" 'void reduce_unroll8\(' "$tmp/out"
ok "numbered source" "$T" show reduce_warp_shuffle --source --lines
has "source lines carry their numbers" '^ +[0-9]+  .*__shfl_down_sync' "$tmp/out"
ok "PTX of a kernel" "$T" show reduce_unroll8 --ptx
has "PTX entry" '^\.visible \.entry reduce_unroll8\(' "$tmp/out"
lacks "PTX of that kernel only" 'entry reduce_unroll4' "$tmp/out"
if [ -n "${CUOBJDUMP:-}" ]; then
	ok "SASS of a kernel on sm_90" "$T" show reduce_unroll8 --sass --arch sm_90
	has "SASS global loads" 'LDG\.E' "$tmp/out"
	has "SASS barrier" 'BAR\.SYNC' "$tmp/out"
	lacks "SASS of that kernel only" 'Function :' "$tmp/out"
	ok "SASS with the short arch spelling" "$T" show reduce_warp_shuffle --sass --arch 90
	has "16-byte loads in the shuffle kernel" 'LDG\.E\.128' "$tmp/out"
	refused "an architecture not built" 'no SASS for sm_61' "$T" show reduce_unroll8 --sass --arch sm_61
	line=$("$T" show reduce_warp_shuffle --source --lines | sed -n 's/^ *\([0-9][0-9]*\)  .*__shfl_down_sync.*/\1/p' | head -1)
	if "$T" show reduce_warp_shuffle --sass --arch sm_90 --lines > "$tmp/out" 2> "$tmp/err"; then
		ok "SASS of one source line" "$T" show reduce_warp_shuffle --sass --arch sm_90 --line "$line"
		has "that line became shuffles" 'SHFL\.DOWN' "$tmp/out"
		lacks "and nothing else's loads" 'LDG' "$tmp/out"
	else
		has "without nvdisasm, the mapping says what is missing" 'nvidia-cuda-nvdisasm' "$tmp/err"
	fi

	# The instruction mix, and two kernels compared.
	ok "instruction mix" "$T" show reduce_unroll8 --stats --arch sm_90
	has "mix counts global loads" 'global loads, 32-bit +[0-9]+' "$tmp/out"
	has "mix shows registers" 'registers per thread +[0-9]+' "$tmp/out"
	ok "diff as JSON" "$T" diff reduce_unroll_warp8 reduce_complete_unroll_warp8 --arch sm_90 --format json
	python3 - "$tmp/out" <<'PY' || fail "diff JSON: the unrolled tree has more barriers and no backward branch"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["a"]["kernel"] == "reduce_unroll_warp8" and d["b"]["kernel"] == "reduce_complete_unroll_warp8"
assert d["change"]["barriers"] > 0, d["change"]          # one BAR.SYNC per round, written out
assert d["change"]["branches"] == d["b"]["mix"]["branches"] - d["a"]["mix"]["branches"]
ops = [r["op"] for r in d["sass"]["rows"]]
assert ops.count("+") == d["sass"]["added"] and ops.count("-") == d["sass"]["removed"]
PY
	# Vectorizing: 128-bit loads appear, and the 32-bit ones leave the loop
	# (the two left load the tail, the elements after the last whole float4).
	ok "diff of the scalar and float4 adds" "$T" diff vec_add_float vec_add_float4 --arch sm_90 --format json
	python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["change"]; assert c["global_ld128"] >= 2 and c["global_st128"] >= 1, c' "$tmp/out" ||
		fail "diff vec_add_float vec_add_float4: no 128-bit loads appeared"
	if "$T" show vec_add_float4 --sass --lines --arch sm_90 > "$tmp/sass" 2> "$tmp/err"; then
		"$T" show vec_add_float4 --source --lines > "$tmp/float4-src"
		python3 - "$tmp/float4-src" "$tmp/sass" <<'PY' || fail "float4: a 32-bit load outside the tail"
import re, sys
src = open(sys.argv[1]).read().splitlines()
tail = [int(l.split()[0]) for l in src if re.search(r"z\[i\] = x\[i\] \+ y\[i\]", l)]
loop = [int(l.split()[0]) for l in src if "pack a = xp[i]" in l]
assert tail and loop, (tail, loop)
wide = scalar = 0
for l in open(sys.argv[2]):
    f = l.split()
    if "LDG.E.128" in l:
        wide += 1
        assert int(f[0]) in loop, l
    elif re.search(r"LDG\.E ", l):
        scalar += 1
        assert int(f[0]) in tail, l
assert wide == 2 and scalar == 2, (wide, scalar)
PY
		echo "ok: float4's loop loads 128 bits; its only 32-bit loads are the tail's"
	fi
	ok "diff, narrow" "$T" diff reduce_unroll4 reduce_unroll8 --arch sm_90 --width 80
	has "narrow diff marks added lines" '^\+ ' "$tmp/out"
	lacks "narrow diff has no columns" ' \| ' "$tmp/out"
	ok "diff, wide" "$T" diff reduce_unroll4 reduce_unroll8 --arch sm_90 --width 160
	has "wide diff has two columns" ' \| ' "$tmp/out"
	refused "diff needs two kernels" 'compares two kernels' "$T" diff reduce_unroll4

	# Lesson text with the counts filled in from the SASS.
	ok "read a step" "$T" read unrolling --step 6 --arch sm_90
	has "read names the step and kernel" '^Step 6: .*\[reduce_complete_unroll_warp8\]' "$tmp/out"
	lacks "read fills in every count" '\{\{count' "$tmp/out"
	has "a count from the SASS" 'BAR\.SYNC instructions: [0-9]+' "$tmp/out"
	refused "read a step that is not there" 'has 14 steps, not 15' "$T" read unrolling --step 15
	# The Chinese lesson, wrapped by display columns: a Chinese character takes two.
	ok "read in Chinese" "$T" read unrolling --lang zh_CN --arch sm_90 --width 60
	has "the Chinese step title" '^第 6 步：把整棵树展开 ' "$tmp/out"
	lacks "Chinese text with every count filled in" '\{\{count' "$tmp/out"
	python3 - "$tmp/out" <<'PY' || fail "read --lang zh_CN --width 60: a line is wider than 60 columns, or a count is missing"
import re, sys, unicodedata
text = open(sys.argv[1], encoding="utf-8").read()
cols = lambda s: sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
assert all(cols(l) <= 60 for l in text.splitlines() if not re.match(r"第 \d+ 步：", l))
assert re.search(r"共\d+条", "".join(text.split()))
PY

	# what the lessons tell students to find in the SASS
	ok "SASS of the float4 add" "$T" show vec_add_float4 --sass --arch sm_90
	has "float4: 16-byte loads" 'LDG\.E\.128' "$tmp/out"
	has "float4: 16-byte stores" 'STG\.E\.128' "$tmp/out"
	ok "SASS of the scalar add" "$T" show vec_add_float --sass --arch sm_90
	has "scalar add: 4-byte loads" 'LDG\.E ' "$tmp/out"
	lacks "scalar add: no wide loads" 'LDG\.E\.(64|128)' "$tmp/out"
	ok "SASS of the pitched multiply with float4 rows of A" "$T" show matmul_pitched_float4 --sass --arch sm_90
	has "pitched float4: 16-byte loads of A" 'LDG\.E\.128' "$tmp/out"
	ok "SASS of the pitched multiply" "$T" show matmul_pitched --sass --arch sm_90
	lacks "pitched: no 16-byte loads" 'LDG\.E\.128' "$tmp/out"
	ok "SASS of the volatile bit-packing" "$T" show bitpack_global_volatile --sass --arch sm_90
	has "volatile: strong loads in the loop" 'LDG\.E\.STRONG\.SYS' "$tmp/out"
	ok "SASS of the plain bit-packing" "$T" show bitpack_global_plain --sass --arch sm_90
	lacks "plain: the compiler dropped the loads" 'LDG' "$tmp/out"
	ok "SASS of the looped register bit-packing" "$T" show bitpack_register --sass --arch sm_90
	has "loop: a constant read at a computed address" 'c\[0x3\]\[UR' "$tmp/out"
	ok "SASS of the unrolled bit-packing" "$T" show bitpack_register_unrolled --sass --arch sm_90
	lacks "unrolled: no computed constant address" 'c\[0x3\]\[UR' "$tmp/out"
	lacks "unrolled: no branch back" '@!?P[0-9] BRA' "$tmp/out"
else
	skip "SASS checks (configure found no cuobjdump)"
fi
ok "PTX of the unrolled bit-packing" "$T" show bitpack_register_unrolled --ptx
has "unrolled: constant offsets in the loads" 'ld\.const\.u32.*\[bitpack_thresholds\+4\]' "$tmp/out"
if [ -n "${CUOBJDUMP:-}" ]; then
	# what the shared-memory, bank-conflict and occupancy lessons point at
	ok "SASS of the warp-synchronized matmul" "$T" show matmul_shared_a --sass --arch sm_90
	has "shared loads of A" 'LDS\.128' "$tmp/out"
	lacks "no block barrier with __syncwarp" 'BAR\.SYNC' "$tmp/out"
	ok "SASS of the tiled matmul" "$T" show matmul_shared_ab --sass --arch sm_90
	has "block barrier in the tiled loop" 'BAR\.SYNC' "$tmp/out"
	ok "SASS of the stride-32 sweep" "$T" show smem_stride_32_padded --sass --arch sm_90
	[ "$(grep -c 'LDS ' "$tmp/out")" -eq 64 ] || fail "the sweep does not keep its 64 shared loads"
	ok "SASS of sixteen loads in flight" "$T" show stream_ilp16 --sass --arch sm_90
	has "16-byte loads" 'LDG\.E\.128' "$tmp/out"
	lacks "no spills without the bound" 'STL' "$tmp/out"
	ok "SASS under __launch_bounds__" "$T" show stream_ilp16_capped --sass --arch sm_90
	has "spills to local memory" 'STL' "$tmp/out"
	# the register-tiling lesson: its steps, counts filled in, a tiled kernel's mix
	ok "read register tiling" "$T" read register-tiling --arch sm_90 --width 400
	has "its warp-tile step" '^Step 5: Warp tiles' "$tmp/out"
	lacks "register tiling with every count filled in" '\{\{count' "$tmp/out"
	has "the 2-D tiles' shared loads counted" 'Count: [0-9]+ shared loads, [0-9]+ of them LDS\.128, for [0-9]+ FFMA' "$tmp/out"
	ok "mix of the warp-tiled matmul" "$T" show matmul_warptile --stats --arch sm_90
	has "warp tiles: 16-byte global loads" 'global loads, 128-bit +[1-9]' "$tmp/out"
	has "warp tiles: no spills" 'spill stores \(bytes\) +0$' "$tmp/out"
fi
ok "occupancy per block size" "$T" show stream_ilp16 --occupancy --arch sm_90
has "one row per block size" '^ +256 +[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+%  registers$' "$tmp/out"
lacks "only the blocks it takes" '^ +1024 ' "$tmp/out"
ok "occupancy as JSON" "$T" show matmul_naive --occupancy --arch sm_90 --format json
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["blocks"][-1]["block"] == 1024 and r["blocks"][-1]["blocks_per_sm"] > 0' "$tmp/out" ||
	fail "occupancy JSON has no row for 1024"
refused "occupancy of an unknown architecture" 'no occupancy rules for sm_61' "$T" show stream_ilp16 --occupancy --arch sm_61
ok "banks at stride 2" "$T" banks 2
has "lanes 0 and 16 in bank 0" '^ +0  0 16 +0 32$' "$tmp/out"
has "a 2-way conflict" '2-way bank conflict' "$tmp/out"
ok "banks padded" "$T" banks 32 --pad
has "padding removes the conflict" '^1 wavefront: no bank conflict' "$tmp/out"
ok "banks as JSON" "$T" banks 32 --format json
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["wavefronts"] == 32 and r["lanes"][5]["banks"] == [0]' "$tmp/out" ||
	fail "banks JSON"
refused "banks without a stride" 'banks needs a stride' "$T" banks
refused "banks with a bad stride" "'x' is not a stride" "$T" banks x
refused "banks with a bad element size" "'3' is not an element size" "$T" banks 1 --bytes 3

# A lesson's own size and block are what recorded results are looked up at.
python3 - "$tmp/matmul.json" <<'PY'
import json, sys
def step(n, kernel, ms, lib=False):
    s = {"step": n, "title": kernel, "kernel": kernel, "size": 2048, "block": 1024,
         "grid": None if lib else 4096, "library": lib, "ran": True, "reps": 20,
         "median_ms": ms, "q1_ms": ms, "q3_ms": ms, "min_ms": ms, "max_ms": ms, "spread_pct": 0.0,
         "registers": 0 if lib else 32, "blocks_per_sm": 0 if lib else 2,
         "occupancy_pct": 0.0 if lib else 100.0, "correct": True, "check": "fine",
         "wrong_by_design": False}
    return s
json.dump({"format": "cudatutor-results", "version": 1,
           "gpu": {"name": "Test GPU", "compute_capability": "sm_90", "driver": "1", "cuda": "13.0",
                   "sm_count": 1, "memory_bytes": 1},
           "recorded": {"date": "2026-01-01T00:00:00Z", "cudatutor": "test"}, "copy_gbps": 100.0,
           "runs": [{"lesson": "shared-memory", "size": 2048, "block": 1024,
                     "steps": [step(1, "matmul_naive", 40.0), step(2, "cublas_sgemm", 4.0, True)]}]},
          open(sys.argv[1], "w"))
PY
ok "a recorded matmul at the lesson's own size" "$T" run shared-memory --recorded "$tmp/matmul.json"
cp "$tmp/matmul.json" "$tmp/matmul.results"
ok "--recorded FILE: a file that is there, whatever it ends in" "$T" run shared-memory --recorded "$tmp/matmul.results"
has "read from it" 'matmul_naive' "$tmp/out"
has "GFLOP/s for a matrix multiply" 'GFLOP/s +%lib' "$tmp/out"
has "naive at a tenth of the library" '^  1  matmul_naive .* 10\.0 +- +1\.00x' "$tmp/out"
has "the size is in rows" '^size +2048 rows' "$tmp/out"
refused "a size the recording lacks" 'at size 4096, block 1024' "$T" run shared-memory --size 4096 --recorded "$tmp/matmul.json"
# A recording made before the lesson gained steps: each kernel is shown under the lesson's number
# for it today, not the number stored with it (which names another kernel now).
sed 's/"step": 1,/"step": 7,/; s/"step": 2,/"step": 9,/' "$tmp/matmul.json" > "$tmp/matmul-old.json"
ok "a recording numbered by an older lesson" "$T" run shared-memory --recorded "$tmp/matmul-old.json"
last=$("$T" list --format json | python3 -c 'import json, sys
print(next(len(l["steps"]) for l in json.load(sys.stdin) if l["id"] == "shared-memory"))')
has "the first kernel under step 1" '^  1  matmul_naive ' "$tmp/out"
has "the library under the lesson's last step" "^ *$last  cublas_sgemm " "$tmp/out"
lacks "no stored number shown" '^  [79]  ' "$tmp/out"

ok "resources as JSON" "$T" show reduce_unroll8 --resources --arch sm_90 --format json
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["registers"] > 0' "$tmp/out" ||
	fail "resources JSON has no registers"

# Without a GPU, run shows recorded results, and says so.
if ls "$CUDATUTOR_SRCDIR"/data/results/*.json > /dev/null 2>&1; then
	ok "run without a GPU" "$T" run unrolling --format json
	has "notice on stderr" 'showing results recorded on NVIDIA' "$tmp/err"
	python3 - "$tmp/out" <<'PY' || fail "recorded JSON shape"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["recorded"] and r["recorded"]["date"], "not labelled as recorded"
for k in ("name", "compute_capability", "driver", "cuda"):
    assert r["gpu"][k], k
assert r["copy_gbps"] > 0
assert len(r["steps"]) >= 8
for s in r["steps"]:
    for k in ("kernel", "size", "block", "median_ms", "spread_pct", "gbps", "pct_copy",
              "speedup_first", "speedup_prev", "correct"):
        assert k in s, k
    assert s["correct"] is True, s["kernel"]
PY
	ok "run as text" "$T" run reduction
	has "labelled as recorded" '^RECORDED on ' "$tmp/out"
	# a control step's tag widens the kernel column rather than pushing its row out of line
	ok "unrolling at 2^28, two control steps" "$T" run unrolling --size 2^28
	python3 - "$tmp/out" <<'PY' || fail "the rows of a table with control steps line up under its heading"
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
head = next(l for l in lines if re.match(r"^ +# +kernel", l))
end = head.index("grid") + len("grid")
table = lines[lines.index(head) + 1:]
rows = table[:table.index("")] if "" in table else table
assert any("(control)" in l for l in rows), rows
for l in rows:
    assert l[end - 1] != " " and l[end] == " ", (end, l)
PY
	ok "run as CSV" "$T" run reduction --format csv
	has "CSV header" '^lesson,gpu,recorded,step,kernel' "$tmp/out"
	# Several lessons: one table after another, one JSON array, one CSV header.
	ok "two lessons as text" "$T" run reduction pitch
	has "the first lesson's table" '^reduction: ' "$tmp/out"
	has "the second lesson's table" '^pitch: ' "$tmp/out"
	has "the GPU-less notice once" 'showing results recorded on NVIDIA' "$tmp/err"
	[ "$(grep -c 'showing results recorded' "$tmp/err")" = 1 ] || fail "the notice is said once, not once a lesson"
	# a recording made before a step was added: the step is named, not left out
	python3 - "$CUDATUTOR_SRCDIR/data/results/nvidia-h100.json" "$tmp/lacks.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["runs"]:
    if r["lesson"] == "pitch":
        r["steps"] = [s for s in r["steps"] if s["kernel"] != "matmul_pitched_float4"]
json.dump(d, open(sys.argv[2], "w"))
PY
	ok "a recording without one of pitch's steps" "$T" run pitch --recorded "$tmp/lacks.json"
	has "a step the recording lacks is named, not left out" \
	    '^  [0-9]  matmul_pitched_float4 +not in this recorded file: run it on a GPU' "$tmp/out"
	ok "two lessons as JSON" "$T" run reduction pitch --format json
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [r["lesson"] for r in d] == ["reduction", "pitch"], d' "$tmp/out" ||
		fail "two lessons are one JSON array, in the order asked"
	ok "two lessons as CSV" "$T" run reduction pitch --format csv
	[ "$(grep -c '^lesson,gpu,' "$tmp/out")" = 1 ] || fail "two lessons' CSV has one header"
	has "the second lesson's rows" '^pitch,' "$tmp/out"
	refused "--step with two lessons" "--step and --compare take one lesson; 'pitch' is extra" \
	    "$T" run reduction pitch --step 1
	ok "recorded at 2^28" "$T" run unrolling --size 2^28
	refused "a size never recorded" 'no recorded results' "$T" run unrolling --size 12345
	# register tiling: blocks of 256 by default, and no recording at this size
	refused "register tiling, not recorded" \
	    "no recorded results for lesson 'register-tiling' at size 1000, block 256" \
	    "$T" run register-tiling --size 1000
	# A matrix lesson: its own default size, and GFLOP/s instead of GB/s.
	python3 - "$CUDATUTOR_SRCDIR"/data/results/nvidia-h200.json "$tmp/pitch.json" <<'PY' || fail "making a pitch results file"
import json, sys
d = json.load(open(sys.argv[1]))
run = d["runs"][0]
run["lesson"], run["size"] = "pitch", 1000
run["steps"] = run["steps"][:2]
for s, k in zip(run["steps"], ("matmul_rows", "matmul_pitched")):
    s["kernel"], s["size"], s["median_ms"] = k, 1000, 2.0
d["runs"] = [run]
json.dump(d, open(sys.argv[2], "w"))
PY
	ok "matrix lesson at its default size" "$T" run pitch --recorded "$tmp/pitch.json"
	has "GFLOP/s column" 'GFLOP/s' "$tmp/out"
	has "2 N^3 flops in 2 ms" 'matmul_rows +[0-9]+ +2\.0000 +[0-9.]+ +[0-9]+ +1000\.0 ' "$tmp/out"
	lacks "no GB/s column for a matrix lesson" 'GB/s +%copy' "$tmp/out"
	ok "matrix lesson as CSV" "$T" run pitch --recorded "$tmp/pitch.json" --format csv
	has "CSV gflops column" ',gflops,pct_library,' "$tmp/out"
else
	skip "recorded-results checks (data/results is empty)"
fi

# The roofs: a recorded file that holds them, one that does not, and the steps against them.
F=$CUDATUTOR_SRCDIR/tests/fixtures/results-roofs.json
ok "run against recorded roofs" "$T" run reduction --recorded "$F" --format json
python3 - "$tmp/out" <<'PY' || fail "the roof keys of recorded steps"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["roofs"]["dram_measured_gbps"] == 1000.0 and r["roofs"]["fp32_measured_gflops"] == 800.0, r["roofs"]
for s in r["steps"]:
    # a sum only reads: held to the theoretical DRAM roof, not the copy's
    assert s["limiter"] == "dram" and s["roof_unit"] == "GB/s" and s["roof"] == 1024.0, s
    assert abs(s["intensity"] - 0.25) < 1e-9, s["intensity"]
    assert 0 < s["pct_of_roof"] <= 105 and s["roof_exceeded"] is False, s
    assert abs(s["pct_of_roof"] - s["gbps"] / 10.24) < 0.01, s
    assert abs(s["pct_of_theoretical"] - s["gbps"] / 10.24) < 0.01, s
d = [s["diagnosis"] for s in r["steps"]]
assert d[0]["rule"] == "bank_conflicts" and d[0]["lesson"] == "bank-conflicts", d[0]
assert d[2]["rule"] == "roof_only_dram" and d[2]["lesson"] is None, d[2]
assert d[2]["text"] == "at 57.6% of the DRAM roof; its counters would say why: cudatutor metrics reduction", d[2]
PY
ok "a matrix lesson against the FP32 roof" "$T" run register-tiling --size 4096 --recorded "$F" --format json
python3 - "$tmp/out" <<'PY' || fail "FP32-bound steps, and one faster than its roof"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["clocks"]["start"] == {"sm_mhz": 1980, "memory_mhz": 2619, "temperature_c": 38}, r["clocks"]
assert r["clocks"]["end"]["sm_mhz"] == 1755 and r["clocks"]["end"]["temperature_c"] is None, r["clocks"]
s = r["steps"]
assert s[0]["limiter"] == "fp32" and s[0]["roof_unit"] == "GFLOP/s", s[0]
assert abs(s[0]["pct_of_roof"] - 80.0) < 0.01 and abs(s[0]["pct_of_theoretical"] - 62.5) < 0.01, s[0]
assert s[1]["roof_exceeded"] is True and s[1]["pct_of_roof"] is None, s[1]
PY
ok "the roof columns in CSV" "$T" run reduction --recorded "$F" --format csv
has "CSV roof columns" ',complete,intensity,limiter,roof,pct_of_roof,pct_of_theoretical,diagnosis,control$' "$tmp/out"
has "a step's roof figures" ',0\.2500,dram,1024\.0,24\.7,24\.7,"shared-memory bank conflicts: 2\.0 per' "$tmp/out"
has "the diagnosis column" ',57\.6,[0-9.]*,at 57\.6% of the DRAM roof; its counters would say why: cudatutor metrics reduction,false$' "$tmp/out"
ok "the diagnoses under the table" "$T" run reduction --recorded "$F"
has "the diagnoses' heading" '^What holds each step back, and the lesson that attacks it:$' "$tmp/out"
has "a diagnosis from the counters" '^  1  shared-memory bank conflicts: 2\.0 per shared load, each load taking 3\.0$' "$tmp/out"
has "a diagnosis wrapped to 80 columns" '^     passes; pad or reorder the shared array \(bank-conflicts lesson\)$' "$tmp/out"
has "a diagnosis from the roof alone" '^  4  at 57\.6% of the DRAM roof; its counters would say why: cudatutor metrics$' "$tmp/out"
awk '/^What holds/ { d = 1 } d && length > 80 { bad = 1 } END { exit bad }' "$tmp/out" ||
	fail "a diagnosis line wider than 80 columns"
ok "a file without roofs" "$T" run reduction --recorded "$CUDATUTOR_SRCDIR/tests/fixtures/results-metrics.json" --format json
python3 - "$tmp/out" <<'PY' || fail "no roofs: null, never made up"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["roofs"] is None and r["clocks"] is None
for s in r["steps"]:
    for k in ("intensity", "limiter", "roof", "pct_of_roof", "pct_of_theoretical", "roof_exceeded"):
        assert s[k] is None, (k, s[k])
PY
ok "no roofs in CSV" "$T" run reduction --recorded "$CUDATUTOR_SRCDIR/tests/fixtures/results-metrics.json" --format csv
has "empty roof columns, and no diagnosis without roofs or counters" ',false,,,,,,,false$' "$tmp/out"
ok "the recorded roofs" "$T" roofs --recorded "$F"
has "roofs: DRAM measured and theoretical" '^DRAM +1000\.0 GB/s +1024\.0 GB/s +97\.7%$' "$tmp/out"
has "roofs: FP32" '^FP32 +800\.0 GFLOP/s +1024\.0 GFLOP/s +78\.1%$' "$tmp/out"
has "roofs: the ridge point" '^ridge +0\.8 FLOP per byte measured' "$tmp/out"
lacks "no latency where none is recorded" '^(latency|in flight)' "$tmp/out"
# the latency of a load, and Little's law with it: 1000 GB/s x 500 ns = 0.5 MB, over 4 SMs 125 KB
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["roofs"].update(dram_latency_ns=500.0, l2_latency_ns=200.0); json.dump(d, open(sys.argv[2], "w"))' \
    "$F" "$tmp/latency.json"
ok "the recorded latency" "$T" roofs --recorded "$tmp/latency.json"
has "roofs: the latency" '^latency 500 ns a load that misses L2, 200 ns one that hits it' "$tmp/out"
has "roofs: Little's law" '^in flight 0\.5 MB on the GPU, 125\.0 KB per SM to keep DRAM busy$' "$tmp/out"
ok "the recorded latency as JSON" "$T" roofs --recorded "$tmp/latency.json" --format json
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["roofs"]; assert r["bytes_in_flight_gpu"] == 500000.0 and r["bytes_in_flight_per_sm"] == 125000.0 and r["dram_latency_measured_by"], r' "$tmp/out" ||
	fail "roofs JSON: bytes in flight"
ok "the recorded roofs as JSON" "$T" roofs --recorded "$F" --format json
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["roofs"]["tensor_bf16_spec_gflops"] == 16384.0 and r["recorded"]["file"], r' "$tmp/out" ||
	fail "roofs JSON"
ok "a file without roofs says so" "$T" roofs --recorded "$CUDATUTOR_SRCDIR/tests/fixtures/results-metrics.json"
has "no roofs recorded" 'no roofs are recorded in this file' "$tmp/out"

# The roofline: the recorded steps against the recorded roofs, drawn and as JSON; a file without roofs.
ok "the roofline of a recorded lesson" env LC_ALL=C.UTF-8 "$T" roofline reduction --recorded "$F" --width 80
has "roofline: the y axis in decades" '^ *100G┤' "$tmp/out"
has "roofline: the x axis with the ridge marked" '^ *1G└─*▲─*$' "$tmp/out"
has "roofline: the x labels" '^ *0\.001 .* 0\.1 .* 1 .* 10$' "$tmp/out"
has "roofline: step 1 in the legend" '^  1 reduce_neighbored +0\.250 FLOP/B +63\.3 GFLOP/s +dram +24\.7%$' "$tmp/out"
python3 - "$tmp/out" <<'PY' || fail "roofline: the chart is 80 columns at most, and every step is drawn once"
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
chart = [l for l in lines if "┤" in l or "│" in l]
drawn = [l for l in lines if not l.startswith("RECORDED")]	# the file's path may be long
assert len(chart) >= 15 and max(len(l) for l in drawn) <= 80, [l for l in drawn if len(l) > 80]
# a step in a cell another holds is counted there ("1×2") and named under the chart ("(1 2)")
spots = " ".join(re.findall(r"\(([0-9a-z ]+)\)", " ".join(l for l in lines if l.startswith("Steps at one spot"))))
for mark in "134":
    n = sum(re.sub(r"×[0-9]+", "", l[5:]).count(mark) for l in chart)
    assert n == 1 or (n == 0 and mark in spots.split()), mark
PY
ok "the roofline in ASCII" env LC_ALL=C "$T" roofline reduction --recorded "$F" --width 80
python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); assert all(b < 128 for b in d), "not ASCII"' "$tmp/out" ||
	fail "roofline: ASCII where the terminal is not UTF-8"
has "roofline: an ASCII ridge" '^ *1G\+-*\^-*$' "$tmp/out"
ok "the roofline as JSON" "$T" roofline register-tiling --size 4096 --recorded "$F" --format json
python3 - "$tmp/out" <<'PY' || fail "roofline JSON: the roofs, the ridge and each step's point"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["ridge"] == 0.8 and r["ridge_theoretical"] == 1.0, r
p = {x["kernel"]: x for x in r["points"]}
assert p["matmul_tiled_4x"]["limiter"] == "fp32" and abs(p["matmul_tiled_4x"]["pct_of_roof"] - 80.0) < 1e-6, p
assert p["matmul_2d_blocktile"]["roof_exceeded"] is True, p
PY
refused "a roofline needs roofs, and says how to get them" "holds no roofs of .* 'cudatutor roofs --output FILE' adds them" \
	"$T" roofline reduction --recorded "$CUDATUTOR_SRCDIR/tests/fixtures/results-metrics.json"

# The tensor cores' lesson: its steps against the BF16 tensor roof (measured, else the spec's), drawn and in the table.
TF="$CUDATUTOR_SRCDIR/tests/fixtures/results-tensor.json"
ok "the roofline of the tensor cores" env LC_ALL=C.UTF-8 "$T" roofline tensor-cores --recorded "$TF" --width 80
has "tensor roofline: the y axis up to 1000 TFLOP/s" '^ *1P┤' "$tmp/out"
has "tensor roofline: the upper roof named" '│.*TENSOR' "$tmp/out"
has "tensor roofline: both ridges marked" '^ *100G└─*▲─*▲─*$' "$tmp/out"
has "tensor roofline: the tensor roof in the legend" '^        BF16 tensor +800000 GFLOP/s measured, +1024000 GFLOP/s in the spec$' "$tmp/out"
has "tensor roofline: its ridge named" '▲ the tensor ridge, 266\.7 FLOP/byte' "$tmp/out"
has "tensor roofline: a step against the tensor roof" '^  1 tc_wmma_global +1024\.000 FLOP/B +30000\.0 GFLOP/s tensor +3\.8%$' "$tmp/out"
python3 - "$tmp/out" <<'PY' || fail "tensor roofline: 80 columns at most, every step drawn once, under the tensor roof"
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
chart = [l for l in lines if "┤" in l or "│" in l]
drawn = [l for l in lines if not l.startswith("RECORDED")]
assert max(len(l) for l in drawn) <= 80, [l for l in drawn if len(l) > 80]
top = min(i for i, l in enumerate(chart) if "TENSOR" in l)
spots = " ".join(re.findall(r"\(([0-9a-z ]+)\)", " ".join(l for l in lines if l.startswith("Steps at one spot"))))
for mark in "1357dgm":
    rows = [i for i, l in enumerate(chart) if mark in re.sub(r"×[0-9]+", "", l[5:])]
    if not rows and mark in spots.split():
        continue
    assert len(rows) == 1 and re.sub(r"×[0-9]+", "", chart[rows[0]][5:]).count(mark) == 1, mark
    assert rows[0] >= top, (mark, rows, top)
PY
ok "the tensor cores' roofline in ASCII" env LC_ALL=C "$T" roofline tensor-cores --recorded "$TF" --width 80
has "tensor roofline: the ASCII tensor roof" '^ *1P\+.*=' "$tmp/out"
has "tensor roofline: both ASCII ridges" '^ *100G\+-*\^-*\^-*$' "$tmp/out"
ok "the tensor cores' roofline as JSON" "$T" roofline tensor-cores --recorded "$TF" --format json
python3 - "$tmp/out" <<'PY' || fail "tensor roofline JSON: the tensor roof, its source and ridge, each step against it"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["tensor_roof"] == 800000.0 and r["tensor_roof_source"] == "measured", r
assert abs(r["ridge_tensor"] - 800000 / 3000) < 1e-3, r["ridge_tensor"]
for p in r["points"]:
    assert p["placed"] and p["limiter"] == "tensor" and p["roof"] == 800000.0, p
    assert abs(p["intensity"] - 1024) < 1e-6 and 0 < p["pct_of_roof"] <= 105, p
PY
lacks "no tensor roof for a lesson on the FP32 lanes" 'tensor_roof' "$(
	"$T" roofline register-tiling --size 4096 --recorded "$F" --format json > "$tmp/fp32.json"; echo "$tmp/fp32.json")"
# No tensor ceiling measured in the file: the spec's figure, dotted, and the percentages against it.
sed 's/"tensor_bf16_measured_gflops": 800000.0/"tensor_bf16_measured_gflops": null/; s/"tensor_bf16_measured_by": "[^"]*"/"tensor_bf16_measured_by": null/' \
	"$TF" > "$tmp/tensor-spec.json"
ok "the tensor roofline from the spec's figure" env LC_ALL=C "$T" roofline tensor-cores --recorded "$tmp/tensor-spec.json" --width 80
has "spec roofline: said so" '^        BF16 tensor +1024000 GFLOP/s in the spec: no tensor ceiling measured on this$' "$tmp/out"
lacks "spec roofline: dotted, no solid tensor roof" '=' "$tmp/out"
has "spec roofline: the step against the spec" '^  1 tc_wmma_global +1024\.000 FLOP/B +30000\.0 GFLOP/s tensor +2\.9%$' "$tmp/out"
ok "the tensor cores' table" "$T" run tensor-cores --recorded "$TF"
has "tensor run: the %roof column against the tensor roof" '^  1  tc_wmma_global .* 30000\.0 +4\.3 +3\.8 ' "$tmp/out"
has "tensor run: a step below the tensor roof" '^  1  at 3\.8% of the BF16 tensor roof: the tensor cores wait for their operands;$' "$tmp/out"
has "tensor run: the yardstick near it" '^ 22  at 87\.5% of the BF16 tensor roof: nothing is left but fewer operations or a$' "$tmp/out"
ok "the tensor cores' table, spec roof" "$T" run tensor-cores --recorded "$tmp/tensor-spec.json" --format json
python3 - "$tmp/out" <<'PY' || fail "tensor run JSON: the spec's figure where none was measured, never 0%"
import json, sys
r = json.load(open(sys.argv[1]))
for s in r["steps"]:
    assert s["limiter"] == "tensor" and s["roof"] == 1024000.0 and s["roof_unit"] == "GFLOP/s", s
    assert 0 < s["pct_of_roof"] <= 105 and s["roof_exceeded"] is False, s
    if s["kernel"] == "cublas_gemm_bf16":
        assert s["diagnosis"]["rule"] == "library" and "at 68.4% of the roof" in s["diagnosis"]["text"], s
        continue
    assert s["diagnosis"]["rule"] in ("tensor_below", "tensor_roof"), s["diagnosis"]
    assert "of the BF16 tensor roof" in s["diagnosis"]["text"], s["diagnosis"]
assert abs(r["steps"][0]["pct_of_roof"] - 30000 / 10240) < 0.01, r["steps"][0]
PY

# The sweep: the fixture's recorded sweep of vectorize drawn, in ASCII, as JSON, a step alone, over blocks.
SW="$CUDATUTOR_SRCDIR/tests/fixtures/results-sweep.json"
ok "the recorded sweep of a lesson" env LC_ALL=C.UTF-8 "$T" sweep vectorize --recorded "$SW" --width 80
has "sweep: what it is and where it was recorded" '^vectorize, swept over sizes at block 1024 on Fixture GPU$' "$tmp/out"
has "sweep: RECORDED, not live" '^RECORDED on 2000-01-02, read from .*results-sweep\.json' "$tmp/out"
has "sweep: the y axis in decades" '^ +1000┤' "$tmp/out"
has "sweep: the x axis" '^ +└─{60,}$' "$tmp/out"
has "sweep: the sizes under it" '^ +2\^10 +2\^12 .* 2\^28$' "$tmp/out"
has "sweep: an L2 line for each working set, labelled over the chart" '^ +L2 +L2$' "$tmp/out"
has "sweep: the legend" '^  1 vec_add_float +3 vec_add_float4 +5 vec_add_char' "$tmp/out"
has "sweep: where the float steps fill the L2" 'L2: at 2\^22\.4 elements, 12 bytes an element fill its 64\.00 MiB L2' "$tmp/out"
has "sweep: the rates at 2^28" '^2\^28 +1000\.0 +2000\.0 +100\.0$' "$tmp/out"
has "sweep: the times at 2^16" '^2\^16 +0\.0640 +0\.0640 +0\.0640$' "$tmp/out"
has "sweep: the launch floor, its fastest run" '^  rising line: launch floor; no run took under 1\.0 µs, no point lies above it$' "$tmp/out"
python3 - "$tmp/out" <<'PY' || fail "sweep: 80 columns at most, every point of every step drawn, the L2 lines down the plot"
import sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
drawn = [l for l in lines if not l.startswith("RECORDED")]
assert max(len(l) for l in drawn) <= 80, [l for l in drawn if len(l) > 80]
plot = [l[6:] for l in lines if len(l) > 6 and l[5] in "┤│"]
assert len(plot) == 20, len(plot)
marks = "".join(plot)
assert marks.count("5") == 10 and marks.count("1") + marks.count("3") + marks.count("*") >= 18, marks
assert sum(1 for l in plot if l.count("┊") + l.count("L2") >= 1) >= 15
PY
ok "the recorded sweep in ASCII" env LC_ALL=C "$T" sweep vectorize --recorded "$SW" --width 80
python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); assert all(b < 128 for b in d), "not ASCII"' "$tmp/out" ||
	fail "sweep: ASCII where the terminal is not UTF-8"
has "sweep: an ASCII axis" '^ +\+-{60,}$' "$tmp/out"
has "sweep: ASCII L2 lines" '\|.*\|' "$tmp/out"
ok "one step of the recorded sweep" env LC_ALL=C.UTF-8 "$T" sweep vectorize 5 --recorded "$SW" --width 80
lacks "sweep 5: the other steps are not in the legend" 'vec_add_float' "$tmp/out"
has "sweep 5: only the char step's L2 line" '^ +L2$' "$tmp/out"
ok "the recorded sweep as JSON" "$T" sweep vectorize 1 3 --recorded "$SW" --format json
python3 - "$tmp/out" <<'PY' || fail "sweep JSON: the steps asked for, their points, the GPU's L2 and where it fills"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["lesson"] == "vectorize" and r["over"] == "size" and r["block"] == 1024 and r["recorded"] is True, r
assert r["gpu"]["name"] == "Fixture GPU" and r["gpu"]["l2_bytes"] == 67108864 and r["l2_bytes"] == 67108864, r
assert [s["step"] for s in r["steps"]] == [1, 3], r["steps"]
assert len(r["l2_sizes"]) == 1 and abs(r["l2_sizes"][0] - 67108864 / 12) < 10, r["l2_sizes"]
p = r["steps"][1]["points"]
assert len(p) == 10 and p[0]["size"] == 1024 and p[-1]["size"] == 2**28 and p[-1]["rate"] == 2000.0, p
assert p[3]["median_ms"] == 0.064 and p[3]["ran"] is True
assert r["steps"][0]["unit"] == "GB/s" and r["steps"][0]["bytes_per_element"] == 12.0
assert r["launch_floor_ms"] == 0.001, r["launch_floor_ms"]
PY
# On the recorded GPUs the rising line is a bound: no point of a step lies above its bytes over the floor.
for f in "$CUDATUTOR_SRCDIR"/data/results/nvidia-*.json; do
	for lesson in vectorize unrolling; do
		"$T" sweep "$lesson" --recorded "$f" --format json > "$tmp/out" 2> "$tmp/err" || continue
		python3 - "$tmp/out" <<'PY' && echo "ok: $(basename "$f") $lesson: the launch floor bounds every point" ||
import json, sys
r = json.load(open(sys.argv[1]))
runs = [(s, p) for s in r["steps"] for p in s["points"] if p["ran"]]
floor = r["launch_floor_ms"]
assert floor == min(p["median_ms"] for s, p in runs), floor
above = [(s["kernel"], p["size"]) for s, p in runs if p["rate"] > s["bytes_per_element"] * p["size"] / (floor * 1e6) * 1.001]
assert not above, above
PY
			fail "$(basename "$f") $lesson: a point above the launch floor's line"
	done
done
ok "the recorded block sweep" env LC_ALL=C.UTF-8 "$T" sweep vectorize --blocks 64..1024 --recorded "$SW" --width 80
has "block sweep: what it is" '^vectorize, swept over blocks at size 16777216 on Fixture GPU$' "$tmp/out"
has "block sweep: the blocks under the axis" '^ +64 +128 +256 +512 +1024$' "$tmp/out"
lacks "block sweep: no L2 line" 'L2' "$tmp/out"
has "block sweep: a point that did not run is a dash" '^64 +- +1000\.0$' "$tmp/out"
# --sizes on a recorded sweep: the points asked for, or one line of what the recording covers
ok "the recorded sweep at two sizes" "$T" sweep vectorize --sizes 65536,268435456 --recorded "$SW" --format json
python3 - "$tmp/out" <<'PY' || fail "sweep --sizes on a recording: only the sizes asked for"
import json, sys
d = json.load(open(sys.argv[1]))
assert all([p["size"] for p in s["points"]] == [65536, 268435456] for s in d["steps"]), d["steps"][0]["points"]
PY
refused "a size the recording lacks" "has no point at size 1000: it covers 1024 .* 268435456" \
    "$T" sweep vectorize --sizes 1000 --recorded "$SW"
refused "a file without a sweep says what to run" "holds no sweep of lesson 'vectorize' over size: on that GPU, 'cudatutor sweep vectorize --record' adds one" \
	"$T" sweep vectorize --recorded "$F"
refused "a step the recorded sweep does not hold" "the recorded sweep of 'vectorize' has no step 2" \
	"$T" sweep vectorize 2 --recorded "$SW"

# Bad input: one line on stderr, non-zero exit, nothing on stdout.
refused "unknown command" "unknown command 'frobnicate'" "$T" frobnicate
refused "unknown lesson" "unknown lesson 'nope'" "$T" run nope
refused "no lesson" 'run needs a lesson' "$T" run
refused "size zero" "'0' is not a positive count" "$T" run unrolling --size 0
refused "negative size" "'-5' is not a positive count" "$T" run unrolling --size -5
refused "non-numeric size" "'lots' is not a positive count" "$T" run unrolling --size lots
refused "overflowing size" 'is not a positive count' "$T" run unrolling --size 99999999999999999999999
refused "huge size" 'at most 2\^34' "$T" run unrolling --size 2^40
refused "block too large" "'2048' is not a block size" "$T" run unrolling --block 2048
refused "block zero" "'0' is not a block size" "$T" run unrolling --block 0
refused "bad format" "'xml' is not text, json or csv" "$T" run unrolling --format xml
refused "step out of range" 'has 4 steps, not 9' "$T" run reduction --step 9
refused "unknown kernel" "unknown kernel 'reduce_nope'" "$T" show reduce_nope --sass
refused "a library is not our kernel" 'library call' "$T" show cub_device_reduce_sum --ptx
refused "two views at once" 'one of --source' "$T" show reduce_unroll8 --ptx --sass
refused "a bad architecture" "'sm_x9' is not an architecture" "$T" show reduce_unroll8 --sass --arch sm_x9
refused "a bad line" "'0' is not a line number" "$T" show reduce_unroll8 --sass --line 0
refused "a bad width" "'5' is not a width" "$T" diff reduce_unroll2 reduce_unroll4 --width 5
refused "missing results file" 'cannot read the results file' "$T" run unrolling --recorded "$tmp/none.json"
printf '{"format": "cudatutor-results",\n "version": 1,\n "gpu": {' > "$tmp/broken.json"
refused "corrupt results file" 'broken.json:3:' "$T" run unrolling --recorded "$tmp/broken.json"
refused "record without a GPU" 'record needs a GPU' "$T" record --output "$tmp/r.json"
[ -e "$tmp/r.json" ] && fail "record left a file behind"

# Every option of every command: bad values get one line and a non-zero exit.
while IFS= read -r line; do
	case $line in ''|'#'*) continue ;; esac
	args=${line%% | *}
	pattern=${line#* | }
	eval "set -- $args"
	refused "cudatutor $args" "$pattern" "$T" "$@"
done < "$CUDATUTOR_SRCDIR/tests/cli/bad-options.list"

# A broken lesson: file and line, and the other lessons still work.
mkdir -p "$tmp/src/lessons/en"
cp "$CUDATUTOR_SRCDIR"/lessons/en/*.md "$tmp/src/lessons/en/"
printf '# Broken\n\n## A step\n\n```step\nkernel: no_such_kernel\n```\n' > "$tmp/src/lessons/en/09-broken.md"
CUDATUTOR_SRCDIR="$tmp/src" "$T" list > "$tmp/out" 2> "$tmp/err" || fail "list with a broken lesson failed"
has "broken lesson listed with file:line" '09-broken.md:6: unknown kernel' "$tmp/out"
has "other lessons still listed" '^unrolling ' "$tmp/out"
CUDATUTOR_SRCDIR="$tmp/src" refused "running the broken lesson" '09-broken.md:6:' "$T" run broken

# The Simplified Chinese manual keeps up with the English one and --help:
# its SYNOPSIS word for word, the same option list, every command and option.
en_man=$CUDATUTOR_SRCDIR/man/cudatutor.1
zh_man=$CUDATUTOR_SRCDIR/man/zh_CN/cudatutor.1
for m in en zh; do
	f=$en_man; [ "$m" = zh ] && f=$zh_man
	sed -n '/^\.Sh SYNOPSIS/,/^\.Sh /p' "$f" | sed '$d' > "$tmp/synopsis-$m"
	grep '^\.It Fl' "$f" | sed 's/\\-/-/g' | grep -o -E -e '-[a-z][a-z-]*' | sort -u > "$tmp/list-$m"
done
cmp -s "$tmp/synopsis-en" "$tmp/synopsis-zh" && echo "ok: the Chinese manual's SYNOPSIS is the English one's" ||
	fail "man/zh_CN/cudatutor.1's SYNOPSIS differs from man/cudatutor.1's: $(diff "$tmp/synopsis-en" "$tmp/synopsis-zh" | grep '^[<>]' | head -3 | tr '\n' ' ')"
missing=$(comm -3 "$tmp/list-en" "$tmp/list-zh" | tr -d '\t' | tr '\n' ' ')
[ -z "$missing" ] && echo "ok: both manuals list the same options" ||
	fail "options listed in only one of the English and the Chinese manual: $missing"
# SYNOPSIS through the option list and the keys, as above for the English manual
sed -n '/^\.Sh SYNOPSIS/,/^\.Sh 测量方法/p' "$zh_man" | sed 's/\\-/-/g' |
	grep -o -E '(Fl|\|) -[a-z][a-z-]*' | sed 's/^.* -/--/' | sort -u > "$tmp/zhman-options"
missing=$(comm -23 "$tmp/help-options" "$tmp/zhman-options" | tr '\n' ' ')
[ -z "$missing" ] && echo "ok: every option in --help is in the Chinese manual" ||
	fail "options missing from the Chinese manual: $missing"
for c in $("$T" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p'); do
	grep -q "^\.It Cm $c" "$zh_man" || fail "the Chinese manual does not document the command $c"
done


# A name typed with escape bytes comes back as \xNN, never raw: no message moves the cursor or
# clears the screen.
for c in "check" "run" "hint" "show"; do
	"$T" $c "$(printf 'x\033[2J\033]0;owned\007y')" > "$tmp/out" 2> "$tmp/err"
	if grep -q "$(printf '\033')" "$tmp/err" || grep -q "$(printf '\007')" "$tmp/err"; then
		fail "$c echoes an escape byte raw: $(od -c "$tmp/err" | head -3)"
	else
		has "$c shows the escape bytes as \\xNN" 'x\\x1b\[2J\\x1b\]0;owned\\x07y' "$tmp/err"
	fi
done


# The SM clock each step's timed runs ended at, where the file has it: lowest and highest under
# the table (the GPU boosts and throttles as it warms); a file without it says nothing of clocks.
python3 - "$CUDATUTOR_SRCDIR/data/results/nvidia-h100.json" "$tmp/clocks.json" <<'PY' || fail "a results file with clocks"
import json, sys
d = json.load(open(sys.argv[1]))
run = next(r for r in d["runs"] if r["lesson"] == "reduction" and r["size"] == 2 ** 24)
for s, mhz in zip(run["steps"], (1980, 1830, 1980, 1905)):
    s["sm_clock_mhz"] = mhz
json.dump(d, open(sys.argv[2], "w"))
PY
ok "run with the clocks recorded" "$T" run reduction --recorded="$tmp/clocks.json"
has "the clocks under the table" "^SM clock as each step's runs ended: 1830 to 1980 MHz \(step 2 at 1830\)$" "$tmp/out"
ok "run without them" "$T" run reduction --recorded="$CUDATUTOR_SRCDIR/data/results/nvidia-h100.json"
grep -q "SM clock" "$tmp/out" && fail "a file without clocks shows a clock line" || echo "ok: no clock line without clocks"

finish

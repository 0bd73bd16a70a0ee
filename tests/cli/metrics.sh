#!/bin/sh
# cudatutor metrics without a GPU: --explain, recorded counters shown as recorded, one clear line otherwise.
. "$(dirname "$0")/../lib/lib.sh"
T=$CUDATUTOR
F=$CUDATUTOR_SRCDIR/tests/fixtures/results-metrics.json

ok "help" "$T" --help
has "help names metrics" '^ +metrics ' "$tmp/out"
has "help names --runs" '^ +--runs N ' "$tmp/out"

ok "explain" "$T" metrics --explain
has "nvprof's DRAM read throughput" '^ +nvprof +dram_read_throughput$' "$tmp/out"
has "its Nsight Compute name" '^ +ncu +dram__bytes_read\.sum\.per_second$' "$tmp/out"
has "load efficiency" 'smsp__sass_average_data_bytes_per_sector_mem_global_op_ld\.pct' "$tmp/out"
has "bank conflicts" 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld\.sum' "$tmp/out"
has "stall_sync" 'stall_sync' "$tmp/out"
ok "explain as JSON" "$T" metrics --explain --format json
python3 - "$tmp/out" <<'PY' || fail "explain JSON shape"
import json, sys
m = json.load(open(sys.argv[1]))
names = {x["ncu"] for x in m if x["ncu"]}
assert "sm__warps_active.avg.pct_of_peak_sustained_active" in names
for x in m:
    assert x["label"] and x["meaning"] and x["group"], x
    assert x["ncu"] or x["formula"], x
assert any(x["nvprof"] == "gst_efficiency" for x in m)
PY

# doc/metrics.md holds the same table: the one table in src/metrics.c.
ok "explain as Markdown" "$T" metrics --explain --format markdown
sed -n '/^<!-- BEGIN: generated/,/^<!-- END generated/p' "$CUDATUTOR_SRCDIR/doc/metrics.md" |
	sed -e '1,2d' | sed -e '$d' | sed -e '$d' > "$tmp/doc"
if cmp -s "$tmp/out" "$tmp/doc"; then
	echo "ok: doc/metrics.md matches the table"
else
	fail "doc/metrics.md differs from 'cudatutor metrics --explain --format markdown': regenerate its table ($(diff "$tmp/doc" "$tmp/out" | head -3))"
fi

# A source tree whose recorded results hold no counters, and one that has them.
mkdir -p "$tmp/none/lessons" "$tmp/none/data/results" "$tmp/with/lessons" "$tmp/with/data/results"
cp -r "$CUDATUTOR_SRCDIR/lessons/en" "$tmp/none/lessons/"
cp -r "$CUDATUTOR_SRCDIR/lessons/en" "$tmp/with/lessons/"
python3 - "$F" "$tmp/none/data/results/plain.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for run in r["runs"]:
    for s in run["steps"]:
        s.pop("metrics", None)
json.dump(r, open(sys.argv[2], "w"))
PY
cp "$tmp/none/data/results/plain.json" "$tmp/plain.json"
cp "$F" "$tmp/with/data/results/"

CUDATUTOR_SRCDIR="$tmp/none" refused "no GPU, no recorded counters" \
	"hold no counters for lesson 'reduction'" "$T" metrics reduction
has "says there is no GPU" 'CUDATUTOR_NO_GPU' "$tmp/err"
has "says how to get them" "cudatutor record" "$tmp/err"
rm "$tmp/none/data/results/plain.json"
CUDATUTOR_SRCDIR="$tmp/none" refused "no GPU, no recorded results" 'no recorded results' "$T" metrics reduction

CUDATUTOR_SRCDIR="$tmp/with" ok "no GPU: recorded counters" "$T" metrics reduction
has "notice on stderr" 'showing counters recorded on Fixture GPU on 2000-01-01' "$tmp/err"
has "labelled recorded" '^RECORDED on 2000-01-01' "$tmp/out"
has "step 1 row" '^ +1 +reduce_neighbored +100\.0 +10\.0% +25\.0% +25\.0% +2000 +2\.00 +50\.0% +1\.2M +barrier 40%$' "$tmp/out"
has "n/a where a metric is missing" '^ +3 +reduce_neighbored_less +200\.0 +20\.0% +50\.0% +n/a' "$tmp/out"
has "step without counters" '^ +4 +reduce_interleaved +no counters for this step' "$tmp/out"
has "legend names the metric" 'rd GB/s +DRAM read throughput \(GB/s\) +dram__bytes_read\.sum\.per_second' "$tmp/out"
lacks "no time column" 'median' "$tmp/out"

ok "one step, recorded" "$T" metrics reduction 1 --recorded "$F"
has "step title" '^reduction step 1: Neighbored pairs, divergent' "$tmp/out"
has "extra wavefronts" '^ +extra wavefronts per shared load +2\.00 +l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld\.sum / smsp__sass_inst_executed_op_shared_ld\.sum - 1$' "$tmp/out"
has "barrier stall first" 'waiting at a barrier +40\.0 %' "$tmp/out"
has "n/a, not an error" '^ +DRAM write throughput +n/a ' "$tmp/out"
ok "a step without counters" "$T" metrics reduction 4 --recorded "$F"
has "says so" '^no counters for this step' "$tmp/out"

ok "recorded as JSON" "$T" metrics reduction --recorded "$F" --format json
python3 - "$tmp/out" <<'PY' || fail "metrics JSON shape"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["recorded"]["date"].startswith("2000-01-01"), r["recorded"]
assert r["gpu"]["name"] == "Fixture GPU"
s1, s2, s3 = r["steps"]
m = {x["ncu"]: x for x in s1["metrics"] if x["ncu"]}
assert m["dram__bytes_read.sum.per_second"]["value"] == 100.0     # GB/s
assert m["dram__bytes_read.sum.per_second"]["unit"] == "GB/s"
assert m["dram__bytes_read.sum.per_second"]["nvprof"] == "dram_read_throughput"
assert m["smsp__warp_issue_stalled_membar_per_warp_active.pct"]["value"] is None
assert s1["stalls_largest_first"][:2] == ["barrier", "long_scoreboard"]
assert s3["metrics"] is None and s3["note"]
PY

# The unit that binds first, from the recorded counters: a bit-packing step issues instructions,
# shared memory feeds matmul_shared_ab, the tensor cores are busy in the warp-specialized GEMM.
H100=$CUDATUTOR_SRCDIR/data/results/nvidia-h100.json H200=$CUDATUTOR_SRCDIR/data/results/nvidia-h200.json
"$T" metrics bitpack 5 --recorded="$H100" > "$tmp/busy" 2>&1
has "busiest units, the issue of instructions first" '^busiest   instruction issue [0-9.]+%, DRAM [0-9.]+%' "$tmp/busy"
# it loads nothing: the note under its global loads says so, not only that TMA copies are not LDG loads
has "no load, said as such" 'no global load instruction ran: the kernel loads nothing from global memory' "$tmp/busy"
"$T" metrics shared-memory 3 --recorded="$H100" > "$tmp/busy" 2>&1
has "shared memory first for matmul_shared_ab" '^busiest   shared memory [0-9.]+%' "$tmp/busy"
"$T" metrics tensor-cores 12 --recorded="$H200" --format json > "$tmp/busy.json" 2>&1
python3 - "$tmp/busy.json" <<'PY' || fail "the warp-specialized GEMM's busiest unit in JSON"
import json, sys
b = json.load(open(sys.argv[1]))["steps"][0]["busiest"]
assert b[0]["unit"] == "tensor cores" and 50 < b[0]["pct"] <= 100, b
assert [u["pct"] for u in b] == sorted((u["pct"] for u in b), reverse=True), b
PY

# Bad input: one line on stderr, non-zero exit.
refused "no lesson" 'metrics needs a lesson' "$T" metrics
refused "unknown lesson" "unknown lesson 'nope'" "$T" metrics nope
refused "step out of range" 'has 4 steps, not 9' "$T" metrics reduction 9 --recorded "$F"
refused "a step added since the recording" "has no step 2 (reduce_neighbored_mask), added since" \
    "$T" metrics reduction 2 --recorded "$F"
refused "not a step" "'x' is not a step number" "$T" metrics reduction x
refused "extra argument" "'extra' is extra" "$T" metrics reduction 1 extra
refused "CSV is not offered" "'csv' is not text or json" "$T" metrics reduction --format csv
refused "explain takes no lesson" 'takes no lesson' "$T" metrics --explain reduction
refused "explain format" "'xml' is not text, json or markdown" "$T" metrics --explain --format xml
refused "recorded file without counters" 'hold no counters' "$T" metrics reduction --recorded "$tmp/plain.json"
refused "runs zero" "'0' is not a number of runs" "$T" run reduction --runs 0
refused "record without a GPU" 'record needs a GPU' "$T" record --no-metrics --output "$tmp/r.json"

# What could be gained: every figure recomputed from the recorded measurements, on both GPUs
for f in "$CUDATUTOR_SRCDIR"/data/results/nvidia-h100.json "$CUDATUTOR_SRCDIR"/data/results/nvidia-h200.json; do
	for lesson in vectorize shared-memory register-tiling reduction tensor-cores; do
		"$T" metrics "$lesson" --recorded "$f" --format json > "$tmp/m.json" 2> "$tmp/err" &&
		    "$T" run "$lesson" --recorded "$f" --format json > "$tmp/r.json" 2>> "$tmp/err" ||
		    { fail "$lesson on $(basename "$f"): $(head -2 "$tmp/err")"; continue; }
		python3 - "$tmp/m.json" "$tmp/r.json" <<'PY' && echo "ok: $(basename "$f") $lesson: what could be gained, from the measurements" ||
import json, sys
m, r = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
run = {s["step"]: s for s in r["steps"]}
sm = r["gpu"]["sm_count"]
close = lambda a, b: abs(a - b) <= 2e-3 * abs(b)
seen = 0
for s in m["steps"]:
    h = s.get("headroom")
    if h is None:
        continue
    seen += 1
    t = run[s["step"]]
    value = {x["ncu"]: x.get("value") for x in s["metrics"]}
    if h["faster_step"] is not None:
        twin = run[h["faster_step"]]
        assert close(h["faster_times"], t["median_ms"] / twin["median_ms"]) and h["faster_times"] >= 1.05, (s["step"], h)
        # the same work: the same bytes and FLOPs (the same experiment: diagnosis_faster_twin, test_diagnosis)
        assert close(twin["gbps"] * twin["median_ms"], t["gbps"] * t["median_ms"]), (s["step"], h)
        assert close(twin["gflops"] * twin["median_ms"], t["gflops"] * t["median_ms"]), (s["step"], h)
    if h["waves"] is not None:
        assert close(h["waves"], t["grid"] / (t["blocks_per_sm"] * sm)), (s["step"], h)
    if h["dram_moved_bytes"] is not None:
        assert close(h["dram_moved_bytes"], value["dram__bytes_read.sum"] + value["dram__bytes_write.sum"]), h
        assert close(h["ideal_bytes"], t["gbps"] * t["median_ms"] * 1e6), (h, t["gbps"])
    if h["library_times"] is not None:
        assert close(h["library_times"], 100 / t["pct_library"]), h
    said = [x for x in h["said"] if x]
    assert said, s["step"]
assert seen > 0
PY
			fail "$(basename "$f") $lesson: a figure of what could be gained that the measurements do not give"
	done
done
ok "one step's counters, with what could be gained" "$T" metrics vectorize 1 --recorded "$CUDATUTOR_SRCDIR/data/results/nvidia-h100.json"
has "the faster step of the same work" '^  Step 3 \(vec_add_float4\) does the same work 1\.11× faster$' "$tmp/out"
has "the waves" '^  1\.00 waves: a grid of 264 blocks, 2 at a time on each of 132 SMs$' "$tmp/out"

finish

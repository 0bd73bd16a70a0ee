#!/bin/sh
# show --sass --stalls, from the warp-state samples recorded on the H200 (record --stalls): the
# line where step 13 of the tensor lesson waits most is its wgmma's wait, said so; the samples
# sit on this build's SASS; a file without samples, a damaged one and a wrong view each get
# one line.
. "$(dirname "$0")/../lib/lib.sh"
T=$CUDATUTOR
data=$CUDATUTOR_SRCDIR/data/results
export CUDATUTOR_NO_GPU=1

"$T" show tc_wgmma_tma --sass --stalls --recorded "$data/nvidia-h200.json" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] && echo "ok: show --sass --stalls from the H200's file" || fail "exit $rc: $(cat "$tmp/err")"
grep -q "warp-state samples that Nsight Compute took on NVIDIA H200" "$tmp/out" &&
	echo "ok: it says whose samples they are" || fail "no heading: $(head -2 "$tmp/out")"
# the line with most samples, in the listing and first of the three
top=$(sed -n '/^Where the warps wait most/{n;p;}' "$tmp/out")
case $top in
*"/*10a0*/ WARPGROUP.DEPBAR.LE gsb0, 0x0: barrier"*"its warpgroup's own wgmma"*)
	echo "ok: step 13 waits most at WARPGROUP.DEPBAR, for its own wgmma: $top" ;;
*) fail "the first line where the warps wait: $top" ;;
esac
grep -E '^ +[0-9.]+% .* /\*10a0\*/ WARPGROUP\.DEPBAR\.LE gsb0, 0x0 +<- barrier' "$tmp/out" > /dev/null &&
	echo "ok: its share beside it in the SASS" || fail "the SASS line has no share"
# ncu files it under "barrier", but no BAR.SYNC is among the lines sampled
grep -E '^ +[0-9.]+% .*BAR\.SYNC' "$tmp/out" && fail "a BAR.SYNC line holds samples" ||
	echo "ok: no BAR.SYNC holds samples"
# the branch after the mbarrier's wait: named by what it waits for, not 'memory'
grep -q "BRA 0x1840: long_sb.*SYNCS.PHASECHK.TRANS64.TRYWAIT at /\*0b20\*/: an mbarrier" "$tmp/out" &&
	echo "ok: the branch waits for the mbarrier's phase" || fail "the branch: $(grep 'BRA 0x1840:' "$tmp/out")"
# the offsets recorded are this build's instructions (else a note says they differ)
grep -q "is not the one recorded" "$tmp/out" && fail "the recorded samples do not sit on this build's SASS" ||
	echo "ok: the samples sit on this build's SASS"

"$T" show tc_wgmma_warp_specialized --sass --stalls --format json --recorded "$data/nvidia-h200.json" > "$tmp/json" 2> "$tmp/err"
python3 - "$tmp/json" <<'PY' && echo "ok: JSON: step 16 waits most at WARPGROUP.DEPBAR (one wgmma in flight)" || fail "JSON: $(head -c 300 "$tmp/json")"
import json, sys
d = json.load(open(sys.argv[1]))
top = d["lines"][0]
assert d["kernel"] == "tc_wgmma_warp_specialized" and d["step"] == 16 and d["gpu"] == "NVIDIA H200", d
assert top["sass"] == "WARPGROUP.DEPBAR.LE gsb0, 0x1" and "wgmma" in top["waits_for"], top
assert 0 < top["pct"] < 100 and top["samples"] <= d["samples"], top
assert all(a["samples"] >= b["samples"] for a, b in zip(d["lines"], d["lines"][1:]))
PY

# without a file: the recorded file that has samples is found
"$T" show tc_wgmma_tma --sass --stalls > "$tmp/out2" 2> "$tmp/err" && cmp -s "$tmp/out" "$tmp/out2" &&
	echo "ok: without --recorded, the file with samples" || fail "without --recorded: $(cat "$tmp/err")"

expect_fail() {
	want_rc=$1 want=$2
	shift 2
	"$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ $rc -eq "$want_rc" ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q -- "$want" "$tmp/err" &&
		echo "ok: $* -> $(cat "$tmp/err")" || fail "$*: exit $rc, $(cat "$tmp/err")"
}
expect_fail 1 "no warp-state samples were recorded for tc_wgmma_tma.*record --lessons tensor-cores --stalls" \
	"$T" show tc_wgmma_tma --sass --stalls --recorded "$data/nvidia-h100.json"
expect_fail 2 "goes with --sass" "$T" show tc_wgmma_tma --ptx --stalls
expect_fail 2 "not CSV" "$T" show tc_wgmma_tma --sass --stalls --format csv
# a damaged 'stalls' object: the file and what is wrong
python3 - "$data/nvidia-h200.json" "$tmp/damaged.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["runs"]:
    for s in r["steps"]:
        if (s.get("metrics") or {}).get("stalls"):
            s["metrics"]["stalls"]["lines"][0]["offset"] = "0x10a0"
json.dump(d, open(sys.argv[2], "w"))
PY
expect_fail 1 "'stalls' must hold" "$T" show tc_wgmma_tma --sass --stalls --recorded "$tmp/damaged.json"
finish

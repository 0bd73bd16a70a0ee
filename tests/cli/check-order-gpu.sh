#!/bin/sh
# What CUDA leaves free, tried on a GPU: a kernel whose blocks meet through global atomics is run
# again with its blocks started in reverse order, and so again while another kernel holds half
# of the GPU, so that its blocks cannot all run at once and block 0 starts after others end.
# Our one-pass solution stays right under both; a kernel that spins at a barrier across the grid
# fails the second within its time limit, and so does one whose block 0 zeroes the total when it
# starts (wrong there, right everywhere else).  Skips where no GPU judges.
. "$(dirname "$0")/../lib/lib.sh"
T=$CUDATUTOR
src="$CUDATUTOR_SRCDIR/kernels/exercises"
adv="$CUDATUTOR_SRCDIR/tests/exercises/adversarial"
unset CUDATUTOR_NO_GPU

"$T" check one-pass --file "$src/one-pass.solution.cu" --format json > "$tmp/ours.json" 2> "$tmp/err"
case $? in
0) ;;
1) echo "skip: the exercises cannot be checked here: $(cat "$tmp/err")"; exit 77 ;;
4) echo "skip: no GPU here judges the exercises"; exit 77 ;;
*) fail "our one-pass solution does not pass: $(head -c 400 "$tmp/ours.json") $(head -c 400 "$tmp/err")" ;;
esac
python3 - "$tmp/ours.json" <<'PY' && echo "ok: our one-pass solution passes in reverse order and with half the GPU held" ||
import json, sys
d = json.load(open(sys.argv[1]))
assert d["passed"] and d["reversed_blocks"]["ran"] and d["half_gpu_held"]["ran"], d
assert not any(z["held"] or z["reversed"] for z in d["sizes"]), d["sizes"]
print("held: %.2f s, reversed: %.2f s" % (d["seconds"]["held"], d["seconds"]["reversed"]))
PY
	fail "our solution's report does not say both ran: $(head -c 600 "$tmp/ours.json")"

"$T" check one-pass --file "$adv/one-pass.grid-barrier.cu" --format json > "$tmp/spin.json" 2> "$tmp/err"
rc=$?
[ $rc -eq 3 ] && echo "ok: a barrier across the grid fails (exit 3)" || fail "a barrier across the grid: exit $rc, not 3"
python3 - "$tmp/spin.json" <<'PY' && echo "ok: it fails with half of the GPU held, at the time limit of that pass" ||
import json, sys
d = json.load(open(sys.argv[1]))
held = [z for z in d["sizes"] if z["held"]]
plain = [z for z in d["sizes"] if not z["held"] and not z["reversed"]]
assert not d["passed"] and held and not held[0]["ran"] and "time limit" in held[0]["error"], d["sizes"]
assert plain and all(z["ran"] and z["correct"] for z in plain), plain
assert d["seconds"]["held"] < 12, d["seconds"]
print("held pass: %.1f s; %s" % (d["seconds"]["held"], held[0]["error"]))
PY
	fail "the grid barrier's report: $(head -c 800 "$tmp/spin.json")"

"$T" check one-pass --file "$adv/one-pass.zero-total-at-start.cu" --format json > "$tmp/zero.json" 2> "$tmp/err"
rc=$?
[ $rc -eq 3 ] && echo "ok: a total zeroed by block 0 when it starts fails (exit 3)" || fail "a total zeroed by block 0: exit $rc, not 3"
python3 - "$tmp/zero.json" <<'PY' && echo "ok: it is wrong only in reverse order with half of the GPU held" ||
import json, sys
d = json.load(open(sys.argv[1]))
held = [z for z in d["sizes"] if z["held"]]
rest = [z for z in d["sizes"] if not z["held"]]
assert not d["passed"] and held and held[0]["ran"] and not held[0]["correct"], d["sizes"]
assert rest and all(z["ran"] and z["correct"] for z in rest) and d["reversed_blocks"]["ran"], rest
print("size %d block %d: %s" % (held[0]["size"], held[0]["block"], held[0]["detail"]))
PY
	fail "the zeroed total's report: $(head -c 800 "$tmp/zero.json")"
finish

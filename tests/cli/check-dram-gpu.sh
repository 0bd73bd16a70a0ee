#!/bin/sh
# A technique no instruction shows, judged as it runs: the tile-order exercise's check reads,
# under Nsight Compute at n = 7936 and 8192, the bytes the student's kernel and ours read from
# device memory, and passes at most 1.45 times ours at both.  Our solution and the second one (squares of 8 x 8
# tiles) pass; the starting file (row by row) and the near miss (groups of 4 tile-rows) fail that
# check alone, everything else right.  Where ncu cannot read them, the solution is not graded.
# Skips where no Hopper GPU with readable counters judges.
. "$(dirname "$0")/../lib/lib.sh"
T=$CUDATUTOR
src="$CUDATUTOR_SRCDIR/kernels/exercises"
fix="$CUDATUTOR_SRCDIR/tests/fixtures/exercises"
unset CUDATUTOR_NO_GPU

check() {	# NAME FILE EXPECTED-EXIT
	t0=$(date +%s.%N)
	"$T" check tile-order --file "$2" --format json > "$tmp/$1.json" 2> "$tmp/$1.err"
	rc=$?
	echo "$1: exit $rc in $(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $t0 }") s"
	case $rc in
	1) echo "skip: the exercises cannot be checked here: $(cat "$tmp/$1.err")"; exit 77 ;;
	4) echo "skip: not graded here: $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d.get("unjudged") or d.get("no_gpu"))' "$tmp/$1.json")"
	   exit 77 ;;
	esac
	[ "$rc" -eq "$3" ] || fail "$1: exit $rc, not $3: $(head -c 600 "$tmp/$1.json") $(head -c 300 "$tmp/$1.err")"
}

# the report's check of device-memory reads as it ran: its found share, bytes, and that it alone decided
reads() {	# NAME PASSES
	python3 - "$tmp/$1.json" "$2" <<'PY' || fail "$1: $(head -c 800 "$tmp/$1.json")"
import json, sys
d = json.load(open(sys.argv[1])); passes = sys.argv[2] == "yes"
dram = [c for c in d["executed_checks"] if c["check"].startswith("device-memory reads")]
assert d["executed_checked"] and len(dram) == 1, d.get("executed_note")
assert all(s["ran"] and s["correct"] for s in d["sizes"]), d["sizes"]
assert all(c["passed"] for c in d["checks"]), d["checks"]
assert dram[0]["passed"] == passes and d["passed"] == passes, dram
others = [c for c in d["executed_checks"] if c is not dram[0]]
assert all(c["passed"] for c in others), others
print("  %s" % dram[0]["check"])
PY
}

check solution "$src/tile-order.solution.cu" 0 && reads solution yes && echo "ok: our solution passes"
check alt "$fix/tile-order.alt.cu" 0 && reads alt yes && echo "ok: squares of 8 x 8 tiles pass"
check start "$src/tile-order.cu" 3 && reads start no && echo "ok: the starting file, row by row, fails on its reads alone"
check nearmiss "$fix/tile-order.nearmiss.cu" 3 && reads nearmiss no && echo "ok: groups of 4 tile-rows fail on their reads alone"
# no counters, no verdict: not a pass, and not a fail either
NCU=/nonexistent/ncu "$T" check tile-order --file "$src/tile-order.solution.cu" --format json > "$tmp/noncu.json" 2> "$tmp/noncu.err"
rc=$?
[ $rc -eq 4 ] || fail "without ncu: exit $rc, not 4 (not graded): $(head -c 600 "$tmp/noncu.json")"
python3 - "$tmp/noncu.json" <<'PY' && echo "ok: without ncu our solution is not graded, and the report says why" ||
import json, sys
d = json.load(open(sys.argv[1]))
assert not d["passed"] and not d["graded"] and "device-memory reads" in d["unjudged"], d
print("  unjudged: %s" % d["unjudged"][:160])
PY
	fail "without ncu: $(head -c 800 "$tmp/noncu.json")"
python3 - "$tmp/solution.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["seconds"]
print("the solution's check: %s" % ", ".join("%s %.1f s" % kv for kv in s.items()))
PY
finish

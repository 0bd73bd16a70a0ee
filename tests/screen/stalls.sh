#!/bin/sh
# Where the warps wait, in the full-screen tutor, from the samples recorded on the H200: the SASS
# view puts each sampled line's share, a bar and its reason beside it (step 13 of the tensor
# lesson: WARPGROUP.DEPBAR), and the counters view names the three lines with most samples and
# what each waits for.
. "$(dirname "$0")/../lib/lib.sh"

. "$(dirname "$0")/../lib/tmux.sh"

[ -n "${CUOBJDUMP:-}" ] || { echo "skip: no cuobjdump when configured: no SASS to put samples beside"; exit 77; }

# start COLS ROWS: the tutor in a fresh terminal, on the tensor lesson's step 13
start() {
	# a state of its own: the tutor opens at the lesson list, not where the last one left
	XDG_STATE_HOME="$tmp/state-$1"
	tm kill-server 2>/dev/null
	sleep 0.1
	tm -f /dev/null new-session -d -s tutor -x "$1" -y "$2" \
	    "env CUDATUTOR_SRCDIR='$CUDATUTOR_SRCDIR' XDG_STATE_HOME='$XDG_STATE_HOME' CUDATUTOR_NO_GPU=1 LANG=C.UTF-8 '$CUDATUTOR'; sleep 30"
	wait_for "the lesson list ($1x$2)" 'Lessons and their steps' || return 1
	# the last lesson of the list is the tensor cores'; its introduction, then its pages one by one
	keys End Enter
	wait_for "the tensor lesson opens" 'tensor-cores' || return 1
	i=0
	while [ $i -lt 30 ] && screen > "$tmp/screen" && ! grep -q 'Step 13 of 22' "$tmp/screen"; do
		keys Right
		i=$((i + 1))
	done
	wait_for "step 13" 'Step 13 of 22 +Hopper'
	# the rate column of a matrix lesson is headed whole, not cut to "GFLOP/"
	lacks "the rate's heading is not cut" 'GFLOP/ ' "$tmp/screen"
	on_screen "the rate's heading" ' (GF/s|GFLOP/s) '
}

# page_to PATTERN N: NPage, at most N times, until the screen shows PATTERN
page_to() {
	i=0
	screen > "$tmp/screen"
	while [ $i -lt "$2" ] && ! grep -q -e "$1" "$tmp/screen"; do
		keys NPage
		screen > "$tmp/screen"
		i=$((i + 1))
	done
}

# what the recorded H200 file says of step 13's wgmma wait: its share of the samples, their count, their day
set -- $(python3 - "$CUDATUTOR_SRCDIR/data/results/nvidia-h200.json" <<'PY'
import json, sys
run = [r for r in json.load(open(sys.argv[1]))["runs"] if r["lesson"] == "tensor-cores" and r["size"] == 4096][0]
st = [s for s in run["steps"] if s["kernel"] == "tc_wgmma_tma"][0]["metrics"]["stalls"]
top = st["lines"][0]
assert top["sass"] == "WARPGROUP.DEPBAR.LE gsb0, 0x0", top
print("%.1f %d %s" % (100.0 * top["samples"] / st["samples"], st["samples"], st["date"][:10]))
PY
)
[ $# -eq 3 ] || { echo "FAIL: step 13's samples in the recorded H200 file"; exit 1; }
share=$(printf '%s' "$1" | sed 's/\./\\./'); samples=$2; day=$3

start 120 40
keys s
wait_for "the SASS view of tc_wgmma_tma" 'SASS sm_90a.* tc_wgmma_tma'
page_to '/\*10a0\*/' 30
on_screen "the wgmma's wait with its share, a bar and ncu's reason" \
	" $share% █+ +barrier +/\\*10a0\\*/ +WARPGROUP\\.DEPBAR\\.LE gsb0, 0x0"
on_screen "a line with fewer samples, its own" ' [0-9]\.[0-9]% .* +/\*10c0\*/ '
lacks "no BAR.SYNC line holds samples" '[0-9]% .*BAR\.SYNC' "$tmp/screen"
keys Escape
keys m
wait_for "the counters of step 13" 'tc_wgmma_tma'
on_screen "what could be gained, from what was measured" '^ What could be gained, from what was measured'
on_screen "the library does the same work faster" "The lesson's library step does the same work [0-9]\.[0-9][0-9]× faster"
on_screen "the waves of its grid" '^ 7\.76 waves: a grid of 1024 blocks, 1 at a time on each of 132 SMs'
keys End
wait_for "the lines where the warps wait most" "Where the warps wait most, line by line \\($samples warp-state samples, $day\\)"
on_screen "first, the wgmma's wait, said to be one" \
	"$share% +/\\*10a0\\*/ WARPGROUP\\.DEPBAR\\.LE gsb0, 0x0 +— barrier: its warpgroup.s own wgmma"
on_screen "the branch after the mbarrier's wait, said to wait for it" \
	'/\*0b30\*/ @!P0 BRA 0x1840 +— long_sb: the result of SYNCS\.PHASECHK'
keys Escape

keys q

# 80x24: the column still leaves the instruction readable
start 80 24
keys s
wait_for "the SASS view at 80x24" 'tc_wgmma_tma'
page_to '/\*10a0\*/' 60
on_screen "at 80 columns: the share and the instruction on one row" "$share% .*/\\*10a0\\*/ +WARPGROUP\\.DEP"
keys q
finish

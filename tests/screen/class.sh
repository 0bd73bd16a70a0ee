#!/bin/sh
# The class view (cudatutor --class DIR) as a teacher uses it without a GPU, at 80x24 and
# 160x48: the board of an exercise, a submission arriving while it is open (judged, marked as the
# newest), a damaged file's line, a second hand-in and the first again once it is damaged, another exercise's board, a submission's source beside ours,
# its SASS aligned with our reference's, and big type; nothing is ranked without a GPU.
. "$(dirname "$0")/../lib/lib.sh"

. "$(dirname "$0")/../lib/tmux.sh"
T=$CUDATUTOR
src="$CUDATUTOR_SRCDIR/kernels/exercises"
class="$tmp/class"
mkdir -p "$class"

# The class judges with NVRTC: without it there is nothing to see.
"$T" check float4 --file "$src/float4.solution.cu" > "$tmp/out" 2> "$tmp/err"
if [ $? -eq 1 ]; then
	echo "skip: the exercises cannot be checked here: $(cat "$tmp/err")"
	exit 77
fi
"$T" submit float4 --name "Bob" --file "$src/float4.cu" --output "$class/bob.json" > /dev/null &&
"$T" submit float4 --name "Li Wei" --file "$src/float4.solution.cu" --output "$class/li.json" > /dev/null ||
	fail "submit failed"

# start COLS ROWS ARGS...: the class view on the folder.
round=0
start() {
	cols=$1 rows=$2
	shift 2
	tm kill-server 2>/dev/null
	sleep 0.2
	round=$((round + 1))
	tm -f /dev/null new-session -d -s tutor -x "$cols" -y "$rows" \
	    "env XDG_STATE_HOME='$XDG_STATE_HOME' XDG_CACHE_HOME='$XDG_CACHE_HOME' CUDATUTOR_NO_GPU=1 LANG=C.UTF-8 \
	    '$T' --class '$class' $*; echo class-exit$round=\$?; sleep 60"
	wait_for "the class view at ${cols}x$rows" '^ cudatutor › class · float4'
}

start 80 24
on_screen "what the board holds, and no GPU" '^ 2 submitted: .*; no GPU'
wait_for "both judged" '2 submitted: 2 judged, 0 being judged, 0 waiting'
on_screen "the starting file fails its SASS check" '^ +Bob +FAIL +SASS: LDG\.E\.128'
on_screen "the solution: its SASS passes, not judged" '^.? +Li Wei +not graded +SASS [0-9]+ of [0-9]+ checks'
not_on_screen "no rank without a GPU" '^.? +[0-9]+ +(Bob|Li Wei)'
on_screen "the chosen row's whole reason, under the table" '^ SASS: LDG\.E\.128: at least 2, found 0: x and y are not read 16'

# a submission arrives while the board is open, and a damaged file
"$T" submit float4 --name "Carl" --file "$src/float4.solution.cu" --output "$tmp/carl.json" > /dev/null
mv "$tmp/carl.json" "$class/carl.json"
wait_for "a submission arriving is on the board" 'Carl'
wait_for "and judged, from the cache: the same source as Li Wei's" '^● +Carl +not graded +SASS'
printf '{"format": "cudatutor-submission", "vers' > "$class/cut.json"
wait_for "a damaged file gets its line" '^ +cut\.json: not a submission \(line 1'
# Bob hands in again: his first says it is older; the newer damaged, the first counts again
"$T" submit float4 --name "Bob" --file "$src/float4.solution.cu" --output "$tmp/bob2.json" > /dev/null
mv "$tmp/bob2.json" "$class/bob2.json"
wait_for "a second hand-in: the first says it is older" '^.? +Bob +older +bob2\.json of the same'
printf '{"format": "cudatutor-submission", "vers' > "$class/bob2.json"
wait_for "the newer damaged: the first counts again" '^.? +Bob +FAIL +SASS: LDG\.E\.128'
on_screen "and the damaged one gets its line" '^ +bob2\.json: not a submission'
# another exercise: its own board
"$T" submit char8 --name "Dana" --file "$src/char8.cu" --output "$class/dana.json" > /dev/null
wait_for "a second exercise: the board stays on its own, and counts them" 'class · float4 \(2 of 2 exercises\)'
keys Right
wait_for "right arrow: the other exercise's board" 'class · char8 \(1 of 2 exercises\)'
on_screen "with its submission" 'Dana'
not_on_screen "and not the other's" 'Li Wei'
keys Left
wait_for "left arrow: back" 'class · float4 \(2 of 2 exercises\)'

# a submission's source beside ours, then its SASS against our reference's
keys Down
keys Enter
wait_for "Enter: the source handed in, beside ours" ': the source handed in, beside ours'
on_screen "both columns" 'theirs +ours \(the exercise.s solution\)'
on_screen "the code, both sides" 'extern "C" __global__ .*│extern "C" __global__'
keys d
wait_for "d: the SASS, aligned" 'SASS aligned by opcode: [0-9]+ kept'
on_screen "the mix, side by side" 'global loads, 128-bit'
keys Escape
wait_for "Esc: back to the board" '^ rank +name +verdict'

# too small, then large, in big type
tm resize-window -t tutor -x 60 -y 20
wait_for "too small: says so" 'needs at least 80x24'
tm resize-window -t tutor -x 160 -y 48
wait_for "at 160x48" '^ rank +name +verdict'
keys P
on_screen "P: big type, the board still there" 'Li Wei'
screen > "$tmp/big"
lacks "no digits drawn big without a rank" '█' "$tmp/big"
keys q
wait_for "q quits" "class-exit$round=0"
[ "$(ls -A "$class" | tr '\n' ' ')" = "bob.json bob2.json carl.json cut.json dana.json li.json " ] &&
	echo "ok: nothing was written in the folder" || fail "the folder holds $(ls -A "$class")"

# ---- bad arguments: one line each ---------------------------------------------------------------
tm kill-server 2>/dev/null
refused "--class on a folder that is not there" 'is not a folder' "$T" --class "$tmp/nosuch"
refused "--exercise without --class" '^cudatutor: --exercise goes with --class DIR' "$T" --exercise float4
refused "--exercise unknown" '^cudatutor: --exercise: ' "$T" --class "$class" --exercise nosuch

finish

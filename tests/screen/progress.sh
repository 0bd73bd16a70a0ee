#!/bin/sh
# Progress saved by two processes at once: the tutor open in tmux while
# `cudatutor hint` and `cudatutor exercise` run from another terminal.
# When the tutor saves after them (a page turned, then q), what they saved
# is still in the progress file, and so is where the tutor was.
. "$(dirname "$0")/../lib/lib.sh"

. "$(dirname "$0")/../lib/tmux.sh"
T=$CUDATUTOR
export XDG_DATA_HOME="$tmp/data"
state="$XDG_STATE_HOME/cudatutor"
progress="$state/progress.json"

# field PYTHON-EXPRESSION: a value of the progress file (d is its JSON).
field() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$progress" "$1"
}

# start ENV...: the tutor at step 2 of vectorize, in a shell in a fresh terminal.
start() {
	tm kill-server 2>/dev/null
	sleep 0.1
	mkdir -p "$state"
	printf '{"format": "cudatutor-progress", "version": 1, "last": {"lesson": "vectorize", "step": 2}, "lessons": {}, "results": []}\n' \
	    > "$progress"
	tm -f /dev/null new-session -d -s tutor -x 80 -y 24 \
	    "env PS1='test-shell\$ ' XDG_STATE_HOME='$XDG_STATE_HOME' XDG_DATA_HOME='$XDG_DATA_HOME' \
	    CUDATUTOR_NO_GPU=1 LANG=C.UTF-8 sh"
	wait_for "shell prompt" 'test-shell\$' > /dev/null || return 1
	keys "'$T'; echo tutor-exit=\$?" Enter
	wait_for "resumed at step 2 of vectorize" 'Step 2 of [0-9]+ +Two floats per access'
}

# quit: q, and the tutor is gone with exit 0.
quit() {
	keys q
	wait_for "the tutor quits" 'tutor-exit=0'
}

# ---- a hint from the command line while the tutor is open -------------------------------
start
ok "hint char8 from another terminal" "$T" hint char8
has "the first hint" "^Hint 1 of [0-9]+ for 'char8'" "$tmp/out"
[ "$(field 'd["exercises"]["char8"]["hints"]')" = 1 ] && echo "ok: the hint is in the progress file" ||
	fail "hint char8 did not save its count"
keys Right
quit
[ "$(field 'd["exercises"]["char8"]["hints"]')" = 1 ] &&
	echo "ok: the tutor's save keeps the hint shown from another terminal" ||
	fail "the tutor's save lost the hint: $(cat "$progress")"
[ "$(field 'd["last"]["lesson"]')" = vectorize ] && [ "$(field 'd["last"]["step"]')" -ne 2 ] &&
	echo "ok: and the tutor's own position, one page on" || fail "the tutor's position: $(field 'd["last"]')"

# ---- two commands saving over and over while the tutor turns pages and saves ----------------
ids=$("$T" exercise --format json | python3 -c 'import json,sys; print(" ".join(x["id"] for x in json.load(sys.stdin)))')
set -- $ids
half=$(($# / 2))
first="" second="" i=0
for id in $ids; do
	if [ $i -lt $half ]; then first="$first $id"; else second="$second $id"; fi
	i=$((i + 1))
done
start
ok "hint char8" "$T" hint char8
# each a load, a change and a save of its own, three rounds of each half
( for r in 1 2 3; do for id in $first; do "$T" exercise "$id" > /dev/null || exit 1; done; done ) &
a=$!
( for r in 1 2 3; do for id in $second; do "$T" exercise "$id" > /dev/null || exit 1; done; done ) &
b=$!
# meanwhile the tutor: the recorded results shown (a save), pages turned
for k in 1 2 3 4 5; do
	keys r
	keys Right
	keys Left
done
wait $a && wait $b && echo "ok: the commands saved" || fail "an exercise command failed"
keys Right
quit
n=$(field 'len(d["exercises"])')
[ "$n" -eq $# ] && echo "ok: all $# exercises started from two commands are in the file" ||
	fail "$n of $# exercises are in the progress file: $(field 'sorted(d["exercises"])')"
[ "$(field 'd["exercises"]["char8"]["hints"]')" = 1 ] &&
	echo "ok: the hint count is kept through it all" || fail "the hint count: $(field 'd["exercises"]["char8"]')"
[ "$(field 'len(d["lessons"]["vectorize"]["done"]) > 0')" = True ] &&
	echo "ok: the steps the tutor showed are done" || fail "the tutor's steps done: $(field 'd["lessons"]')"
[ "$(field 'd["last"]["lesson"]')" = vectorize ] && [ "$(field 'd["last"]["step"]')" -ne 2 ] &&
	echo "ok: the tutor's position is its own" || fail "the tutor's position: $(field 'd["last"]')"
finish

#!/bin/sh
# One session of the tutor under valgrind: the list, a lesson, a step run (recorded results), the
# SASS view, another GPU beside it (o), presenter mode and q, with no invalid access and no memory
# definitely lost.
. "$(dirname "$0")/../lib/lib.sh"

. "$(dirname "$0")/../lib/tmux.sh"
if ! command -v valgrind > /dev/null; then
	echo "skip: valgrind is not installed (Debian package valgrind)"
	exit 77
fi
# AddressSanitizer and valgrind each want the process's memory to themselves.
if grep -q -a __asan_init "$CUDATUTOR"; then
	echo "skip: this cudatutor is built with AddressSanitizer; valgrind runs on the plain build"
	exit 77
fi
# valgrind is slow: up to 60 s for the screen, more time per key
SCREEN_WAIT=600 KEYS_PAUSE=0.3

# Each process (the tutor and the children it forks to look for a GPU) logs to its own file.
# Exit status 99: valgrind found an error; leaks count as errors only when definitely lost.
vg="valgrind --log-file=$tmp/vg.%p --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite --track-fds=no"
tm -f /dev/null new-session -d -s tutor -x 100 -y 30 \
    "env PS1='test-shell\$ ' XDG_STATE_HOME='$tmp/state' CUDATUTOR_NO_GPU=1 LANG=C.UTF-8 sh"
wait_for "shell prompt" 'test-shell\$' > /dev/null
keys "$vg '$CUDATUTOR'; echo tutor-exit=\$?" Enter
wait_for "the lesson list under valgrind" 'Lessons and their steps'
wait_for "no GPU, said in the header" 'no GPU: recorded results'
keys Enter
wait_for "a lesson opens" 'cudatutor › reduction'
keys Right
wait_for "its first step" 'Step 1 of'
keys r
if ls "$CUDATUTOR_SRCDIR"/data/results/*.json > /dev/null 2>&1; then
	wait_for "a step run shows its recorded result" 'RECORDED'
fi
keys s
wait_for "the SASS view" '(SASS|cuobjdump)'
keys Tab
keys Escape
wait_for "back in the lesson" 'Step 1 of'
if [ "$(ls "$CUDATUTOR_SRCDIR"/data/results/*.json 2> /dev/null | wc -l)" -ge 2 ]; then
	keys o
	wait_for "o: another GPU beside these" ' B vs A '
	keys o
	wait_for "o again: one GPU" 'One GPU again'
fi
keys P
wait_for "presenter mode" 'Step 1 of [0-9]+:'
keys PageDown
wait_for "presenter mode: the next step" 'Step 2 of [0-9]+:'
keys P
keys q
wait_for "q quits" 'tutor-exit=[0-9]+'
has "valgrind found no error" 'tutor-exit=0' "$tmp/screen"

# What valgrind says, process by process.
n=0
for log in "$tmp"/vg.*; do
	[ -f "$log" ] || continue
	n=$((n + 1))
	if grep -q -E 'ERROR SUMMARY: [1-9]' "$log" || grep -q -E 'definitely lost: [1-9]' "$log" ||
	    grep -q -E 'Invalid (read|write|free)|uninitialised|Mismatched free' "$log"; then
		fail "valgrind: $(grep -E 'ERROR SUMMARY|definitely lost' "$log" | tr '\n' ' ')"
		sed 's/^/    | /' "$log" | head -80 >&2
	fi
done
[ "$n" -gt 0 ] && echo "ok: $n valgrind logs read, none with an error or a definite leak" ||
	fail "valgrind wrote no log"
tm kill-server 2>/dev/null
finish

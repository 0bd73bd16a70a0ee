#!/bin/sh
# The tutor under signals and failures: Ctrl-C, SIGTERM, SIGHUP, Ctrl-Z, a crash, a driver that
# hangs, a full disk; after each, the shell's prompt is back with the terminal as it was.
. "$(dirname "$0")/../lib/lib.sh"

. "$(dirname "$0")/../lib/tmux.sh"
state="$tmp/state"
progress="$state/cudatutor/progress.json"
hang_lib="${CUDATUTOR_BUILDDIR:-.}/tests/lib/fake-cuda"
slow_draw="${CUDATUTOR_BUILDDIR:-.}/tests/lib/slow-draw/slow-draw.so"


# A shell in a fresh 80x24 terminal; ENV is added to the tutor's environment.
shell() {
	tm kill-server 2>/dev/null
	sleep 0.1
	tm -f /dev/null new-session -d -s tutor -x 80 -y 24 \
	    "env -u CUDATUTOR_NO_GPU PS1='test-shell\$ ' XDG_STATE_HOME='$state' LANG=C.UTF-8 sh"
	wait_for "shell prompt" 'test-shell\$' > /dev/null || return 1
	# the terminal's modes before the tutor, to compare with after it
	keys "stty -g > '$tmp/stty.before'; clear" Enter
}

# tutor ENV...: start it in the shell; each start's exit status is echoed as exitN=.
round=0
tutor() {
	round=$((round + 1))
	keys "env $* '$CUDATUTOR'; echo exit$round=\$?" Enter
}

tutor_pid() {
	sh_pid=$(tm display -p -t tutor '#{pane_pid}')
	ps -o pid= --ppid "$sh_pid" | head -1 | tr -d ' '
}

# restored DESCRIPTION STATUS: the tutor ended with STATUS (grep -E) and gave the terminal
# back: no alternate screen, the same modes, a shell that reads and echoes again.
restored() {
	wait_for "$1: exit status $2" "exit$round=($2)\$" || return
	[ "$(tm display -p -t tutor '#{alternate_on}')" = 0 ] && echo "ok: $1: alternate screen off" ||
		fail "$1: the alternate screen was left on"
	keys "stty -g > '$tmp/stty.after'; echo modes-$round" Enter
	wait_for "$1: the shell runs commands" "^modes-$round\$" > /dev/null
	if cmp -s "$tmp/stty.before" "$tmp/stty.after"; then
		echo "ok: $1: terminal modes as before"
	else
		fail "$1: terminal modes changed: $(cat "$tmp/stty.before") -> $(cat "$tmp/stty.after")"
	fi
	keys clear Enter
}

# ---- quitting in every way there is -------------------------------------------------
shell
tutor CUDATUTOR_NO_GPU=1
wait_for "the tutor starts" 'Lessons and their steps'
keys q
restored "q" 0

tutor CUDATUTOR_NO_GPU=1
wait_for "started again" '^ cudatutor '
keys C-c
restored "Ctrl-C with no run going on quits" 130

for sig in TERM:143 HUP:129 QUIT:131; do
	tutor CUDATUTOR_NO_GPU=1
	wait_for "started again" '^ cudatutor ' > /dev/null
	pid=$(tutor_pid)
	[ -n "$pid" ] || { fail "cannot find the tutor's process under the shell"; continue; }
	kill "-${sig%:*}" "$pid"
	restored "SIG${sig%:*}" "${sig#*:}"
done

# Ctrl-Z: the shell gets the terminal back as it was; fg gives the tutor the screen again.
tutor CUDATUTOR_NO_GPU=1
wait_for "started again" '^ cudatutor ' > /dev/null
keys C-z
wait_for "Ctrl-Z stops the tutor" "exit$round=148"
[ "$(tm display -p -t tutor '#{alternate_on}')" = 0 ] && echo "ok: Ctrl-Z: alternate screen off" ||
	fail "Ctrl-Z: the alternate screen was left on"
round=$((round + 1))
keys "fg; echo exit$round=\$?" Enter
wait_for "fg: the tutor draws again" '^ cudatutor '
keys q
restored "q after Ctrl-Z and fg" 0

# A crash: the handler of fatal signals gives the terminal back, then dies of the signal
# (under AddressSanitizer, which reports the crash and aborts: SIGABRT).
tutor CUDATUTOR_NO_GPU=1
wait_for "started again" '^ cudatutor ' > /dev/null
pid=$(tutor_pid)
kill -SEGV "$pid"
restored "a crash (SIGSEGV)" '139|134'

# ---- Ctrl-C during a run ------------------------------------------------------------------
# Without a GPU a run only shows recorded results, at once.  A driver that hangs keeps a run
# going: it waits for the GPU, which the tutor looks for in a child process.
if [ -f "$hang_lib/libcuda.so.1" ]; then
	tutor LD_LIBRARY_PATH="'$hang_lib'" CUDATUTOR_TEST_HANG=20
	wait_for "with a driver that hangs, the tutor starts" 'looking for a GPU'
	keys Enter Right r
	wait_for "a run waits for the GPU" 'waiting for the GPU to start'
	keys C-c
	wait_for "Ctrl-C cancels the run" 'Cancelling the run; Ctrl-C again quits'
	on_screen "and the tutor stays" 'Step 1 of'
	not_on_screen "still running" "exit$round="
	keys C-c
	# the GPU thread is stuck in the driver: the tutor waits 3 s for it, then leaves
	restored "a second Ctrl-C quits" 130
	# a message a key asked for while the GPU is looked for is not replaced by the no-GPU notice
	printf '{"format": "cudatutor-progress", "version": 1, "last": {"lesson": "reduction", "step": 2, "exercise": "neighbored-less"}, "lessons": {}, "results": []}\n' \
	    > "$progress"
	tutor LD_LIBRARY_PATH="'$hang_lib'" CUDATUTOR_TEST_HANG=3 XDG_CONFIG_HOME="'$tmp/config'"
	wait_for "a driver that hangs 3 s: the exercise's page" 'Exercise: pack the busy threads together'
	keys i
	wait_for "i: how to choose where to hand in" 'Choose once where you hand in'
	sleep 4
	on_screen "still there once the GPU is found missing" 'Choose once where you hand in'
	keys j
	wait_for "the next key: the no-GPU notice, after it" 'No GPU here \(no NVIDIA GPU found\)'
	keys q
	restored "q" 0
	printf '{"format": "cudatutor-progress", "version": 1, "last": {"lesson": "reduction", "step": 1}, "lessons": {}, "results": []}\n' \
	    > "$progress"
else
	fail "no $hang_lib/libcuda.so.1: make check builds it"
fi

# ---- a resize while a frame is drawn ------------------------------------------------------
# Each frame takes a third of a second to reach the screen: a resize sent just after the first
# frame lands while the next is drawn, before the tutor waits for input again, and must still
# redraw at the new size without a key.  ASan must allow a library loaded before its own.
if [ -f "$slow_draw" ]; then
	tutor CUDATUTOR_NO_GPU=1 LD_PRELOAD="'$slow_draw'" \
	    ASAN_OPTIONS="\"\${ASAN_OPTIONS:-}:verify_asan_link_order=0\""
	wait_for "with slow frames, the tutor starts" '^ cudatutor ' > /dev/null
	tm resize-window -t tutor -x 60 -y 20
	wait_for "a resize during a frame is drawn, without a key" 'needs at least 80x24'
	tm resize-window -t tutor -x 80 -y 24
	wait_for "and back at 80x24" 'Step [0-9]+ of [0-9]+'
	keys q
	restored "slow frames: q" 0
else
	fail "no $slow_draw: make check builds it"
fi

# ---- progress that cannot be saved, and progress from a newer version --------------------------
tutor CUDATUTOR_NO_GPU=1
wait_for "started again" '^ cudatutor ' > /dev/null
cp "$progress" "$tmp/progress.before"
pid=$(tutor_pid)
# a full disk: the save's temporary file is a link to /dev/full, where every write fails
ln -s /dev/full "$progress.tmp.$pid"
keys q
restored "a full disk" 1
has "a full disk: said after the terminal is back" \
    "^cudatutor: cannot write .*progress.json: No space left on device \(the old file is kept\)" "$tmp/screen"
cmp -s "$progress" "$tmp/progress.before" && echo "ok: a full disk: the old progress file is whole" ||
	fail "a full disk: the progress file changed"
ls "$state/cudatutor" | grep -q '\.tmp\.' && fail "a full disk: a temporary file was left" ||
	echo "ok: a full disk: no temporary file left"
rm -f "$progress.tmp.$pid"

printf '{"format": "cudatutor-progress", "version": 99, "lessons": {}}\n' > "$progress"
cp "$progress" "$tmp/progress.before"
tutor CUDATUTOR_NO_GPU=1
wait_for "a newer progress file: said once" 'progress file is from a newer cudatutor'
on_screen "a newer progress file: the tutor starts at the list" 'Lessons and their steps'
keys Enter Right q
restored "a newer progress file: quit" 0
cmp -s "$progress" "$tmp/progress.before" && echo "ok: a newer progress file is left as it was" ||
	fail "a newer progress file was written over"

tm kill-server 2>/dev/null
finish

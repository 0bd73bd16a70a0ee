#!/bin/sh
# The full-screen tutor as a user sees it: keys sent through tmux, the screen read back.
. "$(dirname "$0")/../lib/lib.sh"

. "$(dirname "$0")/../lib/tmux.sh"

# A source tree of our own: the lessons, a broken one, and recorded results
# (a results file as `cudatutor record` writes it, for a made-up test GPU:
# its numbers only have to be recognisable, they measure nothing).
REAL_SRCDIR=$CUDATUTOR_SRCDIR
src="$tmp/src"
mkdir -p "$src/data/results"
cp -R "$CUDATUTOR_SRCDIR/lessons" "$CUDATUTOR_SRCDIR/kernels" "$src/"
python3 - "$src/data/results/test-gpu.json" "$CUDATUTOR" <<'PY' || fail "cannot write the test results file"
import json, subprocess, sys
out, tutor = sys.argv[1], sys.argv[2]
lessons = json.loads(subprocess.check_output([tutor, 'list', '--format', 'json']))
runs = []
for l in lessons:
    steps = []
    for i, s in enumerate(l['steps']):
        ms = 4.0 / (i + 1)
        lib = s['kernel'].startswith('cub_')
        steps.append({"step": i + 1, "title": s['title'], "kernel": s['kernel'], "size": 1 << 24,
            "block": 1024, "grid": None if lib else 1024, "library": lib, "ran": True, "reps": 20,
            "median_ms": ms, "q1_ms": ms, "q3_ms": ms, "min_ms": ms, "max_ms": ms, "spread_pct": 0.0,
            "registers": 16, "blocks_per_sm": 2, "occupancy_pct": 100.0, "gbps": 0, "gflops": 0,
            "pct_copy": 0, "speedup_first": 0, "speedup_prev": 0, "correct": True,
            "check": "test", "wrong_by_design": False})
    runs.append({"lesson": l['id'], "size": 1 << 24, "block": 1024, "steps": steps})
json.dump({"format": "cudatutor-results", "version": 1,
    "gpu": {"name": "Test GPU", "compute_capability": "sm_90", "driver": "0", "cuda": "13.0",
            "sm_count": 1, "memory_bytes": 1},
    "recorded": {"date": "2001-02-03T04:05:06Z", "cudatutor": "test"},
    "copy_gbps": 100.0, "runs": runs}, open(out, "w"))
PY
printf '# Broken\n\n## A step\n\n```step\nkernel: no_such_kernel\n```\n' > "$src/lessons/en/09-broken.md"
state="$tmp/state"
export CUDATUTOR_SRCDIR="$src" XDG_STATE_HOME="$state"

# this test reads the screen line by line, without joining wrapped lines
screen() { tm capture-pane -p -t tutor; }


# start COLS ROWS [ARGS...]: a shell in a fresh terminal, running the tutor.
start() {
	cols=$1 rows=$2
	shift 2
	tm kill-server 2>/dev/null
	sleep 0.1
	tm -f /dev/null new-session -d -s tutor -x "$cols" -y "$rows" \
	    "env PS1='test-shell\$ ' CUDATUTOR_SRCDIR='$CUDATUTOR_SRCDIR' XDG_STATE_HOME='$XDG_STATE_HOME' \
	    CUDATUTOR_NO_GPU=1 LANG=C.UTF-8 $EXTRA_ENV sh"
	wait_for "shell prompt" 'test-shell\$' > /dev/null || return 1
	keys "'$CUDATUTOR' $*; echo tutor-exit=\$?" Enter
}

# ---- the lesson list, first ------------------------------------------------------
start 80 24
wait_for "the lesson list appears" 'Lessons and their steps'
on_screen "reduction is listed" '^ +1 +reduction +Parallel reduction'
on_screen "the first lesson shows its steps" 'Neighbored pairs, divergent'
on_screen "the broken lesson is listed" 'broken +\(does not load\)'
on_screen "with its file, line and reason" 'lessons/en/09-broken.md:6: unknown kernel'
on_screen "no GPU, said in the header" 'no GPU: recorded results'
on_screen "the keys at the bottom" 'Enter open.*q quit'

# keys that do nothing here do nothing
keys x Z '%' F12
on_screen "unused keys change nothing" 'Lessons and their steps'

keys '?'
wait_for "help overlay" 'Keys'
on_screen "help lists the keys" 'open it in presenter mode'
keys Escape
not_on_screen "any key closes the help" 'open it in presenter mode'

# ---- opening unrolling --------------------------------------------------------------
keys Down Down Down Down Down
wait_for "choosing unrolling shows its steps" 'Unroll by eight'
not_on_screen "and no longer those of the first" 'Neighbored pairs, divergent'
keys Enter
wait_for "opening unrolling shows its text" 'Unrolling attacks both'
on_screen "at its introduction" 'unrolling . Unrolling: more work'
keys Right
wait_for "the first step" 'Step 1 of [0-9]+ +Unroll by two'
on_screen "names its kernel" 'runs reduce_unroll2'

# ---- running without a GPU: the recorded result, marked as recorded ------------------
keys r
wait_for "running a step shows a result" 'reduce_unroll2 +4\.000'
on_screen "marked as recorded, with GPU and date" 'RECORDED +on Test GPU \(sm_90\), 2001-02-03'
on_screen "and said in the status line, in one line" '^ Recorded on Test GPU, 2001-02-03 \(switched off by CUDATUTOR_NO_GPU\) *$'
not_on_screen "only the step that was run" 'reduce_unroll4 +2\.000'
keys a
wait_for "run all reveals every step" 'reduce_unroll8 +1\.333'

# ---- the SASS of reduce_unroll8 --------------------------------------------------------
# step 2, the page of the exercise that leads to step 3, step 3
keys Right Right Right
wait_for "step 3" 'Step 3 of [0-9]+ +Unroll by eight'
keys s
if [ -n "${CUOBJDUMP:-}" ]; then
	wait_for "the SASS view of reduce_unroll8" 'SASS sm_[0-9]+.* reduce_unroll8 '
	on_screen "shows SASS lines" '^ +([0-9]+ +)?/\*[0-9a-f]{4}\*/ +(@!?P[0-9T] +)?[A-Z][A-Z0-9.]* '
	on_screen "counts its global loads" 'instructions: LDG [1-9]'
	on_screen "its resources" 'registers [0-9]+'
	keys n
	on_screen "n goes to a marked instruction" '^▸ +([0-9]+ +)?/\*[0-9a-f]{4}\*/'
else
	wait_for "without cuobjdump, the SASS view says why" 'cuobjdump was missing'
	skip "the SASS view's contents (configure found no cuobjdump)"
fi
keys Tab
wait_for "Tab: the source" 'void reduce_unroll8\('
keys Tab
wait_for "Tab again: the PTX" '(ld\.global|bar\.sync|\.entry reduce_unroll8)'
keys Escape
wait_for "Esc: back to the lesson" 'Step 3 of [0-9]+'
if [ -n "${CUOBJDUMP:-}" ]; then
	keys Left Left Left s
	wait_for "step 1's SASS shows what its text points at" 'The lesson points at: LDG'
	on_screen "and starts at it" '^▸ +([0-9]+ +)?/\*[0-9a-f]{4}\*/ +(@!?P[0-9T] +)?LDG'
	keys Escape Right Right Right
fi

# ---- the diff view: a step against the one before ------------------------------------
# Screen lines that hold a box-drawing bar, the SASS side by side.
bars() { grep -c '│' "$tmp/screen"; }
keys Right Right Right
wait_for "step 6" 'Step 6 of [0-9]+ +Unroll the whole tree'
keys d
if [ -n "${CUOBJDUMP:-}" ]; then
	wait_for "d: the diff of step 6 against step 5" 'Diff .*reduce_unroll_warp8_plain → reduce_complete_unroll_warp'
	on_screen "the header says which steps" '^ cudatutor › unrolling · step 6/[0-9]+ against 5'
	on_screen "the mix table heads its columns by step" 'step 5 +step 6 +change'
	on_screen "the complete unroll adds barriers" 'barriers \(BAR\) +[0-9]+ +[0-9]+ +\+[1-9]'
	on_screen "how the SASS aligns" 'SASS aligned by opcode: [0-9]+ kept, [0-9]+ removed \(-\), [0-9]+ added \(\+\)'
	keys n
	on_screen "80 columns: removed lines marked -" '^- [A-Z@]'
	on_screen "and inserted ones +" '^\+ [A-Z@]'
	not_on_screen "in one column" '│'
	not_on_screen "nothing left of the lesson screen" 'Results|Unrolling attacks'
	tail -1 "$tmp/screen" | grep -q 'n next change.*Esc back.*quit' || fail "the diff view's keys at the bottom"
	tm resize-window -t tutor -x 160 -y 48
	wait_for "160 columns: the two kernels side by side" 'step 5: reduce_unroll_warp8_plain .* step 6: reduce_complete_unroll_warp8'
	# the header can be on the screen before the whole body is: read it again until it settles
	i=0
	while [ "$(bars)" -lt 30 ] && [ $i -lt 50 ]; do
		sleep 0.1
		screen > "$tmp/screen"
		i=$((i + 1))
	done
	[ "$(bars)" -ge 30 ] || fail "side by side: a bar between the columns on every SASS line ($(bars) lines)"
	on_screen "an inserted line: nothing on the left, the instruction on the right" '^\+ +│ [A-Z@]'
	on_screen "a removed line: the instruction on the left, nothing on the right" '^- [A-Z@].*│ *$'
	if grep '│.*│' "$tmp/screen" > /dev/null; then
		fail "one bar a line when side by side"
	else
		echo "ok: one bar a line when side by side"
	fi
	on_screen "what each kernel is, beside the table" 'step 6 reduce_complete_unroll_warp8'
	tm resize-window -t tutor -x 80 -y 24
	wait_for "back at 80 columns, one column again" '^ cudatutor › unrolling · step 6/[0-9]+ against 5'
	not_on_screen "no bar left from the wide layout" '│'
	keys h
	wait_for "h: the pair of steps before" 'Diff .*reduce_unroll_warp8 → reduce_unroll_warp8_plain'
	keys l
	wait_for "l: back to steps 5 and 6" 'Diff .*reduce_unroll_warp8_plain → reduce_complete_unroll_warp'
else
	wait_for "without cuobjdump, the diff view says why" 'cuobjdump was missing'
	skip "the diff view's contents (configure found no cuobjdump)"
fi
keys Escape
wait_for "Esc: back to the lesson, at step 6" 'Step 6 of [0-9]+'

# ---- the source view: what a line became --------------------------------------------
keys c
wait_for "the source of step 6" 'void reduce_complete_unroll_warp8\('
on_screen "the cursor on the kernel's first line" '^▸ +[0-9]+ .*__global__ void reduce_complete_unroll_warp8'
if [ -f "$CUDATUTOR_BUILDDIR/kernels/reduce.lines" ] && [ -n "${CUOBJDUMP:-}" ]; then
	on_screen "the panel says what the line became" '─ Line [0-9]+ became [0-9]+ instructions? '
	# down to the first barrier of the tree
	i=0
	while [ $i -lt 12 ] && ! screen | grep -q '^▸ .*__syncthreads'; do keys j; i=$((i + 1)); done
	on_screen "j moves the cursor down the source" '^▸ +[0-9]+ +__syncthreads\(\);'
	on_screen "the barrier's SASS in the panel" '^ /\*[0-9a-f]{4}\*/ BAR\.SYNC'
	keys Enter
	wait_for "Enter: the SASS view, the line's instructions marked" 'Source line [0-9]+ became the ([0-9]+ instructions|instruction) marked'
	on_screen "the cursor on a BAR.SYNC" '^▸ +[0-9]+ /\*[0-9a-f]{4}\*/ +BAR\.SYNC'
	keys c
	wait_for "c: back to the source, at the same line" '^▸ +[0-9]+ +__syncthreads\(\);'
else
	on_screen "without the line map, the panel says what is missing" 'nvdisasm|cuobjdump'
	skip "what a source line became (no line map, or no cuobjdump)"
fi
keys Escape
wait_for "Esc: back to the lesson" 'Step 6 of [0-9]+'
keys Left Left Left
wait_for "back at step 3" 'Step 3 of [0-9]+'

# ---- a resize redraws without garbage -----------------------------------------------
tm resize-window -t tutor -x 200 -y 60
wait_for "a wide terminal puts the chart beside" 'Effective GB/s'
tm resize-window -t tutor -x 60 -y 20
wait_for "too small: says how large it must be" 'needs at least 80x24'
tm resize-window -t tutor -x 80 -y 24
wait_for "back at 80x24" 'Step 3 of [0-9]+'
screen > "$tmp/resized"
has "header on the first line" '^ cudatutor › unrolling' "$tmp/resized"
lacks "no chart left from the wide layout" 'Effective GB/s' "$tmp/resized"
lacks "no too-small message left" 'needs at least' "$tmp/resized"
[ "$(grep -c 'Results' "$tmp/resized")" -eq 1 ] || fail "one results panel after the resize"
tail -1 "$tmp/resized" | grep -q 'step.*run.*quit' || fail "the key line at the bottom after the resize"

# ---- the counters and the bank picture, with results recorded without counters -------------
keys m
wait_for "m: the counters view" 'Counters'
on_screen "the test results hold none: it says so" 'hold no counters for lesson'
on_screen "and how to get them" 'cudatutor record'
keys Escape
wait_for "Esc: back to the lesson" 'Step 3 of [0-9]+'

# ---- presenter mode -------------------------------------------------------------------
keys P
wait_for "presenter mode" 'Step 3 of [0-9]+: Unroll by eight'
on_screen "big digits for the time" '██████ ██ ██████'
[ "$(grep -c '██' "$tmp/screen")" -ge 5 ] || fail "the big digits are five rows tall"
on_screen "marked as recorded" 'RECORDED on Test GPU'
keys PageDown
wait_for "PageDown: the next step" 'Step 4 of [0-9]+'
keys P
wait_for "P leaves presenter mode" 'Results'

# ---- q restores the terminal ---------------------------------------------------------------
keys q
wait_for "q quits" 'tutor-exit=0'
[ "$(tm display -p -t tutor '#{alternate_on}')" = 0 ] || fail "the alternate screen was left"
keys 'echo restored-$((40+2))' Enter
wait_for "the shell reads and echoes again" 'restored-42'

# ---- progress survives quit and restart -----------------------------------------------------
[ -f "$state/cudatutor/progress.json" ] || fail "no progress file in XDG_STATE_HOME"
keys "'$CUDATUTOR'; echo tutor-exit=\$?" Enter
wait_for "a restart resumes at the step" 'step 4/[0-9]+: Unroll the'
keys Escape
wait_for "the list marks the steps run" '✓ +3 +Unroll by eight'
keys q
wait_for "and quits again" 'tutor-exit=0'

# ---- a damaged progress file --------------------------------------------------------------
printf '{"format": "cudatutor-progress", "version": 1, "last": ' > "$state/cudatutor/progress.json"
keys "'$CUDATUTOR'; echo tutor-exit=\$?" Enter
wait_for "a damaged progress file is set aside, with a message" 'was damaged'
on_screen "the tutor starts afresh at the list" 'Lessons and their steps'
ls "$state"/cudatutor/progress.json.corrupt-* > /dev/null 2>&1 || fail "the damaged file was not kept aside"
keys q
wait_for "quits" 'tutor-exit=0'

# ---- Ctrl-C and SIGTERM restore the terminal too ------------------------------------------------
keys "'$CUDATUTOR'; echo tutor-exit=\$?" Enter
wait_for "started again" 'Lessons and their steps'
keys C-c
wait_for "Ctrl-C leaves" 'tutor-exit=130'
[ "$(tm display -p -t tutor '#{alternate_on}')" = 0 ] || fail "Ctrl-C left the alternate screen on"
keys "'$CUDATUTOR'; echo tutor-exit=\$?" Enter
wait_for "started again" 'Lessons and their steps'
shell=$(tm display -p -t tutor '#{pane_pid}')
pid=$(ps -o pid= --ppid "$shell" | head -1 | tr -d ' ')
if [ -n "$pid" ]; then
	kill -TERM "$pid"
	wait_for "SIGTERM leaves" 'tutor-exit=143'
	[ "$(tm display -p -t tutor '#{alternate_on}')" = 0 ] || fail "SIGTERM left the alternate screen on"
else
	fail "cannot find the tutor's process under the shell"
fi

# ---- the results recorded in the source tree, as they are -------------------------------------
if ls "$REAL_SRCDIR"/data/results/*.json > /dev/null 2>&1; then
	# the GPU whose recording the tutor shows without one: the command line names it
	gpu=$(CUDATUTOR_SRCDIR="$REAL_SRCDIR" "$CUDATUTOR" run reduction --recorded --format json |
	    python3 -c 'import json,sys; n=json.load(sys.stdin)["gpu"]["name"]; print(n[7:] if n.startswith("NVIDIA ") else n)')
	CUDATUTOR_SRCDIR="$REAL_SRCDIR" XDG_STATE_HOME="$tmp/state-real" start 80 24
	wait_for "the tutor on the real lessons" 'Lessons and their steps'
	keys Enter Right r
	wait_for "a step of the first lesson shows its recorded result" "RECORDED +on $gpu"
	keys q
	wait_for "quits" 'tutor-exit=0'
else
	skip "the recorded results of the source tree (data/results is empty)"
fi

# ---- the bank picture and the counters recorded with the results ---------------------------------
# resume STATE LESSON STEP: a progress file that opens the tutor at a lesson's step.
resume() {
	mkdir -p "$1/cudatutor"
	printf '{"format": "cudatutor-progress", "version": 1, "last": {"lesson": "%s", "step": %s}, "lessons": {}, "results": []}\n' \
	    "$2" "$3" > "$1/cudatutor/progress.json"
}
resume "$tmp/state-banks" bank-conflicts 8
XDG_STATE_HOME="$tmp/state-banks" start 80 24
wait_for "resumed at the stride-32 step" 'Step 8 of [0-9]+ +Stride 32'
keys m
wait_for "m: the bank picture" 'all 32 lanes in bank 0'
on_screen "banks across" '^ bank +0 +4 +8 +12'
on_screen "pass 1: lane 0 in bank 0, the rest idle" '^ pass 1 +█ · · ·'
on_screen "the next pass: the next lane, bank 0 again" '^ pass 2 +█ · · ·'
on_screen "more passes than the screen holds" 'and [0-9]+ more passes like these'
on_screen "what the model says" '32 passes per warp-wide load: 31 extra, a 32-way bank conflict'
keys Right
wait_for "the padded step: one bank per lane" 'one bank per lane'
on_screen "all banks busy in one pass" '^ pass 1 +(█ ){31}█'
keys Right
wait_for "broadcast: one word for all lanes" 'one word for all 32 lanes'
tm resize-window -t tutor -x 160 -y 48
keys Left Left
wait_for "160 columns: lane numbers in the banks" '^ bank +0  1  2  3  4'
on_screen "lane 5 in the sixth pass" '^ pass 6 +5  ·  ·'
keys q
wait_for "quits" 'tutor-exit=0'

if ls "$REAL_SRCDIR"/data/results/*.json > /dev/null 2>&1 &&
    grep -q 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld' "$REAL_SRCDIR"/data/results/*.json; then
	resume "$tmp/state-real-banks" bank-conflicts 8
	CUDATUTOR_SRCDIR="$REAL_SRCDIR" XDG_STATE_HOME="$tmp/state-real-banks" start 80 24
	wait_for "the real lessons, at the stride-32 step" 'Step 8 of [0-9]+ +Stride 32'
	keys m
	wait_for "the counters recorded with the results" "Counters +RECORDED +on $gpu"
	on_screen "about 31 extra wavefronts per load, measured" 'measured: +3[01]\.[0-9]+ extra wavefronts per shared load'
	on_screen "and the conflicts counted" '[0-9,]+ bank conflicts in shared loads'
	keys G
	on_screen "the stall reasons, with bars" 'Warp stall reasons.*largest first'
	keys Left Left Left Left Left Left Left
	wait_for "step 1: counters without a bank picture" 'reduce_shared_strided'
	not_on_screen "no bank picture for a reduction" 'pass 1'
	# scrolled down, line by line, to the shared-memory counters (under the busiest units and what
	# could be gained)
	i=0
	while [ $i -lt 40 ] && screen > "$tmp/screen" && ! grep -q -E 'shared load bank conflicts +[0-9,]+' "$tmp/screen"; do
		keys j
		i=$((i + 1))
	done
	on_screen "its counters" 'shared load bank conflicts +[0-9,]+'
	keys q
	wait_for "quits" 'tutor-exit=0'
else
	skip "counters recorded with the results (none in data/results)"
fi

# ---- plain terminals: no colour, no Unicode; and none at all ------------------------------------
ascii_only() {
	screen > "$tmp/ascii"
	if LC_ALL=C grep -q '[^ -~]' "$tmp/ascii"; then
		fail "$1: non-ASCII characters in the C locale: $(LC_ALL=C grep '[^ -~]' "$tmp/ascii" | head -2)"
	else
		echo "ok: $1: ASCII only in the C locale"
	fi
}
EXTRA_ENV="NO_COLOR=1 LC_ALL=C" start 80 24
wait_for "starts in the C locale" 'Lessons and their steps'
ascii_only "the list"
keys q
wait_for "quits" 'tutor-exit=0'
# a lesson's picture without Unicode: its boxes drawn with - | +, no character it cannot draw ('?')
resume "$tmp/state-ascii-picture" reduction 0
EXTRA_ENV="NO_COLOR=1 LC_ALL=C" XDG_STATE_HOME="$tmp/state-ascii-picture" start 80 24
wait_for "lesson 1's introduction in the C locale" 'Parallel reduction: how the pairs'
keys j j j j j j j j j j j j
on_screen "its picture's boxes in ASCII" '^ +\+-+\+-+\+'
on_screen "its picture's rows in ASCII" '^ +\| element +\| 0 +\| 1 +\|'
screen | grep -E '^ +[|+]' > "$tmp/picture"
lacks "no box character drawn as '?'" '\?' "$tmp/picture"
ascii_only "the picture"
keys q
wait_for "quits" 'tutor-exit=0'
resume "$tmp/state-ascii" unrolling 6
EXTRA_ENV="NO_COLOR=1 LC_ALL=C" XDG_STATE_HOME="$tmp/state-ascii" start 80 24
wait_for "resumed at step 6" 'Step 6 of [0-9]+'
keys d
wait_for "the diff view" 'Diff'
ascii_only "the diff view"
keys Escape
wait_for "back" 'Step 6 of [0-9]+'
keys c
wait_for "the source view" 'void reduce_complete_unroll_warp8'
ascii_only "the source view and its panel"
keys Escape
wait_for "back" 'Step 6 of [0-9]+'
keys m
wait_for "the counters view" 'Counters'
ascii_only "the counters view"
keys q
wait_for "quits" 'tutor-exit=0'
resume "$tmp/state-ascii-banks" bank-conflicts 8
EXTRA_ENV="NO_COLOR=1 LC_ALL=C" XDG_STATE_HOME="$tmp/state-ascii-banks" start 80 24
wait_for "resumed at stride 32" 'Step 8 of [0-9]+'
keys m
wait_for "the bank picture" 'all 32 lanes in bank 0'
on_screen "lanes as # without Unicode" '^ pass 1 +# \. \. \.'
ascii_only "the bank picture"
keys q
wait_for "quits" 'tutor-exit=0'
keys "TERM=dumb '$CUDATUTOR'; echo tutor-exit=\$?" Enter
wait_for "TERM=dumb: a failure status" 'tutor-exit=1'
tm capture-pane -p -J -t tutor > "$tmp/screen"
has "TERM=dumb: pointed to the batch commands" "use 'cudatutor list' and 'cudatutor run LESSON'" "$tmp/screen"
tm kill-server 2>/dev/null

refused "not a terminal: pointed to the batch commands" "cudatutor run LESSON" "$CUDATUTOR"

# ---- how soon the first frame shows ---------------------------------------------------------
RUNS=3 sh "$(dirname "$0")/first-frame.sh" || fail "first-frame.sh failed"

finish

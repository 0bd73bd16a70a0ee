#!/bin/sh
# An exercise in the full-screen tutor, without a GPU: its page between two steps, e with an
# editor (our solution, then the untouched starting file, then an editor that fails), H for a
# hint, the student's SASS against ours; q there and the tutor reopens on the page, the check's
# result shown; without an editor, a save from another window checked; and a terminal too small
# for the tutor saying so whole.
. "$(dirname "$0")/../lib/lib.sh"

. "$(dirname "$0")/../lib/tmux.sh"
T=$CUDATUTOR
solution="$CUDATUTOR_SRCDIR/kernels/exercises/float4.solution.cu"
export XDG_DATA_HOME="$tmp/data"
work="$XDG_DATA_HOME/cudatutor/exercises"

# The check compiles with NVRTC: without it there is nothing to see.
"$T" check float4 --file "$solution" > "$tmp/out" 2> "$tmp/err"
if [ $? -eq 1 ]; then
	echo "skip: the exercises cannot be checked here: $(cat "$tmp/err")"
	exit 77
fi

# The editor: our solution when $tmp/use-solution exists, else the file as it is.
cat > "$tmp/editor" <<EOF
#!/bin/sh
[ -f '$tmp/use-solution' ] && cp '$solution' "\$1"
echo "\$1" > '$tmp/edited'
exit 0
EOF
chmod +x "$tmp/editor"

# this test reads the screen line by line, without joining wrapped lines
screen() { tm capture-pane -p -t tutor; }
# the screen as one line of words, for text the tutor wraps
words() { screen | tr -s ' \n' '  '; }

# start COLS ROWS ENV...: the tutor at step 2 of vectorize, in a shell in a fresh terminal.
round=0
start() {
	cols=$1 rows=$2
	shift 2
	tm kill-server 2>/dev/null
	sleep 0.1
	mkdir -p "$tmp/state/cudatutor"
	printf '{"format": "cudatutor-progress", "version": 1, "last": {"lesson": "vectorize", "step": 2}, "lessons": {}, "results": []}\n' \
	    > "$tmp/state/cudatutor/progress.json"
	tm -f /dev/null new-session -d -s tutor -x "$cols" -y "$rows" \
	    "env -u VISUAL -u EDITOR PS1='test-shell\$ ' XDG_STATE_HOME='$tmp/state' XDG_DATA_HOME='$XDG_DATA_HOME' \
	    CUDATUTOR_NO_GPU=1 LANG=C.UTF-8 sh"
	wait_for "shell prompt" 'test-shell\$' > /dev/null || return 1
	round=$((round + 1))
	keys "env $* '$CUDATUTOR'; echo tutor-exit$round=\$?" Enter
	wait_for "resumed at step 2 of vectorize" 'Step 2 of [0-9]+ +Two floats per access'
}

# ---- the exercise's page, between step 2 and step 3 --------------------------------------
start 80 24 "EDITOR='$tmp/editor'"
keys G
on_screen "step 2 ends saying what comes next" 'next: Exercise: four floats per access'
not_on_screen "and does not show the exercise's task" 'Move 16 bytes per instruction'
keys Right
wait_for "the exercise's page" '^ cudatutor › vectorize · Exercise: four floats'
on_screen "its heading" '^  Exercise: four floats per access'
on_screen "what the student writes" 'you write vec_add_float4, starting from vec_add_float'
not_on_screen "no fence, no raw block" '```|id: float4'
on_screen "the reference step marked in the results" '^ ▸ 3 vec_add_float4'
keys G
on_screen "no hint before one is asked for" '3 hints, one at a time: H shows the first'
not_on_screen "none of the hints' text" 'Hint 1|One load instruction can move'
keys g
tail -1 "$tmp/screen" | grep -q 'e write it.*H hint.*quit' && echo "ok: the key line has e and H" ||
	fail "the exercise's key line: $(tail -1 "$tmp/screen")"

# ---- e: the starting file, untouched, fails its SASS checks with the exercise's messages --------
keys e
[ -f "$work/float4.cu" ] && grep -q "float4.cu" "$tmp/edited" 2>/dev/null &&
	echo "ok: e made the working copy and gave it to \$EDITOR" || fail "e: no working copy given to the editor"
if [ -n "${CUOBJDUMP:-}" ]; then
	wait_for "the failed check, with what it counted" '✗ LDG\.E\.128: at least 2, found 0'
	on_screen "and the exercise's own message" 'x and y are not read 16 bytes at a time yet'
	on_screen "the share of wide loads, judged only on a GPU: neither mark" '^ +-  LDG\.E\.128: at least 90% of the LDG bytes, judged as it runs on a GPU'
	wait_for "on the message line too" 'Not yet \(3 of 5 SASS checks pass\)'
	on_screen "the yours row under the reference step" '^ +yours +compiled, SASS checks 3/5; running needs a GPU'
else
	wait_for "without cuobjdump, the SASS checks say why" 'SASS could not be checked|SASS checks could not run'
fi
keys j
not_on_screen "a key takes the wrapped message away" 'Not yet \(3 of 5'

# ---- e again, and the editor leaves our solution ---------------------------------------------------
touch "$tmp/use-solution"
keys e
cmp -s "$solution" "$work/float4.cu" && echo "ok: the editor wrote the working copy" ||
	fail "the working copy is not the solution after the editor"
if [ -n "${CUOBJDUMP:-}" ]; then
	wait_for "the solution passes the SASS checks" '✓ LDG\.E\.128: at least 2, found 2'
	on_screen "every check" '✓ STG\.E\.128: at least 1, found 1'
	on_screen "the message says so, and that the answers and the time need a GPU" 'The SASS checks pass; no GPU here judged the answers and the time\.'
	on_screen "the page says running it needs a GPU" 'On the GPU: not run'
	on_screen "the yours row, no time without a GPU" '^ +yours +compiled, SASS checks 5/5; running needs a GPU'
	not_on_screen "and no number it did not measure" '^ +yours +[0-9]'

	# ---- d: the student's SASS against ours; s: it alone ---------------------------------------
	keys d
	wait_for "d: yours against ours" 'Diff .*ours, vec_add_float4 → yours'
	on_screen "the mix's columns" 'ours +yours +change'
	on_screen "our solution is ours: nothing changed" '[0-9]+ kept, 0 removed \(-\), 0 added \(\+\)'
	keys s
	wait_for "s: the student's SASS" 'cudatutor › vectorize · yours: Exercise: four float'
	on_screen "what the checks count, pointed at" 'The checks count: LDG\.E\.128 STG\.E\.128'
	on_screen "a 128-bit load, from a line of the student's file" '^▸ +[0-9]+ /\*[0-9a-f]{4}\*/ +LDG\.E\.128'
	keys Escape Escape
	wait_for "Esc Esc: back at the exercise" '^ cudatutor › vectorize · Exercise: four floats'
fi

# ---- H: the hints, one at a time ------------------------------------------------------------------
keys H
wait_for "H shows hint 1" 'Hint 1 of 3'
on_screen "its text" 'One load instruction can move sixteen bytes'
on_screen "and the message says there is another" 'Hint 1 of 3, under the task; H again for the next'
not_on_screen "not yet hint 2" 'Hint 2 of 3'
grep -q '"hints": 1' "$tmp/state/cudatutor/progress.json" && echo "ok: the hint shown is kept in the progress" ||
	fail "the progress does not keep the hint: $(cat "$tmp/state/cudatutor/progress.json")"

# ---- the page flow: on to step 3, back to the exercise ----------------------------------------------
keys Right
wait_for "right arrow: step 3" 'Step 3 of [0-9]+ +Four floats per access: float4'
if [ -n "${CUOBJDUMP:-}" ]; then
	on_screen "the yours row on the step's page too" '^ +yours +compiled, SASS checks 5/5'
fi
keys Left
wait_for "left arrow: the exercise again" '^ cudatutor › vectorize · Exercise: four floats'
keys q
wait_for "q quits" "tutor-exit$round=0"

# ---- q on the exercise's page: the tutor reopens on it, with what its check finds ----------------
grep -q '"exercise": "float4"' "$tmp/state/cudatutor/progress.json" &&
	echo "ok: the progress keeps the exercise's page" ||
	fail "the progress does not keep the exercise's page: $(cat "$tmp/state/cudatutor/progress.json")"
round=$((round + 1))
keys "env EDITOR='$tmp/editor' '$CUDATUTOR'; echo tutor-exit$round=\$?" Enter
wait_for "reopened on the exercise's page, not the next step" '^ cudatutor › vectorize · Exercise: four floats'
if [ -n "${CUOBJDUMP:-}" ]; then
	# the check starts with the tutor, behind its start-up (slow under AddressSanitizer on a busy machine: up to a minute)
	wait_for "with the check's result, as before q" '✓ LDG\.E\.128: at least 2, found 2' 600
	on_screen "the yours row too" '^ +yours +compiled, SASS checks 5/5'
else
	wait_for "with the check's result, as before q" 'SASS could not be checked|SASS checks could not run'
fi
keys Right
wait_for "right arrow: step 3" 'Step 3 of [0-9]+ +Four floats per access: float4'
keys q
wait_for "q quits" "tutor-exit$round=0"
grep -q '"exercise"' "$tmp/state/cudatutor/progress.json" &&
	fail "left on a step's page, the progress still names the exercise" ||
	echo "ok: left on a step's page, the progress names no exercise"

# ---- an editor that fails: nothing checked, and the tutor says why ------------------------------
start 80 24 "EDITOR=false"
keys Right e
wait_for "a failing editor is reported" "The editor 'false' ended with status 1, so nothing was checked"
keys q
wait_for "q quits" "tutor-exit$round=0"

# ---- no editor: where the file is, and a check on each save ----------------------------------------
start 80 24
keys Right e
wait_for "without \$VISUAL or \$EDITOR, e says where the file is" 'exercises/float4\.cu'
words > "$tmp/words"
has "and that each save is checked" "$work/float4\\.cu\\. With no \\\$VISUAL or \\\$EDITOR set, edit it in another window" "$tmp/words"
on_screen "the page names the file, watched" 'each save is checked'
if [ -n "${CUOBJDUMP:-}" ]; then
	cp "$CUDATUTOR_SRCDIR/kernels/exercises/float4.cu" "$work/float4.cu"
	wait_for "a save from outside is checked" '✗ LDG\.E\.128: at least 2, found 0'
	cp "$solution" "$work/float4.cu"
	wait_for "and the next save too" '✓ LDG\.E\.128: at least 2, found 2'
fi
# a compile error: file:line:col, and the line
printf 'extern "C" __global__ void vec_add_float4(const float *x, const float *y, float *z, int n)\n{\n    int i = blockIdx.x * blockDim.x + ;\n}\n' \
    > "$work/float4.cu"
wait_for "a compile error names file, line and column" 'float4\.cu:3:[0-9]+: error'
on_screen "and shows the line" 'int i = blockIdx\.x \* blockDim\.x \+ ;'
on_screen "the yours row says it does not compile" '^ +yours +does not compile'
keys q
wait_for "q quits" "tutor-exit$round=0"

# ---- a working copy the check refuses: its line, and no report of the file that was --------------
start 80 24
keys Right r
wait_for "r checks the file with the error: its report" 'float4\.cu:3:[0-9]+: error'
head -c 2097152 /dev/zero | tr '\0' ' ' > "$work/float4.cu"
keys r
wait_for "a 2 MiB working copy: refused, said" 'could not be checked'
words > "$tmp/words"
has "with its size" 'is 2097152 bytes, more than a kernel.s source' "$tmp/words"
not_on_screen "and the old report is gone" 'float4\.cu:3:[0-9]+: error'
rm "$work/float4.cu"
mkdir "$work/float4.cu"
keys r
wait_for "a folder for a working copy: what to do" 'is a folder, not'
words > "$tmp/words"
has "move it away, and e starts again" 'is a folder, not a file: move it away, and e starts the exercise again from its starting file\.' "$tmp/words"
keys q
wait_for "q quits" "tutor-exit$round=0"
rmdir "$work/float4.cu"
cp "$solution" "$work/float4.cu"

# ---- i: hand the kernel in, to the folder chosen once with submit --output -------------------------
export XDG_CONFIG_HOME="$tmp/config"
start 80 24
keys Right i
wait_for "i before a folder is chosen: how to choose one" 'Choose once where you hand in'
words > "$tmp/words"
has "the command that chooses it, whole" 'Choose once where you hand in: cudatutor submit float4 --name NAME --output FOLDER \(your teacher says which folder\); from then on, i hands in there\.' "$tmp/words"
keys q
wait_for "q quits" "tutor-exit$round=0"
mkdir -p "$tmp/inbox"
"$T" submit float4 --name "Ada Lovelace" --file "$solution" --output "$tmp/inbox" > "$tmp/out" 2>&1 &&
	grep -q "hands in to $tmp/inbox as Ada Lovelace" "$tmp/out" && echo "ok: submit --output FOLDER keeps the folder" ||
	fail "submit --output FOLDER: $(cat "$tmp/out")"
rm -f "$tmp/inbox"/*
start 80 24
keys Right i
wait_for "i hands the working copy in" 'Handed in as Ada Lovelace'
words > "$tmp/words"
has "to the folder, the file named" 'Handed in as Ada Lovelace, to [^ ]*inbox/float4-Ada_Lovelace\.submission\.json \(SHA-256 [0-9a-f]{16}\)' "$tmp/words"
python3 - "$tmp/inbox/float4-Ada_Lovelace.submission.json" "$work/float4.cu" <<'PY' && echo "ok: the file holds the working copy" ||
import json, sys
s = json.load(open(sys.argv[1]))
sys.exit(0 if s["source"] == open(sys.argv[2]).read() and s["name"] == "Ada Lovelace" else 1)
PY
	fail "the handed-in file is not the working copy"
keys q
wait_for "q quits" "tutor-exit$round=0"

# ---- too small: the size it needs, whole, down to 20x5 -----------------------------------------------
start 80 24
for size in 20x5 40x12 79x23; do
	tm resize-window -t tutor -x "${size%x*}" -y "${size#*x}"
	wait_for "at $size, the too-small screen" 'The terminal' > /dev/null
	sleep 0.2
	words > "$tmp/words"
	has "at $size it says whole what it needs" "The terminal is $size: the tutor needs at least 80x24\\." "$tmp/words"
done
tm resize-window -t tutor -x 79 -y 23
on_screen "at 79x23, what to do as well" 'Make the window larger, or press q to quit\.'
tm resize-window -t tutor -x 80 -y 24
wait_for "back at 80x24" 'Step 2 of [0-9]+'
keys q
wait_for "q quits" "tutor-exit$round=0"
tm kill-server 2>/dev/null

finish

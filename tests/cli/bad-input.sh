#!/bin/sh
# Every bad input the tutor is tried with, and what the user sees.  Under make check it checks
# each case and that the table it makes is doc/bad-input.md, word for word; after a message
# changes, write the table again with
#
#   make bad-input-doc          (that is: tests/cli/bad-input.sh --write doc/bad-input.md)
. "$(dirname "$0")/../lib/lib.sh"
T=$CUDATUTOR
write=""
if [ "${1:-}" = --write ]; then
	write=${2:?--write needs the file to write}
fi

if [ -z "${TMUX_BIN:-}" ] || ! [ -x "$TMUX_BIN" ]; then
	echo "skip: tmux was not found when cudatutor was configured (the tutor's cases need it)"
	exit 77
fi
# Permissions stop everyone but root: as root, the cases about them run as nobody.
as_user=""
if [ "$(id -u)" -eq 0 ]; then
	if ! command -v setpriv > /dev/null; then
		echo "skip: as root, the cases about permissions need setpriv (util-linux) to run as nobody"
		exit 77
	fi
	as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
# Files nobody may look into (the tests' own directory is private).
pub=$(mktemp -d "${TMPDIR:-/tmp}/cudatutor-bad.XXXXXX")
chmod 755 "$pub"
unset TMUX
sock="$tmp/tmux.sock"
tm() { "$TMUX_BIN" -S "$sock" "$@"; }
trap 'tm kill-server 2>/dev/null; rm -rf "$tmp"; chmod -R u+rwx "$pub" 2>/dev/null; rm -rf "$pub"' EXIT
doc="$tmp/bad-input.md"
fixture="$CUDATUTOR_SRCDIR/tests/fixtures/results-metrics.json"

# Text as the table shows it: temporary directories and the source tree by name, | escaped.
plain() {
	sed -e "s|$pub|DIR|g" -e "s|$tmp|DIR|g" -e "s|$CUDATUTOR_SRCDIR|SRC|g" \
	    -e 's/corrupt-[0-9]\{8\}T[0-9]\{6\}/corrupt-TIME/g' -e 's/ *$//' -e 's/^ *//' -e 's/|/\\|/g'
}
say() { printf '%s\n' "$@" >> "$doc"; }
# code TEXT: TEXT as Markdown code, in double backticks when it holds one itself.
code() {
	case $1 in
	*'`'*) printf '`` %s ``' "$1" ;;
	*) printf '`%s`' "$1" ;;
	esac
}
# row INPUT MESSAGE STATUS [KEPT]: a line of the table.
row() {
	input=$(code "$(printf '%s' "$1" | plain)")
	message=$(code "$(printf '%s' "$2" | plain)")
	if [ $# -ge 4 ]; then
		printf '| %s | %s | %s | %s |\n' "$input" "$message" "$3" "$4" >> "$doc"
	else
		printf '| %s | %s | %s |\n' "$input" "$message" "$3" >> "$doc"
	fi
}

# refused INPUT [KEPT] -- COMMAND...: the command fails with one line on stderr and nothing on
# stdout; its row.
run_refused() {
	input=$1
	shift
	kept=""
	if [ "$1" != -- ]; then kept=$1; shift; fi
	shift
	"$@" < /dev/null > "$tmp/out" 2> "$tmp/err"
	status=$?
	[ "$status" -ne 0 ] || fail "$input: succeeded, but should not"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "$input: $(wc -l < "$tmp/err") lines on stderr, want one: $(cat "$tmp/err")"
	[ -s "$tmp/out" ] && fail "$input: printed on stdout: $(head -2 "$tmp/out")"
	if [ -n "$kept" ]; then
		row "$input" "$(cat "$tmp/err")" "$status" "$kept"
	else
		row "$input" "$(cat "$tmp/err")" "$status"
	fi
}

say "# Bad input, and what the user sees" "" \
    "Every input here was given to cudatutor by \`tests/cli/bad-input.sh\`, which wrote this file:" \
    "\`make check\` runs it again and fails when the program and this table disagree" \
    "(\`make bad-input-doc\` writes it anew).  DIR stands for a temporary directory, SRC for" \
    "the source tree.  Exit status: 1 an error, 2 bad usage, 3 a check not passed yet, 4 an" \
    "exercise not graded (no GPU ran it), 128 + N ended by signal N." ""

# ---- options ------------------------------------------------------------------------------------
say "## Options" "" \
    "Each command checks its options before it does anything: one line, nothing run," \
    "nothing written." "" \
    "| input | what it says (stderr) | exit |" "|---|---|---|"
while IFS= read -r line; do
	case $line in ''|'#'*) continue ;; esac
	args=${line%% | *}
	eval "set -- $args"
	run_refused "cudatutor $args" -- "$T" "$@"
done < "$CUDATUTOR_SRCDIR/tests/cli/bad-options.list"

# ---- results files ----------------------------------------------------------------------------------
r="$pub/results"
mkdir -p "$r/a-directory.json"
: > "$r/empty.json"
head -c 1000 "$fixture" > "$r/truncated.json"
printf '\000\001\002 not JSON\n' > "$r/binary.json"
printf '[1, 2, 3]\n' > "$r/not-results.json"
printf '{"format": "cudatutor-results", "version": 2, "runs": []}\n' > "$r/newer.json"
python3 - "$fixture" "$r/damaged.json" <<'PY' || fail "cannot write the damaged results file"
import json, sys
d = json.load(open(sys.argv[1]))
d["runs"][0]["steps"][1]["median_ms"] = "fast"
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
cp "$fixture" "$r/good.json"
cp "$fixture" "$r/locked.json"
chmod 000 "$r/locked.json"
chmod 755 "$r"
(cd "$r" && ls -la; md5sum ./*.json 2> /dev/null) > "$tmp/results.before"

say "" "## Results files" "" \
    "Recorded results are read by \`run\` and \`metrics\` (and by the tutor without a GPU);" \
    "\`--recorded=FILE\` names one.  A file that cannot be used is never changed." "" \
    "| input | what it says (stderr) | exit | kept |" "|---|---|---|---|"
unchanged="the file, unchanged"
run_refused "cudatutor run reduction --recorded=$r/none.json" "nothing written" -- \
    "$T" run reduction --recorded="$r/none.json"
run_refused "cudatutor run reduction --recorded=$r/a-directory.json" "the directory, untouched" -- \
    "$T" run reduction --recorded="$r/a-directory.json"
for f in empty.json truncated.json binary.json not-results.json newer.json damaged.json; do
	run_refused "cudatutor run reduction --recorded=$r/$f" "$unchanged" -- \
	    "$T" run reduction --recorded="$r/$f"
done
run_refused "cudatutor run reduction --recorded=/dev/zero" "nothing read" -- \
    "$T" run reduction --recorded=/dev/zero
run_refused "cudatutor run reduction --recorded=$r/locked.json (a file the user may not read)" \
    "$unchanged" -- $as_user "$T" run reduction --recorded="$r/locked.json"
run_refused "cudatutor run reduction --size 2^20 --recorded=$r/good.json (no run at that size)" \
    "$unchanged" -- "$T" run reduction --size 2^20 --recorded="$r/good.json"
(cd "$r" && ls -la; md5sum ./*.json 2> /dev/null) > "$tmp/results.after"
cmp -s "$tmp/results.before" "$tmp/results.after" && echo "ok: no results file was changed" ||
	fail "a results file changed: $(diff "$tmp/results.before" "$tmp/results.after")"

# ---- lesson files ---------------------------------------------------------------------------------
src="$tmp/src"
mkdir -p "$src/lessons/en"
cp "$CUDATUTOR_SRCDIR"/lessons/en/*.md "$src/lessons/en/"
printf '# Broken\n\n## A step\n\n```step\nkernel: no_such_kernel\n```\n' > "$src/lessons/en/09-broken.md"
printf '# Latin-1\n\nCaf\351\n' > "$src/lessons/en/10-latin1.md"
printf '# One\n\n# Two\n' > "$src/lessons/en/11-two-titles.md"
printf '# No kernel\n\n## A step\n\nText only.\n' > "$src/lessons/en/12-no-kernel.md"
printf '# Bad key\n\n## A step\n\n```step\nkernel: reduce_unroll2\nspeed: fast\n```\n' \
    > "$src/lessons/en/13-bad-key.md"
say "" "## Lesson files" "" \
    "A lesson that does not load is listed with its file, line and reason; the others load and" \
    "run as before." "" \
    "| input | what it says (stderr) | exit | kept |" "|---|---|---|---|"
for id in broken latin1 two-titles no-kernel bad-key; do
	run_refused "cudatutor run $id (lessons/en/*-$id.md)" \
	    "the other lessons" -- env CUDATUTOR_SRCDIR="$src" "$T" run "$id"
done
mkdir -p "$tmp/empty/lessons/en"
run_refused "cudatutor list (an empty lessons/en)" "nothing written" -- \
    env CUDATUTOR_SRCDIR="$tmp/empty" "$T" list
run_refused "cudatutor list (no lessons/en at all)" "nothing written" -- \
    env CUDATUTOR_SRCDIR="$tmp/none" "$T" list
env CUDATUTOR_SRCDIR="$src" "$T" list > "$tmp/out" 2> "$tmp/err"
status=$?
[ "$status" -eq 0 ] || fail "list with broken lessons: exit $status"
has "list with broken lessons: the others are listed" '^unrolling ' "$tmp/out"
row "cudatutor list (with the lessons above): its line for 09-broken.md, on stdout" \
    "$(grep -m1 '09-broken.md' "$tmp/out")" "$status" "every lesson, the broken ones with their reason"

# ---- exercise files ------------------------------------------------------------------------------------
x="$pub/exercise"
mkdir -p "$x/a-directory.cu"
python3 -c 'import sys; open(sys.argv[1], "w").write("//" + "x" * (1 << 20) + "\n")' "$x/large.cu"
printf 'extern "C" __global__ void vec_add_float4(const float *x, const float *y, float *z, unsigned long long n)\n{\n  z[0] = 1;\000\n}\n' \
    > "$x/nul.cu"
say "" "## Exercise files" "" \
    "\`check\` (and the tutor) read a student's kernel only from a regular file of at most 1 MiB;" \
    "anything else is refused before it is read.  A check of a file named with \`--file\` writes" \
    "nothing beside it or among the working copies (its cubin goes in \`\$XDG_CACHE_HOME/cudatutor\`)." "" \
    "| input | what it says (stderr) | exit | kept |" "|---|---|---|---|"
run_refused "cudatutor check float4 --file /dev/zero" "nothing read" -- \
    env XDG_DATA_HOME="$x/data" "$T" check float4 --file /dev/zero
run_refused "cudatutor check float4 --file $x/a-directory.cu" "the directory, untouched" -- \
    env XDG_DATA_HOME="$x/data" "$T" check float4 --file "$x/a-directory.cu"
run_refused "cudatutor check float4 --file $x/large.cu (over 1 MiB)" "$unchanged" -- \
    env XDG_DATA_HOME="$x/data" "$T" check float4 --file "$x/large.cu"
run_refused "cudatutor check float4 (not started)" "nothing written" -- \
    env XDG_DATA_HOME="$x/data" "$T" check float4
env XDG_DATA_HOME="$x/data" "$T" check float4 --file "$x/nul.cu" < /dev/null > "$tmp/out" 2> "$tmp/err"
status=$?
[ "$status" -eq 3 ] || fail "a NUL byte in a kernel: exit $status, want 3: $(cat "$tmp/err")"
row "cudatutor check float4 --file $x/nul.cu (a NUL byte in line 3): its error, on stdout" \
    "$(grep -m1 ': error: ' "$tmp/out")" "$status" "$unchanged"
[ ! -e "$x/data" ] && echo "ok: no exercises folder was made" || fail "a refused check made $x/data"

# ---- the full-screen tutor ----------------------------------------------------------------------------
# A shell in a wide terminal, so that a status line is never cut short.
screen() { tm capture-pane -p -J -t bad; }
wait_for() {
	i=0
	while [ $i -lt 100 ]; do
		if screen > "$tmp/screen" 2>/dev/null && grep -q -E -e "$2" "$tmp/screen"; then
			return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	fail "$1: no '$2' on the screen:"
	sed 's/^/    | /' "$tmp/screen" >&2
	return 1
}
keys() { tm send-keys -t bad "$@"; sleep 0.2; }
tm -f /dev/null new-session -d -s bad -x 400 -y 30 "env -u CUDATUTOR_NO_GPU PS1='test-shell\$ ' LANG=C.UTF-8 sh"
wait_for "shell prompt" 'test-shell\$'
round=0
# tutor STATE [PREFIX [ENV]]: start it with XDG_STATE_HOME=STATE, after PREFIX (as_user), with
# ENV (default: no GPU); the shell echoes its exit status.
tutor() {
	round=$((round + 1))
	keys clear Enter
	keys "${2:-} env XDG_STATE_HOME='$1' ${3:-CUDATUTOR_NO_GPU=1} '$T'; echo exit$round=\$?" Enter
}
tutor_pid() {
	ps -o pid= --ppid "$(tm display -p -t bad '#{pane_pid}')" | head -1 | tr -d ' '
}
# ended DESCRIPTION: wait for the exit status; it is in $status.
ended() {
	wait_for "$1" "exit$round=[0-9]+" || return 1
	status=$(sed -n "s/^exit$round=\([0-9]*\).*/\1/p" "$tmp/screen")
}
# progress_case NAME: a state directory of its own, public, with its cudatutor directory.
progress_case() {
	st="$pub/$1"
	mkdir -p "$st/cudatutor"
	chmod 755 "$st" "$st/cudatutor"
	pf="$st/cudatutor/progress.json"
}
good_progress='{"format": "cudatutor-progress", "version": 1, "last": {"lesson": "reduction", "step": 1}, "lessons": {"reduction": {"done": [1]}}, "results": []}'

say "" "## The progress file" "" \
    "The tutor keeps the user's place and results in \`\$XDG_STATE_HOME/cudatutor/progress.json\`," \
    "written whole or not at all.  What the tutor says about it at start (on the status line) or" \
    "at the end (on stderr, after the terminal is restored):" "" \
    "| input | what it says | exit | kept |" "|---|---|---|---|"

progress_case damaged
printf '{"format": "cudatutor-progress", "vers' > "$pf"
tutor "$st"
wait_for "a damaged progress file" 'progress file was damaged'
message=$(grep -m1 'progress file' "$tmp/screen")
keys q
ended "a damaged progress file: quit"
ls "$pf".corrupt-* > /dev/null 2>&1 || fail "the damaged progress file was not set aside"
row "a damaged progress file" "$message" "$status" "the file, renamed beside it; a fresh start"

progress_case newer
printf '{"format": "cudatutor-progress", "version": 99, "lessons": {}}\n' > "$pf"
cp "$pf" "$tmp/before"
tutor "$st"
wait_for "a newer progress file" 'progress file is from a newer'
message=$(grep -m1 'progress file' "$tmp/screen")
keys Enter q
ended "a newer progress file: quit"
cmp -s "$pf" "$tmp/before" || fail "a newer progress file was written over"
row "a progress file from a newer version" "$message" "$status" "$unchanged; nothing written over it"

progress_case unreadable
printf '%s\n' "$good_progress" > "$pf"
chmod 000 "$pf"
tutor "$st" "$as_user"
wait_for "an unreadable progress file" 'progress file cannot be read'
message=$(grep -m1 'progress file' "$tmp/screen")
keys Enter q
ended "an unreadable progress file: quit"
chmod 644 "$pf"
[ "$(cat "$pf")" = "$good_progress" ] || fail "an unreadable progress file was written over"
row "a progress file the user may not read" "$message" "$status" "$unchanged; nothing written over it"

progress_case directory
mkdir "$pf"
tutor "$st"
wait_for "a directory for a progress file" 'progress file cannot be read'
message=$(grep -m1 'progress file' "$tmp/screen")
keys q
ended "a directory for a progress file: quit"
[ -d "$pf" ] || fail "the directory in the progress file's place is gone"
row "a directory where the progress file should be" "$message" "$status" "the directory, untouched"

progress_case read-only
printf '%s\n' "$good_progress" > "$pf"
chmod 555 "$st/cudatutor"
tutor "$st" "$as_user"
wait_for "a read-only state directory" 'Step 1 of'
keys Right q
ended "a read-only state directory: quit"
message=$(grep -m1 '^cudatutor: ' "$tmp/screen")
[ "$(cat "$pf")" = "$good_progress" ] || fail "a progress file in a read-only directory changed"
row "a state directory the user may not write (at the end)" "$message" "$status" "$unchanged"

progress_case full
printf '%s\n' "$good_progress" > "$pf"
tutor "$st"
wait_for "a full disk" 'Step 1 of'
pid=$(tutor_pid)
ln -s /dev/full "$pf.tmp.$pid"
keys Right q
ended "a full disk: quit"
message=$(grep -m1 '^cudatutor: ' "$tmp/screen")
rm -f "$pf.tmp.$pid"
[ "$(cat "$pf")" = "$good_progress" ] || fail "a progress file on a full disk changed"
row "a full disk (at the end)" "$message" "$status" "$unchanged"

# ---- terminals and signals --------------------------------------------------------------------
say "" "## Terminals and signals" "" \
    "The terminal is given back as it was on every way out (\`tests/screen/tui-robust.sh\` checks the" \
    "modes and the alternate screen)." "" \
    "| input | what it says | exit |" "|---|---|---|"
run_refused "cudatutor < /dev/null > file (not a terminal)" -- "$T"

for term in dumb no-such-terminal; do
	round=$((round + 1))
	keys clear Enter
	keys "TERM=$term CUDATUTOR_NO_GPU=1 '$T'; echo exit$round=\$?" Enter
	ended "TERM=$term"
	row "TERM=$term cudatutor" "$(grep -m1 '^cudatutor: ' "$tmp/screen")" "$status"
done

progress_case signals
tm resize-window -t bad -x 60 -y 20
tutor "$st"
wait_for "a small terminal" 'needs at least'
row "a 60x20 terminal" "$(grep -m1 'needs at least' "$tmp/screen")" "(runs on)"
tm resize-window -t bad -x 400 -y 30
keys q
ended "a small terminal: q"

tutor "$st"
wait_for "the tutor for Ctrl-C" '^ cudatutor '
keys C-c
ended "Ctrl-C"
row "Ctrl-C with no run going on" "(quits; the terminal is restored)" "$status"

for sig in TERM HUP; do
	tutor "$st"
	wait_for "the tutor for SIG$sig" '^ cudatutor '
	kill "-$sig" "$(tutor_pid)"
	ended "SIG$sig"
	row "SIG$sig" "(quits; the terminal is restored)" "$status"
done

# A run kept waiting by a driver that hangs (tests/lib/fake-cuda/hang.c): Ctrl-C cancels it.
progress_case hang
tutor "$st" "" "LD_LIBRARY_PATH='${CUDATUTOR_BUILDDIR:-.}/tests/lib/fake-cuda' CUDATUTOR_TEST_HANG=20"
wait_for "the tutor with a driver that hangs" 'looking for a GPU'
keys Enter Right r
wait_for "a run waiting for the GPU" 'waiting for the GPU to start'
keys C-c
wait_for "Ctrl-C during a run" 'Cancelling the run'
row "Ctrl-C during a run" "$(grep -m1 -o 'Cancelling the run[^.]*\.' "$tmp/screen")" "(runs on)"
keys C-c
ended "a second Ctrl-C"
row "a second Ctrl-C while the run is being cancelled" "(quits; the terminal is restored)" "$status"
tutor "$st"
wait_for "the tutor for a crash" '^ cudatutor '
kill -SEGV "$(tutor_pid)"
ended "a crash"
case $status in 139|134) ;; *) fail "a crash: exit $status, want 139 (or 134 under AddressSanitizer)" ;; esac
say '| `a crash (SIGSEGV)` | `(the terminal is restored, then the signal ends it)` | 139 (134 under AddressSanitizer, which reports the crash first) |'

# ---- only on a GPU -------------------------------------------------------------------------------
say "" "## Only on a GPU" "" \
    "These need a GPU, so this script cannot show them; the tests named check them on one." "" \
    "| input | what the user sees | checked by |" "|---|---|---|" \
    '| a kernel that faults (out of bounds, a trap) | the step did not run, with the CUDA error'"'"'s name and meaning; the next step runs in a fresh process (the worker ends after any failed step) | `tests/unit/test_isolate.c` (a_kernel_fault_is_survived, the_worker_stays_until_a_failure) |' \
    '| a size larger than the GPU'"'"'s free memory | `size N needs X on the GPU but only Y is free: use a smaller --size`, before anything is allocated | `tests/unit/test_gpu.c` (too_large_is_refused) |' \
    '| `cudatutor record` without a GPU | `cudatutor: record needs a GPU: ...`, exit 1, no file written | `tests/cli/cli.sh` |'

tm kill-server 2>/dev/null

if [ -n "$write" ]; then
	cp "$doc" "$write" && echo "wrote $write"
elif diff -u "$CUDATUTOR_SRCDIR/doc/bad-input.md" "$doc" > "$tmp/diff"; then
	echo "ok: doc/bad-input.md is what the program says"
else
	fail "doc/bad-input.md differs from what the program says (make bad-input-doc writes it anew):"
	sed 's/^/    /' "$tmp/diff" >&2
fi
finish

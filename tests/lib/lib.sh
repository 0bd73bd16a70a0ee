# Shared by the shell tests: where the program is, and small assertions.
# Each test script sources this, calls the helpers, and ends with `finish`.

: "${CUDATUTOR:?run the tests through make check}"
failures=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudatutor-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# No GPU in the tests that do not ask for one; keep the user's files out.
export CUDATUTOR_NO_GPU=1
export XDG_STATE_HOME="$tmp/state" XDG_CACHE_HOME="$tmp/cache" XDG_CONFIG_HOME="$tmp/config"
export LANG=C.UTF-8 LC_ALL= LANGUAGE=

fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

# ok DESCRIPTION COMMAND...: the command succeeds.
ok() {
	desc=$1; shift
	if "$@" > "$tmp/out" 2> "$tmp/err"; then
		echo "ok: $desc"
	else
		fail "$desc (exit $?): $(head -3 "$tmp/err")"
	fi
}

# exits STATUS DESCRIPTION COMMAND...: the command ends with exactly this status
# (its output in $tmp/out and $tmp/err, as ok leaves them).
exits() {
	want=$1 desc=$2; shift 2
	"$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		echo "ok: $desc (exit $rc)"
	else
		fail "$desc: exit $rc, not $want: $(head -3 "$tmp/err")"
	fi
}

# refused DESCRIPTION PATTERN COMMAND...: the command fails with exactly one
# line on stderr that matches PATTERN, and prints nothing on stdout.
refused() {
	desc=$1; pattern=$2; shift 2
	if "$@" > "$tmp/out" 2> "$tmp/err"; then
		fail "$desc: succeeded but should not"
		return
	fi
	lines=$(wc -l < "$tmp/err")
	if [ "$lines" -ne 1 ]; then
		fail "$desc: $lines lines on stderr, want one: $(cat "$tmp/err")"
	elif ! grep -q -e "$pattern" "$tmp/err"; then
		fail "$desc: stderr '$(cat "$tmp/err")' lacks '$pattern'"
	elif [ -s "$tmp/out" ]; then
		fail "$desc: printed on stdout: $(head -2 "$tmp/out")"
	else
		echo "ok: $desc -> $(cat "$tmp/err")"
	fi
}

# has DESCRIPTION PATTERN FILE: FILE contains PATTERN (grep -E).
has() {
	if grep -q -E -e "$2" "$3"; then echo "ok: $1"; else fail "$1: no '$2' in output"; fi
}

lacks() {
	if grep -q -E -e "$2" "$3"; then fail "$1: '$2' should not be there"; else echo "ok: $1"; fi
}

# skip WHY: a part of the test could not run here.  The test then ends
# in SKIP (77), not PASS: a green run means every part was asserted.
skips=0
skip() {
	echo "skip: $*"
	skips=$((skips + 1))
}

finish() {
	if [ "$failures" -gt 0 ]; then
		echo "$failures failed"
		exit 1
	fi
	if [ "$skips" -gt 0 ]; then
		echo "$skips parts skipped: SKIP, not PASS"
		exit 77
	fi
	exit 0
}

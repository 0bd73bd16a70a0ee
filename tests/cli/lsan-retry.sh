#!/bin/sh
# tests/lib/lsan-retry, the wrapper every test runs under: a test that ends with LeakSanitizer's own
# tracer crash is run again (at most three runs in all, the third without the leak scan), and the
# last run's status counts; a leak report, a plain failure, a skip and a pass are passed through at
# once, run once.
. "$(dirname "$0")/../lib/lib.sh"
wrap="$CUDATUTOR_SRCDIR/tests/lib/lsan-retry"
crash='Tracer caught signal 11: addr=0xa00 pc=0x7f0 sp=0x7f0
==1==LeakSanitizer has encountered a fatal error.'

# fake TEXT STATUS...: a test that counts its runs in $tmp/runs and, on its Nth run, prints TEXT
# (an empty TEXT prints nothing) and ends with the Nth STATUS (the last one from then on).
fake() {
	text=$1; shift
	: > "$tmp/runs"
	cat > "$tmp/fake" <<SH
#!/bin/sh
echo run >> "$tmp/runs"
n=\$(wc -l < "$tmp/runs")
set -- $*
[ "\$n" -le \$# ] && shift \$((n - 1)) || shift \$((\$# - 1))
[ "\$1" -ne 0 ] && printf '%s\n' "$text"
exit \$1
SH
	chmod +x "$tmp/fake"
}
runs() { wc -l < "$tmp/runs" | tr -d ' '; }

fake "$crash" 134 0
exits 0 "a tracer crash, then a pass: the pass counts" sh "$wrap" "$tmp/fake"
[ "$(runs)" = 2 ] || fail "a tracer crash: $(runs) runs, not 2"
grep -q 'lsan-retry: LeakSanitizer.s tracer crashed' "$tmp/out" || fail "the log does not say why it ran again"

fake "$crash" 134
exits 134 "the tracer crashing every time fails" sh "$wrap" "$tmp/fake"
[ "$(runs)" = 3 ] || fail "a tracer crash each run: $(runs) runs, not 3"

# A tracer that crashes at the same place every run: the third run goes without the leak scan, the
# runs before it with it.
cat > "$tmp/fake" <<SH
#!/bin/sh
echo "run \$ASAN_OPTIONS" >> "$tmp/runs"
case "\$ASAN_OPTIONS" in *detect_leaks=0) exit 0 ;; esac
printf '%s\n' "$crash"
exit 134
SH
: > "$tmp/runs"
saved_asan=${ASAN_OPTIONS-}
ASAN_OPTIONS=abort_on_error=1; export ASAN_OPTIONS
exits 0 "a tracer that always crashes: the third run, without the leak scan, counts" \
	sh "$wrap" "$tmp/fake"
ASAN_OPTIONS=$saved_asan
[ "$(runs)" = 3 ] || fail "a tracer that always crashes: $(runs) runs, not 3"
[ "$(grep -c 'detect_leaks=0' "$tmp/runs")" = 1 ] || fail "not only the last run goes without the leak scan: $(cat "$tmp/runs")"
grep -q 'run 3 of 3 without the leak scan' "$tmp/out" || fail "the log does not say the leak scan was off"
grep -q 'abort_on_error=1:detect_leaks=0' "$tmp/runs" || fail "the test's own ASAN_OPTIONS were not kept: $(cat "$tmp/runs")"

fake "$crash
==1==ERROR: LeakSanitizer: detected memory leaks" 1 0
exits 1 "a leak report is never run again" sh "$wrap" "$tmp/fake"
[ "$(runs)" = 1 ] || fail "a leak report: $(runs) runs, not 1"

fake "FAIL: something" 1 0
exits 1 "a plain failure is never run again" sh "$wrap" "$tmp/fake"
[ "$(runs)" = 1 ] || fail "a plain failure: $(runs) runs, not 1"

fake "" 77
exits 77 "a skip passes through" sh "$wrap" "$tmp/fake"
fake "" 0
exits 0 "a pass passes through" sh "$wrap" "$tmp/fake"
[ "$(runs)" = 1 ] || fail "a pass: $(runs) runs, not 1"
finish

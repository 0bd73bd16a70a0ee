#!/bin/sh
# tests/lib/lsan-retry, the wrapper every test runs under: a test that ends with LeakSanitizer's own
# tracer crash is run again (at most three runs in all), and its second run's status counts; a leak
# report, a plain failure, a skip and a pass are passed through at once, run once.
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

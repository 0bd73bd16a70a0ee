#!/bin/sh
# scripts/mutants changes what it should and nothing else: every
# comparison, && and || of the code and every bound (a #define's number,
# a number compared with), never an arrow, a shift, an #include, an
# index, a template's brackets, a string or a comment.
. "$(dirname "$0")/../lib/lib.sh"

if ! command -v python3 > /dev/null; then
	echo "skip: no python3"
	exit 77
fi
cat > "$tmp/want" << 'END'
3: 30.0 -> 30.6
3: 30.0 -> 29.4
4: 64 -> 65
4: 64 -> 63
8: < -> <=
8: && -> ||
8: >= -> >
8: 2 -> 3
8: 2 -> 1
10: > -> >=
10: || -> &&
10: != -> ==
12: == -> !=
END
ok "the changes to a file of tricky C" python3 "$CUDATUTOR_SRCDIR/scripts/mutants" --list "$CUDATUTOR_SRCDIR/tests/fixtures/mutants.c"
if ! diff -u "$tmp/want" "$tmp/out"; then
	fail "the changes differ from the list above"
fi
ok "lines picked" python3 "$CUDATUTOR_SRCDIR/scripts/mutants" --list "$CUDATUTOR_SRCDIR/tests/fixtures/mutants.c:3,10-12"
if [ "$(grep -c '' "$tmp/out")" != 6 ] || grep -q '^8:' "$tmp/out"; then
	fail "lines 3 and 10-12 make 6 changes: $(cat "$tmp/out")"
fi
finish

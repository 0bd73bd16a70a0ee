#!/bin/sh
# Every lesson reads as teaching (see readability.py): a figure per 60 words at most, few long
# sentences, a picture, and the ending of the summary drawn from the recorded files and three
# points; and the check fails a lesson made to break each rule (a copy, changed).
: "${CUDATUTOR_SRCDIR:?run the tests through make check}"
python3 "$CUDATUTOR_SRCDIR/tests/lessons/readability.py" "$CUDATUTOR_SRCDIR" || exit 1

copy=$(mktemp -d) || exit 1
trap 'rm -rf "$copy"' EXIT
mkdir -p "$copy/tests/lessons" "$copy/data"
cp -R "$CUDATUTOR_SRCDIR/lessons" "$copy/" && cp -R "$CUDATUTOR_SRCDIR/data/results" "$copy/data/" &&
    cp "$CUDATUTOR_SRCDIR/tests/lessons/figures.map" "$copy/tests/lessons/" || exit 1
chmod -R u+w "$copy"
lesson=$copy/lessons/en/08-occupancy.md
keep=$(mktemp) || exit 1
cp "$lesson" "$keep"
# must_fail WHAT: the check on the changed copy fails, naming WHAT; the lesson is then put back
must_fail() {
	if python3 "$CUDATUTOR_SRCDIR/tests/lessons/readability.py" "$copy" 08-occupancy > "$copy/out" 2>&1; then
		echo "the check passed a lesson with $1"; exit 1
	fi
	grep -q -- "$2" "$copy/out" || { echo "no '$2' for $1:"; cat "$copy/out"; exit 1; }
	echo "ok: it fails $1"
	cp "$keep" "$lesson"
}
# no picture
python3 - "$lesson" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
open(sys.argv[1], "w").write(re.sub(r"```picture\n.*?```\n", "", t, flags=re.S))
PY
must_fail "no picture" "no \`\`\`picture block"
# a fourth point to remember
printf -- '- A fourth point.\n' >> "$lesson"
must_fail "four points to remember" "lists 4 points"
# a sentence of 53 words, eight times over: over 3 a thousand words
long="This sentence goes on and on $(printf 'and on %.0s' $(seq 1 17)) until it has more words than any student should meet in one breath."
printf '\n%s %s %s %s %s %s %s %s\n' "$long" "$long" "$long" "$long" "$long" "$long" "$long" "$long" >> "$lesson"
must_fail "long sentences" "sentences over 40 words"
# thirty figures more in one paragraph: one per fewer than 60 words
printf '\nThe times were %s.\n' "$(seq 1 30 | sed 's/$/.5 ms/' | tr '\n' ',' | sed 's/,$//')" >> "$lesson"
must_fail "too many figures" "move the numbers to the tables"
rm -f "$keep"

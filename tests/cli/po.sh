#!/bin/sh
# The translations keep up with the sources: every message of the program
# translated in every catalog of po/LINGUAS, none fuzzy, and every source
# file with messages listed in po/POTFILES.in.  What is left to translate
# is printed as a .po fragment (see tests/README.md).
. "$(dirname "$0")/../lib/lib.sh"

for tool in xgettext msgmerge msgattrib msgfmt; do
	if ! command -v "$tool" > /dev/null 2>&1; then
		echo "skip: $tool not found (the Debian package gettext has it)"
		exit 77
	fi
done
cd "$CUDATUTOR_SRCDIR" || exit 1
keywords="--keyword=_ --keyword=N_ --from-code=UTF-8"

# po/POTFILES.in names files that exist, and every file under src/ with a
# message in _() or N_() (xgettext says which: comments and #define do not count).
listed=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' po/POTFILES.in | sort -u)
for f in $listed; do
	[ -f "$f" ] || fail "po/POTFILES.in names $f, which does not exist: take it out"
done
# shellcheck disable=SC2046,SC2086
xgettext $keywords -o "$tmp/all.pot" $(find src -name '*.[ch]' | sort) 2> "$tmp/err" ||
	fail "xgettext cannot read the sources: $(head -3 "$tmp/err")"
unlisted=$(sed -n 's/^#: //p' "$tmp/all.pot" 2>/dev/null | tr ' ' '\n' | sed 's/:[0-9]*$//' | sort -u |
	while read -r f; do echo "$listed" | grep -qxF "$f" || echo "$f"; done | tr '\n' ' ')
[ -z "$unlisted" ] && echo "ok: every source file with messages is in po/POTFILES.in" ||
	fail "files with messages missing from po/POTFILES.in (add them, then run scripts/po-update): $unlisted"

# The template as the sources are now, merged into each catalog as scripts/po-update does.
# shellcheck disable=SC2086
xgettext $keywords --add-comments=TRANSLATORS: -o "$tmp/cudatutor.pot" -f po/POTFILES.in 2> "$tmp/err" ||
	fail "xgettext cannot make the template: $(head -3 "$tmp/err")"
[ -f "$tmp/cudatutor.pot" ] || finish
for lang in $(sed -e 's/#.*//' po/LINGUAS); do
	po=po/$lang.po
	if [ ! -f "$po" ]; then
		fail "po/LINGUAS names $lang but there is no $po"
		continue
	fi
	merged=$tmp/$lang.po
	if ! msgmerge --quiet --previous -o "$merged" "$po" "$tmp/cudatutor.pot" 2> "$tmp/err"; then
		fail "$po does not merge with the template: $(head -3 "$tmp/err")"
		continue
	fi
	msgfmt -c -o /dev/null "$merged" 2> "$tmp/err" ||
		fail "$po: msgfmt -c finds errors: $(grep -v 'fatal error' "$tmp/err" | head -5)"
	stats=$(LC_ALL=C msgfmt --statistics -o /dev/null "$merged" 2>&1 | sed 's/\.$//')
	msgattrib --no-obsolete --untranslated -o "$tmp/untranslated.po" "$merged"
	msgattrib --no-obsolete --only-fuzzy -o "$tmp/fuzzy.po" "$merged"
	if ! echo "$stats" | grep -q -e fuzzy -e untranslated; then
		echo "ok: $po: $stats"
		continue
	fi
	fail "$po: $stats; run scripts/po-update, then translate these in $po (a fuzzy one is a guess: check it and drop its fuzzy mark):"
	# the fragment without the header entry: ready to translate
	for part in "$tmp/untranslated.po" "$tmp/fuzzy.po"; do
		[ -s "$part" ] && awk 'NR == 1, /^$/ { next } { print } END { print "" }' "$part" | sed 's/^/    /' >&2
	done
done
finish

#!/bin/sh
# LANG=zh_CN.UTF-8 where that locale is not installed, only C.UTF-8: the
# program run from its build tree still speaks Chinese, and says nothing
# about the locale on the command line.  Where zh_CN.UTF-8 is installed,
# LOCPATH hides it (as tests/screen/tui-locale.sh does); where that cannot
# be, or there is no UTF-8 locale to fall back to, the test skips (77).
. "$(dirname "$0")/../lib/lib.sh"
T=$CUDATUTOR

if ! [ -f "$CUDATUTOR_BUILDDIR/locale/zh_CN/LC_MESSAGES/cudatutor.mo" ]; then
	echo "skip: no zh_CN catalog in the build tree (configured without NLS?)"
	exit 77
fi
have=$(locale -a 2> /dev/null)
if ! echo "$have" | grep -q -i -x -e 'C\.UTF-\{0,1\}8' -e 'en_US\.UTF-\{0,1\}8'; then
	echo "skip: no C.UTF-8 nor en_US.UTF-8 locale here to fall back to (locale -a: $(echo $have))"
	exit 77
fi
hide=""
if echo "$have" | grep -q -i -x 'zh_CN\.UTF-\{0,1\}8'; then
	# zh_CN is installed here: hide it, leaving only the C.UTF-8 that glibc keeps in its own directory
	for d in /usr/lib/locale/C.utf8 /usr/lib/locale/C.UTF-8 /usr/lib64/locale/C.utf8; do
		[ -d "$d" ] && { mkdir -p "$tmp/locales" && ln -s "$d" "$tmp/locales/" && break; }
	done
	if ! [ -d "$tmp/locales" ]; then
		echo "skip: zh_CN.UTF-8 is installed here, and no C.UTF-8 directory to keep alone with LOCPATH"
		exit 77
	fi
	hide="LOCPATH=$tmp/locales"
fi

# shellcheck disable=SC2086
ok "help under LANG=zh_CN.UTF-8, not installed" env -u LANGUAGE $hide LANG=zh_CN.UTF-8 "$T" --help
has "in Chinese" '^用法：' "$tmp/out"
[ -s "$tmp/err" ] && fail "the fallback locale is told on stderr: $(cat "$tmp/err")" ||
	echo "ok: nothing on stderr about the locale"
finish

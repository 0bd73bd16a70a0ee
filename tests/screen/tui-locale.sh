#!/bin/sh
# A locale that is not installed: LANG=zh_CN.UTF-8 in a container that has
# only C.UTF-8.  The tutor draws Chinese in C.UTF-8 rather than '?' in
# ASCII, speaks Chinese, and says on its bottom line which locale it uses.
. "$(dirname "$0")/../lib/lib.sh"

. "$(dirname "$0")/../lib/tmux.sh"

if ! [ -f "$CUDATUTOR_BUILDDIR/locale/zh_CN/LC_MESSAGES/cudatutor.mo" ]; then
	echo "skip: no zh_CN catalog in the build tree (configured without NLS?)"
	exit 77
fi
have=$(locale -a 2> /dev/null)
fallback=$(echo "$have" | grep -i -x -m 1 -e 'C\.UTF-\{0,1\}8' -e 'en_US\.UTF-\{0,1\}8')
if [ -z "$fallback" ]; then
	echo "skip: no C.UTF-8 nor en_US.UTF-8 locale here to fall back to (locale -a: $(echo $have))"
	exit 77
fi
locpath=""
if echo "$have" | grep -q -i -x 'zh_CN\.UTF-\{0,1\}8'; then
	# zh_CN is installed here: hide it, leaving only the C.UTF-8 that glibc keeps in its own directory
	for d in /usr/lib/locale/C.utf8 /usr/lib/locale/C.UTF-8 /usr/lib64/locale/C.utf8; do
		[ -d "$d" ] && { mkdir -p "$tmp/locales" && ln -s "$d" "$tmp/locales/" && break; }
	done
	if ! [ -d "$tmp/locales" ]; then
		echo "skip: zh_CN.UTF-8 is installed here, and no C.UTF-8 directory to keep alone with LOCPATH"
		exit 77
	fi
	locpath="LOCPATH='$tmp/locales'"
fi

# the tutor under LANG=zh_CN.UTF-8, nothing else asking for a language
tm -f /dev/null new-session -d -s tutor -x 100 -y 30 \
    "env -u LANGUAGE -u LC_ALL -u LC_CTYPE -u LC_MESSAGES $locpath PS1='test-shell\$ ' \
    XDG_STATE_HOME='$tmp/state' CUDATUTOR_NO_GPU=1 LANG=C.UTF-8 sh"
wait_for "shell prompt" 'test-shell\$' > /dev/null || finish
keys "LANG=zh_CN.UTF-8 '$CUDATUTOR'; echo tutor-exit=\$?" Enter
wait_for "the lesson list, headed in Chinese" '课程及其步骤'
on_screen "a lesson's title drawn in Chinese" 'reduction +并行归约'
not_on_screen "no character drawn as '?'" '\?\?'
on_screen "the bottom line names the locale used instead" "zh_CN\\.UTF-8.*C\\.UTF-8"
on_screen "and says it in Chinese" '教程改用'
keys q
wait_for "q quits" 'tutor-exit=0'
finish

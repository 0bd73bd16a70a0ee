#!/bin/sh
# The tutor with --lang zh_CN under an English locale (LANG=C.UTF-8): the
# lesson list, a lesson with its recorded results, the help and the SASS
# view all speak Chinese, headers and key lines too, at 80x24 and 160x48;
# and the results table's headings stand over their numbers, counted in
# display columns (a Chinese character takes two).
. "$(dirname "$0")/../lib/lib.sh"

. "$(dirname "$0")/../lib/tmux.sh"

if ! [ -f "$CUDATUTOR_BUILDDIR/locale/zh_CN/LC_MESSAGES/cudatutor.mo" ]; then
	echo "skip: no zh_CN catalog in the build tree (configured without NLS?)"
	exit 77
fi
if ! locale -a 2> /dev/null | grep -q -i -x 'C\.UTF-\{0,1\}8'; then
	echo "skip: no C.UTF-8 locale here"
	exit 77
fi

# aligned: the results table's heading and its first row end each column at
# the same display column, from the time on (the kernel's name is left-aligned)
aligned() {
	screen > "$tmp/screen"
	python3 - "$tmp/screen" <<'PY' && echo "ok: $1" || fail "$1: the headings do not stand over their numbers"
import re, sys, unicodedata
cols = lambda s: sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
# at 160 columns the table stands right of the text: measure from where it starts
find = lambda pat: [l[m.start():] for l in lines for m in [re.search(pat, l)] if m]
head = find(r" #   核函数 ")
rows = find(r" (▸|>)? *1 reduce_neighbored ")
if not head or not rows:
    sys.exit("no table heading or no first row")
ends = lambda l: [(m.group(), cols(l[:m.end()])) for m in re.finditer(r"\S+", l)]
# heading: #, 核函数, then ms, (±IQR where it fits), GB/s, %copy, %屋顶, 较首步, 较上步; the row: as many after the name
hw = ends(head[0])
last = [t for t, _ in hw].index("较上步")
h = [e for _, e in hw[2:last + 1]]
row = ends(rows[0])
name = [t for t, _ in row].index("reduce_neighbored")
r = [e for _, e in row[name + 1:name + 1 + len(h)]]
if h != r:
    sys.exit("heading ends %s, row ends %s" % (h, r))
PY
}

tm -f /dev/null new-session -d -s tutor -x 80 -y 24 \
    "env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=C.UTF-8 XDG_STATE_HOME='$tmp/state' CUDATUTOR_NO_GPU=1 \
    '$CUDATUTOR' --lang zh_CN; echo tutor-exit=\$?; sleep 30"
for size in 80x24 160x48; do
	if [ $size = 160x48 ]; then
		tm resize-window -t tutor -x 160 -y 48
		keys Escape	# from the lesson to the list
	fi
	wait_for "$size: the lesson list, headed in Chinese" '─ 课程及其步骤 ─'
	on_screen "$size: its key line in Chinese" '↑↓ 选择  Enter 打开 .* \? 帮助  q 退出'
	on_screen "$size: a lesson's title in Chinese" 'reduction +并行归约'
	keys Enter
	wait_for "$size: the lesson opens" 'cudatutor › reduction · '
	keys r
	wait_for "$size: step 1, its step line in Chinese" '第 1 步，共 4 步'
	wait_for "$size: the results panel, headed in Chinese" '─ 结果  记录 于 [^ ]'
	# beside the text at 160 columns, the panel is too narrow for the size as well
	[ $size = 80x24 ] && on_screen "$size: the size and block in Chinese" '规模 2\^24，线程块 1024 ─'
	on_screen "$size: the table's headings in Chinese" ' #   核函数 +ms +(±IQR +)?GB/s +%copy +%屋顶 +较首步 +较上步'
	aligned "$size: the Chinese headings line up with the numbers"
	on_screen "$size: the lesson's key line in Chinese" '←→ 步骤  r 运行  a 全部  s SASS'
	keys '?'
	wait_for "$size: the help, in Chinese" '─ 按键 ─'
	on_screen "$size: the help's lines in Chinese" '运行这一课的每一步'
	keys Escape
	keys s
	wait_for "$size: the SASS view, headed in Chinese" '─ 源代码 ─ PTX ─ SASS sm_[0-9]+ ─'
	on_screen "$size: the SASS view's key line in Chinese" 'Tab 视图  n 下一条 .* Esc 返回'
	not_on_screen "$size: no character drawn as '?'" '\?\?'
	keys Escape
done
keys q
wait_for "q quits" 'tutor-exit=0'
finish

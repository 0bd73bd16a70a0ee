#!/bin/sh
# The glossary at 80x24: t on a lesson's page (and on an exercise's) opens a
# page that says plainly what the tables' words mean: SASS, PTX, IQR, %copy,
# %roof, the diagnosis, the counters, a warp instruction, regs, blk/SM, occ,
# vs 1st, vs prev, a control step; scrolled through, every one is there, no
# line wider than the screen; in Chinese too; Esc goes back; the lesson's
# help (?) lists t.
. "$(dirname "$0")/../lib/lib.sh"

. "$(dirname "$0")/../lib/tmux.sh"

# start LESSON STEP [ARGS]: the tutor at that step at 80x24.
start() {
	tutor_at "$1" "$2" 80 24 -- ${3:-}
	wait_for "$1 at step $2" "$1"
}

# read_all FILE: the glossary scrolled from its top to its end, every screen into FILE.
read_all() {
	: > "$1"
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		screen >> "$1"
		keys Space
	done
	screen >> "$1"
}

# term WHAT PATTERN: a term, at the left of its entry, with the start of its text after it.
term() {
	if grep -q -E -e "^  $2" "$tmp/all"; then
		echo "ok: the glossary explains $1"
	else
		fail "the glossary has no entry for $1 ('$2')"
	fi
}

start register-tiling 1
keys t
wait_for "t opens the glossary" 'glossary: the words of the tables'
read_all "$tmp/all"
python3 -c 'import sys; w = max(len(l) for l in open(sys.argv[1], encoding="utf-8").read().splitlines()); sys.exit(w > 80)' "$tmp/all" ||
	fail "a glossary line wider than 80 columns"
term SASS 'SASS +The GPU.s own machine code'
term PTX 'PTX +The portable assembly nvcc writes'
term IQR '±IQR +How much the timed runs spread: the interquartile range'
term %copy '%copy +The step.s GB/s as a percentage of this GPU.s copy'
term %roof '%roof +The step.s rate as a percentage of the roof'
term "vs 1st" 'vs 1st +How many times as fast as the lesson.s first step'
term "vs prev" 'vs prev +How many times as fast as the step before it'
term "a control step" '\(control\) +A control step'
term regs 'regs +Registers each thread uses'
term blk/SM 'blk/SM +How many blocks of this step.s size fit on one SM'
term occ 'occ +Occupancy: the warps that fit on an SM'
term "a warp instruction" 'warp instruction +One instruction issued for a warp, 32 threads'
term "the counters" 'the counters +Figures the GPU.s hardware counts'
term "the diagnosis line" 'the diagnosis +The line under the results table'
has "it reads to its end" 'its place on the roofline, with the lesson' "$tmp/all"
keys Escape
wait_for "Esc goes back to the lesson" 'Step 1 of 7'
not_on_screen "the glossary is gone" 'glossary: the words'

# the help lists t
keys ?
wait_for "? opens the help" '─ Keys ─'
found=
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; do
	if screen | grep -q -E '│ +t +the glossary: SASS, PTX, IQR'; then found=1; break; fi
	tm send-keys -t tutor j
	sleep 0.05
done
[ -n "$found" ] && echo "ok: the help lists t, the glossary" || fail "the help does not list t"
keys q

# in Chinese
start register-tiling 1 "--lang zh_CN"
keys t
wait_for "t opens the glossary in Chinese" '术语表：表格里的用语'
read_all "$tmp/all"
term "SASS in Chinese" 'SASS +GPU 自己的机器码'
term "vs 1st in Chinese" '较首步 +比这一课的第一步快多少倍'
term "a warp instruction in Chinese" '线程束指令 +为一个线程束'
keys q

# on an exercise's page too
start vectorize 2
keys Right
wait_for "the exercise's page" 'Exercise: four floats'
keys t
wait_for "t on an exercise's page opens the glossary" 'glossary: the words of the tables'
keys Escape
wait_for "and Esc comes back to the exercise" 'Exercise: four floats'
keys q

finish

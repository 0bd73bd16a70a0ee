#!/bin/sh
# Keys a student can find at 80x24: the lesson screen's key line shows R (the
# roofline) and W (the sweep) beside help and quit, in English and in Chinese;
# the manual and the README list both; R on an exercise's page checks nothing
# and says on the status line where the roofline is and why it is not there.
. "$(dirname "$0")/../lib/lib.sh"

. "$(dirname "$0")/../lib/tmux.sh"

# start LESSON STEP [ARGS]: the tutor at that step at 80x24.
start() {
	tutor_at "$1" "$2" 80 24 -- ${3:-}
	wait_for "$1 at step $2" "$1"
}

# key_line WHAT PATTERN: the bottom row holds PATTERN.
key_line() {
	line=$(screen | sed -n 24p)
	if printf '%s\n' "$line" | grep -q -E -e "$2"; then
		echo "ok: $1"
	else
		fail "$1: the key line is '$line'"
	fi
}

start register-tiling 1
key_line "R on the key line at 80 columns" ' R roof '
key_line "W on the key line at 80 columns" ' W sweep '
key_line "help and quit still at its end" '\? help +q quit *$'
key_line "the step's own keys still first" '^ ←→ step +r run +a all +s SASS'
keys R
wait_for "the key line's R opens the roofline" 'register-tiling · roofline'
keys q

start register-tiling 1 "--lang zh_CN"
key_line "R on the key line in Chinese" ' R 屋顶 '
key_line "W on the key line in Chinese" ' W 扫描 '
key_line "help and quit in Chinese" '\? 帮助 +q 退出 *$'
keys q

# The manual's and the README's lesson keys list R and W.
for man in "$CUDATUTOR_SRCDIR/man/cudatutor.1" "$CUDATUTOR_SRCDIR/man/zh_CN/cudatutor.1"; do
	has "R in the lesson keys of ${man#$CUDATUTOR_SRCDIR/}" '^\.It Ic R$' "$man"
	has "W in the lesson keys of ${man#$CUDATUTOR_SRCDIR/}" '^\.It Ic W$' "$man"
done
has "R in the README's key table" '^\| `R` \| the roofline' "$CUDATUTOR_SRCDIR/README.md"
has "W in the README's key table" '^\| `W` \| the recorded sweep' "$CUDATUTOR_SRCDIR/README.md"

# R on an exercise's page: no check starts, the status line says why there is no roofline.
start vectorize 2
keys Right
wait_for "the exercise's page" '^ cudatutor › vectorize · Exercise: four floats'
keys R
line=$(screen | sed -n 23p)
if printf '%s\n' "$line" | grep -q -E "No roofline here: it plots our steps, not your kernel \(R on a step's page\)\."; then
	echo "ok: R on an exercise's page says why it shows no roofline"
else
	fail "R on an exercise's page: the status line is '$line'"
fi
not_on_screen "R checked nothing" 'Checking|not been checked|SASS checks'
not_on_screen "and opened no roofline" '· roofline'
keys ?
wait_for "the exercise's help lists R" 'R +no roofline here'
keys q

finish

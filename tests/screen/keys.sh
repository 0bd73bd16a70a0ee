#!/bin/sh
# Every key of the lesson screen that has a help line, pressed as a student presses it at 80x24
# without a GPU, and what it opens or moves checked on the screen: l h n N PgDn PgUp, j k g G
# Space, s c p (each its own view), + - ] [ (size and block in the results' title), b, R, W.
# A key bound to the wrong thing (p to the SASS) fails here.
. "$(dirname "$0")/../lib/lib.sh"

. "$(dirname "$0")/../lib/tmux.sh"

# start LESSON STEP [ARGS]: the tutor at that step at 80x24.
start() {
	tutor_at "$1" "$2" 80 24 -- ${3:-}
	wait_for "$1 at step $2" "${4:-Step $2 of [0-9]+}"
}

# status LANGUAGE WHAT PATTERN: the status line (the row over the keys) holds the hint whole.
status() {
	line=$(screen | sed -n 23p)
	if printf '%s\n' "$line" | grep -q -E -e "$3" && ! printf '%s\n' "$line" | grep -q '…'; then
		echo "ok: $1: the hint of $2, whole at 80 columns"
	else
		fail "$1: the hint of $2 is not whole at 80 columns: '$line'"
	fi
}

# The first line of the text pane (the line under the header), for scrolling.
text_top() { screen | sed -n 2p; }

start reduction 1
# pages: l h, n N, PgDn PgUp (step 1 to step 2 has no exercise's page between)
for k in l n NPage; do
	keys "$k"
	wait_for "$k: the next step" 'Step 2 of 4'
	case $k in l) back=h ;; n) back=N ;; NPage) back=PPage ;; esac
	keys "$back"
	wait_for "$back: back a step" 'Step 1 of 4'
done

# scrolling the text: j down, k up, G the end, g the top, Space the next screenful
top=$(text_top)
keys j
[ "$(text_top)" != "$top" ] && echo "ok: j scrolls the text down" || fail "j did not scroll the text"
keys k
[ "$(text_top)" = "$top" ] && echo "ok: k scrolls it back up" || fail "k did not scroll back: $(text_top)"
keys G
[ "$(text_top)" != "$top" ] && echo "ok: G goes to the end" || fail "G did not move the text"
keys g
[ "$(text_top)" = "$top" ] && echo "ok: g goes back to the top" || fail "g did not go to the top: $(text_top)"
keys Space
[ "$(text_top)" != "$top" ] && echo "ok: Space reads on: the next screenful" || fail "Space did not read on"
keys g

# the code views: each key its own
keys s
wait_for "s: the step's SASS" '^ +[0-9]+ +(/\*[0-9a-f]+\*/ +)?(S2R|LDC|IMAD|ISETP|LDG|ULDC)'
not_on_screen "not its PTX" '\.param \.u64|\.visible \.entry'
keys Escape
wait_for "Esc: back" 'Step 1 of 4'
keys c
wait_for "c: the step's CUDA source" '__global__ void reduce_neighbored'
keys Escape
keys p
wait_for "p: the step's PTX" '^ +[0-9]+ +(\.loc|mov\.b32|st\.global|ld\.global|bar\.sync|setp\.)'
not_on_screen "not its SASS" '^ +[0-9]+ +(/\*[0-9a-f]+\*/ +)?(S2R|LDC|ISETP|ULDC) '
keys Escape
wait_for "Esc: back again" 'Step 1 of 4'

# size and block: the results' title
on_screen "the lesson's size and block" 'size 2\^24, block 1024'
keys +
wait_for "+: the size doubles" 'size 2\^25, block 1024'
keys -
keys -
wait_for "- -: down twice" 'size 2\^23, block 1024'
keys +
keys [
wait_for "[: a smaller block" 'size 2\^24, block 512'
keys ]
wait_for "]: back up" 'size 2\^24, block 1024'

# ?: the help box, and nothing of the screen under it beside it
keys ?
wait_for "?: the keys" '─ Keys ─'
screen > "$tmp/help"
python3 - "$tmp/help" <<'PY' && echo "ok: nothing beside the help box but blanks" || fail "stray characters beside the help box: $(cat "$tmp/help")"
import sys
rows = open(sys.argv[1], encoding="utf-8").read().split("\n")
box = [r for r in rows if r.lstrip().startswith(("┌", "│", "└"))]
assert len(box) > 5, box
for r in box:
    left = r.index(r.lstrip()[0])
    right = max(r.rfind("│"), r.rfind("┐"), r.rfind("┘"))
    assert r[:left].strip() == "" and r[right + 1:].strip() == "", repr(r)
PY
keys q
start reduction 1

# b: the chart's bars between rate and time (the chart's title says which); R and W
start vectorize 1
on_screen "the bars in GB/s" 'ok +GB/s *$'
keys b
wait_for "b: the bars in time" 'ok +time *$'
keys b
wait_for "b again: GB/s" 'ok +GB/s *$'
keys R
wait_for "R: the roofline" 'vectorize · roofline'
keys Escape
keys W
wait_for "W: the sweep" 'vectorize · size sweep'
keys Escape
keys q

# ---- each screen's hint, whole at 80 columns, in English and in Chinese ------------------------------
for lang in en zh_CN; do
	start reduction 1 "--lang $lang" 'reduction'
	# the no-GPU notice comes once the GPU has been looked for, late under AddressSanitizer, and
	# stays until a key: wait for it, or a key pressed before it leaves it on the status line
	[ $lang = en ] && wait_for "the no-GPU notice ($lang)" 'No GPU here' ||
		wait_for "the no-GPU notice ($lang)" '这里没有 GPU'
	keys j k	# a key takes the start's message away: the hint shows
	[ $lang = en ] && status $lang "a step without a GPU" 'No GPU: r shows this step.s recorded result; s shows its SASS\.' ||
		status $lang "a step without a GPU" '没有 GPU：r 显示这一步记录的结果；s 显示它的 SASS。'
	keys l l
	if [ $lang = en ]; then
		keys W
		wait_for "W there: the lesson's sweep (or why it has none)" 'reduction · size sweep'
		keys Escape
		wait_for "Esc: back again" 'Exercise: pack the busy threads together'
	fi
	[ $lang = en ] && status $lang "an exercise's page" 'e writes it in your editor, and each save is checked; H: a hint\.' ||
		status $lang "an exercise's page" '按 e 在编辑器里写，每次保存都会检查；H：提示。'
	keys Escape
	[ $lang = en ] && status $lang "the list of lessons" 'Enter opens the chosen lesson or step\. New here\? Start with the first\.' ||
		status $lang "the list of lessons" 'Enter 打开选中的课或步骤。第一次来？从第一课开始。'
	keys q
done
tm kill-server 2>/dev/null
finish

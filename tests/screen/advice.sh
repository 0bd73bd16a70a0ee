#!/bin/sh
# What the tutor has to say, whole, as a student first meets it without a GPU: the reduction's
# first step at 80x24 and at 160x48, its recorded result shown with r: the diagnosis under the
# table to its last word (the lesson that attacks it), and the no-GPU status in one line.
. "$(dirname "$0")/../lib/lib.sh"

. "$(dirname "$0")/../lib/tmux.sh"

start() {
	tutor_at reduction 1 "$1" "$2"
	wait_for "the reduction's first step at ${1}x$2" 'Step 1 of [0-9]+ +Neighbored pairs'
}

for size in "80 24" "160 48"; do
	set -- $size
	start "$1" "$2"
	keys r
	wait_for "r shows the recorded result (${1}x$2)" 'reduce_neighbored +0\.[0-9]+'
	# the diagnosis may wrap: read it as words, from the results panel alone (from 140 columns it
	# stands beside the text, taking 45% of the width, 72 to 100 columns)
	from=1
	if [ "$1" -ge 140 ]; then
		rw=$(($1 * 45 / 100)); [ $rw -lt 72 ] && rw=72; [ $rw -gt 100 ] && rw=100
		from=$(($1 - rw + 1))
	fi
	screen | cut -c "$from"- | tr -s ' \n│┃' '    ' > "$tmp/words"
	has "the diagnosis, from its start (${1}x$2)" 'Step 1: [0-9.]+ warp instructions issued per element' "$tmp/words"
	has "to its last word, the lesson that attacks it (${1}x$2)" 'cheaper index arithmetic \(reduction lesson\)' "$tmp/words"
	screen > "$tmp/screen"
	has "the no-GPU status in one line (${1}x$2)" '^ Recorded on H[0-9]+[^(]*, 20[0-9-]+ \(switched off by CUDATUTOR_NO_GPU\) *$' "$tmp/screen"
	[ "$(sed -n "$(($2 - 3))p" "$tmp/screen" | tr -d ' ')" != "$(printf '─%.0s' $(seq 1 "$1"))" ] &&
		echo "ok: no rule over a second status line (${1}x$2)" || fail "the status took more than one line (${1}x$2)"
	keys q
done

# ---- the student's own row: after a check in the reduction's first exercise, at 80x24 -----------
# (the table holds 4 steps and the yours row; the check's message took three rows, which hid it)
"$CUDATUTOR" check neighbored-less --file "$CUDATUTOR_SRCDIR/kernels/exercises/neighbored-less.solution.cu" \
    > /dev/null 2>&1
if [ $? -eq 1 ]; then
	echo "skip: the exercises cannot be checked here (no NVRTC): the yours row is not tested"
else
	export XDG_DATA_HOME="$tmp/data"
	printf '#!/bin/sh\ncp "%s" "$1"\n' "$CUDATUTOR_SRCDIR/kernels/exercises/neighbored-less.solution.cu" > "$tmp/editor"
	chmod +x "$tmp/editor"
	tutor_at reduction 2 80 24 EDITOR="$tmp/editor"
	wait_for "the reduction's second step" 'Step 2 of [0-9]+'
	keys Right
	wait_for "the exercise's page" 'Exercise: pack the busy threads together'
	keys e
	wait_for "the check's verdict" 'The SASS checks pass; no GPU here judged the answers and the time\.'
	on_screen "the yours row is in view, under its step" '^     yours +compiled, SASS checks [0-9]+/[0-9]+'
	on_screen "with the step it stands in for above it" '^ ▸ 3 reduce_nei'
	keys q
	# a later step of a longer lesson: vectorize's half4 stands in for step 11 of 16
	printf '#!/bin/sh\ncp "%s" "$1"\n' "$CUDATUTOR_SRCDIR/kernels/exercises/half4.solution.cu" > "$tmp/editor"
	tutor_at vectorize 10 80 24 EDITOR="$tmp/editor"
	wait_for "vectorize's step 10" 'Step 10 of [0-9]+'
	keys Right
	wait_for "the half4 exercise's page" 'Exercise: four halves per access'
	keys e
	wait_for "its check's verdict" 'The SASS checks pass; no GPU here judged the answers and the time\.'
	on_screen "the yours row is in view, ten rows down the table" '^     yours +compiled, SASS checks [0-9]+/[0-9]+'
	keys q
fi
tm kill-server 2>/dev/null
finish

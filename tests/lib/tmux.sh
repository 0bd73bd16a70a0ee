# Shared by the screen tests, sourced after lib.sh: a private tmux server,
# the tutor's screen read back, keys sent, and waiting for what should show.
#   SCREEN_WAIT  tenths of a second wait_for waits at most (default 100)
#   KEYS_PAUSE   seconds to let the tutor answer a key (default 0.2)

if [ -z "${TMUX_BIN:-}" ] || ! [ -x "$TMUX_BIN" ]; then
	echo "skip: tmux was not found when cudatutor was configured"
	exit 77
fi
unset TMUX
sock="$tmp/tmux.sock"
tm() { "$TMUX_BIN" -S "$sock" "$@"; }
trap 'tm kill-server 2>/dev/null; rm -rf "$tmp"' EXIT

screen() { tm capture-pane -p -J -t tutor; }

# wait_for DESCRIPTION PATTERN [TENTHS]: the screen shows PATTERN (grep -E) in time.
wait_for() {
	i=0
	while [ $i -lt "${3:-${SCREEN_WAIT:-100}}" ]; do
		if screen > "$tmp/screen" 2>/dev/null && grep -q -E -e "$2" "$tmp/screen"; then
			echo "ok: $1"
			return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	fail "$1: no '$2' on the screen:"
	sed 's/^/    | /' "$tmp/screen" >&2
	return 1
}

# on_screen / not_on_screen DESCRIPTION PATTERN: the screen now.
on_screen() { screen > "$tmp/screen"; has "$1" "$2" "$tmp/screen"; }
not_on_screen() { screen > "$tmp/screen"; lacks "$1" "$2" "$tmp/screen"; }

keys() { tm send-keys -t tutor "$@"; sleep "${KEYS_PAUSE:-0.2}"; }

# tutor_at LESSON STEP COLS ROWS [VAR=VALUE...] [-- ARG...]: the tutor alone in a fresh COLS x ROWS
# terminal, without a GPU, in C.UTF-8 unless a VAR=VALUE says otherwise, opened where a progress
# file says the student left off (STEP 0: the lesson's first page); ARGs go to the tutor. It does
# not wait: the caller waits for what it expects to see first.
tutor_at() {
	lesson=$1 step=$2 cols=$3 rows=$4
	shift 4
	vars="XDG_STATE_HOME='$XDG_STATE_HOME' XDG_DATA_HOME='${XDG_DATA_HOME:-$tmp/data}' CUDATUTOR_NO_GPU=1 LANG=C.UTF-8 LC_ALL="
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		vars="$vars '$1'"
		shift
	done
	[ "${1:-}" = -- ] && shift
	tm kill-server 2>/dev/null
	sleep 0.3	# the tutor that was open saves its place as it goes
	mkdir -p "$XDG_STATE_HOME/cudatutor"
	printf '{"format": "cudatutor-progress", "version": 1, "last": {"lesson": "%s", "step": %d}, "lessons": {}, "results": []}\n' \
	    "$lesson" "$step" > "$XDG_STATE_HOME/cudatutor/progress.json"
	tm -f /dev/null new-session -d -s tutor -x "$cols" -y "$rows" "env $vars '$CUDATUTOR' $*"
}

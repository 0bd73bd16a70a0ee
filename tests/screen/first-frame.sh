#!/bin/sh
# How soon the tutor shows its first frame: from starting it to the lesson list on a tmux screen.
#
#   CUDATUTOR=build/cudatutor TMUX_BIN=$(command -v tmux) sh tests/screen/first-frame.sh
#
# Without a GPU (or with CUDATUTOR_NO_GPU=1, the default here) it prints the
# time to the first frame; with USE_GPU=1 on a GPU machine it also prints
# when the header first names the GPU, which comes later: the CUDA context
# is created off the screen's thread, after the first frame.
: "${CUDATUTOR:?set CUDATUTOR to the program}" "${TMUX_BIN:?set TMUX_BIN to tmux}"
runs=${RUNS:-5}
dir=$(mktemp -d "${TMPDIR:-/tmp}/cudatutor-frame.XXXXXX")
sock="$dir/tmux.sock"
trap '"$TMUX_BIN" -S "$sock" kill-server 2>/dev/null; sleep 0.2; rm -rf "$dir"' EXIT
if [ "${USE_GPU:-0}" = 1 ]; then
	gpu_env=""
else
	gpu_env="CUDATUTOR_NO_GPU=1"
fi

now_ms() { date +%s%N | cut -c1-13; }

# A terminal that is up before the clock starts: tmux's own start is not counted.
"$TMUX_BIN" -S "$sock" -f /dev/null new-session -d -s frame -x 80 -y 24 "sleep 600" || exit 1
times=""
gpu_times=""
for i in $(seq "$runs"); do
	t0=$(now_ms)
	"$TMUX_BIN" -S "$sock" respawn-pane -k -t frame \
	    "env XDG_STATE_HOME='$dir/state$i' LANG=C.UTF-8 $gpu_env '$CUDATUTOR'"
	first=""
	gpu=""
	while :; do
		"$TMUX_BIN" -S "$sock" capture-pane -p -t frame > "$dir/screen" 2>/dev/null
		t=$(now_ms)
		if [ -z "$first" ] && grep -q 'Lessons and their steps' "$dir/screen"; then
			first=$((t - t0))
			[ -z "$gpu_env" ] || break
		fi
		if [ -n "$first" ] && grep -q -e '● ' -e 'no GPU' "$dir/screen"; then
			gpu=$((t - t0))
			break
		fi
		if [ $((t - t0)) -gt 20000 ]; then
			echo "first-frame: nothing on the screen after 20 s:" >&2
			cat "$dir/screen" >&2
			exit 1
		fi
	done
	times="$times $first"
	[ -z "$gpu" ] || gpu_times="$gpu_times $gpu"
done
sorted=$(echo $times | tr ' ' '\n' | sort -n)
median=$(echo "$sorted" | sed -n "$(( (runs + 1) / 2 ))p")
echo "first frame: median $median ms, fastest $(echo "$sorted" | head -1) ms of $runs starts" \
    "(start to the list on an 80x24 tmux screen, polling included)"
if [ -n "$gpu_times" ]; then
	sorted=$(echo $gpu_times | tr ' ' '\n' | sort -n)
	echo "GPU named in the header: median $(echo "$sorted" | sed -n "$(( (runs + 1) / 2 ))p") ms" \
	    "(the CUDA context is created after the first frame)"
fi

#!/bin/sh
# --recorded never touches the GPU: under a driver that hangs when loaded (and marks that it was),
# run, metrics, roofs and sweep with --recorded answer without loading it; a live run does load
# it, which shows the mark works.
. "$(dirname "$0")/../lib/lib.sh"
T=$CUDATUTOR
hang="${CUDATUTOR_BUILDDIR:-.}/tests/lib/fake-cuda"
[ -f "$hang/libcuda.so.1" ] || { fail "no $hang/libcuda.so.1: make check builds it"; finish; }
unset CUDATUTOR_NO_GPU
mark="$tmp/driver-loaded"

# with_hanging_driver SECONDS COMMAND...: the command with a driver that hangs that long when
# loaded; the seconds it took in $took
with_hanging_driver() {
	seconds=$1
	shift
	rm -f "$mark"
	start=$(date +%s)
	LD_LIBRARY_PATH="$hang" CUDATUTOR_TEST_HANG=$seconds CUDATUTOR_TEST_LOADED="$mark" timeout 60 "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	took=$(($(date +%s) - start))
}

for c in "run reduction --recorded" "run vectorize --recorded --format json" "metrics reduction --recorded" \
    "roofs --recorded" "sweep vectorize --recorded" "run unrolling --recorded --step 2"; do
	with_hanging_driver 30 "$T" $c
	[ $rc -eq 0 ] || fail "$c: exit $rc: $(head -2 "$tmp/err")"
	[ ! -e "$mark" ] && echo "ok: $c never loads the driver" || fail "$c loaded the driver (it took $took s)"
	[ -s "$tmp/out" ] || fail "$c printed nothing"
done
# the control: a live run looks for the GPU, so it loads the driver (and waits for it)
with_hanging_driver 1 "$T" run reduction --step 1
[ -e "$mark" ] && echo "ok: a live run loads the driver (the mark works)" || fail "a live run did not load the driver: the test proves nothing"
finish

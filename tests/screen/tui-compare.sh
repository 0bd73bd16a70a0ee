#!/bin/sh
# o on the lesson screen: another GPU's recorded results beside the ones
# shown, step by step, as `cudatutor run --compare` prints them.  Without a
# GPU, A is the newest recording (what `run --recorded` takes) and B the
# other file of data/results; the figures expected are read from `run
# --compare` on the same two files, not written down here, so a new
# recording changes neither test.  In English and in Chinese, at 80x24 and
# 160x48: both GPUs named, the ratio of each step, "bandwidth" where it
# follows the copy bandwidth's ratio, headings over their numbers; o again
# gives the normal table back; a lesson the other GPU has no run of says so.
. "$(dirname "$0")/../lib/lib.sh"

. "$(dirname "$0")/../lib/tmux.sh"

# What the command line says of the two GPUs, as shell variables in $tmp/expect.
rc=0
python3 - "$CUDATUTOR" "$tmp/expect" <<'PY' || rc=$?
import glob, json, os, re, subprocess, sys
tutor, out = sys.argv[1:3]
run = lambda *a: subprocess.run([tutor, *a], capture_output=True, text=True)
shown = json.loads(run("run", "vectorize", "--recorded", "--format", "json").stdout)
a = shown["recorded"]["file"]
others = sorted(f for f in glob.glob(os.path.join(os.path.dirname(a), "*.json")) if f != a)
if not others:
    print("skip: one GPU recorded in data/results, nothing to compare with")
    sys.exit(77)
b = others[0]					# o goes through the files in name order
text = run("run", "vectorize", "--recorded=" + a, "--compare", b).stdout
short = lambda n: re.sub(r"^(NVIDIA )?(GeForce )?", "", n)
name = lambda who: short(re.search(r"^%s  (.*) \(sm_" % who, text, re.M).group(1))
ratio = re.search(r"B's copy bandwidth is ([0-9.]+)x A's", text).group(1)
rows = {m.group(1): (m.group(2), m.group(3) is not None)
        for m in re.finditer(r"^ +\d+  (\S+) +[0-9.]+ ms +[0-9.]+ ms +([0-9.]+)x( +bandwidth)?$", text, re.M)}
lessons = json.loads(run("list", "--format", "json").stdout)
# Down presses from the top of the list to a lesson: each lesson above and its steps
downs = lambda i: sum(1 + len(l["steps"]) for l in lessons[:i])
ids = [l["id"] for l in lessons]
# a lesson A has a run of and B has none of, at its size: what o then says
lack = next((l for l in ids if run("run", l, "--recorded=" + a).returncode == 0 and
             "has no run of lesson" in run("run", l, "--recorded=" + a, "--compare", b).stderr), "")
ere = lambda s: re.sub(r"([][.*+?(){}|^$\\])", r"\\\1", s)
with open(out, "w") as f:
    # each figure as the screen shows it, and as a pattern for grep -E (_RE)
    for k, v in {"A_NAME": name("A"), "B_NAME": name("B"), "COPY_RATIO": ratio,
                 "F4": rows["vec_add_float4"][0], "CH": rows["vec_add_char"][0]}.items():
        f.write("%s='%s'\n%s_RE='%s'\n" % (k, v, k, ere(v)))
    for k, v in {"F4_MARKED": int(rows["vec_add_float4"][1]), "CH_MARKED": int(rows["vec_add_char"][1]),
                 "VEC_DOWNS": downs(ids.index("vectorize")), "LACK": lack,
                 "LACK_DOWNS": downs(ids.index(lack)) if lack else 0}.items():
        f.write("%s='%s'\n" % (k, v))
PY
[ $rc -eq 77 ] && exit 77
[ $rc -eq 0 ] || { fail "cannot read the two GPUs from run --compare"; finish; }
. "$tmp/expect"
echo "A $A_NAME, B $B_NAME: copy ${COPY_RATIO}x; vec_add_float4 ${F4}x ($F4_MARKED), vec_add_char ${CH}x ($CH_MARKED)"
# the lesson's claim, on the GPUs recorded today: float4 moves bytes as fast as
# memory lets it, one char a thread does not
[ "$F4_MARKED" = 1 ] && [ "$CH_MARKED" = 0 ] && echo "ok: run --compare marks float4, not char" ||
	fail "run --compare: vec_add_float4 should follow the bandwidth ratio and vec_add_char not"

# down N: N rows down the lesson list.
down() {
	i=0
	while [ $i -lt "$1" ]; do tm send-keys -t tutor Down; i=$((i + 1)); done
}

# aligned HEAD_A HEAD_B HEAD_RATIO HEAD_FOLLOWS MARK: in the table on the
# screen, each time heading ends where the times under it end, the ratio's
# where the ratios end, "follows" starts where the mark starts (display
# columns: a Chinese character takes two); no kernel's name cut.
aligned() {
	screen > "$tmp/screen"
	python3 - "$tmp/screen" "$@" <<'PY' && echo "ok: $desc: the headings stand over their numbers" || fail "$desc: the table's columns do not line up"
import re, sys, unicodedata
cols = lambda s: sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
ha, hb, hr, hf, mark = sys.argv[2:7]
head = [l for l in lines if re.search(r" " + re.escape(hr) + " ", l)]
row = [l for l in lines if re.search(r"vec_add_float4 +\S+ ms", l)]
if not head or not row:
    sys.exit("no heading or no vec_add_float4 row")
head, row = head[0], row[0]
m = re.search(r"vec_add_float4 +(\S+ ms) +(\S+ ms) +(\S+×) +(\S+)", row)
if not m:
    sys.exit("the row of vec_add_float4 is not whole: " + row)
# the names head the times where they fit, else A and B (the title line names them)
if ha not in head:
    ha, hb = "A", "B"
k = head.index(hr)
at = head.rindex(ha, 0, head.rindex(hb, 0, k))
want = [cols(head[:at + len(ha)]), cols(head[:head.rindex(hb, 0, k) + len(hb)]), cols(head[:k + len(hr)]),
        cols(head[:head.index(hf, k)])]
got = [cols(row[:m.end(1)]), cols(row[:m.end(2)]), cols(row[:m.end(3)]), cols(row[:m.start(4)])]
if want != got or m.group(4) != mark:
    sys.exit("heading at %s, row at %s: %s / %s" % (want, got, head, row))
for l in lines:
    for m in re.finditer(r"\d+  (\S+) +\S+ ms", l):
        if not re.fullmatch(r"vec_add_[a-z]+[0-9]?", m.group(1)):
            sys.exit("a kernel's name cut: " + l)
PY
}

# compare LANG KERNEL_HEAD RATIO_HEAD FOLLOWS_HEAD MARK RESULTS_TITLE NO_RUN:
# the whole case, in one language, at both sizes.
compare() {
	lang=$1 kh=$2 hr=$3 hf=$4 mark=$5 title=$6 norun=$7
	tm kill-server 2> /dev/null
	sleep 0.1
	tm -f /dev/null new-session -d -s tutor -x 80 -y 24 \
	    "env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=C.UTF-8 XDG_STATE_HOME='$tmp/state-$lang' \
	    CUDATUTOR_NO_GPU=1 '$CUDATUTOR' --lang $lang; echo tutor-exit=\$?; sleep 30"
	for size in 80x24 160x48; do
		d="$lang $size"
		if [ $size = 160x48 ]; then
			tm resize-window -t tutor -x 160 -y 48
			keys Escape	# from the lesson to the list, where it stays chosen
		else
			wait_for "$d: the lesson list" '^ +1 +reduction ' > /dev/null
			down "$VEC_DOWNS"
		fi
		keys Enter
		wait_for "$d: vectorize opens" 'cudatutor › vectorize · '
		keys o
		wait_for "$d: o names both GPUs in the results' title" "─ A[:：] ?$A_NAME_RE.* ─ B[:：] ?$B_NAME_RE[,，]"
		on_screen "$d: and the ratio of their copy bandwidths, ${COPY_RATIO}×" "$COPY_RATIO_RE×"
		on_screen "$d: the table headed with B vs A" " $kh .* $hr +$hf"
		on_screen "$d: vec_add_float4 ${F4}×, following the bandwidth" \
		    "vec_add_float4 +[0-9.]+ ms +[0-9.]+ ms +$F4_RE× +$mark"
		on_screen "$d: vec_add_char ${CH}×, unmarked" "vec_add_char +[0-9.]+ ms +[0-9.]+ ms +$CH_RE× *$"
		desc=$d
		aligned "$A_NAME" "$B_NAME" "$hr" "$hf" "$mark"
		keys o
		wait_for "$d: o again, the normal table is back" "─ $title "
		not_on_screen "$d: and no B vs A" " $hr "
		on_screen "$d: vec_add_float4 as before" 'vec_add_float4 +·'
	done
	if [ -n "$LACK" ]; then
		keys Escape Home
		down "$LACK_DOWNS"
		keys Enter
		wait_for "$lang: $LACK opens" "cudatutor › $LACK · "
		keys o
		wait_for "$lang: o where B has no run of $LACK says so" "$norun"
		on_screen "$lang: and keeps the normal table" "─ $title "
		not_on_screen "$lang: with no B vs A" " $hr "
		keys o
		wait_for "$lang: o again, one GPU" '^ .*(One GPU again|回到一块 GPU)'
	else
		echo "ok: $lang: every lesson of A is recorded on B: no lesson without B's run to try"
	fi
	keys q
	wait_for "$lang: q quits" 'tutor-exit=0'
}

compare en kernel 'B vs A' follows bandwidth Results "The results recorded on $B_NAME_RE have no run of $LACK"

# A control step stays marked beside the other GPU, as in the results table (o dropped the mark).
tutor_at reduction 2 80 24
wait_for "the reduction's control step" 'Step 2 of [0-9]+'
keys o
wait_for "o beside the other GPU" "─ A[:：] ?$A_NAME_RE"
on_screen "the control step marked in it" '^ .? *2  reduce_neighbored_mask \(control\) +[0-9.]+ ms'
not_on_screen "and the step it tests not" 'reduce_neighbored \(control\)'
tm kill-server 2>/dev/null
if [ -f "$CUDATUTOR_BUILDDIR/locale/zh_CN/LC_MESSAGES/cudatutor.mo" ] &&
    locale -a 2> /dev/null | grep -q -i -x 'C\.UTF-\{0,1\}8'; then
	compare zh_CN 核函数 'B 比 A' 跟随 带宽 结果 "$B_NAME_RE 上记录的结果里没有 $LACK 的运行"
else
	echo "ok: no zh_CN catalog or no C.UTF-8 locale here: the Chinese half left out"
fi
finish

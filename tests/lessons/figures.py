#!/usr/bin/env python3
"""Every figure a lesson quotes from a recorded GPU is in that GPU's file.

    tests/lessons/figures.py SRCDIR [--update]

A paragraph that names one recorded GPU ("On the recorded H200", "已记录的
H200") quotes times, rates, percentages and ratios from
data/results/<gpu>.json.  Each number followed by a unit (ms, µs, GB/s,
GFLOP/s, TFLOP/s, %, "times", "x", 倍, or M and K for a counter's count,
as the metrics table writes it: 118.0M) must be, at the precision it is written
with, one of that file's values for the lesson: a step's field or counter,
a ratio of two of its times or of two of its counters, a difference of
two times or a spread in microseconds, the ratio of a time (or the copy
bandwidth) on one recorded GPU to another, or, for a paragraph that
reaches into another lesson or names another GPU, any lesson's value on
either.  Numbers after "about" (约) are approximations and are not
checked.

Each figure names the value it is: tests/lessons/figures.map holds, for
every figure (found by its lesson, the words before it with their numbers
blanked, and its unit), the label of the recorded value it was found to
be ("H200 reduction 16777216 reduce_interleaved median_ms").  The check
holds each figure to that one value, so that a wrong figure cannot pass
by meeting some other value by chance; a figure the map does not name is
an error.  `--update` rewrites the map from the lessons, naming for each
figure the first value it matches (a figure that matches none stays an
error).  Run it after adding or moving a figure, and read its diff.

Prints each number it cannot find, with its context; exits 1 if there is
any.  Of 60 figures picked at random and multiplied by 1.01, 1.03 and
1.10, the value search alone caught 44 at 1.03; with the map it catches
57, 58 and 60, every one the change does not round back to itself
(tests/lessons/figures-mutate.py measures it).  It first
found one figure rounded the wrong way (527.45 GB/s quoted as 528).
"""
import glob
import itertools
import json
import os
import re
import sys

root = sys.argv[1]
results = {}
for path in glob.glob(os.path.join(root, "data/results/*.json")):
    d = json.load(open(path))
    # "NVIDIA H200" -> "H200", as the lessons name them
    short = d["gpu"]["name"].replace("NVIDIA ", "").split()[0]
    results[short] = d


def kind_of(unit):
    if unit in ("ms",):
        return "ms"
    if unit in ("µs", "us"):
        return "us"
    if unit == "ns":
        return "ns"
    if unit == "GB/s":
        return "gbps"
    if unit == "GFLOP/s":
        return "gflops"
    if unit == "TFLOP/s":
        return "tflops"
    if unit in ("M", "K"):
        # a count as the metrics table writes it: 118.0M instructions, 15.2K conflicts
        return unit
    if unit == "%":
        return "pct"
    return "ratio"


def add_step(vals, tag, s, full):
    """A step's figures, by the unit they are quoted in: its table row, and where full
    (a step the paragraph is about) its quartiles, speedups and counters too.  Each
    value goes in with a label that says where it comes from."""
    def put(kind, v, field):
        vals[kind].append((v, "%s %s %s" % (tag, s["kernel"], field)))
        if kind == "gflops":
            vals["tflops"].append((v / 1000, "%s %s %s" % (tag, s["kernel"], field)))

    put("ms", s["median_ms"], "median_ms")
    put("us", s["median_ms"] * 1000, "median_ms")
    put("gbps", s.get("gbps", 0), "gbps")
    put("gflops", s.get("gflops", 0), "gflops")
    for k in ("pct_copy", "pct_library", "occupancy_pct"):
        put("pct", s.get(k, 0), k)
    # the step against the GPU's roof (the tensor lesson's %roof), where it has one
    for k in ("pct_of_roof", "pct_of_theoretical"):
        if isinstance(s.get(k), (int, float)):
            put("pct", s[k], k)
    # "vs prev", either way round ("the first doubling cost 1.78 times")
    put("ratio", s.get("speedup_prev", 0), "speedup_prev")
    if s.get("speedup_prev"):
        put("ratio", 1 / s["speedup_prev"], "1/speedup_prev")
    if not full:
        return
    for k in ("min_ms", "max_ms"):
        if k in s:
            put("ms", s[k], k)
    if "q1_ms" in s and "q3_ms" in s:
        put("us", (s["q3_ms"] - s["q1_ms"]) * 1000, "q3_ms-q1_ms")
    put("pct", s.get("spread_pct", 0), "spread_pct")
    # "vs 1st" and "vs prev", either way round ("1.78 times slower")
    put("ratio", s.get("speedup_first", 0), "speedup_first")
    if s.get("speedup_first"):
        put("ratio", 1 / s["speedup_first"], "1/speedup_first")
    for k, v in ((s.get("metrics") or {}).get("values") or {}).items():
        if not isinstance(v, (int, float)):
            continue
        # counters: percentages, and DRAM rates in GB/s
        if "pct" in k:
            put("pct", v, k)
        elif k.endswith("per_second"):
            put("gbps", v / 1e9, k)
        elif k.endswith(".sum"):
            put("M", v / 1e6, k)
            put("K", v / 1e3, k)


def kernels(lesson):
    return {s["kernel"] for d in results.values() for r in d["runs"] if r["lesson"] == lesson for s in r["steps"]}


def traffic(m):
    """Bytes read and written in device memory, where both were counted."""
    r, w = m.get("dram__bytes_read.sum"), m.get("dram__bytes_write.sum")
    return r + w if isinstance(r, (int, float)) and isinstance(w, (int, float)) else None


def lesson_values(gpu, lesson, focus=None):
    """The values of lesson (None: every lesson), each with its label; ratios and shares
    only of pairs with one of the kernels `focus` in them, where the paragraph belongs
    to a step's section."""
    d = results[gpu]
    vals = {k: [] for k in ("ms", "us", "ns", "gbps", "gflops", "tflops", "pct", "ratio", "M", "K")}
    vals["gbps"].append((d["copy_gbps"], "%s copy_gbps" % gpu))
    # the GPU's roofs: DRAM as measured, a load's latency (Little's law)
    roofs = d.get("roofs") or {}
    if isinstance(roofs.get("dram_measured_gbps"), (int, float)):
        vals["gbps"].append((roofs["dram_measured_gbps"], "%s roofs dram_measured_gbps" % gpu))
    for k in ("dram_latency_ns", "l2_latency_ns"):
        if isinstance(roofs.get(k), (int, float)):
            vals["ns"].append((roofs[k], "%s roofs %s" % (gpu, k)))
    # the GPU's roofs: the measured BF16 tensor ceiling and its spec
    for k in ("tensor_bf16_measured_gflops", "tensor_bf16_spec_gflops"):
        v = (d.get("roofs") or {}).get(k)
        if isinstance(v, (int, float)):
            vals["gflops"].append((v, "%s roofs %s" % (gpu, k)))
            vals["tflops"].append((v / 1000, "%s roofs %s" % (gpu, k)))
    for r in d["runs"]:
        if lesson is not None and r["lesson"] != lesson:
            continue
        tag = "%s %s %s" % (gpu, r["lesson"], r["size"])
        steps = [s for s in r["steps"] if s.get("ran")]
        for i, s in enumerate(steps):
            # a step the paragraph is about, or the one before it (what "vs prev" compares)
            near = focus is None or s["kernel"] in focus or (i + 1 < len(steps) and steps[i + 1]["kernel"] in focus)
            add_step(vals, tag, s, near)
        for a, b in itertools.permutations(steps, 2):
            if focus is not None and a["kernel"] not in focus and b["kernel"] not in focus:
                continue
            pair = "%s %s/%s" % (tag, a["kernel"], b["kernel"])
            t = a["median_ms"] / b["median_ms"]
            vals["ratio"].append((t, pair + " median_ms"))
            vals["pct"] += [(100 / t, pair + " 100/t"), (100 * (t - 1), pair + " 100*(t-1)"),
                            (100 * (1 - 1 / t), pair + " 100*(1-1/t)")]
            vals["us"].append((abs(a["median_ms"] - b["median_ms"]) * 1000, pair + " |difference|"))
            ma = (a.get("metrics") or {}).get("values") or {}
            mb = (b.get("metrics") or {}).get("values") or {}
            # counts quoted as "N times fewer instructions" or "N times the traffic"
            for k in ("smsp__inst_executed.sum", "dram__bytes_read.sum", "dram__bytes_write.sum", "traffic",
                      "sm__inst_executed_pipe_tensor_op_hmma.sum"):
                x, y = (traffic(m) if k == "traffic" else m.get(k) for m in (ma, mb))
                if isinstance(x, (int, float)) and isinstance(y, (int, float)) and y:
                    vals["ratio"].append((x / y, pair + " " + k))
    # the same step, and the copy bandwidth, on another recorded GPU
    for other, od in results.items():
        if other == gpu:
            continue
        vals["ratio"] += [(d["copy_gbps"] / od["copy_gbps"], "%s/%s copy_gbps" % (gpu, other)),
                          (od["copy_gbps"] / d["copy_gbps"], "%s/%s copy_gbps" % (other, gpu))]
        theirs = {(r["lesson"], r["size"], s["kernel"]): s["median_ms"]
                  for r in od["runs"] for s in r["steps"] if s.get("ran")}
        for r in d["runs"]:
            if lesson is not None and r["lesson"] != lesson:
                continue
            for s in r["steps"]:
                t = theirs.get((r["lesson"], r["size"], s["kernel"]))
                if s.get("ran") and t and (focus is None or s["kernel"] in focus):
                    pair = "%s/%s %s %s %s median_ms" % (gpu, other, r["lesson"], r["size"], s["kernel"])
                    vals["ratio"] += [(s["median_ms"] / t, pair), (t / s["median_ms"], pair + " inverse")]
    return vals


def found(text, vals):
    """The label of the first of vals (value, label) the figure matches, at the precision
    it is written with; None if none does."""
    x = float(text)
    if "." in text:
        tol = 0.5 * 10 ** -len(text.split(".")[1])
    else:
        # "3490": three significant figures, the rest zeros
        digits = len(text.lstrip("0")) or 1
        tol = 0.5 * 10 ** (digits - 3) if digits > 3 and text.endswith("0") else 0.5
    return next((label for v, label in vals if abs(v - x) <= tol * 1.0001), None)


def read_map(path):
    fields = {}
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            if line.strip() and not line.startswith("#"):
                key, label = line.rstrip("\n").rsplit("\t", 1)
                fields[key] = label
    return fields


UNIT = r"\s?(ms\b|µs|us\b|ns\b|GB/s|GFLOP/s|TFLOP/s|%|times\b|x\b|倍|M\b|K\b)"
NUMBER = re.compile(r"(?<![\w.^/])(?<!about )(?<!约 )(?<!约)(\d+(?:\.\d+)?)" + UNIT)
MARK = r"(?:recorded|已记录的) (?:NVIDIA )?(%s)"
MAP = os.path.join(root, "tests/lessons/figures.map")
fields = read_map(MAP)
update = "--update" in sys.argv[2:]
written = []

missing = checked = 0
for lang in ("en", "zh_CN"):
    for path in sorted(glob.glob(os.path.join(root, "lessons", lang, "*.md"))):
        lesson = re.sub(r"^\d+-", "", os.path.basename(path)[:-3])
        name = "%s/%s" % (lang, os.path.basename(path))
        seen = {}
        paragraphs = []
        for section in open(path).read().split("\n## "):
            # a step's section: its paragraphs speak of that step beside the others
            steps = set(re.findall(r"```step\nkernel: (\S+)", section))
            paragraphs += [(p, steps) for p in section.split("\n\n")]
        for para, steps in paragraphs:
            # and the kernels it names
            # (by name, or by its last part: "float2" for vec_add_float2)
            focus = None
            if steps:
                focus = steps | set(re.findall(r"`(\w+)`", para))
                focus |= {k for k in kernels(lesson) if re.search(r"(?<![\w.])%s(?!\w)" % re.escape(k.split("_")[-1]), para)}
            gpus = set(re.findall(MARK % "|".join(results), para))
            if len(gpus) != 1:
                continue
            gpu = gpus.pop()
            own = lesson_values(gpu, lesson, focus)
            anywhere = None
            for m in NUMBER.finditer(para):
                checked += 1
                kind = kind_of(m.group(2))
                # the figure's place: the words before it, its numbers blanked, and its unit
                before = re.sub(r"\d+(?:\.\d+)?", "#", " ".join(para[max(0, m.start() - 60):m.start()].split()))
                key = "%s\t%s\t%s" % (name, before, m.group(2))
                seen[key] = seen.get(key, 0) + 1
                if seen[key] > 1:
                    key += "\t%d" % seen[key]
                label = None if update else fields.get(key)
                if label is not None:
                    # the field this figure was found in: it must still hold the figure
                    pool = own[kind]
                    if label not in {l for _, l in pool}:
                        if anywhere is None:
                            anywhere = [lesson_values(g, None, focus) for g in results if g == gpu or g in para]
                        pool = [x for a in anywhere for x in a[kind]]
                    if found(m.group(1), [(v, l) for v, l in pool if l == label]):
                        continue
                    why = "is not %s" % label
                else:
                    label = found(m.group(1), own[kind])
                    if label is not None and sum(g in para for g in results) > 1:
                        # a paragraph that sets two GPUs side by side: a ratio is more likely theirs
                        label = found(m.group(1), [x for x in own[kind] if re.match(r"H\w+/H\w+ ", x[1])]) or label
                    if label is None:
                        if anywhere is None:
                            # any lesson; and a GPU the paragraph names beside it ("4.13 ms against 4.16")
                            anywhere = [lesson_values(g, None, focus) for g in results if g == gpu or g in para]
                        label = next((l for a in anywhere for l in [found(m.group(1), a[kind])] if l), None)
                    if label is not None and update:
                        written.append("%s\t%s" % (key, label))
                        continue
                    why = "is not in the recorded %s's file" % gpu if label is None else \
                        "has no field named in figures.map (run tests/lessons/figures.py SRCDIR --update)"
                missing += 1
                context = para[max(0, m.start() - 50):m.end() + 20].replace("\n", " ")
                print(f"{name}: {m.group(1)} {why}: ...{context}...")
if update:
    with open(MAP, "w", encoding="utf-8") as f:
        f.write("# Each figure a lesson quotes from a recorded GPU, by the words before it and its unit,\n"
                "# and the recorded value it is: written by tests/lessons/figures.py SRCDIR --update,\n"
                "# checked by tests/lessons/figures.py SRCDIR.\n")
        f.write("".join(w + "\n" for w in written))
print(f"{checked} figures checked, {missing} not found", file=sys.stderr)
sys.exit(1 if missing or checked == 0 else 0)

#!/usr/bin/env python3
"""Every figure a lesson quotes from a recorded GPU is in that GPU's file.

    tests/lessons/figures.py SRCDIR

A paragraph that names one recorded GPU ("On the recorded H200", "已记录的
H200") quotes times, rates, percentages and ratios from
data/results/<gpu>.json.  Each number followed by a unit (ms, µs, GB/s,
GFLOP/s, %, "times", "x", 倍) must be, at the precision it is written
with, one of that file's values for the lesson: a step's field or counter,
a ratio of two of its times or of two of its counters, a difference of
two times or a spread in microseconds, the ratio of a time (or the copy
bandwidth) on one recorded GPU to another, or, for a paragraph that
reaches into another lesson or names another GPU, any lesson's value on
either.  Numbers after "about"
(约) are approximations and are not checked.  Prints each number it
cannot find, with its context; exits 1 if there is any.

A paragraph in a step's section speaks of that step: only its own
quartiles, speedups and counters, and ratios of pairs with it (or with a
kernel the paragraph names) are taken, so that a wrong figure is less
likely to meet some other value by chance.  It still may: of 60 figures
picked at random and multiplied by 1.01, 1.03 and 1.10, this check caught
34, 41 and 49 (tests/lessons/figures-mutate.py measures it).  It first
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
    if unit == "GB/s":
        return "gbps"
    if unit == "GFLOP/s":
        return "gflops"
    if unit == "%":
        return "pct"
    return "ratio"


def add_step(vals, s, full):
    """A step's figures, by the unit they are quoted in: its table row, and where full
    (a step the paragraph is about) its quartiles, speedups and counters too."""
    vals["ms"].append(s["median_ms"])
    vals["us"].append(s["median_ms"] * 1000)
    vals["gbps"].append(s.get("gbps", 0))
    vals["gflops"].append(s.get("gflops", 0))
    vals["pct"] += [s.get(k, 0) for k in ("pct_copy", "pct_library", "occupancy_pct")]
    # "vs prev", either way round ("the first doubling cost 1.78 times")
    vals["ratio"] += [s.get("speedup_prev", 0)] + ([1 / s["speedup_prev"]] if s.get("speedup_prev") else [])
    if not full:
        return
    vals["ms"] += [s[k] for k in ("min_ms", "max_ms") if k in s]
    if "q1_ms" in s and "q3_ms" in s:
        vals["us"].append((s["q3_ms"] - s["q1_ms"]) * 1000)
    vals["pct"].append(s.get("spread_pct", 0))
    # "vs 1st" and "vs prev", either way round ("1.78 times slower")
    vals["ratio"] += [s.get(k, 0) for k in ("speedup_first", "speedup_prev")]
    vals["ratio"] += [1 / s[k] for k in ("speedup_first", "speedup_prev") if s.get(k)]
    for k, v in ((s.get("metrics") or {}).get("values") or {}).items():
        if not isinstance(v, (int, float)):
            continue
        # counters: percentages, and DRAM rates in GB/s
        if "pct" in k:
            vals["pct"].append(v)
        elif k.endswith("per_second"):
            vals["gbps"].append(v / 1e9)


def kernels(lesson):
    return {s["kernel"] for d in results.values() for r in d["runs"] if r["lesson"] == lesson for s in r["steps"]}


def traffic(m):
    """Bytes read and written in device memory, where both were counted."""
    r, w = m.get("dram__bytes_read.sum"), m.get("dram__bytes_write.sum")
    return r + w if isinstance(r, (int, float)) and isinstance(w, (int, float)) else None


def lesson_values(gpu, lesson, focus=None):
    """The values of lesson (None: every lesson); ratios and shares only of pairs with one
    of the kernels `focus` in them, where the paragraph belongs to a step's section."""
    d = results[gpu]
    vals = {k: [] for k in ("ms", "us", "gbps", "gflops", "pct", "ratio")}
    vals["gbps"].append(d["copy_gbps"])
    for r in d["runs"]:
        if lesson is not None and r["lesson"] != lesson:
            continue
        steps = [s for s in r["steps"] if s.get("ran")]
        for i, s in enumerate(steps):
            # a step the paragraph is about, or the one before it (what "vs prev" compares)
            near = focus is None or s["kernel"] in focus or (i + 1 < len(steps) and steps[i + 1]["kernel"] in focus)
            add_step(vals, s, near)
        for a, b in itertools.permutations(steps, 2):
            if focus is not None and a["kernel"] not in focus and b["kernel"] not in focus:
                continue
            vals["ratio"].append(a["median_ms"] / b["median_ms"])
            vals["pct"] += [100 * b["median_ms"] / a["median_ms"], 100 * (a["median_ms"] / b["median_ms"] - 1),
                            100 * (1 - b["median_ms"] / a["median_ms"])]
            vals["us"].append(abs(a["median_ms"] - b["median_ms"]) * 1000)
            ma = (a.get("metrics") or {}).get("values") or {}
            mb = (b.get("metrics") or {}).get("values") or {}
            # counts quoted as "N times fewer instructions" or "N times the traffic"
            for k in ("smsp__inst_executed.sum", "dram__bytes_read.sum", "dram__bytes_write.sum", "traffic"):
                x, y = (traffic(m) if k == "traffic" else m.get(k) for m in (ma, mb))
                if isinstance(x, (int, float)) and isinstance(y, (int, float)) and y:
                    vals["ratio"].append(x / y)
    # the same step, and the copy bandwidth, on another recorded GPU
    for other, od in results.items():
        if other == gpu:
            continue
        vals["ratio"] += [d["copy_gbps"] / od["copy_gbps"], od["copy_gbps"] / d["copy_gbps"]]
        theirs = {(r["lesson"], r["size"], s["kernel"]): s["median_ms"]
                  for r in od["runs"] for s in r["steps"] if s.get("ran")}
        for r in d["runs"]:
            if lesson is not None and r["lesson"] != lesson:
                continue
            for s in r["steps"]:
                t = theirs.get((r["lesson"], r["size"], s["kernel"]))
                if s.get("ran") and t and (focus is None or s["kernel"] in focus):
                    vals["ratio"] += [s["median_ms"] / t, t / s["median_ms"]]
    return vals


def found(text, vals):
    x = float(text)
    if "." in text:
        tol = 0.5 * 10 ** -len(text.split(".")[1])
    else:
        # "3490": three significant figures, the rest zeros
        digits = len(text.lstrip("0")) or 1
        tol = 0.5 * 10 ** (digits - 3) if digits > 3 and text.endswith("0") else 0.5
    return any(abs(v - x) <= tol * 1.0001 for v in vals)


UNIT = r" ?(ms\b|µs|us\b|GB/s|GFLOP/s|%|times\b|x\b|倍)"
NUMBER = re.compile(r"(?<![\w.^/])(?<!about )(?<!约 )(?<!约)(\d+(?:\.\d+)?)" + UNIT)
MARK = r"(?:recorded|已记录的) (?:NVIDIA )?(%s)"

missing = checked = 0
for lang in ("en", "zh_CN"):
    for path in sorted(glob.glob(os.path.join(root, "lessons", lang, "*.md"))):
        lesson = re.sub(r"^\d+-", "", os.path.basename(path)[:-3])
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
                if found(m.group(1), own[kind]):
                    continue
                if anywhere is None:
                    # any lesson; and a GPU the paragraph names beside it ("4.13 ms against 4.16")
                    anywhere = [lesson_values(g, None, focus) for g in results if g == gpu or g in para]
                if any(found(m.group(1), a[kind]) for a in anywhere):
                    continue
                missing += 1
                context = para[max(0, m.start() - 50):m.end() + 20].replace("\n", " ")
                print(f"{lang}/{os.path.basename(path)}: {m.group(1)} is not in the recorded {gpu}'s file: ...{context}...")
print(f"{checked} figures checked, {missing} not found", file=sys.stderr)
sys.exit(1 if missing or checked == 0 else 0)

#!/usr/bin/env python3
"""Every figure a lesson quotes is a recorded value, or a constant the map names.

    tests/lessons/figures.py SRCDIR [--update [LESSON] | --rewrite LESSON]

The figures: every number in a lesson (both languages) followed by a unit:
ms, µs, ns, GB/s, TB/s, GFLOP/s, TFLOP/s, %, "times", "x", 倍, M and K for
a counter's count as the metrics table writes it (118.0M), "million" (and
万, 亿 in Chinese) for one written out, "registers" (个寄存器) for a
kernel's registers, "per load", "passes" and "wavefronts" (趟, 个
wavefront) for a shared load's passes and conflicts per instruction, and
bytes as MB, KB, GB (powers of ten) or MiB, KiB, GiB (powers of two)
after a space.
Not checked: numbers after "about" (约), which are approximations; a size
"32 x 32" (an "x" followed by a number); code (fenced blocks and `inline`
spans); a byte unit with no space before it ("H100 80GB", a GPU's name);
"bytes" spelt out (4 bytes, 128 bytes: sizes the text explains).

Each figure names the value it is: tests/lessons/figures.map holds, for
every figure (found by its lesson, the 60 characters before it with their
numbers blanked, and its unit), the label of that value, and the check
holds the figure to that one value at the precision it is written with,
so that a wrong figure cannot pass by meeting some other value by chance.
A label is either

- a recorded value of data/results/<gpu>.json ("H200 reduction 16777216
  reduce_interleaved median_ms"): a step's field or counter (the figures
  derived from its measurements, GB/s, %copy, %roof, speedups, as the
  tutor derives them: `cudatutor run --recorded`); a ratio of
  two of a run's times or counters, a difference of two times, a share;
  a step's time or the copy bandwidth on one GPU against another; the
  GPU's roofs and L2 size; Little's law, the bytes that must be in
  flight, computed from the roofs: "H200 roofs
  dram_measured_gbps*dram_latency_ns" (and "/sm_count" per
  multiprocessor); a step's rate against the FP32 ceiling, for runs
  recorded before the roofs ("... gflops/fp32_measured_gflops"); bytes
  read and written in device memory
  (dram__bytes_*.sum, and "traffic", their sum), in whichever of the
  byte units the figure is written; or
- a constant the text computes, written "= EXPR (what it is)", where EXPR
  is arithmetic (+ - * / ** and parentheses) in the figure's unit:
  "= 2**26*4/2**20 (2^26 floats of 4 bytes, in MiB)".  For a figure that
  is no recorded value on any GPU: a size, a count the source fixes.

A figure the map does not name, or whose value no longer holds, is an
error.  `--update` rewrites the map: it keeps every label that still
holds and looks up a label for each figure that has none (or one that no
longer holds); `--update LESSON` (a lesson's file name without .md, e.g.
10-tensor-cores) looks up afresh every figure of that lesson, in both
languages (keeping its constants that still hold), and leaves the other
lessons' labels as they are: the way to re-map one lesson after it is
recorded or rewritten again.  Read the diff: the lookup takes the first
value that matches, which may be the wrong one where two values round
alike; correct such a label by hand in the map (--update keeps it while
it holds).  A figure no recorded value matches stays an error until its
label, a constant, is written in the map by hand.

After a lesson is recorded again, `--rewrite LESSON` writes each of its
figures anew from the recorded files, in both languages, at the
precision it is written with, through the label the map gives it: the
figures follow the recording, and the author reads again the sentences
that compare them.  Re-map a lesson whose text changed (`--update`)
before rewriting it, since a wrong label writes a wrong figure.

The lookup attributes each figure to a GPU: the one named nearest before
it in its sentence; else the paragraph's ("On the recorded H200", else
the first it names); else the one named last in the paragraphs before;
else the lesson's first.  It searches that GPU's values for the lesson,
where the paragraph belongs to a step's section only ratios and shares
with one of the steps the paragraph names in them (a paragraph naming
two GPUs prefers ratios of one to the other); then the other GPUs' for
the lesson; then every lesson's on every GPU.

Prints each figure it cannot find, with its context; exits 1 if there is
any.  tests/lessons/figures-mutate.py measures how many wrong figures it
catches: of 60 of the English figures picked at random and multiplied by
1.01, 1.03 and 1.10 it catches 55, 59 and 60, every one the change does
not round back to itself (and 194 of 200 at 1.03, the same).  Before
the map it caught 44 of 60 at 1.03, and it once found a figure rounded
the wrong way (527.45 GB/s quoted as 528).
"""
import functools
import glob
import hashlib
import itertools
import json
import os
import subprocess
import re
import sys

# bytes per unit, as the lessons write sizes
BYTES = {"KB": 1e3, "MB": 1e6, "GB": 1e9, "KiB": 2 ** 10, "MiB": 2 ** 20, "GiB": 2 ** 30}
KINDS = ("ms", "us", "ns", "gbps", "tbps", "gflops", "tflops", "pct", "ratio", "M", "K", "wan", "yi",
         "regs", "perload") + tuple(BYTES)
# bytes after a space: "80GB" is a GPU's name
UNIT = (r"(?:\s?(ms\b|µs|us\b|ns\b|GB/s|TB/s|GFLOP/s|TFLOP/s|%|times\b|x\b(?!\s*[\d(])|倍|M\b|K\b|万|亿)"
        r"|\s(MB\b|KB\b|GB\b|MiB\b|KiB\b|GiB\b|million\b|registers\b|个寄存器|per load\b|passes\b"
        r"|wavefronts\b|个 wavefront|趟))")
# not part of a word or a power (2^-24); not an approximation
NUMBER = re.compile(r"(?<![\w.^/-])(?<!about )(?<!约 )(?<!约)(\d+(?:\.\d+)?)" + UNIT)
CONSTANT = re.compile(r"= ([\d.+\-*/() ]+?)(?: \(.*\))?$")


def program(root):
    """The tutor that derives the figures: $CUDATUTOR (make check's), else the build tree's."""
    for path in (os.environ.get("CUDATUTOR"), os.path.join(root, "build", "cudatutor")):
        if path and os.access(path, os.X_OK):
            return path
    sys.exit("figures.py: no cudatutor to derive the figures with: build it (make), or set CUDATUTOR")


def derive(root, path, d):
    """Each step's derived figures (GB/s, %copy, %roof, speedups...), as the tutor shows them:
    a results file keeps only what was measured, and the tutor derives the rest on load."""
    sizes = {}
    for r in d["runs"]:
        sizes.setdefault(r["size"], set()).add(r["lesson"])
    tutor = program(root)
    # FIGURES_DERIVED_CACHE: a folder that keeps what the tutor derived, by the file and the
    # program it came from, for a caller that runs the check many times (figures-mutate.py)
    cache = os.environ.get("FIGURES_DERIVED_CACHE")
    kept = None
    if cache:
        key = hashlib.sha1(open(path, "rb").read() + open(tutor, "rb").read()).hexdigest()
        kept = os.path.join(cache, key + ".json")
    if kept and os.path.exists(kept):
        by_size = json.load(open(kept))
    else:
        env = dict(os.environ, CUDATUTOR_NO_GPU="1", LANG="C")
        by_size = {}
        for size, lessons in sizes.items():
            out = subprocess.run([tutor, "run"] + sorted(lessons) + ["--recorded=" + path, "--size", str(size),
                                 "--format", "json"], env=env, capture_output=True, text=True)
            if out.returncode != 0:
                sys.exit("figures.py: cudatutor run %s --recorded=%s failed: %s" % (" ".join(sorted(lessons)),
                         path, out.stderr.strip()))
            shown = json.loads(out.stdout)
            by_size[str(size)] = shown if isinstance(shown, list) else [shown]
        if kept:
            os.makedirs(cache, exist_ok=True)
            json.dump(by_size, open(kept, "w"))
    for reports in by_size.values():
        for rep in reports:
            for r in d["runs"]:
                if r["lesson"] != rep["lesson"] or r["size"] != rep["size"]:
                    continue
                for s, t in zip(r["steps"], rep["steps"]):
                    assert s["kernel"] == t["kernel"], (path, r["lesson"], s["kernel"], t["kernel"])
                    for k, v in t.items():
                        s.setdefault(k, v)


def load(root):
    results = {}
    for path in sorted(glob.glob(os.path.join(root, "data/results/*.json"))):
        d = json.load(open(path))
        derive(root, path, d)
        # "NVIDIA H200" -> "H200", as the lessons name them
        results[d["gpu"]["name"].replace("NVIDIA ", "").split()[0]] = d
    return results


def kind_of(unit):
    kinds = {"ms": "ms", "µs": "us", "us": "us", "ns": "ns", "GB/s": "gbps", "TB/s": "tbps",
             "GFLOP/s": "gflops", "TFLOP/s": "tflops", "%": "pct", "M": "M", "K": "K", "million": "M",
             "万": "wan", "亿": "yi", "registers": "regs", "个寄存器": "regs", "per load": "perload",
             "passes": "perload", "wavefronts": "perload", "个 wavefront": "perload", "趟": "perload"}
    # M and K: a count as the metrics table writes it (118.0M instructions, 15.2K conflicts)
    return unit if unit in BYTES else kinds.get(unit, "ratio")


def put(vals, kind, v, label):
    """A value under its label, in every unit it may be quoted in."""
    vals[kind].append((v, label))
    if kind == "gflops":
        vals["tflops"].append((v / 1000, label))
    elif kind == "gbps":
        vals["tbps"].append((v / 1000, label))


def put_bytes(vals, v, label):
    """A size in bytes, in every unit it may be quoted in."""
    for unit, size in BYTES.items():
        vals[unit].append((v / size, label))


def new_values():
    return {k: [] for k in KINDS}


def add_step(vals, tag, s, full):
    """A step's figures, by the unit they are quoted in: its table row, and where full
    (a step the paragraph is about) its quartiles, speedups and counters too.  Each
    value goes in with a label that says where it comes from."""
    def field(kind, v, name):
        label = "%s %s %s" % (tag, s["kernel"], name)
        put_bytes(vals, v, label) if kind == "bytes" else put(vals, kind, v, label)

    field("ms", s["median_ms"], "median_ms")
    if s.get("registers"):
        field("regs", s["registers"], "registers")
    field("us", s["median_ms"] * 1000, "median_ms")
    field("gbps", s.get("gbps", 0), "gbps")
    field("gflops", s.get("gflops", 0), "gflops")
    for k in ("pct_copy", "pct_library", "occupancy_pct"):
        field("pct", s.get(k, 0), k)
    # the step against the GPU's roof (the tensor lesson's %roof), where it has one
    for k in ("pct_of_roof", "pct_of_theoretical"):
        if isinstance(s.get(k), (int, float)):
            field("pct", s[k], k)
    # "vs prev", either way round ("the first doubling cost 1.78 times")
    field("ratio", s.get("speedup_prev", 0), "speedup_prev")
    if s.get("speedup_prev"):
        field("ratio", 1 / s["speedup_prev"], "1/speedup_prev")
    if not full:
        return
    for k in ("min_ms", "max_ms"):
        if k in s:
            field("ms", s[k], k)
    if "q1_ms" in s and "q3_ms" in s:
        field("us", (s["q3_ms"] - s["q1_ms"]) * 1000, "q3_ms-q1_ms")
    field("pct", s.get("spread_pct", 0), "spread_pct")
    # "vs 1st" and "vs prev", either way round ("1.78 times slower")
    field("ratio", s.get("speedup_first", 0), "speedup_first")
    if s.get("speedup_first"):
        field("ratio", 1 / s["speedup_first"], "1/speedup_first")
    m = (s.get("metrics") or {}).get("values") or {}
    for k, v in m.items():
        if not isinstance(v, (int, float)):
            continue
        # counters: percentages, DRAM rates in GB/s, counts, and bytes in MB or MiB
        if "pct" in k:
            field("pct", v, k)
        elif k.endswith("per_second"):
            field("gbps", v / 1e9, k)
        elif k.endswith(".sum"):
            field("M", v / 1e6, k)
            field("K", v / 1e3, k)
            # in Chinese: 万 (ten thousand) and 亿 (a hundred million)
            field("wan", v / 1e4, k)
            field("yi", v / 1e8, k)
            if "bytes" in k:
                field("bytes", v, k)
    if traffic(m) is not None:
        field("bytes", traffic(m), "traffic")
    # a shared load's passes (wavefronts) and bank conflicts, each per load instruction
    ld = m.get("smsp__sass_inst_executed_op_shared_ld.sum")
    if isinstance(ld, (int, float)) and ld > 0:
        for k in ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"):
            if isinstance(m.get(k), (int, float)):
                field("perload", m[k] / ld, k + "/smsp__sass_inst_executed_op_shared_ld.sum")


def kernels(results, lesson):
    return {s["kernel"] for d in results.values() for r in d["runs"] if r["lesson"] == lesson for s in r["steps"]}


def traffic(m):
    """Bytes read and written in device memory, where both were counted."""
    r, w = m.get("dram__bytes_read.sum"), m.get("dram__bytes_write.sum")
    return r + w if isinstance(r, (int, float)) and isinstance(w, (int, float)) else None


def gpu_values(vals, gpu, d):
    """The GPU's own figures: its copy bandwidth, its roofs, its L2."""
    vals["gbps"].append((d["copy_gbps"], "%s copy_gbps" % gpu))
    roofs = d.get("roofs") or {}
    bw, lat, sms = (roofs.get(k) for k in ("dram_measured_gbps", "dram_latency_ns", "sm_count"))
    if all(isinstance(v, (int, float)) for v in (bw, lat, sms)):
        # Little's law: the bytes that must be in flight (GB/s times ns are bytes), for the
        # GPU and for each multiprocessor
        put_bytes(vals, bw * lat, "%s roofs dram_measured_gbps*dram_latency_ns" % gpu)
        put_bytes(vals, bw * lat / sms, "%s roofs dram_measured_gbps*dram_latency_ns/sm_count" % gpu)
    # DRAM as measured first: where a figure matches two roofs, it is most likely that one
    for k in sorted(roofs, key=lambda k: k != "dram_measured_gbps"):
        v = roofs[k]
        if not isinstance(v, (int, float)):
            continue
        label = "%s roofs %s" % (gpu, k)
        if k.endswith("_gbps"):
            put(vals, "gbps", v, label)
        elif k.endswith("_gflops"):
            put(vals, "gflops", v, label)
        elif k.endswith("_ns"):
            put(vals, "ns", v, label)
        elif k.startswith("bytes_"):
            # the same, as roofs computed it
            put_bytes(vals, v, label)
    for k in ("l2_bytes", "memory_bytes"):
        if isinstance(d["gpu"].get(k), (int, float)):
            put_bytes(vals, d["gpu"][k], "%s gpu %s" % (gpu, k))


def run_pairs(vals, tag, steps, focus):
    """Ratios, shares and differences of two steps of a run."""
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
                # "8% more instructions"
                vals["pct"].append((100 * (x / y - 1), pair + " " + k + " 100*(r-1)"))


def lesson_values(results, gpu, lesson, focus=None):
    """The values of lesson (None: every lesson), each with its label; ratios and shares
    only of pairs with one of the kernels `focus` in them, where the paragraph belongs
    to a step's section."""
    d = results[gpu]
    vals = new_values()
    gpu_values(vals, gpu, d)
    for r in d["runs"]:
        if lesson is not None and r["lesson"] != lesson:
            continue
        tag = "%s %s %s" % (gpu, r["lesson"], r["size"])
        steps = [s for s in r["steps"] if s.get("ran")]
        for i, s in enumerate(steps):
            # a step the paragraph is about, or the one before it (what "vs prev" compares)
            near = focus is None or s["kernel"] in focus or (i + 1 < len(steps) and steps[i + 1]["kernel"] in focus)
            add_step(vals, tag, s, near)
            # the step against the GPU's FP32 ceiling, where its run was recorded before the
            # roofs were and so stores no pct_of_roof ("65.8% of that ceiling")
            for k in ("fp32_measured_gflops", "fp32_theoretical_gflops"):
                roof = (d.get("roofs") or {}).get(k)
                if isinstance(roof, (int, float)) and s.get("gflops"):
                    put(vals, "pct", 100 * s["gflops"] / roof, "%s %s gflops/%s" % (tag, s["kernel"], k))
        run_pairs(vals, tag, steps, focus)
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


def constant(label):
    """The value of a constant's label ("= 8*2048/1e3 (...)"), or None for a recorded value's."""
    m = CONSTANT.match(label)
    return eval(m.group(1), {"__builtins__": {}}) if m else None


def read_map(path):
    fields = {}
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            if line.strip() and not line.startswith("#"):
                key, label = line.rstrip("\n").rsplit("\t", 1)
                fields[key] = label
    return fields


def paragraphs(text):
    """A lesson's paragraphs, each with the steps of the section it is in."""
    out = []
    for section in text.split("\n## "):
        # a step's section: its paragraphs speak of that step beside the others
        steps = set(re.findall(r"```step\nkernel: (\S+)", section))
        out += [(p, steps) for p in section.split("\n\n")]
    return out


def masked(para):
    """The paragraph with its code blanked, at the same offsets."""
    blank = lambda m: re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r"`[^`\n]*`", blank, re.sub(r"```.*?(?:```|$)", blank, para, flags=re.S))


def attribute(para, pos, names, marks, before):
    """The GPU a figure at pos is quoted for: named nearest before it in its sentence,
    else the paragraph's, else `before` (named last in the paragraphs before it)."""
    start = max(para.rfind(s, 0, pos) for s in (". ", ".\n", "。", "；", "! ", "? "))
    near = names.findall(para, start + 1, pos)
    if near:
        return near[-1]
    return (marks.findall(para) or names.findall(para) or [before])[0]


def figures(root, results, lang):
    """Each figure of each lesson in lang: a dict of its lesson, file name, key in the map,
    number, unit, GPU, paragraph, the steps the paragraph is about, its offsets in the
    paragraph, and the lesson's path and the number's offset in it."""
    gpus = "|".join(results)
    names = re.compile(r"(?<!\w)(%s)(?!\d)" % gpus)
    marks = re.compile(r"(?:recorded|已记录的)\s+(?:NVIDIA\s+)?(%s)" % gpus)
    for path in sorted(glob.glob(os.path.join(root, "lessons", lang, "*.md"))):
        text = open(path, encoding="utf-8").read()
        lesson = re.sub(r"^\d+-", "", os.path.basename(path)[:-3])
        name = "%s/%s" % (lang, os.path.basename(path))
        last = (names.findall(text) or sorted(results))[0]
        seen = {}
        at = 0
        for para, steps in paragraphs(text):
            at = text.find(para, at)
            for m in NUMBER.finditer(masked(para)):
                unit = m.group(2) or m.group(3)
                # the figure's place: the words before it, its numbers blanked, and its unit
                before = re.sub(r"\d+(?:\.\d+)?", "#", " ".join(para[max(0, m.start() - 60):m.start()].split()))
                key = "%s\t%s\t%s" % (name, before, unit)
                seen[key] = seen.get(key, 0) + 1
                if seen[key] > 1:
                    key += "\t%d" % seen[key]
                yield {"lesson": lesson, "file": os.path.basename(path)[:-3], "name": name, "key": key,
                       "text": m.group(1), "kind": kind_of(unit), "gpu": attribute(para, m.start(), names, marks, last),
                       "para": para, "steps": steps, "start": m.start(), "end": m.end(), "path": path,
                       "offset": at + m.start(1)}
            last = (names.findall(para) or [last])[-1]


class Values:
    """Every recorded value by its label, and the lookup of a figure's label."""

    def __init__(self, results):
        self.results = results
        self.table = {}
        for g in results:
            for kind, vals in lesson_values(results, g, None).items():
                for v, label in vals:
                    self.table.setdefault((kind, label), []).append(v)

    def holds(self, f, label):
        c = constant(label)
        vals = [c] if c is not None else self.table.get((f["kind"], label), [])
        return found(f["text"], [(v, label) for v in vals]) is not None

    @functools.lru_cache(maxsize=None)
    def of(self, gpu, lesson, focus):
        return lesson_values(self.results, gpu, lesson, None if focus is None else set(focus))

    def lookup(self, f):
        """The label of the first value the figure matches, searched as the docstring says."""
        para, kind, text = f["para"], f["kind"], f["text"]
        focus = None
        if f["steps"]:
            # the step's section, and the kernels it names (by name, or by its last part:
            # "float2" for vec_add_float2)
            focus = f["steps"] | set(re.findall(r"`(\w+)`", para))
            focus |= {k for k in kernels(self.results, f["lesson"])
                      if re.search(r"(?<![\w.])%s(?!\w)" % re.escape(k.split("_")[-1]), para)}
            focus = frozenset(focus)
        own = self.of(f["gpu"], f["lesson"], focus)[kind]
        label = found(text, own)
        if label is not None and sum(g in para for g in self.results) > 1:
            # a paragraph that sets two GPUs side by side: a ratio is more likely theirs
            label = found(text, [x for x in own if re.match(r"H\w+/H\w+ ", x[1])]) or label
        others = [g for g in self.results if g != f["gpu"]]
        for g, lesson in [(g, f["lesson"]) for g in others] + [(g, None) for g in [f["gpu"]] + others]:
            if label is None:
                label = found(text, self.of(g, lesson, focus)[kind])
        return label


def rewrite(root, lesson):
    """Write each figure of lesson (its file name, both languages) anew from the recorded
    files, at the precision it is written with, through its label in figures.map: after
    the lesson is recorded again.  Constants and unnamed figures stay as they are; the
    sentences around the figures are the author's to read again."""
    results = load(root)
    values = Values(results)
    fields = read_map(os.path.join(root, "tests/lessons/figures.map"))
    changed = 0
    for lang in ("en", "zh_CN"):
        figs = [f for f in figures(root, results, lang) if f["file"] == lesson]
        if not figs:
            continue
        text = open(figs[0]["path"], encoding="utf-8").read()
        for f in sorted(figs, key=lambda f: -f["offset"]):
            label = fields.get(f["key"])
            vals = values.table.get((f["kind"], label)) if label and constant(label) is None else None
            if not vals:
                continue
            t = f["text"]
            new = format(vals[0], ".%df" % len(t.split(".")[1])) if "." in t else str(int(round(vals[0])))
            if new != t:
                text = text[:f["offset"]] + new + text[f["offset"] + len(t):]
                changed += 1
        with open(figs[0]["path"], "w", encoding="utf-8") as out:
            out.write(text)
    print("%d figures of %s written anew" % (changed, lesson), file=sys.stderr)
    return 0


def main():
    root = sys.argv[1]
    args = sys.argv[2:]
    if "--rewrite" in args:
        return rewrite(root, args[args.index("--rewrite") + 1])
    update = "--update" in args
    only = args[args.index("--update") + 1] if update and len(args) > args.index("--update") + 1 else None
    results = load(root)
    values = Values(results)
    path = os.path.join(root, "tests/lessons/figures.map")
    fields = read_map(path)
    written = []
    missing = checked = 0
    every = [f for lang in ("en", "zh_CN") for f in figures(root, results, lang)]
    if only is not None and only not in {f["file"] for f in every}:
        sys.exit("figures.py: no lesson %s with figures in %s/lessons" % (only, root))
    for f in every:
        checked += 1
        label = fields.get(f["key"])
        stale = label is None or not values.holds(f, label)
        if update and (stale and only is None or f["file"] == only and (stale or constant(label) is None)):
            label = values.lookup(f)
            why = "is no value recorded on any GPU (name it in figures.map: = EXPR (what it is))"
        elif label is None:
            why = "is not named in figures.map (run tests/lessons/figures.py SRCDIR --update)"
        else:
            why = "is not %s" % label
        if label is not None:
            if update:
                written.append("%s\t%s" % (f["key"], label))
            if values.holds(f, label):
                continue
        missing += 1
        context = f["para"][max(0, f["start"] - 50):f["end"] + 20].replace("\n", " ")
        print("%s: %s %s: ...%s..." % (f["name"], f["text"], why, context))
    if update:
        with open(path, "w", encoding="utf-8") as out:
            out.write("# Each figure a lesson quotes, by the words before it and its unit, and the\n"
                      "# recorded value it is (or \"= EXPR (what it is)\" for a constant): written by\n"
                      "# tests/lessons/figures.py SRCDIR --update, checked by tests/lessons/figures.py SRCDIR.\n")
            out.write("".join(w + "\n" for w in written))
    print("%d figures checked, %d not found" % (checked, missing), file=sys.stderr)
    return 1 if missing or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())

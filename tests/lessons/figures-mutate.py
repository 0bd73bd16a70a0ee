#!/usr/bin/env python3
"""How often figures.py catches a wrong figure.

    tests/lessons/figures-mutate.py SRCDIR [FACTOR [SAMPLES]]

Picks SAMPLES (default 60) of the figures the English lessons quote from a
recorded GPU, at random (seed 1), multiplies each in turn by FACTOR
(default 1.03) at the precision it is written with, runs figures.py on the
changed tree, puts the lesson back, and counts the changes it caught.
Run it by hand after changing figures.py; it edits lessons/ while it runs.
"""
import glob
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

root = sys.argv[1]
factor = float(sys.argv[2]) if len(sys.argv) > 2 else 1.03
samples = int(sys.argv[3]) if len(sys.argv) > 3 else 60
checker = os.path.join(root, "tests/lessons/figures.py")
NUMBER = re.compile(r"(?<![\w.^/])(?<!about )(\d+(?:\.\d+)?)(?=\s?(?:ms\b|µs|us\b|GB/s|GFLOP/s|TFLOP/s|%|times\b|x\b|M\b|K\b))")

cases = []
for path in sorted(glob.glob(os.path.join(root, "lessons/en/*.md"))):
    text = open(path).read()
    for m in NUMBER.finditer(text):
        para = text[text.rfind("\n\n", 0, m.start()):text.find("\n\n", m.end())]
        if re.search(r"recorded (NVIDIA )?H[0-9]+", para):
            cases.append((path, m.start(1), m.group(1)))
random.seed(1)
picked = random.sample(cases, min(samples, len(cases)))
saved = tempfile.mktemp()
caught = 0
for path, pos, num in picked:
    text = open(path).read()
    dec = len(num.split(".")[1]) if "." in num else 0
    new = "%.*f" % (dec, float(num) * factor)
    if new == num:
        continue
    shutil.copy(path, saved)
    try:
        open(path, "w").write(text[:pos] + new + text[pos + len(num):])
        r = subprocess.run([sys.executable, checker, root], capture_output=True)
    finally:
        shutil.copy(saved, path)
    caught += r.returncode != 0
    if r.returncode == 0:
        print("missed: %s %s -> %s" % (os.path.basename(path), num, new))
os.unlink(saved)
print("caught %d of %d figures multiplied by %g" % (caught, len(picked), factor))

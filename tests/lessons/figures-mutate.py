#!/usr/bin/env python3
"""How often figures.py catches a wrong figure.

    tests/lessons/figures-mutate.py SRCDIR [FACTOR [SAMPLES]]

Picks SAMPLES (default 60) of the figures figures.py checks in the English
lessons, at random (seed 1), multiplies each in turn by FACTOR (default
1.03) at the precision it is written with, runs figures.py on the changed
tree, puts the lesson back, and counts the changes it caught (a change
that rounds back to the figure itself is not counted).  It edits
lessons/ while it runs: tests/lessons/figures.sh runs it on a copy, 12
figures at 1.03, every changed figure caught its pass mark (with
FIGURES_DERIVED_CACHE set, so that the tutor derives the recorded
figures once, not for each run of figures.py).
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile

root = sys.argv[1]
factor = float(sys.argv[2]) if len(sys.argv) > 2 else 1.03
samples = int(sys.argv[3]) if len(sys.argv) > 3 else 60
here = os.path.join(root, "tests/lessons")
sys.path.insert(0, here)
import figures  # noqa: E402

checker = os.path.join(here, "figures.py")
cases = [(f["path"], f["offset"], f["text"]) for f in figures.figures(root, figures.load(root), "en")]
random.seed(1)
picked = random.sample(cases, min(samples, len(cases)))
saved = tempfile.mktemp()
caught = changed = 0
for path, pos, num in picked:
    text = open(path, encoding="utf-8").read()
    assert text[pos:pos + len(num)] == num
    dec = len(num.split(".")[1]) if "." in num else 0
    new = "%.*f" % (dec, float(num) * factor)
    if new == num:
        continue
    changed += 1
    shutil.copy(path, saved)
    try:
        open(path, "w", encoding="utf-8").write(text[:pos] + new + text[pos + len(num):])
        r = subprocess.run([sys.executable, checker, root], capture_output=True)
    finally:
        shutil.copy(saved, path)
    caught += r.returncode != 0
    if r.returncode == 0:
        print("missed: %s %s -> %s" % (os.path.basename(path), num, new))
os.unlink(saved)
print("caught %d of %d figures multiplied by %g (%d changed by it)" % (caught, len(picked), factor, changed))

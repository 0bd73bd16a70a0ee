#!/usr/bin/env python3
"""Every lesson reads as teaching, not as a log of measurements.

    tests/lessons/readability.py SRCDIR [LESSON...]

For each lesson (both languages; LESSON: a file name without .md, e.g.
01-reduction; none: every lesson):

- figures: at most one per 60 words of the English prose (figures as
  figures.py finds them; words: the prose's whitespace-separated tokens,
  code blocks and HTML comments left out); the Chinese lesson, which says
  the same things, is held to the English one's words (its "2 倍" is a
  figure where the English "twice" is not, so a few more are allowed
  within the same density);
- sentences: at most 3 of more than 40 words per 1,000 words (English);
- a picture: a fenced block marked `picture`, no line wider than 72
  columns (a Chinese character counts two);
- the ending: after the last step's ```step block, a ```summary block
  (the tutor draws it from the recorded files), then a paragraph
  "**To remember**" ("**记住**") and a list of exactly three points.

Prints one line per lesson with its measures, and one line per failure
with what to do; exits 1 when any lesson fails.
"""
import importlib.util
import os
import re
import sys
import unicodedata

WORDS_PER_FIGURE = 60
LONG_SENTENCE = 40
LONG_PER_1000 = 3
PICTURE_COLUMNS = 72
REMEMBER = {"en": "**To remember**", "zh_CN": "**记住**"}


def prose(text):
    """The lesson without its fenced blocks and HTML comments."""
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    return re.sub(r"<!--.*?-->", " ", text, flags=re.S)


def sentences(text):
    """The prose's sentences, each as its words (headings, list markers and code marks dropped)."""
    flat = re.sub(r"^#+ .*$", " ", text, flags=re.M)
    flat = re.sub(r"^\s*(?:[-*]|\d+\.)\s+", " ", flat, flags=re.M)
    flat = re.sub(r"\s+", " ", flat)
    # a period ends a sentence when a space and a capital (or the end) follows, not in 2.5 or e.g.
    parts = re.split(r"(?<=[.!?:;])\s+(?=[A-Z(`*])", flat)
    return [p.split() for p in parts if p.strip()]


def columns(line):
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def ending_problem(text, lang):
    """What is wrong with the lesson's ending, or None."""
    last_step = text.rfind("```step\n")
    at = text.find("```summary\n", last_step if last_step >= 0 else 0)
    if at < 0:
        return "no ```summary block after the last step's ```step block: add an empty one (the tutor draws it)"
    after = text[at:]
    m = re.search(re.escape(REMEMBER[lang]) + r"\s*\n\s*\n((?:[-*] .*\n?)+)", after)
    if m is None:
        return "no %s paragraph and list after the ```summary block" % REMEMBER[lang]
    n = len(re.findall(r"^[-*] ", m.group(1), flags=re.M))
    if n != 3:
        return "%s lists %d points: three, one line each" % (REMEMBER[lang], n)
    return None


def main():
    root = sys.argv[1]
    only = set(sys.argv[2:])
    spec = importlib.util.spec_from_file_location("figures", os.path.join(os.path.dirname(__file__), "figures.py"))
    fig = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fig)
    results = fig.load(root)
    counts = {}
    for lang in ("en", "zh_CN"):
        for f in fig.figures(root, results, lang):
            counts[(lang, f["file"])] = counts.get((lang, f["file"]), 0) + 1
    bad = 0
    names = sorted(n[:-3] for n in os.listdir(os.path.join(root, "lessons", "en")) if n.endswith(".md"))
    for name in names:
        if only and name not in only:
            continue
        problems = []
        for lang in ("en", "zh_CN"):
            path = os.path.join(root, "lessons", lang, name + ".md")
            if not os.path.exists(path):
                continue
            text = open(path, encoding="utf-8").read()
            pictures = re.findall(r"```picture\n(.*?)```", text, flags=re.S)
            if not pictures:
                problems.append("%s: no ```picture block: draw the lesson's idea with box-drawing characters" % lang)
            for p in pictures:
                wide = [l for l in p.splitlines() if columns(l) > PICTURE_COLUMNS]
                if wide:
                    problems.append("%s: a picture line is %d columns wide (at most %d)" % (lang, columns(wide[0]), PICTURE_COLUMNS))
            why = ending_problem(text, lang)
            if why:
                problems.append("%s: %s" % (lang, why))
        en = open(os.path.join(root, "lessons", "en", name + ".md"), encoding="utf-8").read()
        body = prose(en)
        words = len(body.split())
        figures = counts.get(("en", name), 0)
        per = words / figures if figures else float("inf")
        long = sum(1 for s in sentences(body) if len(s) > LONG_SENTENCE)
        long_per = 1000.0 * long / words if words else 0
        zh = counts.get(("zh_CN", name), 0)
        if per < WORDS_PER_FIGURE:
            problems.append("en: %d figures in %d words, one per %.0f words (at least %d): move the numbers to the tables the tutor draws"
                            % (figures, words, per, WORDS_PER_FIGURE))
        if long_per > LONG_PER_1000:
            problems.append("en: %d sentences over %d words, %.1f per 1,000 words (at most %d): split them"
                            % (long, LONG_SENTENCE, long_per, LONG_PER_1000))
        if zh and words / zh < WORDS_PER_FIGURE:
            problems.append("zh_CN: %d figures, one per %.0f of the English lesson's words (at least %d): say what the English says"
                            % (zh, words / zh, WORDS_PER_FIGURE))
        print("%-20s %5d words  %3d figures (one per %s words)  %d long sentences (%.1f per 1,000)  %s"
              % (name, words, figures, "%.0f" % per if figures else "-", long, long_per, "ok" if not problems else "FAIL"))
        for p in problems:
            print("    %s: %s" % (name, p))
        bad += bool(problems)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

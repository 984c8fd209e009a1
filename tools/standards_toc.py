#!/usr/bin/env python3
"""Rewrites the linked table of contents of STANDARDS.md from its `## ` headings (run by
tools/regenerate.sh; a test checks every heading is listed with its anchor). Every `## ` heading
carries an explicit, stable anchor, `## <a id="limits"></a>Limits`, and the contents link to it.

    python3 tools/standards_toc.py
"""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATH = os.path.join(ROOT, "STANDARDS.md")
BEGIN, END = "<!-- contents: begin -->", "<!-- contents: end -->"


HEADING = re.compile(r'^## (?:<a id="([a-z0-9.-]+)"></a>)?(.+)$', flags=re.M)


def main():
    text = open(PATH, encoding="utf-8").read()
    headings = HEADING.findall(text)
    missing = [title for anchor, title in headings if not anchor]
    if missing:
        raise SystemExit("STANDARDS.md: headings without an explicit anchor: %s" % ", ".join(missing))
    lines = ["Contents:", ""] + ["- [%s](#%s)" % (title, anchor) for anchor, title in headings]
    block = BEGIN + "\n" + "\n".join(lines) + "\n" + END
    start, end = text.index(BEGIN), text.index(END) + len(END)
    new = text[:start] + block + text[end:]
    if new != text:
        open(PATH, "w", encoding="utf-8").write(new)
    print("table of contents: %d sections" % len(headings))


if __name__ == "__main__":
    main()

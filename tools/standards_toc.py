#!/usr/bin/env python3
"""Rewrites the linked table of contents of STANDARDS.md from its `## ` headings (run by
tools/regenerate.sh; a test checks every heading is listed with its GitHub anchor).

    python3 tools/standards_toc.py
"""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATH = os.path.join(ROOT, "STANDARDS.md")
BEGIN, END = "<!-- contents: begin -->", "<!-- contents: end -->"


def slug(heading):
    """GitHub's anchor: lowercase, punctuation other than '-' and '_' dropped, spaces to '-'."""
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def main():
    text = open(PATH, encoding="utf-8").read()
    headings = re.findall(r"^## (.+)$", text, flags=re.M)
    lines = ["Contents:", ""] + ["- [%s](#%s)" % (h, slug(h)) for h in headings]
    block = BEGIN + "\n" + "\n".join(lines) + "\n" + END
    start, end = text.index(BEGIN), text.index(END) + len(END)
    new = text[:start] + block + text[end:]
    if new != text:
        open(PATH, "w", encoding="utf-8").write(new)
    print("table of contents: %d sections" % len(headings))


if __name__ == "__main__":
    main()

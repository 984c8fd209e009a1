#!/usr/bin/env python3
"""Re-derives every vector in Vectors/negotiation/cases.json from the algorithm text of STANDARDS.md
section 8 (the real backend's, versions.md section 6 of the reference), written here once more in
Python, independently of the Swift code and of tools/make_negotiation_vectors.py (whose
expectations are the reference's outcome table). Agreement means the table, the hand-worked rule
rows and the algorithm say the same thing. Optionally runs `vcproto vectors` on the folder.

    python3 tools/crosscheck_negotiation.py [path/to/vcproto]

Prints `N passed, M failed`; exits 1 on any disagreement.
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAPPED = {(0, 3, 0), (0, 4, 0), (0, 5, 0)}


def parse(text):
    """Cut at the first '-' or '+', then exactly three decimal integers; else None."""
    core = re.split(r"[-+]", text, maxsplit=1)[0]
    parts = core.split(".")
    if len(parts) != 3 or not all(re.fullmatch(r"[0-9]+", p) for p in parts):
        return None
    return tuple(int(p) for p in parts)


def triple(s):
    return tuple(int(p) for p in s.split("."))


def decide(server, client):
    """(hello_version, outcome) where outcome is a version string or ('refused', received)."""
    announced = client.get("protocol_version")  # absent and JSON null alike
    if server.get("legacy"):
        return "0.2.0", "0.2.0"
    floor, ceiling = server["floor"], server["ceiling"]
    parsed = parse(announced) if isinstance(announced, str) else None
    if floor in ("0.4.0", "0.5.0") and parsed is not None and parsed < (0, 4, 0):
        return ceiling, ("refused", announced)
    if parsed is None:
        return ceiling, floor
    effective = min(parsed, triple(ceiling))
    return ceiling, ".".join(map(str, effective)) if effective in MAPPED else floor


def main():
    path = os.path.join(ROOT, "Vectors", "negotiation", "cases.json")
    with open(path) as f:
        vectors = json.load(f)
    passed = failed = 0
    for v in vectors:
        hello, outcome = decide(v["server"], v["client"])
        e = v["expect"]
        problems = []
        if hello != e["hello_version"]:
            problems.append("hello %s" % hello)
        if isinstance(outcome, tuple):
            want = {"type": "error", "code": "unsupported_protocol_version", "required": "0.4.0",
                    "received": outcome[1], "message": "Client is too old; upgrade required"}
            if e.get("refusal") != want:
                problems.append("refusal %s" % json.dumps(want))
        else:
            if e.get("negotiated_protocol_version") != outcome:
                problems.append("version %s" % outcome)
            offered = set(v["server"].get("capabilities", []))
            asked = set(v["client"].get("capabilities", []))
            if e.get("capabilities") != sorted(offered & asked):
                problems.append("capabilities %s" % sorted(offered & asked))
            if e.get("auth_version") != v["client"].get("auth_version", 1):
                problems.append("auth_version")
        if problems:
            failed += 1
            print("FAIL %s: %s" % (v["id"], "; ".join(problems)))
        else:
            passed += 1
    # Every cell of the reference's table is present: 4 configurations x 14 announced values.
    matrix = [v for v in vectors if v["source"] == "matrix"]
    if len(matrix) != 56:
        failed += 1
        print("FAIL the matrix has %d cells, expected 56" % len(matrix))
    if len(sys.argv) > 1 and os.path.exists(sys.argv[1]):
        run = subprocess.run([sys.argv[1], "vectors", os.path.join(ROOT, "Vectors")], capture_output=True, text=True)
        bad = [line for line in run.stdout.splitlines() if line.startswith("FAIL negotiation/")]
        ran = [line for line in run.stdout.splitlines() if line.startswith("PASS negotiation/")]
        if bad or len(ran) != len(vectors):
            failed += 1
            print("FAIL vcproto vectors: %d negotiation vectors passed of %d; %s" % (len(ran), len(vectors), bad[:3]))
        else:
            passed += 1
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

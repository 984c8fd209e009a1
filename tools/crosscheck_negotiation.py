#!/usr/bin/env python3
"""Checks that Vectors/negotiation/cases.json holds the real backend's whole outcome table (STANDARDS.md#negotiation):
each of the 4 server configurations with each of the 14 announced values, exactly once,
as a `matrix` vector.

Each vector's expectation is re-derived from the algorithm's text by the reference peer
(tools/vcpeer/negotiation.py), which `vcproto conformance` runs in CI, and `swift test` runs
`vcproto vectors`; this script keeps the one check neither makes: no cell of the table is missing.

    python3 tools/crosscheck_negotiation.py [path/to/vcproto]   # the path is accepted and unused

Prints `N passed, M failed`; exits 1 on any disagreement.
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIGURATIONS = [("0.4.0", "0.5.0"), ("0.4.0", "0.4.0"), ("0.3.0", "0.5.0"), ("0.5.0", "0.5.0")]  # floor, ceiling
ABSENT = object()
ANNOUNCED = [ABSENT, None, "abc", "0.4", "0.2.0", "0.3.0", "0.3.9", "0.4.0", "0.4.1", "0.5.0", "0.5.0-rc1", "0.5.2",
             "0.6.0", "1.0.0"]


def main():
    with open(os.path.join(ROOT, "Vectors", "negotiation", "cases.json"), encoding="utf-8") as f:
        vectors = json.load(f)
    cells = {}
    for v in vectors:
        if v["source"] != "matrix":
            continue
        server, client = v["server"], v["client"]
        announced = client.get("protocol_version", ABSENT)
        key = (server.get("floor"), server.get("ceiling"), "absent" if announced is ABSENT else json.dumps(announced))
        cells.setdefault(key, []).append(v["id"])
    passed = failed = 0
    for floor, ceiling in CONFIGURATIONS:
        for announced in ANNOUNCED:
            key = (floor, ceiling, "absent" if announced is ABSENT else json.dumps(announced))
            found = cells.pop(key, [])
            if len(found) == 1:
                passed += 1
            else:
                failed += 1
                print("FAIL floor %s, ceiling %s, announced %s: %d vectors %s" % (key + (len(found), found)))
    for key, ids in sorted(cells.items()):
        failed += 1
        print("FAIL matrix vectors outside the table: %s %s" % (key, ids))
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed or not passed else 0)


if __name__ == "__main__":
    main()

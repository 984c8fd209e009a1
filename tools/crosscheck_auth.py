#!/usr/bin/env python3
"""Independent cross-check of vcproto's HMAC-SHA256 with Python's hmac: 200 random key/message pairs
(keys of 0-200 bytes, messages of 0-1000 bytes, covering the block-size boundaries) go through
`vcproto-dev hmac` (the maintainers' executable beside the given `vcproto`) and must match Python.

Each auth vector is also checked for agreeing with itself (`valid` and `expected_outcome`;
`received_mac_input_hex` exactly when a man in the middle changed something, and then different; a
frame sequence is `valid` exactly when every message is accepted).
The auth vectors themselves (every MAC input rebuilt from the fields with an independent copy of the
STANDARDS.md#mac-layout layout, every MAC recomputed, every outcome re-derived) are checked by the
reference peer (tools/vcpeer/auth_bound.py, hkdf.py, frames.py), which `vcproto conformance` runs in CI.

    python3 tools/crosscheck_auth.py .build/debug/vcproto
"""
import glob
import hashlib
import hmac
import json
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print("MISMATCH", what)

    # What the peer cannot see: each vector agrees with itself.
    for path in sorted(glob.glob(os.path.join(ROOT, "Vectors", "auth", "*.json"))):
        for v in json.load(open(path, encoding="utf-8")):
            if v.get("kind") == "frames":
                all_accepted = all(m["expect"] == "accept" for m in v["messages"])
                check(v["valid"] == all_accepted, v["id"] + ": valid exactly when every message is accepted")
                continue
            if v.get("kind") == "hkdf":
                continue
            check(v["valid"] == (v["expected_outcome"] == "ok"), v["id"] + ": valid agrees with expected_outcome")
            tampered = "received" in v or "client_challenge" in v or "received_hello" in v
            check(tampered == ("received_mac_input_hex" in v), v["id"] + ": received_mac_input_hex exactly when tampered")
            if "received_mac_input_hex" in v:
                check(v["received_mac_input_hex"] != v["mac_input_hex"], v["id"] + ": the tampering changes the MAC input")

    if len(sys.argv) > 1:
        rng = random.Random(4231)
        pairs = []
        for i in range(200):
            key = bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, 63, 64, 65, 128, rng.randrange(200)])))
            msg = bytes(rng.randrange(256) for _ in range(rng.choice([0, 55, 56, 63, 64, 65, rng.randrange(1000)])))
            pairs.append((key, msg))
        stdin = "".join("%s %s\n" % (k.hex(), m.hex()) for k, m in pairs)
        # `hmac` is a maintainers' command: `vcproto-dev`, built beside `vcproto`.
        developer = os.path.join(os.path.dirname(sys.argv[1]), "vcproto-dev")
        out = subprocess.run([developer, "hmac"], input=stdin.encode(), capture_output=True, check=True)
        lines = out.stdout.decode().split()
        check(len(lines) == len(pairs), "vcproto-dev hmac printed %d lines for %d pairs" % (len(lines), len(pairs)))
        for (k, m), got in zip(pairs, lines):
            check(hmac.new(k, m, hashlib.sha256).hexdigest() == got, "random pair key=%d msg=%d bytes" % (len(k), len(m)))
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed or not passed else 0)


if __name__ == "__main__":
    main()

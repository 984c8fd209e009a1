#!/usr/bin/env python3
"""Independent cross-check of auth v2 and HMAC-SHA256 with Python's hmac.

1. Every vector in Vectors/auth/: the MAC input bytes and the MACs are recomputed with Python's hmac.
2. With the path of a built `vcproto`, 200 random key/message pairs (keys of 0-200 bytes, messages of
   0-1000 bytes, covering the block-size boundaries) go through `vcproto hmac` and must match Python.

    python3 tools/crosscheck_auth.py [.build/debug/vcproto]
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

    for path in sorted(glob.glob(os.path.join(ROOT, "Vectors", "auth", "*.json"))):
        for v in json.load(open(path)):
            if "mac_input_hex" not in v:
                continue
            key = v["api_key"].encode()
            client = hmac.new(key, bytes.fromhex(v["mac_input_hex"]), hashlib.sha256).hexdigest()
            server = hmac.new(key, bytes.fromhex(v["server_proof_input_hex"]), hashlib.sha256).hexdigest()
            if v["valid"]:
                check(client == v["auth_response"], v["id"] + " auth_response")
                check(server == v["server_proof"], v["id"] + " server_proof")
            elif v.get("expected_outcome") == "auth_error" and not v.get("replay") and "age_seconds" not in v \
                    and "received_capabilities" not in v:
                check(client != v["auth_response"], v["id"] + " should not verify")

    if len(sys.argv) > 1:
        rng = random.Random(4231)
        pairs = []
        for i in range(200):
            key = bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, 63, 64, 65, 128, rng.randrange(200)])))
            msg = bytes(rng.randrange(256) for _ in range(rng.choice([0, 55, 56, 63, 64, 65, rng.randrange(1000)])))
            pairs.append((key, msg))
        stdin = "".join("%s %s\n" % (k.hex(), m.hex()) for k, m in pairs)
        out = subprocess.run([sys.argv[1], "hmac"], input=stdin.encode(), capture_output=True, check=True)
        lines = out.stdout.decode().split()
        check(len(lines) == len(pairs), "vcproto hmac printed %d lines for %d pairs" % (len(lines), len(pairs)))
        for (k, m), got in zip(pairs, lines):
            check(hmac.new(k, m, hashlib.sha256).hexdigest() == got, "random pair key=%d msg=%d bytes" % (len(k), len(m)))
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed or not passed else 0)


if __name__ == "__main__":
    main()

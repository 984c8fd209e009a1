#!/usr/bin/env python3
"""Independent cross-check of auth v2 and HMAC-SHA256 with Python's hmac.

1. Every vector in Vectors/auth/: each MAC input (`mac_input_hex`, `received_mac_input_hex`,
   `server_proof_input_hex`, `client_proof_input_hex`) is rebuilt from the vector's fields with this
   file's own copy of the STANDARDS.md section 8 layout, every MAC (`auth_response`, `server_proof`)
   is recomputed with Python's hmac under the key that produced it, and each vector's
   `expected_outcome` is re-derived from those MACs, the nonce rule and the challenge lifetime.
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
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def enc_len(n):
    return n.to_bytes(4, "big")


def enc_str(s):
    b = s.encode("utf-8")
    return enc_len(len(b)) + b


def enc_value(present, v):
    if not present or v is None:
        return bytes([0])
    if isinstance(v, str):
        return bytes([1]) + enc_str(v)
    assert isinstance(v, list) and all(isinstance(e, str) for e in v), v
    return bytes([2]) + enc_len(len(v)) + b"".join(enc_str(e) for e in v)


def build(label, members, names):
    """label 0x00, then each named field: name, value (absent when the key is missing or null)."""
    out = label.encode("ascii") + bytes([0])
    for name in names:
        out += enc_str(name) + enc_value(name in members, members.get(name))
    return out


CLIENT = ["challenge", "client_nonce", "session_id", "protocol_version", "protocol_versions", "capabilities"]
SERVER = ["challenge", "client_nonce", "session_id", "negotiated_protocol_version", "capabilities", "auth_response"]


def overlay(base, changes):
    out = dict(base)
    for k, v in (changes or {}).items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = v
    return out


def hm(key, data):
    return hmac.new(key.encode("utf-8"), data, hashlib.sha256).hexdigest()


def check_vector(v, check):
    id_ = v["id"]
    key = v["api_key"]
    client_key = v.get("client_api_key", key)
    server_key = v.get("server_api_key", key)
    expected = v["expected_outcome"]
    check(v["valid"] == (expected == "ok"), id_ + ": valid agrees with expected_outcome")
    if "client_nonce" not in v:
        # No MAC: auth v1 or a refused downgrade.
        if "connect_api_key" in v:
            allowed = 1 in v["server"]["auth_versions"]
            right = hmac.compare_digest(v["connect_api_key"].encode(), key.encode())
            derived = "ok" if allowed and right else "auth_error"
            check(derived == expected, id_ + ": v1 outcome")
        else:
            offers_v2 = v.get("challenge") is not None and 2 in v["server"]["auth_versions"]
            derived = "ok" if offers_v2 or v["allow_auth_v1"] else "downgrade_refused"
            check(derived == expected, id_ + ": downgrade outcome")
        return

    nonce = v["client_nonce"]
    sent = {k: v[k] for k in ("session_id", "protocol_version", "protocol_versions", "capabilities") if k in v}
    sent["challenge"] = v.get("client_challenge", v["challenge"])
    sent["client_nonce"] = nonce
    client_input = build("vcproto/auth/v2/client", sent, CLIENT)
    check(client_input.hex() == v["mac_input_hex"], id_ + ": mac_input_hex rebuilt from the fields")
    check(hm(client_key, client_input) == v["auth_response"], id_ + ": auth_response")

    received = overlay(sent, v.get("received"))
    received["challenge"] = v["challenge"]
    server_view = build("vcproto/auth/v2/client", received, CLIENT)
    if "received_mac_input_hex" in v:
        check(server_view.hex() == v["received_mac_input_hex"], id_ + ": received_mac_input_hex rebuilt")
        check(server_view != client_input, id_ + ": the tampering changes the MAC input")
    else:
        check(server_view == client_input, id_ + ": nothing tampered, yet no received_mac_input_hex")

    # The server's decision, in the order of STANDARDS.md: challenge, nonce, MAC.
    fresh = v.get("age_seconds", 0) < v.get("lifetime_seconds", 60)
    nonce_ok = re.fullmatch(r"[0-9a-f]{32,128}", nonce) is not None and len(nonce) % 2 == 0
    mac_ok = hmac.compare_digest(hm(key, server_view), v["auth_response"])
    if not fresh:
        derived = "auth_error"
    elif not nonce_ok:
        derived = "auth_error"
    elif not mac_ok:
        derived = "auth_error"
    else:
        derived = "server"
    if v.get("replay"):
        check(derived == "server", id_ + ": the first use must succeed")
        derived = "auth_error"  # the second use finds the challenge consumed

    if "server_proof" in v:
        connected = {"negotiated_protocol_version": v["negotiated_protocol_version"],
                     "capabilities": v["accepted_capabilities"]}
        proof_members = dict(connected, challenge=v["challenge"], client_nonce=nonce,
                             auth_response=v["auth_response"])
        if "session_id" in received:
            proof_members["session_id"] = received["session_id"]
        proof_input = build("vcproto/auth/v2/server", proof_members, SERVER)
        check(proof_input.hex() == v["server_proof_input_hex"], id_ + ": server_proof_input_hex rebuilt")
        check(hm(server_key, proof_input) == v["server_proof"], id_ + ": server_proof")
        # What the client checks: the connected as it arrived, with the session id it sent.
        seen = overlay(connected, v.get("received_connected"))
        client_members = dict(seen, challenge=v["challenge"], client_nonce=nonce, auth_response=v["auth_response"])
        if "session_id" in sent:
            client_members["session_id"] = sent["session_id"]
        client_check = build("vcproto/auth/v2/server", client_members, SERVER)
        if "client_proof_input_hex" in v:
            check(client_check.hex() == v["client_proof_input_hex"], id_ + ": client_proof_input_hex rebuilt")
        if derived == "server":
            derived = "ok" if hmac.compare_digest(hm(client_key, client_check), v["server_proof"]) \
                else "server_proof_mismatch"
    elif derived == "server":
        check(False, id_ + ": the server accepts but the vector has no server_proof")
    check(derived == expected, "%s: derived %s, vector says %s" % (id_, derived, expected))


def main():
    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print("MISMATCH", what)

    vectors = 0
    for path in sorted(glob.glob(os.path.join(ROOT, "Vectors", "auth", "*.json"))):
        for v in json.load(open(path, encoding="utf-8")):
            vectors += 1
            check_vector(v, check)
    check(vectors > 0, "no auth vectors found")

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
    print("%d auth vectors checked" % vectors)
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed or not passed else 0)


if __name__ == "__main__":
    main()

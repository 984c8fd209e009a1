#!/usr/bin/env python3
"""Independent cross-check of auth v2, HKDF-SHA256 and authenticated frames with Python's hmac and
hashlib.

1. handshakes.json: each MAC input (`mac_input_hex`, `received_mac_input_hex`, `server_proof_input_hex`,
   `client_proof_input_hex`) and each frame-key input (`frame_keys_salt_hex`, `frame_keys_info_*_hex`)
   is rebuilt from the vector's fields with this file's own copy of the STANDARDS.md section 8 layout;
   every MAC (`auth_response`, `server_proof`) and frame key is recomputed; each `expected_outcome` is
   re-derived from those MACs, the nonce rule and the challenge lifetime.
2. hkdf.json: HKDF-SHA256 (RFC 5869, written here over hmac) gives each `prk_hex` and `okm_hex`.
3. frames.json: the keys are those of the handshake named by `keys_from`; every message is judged by
   this file's own receiver (strict JSON, the four members, the MAC, the sequence number), which must
   give its `expect`, and every `sealed` message is byte for byte what a sender writes.
4. With the path of a built `vcproto`, 200 random key/message pairs (keys of 0-200 bytes, messages of
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


def enc_int(n):
    return (n & (2 ** 64 - 1)).to_bytes(8, "big")


def enc_value(kind, present, v):
    if not present or v is None:
        return bytes([0])
    if kind == "s":
        assert isinstance(v, str), v
        return bytes([1]) + enc_str(v)
    if kind == "l":
        assert isinstance(v, list) and all(isinstance(e, str) for e in v), v
        return bytes([2]) + enc_len(len(v)) + b"".join(enc_str(e) for e in v)
    if kind == "i":
        assert isinstance(v, int) and not isinstance(v, bool), v
        return bytes([3]) + enc_int(v)
    assert kind == "il" and isinstance(v, list) and all(isinstance(e, int) for e in v), v
    return bytes([4]) + enc_len(len(v)) + b"".join(enc_int(e) for e in v)


def build(label, members, names):
    """label 0x00, then each named field (name:kind): name, value (absent when missing or null)."""
    out = label.encode("ascii") + bytes([0])
    for spec in names:
        name, kind = spec.split(":")
        out += enc_str(name) + enc_value(kind, name in members, members.get(name))
    return out


CLIENT = ["challenge:s", "client_nonce:s", "session_id:s", "recent_sessions_limit:i", "protocol_version:s",
          "protocol_versions:l", "capabilities:l", "auth_version:i", "hello.message:s", "hello.version:s",
          "hello.auth_version:i", "hello.instructions:s", "hello.protocol_versions:l", "hello.auth_versions:il",
          "hello.capabilities:l"]
SERVER = ["challenge:s", "client_nonce:s", "auth_response:s", "message:s", "session_id:s",
          "negotiated_protocol_version:s", "capabilities:l", "auth_version:i"]
SALT = ["challenge:s", "client_nonce:s"]
INFO = ["direction:s", "negotiated_protocol_version:s", "capabilities:l", "auth_version:i", "auth_response:s",
        "server_proof:s"]


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


def hkdf(ikm, salt, info, length):
    prk = hmac.new(salt if salt else bytes(32), ikm, hashlib.sha256).digest()
    okm, t, i = b"", b"", 1
    while len(okm) < length:
        t = hmac.new(prk, t + info + bytes([i]), hashlib.sha256).digest()
        okm += t
        i += 1
    return prk, okm[:length]


def client_members(challenge, nonce, connect, hello):
    m = dict(connect, challenge=challenge, client_nonce=nonce)
    m.update({"hello." + k: v for k, v in hello.items()})
    return m


def check_handshake(v, check, keys_by_id):
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
            hello = v["hello"]
            offers_v2 = hello.get("challenge") is not None and 2 in hello.get("auth_versions", [hello["auth_version"]])
            derived = "ok" if offers_v2 or v.get("allow_auth_v1", False) else "downgrade_refused"
            check(derived == expected, id_ + ": downgrade outcome")
        return

    nonce = v["client_nonce"]
    hello = v["hello"]
    seen_hello = overlay(hello, v.get("received_hello"))
    sent = v["connect"]
    client_input = build("vcproto/auth/v2/client", client_members(seen_hello["challenge"], nonce, sent, seen_hello),
                         CLIENT)
    check(client_input.hex() == v["mac_input_hex"], id_ + ": mac_input_hex rebuilt from the fields")
    check(hm(client_key, client_input) == v["auth_response"], id_ + ": auth_response")

    received = overlay(sent, v.get("received"))
    server_view = build("vcproto/auth/v2/client", client_members(hello["challenge"], nonce, received, hello), CLIENT)
    if "received_mac_input_hex" in v:
        check(server_view.hex() == v["received_mac_input_hex"], id_ + ": received_mac_input_hex rebuilt")
        check(server_view != client_input, id_ + ": the tampering changes the MAC input")
    else:
        check(server_view == client_input, id_ + ": nothing tampered, yet no received_mac_input_hex")

    # The server's decision, in the order of STANDARDS.md: challenge, nonce, auth_version, MAC.
    fresh = v.get("age_seconds", 0) < v.get("lifetime_seconds", 60)
    nonce_ok = re.fullmatch(r"[0-9a-f]{32,128}", nonce) is not None and len(nonce) % 2 == 0
    version_ok = received.get("auth_version") in (None, 2)
    mac_ok = hmac.compare_digest(hm(key, server_view), v["auth_response"])
    derived = "server" if fresh and nonce_ok and version_ok and mac_ok else "auth_error"
    if v.get("replay"):
        check(derived == "server", id_ + ": the first use must succeed")
        derived = "auth_error"  # the second use finds the challenge consumed

    if "server_proof" in v:
        connected = {"message": "Session registered", "session_id": v["connected_session_id"],
                     "negotiated_protocol_version": v["negotiated_protocol_version"],
                     "capabilities": v["accepted_capabilities"], "auth_version": 2}
        proof_input = build("vcproto/auth/v2/server", dict(connected, challenge=hello["challenge"], client_nonce=nonce,
                                                           auth_response=v["auth_response"]), SERVER)
        check(proof_input.hex() == v["server_proof_input_hex"], id_ + ": server_proof_input_hex rebuilt")
        check(hm(server_key, proof_input) == v["server_proof"], id_ + ": server_proof")
        # What the client checks: the connected as it arrived, under the challenge it saw.
        seen = overlay(dict(connected, server_proof=v["server_proof"]), v.get("received_connected"))
        client_check = build("vcproto/auth/v2/server", dict(seen, challenge=seen_hello["challenge"], client_nonce=nonce,
                                                            auth_response=v["auth_response"]), SERVER)
        if "client_proof_input_hex" in v:
            check(client_check.hex() == v["client_proof_input_hex"], id_ + ": client_proof_input_hex rebuilt")
        if derived == "server":
            if "server_proof" not in seen:
                derived = "server_proof_missing"
            elif hmac.compare_digest(hm(client_key, client_check), seen["server_proof"]):
                derived = "ok"
            else:
                derived = "server_proof_mismatch"
        if derived == "ok" and "authenticated_frames" in seen.get("capabilities", []):
            salt = build("vcproto/auth/v2/frames/salt", {"challenge": hello["challenge"], "client_nonce": nonce}, SALT)
            check(salt.hex() == v.get("frame_keys_salt_hex"), id_ + ": frame_keys_salt_hex")
            keys = {}
            for direction in ("client_to_server", "server_to_client"):
                info = build("vcproto/auth/v2/frames/key", dict(seen, direction=direction,
                                                                auth_response=v["auth_response"]), INFO)
                check(info.hex() == v.get("frame_keys_info_%s_hex" % direction), id_ + ": info " + direction)
                keys[direction] = hkdf(key.encode("utf-8"), salt, info, 32)[1].hex()
                check(keys[direction] == v.get("frame_key_%s_hex" % direction), id_ + ": frame key " + direction)
            keys_by_id[id_] = keys
        else:
            check("frame_key_client_to_server_hex" not in v, id_ + ": frame keys without authenticated_frames")
    elif derived == "server":
        check(False, id_ + ": the server accepts but the vector has no server_proof")
    check(derived == expected, "%s: derived %s, vector says %s" % (id_, derived, expected))


def check_hkdf(v, check):
    prk, okm = hkdf(bytes.fromhex(v["ikm_hex"]), bytes.fromhex(v["salt_hex"]), bytes.fromhex(v["info_hex"]),
                    v["length"])
    check(prk.hex() == v["prk_hex"], v["id"] + ": PRK")
    check(okm.hex() == v["okm_hex"], v["id"] + ": OKM")


def no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("duplicate key")
    return dict(pairs)


def frame_input(seq, frame):
    return build("vcproto/auth/v2/frame", {"seq": seq, "frame": frame}, ["seq:i", "frame:s"])


def receive(state, key, wire):
    """This file's receiver: returns ("accept", frame) or (error, None); any error closes the channel."""
    if state["closed"]:
        return "channel_closed", None
    try:
        obj = json.loads(wire, object_pairs_hook=no_duplicates, parse_constant=lambda c: 1 / 0)
    except (ValueError, ZeroDivisionError):
        state["closed"] = True
        return "malformed", None
    if not isinstance(obj, dict) or obj.get("type") != "authenticated":
        state["closed"] = True
        return "not_authenticated", None
    seq, tag, frame = obj.get("seq"), obj.get("mac"), obj.get("frame")
    wire_seq = re.search(r'"seq"\s*:\s*(-?[0-9.eE+-]+)', wire)
    if set(obj) != {"type", "seq", "mac", "frame"} or not isinstance(seq, int) or isinstance(seq, bool) \
            or not wire_seq or not wire_seq.group(1).isdigit() or not 0 <= seq < 2 ** 53 \
            or not isinstance(tag, str) or not re.fullmatch(r"[0-9a-f]{64}", tag) or not isinstance(frame, str):
        state["closed"] = True
        return "malformed", None
    want = hmac.new(bytes.fromhex(key), frame_input(seq, frame), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(want, tag):
        state["closed"] = True
        return "mac_mismatch", None
    if seq != state["next"]:
        state["closed"] = True
        return ("replayed" if seq < state["next"] else "sequence_gap"), None
    state["next"] += 1
    return "accept", frame


def check_frames(v, check, keys_by_id):
    id_ = v["id"]
    keys = keys_by_id.get(v["keys_from"])
    check(keys is not None, id_ + ": keys_from names a handshake with frame keys")
    if keys is None:
        return
    check(keys["client_to_server"] == v["frame_key_client_to_server_hex"], id_ + ": client_to_server key")
    check(keys["server_to_client"] == v["frame_key_server_to_client_hex"], id_ + ": server_to_client key")
    receiving = "client_to_server" if v["receiver"] == "server" else "server_to_client"
    state = {"next": 0, "closed": False}
    sent = 0
    all_ok = True
    for i, m in enumerate(v["messages"]):
        if m.get("sealed"):
            tag = hmac.new(bytes.fromhex(keys[receiving]), frame_input(sent, m["frame"]), hashlib.sha256).hexdigest()
            check(frame_input(sent, m["frame"]).hex() == m["mac_input_hex"], "%s[%d]: mac_input_hex" % (id_, i))
            wire = '{"type":"authenticated","seq":%d,"mac":"%s","frame":%s}' % (
                sent, tag, json.dumps(m["frame"], ensure_ascii=False))
            check(wire == m["wire"], "%s[%d]: the sealed bytes" % (id_, i))
            sent += 1
        got, frame = receive(state, keys[receiving], m["wire"])
        all_ok = all_ok and got == "accept"
        check(got == m["expect"], "%s[%d]: derived %s, vector says %s" % (id_, i, got, m["expect"]))
        if got == "accept":
            check(frame == m["frame"], "%s[%d]: the opened frame" % (id_, i))
    check(v["valid"] == all_ok, id_ + ": valid")


def main():
    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print("MISMATCH", what)

    counts = {}
    keys_by_id = {}
    vectors = []
    for path in sorted(glob.glob(os.path.join(ROOT, "Vectors", "auth", "*.json"))):
        vectors += json.load(open(path, encoding="utf-8"))
    # Handshakes first: frame vectors take their keys from one.
    for v in sorted(vectors, key=lambda v: v.get("kind") == "frames"):
        kind = v.get("kind", "handshake")
        counts[kind] = counts.get(kind, 0) + 1
        if kind == "hkdf":
            check_hkdf(v, check)
        elif kind == "frames":
            check_frames(v, check, keys_by_id)
        else:
            check_handshake(v, check, keys_by_id)
    check(counts.get("handshake", 0) > 0 and counts.get("hkdf", 0) >= 3 and counts.get("frames", 0) > 0,
          "auth vectors of every kind found: %s" % counts)

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
    print("auth vectors checked: %s" % counts)
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed or not passed else 0)


if __name__ == "__main__":
    main()

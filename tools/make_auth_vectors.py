#!/usr/bin/env python3
"""Writes Vectors/auth/handshakes.json: auth v2 handshakes computed with Python's hmac (independent of
the Swift implementation), following STANDARDS.md section 8 byte for byte.

    python3 tools/make_auth_vectors.py
"""
import hashlib
import hmac
import json
import os
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEY = "untethered-00112233445566778899aabbccddeeff"
OTHER = "untethered-ffeeddccbbaa99887766554433221100"


def field_bytes(fields):
    out = b""
    for f in fields:
        b = f.encode("utf-8")
        out += struct.pack(">I", len(b)) + b
    return out


def client_input(challenge, nonce, session_id, version, versions, caps):
    return b"vcproto/auth/v2/client\x00" + field_bytes(
        [challenge, nonce, session_id or "", version or "", ",".join(versions), ",".join(caps)])


def server_input(challenge, nonce, session_id, negotiated, accepted, response):
    return b"vcproto/auth/v2/server\x00" + field_bytes(
        [challenge, nonce, session_id or "", negotiated, ",".join(sorted(accepted)), response])


def mac(key, data):
    return hmac.new(key.encode("utf-8"), data, hashlib.sha256).hexdigest()


def handshake(id_, description, key=KEY, challenge="9f" * 32, nonce="0123456789abcdef0123456789abcdef",
              session_id="4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11", version="0.2.0", versions=("0.2.0",),
              caps=("heartbeat", "message_ack"), accepted=("heartbeat", "message_ack"), **extra):
    ci = client_input(challenge, nonce, session_id, version, list(versions), list(caps))
    response = mac(key, ci)
    si = server_input(challenge, nonce, session_id, "0.2.0", list(accepted), response)
    v = {"id": id_, "description": description, "api_key": key, "challenge": challenge, "client_nonce": nonce,
         "session_id": session_id, "protocol_version": version, "protocol_versions": list(versions),
         "capabilities": list(caps), "mac_input_hex": ci.hex(), "auth_response": response,
         "negotiated_protocol_version": "0.2.0", "accepted_capabilities": sorted(accepted),
         "server_proof_input_hex": si.hex(), "server_proof": mac(key, si), "valid": True}
    v.update(extra)
    return v


def refresh_server_side(v):
    """Recomputes the server proof input and proof after a test changed auth_response."""
    si = server_input(v["challenge"], v["client_nonce"], v["session_id"], "0.2.0", v["accepted_capabilities"],
                      v["auth_response"])
    v["server_proof_input_hex"] = si.hex()
    v["server_proof"] = mac(v["api_key"], si)


def main():
    vs = [
        handshake("v2.basic", "auth v2 with negotiation members"),
        handshake("v2.no_session", "no session_id: the field is empty in the MAC input", session_id=None,
                  caps=(), accepted=()),
        handshake("v2.unicode_session", "non-ASCII is MACed as UTF-8", session_id="sessión-日本"),
    ]
    # Negative cases: the server (or client) must refuse.
    wrong = handshake("v2.wrong_key", "the client used another key", valid=False, expected_outcome="auth_error")
    wrong["auth_response"] = mac(OTHER, bytes.fromhex(wrong["mac_input_hex"]))
    refresh_server_side(wrong)
    vs.append(wrong)
    tampered = handshake("v2.tampered_challenge", "answer computed for another challenge", valid=False,
                         expected_outcome="auth_error")
    tampered["auth_response"] = handshake("x", "", challenge="8e" * 32)["auth_response"]
    refresh_server_side(tampered)
    vs.append(tampered)
    stripped = handshake("v2.stripped_capability", "a man in the middle removed a requested capability: "
                         "the server recomputes the MAC over what it received", valid=False,
                         expected_outcome="auth_error")
    stripped["received_capabilities"] = ["heartbeat"]
    vs.append(stripped)
    vs.append(handshake("v2.replay", "the same answer presented twice: the second fails", replay=True, valid=False,
                        expected_outcome="auth_error"))
    vs.append(handshake("v2.expired", "answered after the 60 s lifetime", age_seconds=61, valid=False,
                        expected_outcome="auth_error"))
    vs.append(handshake("v2.just_in_time", "answered 59 s after the hello", age_seconds=59))
    proof = handshake("v2.wrong_server_proof", "a fake server that does not know the key", valid=False,
                      expected_outcome="server_proof_mismatch")
    proof["server_proof"] = mac(OTHER, bytes.fromhex(proof["server_proof_input_hex"]))
    vs.append(proof)
    vs.append({"id": "v1.downgrade_refused", "description": "hello offers only auth v1; a client that refuses v1 "
               "never sends its key", "api_key": KEY, "hello_auth_versions": [1], "allow_auth_v1": False,
               "valid": False, "expected_outcome": "downgrade_refused"})
    path = os.path.join(ROOT, "Vectors", "auth", "handshakes.json")
    with open(path, "w") as f:
        json.dump(vs, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print("wrote %d vectors to %s" % (len(vs), path))


if __name__ == "__main__":
    main()

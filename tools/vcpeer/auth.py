"""Auth v2 handshakes played with Python's hmac (STANDARDS.md section 8), independently of vcproto:
this file's own copy of the MAC input layout, the server's checks in their order (challenge
lifetime, single use, nonce, MAC) and the client's check of the server proof.

`answer` takes a handshake's inputs (the vector without its expectations) and returns everything
the handshake produces: the MAC inputs (hex), the MACs, the negotiation outcome and the outcome.
"""
import hashlib
import hmac
import re

from . import auth_bound, negotiation

CLIENT_LABEL = "vcproto/auth/v2/client"
SERVER_LABEL = "vcproto/auth/v2/server"
CLIENT = ["challenge", "client_nonce", "session_id", "protocol_version", "protocol_versions", "capabilities"]
SERVER = ["challenge", "client_nonce", "session_id", "negotiated_protocol_version", "capabilities", "auth_response"]
SENT = ("session_id", "protocol_version", "protocol_versions", "capabilities")


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
    return bytes([2]) + enc_len(len(v)) + b"".join(enc_str(e) for e in v)


def build(label, members, names):
    """label 0x00, then each named field: name, value (absent when the key is missing or null)."""
    out = label.encode("ascii") + bytes([0])
    for name in names:
        out += enc_str(name) + enc_value(name in members, members.get(name))
    return out


def overlay(base, changes):
    out = dict(base)
    for k, v in (changes or {}).items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = v
    return out


def mac(key, data):
    return hmac.new(key.encode("utf-8"), data, hashlib.sha256).hexdigest()


def nonce_ok(nonce):
    return re.fullmatch(r"[0-9a-f]{32,128}", nonce) is not None and len(nonce) % 2 == 0


def answer(v):
    if "hello" in v or "connect" in v:
        return auth_bound.answer(v)  # the extended layout: the vector carries the hello and connect
    key = v["api_key"]
    client_key = v.get("client_api_key", key)
    server = v.get("server") or {"protocol_versions": ["0.2.0"], "auth_versions": [1, 2]}
    auth_versions = server.get("auth_versions", [1])
    if "client_nonce" not in v:
        # No MAC: an auth v1 connect, or a client deciding whether to send its key at all.
        if "connect_api_key" in v:
            if 1 not in auth_versions:
                return {"outcome": "auth_error", "failure": "auth_v1_refused", "auth_version": 1}
            if not hmac.compare_digest(v["connect_api_key"].encode(), key.encode()):
                return {"outcome": "auth_error", "failure": "wrong_key", "auth_version": 1}
            return {"outcome": "ok", "auth_version": 1}
        offers_v2 = v.get("challenge") is not None and 2 in auth_versions
        if offers_v2 or v.get("allow_auth_v1", True):
            return {"outcome": "ok"}
        return {"outcome": "downgrade_refused"}

    out = {}
    nonce = v["client_nonce"]
    sent = {k: v[k] for k in SENT if k in v}
    sent["challenge"] = v.get("client_challenge", v["challenge"])
    sent["client_nonce"] = nonce
    client_input = build(CLIENT_LABEL, sent, CLIENT)
    response = mac(client_key, client_input)
    out["mac_input_hex"] = client_input.hex()
    out["auth_response"] = response

    # The server, on what it received: negotiation, then challenge, nonce and MAC, in that order.
    received = overlay(sent, v.get("received"))
    received["challenge"] = v["challenge"]
    server_view = build(CLIENT_LABEL, received, CLIENT)
    out["received_mac_input_hex"] = server_view.hex()
    client = {k: received[k] for k in ("protocol_version", "protocol_versions", "capabilities") if k in received}
    client["auth_version"] = 2
    negotiated = negotiation.negotiate(server, client)
    if "error" in negotiated:
        return dict(out, outcome="auth_error", failure="unsupported_protocol_version")
    out["negotiated_protocol_version"] = negotiated["negotiated_protocol_version"]
    out["accepted_capabilities"] = negotiated["capabilities"]
    out["auth_version"] = negotiated["auth_version"]
    if 2 not in auth_versions or not v.get("age_seconds", 0) < v.get("lifetime_seconds", 60):
        return dict(out, outcome="auth_error", failure="challenge_not_valid")
    if not nonce_ok(nonce):
        return dict(out, outcome="auth_error", failure="bad_nonce")
    if not hmac.compare_digest(mac(key, server_view), response):
        return dict(out, outcome="auth_error", failure="wrong_response")

    # The server's proof, and the client's check of the connected it received.
    connected = {"negotiated_protocol_version": negotiated["negotiated_protocol_version"],
                 "capabilities": negotiated["capabilities"]}
    proof_members = dict(connected, challenge=v["challenge"], client_nonce=nonce, auth_response=response)
    if "session_id" in received:
        proof_members["session_id"] = received["session_id"]
    proof_input = build(SERVER_LABEL, proof_members, SERVER)
    proof = mac(v.get("server_api_key", key), proof_input)
    out["server_proof_input_hex"] = proof_input.hex()
    out["server_proof"] = proof
    if v.get("replay"):
        # The first answer succeeded and consumed the challenge; the second finds it gone.
        return dict(out, outcome="auth_error", failure="challenge_not_valid")
    seen = overlay(dict(connected, server_proof=proof), v.get("received_connected"))
    client_members = dict(seen, challenge=v["challenge"], client_nonce=nonce, auth_response=response)
    client_members.pop("server_proof", None)
    if "session_id" in sent:
        client_members["session_id"] = sent["session_id"]
    client_check = build(SERVER_LABEL, client_members, SERVER)
    out["client_proof_input_hex"] = client_check.hex()
    got_proof = seen.get("server_proof")
    if got_proof is None:
        return dict(out, outcome="server_proof_missing")
    if not hmac.compare_digest(mac(client_key, client_check), got_proof):
        return dict(out, outcome="server_proof_mismatch")
    return dict(out, outcome="ok")

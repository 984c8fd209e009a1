"""Auth v2 with the extended MAC layout (STANDARDS.md#mac-layout once handshakes bind the hello offer
and every declared member): typed fields (strings, lists, 64-bit integers, lists of integers), the
hello the client saw inside the client input, the whole `connected` inside the server input, and
the frame keys derived with HKDF-SHA256 when `authenticated_frames` is accepted. Independent of
vcproto: this file's own copy of the layout, Python's hmac.

`answer` takes a handshake vector's inputs (`api_key`, `server`, `hello`, `received_hello`,
`client_nonce`, `connect`, `received`, `connected_session_id`, `received_connected`, timing and
replay members) and returns every output the handshake produces and its outcome.
"""
import hashlib
import hmac
import re

from . import catalog_facts, negotiation
from .hkdf import hkdf

CLIENT = ["challenge:s", "client_nonce:s", "session_id:s", "recent_sessions_limit:i", "protocol_version:s",
          "protocol_versions:l", "capabilities:l", "auth_version:i", "hello.message:s", "hello.version:s",
          "hello.auth_version:i", "hello.instructions:s", "hello.protocol_versions:l", "hello.auth_versions:il",
          "hello.capabilities:l"]
SERVER = ["challenge:s", "client_nonce:s", "auth_response:s", "message:s", "session_id:s",
          "negotiated_protocol_version:s", "capabilities:l", "auth_version:i"]
SALT = ["challenge:s", "client_nonce:s"]
INFO = ["direction:s", "negotiated_protocol_version:s", "capabilities:l", "auth_version:i", "auth_response:s",
        "server_proof:s"]


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
        return bytes([1]) + enc_str(v)
    if kind == "l":
        return bytes([2]) + enc_len(len(v)) + b"".join(enc_str(e) for e in v)
    if kind == "i":
        return bytes([3]) + enc_int(v)
    return bytes([4]) + enc_len(len(v)) + b"".join(enc_int(e) for e in v)


def build(label, members, names):
    """label 0x00, then each named field (name:kind): name, value (absent when missing or null)."""
    out = label.encode("ascii") + bytes([0])
    for spec in names:
        name, kind = spec.split(":")
        out += enc_str(name) + enc_value(kind, name in members, members.get(name))
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


def client_members(challenge, nonce, connect, hello):
    m = dict(connect, challenge=challenge, client_nonce=nonce)
    m.update({"hello." + k: v for k, v in hello.items()})
    return m


def answer(v):
    key = v["api_key"]
    client_key = v.get("client_api_key", key)
    server = v["server"]
    if "client_nonce" not in v:
        if "connect_api_key" in v:
            if 1 not in server.get("auth_versions", [1]):
                return {"outcome": "auth_error", "failure": "auth_v1_refused", "auth_version": 1}
            if not hmac.compare_digest(v["connect_api_key"].encode(), key.encode()):
                return {"outcome": "auth_error", "failure": "wrong_key", "auth_version": 1}
            return {"outcome": "ok", "auth_version": 1}
        hello = v["hello"]
        offers_v2 = hello.get("challenge") is not None and 2 in hello.get("auth_versions", [hello["auth_version"]])
        return {"outcome": "ok" if offers_v2 or v.get("allow_auth_v1", False) else "downgrade_refused"}

    out = {}
    nonce = v["client_nonce"]
    hello = v["hello"]
    seen_hello = overlay(hello, v.get("received_hello"))
    sent = v["connect"]
    client_input = build("vcproto/auth/v2/client", client_members(seen_hello["challenge"], nonce, sent, seen_hello),
                         CLIENT)
    response = mac(client_key, client_input)
    out.update(mac_input_hex=client_input.hex(), auth_response=response)

    received = overlay(sent, v.get("received"))
    server_view = build("vcproto/auth/v2/client", client_members(hello["challenge"], nonce, received, hello), CLIENT)
    out["received_mac_input_hex"] = server_view.hex()
    client = {k: received[k] for k in ("protocol_version", "protocol_versions", "capabilities") if k in received}
    client["auth_version"] = 2
    negotiated = negotiation.answer({"server": server, "client": client})
    out.update(negotiated_protocol_version=negotiated["negotiated_protocol_version"],
               accepted_capabilities=negotiated["capabilities"], auth_version=2)

    # The server's decision, in order: challenge, nonce, auth_version, MAC.
    if 2 not in server.get("auth_versions", [1]) or not 0 <= v.get("age_seconds", 0) < v.get("lifetime_seconds", 60):
        return dict(out, outcome="auth_error", failure="challenge_not_valid")
    if re.fullmatch(r"[0-9a-f]*", nonce) is None or not catalog_facts.nonce_length_accepted(nonce) or len(nonce) % 2:
        return dict(out, outcome="auth_error", failure="bad_nonce")
    if received.get("auth_version") not in (None, 2) or not hmac.compare_digest(mac(key, server_view), response):
        return dict(out, outcome="auth_error", failure="wrong_response")

    connected = {"message": "Session registered", "session_id": v.get("connected_session_id"),
                 "negotiated_protocol_version": negotiated["negotiated_protocol_version"],
                 "capabilities": negotiated["capabilities"], "auth_version": 2}
    proof_input = build("vcproto/auth/v2/server",
                        dict(connected, challenge=hello["challenge"], client_nonce=nonce, auth_response=response),
                        SERVER)
    proof = mac(v.get("server_api_key", key), proof_input)
    out.update(server_proof_input_hex=proof_input.hex(), server_proof=proof)
    if v.get("replay"):
        # The first answer succeeded and consumed the challenge; the second finds it gone.
        return dict(out, outcome="auth_error", failure="challenge_not_valid")

    # The client checks the connected as it arrived, under the challenge it saw.
    seen = overlay(dict(connected, server_proof=proof), v.get("received_connected"))
    client_check = build("vcproto/auth/v2/server", dict(seen, challenge=seen_hello["challenge"], client_nonce=nonce,
                                                        auth_response=response), SERVER)
    out["client_proof_input_hex"] = client_check.hex()
    if "server_proof" not in seen:
        return dict(out, outcome="server_proof_missing")
    if not hmac.compare_digest(mac(client_key, client_check), seen["server_proof"]):
        return dict(out, outcome="server_proof_mismatch")
    if "authenticated_frames" in seen.get("capabilities", []):
        salt = build("vcproto/auth/v2/frames/salt", {"challenge": hello["challenge"], "client_nonce": nonce}, SALT)
        out["frame_keys_salt_hex"] = salt.hex()
        for direction in ("client_to_server", "server_to_client"):
            info = build("vcproto/auth/v2/frames/key", dict(seen, direction=direction, auth_response=response), INFO)
            out["frame_keys_info_%s_hex" % direction] = info.hex()
            out["frame_key_%s_hex" % direction] = hkdf(key.encode("utf-8"), salt, info, 32)[1].hex()
    return dict(out, outcome="ok")

#!/usr/bin/env python3
"""Writes Vectors/auth/handshakes.json: auth v2 (and v1) handshakes whose MAC inputs are built here
from STANDARDS.md section 8 and whose MACs come from Python's hmac, independently of the Swift code.

    python3 tools/make_auth_vectors.py

Vector fields are described in Vectors/README.md. tools/crosscheck_auth.py rebuilds every MAC input
from the fields with its own copy of the layout and recomputes every MAC.
"""
import hashlib
import hmac
import json
import os
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEY = "untethered-00112233445566778899aabbccddeeff"
OTHER = "untethered-ffeeddccbbaa99887766554433221100"
CHALLENGE = "9f" * 32
NONCE = "0123456789abcdef0123456789abcdef"
SESSION = "4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11"
ABSENT = object()  # a member the client did not send

# STANDARDS.md section 8: label, 0x00, then per field: u32 name length, name, value
# (0x00 absent | 0x01 u32 length + UTF-8 | 0x02 u32 count + per element u32 length + UTF-8).


def u32(n):
    return struct.pack(">I", n)


def text(s):
    b = s.encode("utf-8")
    return u32(len(b)) + b


def value(v):
    if v is None or v is ABSENT:
        return b"\x00"
    if isinstance(v, str):
        return b"\x01" + text(v)
    return b"\x02" + u32(len(v)) + b"".join(text(e) for e in v)


def layout(label, fields):
    return label.encode("ascii") + b"\x00" + b"".join(text(name) + value(v) for name, v in fields)


def client_input(challenge, nonce, m):
    return layout("vcproto/auth/v2/client", [
        ("challenge", challenge), ("client_nonce", nonce), ("session_id", m.get("session_id")),
        ("protocol_version", m.get("protocol_version")), ("protocol_versions", m.get("protocol_versions")),
        ("capabilities", m.get("capabilities"))])


def server_input(challenge, nonce, session_id, connected, response):
    return layout("vcproto/auth/v2/server", [
        ("challenge", challenge), ("client_nonce", nonce), ("session_id", session_id),
        ("negotiated_protocol_version", connected.get("negotiated_protocol_version")),
        ("capabilities", connected.get("capabilities")), ("auth_response", response)])


def mac(key, data):
    return hmac.new(key.encode("utf-8"), data, hashlib.sha256).hexdigest()


# Negotiation, written independently of the Swift Negotiator (STANDARDS.md section 8).
def parse(v):
    if not isinstance(v, str):
        return None
    core = v.split("-")[0].split("+")[0]
    parts = core.split(".")
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() for p in parts):
        return None
    return tuple(int(p) for p in parts)


def negotiate(server, m, auth_version):
    supported = sorted({parse(v) for v in server["protocol_versions"]} - {None})
    listed = [parse(v) for v in (m.get("protocol_versions") or [])]
    listed = [v for v in listed if v]
    if listed:
        common = [v for v in supported if v in listed]
        chosen = common[-1] if common else None
    elif parse(m.get("protocol_version")):
        below = [v for v in supported if v <= parse(m["protocol_version"])]
        chosen = below[-1] if below else None
    else:
        chosen = parse(server.get("floor")) or supported[0]
    assert chosen, "auth vectors negotiate successfully"
    wanted = set(m.get("capabilities") or [])
    return {"negotiated_protocol_version": "%d.%d.%d" % chosen,
            "capabilities": sorted(set(server["capabilities"]) & wanted), "auth_version": auth_version}


SERVER = {"protocol_versions": ["0.2.0"], "auth_versions": [1, 2],
          "capabilities": ["draining", "heartbeat", "message_ack"]}
HEAD = {"protocol_versions": ["0.4.0", "0.5.0"], "floor": "0.4.0", "auth_versions": [1, 2], "capabilities": []}
SENT = {"session_id": SESSION, "protocol_version": "0.2.0", "protocol_versions": ["0.2.0"],
        "capabilities": ["heartbeat", "message_ack"]}


def v2(id_, description, expected="ok", failure=None, server=SERVER, sent=SENT, client_key=KEY, server_key=KEY,
       client_challenge=CHALLENGE, nonce=NONCE, received=None, received_connected=None, **extra):
    """One auth v2 handshake. `sent`: the connect members as the client sent them (missing key = absent);
    `received`: members a man in the middle replaced (None = stripped); `received_connected`: the same for
    the connected frame on its way back."""
    got = dict(sent)
    for k, v in (received or {}).items():
        if v is None:
            got.pop(k, None)
        else:
            got[k] = v
    ci = client_input(client_challenge, nonce, sent)
    response = mac(client_key, ci)
    v = {"id": id_, "description": description, "api_key": KEY}
    if client_key != KEY:
        v["client_api_key"] = client_key
    if server_key != KEY:
        v["server_api_key"] = server_key
    v["server"] = server
    v["challenge"] = CHALLENGE
    if client_challenge != CHALLENGE:
        v["client_challenge"] = client_challenge
    v["client_nonce"] = nonce
    v["session_id"] = sent.get("session_id")
    for k in ("protocol_version", "protocol_versions", "capabilities"):
        if k in sent:
            v[k] = sent[k]
    v["mac_input_hex"] = ci.hex()
    v["auth_response"] = response
    if received is not None:
        v["received"] = received
    if got != sent or client_challenge != CHALLENGE:
        v["received_mac_input_hex"] = client_input(CHALLENGE, nonce, got).hex()
    outcome = negotiate(server, got, 2)
    v["negotiated_protocol_version"] = outcome["negotiated_protocol_version"]
    v["accepted_capabilities"] = outcome["capabilities"]
    v["auth_version"] = 2
    if expected in ("ok", "server_proof_mismatch") or extra.get("replay"):
        # The (genuine or fake) server's proof over the connected it sends.
        connected = {"negotiated_protocol_version": outcome["negotiated_protocol_version"],
                     "capabilities": outcome["capabilities"]}
        si = server_input(CHALLENGE, nonce, got.get("session_id"), connected, response)
        v["server_proof_input_hex"] = si.hex()
        v["server_proof"] = mac(server_key, si)
        if received_connected is not None:
            v["received_connected"] = received_connected
            seen = dict(connected)
            for k, x in received_connected.items():
                if x is None:
                    seen.pop(k, None)
                else:
                    seen[k] = x
            v["client_proof_input_hex"] = server_input(CHALLENGE, nonce, sent.get("session_id"), seen, response).hex()
    v.update(extra)
    v["valid"] = expected == "ok"
    v["expected_outcome"] = expected
    if failure:
        v["failure"] = failure
    return v


def v1(id_, description, expected, failure=None, server_auth=(1,), connect_api_key=None, allow_auth_v1=None,
       hello_challenge=None):
    """A handshake without a MAC: an auth v1 connect, or a client refusing to send its key."""
    v = {"id": id_, "description": description, "api_key": KEY,
         "server": {"protocol_versions": ["0.2.0"], "auth_versions": list(server_auth), "capabilities": []}}
    if allow_auth_v1 is not None:
        v["allow_auth_v1"] = allow_auth_v1
        v["challenge"] = hello_challenge
    if connect_api_key is not None:
        v["connect_api_key"] = connect_api_key
    v["valid"] = expected == "ok"
    v["expected_outcome"] = expected
    if expected == "ok":
        v["auth_version"] = 1
    if failure:
        v["failure"] = failure
    return v


def main():
    vs = [
        v2("v2.basic", "auth v2 with every negotiation member"),
        v2("v2.ceiling_only", "real-backend style: only protocol_version (the client's ceiling) against the "
           "HEAD offer 0.4.0/0.5.0; protocol_versions and capabilities are absent (tag 0x00)", server=HEAD,
           sent={"session_id": SESSION, "protocol_version": "0.5.0"}),
        v2("v2.empty_lists", "protocol_versions and capabilities present but empty (tag 0x02, count 0): "
           "different bytes from v2.absent_lists", sent={"session_id": SESSION, "protocol_versions": [],
                                                        "capabilities": []}),
        v2("v2.absent_lists", "nothing announced: the server's floor, every optional field absent",
           sent={"session_id": SESSION}),
        v2("v2.no_session", "session_id absent (tag 0x00), not an empty string", sent={"capabilities": []}),
        v2("v2.empty_session", "session_id present and empty (tag 0x01, length 0)",
           sent={"session_id": "", "capabilities": []}),
        v2("v2.unicode_session", "non-ASCII is MACed as UTF-8", sent=dict(SENT, session_id="sessión-日本")),
        v2("v2.just_in_time", "answered 59 s after the hello (lifetime 60 s)", age_seconds=59),
        # Refused by the server: always the generic auth_error.
        v2("v2.wrong_key", "the client used another key (client_api_key) than the server's (api_key)",
           "auth_error", "wrong_response", client_key=OTHER),
        v2("v2.tampered_challenge", "a man in the middle changed the hello's challenge: the client answered "
           "client_challenge, the server checks against challenge", "auth_error", "wrong_response",
           client_challenge="8e" * 32),
        v2("v2.mitm_stripped_capability", "a man in the middle removed a requested capability: the server "
           "recomputes the MAC over what it received", "auth_error", "wrong_response",
           received={"capabilities": ["heartbeat"]}),
        v2("v2.mitm_comma_merged_list", "two capabilities merged into one element containing a comma: with "
           "lists joined by ',' both would MAC the same bytes; element counts and lengths tell them apart",
           "auth_error", "wrong_response", sent=dict(SENT, capabilities=["heartbeat", "draining"]),
           received={"capabilities": ["heartbeat,draining"]}),
        v2("v2.mitm_empty_list_added", "protocol_versions: [] added to a connect that had no list: absent "
           "(0x00) and empty (0x02 + count 0) differ", "auth_error", "wrong_response", server=HEAD,
           sent={"session_id": SESSION, "protocol_version": "0.5.0"}, received={"protocol_versions": []}),
        v2("v2.mitm_list_stripped", "an empty protocol_versions removed from the connect", "auth_error",
           "wrong_response", sent={"session_id": SESSION, "protocol_versions": [], "capabilities": []},
           received={"protocol_versions": None}),
        v2("v2.mitm_version_lowered", "protocol_version lowered from 0.5.0 to 0.4.0", "auth_error",
           "wrong_response", server=HEAD, sent={"session_id": SESSION, "protocol_version": "0.5.0"},
           received={"protocol_version": "0.4.0"}),
        v2("v2.mitm_session_emptied", "session_id replaced by an empty string", "auth_error", "wrong_response",
           received={"session_id": ""}),
        v2("v2.replay", "the same answer presented twice: the first use succeeds, the second fails",
           "auth_error", "challenge_not_valid", replay=True),
        v2("v2.expired", "answered 61 s after the hello (lifetime 60 s)", "auth_error", "challenge_not_valid",
           age_seconds=61),
        v2("v2.expired_at_lifetime", "answered exactly at the end of a 10 s lifetime", "auth_error",
           "challenge_not_valid", age_seconds=10, lifetime_seconds=10),
        v2("v2.bad_nonce", "client_nonce shorter than 128 bits", "auth_error", "bad_nonce", nonce="0123456789abcdef"),
        # Refused by the client: the server's proof does not verify.
        v2("v2.wrong_server_proof", "a fake server that does not know the key (server_api_key)",
           "server_proof_mismatch", server_key=OTHER),
        v2("v2.mitm_connected_capability_stripped", "a man in the middle removed a capability from connected",
           "server_proof_mismatch", received_connected={"capabilities": ["heartbeat"]}),
        v2("v2.mitm_connected_version_stripped", "a man in the middle removed negotiated_protocol_version "
           "from connected", "server_proof_mismatch", received_connected={"negotiated_protocol_version": None}),
        # Without a MAC.
        v1("v1.accepted", "auth v1: the key itself in connect, accepted by a server that allows v1", "ok",
           connect_api_key=KEY),
        v1("v1.wrong_key", "auth v1 with a wrong key", "auth_error", "wrong_key", connect_api_key=OTHER),
        v1("v1.refused_by_server", "a server accepting only auth v2 refuses the plaintext key", "auth_error",
           "auth_v1_refused", server_auth=(2,), connect_api_key=KEY),
        v1("v1.downgrade_refused", "hello offers only auth v1; a client that refuses v1 never sends its key",
           "downgrade_refused", allow_auth_v1=False),
        v1("v2.challenge_stripped", "hello offers auth v2 but a man in the middle removed the challenge; a "
           "client that refuses v1 never sends its key", "downgrade_refused", server_auth=(1, 2),
           allow_auth_v1=False),
    ]
    assert len({v["id"] for v in vs}) == len(vs)
    path = os.path.join(ROOT, "Vectors", "auth", "handshakes.json")
    with open(path, "w") as f:
        json.dump(vs, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print("wrote %d vectors to %s" % (len(vs), path))


if __name__ == "__main__":
    main()

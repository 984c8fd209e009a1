#!/usr/bin/env python3
"""Writes Vectors/auth/: auth v2 (and v1) handshakes, HKDF-SHA256 test cases and authenticated-frame
scenarios. Every MAC input is built here from STANDARDS.md#mac-layout, every MAC and key comes from
Python's hmac and hashlib, independently of the Swift code.

    python3 tools/make_auth_vectors.py

Files: handshakes.json, hkdf.json (RFC 5869 test cases 1-3, checked against the RFC's figures),
frames.json. Vector fields are described in Vectors/README.md. The reference conformance peer
(tools/vcpeer/auth_bound.py, run by `vcproto conformance`) rebuilds every input from the fields with
its own copy of the layout and recomputes every MAC and key.
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

# STANDARDS.md#negotiation-and-auth: label, 0x00, then per field: u32 name length, name, value, where value is
# 0x00 absent | 0x01 u32 length + UTF-8 | 0x02 u32 count + (u32 length + UTF-8)... |
# 0x03 int64 big-endian | 0x04 u32 count + int64 big-endian...
# Each field has a declared kind, so an empty list is encoded by its field's kind.
S, L, I, IL = "string", "list", "integer", "integer_list"


def u32(n):
    return struct.pack(">I", n)


def text(s):
    b = s.encode("utf-8")
    return u32(len(b)) + b


def value(kind, v):
    if v is None:
        return b"\x00"
    if kind == S:
        assert isinstance(v, str)
        return b"\x01" + text(v)
    if kind == L:
        return b"\x02" + u32(len(v)) + b"".join(text(e) for e in v)
    if kind == I:
        assert isinstance(v, int) and not isinstance(v, bool)
        return b"\x03" + struct.pack(">q", v)
    return b"\x04" + u32(len(v)) + b"".join(struct.pack(">q", e) for e in v)


def layout(label, fields):
    """fields: (name, kind, value or None)."""
    return label.encode("ascii") + b"\x00" + b"".join(text(n) + value(k, v) for n, k, v in fields)


CONNECT_FIELDS = [("session_id", S), ("recent_sessions_limit", I), ("protocol_version", S),
                  ("protocol_versions", L), ("capabilities", L), ("auth_version", I)]
HELLO_FIELDS = [("message", S), ("version", S), ("auth_version", I), ("instructions", S),
                ("protocol_versions", L), ("auth_versions", IL), ("capabilities", L)]
CONNECTED_FIELDS = [("message", S), ("session_id", S), ("negotiated_protocol_version", S), ("capabilities", L),
                    ("auth_version", I)]


def client_input(challenge, nonce, connect, hello):
    return layout("vcproto/auth/v2/client",
                  [("challenge", S, challenge), ("client_nonce", S, nonce)]
                  + [(n, k, connect.get(n)) for n, k in CONNECT_FIELDS]
                  + [("hello." + n, k, hello.get(n)) for n, k in HELLO_FIELDS])


def server_input(challenge, nonce, response, connected):
    return layout("vcproto/auth/v2/server",
                  [("challenge", S, challenge), ("client_nonce", S, nonce), ("auth_response", S, response)]
                  + [(n, k, connected.get(n)) for n, k in CONNECTED_FIELDS])


def mac(key, data):
    return hmac.new(key.encode("utf-8"), data, hashlib.sha256).hexdigest()


# RFC 5869 over hashlib/hmac.
def hkdf_extract(salt, ikm):
    return hmac.new(salt or b"\x00" * 32, ikm, hashlib.sha256).digest()


def hkdf_expand(prk, info, length):
    out, block, i = b"", b"", 1
    while len(out) < length:
        block = hmac.new(prk, block + info + bytes([i]), hashlib.sha256).digest()
        out += block
        i += 1
    return out[:length]


def frame_keys(key, challenge, nonce, response, connected):
    salt = layout("vcproto/auth/v2/frames/salt", [("challenge", S, challenge), ("client_nonce", S, nonce)])
    prk = hkdf_extract(salt, key.encode("utf-8"))
    out = {"frame_keys_salt_hex": salt.hex()}
    for direction in ("client_to_server", "server_to_client"):
        info = layout("vcproto/auth/v2/frames/key", [
            ("direction", S, direction),
            ("negotiated_protocol_version", S, connected.get("negotiated_protocol_version")),
            ("capabilities", L, connected.get("capabilities")), ("auth_version", I, connected.get("auth_version")),
            ("auth_response", S, response), ("server_proof", S, connected.get("server_proof"))])
        out["frame_keys_info_%s_hex" % direction] = info.hex()
        out["frame_key_%s_hex" % direction] = hkdf_expand(prk, info, 32).hex()
    return out


# Negotiation, written independently of the Swift Negotiator (STANDARDS.md#negotiation): the version
# comes from connect.protocol_version alone, the real backend's rules.
MAPPED = [(0, 3, 0), (0, 4, 0), (0, 5, 0)]


def parse(v):
    if not isinstance(v, str):
        return None
    core = v.split("-")[0].split("+")[0]
    parts = core.split(".")
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() for p in parts):
        return None
    return tuple(int(p) for p in parts)


def server_versions(server):
    """(floor, ceiling) of a `server` object, or None for a 0.2.0 server (Vectors/README.md)."""
    listed = [parse(v) for v in server["protocol_versions"]]
    listed = [v for v in listed if v and v > (0, 2, 0)]
    if not listed:
        return None
    ceiling = (0, 5, 0) if max(listed) >= (0, 5, 0) else (0, 4, 0)
    floor = parse(server.get("floor"))
    if floor not in MAPPED:
        floor = min(listed) if min(listed) in MAPPED else (0, 4, 0)
    return floor, ceiling


def negotiate(server, m, auth_version):
    sv = server_versions(server)
    if sv is None:
        chosen = (0, 2, 0)
    else:
        floor, ceiling = sv
        client = parse(m.get("protocol_version"))
        assert not (client and floor != (0, 3, 0) and client < (0, 4, 0)), "auth vectors negotiate successfully"
        chosen = floor if client is None else (min(client, ceiling) if min(client, ceiling) in MAPPED else floor)
    caps = set(server["capabilities"]) & set(m.get("capabilities") or [])
    if auth_version != 2:
        caps.discard("authenticated_frames")
    return {"negotiated_protocol_version": "%d.%d.%d" % chosen, "capabilities": sorted(caps),
            "auth_version": auth_version}


def hello_for(server, challenge):
    """The hello a vcproto server sends for its offer (STANDARDS.md#negotiation): version is the ceiling;
    protocol_versions every version a client can get."""
    sv = server_versions(server)
    if sv is None:
        top, reachable = (0, 2, 0), [(0, 2, 0)]
    else:
        floor, top = sv
        guard = floor != (0, 3, 0)
        reachable = sorted({v for v in MAPPED if v <= top and (not guard or v >= (0, 4, 0))} | {floor})
    auth = server["auth_versions"]
    h = {"message": "Welcome to voice-code backend", "version": "%d.%d.%d" % top,
         "auth_version": 1 if 1 in auth else max(auth), "instructions": "Send connect message with api_key",
         "protocol_versions": ["%d.%d.%d" % v for v in reachable], "auth_versions": auth,
         "capabilities": server["capabilities"]}
    if challenge is not None:
        h["challenge"] = challenge
    return h


def overlay(base, changes):
    out = dict(base)
    for k, v in (changes or {}).items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = v
    return out


SERVER = {"protocol_versions": ["0.2.0"], "auth_versions": [1, 2],
          "capabilities": ["authenticated_frames", "draining", "heartbeat", "message_ack"]}
HEAD = {"protocol_versions": ["0.4.0", "0.5.0"], "floor": "0.4.0", "auth_versions": [1, 2], "capabilities": []}
SENT = {"session_id": SESSION, "protocol_version": "0.2.0", "protocol_versions": ["0.2.0"],
        "capabilities": ["heartbeat", "message_ack"], "auth_version": 2}


def v2(id_, description, expected="ok", failure=None, server=SERVER, sent=SENT, client_key=KEY, server_key=KEY,
       nonce=NONCE, received=None, received_hello=None, received_connected=None, connected_session_id=SESSION,
       **extra):
    """One auth v2 handshake. `sent`: the connect members as the client sent them (missing key = absent);
    `received`: members a man in the middle replaced (None = stripped); `received_hello`: the same for the
    hello on its way to the client; `received_connected`: the same for connected on its way back."""
    hello = hello_for(server, CHALLENGE)
    seen_hello = overlay(hello, received_hello)
    got = overlay(sent, received)
    client_challenge = seen_hello.get("challenge")
    ci = client_input(client_challenge, nonce, sent, seen_hello)
    response = mac(client_key, ci)
    v = {"id": id_, "description": description, "api_key": KEY}
    if client_key != KEY:
        v["client_api_key"] = client_key
    if server_key != KEY:
        v["server_api_key"] = server_key
    v["server"] = server
    v["hello"] = hello
    if received_hello is not None:
        v["received_hello"] = received_hello
    v["client_nonce"] = nonce
    v["connect"] = sent
    v["mac_input_hex"] = ci.hex()
    v["auth_response"] = response
    if received is not None:
        v["received"] = received
    if got != sent or seen_hello != hello:
        v["received_mac_input_hex"] = client_input(CHALLENGE, nonce, got, hello).hex()
    outcome = negotiate(server, got, 2)
    v["negotiated_protocol_version"] = outcome["negotiated_protocol_version"]
    v["accepted_capabilities"] = outcome["capabilities"]
    v["auth_version"] = 2
    if expected in ("ok", "server_proof_mismatch", "server_proof_missing") or extra.get("replay"):
        # The (genuine or fake) server's proof over the connected it sends.
        connected = {"message": "Session registered", "session_id": connected_session_id,
                     "negotiated_protocol_version": outcome["negotiated_protocol_version"],
                     "capabilities": outcome["capabilities"], "auth_version": 2}
        v["connected_session_id"] = connected_session_id
        si = server_input(CHALLENGE, nonce, response, connected)
        v["server_proof_input_hex"] = si.hex()
        v["server_proof"] = mac(server_key, si)
        seen = overlay(connected, received_connected)
        if received_connected is not None:
            v["received_connected"] = received_connected
            v["client_proof_input_hex"] = server_input(client_challenge, nonce, response, seen).hex()
        if expected == "ok" and "authenticated_frames" in outcome["capabilities"]:
            v.update(frame_keys(KEY, CHALLENGE, nonce, response, dict(connected, server_proof=v["server_proof"])))
    v.update(extra)
    v["valid"] = expected == "ok"
    v["expected_outcome"] = expected
    if failure:
        v["failure"] = failure
    return v


def v1(id_, description, expected, failure=None, server_auth=(1,), connect_api_key=None, allow_auth_v1=None,
       hello_challenge=None):
    """A handshake without a MAC: an auth v1 connect, or a client refusing to send its key."""
    server = {"protocol_versions": ["0.2.0"], "auth_versions": list(server_auth), "capabilities": []}
    v = {"id": id_, "description": description, "api_key": KEY, "server": server}
    if allow_auth_v1 is not None:
        v["allow_auth_v1"] = allow_auth_v1
        v["hello"] = hello_for(server, hello_challenge)
    if connect_api_key is not None:
        v["connect_api_key"] = connect_api_key
    v["valid"] = expected == "ok"
    v["expected_outcome"] = expected
    if expected == "ok":
        v["auth_version"] = 1
    if failure:
        v["failure"] = failure
    return v


def handshakes():
    frames_sent = dict(SENT, capabilities=["authenticated_frames", "heartbeat"])
    return [
        v2("v2.basic", "auth v2 with every negotiation member"),
        v2("v2.authenticated_frames", "authenticated_frames negotiated: the frame keys derived from this "
           "handshake (frames.json uses them)", sent=frames_sent),
        v2("v2.ceiling_only", "real-backend style: only protocol_version (the client's ceiling) against the "
           "HEAD offer 0.4.0/0.5.0; protocol_versions, capabilities and auth_version are absent (tag 0x00)",
           server=HEAD, sent={"session_id": SESSION, "protocol_version": "0.5.0"}),
        v2("v2.empty_lists", "protocol_versions and capabilities present but empty (tag 0x02, count 0): "
           "different bytes from v2.absent_lists", sent={"session_id": SESSION, "protocol_versions": [],
                                                        "capabilities": [], "auth_version": 2}),
        v2("v2.absent_lists", "nothing announced: the server's floor, every optional field absent",
           sent={"session_id": SESSION, "auth_version": 2}),
        v2("v2.no_session", "session_id absent (tag 0x00), not an empty string",
           sent={"capabilities": [], "auth_version": 2}),
        v2("v2.empty_session", "session_id present and empty (tag 0x01, length 0)",
           sent={"session_id": "", "capabilities": [], "auth_version": 2}),
        v2("v2.unicode_session", "non-ASCII is MACed as UTF-8", sent=dict(SENT, session_id="sessión-日本")),
        v2("v2.recent_sessions_limit", "recent_sessions_limit is bound as an integer (tag 0x03)",
           sent=dict(SENT, recent_sessions_limit=20)),
        v2("v2.server_assigned_session", "connected carries a session id the server chose",
           connected_session_id="0b9f3c1e-2a4d-4e6f-8a1b-3c5d7e9f1a2b"),
        v2("v2.just_in_time", "answered 59 s after the hello (lifetime 60 s)", age_seconds=59),
        # Refused by the server: always the generic auth_error.
        v2("v2.wrong_key", "the client used another key (client_api_key) than the server's (api_key)",
           "auth_error", "wrong_response", client_key=OTHER),
        v2("v2.tampered_challenge", "a man in the middle changed the hello's challenge: the client answered "
           "the one it saw, the server checks against the one it issued", "auth_error", "wrong_response",
           received_hello={"challenge": "8e" * 32}),
        v2("v2.mitm_hello_offer_stripped", "a man in the middle removed authenticated_frames from the hello's "
           "capabilities (so the client would not ask for it): the client MACs the hello it saw",
           "auth_error", "wrong_response", received_hello={"capabilities": ["draining", "heartbeat", "message_ack"]}),
        v2("v2.mitm_hello_auth_versions", "a man in the middle changed the hello's auth_versions", "auth_error",
           "wrong_response", received_hello={"auth_versions": [2]}),
        v2("v2.mitm_hello_version", "a man in the middle lowered the hello's version", "auth_error",
           "wrong_response", server=HEAD, sent={"session_id": SESSION, "protocol_version": "0.5.0"},
           received_hello={"version": "0.4.0"}),
        v2("v2.mitm_stripped_capability", "a man in the middle removed a requested capability: the server "
           "recomputes the MAC over what it received", "auth_error", "wrong_response",
           received={"capabilities": ["heartbeat"]}),
        v2("v2.mitm_stripped_authenticated_frames", "a man in the middle removed authenticated_frames from the "
           "connect", "auth_error", "wrong_response", sent=frames_sent, received={"capabilities": ["heartbeat"]}),
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
        v2("v2.mitm_recent_sessions_limit", "recent_sessions_limit changed from 5 to 1000", "auth_error",
           "wrong_response", sent=dict(SENT, recent_sessions_limit=5), received={"recent_sessions_limit": 1000}),
        v2("v2.mitm_recent_sessions_limit_added", "recent_sessions_limit added to a connect without it",
           "auth_error", "wrong_response", received={"recent_sessions_limit": 1000}),
        v2("v2.mitm_auth_version_stripped", "auth_version removed from the connect", "auth_error",
           "wrong_response", received={"auth_version": None}),
        v2("v2.replay", "the same answer presented twice: the first use succeeds, the second fails",
           "auth_error", "challenge_not_valid", replay=True),
        v2("v2.expired", "answered 61 s after the hello (lifetime 60 s)", "auth_error", "challenge_not_valid",
           age_seconds=61),
        v2("v2.expired_at_lifetime", "answered exactly at the end of a 10 s lifetime", "auth_error",
           "challenge_not_valid", age_seconds=10, lifetime_seconds=10),
        # A time before the issue time (a clock that went backwards, a host's mistake) is refused too,
        # at any distance: the age is compared with 0 and the lifetime without overflowing.
        v2("v2.answered_before_issue", "answered 1 s before the hello's challenge was issued", "auth_error",
           "challenge_not_valid", age_seconds=-1),
        v2("v2.answered_a_day_before_issue", "answered a day before the challenge was issued", "auth_error",
           "challenge_not_valid", age_seconds=-86400),
        v2("v2.answered_2e62ms_before_issue", "answered 2^62 ms (4,611,686,018,427,388 s, rounded up) before the "
           "challenge was issued", "auth_error", "challenge_not_valid", age_seconds=-4611686018427388),
        v2("v2.bad_nonce", "client_nonce shorter than 128 bits", "auth_error", "bad_nonce", nonce="0123456789abcdef"),
        # Refused by the client: the server's proof does not verify.
        v2("v2.wrong_server_proof", "a fake server that does not know the key (server_api_key)",
           "server_proof_mismatch", server_key=OTHER),
        v2("v2.mitm_connected_capability_stripped", "a man in the middle removed a capability from connected",
           "server_proof_mismatch", received_connected={"capabilities": ["heartbeat"]}),
        v2("v2.mitm_connected_version_stripped", "a man in the middle removed negotiated_protocol_version "
           "from connected", "server_proof_mismatch", received_connected={"negotiated_protocol_version": None}),
        v2("v2.mitm_connected_session_id", "a man in the middle changed connected.session_id",
           "server_proof_mismatch", received_connected={"session_id": "00000000-0000-4000-8000-000000000000"}),
        v2("v2.mitm_connected_message", "a man in the middle changed connected.message",
           "server_proof_mismatch", received_connected={"message": "Re-enter your key at http://evil.example"}),
        v2("v2.mitm_connected_auth_version", "a man in the middle removed connected.auth_version",
           "server_proof_mismatch", received_connected={"auth_version": None}),
        v2("v2.mitm_connected_proof_stripped", "a man in the middle removed server_proof", "server_proof_missing",
           received_connected={"server_proof": None}),
        # Without a MAC.
        v1("v1.accepted", "auth v1: the key itself in connect, accepted by a server that allows v1", "ok",
           connect_api_key=KEY),
        v1("v1.wrong_key", "auth v1 with a wrong key", "auth_error", "wrong_key", connect_api_key=OTHER),
        v1("v1.refused_by_server", "a server accepting only auth v2 refuses the plaintext key", "auth_error",
           "auth_v1_refused", server_auth=(2,), connect_api_key=KEY),
        v1("v1.downgrade_refused", "hello offers only auth v1; a client that refuses v1 (the default) never "
           "sends its key", "downgrade_refused", allow_auth_v1=False),
        v1("v2.challenge_stripped", "hello offers auth v2 but a man in the middle removed the challenge; a "
           "client that refuses v1 (the default) never sends its key", "downgrade_refused", server_auth=(1, 2),
           allow_auth_v1=False),
    ]


# RFC 5869 appendix A, test cases 1-3 (SHA-256): inputs, and the RFC's PRK and OKM, which the Python
# implementation above must reproduce.
RFC5869 = [
    ("rfc5869.1", "Basic test case with SHA-256", "0b" * 22, "000102030405060708090a0b0c", "f0f1f2f3f4f5f6f7f8f9", 42,
     "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
     "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"),
    ("rfc5869.2", "Test with SHA-256 and longer inputs/outputs", bytes(range(0x00, 0x50)).hex(),
     bytes(range(0x60, 0xb0)).hex(), bytes(range(0xb0, 0x100)).hex(), 82,
     "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
     "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87"),
    ("rfc5869.3", "Test with SHA-256 and zero-length salt/info", "0b" * 22, "", "", 42,
     "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
     "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"),
]


def hkdf_vectors():
    out = []
    for id_, description, ikm, salt, info, length, prk, okm in RFC5869:
        got_prk = hkdf_extract(bytes.fromhex(salt), bytes.fromhex(ikm))
        got_okm = hkdf_expand(got_prk, bytes.fromhex(info), length)
        assert got_prk.hex() == prk and got_okm.hex() == okm, id_ + ": Python disagrees with RFC 5869"
        out.append({"kind": "hkdf", "id": id_, "description": "RFC 5869 A." + id_[-1] + ": " + description,
                    "ikm_hex": ikm, "salt_hex": salt, "info_hex": info, "length": length, "prk_hex": prk,
                    "okm_hex": okm, "valid": True})
    return out


# Authenticated frames (STANDARDS.md#authenticated-frames).
def frame_mac(key_hex, seq, frame):
    data = layout("vcproto/auth/v2/frame", [("seq", I, seq), ("frame", S, frame)])
    return data, hmac.new(bytes.fromhex(key_hex), data, hashlib.sha256).hexdigest()


def jstr(s):
    # STANDARDS.md#encoding escaping: Python's json escapes exactly ", \ and control characters
    # (\b \f \n \r \t, others as lowercase \u00xx) when ensure_ascii is off; "/" is not escaped.
    return json.dumps(s, ensure_ascii=False)


def seal(key_hex, seq, frame):
    _, m = frame_mac(key_hex, seq, frame)
    return '{"type":"authenticated","seq":%d,"mac":"%s","frame":%s}' % (seq, m, jstr(frame))


def frame_vectors(keys):
    c2s, s2c = keys["frame_key_client_to_server_hex"], keys["frame_key_server_to_client_hex"]
    P = '{"type":"ping"}'
    CMD = '{"type":"execute_command","command_id":"build","working_directory":"/tmp"}'
    PROMPT = '{"type":"prompt","text":"say \\"hi\\"\\n","session_id":"%s"}' % SESSION
    UNI = '{"type":"prompt","text":"caf\u00e9 \u65e5\u672c \u0007","session_id":"%s"}' % SESSION
    SL = '{"type":"session_list","sessions":[]}'

    def ok(key, seq, frame):
        return {"wire": seal(key, seq, frame), "sealed": True, "mac_input_hex": frame_mac(key, seq, frame)[0].hex(),
                "expect": "accept", "frame": frame}

    def bad(wire, error):
        return {"wire": wire, "expect": error}

    def vec(id_, description, receiver, items):
        return {"kind": "frames", "id": id_, "description": description, "keys_from": "v2.authenticated_frames",
                "frame_key_client_to_server_hex": c2s, "frame_key_server_to_client_hex": s2c, "receiver": receiver,
                "messages": items, "valid": all(i["expect"] == "accept" for i in items)}

    g0, g1, g2 = seal(c2s, 0, P), seal(c2s, 1, CMD), seal(c2s, 2, PROMPT)
    tampered_inner = g1.replace("/tmp", "/etc")
    tampered_seq = '{"type":"authenticated","seq":1,"mac":"%s","frame":%s}' % (frame_mac(c2s, 0, P)[1], jstr(P))
    respelled = '{ "frame" : "{\\"type\\":\\"ping\\"}", "mac":"%s",\n"seq" : 0 ,"type":"authent\\u0069cated"}' % (
        frame_mac(c2s, 0, P)[1])
    return [
        vec("frames.in_order", "client to server: three frames in order, each accepted; the sealed bytes are "
            "exactly these", "server", [ok(c2s, 0, P), ok(c2s, 1, CMD), ok(c2s, 2, PROMPT)]),
        vec("frames.server_to_client", "server to client, non-ASCII and a control character in the inner frame",
            "client", [ok(s2c, 0, SL), ok(s2c, 1, UNI)]),
        vec("frames.respelled", "the receiver accepts any member order, whitespace and string escapes (the MAC "
            "covers the decoded frame, not its spelling)", "server",
            [{"wire": respelled, "expect": "accept", "frame": P}]),
        vec("frames.injected_plain", "after connected, an on-path attacker injects a plain execute_command",
            "server", [ok(c2s, 0, P), bad(CMD, "not_authenticated")]),
        vec("frames.injected_forged", "an injected frame MACed under a key the attacker made up", "server",
            [ok(c2s, 0, P), bad(seal(hashlib.sha256(b"guess").hexdigest(), 1, CMD), "mac_mismatch")]),
        vec("frames.altered", "a genuine frame with its inner frame altered (/tmp -> /etc)", "server",
            [ok(c2s, 0, P), bad(tampered_inner, "mac_mismatch")]),
        vec("frames.altered_seq", "a genuine MAC moved to another sequence number", "server",
            [bad(tampered_seq, "mac_mismatch")]),
        vec("frames.replayed", "a genuine frame received twice", "server",
            [ok(c2s, 0, P), ok(c2s, 1, CMD), bad(g1, "replayed")]),
        vec("frames.replayed_first", "the first frame replayed after the second", "server",
            [ok(c2s, 0, P), ok(c2s, 1, CMD), bad(g0, "replayed")]),
        vec("frames.reordered", "two genuine frames swapped in transit", "server", [bad(g1, "sequence_gap")]),
        vec("frames.dropped", "a genuine frame dropped in transit: the next one shows the gap", "server",
            [ok(c2s, 0, P), bad(g2, "sequence_gap")]),
        vec("frames.reflected", "a client's own frame reflected back to it: the directions have different keys",
            "client", [bad(g0, "mac_mismatch")]),
        vec("frames.closed_after_failure", "after a refused frame the channel refuses even a genuine one",
            "server", [bad(g1, "sequence_gap"), bad(g0, "channel_closed")]),
        vec("frames.malformed_extra_member", "a member other than type, seq, mac and frame", "server",
            [bad(g0[:-1] + ',"x":1}', "malformed")]),
        vec("frames.malformed_seq_string", "seq as a string", "server",
            [bad(g0.replace('"seq":0', '"seq":"0"'), "malformed")]),
        vec("frames.malformed_seq_fraction", "seq written 0.0", "server",
            [bad(g0.replace('"seq":0', '"seq":0.0'), "malformed")]),
        vec("frames.malformed_seq_negative", "seq -1", "server",
            [bad(g0.replace('"seq":0', '"seq":-1'), "malformed")]),
        vec("frames.malformed_seq_too_large", "seq 2^53, one past the largest", "server",
            [bad(g0.replace('"seq":0', '"seq":9007199254740992'), "malformed")]),
        vec("frames.malformed_mac_uppercase", "mac in uppercase hex", "server",
            [bad(g0.replace(frame_mac(c2s, 0, P)[1], frame_mac(c2s, 0, P)[1].upper()), "malformed")]),
        vec("frames.malformed_mac_short", "mac cut to 128 bits", "server",
            [bad(g0.replace(frame_mac(c2s, 0, P)[1], frame_mac(c2s, 0, P)[1][:32]), "malformed")]),
        vec("frames.malformed_frame_object", "the inner frame as a JSON object instead of a string", "server",
            [bad(g0.replace(jstr(P), P), "malformed")]),
        vec("frames.malformed_not_json", "not JSON", "server", [bad('{"type":"authenticated",', "malformed")]),
        vec("frames.malformed_duplicate_seq", "seq twice (duplicate keys are rejected)", "server",
            [bad(g0[:-1] + ',"seq":0}', "malformed")]),
    ]


def main():
    hs = handshakes()
    ids = [v["id"] for v in hs]
    assert len(set(ids)) == len(ids)
    keys = next(v for v in hs if v["id"] == "v2.authenticated_frames")
    assert "frame_key_client_to_server_hex" in keys
    files = {"handshakes.json": hs, "hkdf.json": hkdf_vectors(), "frames.json": frame_vectors(keys)}
    for name, vs in files.items():
        path = os.path.join(ROOT, "Vectors", "auth", name)
        with open(path, "w") as f:
            json.dump(vs, f, indent=1, ensure_ascii=False)
            f.write("\n")
        print("wrote %d vectors to %s" % (len(vs), path))


if __name__ == "__main__":
    main()

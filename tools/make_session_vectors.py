#!/usr/bin/env python3
"""Writes Vectors/sessions/{client,server}.json: conversation vectors for the connection engines.

Every expectation here is written from the specification (STANDARDS.md "Conversation state machine",
STANDARDS.md#connection-flow,
STANDARDS.md#extensions, STANDARDS.md#negotiation-and-auth) and the real system's facts it cites, never from running vcproto: MACs are computed
with Python's hmac, heartbeat timestamps with datetime, jittered delays with an independent SplitMix64.
Times are milliseconds after clock_start_ms. Run: python3 tools/make_session_vectors.py
"""
import datetime, hashlib, hmac, json, os, struct

KEY = "untethered-0123456789abcdef0123456789abcdef"
NONCE = "00112233445566778899aabbccddeeff"
CHALLENGE = "a1" * 32
T0 = 1768150000000  # 2026-01-11T16:46:40Z

# ---------- helpers: actions and events ----------
def send(frame): return {"action": "send", "frame": frame}
def close(reason): return {"action": "close", "reason": reason}
def arm(timer, at): return {"action": "arm_timer", "timer": timer, "at": at}
def cancel(timer): return {"action": "cancel_timer", "timer": timer}
OPEN = {"action": "open_transport"}
def ev(name, **kw): return dict({"action": "event", "event": name}, **kw)
def step(kind, expect=(), error=None, **inp):
    s = {"input": dict({"kind": kind}, **inp)}
    if error: s["error"] = error
    else: s["expect"] = list(expect)
    return s
def advance(ms, expect=()): return step("advance", expect, ms=ms)
def frame(f, expect=()): return step("frame", expect, frame=f)

# ---------- auth v2 MAC layout (STANDARDS.md#mac-layout) ----------
# label, 0x00, then per field: u32 name length, name, value, where value is 0x00 absent |
# 0x01 u32 length + UTF-8 | 0x02 u32 count + (u32 length + UTF-8)... | 0x03 int64 big-endian |
# 0x04 u32 count + int64 big-endian... Each field has a declared kind; JSON null counts as absent.
S, L, I, IL = "string", "list", "integer", "integer_list"
def text(v):
    b = v.encode(); return struct.pack(">I", len(b)) + b
def value(kind, v):
    if v is None: return b"\x00"
    if kind == S: return b"\x01" + text(v)
    if kind == L: return b"\x02" + struct.pack(">I", len(v)) + b"".join(text(e) for e in v)
    if kind == I: return b"\x03" + struct.pack(">q", v)
    return b"\x04" + struct.pack(">I", len(v)) + b"".join(struct.pack(">q", e) for e in v)
def layout(label, fields):
    return label.encode() + b"\x00" + b"".join(text(n) + value(k, v) for n, k, v in fields)
def mac(label, fields):
    return hmac.new(KEY.encode(), layout(label, fields), hashlib.sha256).hexdigest()
CONNECT_FIELDS = [("session_id", S), ("recent_sessions_limit", I), ("protocol_version", S),
                  ("protocol_versions", L), ("capabilities", L), ("auth_version", I)]
HELLO_FIELDS = [("message", S), ("version", S), ("auth_version", I), ("instructions", S),
                ("protocol_versions", L), ("auth_versions", IL), ("capabilities", L)]
CONNECTED_FIELDS = [("message", S), ("session_id", S), ("negotiated_protocol_version", S), ("capabilities", L),
                    ("auth_version", I)]
def client_mac(connect, hello, challenge=CHALLENGE, nonce=NONCE):
    """The client's answer: binds every connect member but the credentials, and the hello's offer."""
    return mac("vcproto/auth/v2/client", [("challenge", S, challenge), ("client_nonce", S, nonce)]
               + [(n, k, connect.get(n)) for n, k in CONNECT_FIELDS]
               + [("hello." + n, k, hello.get(n)) for n, k in HELLO_FIELDS])
def server_proof(connected, response, challenge=CHALLENGE, nonce=NONCE):
    """The server's proof: binds the client's answer and every member of connected but the proof."""
    return mac("vcproto/auth/v2/server", [("challenge", S, challenge), ("client_nonce", S, nonce), ("auth_response", S, response)]
               + [(n, k, connected.get(n)) for n, k in CONNECTED_FIELDS])

# ---------- authenticated frames (STANDARDS.md#authenticated-frames, capability authenticated_frames) ----------
# One key per direction: HKDF-SHA256 (RFC 5869, written out here with hmac) with the API key as input
# keying material, the challenge and client nonce as salt, and the verified connected as info. Each
# frame after connected travels as {"type":"authenticated","seq","mac","frame"}, frame being the inner
# frame's compact JSON text and mac HMAC-SHA256 over layout("vcproto/auth/v2/frame"; seq, frame).
FR = "authenticated_frames"
def frame_keys(connected_frame, response, challenge=CHALLENGE, nonce=NONCE):
    salt = layout("vcproto/auth/v2/frames/salt", [("challenge", S, challenge), ("client_nonce", S, nonce)])
    prk = hmac.new(salt, KEY.encode(), hashlib.sha256).digest()
    def key(direction):
        info = layout("vcproto/auth/v2/frames/key",
                      [("direction", S, direction),
                       ("negotiated_protocol_version", S, connected_frame.get("negotiated_protocol_version")),
                       ("capabilities", L, connected_frame.get("capabilities")),
                       ("auth_version", I, connected_frame.get("auth_version")), ("auth_response", S, response),
                       ("server_proof", S, connected_frame.get("server_proof"))])
        return hmac.new(prk, info + b"\x01", hashlib.sha256).digest()  # one block: 32 bytes
    return key("client_to_server"), key("server_to_client")
class Sealer:
    """One direction's sender: each call seals the next frame (the compact text of STANDARDS.md#encoding inside)."""
    def __init__(self, key): self.key, self.seq = key, 0
    def __call__(self, f):
        inner = json.dumps(f, ensure_ascii=False, separators=(",", ":"))
        tag = hmac.new(self.key, layout("vcproto/auth/v2/frame", [("seq", I, self.seq), ("frame", S, inner)]),
                       hashlib.sha256).hexdigest()
        self.seq += 1
        return {"type": "authenticated", "seq": self.seq - 1, "mac": tag, "frame": inner}

# ---------- SplitMix64 (the engines' jitter source) ----------
class SplitMix64:
    def __init__(self, seed): self.s = seed & (2**64 - 1)
    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & (2**64 - 1)
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
        return z ^ (z >> 31)
    def unit(self): return (self.next() >> 11) / 2.0**53
def backoff(n, rng, jitter=0.25, base=1000, cap=30000, floor=1000):
    raw = min(base * 2**n, cap)
    return min(cap, max(floor, int(raw * (1 + jitter * (2 * rng.unit() - 1)))))  # the cap holds after jitter

# ---------- real frames ----------
def hello(version="0.5.0", **extra):
    h = {"type": "hello", "message": "Welcome to voice-code backend", "version": version, "auth_version": 1,
         "instructions": "Send connect message with api_key"}
    h.update(extra); return h
def connected(version, **extra):
    c = {"type": "connected", "message": "Session registered", "session_id": None, "negotiated_protocol_version": version}
    c.update(extra); return c
PING, PONG = {"type": "ping"}, {"type": "pong"}
SESSION_LIST = {"type": "session_list", "sessions": [], "total_count": 0}
S1, S2 = "4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11", "9a8b7c6d-1e2f-4a3b-8c7d-6e5f4a3b2c1d"
def msg5(offset, text="hi", session=S1, role="assistant"):
    return {"session_id": session, "uuid": "u-%d" % offset, "role": role, "text": text,
            "timestamp": "2026-01-11T17:00:00.000Z", "provider": "claude", "offset": offset}
def msg4(seq, session=S1):
    return {"session_id": session, "uuid": "u-%d" % seq, "role": "assistant", "text": "m%d" % seq,
            "timestamp": "2026-01-11T17:00:00.000Z", "provider": "claude", "seq": seq}
def msg2(uuid):
    return {"type": "assistant", "uuid": uuid, "message": {"role": "assistant", "content": "ok"},
            "timestamp": "2026-01-11T17:00:00.000Z", "sessionId": S1}
def msg3(uuid):
    return {"uuid": uuid, "role": "assistant", "text": "ok", "timestamp": "2026-01-11T17:00:00.000Z",
            "provider": "claude"}
def violation(type, findings, disposition="dropped"):
    """A frame the validator rejects (Vectors/README.md): never delivered; `findings` as (pointer, code)."""
    return ev("violation", message_type=type,
              findings=[{"code": c, "pointer": p} for p, c in sorted(set(findings))], disposition=disposition)
def hist5(messages, next_offset, eof=True, sig="100:u-0", session=S1, **extra):
    h = {"type": "session_history", "session_id": session, "messages": messages, "next_offset": next_offset,
         "end_of_file": eof, "file_signature": sig}
    h.update(extra); return h
def hist4(messages, last_seq, next_seq, complete=True, gap=None):
    return {"type": "session_history", "session_id": S1, "messages": messages,
            "first_seq": messages[0]["seq"] if messages else None, "last_seq": last_seq, "next_seq": next_seq,
            "is_complete": complete, "gap": gap}
def update(insert=(), replace=(), purge=None, cursor=None, complete=True, gap=None, dropped=0, session=S1):
    return ev("session_update", session_id=session, purge=purge, insert=list(insert), replace=list(replace),
              cursor=cursor, is_complete=complete, gap=gap, dropped=dropped)
def off(n, sig): return {"offset": n, "signature": sig}

# Rule 9: a request waits for its answer 120 s (compact_session and create_worktree_session: 1 h 2 min);
# one timer, request_deadline, is armed at the earliest deadline of the requests waiting.
RQ, SLOW_RQ = 120000, 3720000

def client_config(**kw):
    # The real backend speaks only auth v1 (STANDARDS.md#negotiation-and-auth), so the vectors that model it opt into
    # v1 explicitly; a client left to the default refuses it (allow_auth_v1=None: the member absent).
    c = {"api_key": KEY, "min_version": "0.4.0", "max_version": "0.5.0", "capabilities": [], "jitter": 0,
         "clock_start_ms": T0, "allow_auth_v1": True}
    c.update(kw)
    if c["allow_auth_v1"] is None: del c["allow_auth_v1"]
    return c

def connect_v1(pv="0.5.0", **extra):
    c = {"type": "connect", "api_key": KEY, "protocol_version": pv}; c.update(extra); return c

def ready_steps(version="0.5.0", caps=(), hello_frame=None, connect_frame=None, connected_frame=None,
                subs=(), size=None, heartbeat_at=None, ping_at=30000):
    """start -> open -> hello -> connect -> connected, at t=0. Real-HEAD style unless frames given."""
    hello_frame = hello_frame or hello(version)
    connect_frame = connect_frame or connect_v1()
    connected_frame = connected_frame or connected(version)
    after = [cancel("handshake_deadline"), ev("connected", version=version, capabilities=sorted(caps), auth_version=1)]
    if size:  # a request like any other: it waits for its ack, 120 s at most (STANDARDS.md#requests)
        after += [send({"type": "set_max_message_size", "size_kb": size}), arm("request_deadline", RQ)]
    after += [send(s) for s in subs]
    after.append(arm("ping", ping_at))
    if heartbeat_at: after.append(arm("heartbeat_deadline", heartbeat_at))
    return [step("start", [OPEN]),
            step("transport_opened", [arm("handshake_deadline", 30000)], client_nonce=NONCE),
            frame(hello_frame, [send(connect_frame)]),
            frame(connected_frame, after)]

def negotiated_ready(caps, version="0.5.0", **cfg):
    """A vcproto server offering capabilities (hello with negotiation members)."""
    h = hello(version, protocol_versions=["0.4.0", "0.5.0"], auth_versions=[1], capabilities=list(caps))
    c = connect_v1(protocol_versions=["0.4.0", "0.5.0"], capabilities=list(caps))
    k = connected(version, capabilities=sorted(caps), auth_version=1)
    return h, c, k

def number_transports(steps):
    """The client's transports are numbered 1, 2, ... in the order of its open_transport actions
    (STANDARDS.md#transports): each open_transport and close gets its `transport`, and
    each transport_opened/transport_closed input that names none reports on the last socket opened
    (the current one, or, once the engine closed it, a stale one it ignores). Written here once
    instead of in every step; a step that names its transport keeps it."""
    steps = json.loads(json.dumps(steps))  # the helpers share action dicts (OPEN): never edit them in place
    opened = 0
    for s in steps:
        if s["input"]["kind"] in ("transport_opened", "transport_closed"):
            s["input"].setdefault("transport", opened)
        for a in s.get("expect", []):
            if a["action"] == "open_transport":
                opened += 1
                a.setdefault("transport", opened)
            elif a["action"] == "close":
                a.setdefault("transport", opened)
    return steps

def connect_deadlines(steps, within=15000):
    """The connect deadline (STANDARDS.md#timers): armed right after each open_transport
    (at the time of the open: the input's, or the reconnect timer's when an advance fired it), cancelled
    first thing when that transport opens, and cancelled with the connection's timers (first in name
    order, nothing else being armed while connecting) when it closes or the client stops before it
    opens. Written here once instead of in every step; a vector that lets the deadline pass writes
    its own steps (connect_deadline already present) and is left alone."""
    if any(a.get("timer") == "connect_deadline" for s in steps for a in s.get("expect", [])):
        return steps
    now, reconnect_at, deadline, current = 0, None, None, None
    for s in steps:
        inp, expect = s["input"], s.get("expect")
        kind = inp["kind"]
        if kind == "advance":
            if deadline is not None and now + inp.get("ms", 0) >= deadline:
                raise SystemExit("a vector lets a connect deadline pass: write its steps by hand")
        if expect is not None:
            if deadline is not None:
                reported = kind in ("transport_opened", "transport_closed") and inp.get("transport") == current
                if reported or kind == "stop":
                    expect.insert(0, cancel("connect_deadline"))
                    deadline = None
            for i, a in enumerate(list(expect)):
                if a["action"] == "arm_timer" and a["timer"] == "reconnect":
                    reconnect_at = a["at"]
                if a["action"] == "open_transport":
                    at = reconnect_at if kind == "advance" else now
                    deadline, current = at + within, a["transport"]
                    expect.insert(expect.index(a) + 1, arm("connect_deadline", deadline))
        if kind == "advance":
            now += inp.get("ms", 0)
            if deadline is not None and now >= deadline:
                raise SystemExit("a vector lets a connect deadline pass: write its steps by hand")
    return steps

CLIENT = []
def client(id, desc, steps, **cfg):
    CLIENT.append({"id": id, "description": desc, "role": "client", "config": client_config(**cfg),
                   "steps": connect_deadlines(number_transports(steps))})

# --- handshake ---
client("client.0.5.0.handshake.real_head",
       "iOS against the real HEAD server: hello (ceiling 0.5.0) -> connect with api_key and protocol_version -> "
       "connected; set_max_message_size right after; the first ping 30 s after connected, a pong cancels its deadline.",
       ready_steps(size=200) + [
           frame(SESSION_LIST, [ev("received", frame=SESSION_LIST)]),
           advance(30000, [send(PING), arm("pong_deadline", 45000), arm("ping", 60000)]),
           frame(PONG, [cancel("pong_deadline")]),
           advance(30000, [send(PING), arm("pong_deadline", 75000), arm("ping", 90000)]),
       ], max_message_size_kb=200)

client("client.0.4.0.handshake.negotiated_down",
       "A server whose ceiling is 0.4.0 (VC_OFFSET_PROTOCOL=0): the client announced 0.5.0 and accepts 0.4.0 from connected.",
       ready_steps(version="0.4.0", hello_frame=hello("0.4.0")))

client("client.0.2.0.handshake.implicit",
       "A 0.2.0 server sends no connected: the first frame after connect that is not auth_error means success "
       "(STANDARDS.md#connection-flow); that frame is then handled normally and desired subscriptions go out.",
       [step("start", [OPEN]),
        step("subscribe", [], session_id=S1, cursor={"last_message_id": "u-1"}),
        step("transport_opened", [arm("handshake_deadline", 30000)], client_nonce=NONCE),
        frame(hello("0.2.0"), [send(connect_v1())]),
        frame(SESSION_LIST, [cancel("handshake_deadline"), ev("connected", version="0.2.0", capabilities=[], auth_version=1),
                             send({"type": "subscribe", "session_id": S1, "last_message_id": "u-1"}),
                             arm("ping", 30000), ev("received", frame=SESSION_LIST)])],
       min_version="0.2.0")

client("client.handshake.nothing_before_hello",
       "Frames before hello are ignored, and a session subscribed before authentication is not sent until connected.",
       [step("start", [OPEN]),
        step("transport_opened", [arm("handshake_deadline", 30000)], client_nonce=NONCE),
        frame(SESSION_LIST, []),
        step("subscribe", [], session_id=S1, cursor=None),
        frame(hello(), [send(connect_v1())]),
        frame(SESSION_LIST, []),
        frame(connected("0.5.0"), [cancel("handshake_deadline"), ev("connected", version="0.5.0", capabilities=[], auth_version=1),
                                   send({"type": "subscribe", "session_id": S1, "from_offset": 0}), arm("ping", 30000)])])

client("client.bug.pre_auth_send_refused",
       "Real-system bug (pre-auth sends): iOS sent unsubscribe/prompt between hello and connected, the server answered "
       "auth_error and iOS stopped reconnecting. The engine refuses the send (an illegal event naming the state) and nothing goes out.",
       ready_steps()[:3] + [
           step("send", error={"state": "awaiting_connected", "event": "send"},
                frame={"type": "prompt", "text": "hello", "resume_session_id": S1}),
           frame(connected("0.5.0"), [cancel("handshake_deadline"),
                                                   ev("connected", version="0.5.0", capabilities=[], auth_version=1), arm("ping", 30000)]),
           step("send", [send({"type": "prompt", "text": "hello", "resume_session_id": S1}), arm("request_deadline", RQ)],
                frame={"type": "prompt", "text": "hello", "resume_session_id": S1}),
       ])

client("client.handshake.too_old_server",
       "hello.version below the client's minimum (iOS requires >= 0.4.0): upgrade required, no connect, no reconnect.",
       [step("start", [OPEN]),
        step("transport_opened", [arm("handshake_deadline", 30000)], client_nonce=NONCE),
        frame(hello("0.3.0"), [cancel("handshake_deadline"), close("unsupported_protocol_version"), ev("upgrade_required", required=None)]),
        advance(60000, []),
        step("resume", [])])

# The too-old refusal needs a client that announces 0.3.0.
CLIENT.append({"id": "client.handshake.too_old_client", "role": "client",
  "description": "The server's too-old refusal (error code unsupported_protocol_version) after connect: upgrade "
                 "required with the server's required version, and no reconnect.",
  "config": client_config(min_version="0.2.0", max_version="0.3.0"),
  "steps": [step("start", [OPEN]),
            step("transport_opened", [arm("handshake_deadline", 30000)], client_nonce=NONCE),
            frame(hello("0.5.0"), [send(connect_v1("0.3.0"))]),
            frame({"type": "error", "message": "Client is too old; upgrade required", "code": "unsupported_protocol_version",
                   "required": "0.4.0", "received": "0.3.0"},
                  [cancel("handshake_deadline"), close("unsupported_protocol_version"), ev("upgrade_required", required="0.4.0")]),
            advance(60000, [])]})

client("client.handshake.timeout",
       "A server that never sends hello: after 30 s the client gives up on this socket and backs off (the real client waits forever).",
       [step("start", [OPEN]),
        step("transport_opened", [arm("handshake_deadline", 30000)], client_nonce=NONCE),
        advance(30000, [close("handshake_timeout"), ev("disconnected", reason="handshake_timeout"),
                        arm("reconnect", 31000), ev("reconnect_scheduled", attempt=1, at=31000)])])

client("client.connect.timeout",
       "A connect or WebSocket upgrade that hangs: 15 s after open_transport the client closes that transport and "
       "backs off (the real client stays connecting for as long as the OS waits); the next transport's deadline is "
       "cancelled when it opens, and news of the abandoned one is ignored.",
       [step("start", [OPEN, arm("connect_deadline", 15000)]),
        advance(15000, [dict(close("connect_timeout"), transport=1), ev("disconnected", reason="connect_timeout"),
                        arm("reconnect", 16000), ev("reconnect_scheduled", attempt=1, at=16000)]),
        advance(1000, [dict(OPEN, transport=2), arm("connect_deadline", 31000)]),
        step("transport_opened", [], transport=1, client_nonce=NONCE),
        step("transport_opened", [cancel("connect_deadline"), arm("handshake_deadline", 46000)], transport=2,
             client_nonce=NONCE)])

client("client.connect.timeout_configured",
       "connect_timeout_ms configures the connect deadline (here 2 s; below 1 it would be 1, like every period).",
       [step("start", [OPEN, arm("connect_deadline", 2000)]),
        advance(2000, [dict(close("connect_timeout"), transport=1), ev("disconnected", reason="connect_timeout"),
                       arm("reconnect", 3000), ev("reconnect_scheduled", attempt=1, at=3000)])],
       connect_timeout_ms=2000)

client("client.handshake.overlong_hello_list",
       "A hello whose capabilities (or protocol_versions, auth_versions) list has more than 64 entries, the "
       "handshake-list cap, is refused before it is read: a handshake violation (reported, then the connection "
       "closes without connect), then back off.",
       [step("start", [OPEN]),
        step("transport_opened", [arm("handshake_deadline", 30000)], client_nonce=NONCE),
        frame(hello("0.5.0", protocol_versions=["0.4.0", "0.5.0"], auth_versions=[1], capabilities=["heartbeat"] * 65),
              [violation("hello", [("/capabilities", "handshake_list_too_long")], {"closed": "protocol_violation"}),
               cancel("handshake_deadline"), close("protocol_violation"), ev("disconnected", reason="protocol_violation"),
               arm("reconnect", 1000), ev("reconnect_scheduled", attempt=1, at=1000)])])

# --- auth ---
def v2_steps(caps=(), good=True):
    h = hello("0.5.0", protocol_versions=["0.4.0", "0.5.0"], auth_versions=[1, 2], capabilities=list(caps), challenge=CHALLENGE)
    pvs = ["0.4.0", "0.5.0"]
    c = {"type": "connect", "protocol_version": "0.5.0", "protocol_versions": pvs}
    if caps: c["capabilities"] = list(caps)
    c.update({"auth_version": 2, "client_nonce": NONCE})
    resp = client_mac(c, h)
    c["auth_response"] = resp
    k = connected("0.5.0", capabilities=sorted(caps), auth_version=2)
    k["server_proof"] = server_proof(k, resp) if good else "0" * 64
    return h, c, k

h, c, k = v2_steps()
client("client.auth.v2.proof_verified",
       "Auth v2: the key never travels; connect carries the HMAC answer (computed here with Python's hmac); connected "
       "carries the server's proof, verified before the client acts.",
       [step("start", [OPEN]), step("transport_opened", [arm("handshake_deadline", 30000)], client_nonce=NONCE),
        frame(h, [send(c)]),
        frame(k, [cancel("handshake_deadline"), ev("connected", version="0.5.0", capabilities=[], auth_version=2), arm("ping", 30000)])])

h, c, k = v2_steps(good=False)
client("client.auth.v2.bad_proof",
       "A wrong server_proof: the client closes, asks for the user, and acts on none of the frames that follow.",
       [step("start", [OPEN]), step("transport_opened", [arm("handshake_deadline", 30000)], client_nonce=NONCE),
        frame(h, [send(c)]),
        frame(k, [cancel("handshake_deadline"), close("server_proof_invalid"), ev("reauth_required", reason="server_proof_invalid")]),
        frame(SESSION_LIST, [])])

client("client.auth.downgrade_refused",
       "A client that refuses auth v1 never sends its key to a server offering no challenge.",
       [step("start", [OPEN]), step("transport_opened", [arm("handshake_deadline", 30000)], client_nonce=NONCE),
        frame(hello("0.5.0"), [cancel("handshake_deadline"), close("downgrade_refused"), ev("reauth_required", reason="downgrade_refused")])],
       allow_auth_v1=False)

REFUSED = [cancel("handshake_deadline"), close("downgrade_refused"), ev("reauth_required", reason="downgrade_refused")]
h, c, k = v2_steps()
client("client.auth.v2.stripped_challenge_default",
       "A client left to its default (no allow_auth_v1: v1 refused) facing a vcproto hello whose challenge a man in the "
       "middle stripped: no connect, so no key on the wire; the unproven connected and any other frame that follow "
       "are acted on by no one.",
       [step("start", [OPEN]), step("transport_opened", [arm("handshake_deadline", 30000)], client_nonce=NONCE),
        frame({m: v for m, v in h.items() if m != "challenge"}, REFUSED),
        frame(connected("0.5.0", capabilities=[], auth_version=1), []), frame(SESSION_LIST, [])],
       allow_auth_v1=None)

client("client.auth.legacy_hello_default",
       "A client left to its default facing a 0.2.0-style hello (no negotiation members, no challenge): it refuses "
       "auth v1, sends nothing, and no later frame makes it ready (a v1 client would take any frame for success).",
       [step("start", [OPEN]), step("transport_opened", [arm("handshake_deadline", 30000)], client_nonce=NONCE),
        frame(hello("0.2.0"), REFUSED), frame(SESSION_LIST, []), frame(connected("0.2.0"), [])],
       min_version="0.2.0", allow_auth_v1=None)


# --- authenticated frames (STANDARDS.md#authenticated-frames): enforced once negotiated ---
CMD = {"type": "execute_command", "command_id": "git.status", "working_directory": "/srv/app"}
STARTED = {"type": "command_started", "command_session_id": "cs-1", "command_id": "git.status",
           "shell_command": "git status"}
RECENT = {"type": "recent_sessions", "sessions": [], "limit": 5}
def frames_client():
    """start -> subscribe -> v2 handshake granting authenticated_frames; the subscribe goes out sealed (seq 0)."""
    h, c, k = v2_steps(caps=(FR,))
    to_server, to_client = (Sealer(key) for key in frame_keys(k, c["auth_response"]))
    sub = to_server({"type": "subscribe", "session_id": S1, "from_offset": 0})
    steps = [step("start", [OPEN]), step("subscribe", [], session_id=S1, cursor=None),
             step("transport_opened", [arm("handshake_deadline", 30000)], client_nonce=NONCE),
             frame(h, [send(c)]),
             frame(k, [cancel("handshake_deadline"), ev("connected", version="0.5.0", capabilities=[FR], auth_version=2),
                       send(sub), arm("ping", 30000)])]
    return steps, to_server, to_client, sub
def refused_by_client(code):
    return [cancel("ping"), close(code), ev("disconnected", reason=code), arm("reconnect", 1000),
            ev("reconnect_scheduled", attempt=1, at=1000)]
def frames_client_vector(id, desc, more):
    steps, to_server, to_client, sub = frames_client()
    client(id, desc, steps + more(to_server, to_client, sub), capabilities=[FR], allow_auth_v1=False)

frames_client_vector(
    "client.auth.frames.sealed_conversation",
    "authenticated_frames granted on a verified auth v2 handshake: every frame after connected is sealed both ways "
    "(keys: HKDF-SHA256 over the handshake; MACs computed here with Python's hmac), each direction counting from 0; "
    "the application sees the inner frames only.",
    lambda to_server, to_client, sub: [
        frame(to_client(SESSION_LIST), [ev("received", frame=SESSION_LIST)]),
        step("send", [send(to_server(CMD)), arm("request_deadline", RQ)], frame=CMD, request_id="r-1"),
        frame(to_client(STARTED), [ev("answered", request_id="r-1", frame=STARTED)]),
        advance(30000, [send(to_server(PING)), arm("pong_deadline", 45000), arm("ping", 60000)]),
        frame(to_client(PONG), [cancel("pong_deadline")])])
frames_client_vector(
    "client.auth.frames.plain_refused",
    "With authenticated frames in force a plain frame is injected: not_authenticated, the connection closes and "
    "the frame reaches nothing (a plain unsupported_protocol_version refusal does not park the client); later "
    "frames are ignored.",
    lambda to_server, to_client, sub: [
        frame({"type": "error", "code": "unsupported_protocol_version", "required": "0.6.0", "received": "0.5.0",
               "message": "Client is too old; upgrade required"}, refused_by_client("not_authenticated")),
        frame(to_client(SESSION_LIST), [])])
def altered(to_server, to_client, sub):
    genuine = to_client(SESSION_LIST)
    return [frame(dict(genuine, frame=genuine["frame"].replace('"total_count":0', '"total_count":1')),
                  refused_by_client("mac_mismatch"))]
frames_client_vector(
    "client.auth.frames.altered_refused",
    "A sealed frame whose inner text was altered on the way: mac_mismatch, close, nothing delivered.", altered)
def replayed(to_server, to_client, sub):
    genuine = to_client(SESSION_LIST)
    return [frame(genuine, [ev("received", frame=SESSION_LIST)]), frame(genuine, refused_by_client("replayed"))]
frames_client_vector(
    "client.auth.frames.replayed_refused",
    "A genuine sealed frame delivered twice: the second is replayed, the connection closes, it is delivered once.",
    replayed)
def reordered(to_server, to_client, sub):
    to_client(SESSION_LIST)  # seq 0, held back by the attacker
    return [frame(to_client(RECENT), refused_by_client("sequence_gap"))]
frames_client_vector(
    "client.auth.frames.reordered_refused",
    "The server's second sealed frame arrives first: sequence_gap, close, nothing delivered.", reordered)
def malformed(to_server, to_client, sub):
    genuine = to_client(SESSION_LIST)
    return [frame(dict(genuine, note="x"), refused_by_client("malformed")), frame(genuine, [])]
frames_client_vector(
    "client.auth.frames.malformed_refused",
    "A genuine sealed frame with a member added (a wrapper has exactly type, seq, mac and frame): malformed, close, "
    "nothing delivered; the genuine frame after it is ignored.", malformed)
frames_client_vector(
    "client.auth.frames.reflected_refused",
    "The client's own sealed subscribe sent back to it: the server-to-client key does not match (mac_mismatch), close.",
    lambda to_server, to_client, sub: [frame(sub, refused_by_client("mac_mismatch"))])

h, c, k = negotiated_ready([FR])
k["auth_version"] = 1
client("client.auth.frames.granted_without_v2",
       "A connected that grants authenticated_frames on auth v1 (no handshake keys, nothing could be sealed) is a "
       "protocol violation: close and back off, never ready.",
       [step("start", [OPEN]), step("transport_opened", [arm("handshake_deadline", 30000)], client_nonce=NONCE),
        frame(h, [send(c)]),
        frame(k, [cancel("handshake_deadline"), close("protocol_violation"), ev("disconnected", reason="protocol_violation"),
                  arm("reconnect", 1000), ev("reconnect_scheduled", attempt=1, at=1000)])],
       capabilities=[FR], allow_auth_v1=True)

AUTH_ERROR = {"type": "auth_error", "message": "Authentication failed"}
def reconnect_to_hello(at_open):
    return [step("transport_opened", [arm("handshake_deadline", at_open + 30000)], client_nonce=NONCE),
            frame(hello(), [send(connect_v1())])]
client("client.bug.auth_error_keeps_reconnecting",
       "Real-system bug (no reconnect after auth error): one auth_error stopped iOS for good. The engine retries with "
       "backoff and asks the user only after 3 consecutive refusals.",
       ready_steps()[:3] + [
           frame(AUTH_ERROR, [cancel("handshake_deadline"), close("auth_failed"), ev("disconnected", reason="auth_failed"),
                              arm("reconnect", 1000), ev("reconnect_scheduled", attempt=1, at=1000)]),
           step("transport_closed", [], detail="closed by server"),
           advance(1000, [OPEN])] + reconnect_to_hello(1000) + [
           frame(AUTH_ERROR, [cancel("handshake_deadline"), close("auth_failed"), ev("disconnected", reason="auth_failed"),
                              arm("reconnect", 3000), ev("reconnect_scheduled", attempt=2, at=3000)]),
           advance(2000, [OPEN])] + reconnect_to_hello(3000) + [
           frame(AUTH_ERROR, [cancel("handshake_deadline"), close("auth_failed"), ev("reauth_required", reason="auth_failed")]),
           advance(60000, []),
           step("start", [OPEN])])

# --- keepalive / heartbeat ---
client("client.keepalive.pong_timeout",
       "No frame within 15 s of a ping: the connection is dead (the real client has no deadline); reconnect after 1 s.",
       ready_steps() + [
           advance(30000, [send(PING), arm("pong_deadline", 45000), arm("ping", 60000)]),
           advance(15000, [cancel("ping"), close("pong_timeout"), ev("disconnected", reason="pong_timeout"),
                           arm("reconnect", 46000), ev("reconnect_scheduled", attempt=1, at=46000)])])

client("client.keepalive.pong_timeout_longer_than_ping_interval",
       "The pong deadline belongs to the oldest unanswered ping: with a pong timeout (45 s) longer than the ping "
       "interval (30 s) the second ping goes out but leaves the first one's deadline alone, so a dead peer is "
       "detected 45 s after the first unanswered ping (issue 30: each ping re-armed the deadline, and a dead peer "
       "was never detected).",
       ready_steps() + [
           advance(30000, [send(PING), arm("pong_deadline", 75000), arm("ping", 60000)]),
           advance(30000, [send(PING), arm("ping", 90000)]),
           advance(15000, [cancel("ping"), close("pong_timeout"), ev("disconnected", reason="pong_timeout"),
                           arm("reconnect", 76000), ev("reconnect_scheduled", attempt=1, at=76000)])],
       pong_timeout_ms=45000)

client("client.keepalive.any_frame_answers",
       "Any frame after the ping proves the peer alive: the pong deadline passes without closing.",
       ready_steps() + [
           advance(30000, [send(PING), arm("pong_deadline", 45000), arm("ping", 60000)]),
           advance(5000, []),
           frame(SESSION_LIST, [ev("received", frame=SESSION_LIST)]),
           advance(10000, [])])

h, c, k = negotiated_ready(["heartbeat"])
HB = {"type": "heartbeat", "timestamp": "2026-01-11T16:47:25Z"}
client("client.heartbeat.timeout",
       "Heartbeat extension: the server beats every 45 s; with no frame for 90 s the client reconnects. (Pings are "
       "set 10 minutes apart here so that only the heartbeat rule acts.)",
       ready_steps(caps=["heartbeat"], hello_frame=h, connect_frame=c, connected_frame=k, heartbeat_at=90000, ping_at=600000) + [
           advance(45000, []),
           frame(HB, []),
           advance(45000, [arm("heartbeat_deadline", 135000)]),
           advance(45000, [cancel("ping"), close("heartbeat_timeout"), ev("disconnected", reason="heartbeat_timeout"),
                           arm("reconnect", 136000), ev("reconnect_scheduled", attempt=1, at=136000)])],
       capabilities=["heartbeat"], ping_interval_ms=600000)

client("client.heartbeat.not_negotiated_ignored",
       "A heartbeat from a server that did not negotiate it is ignored (clients without heartbeat support must not fail).",
       ready_steps() + [frame(HB, [])])

# --- reconnect ---
DROP = [cancel("ping"), ev("disconnected", reason="transport_closed")]
DROP_RQ = [cancel("ping"), cancel("request_deadline"), ev("disconnected", reason="transport_closed")]
steps = ready_steps() + [step("transport_closed", DROP + [arm("reconnect", 1000), ev("reconnect_scheduled", attempt=1, at=1000)], detail="reset")]
t, wait = 1000, 1000
for n, delay in enumerate([2000, 4000, 8000, 16000, 30000, 30000], start=2):
    steps.append(advance(wait, [OPEN]))
    steps.append(step("transport_closed", [ev("disconnected", reason="transport_closed"),
                                           arm("reconnect", t + delay), ev("reconnect_scheduled", attempt=n, at=t + delay)],
                      detail="connection refused"))
    t, wait = t + delay, delay
steps.append(advance(wait, [OPEN]))
steps += [step("transport_opened", [arm("handshake_deadline", t + 30000)], client_nonce=NONCE),
          frame(hello(), [send(connect_v1())]),
          frame(connected("0.5.0"), [cancel("handshake_deadline"), ev("connected", version="0.5.0", capabilities=[], auth_version=1),
                                     arm("ping", t + 30000)]),
          step("transport_closed", DROP + [arm("reconnect", t + 1000), ev("reconnect_scheduled", attempt=1, at=t + 1000)], detail="reset")]
client("client.reconnect.backoff",
       "Exponential backoff without jitter: 1, 2, 4, 8, 16, 30, 30 s (base 1 s, cap 30 s); the count restarts after connected.",
       steps)

rng = SplitMix64(42)
d1 = backoff(0, rng); d2 = backoff(1, rng)
client("client.reconnect.jitter",
       "Backoff with ±25 % jitter from SplitMix64 seeded 42 (delays computed independently here), floored at 1 s.",
       ready_steps() + [
           step("transport_closed", DROP + [arm("reconnect", d1), ev("reconnect_scheduled", attempt=1, at=d1)], detail="reset"),
           advance(d1, [OPEN]),
           step("transport_closed", [ev("disconnected", reason="transport_closed"), arm("reconnect", d1 + d2),
                                     ev("reconnect_scheduled", attempt=2, at=d1 + d2)], detail="refused")],
       jitter=0.25, random_seed=42)

# The cap holds after jitter: seeded 42, attempt 5's jittered delay would be 35,523 ms (the real
# clients' 37.5 s at worst); it is 30,000.
rng = SplitMix64(42)
delays = [backoff(n, rng) for n in range(6)]
replay = SplitMix64(42)
units = [replay.unit() for _ in range(6)]
assert delays[5] == 30000 and int(30000 * (1 + 0.25 * (2 * units[5] - 1))) == 35523
steps = ready_steps() + [step("transport_closed", DROP + [arm("reconnect", delays[0]),
                                                        ev("reconnect_scheduled", attempt=1, at=delays[0])], detail="reset")]
t = delays[0]
for n, delay in enumerate(delays[1:], start=2):
    steps.append(advance(delays[n - 2], [OPEN]))
    steps.append(step("transport_closed", [ev("disconnected", reason="transport_closed"), arm("reconnect", t + delay),
                                           ev("reconnect_scheduled", attempt=n, at=t + delay)], detail="refused"))
    t += delay
client("client.reconnect.jitter_capped",
       "The backoff cap holds after jitter: with ±25 % jitter (SplitMix64 seeded 42) attempt 6 would wait 35.5 s; "
       "it waits the cap, 30 s.",
       steps, jitter=0.25, random_seed=42)

client("client.reconnect.stopped_by_host",
       "The host ends reconnecting with its reason (a failure it judges permanent): the pending reconnect goes and "
       "the application is told, once; start connects again.",
       ready_steps() + [
           step("transport_closed", DROP + [arm("reconnect", 1000), ev("reconnect_scheduled", attempt=1, at=1000)], detail="refused"),
           step("stop", [cancel("reconnect"), ev("stopped", reason="certificate rejected")], reason="certificate rejected"),
           advance(60000, []),
           step("stop", [], reason="again"),
           step("start", [OPEN])])

client("client.reconnect.gives_up_when_configured",
       "With max_reconnect_attempts 1 the client stops after one failed attempt and says so.",
       ready_steps() + [
           step("transport_closed", DROP + [arm("reconnect", 1000), ev("reconnect_scheduled", attempt=1, at=1000)], detail="reset"),
           advance(1000, [OPEN]),
           step("transport_closed", [ev("disconnected", reason="transport_closed"), ev("gave_up", attempts=1)], detail="refused"),
           step("resume", [OPEN])],
       max_reconnect_attempts=1)

h, c, k = negotiated_ready(["draining"])
client("client.draining.waits_retry_after",
       "draining: the client closes and reconnects after retry_after_ms (jitter 0 here), not as a failure.",
       ready_steps(caps=["draining"], hello_frame=h, connect_frame=c, connected_frame=k) + [
           frame({"type": "draining", "message": "Server shutting down, please reconnect", "retry_after_ms": 5000},
                 [cancel("ping"), close("draining"), ev("disconnected", reason="draining"), arm("reconnect", 5000),
                  ev("reconnect_scheduled", attempt=1, at=5000)]),
           step("transport_closed", [], detail="server closed")],
       capabilities=["draining"])

h, c, k = negotiated_ready(["disconnect"])
client("client.disconnect.clean",
       "Clean disconnect (going to the background): disconnect{reason} when negotiated, close, no reconnect; resume reconnects.",
       ready_steps(caps=["disconnect"], hello_frame=h, connect_frame=c, connected_frame=k) + [
           step("stop", [send({"type": "disconnect", "reason": "background"}), cancel("ping"), close("client_disconnect"),
                         ev("disconnected", reason="client_disconnect"), ev("stopped", reason="background")], reason="background"),
           frame(SESSION_LIST, []),
           advance(60000, []),
           step("resume", [OPEN])],
       capabilities=["disconnect"])

# --- requests ---
EXEC = {"type": "execute_command", "command_id": "git.status", "working_directory": "/Users/dev/voice-code"}
OUT = {"type": "get_command_output", "command_session_id": "cmd-1"}
INFER = {"type": "infer_session_name", "session_id": S1, "message_text": "Fix the backoff"}
INFERRED = {"type": "session_name_inferred", "session_id": S1, "name": "Backoff fix"}
OUT_FULL = {"type": "command_output_full", "command_session_id": "cmd-1", "output": "ok\n", "exit_code": 0,
            "timestamp": "2026-01-11T17:00:00.000Z", "duration_ms": 12, "command_id": "make-test",
            "shell_command": "make test", "working_directory": "/home/u/project"}
client("client.requests.full_list",
       "At most max_pending_requests wait (256 by default; 2 here): a new request takes the place of the oldest "
       "untracked one; when every waiting one is tracked, a new untracked request is sent unrecorded (its answer is "
       "delivered as received) and a new tracked one fails at once with too_many_pending.",
       ready_steps() + [
           step("send", [send(EXEC), arm("request_deadline", RQ)], frame=EXEC, request_id="r1"),
           step("send", [send(OUT)], frame=OUT),
           step("send", [send(INFER)], frame=INFER, request_id="r3"),
           step("send", [send(OUT)], frame=OUT),
           step("send", [ev("request_failed", request_id="r5", reason="too_many_pending")], frame=EXEC, request_id="r5"),
           frame(OUT_FULL, [ev("received", frame=OUT_FULL)]),
           frame(INFERRED, [ev("answered", request_id="r3", frame=INFERRED)])],
       max_pending_requests=2)

client("client.bug.pending_request_fails_on_drop",
       "Real-system bug (executeCommand hangs after a drop): every request still waiting fails with connection_lost "
       "when the socket drops; an answered one is delivered as answered.",
       ready_steps() + [
           step("send", [send(EXEC), arm("request_deadline", RQ)], frame=EXEC, request_id="r1"),
           step("send", [send(OUT)], frame=OUT, request_id="r2"),
           step("send", [send(INFER)], frame=INFER, request_id="r3"),
           frame(INFERRED, [ev("answered", request_id="r3", frame=INFERRED)]),
           step("transport_closed", [ev("request_failed", request_id="r1", reason="connection_lost"),
                                     ev("request_failed", request_id="r2", reason="connection_lost")] + DROP_RQ +
                [arm("reconnect", 1000), ev("reconnect_scheduled", attempt=1, at=1000)], detail="reset")])

client("client.requests.stop_fails_pending",
       "An explicit stop fails waiting requests with stopped.",
       ready_steps() + [
           step("send", [send(EXEC), arm("request_deadline", RQ)], frame=EXEC, request_id="r1"),
           step("stop", [ev("request_failed", request_id="r1", reason="stopped"), cancel("ping"), cancel("request_deadline"),
                         close("client_disconnect"),
                         ev("disconnected", reason="client_disconnect"), ev("stopped", reason="user")], reason="user")])

# The outbox (STANDARDS.md#outbox): a request with a request id made while the client is not ready
# (connecting, handshaking, backing off) waits, at most outbox_capacity of them (32 by default), and is
# sent once ready, after the subscribes, oldest first, keeping the deadline it got when queued
# (outbox_deadline, which outlives a lost connection); one without a request id is refused.
DOWN = [step("transport_closed", DROP + [arm("reconnect", 1000), ev("reconnect_scheduled", attempt=1, at=1000)],
             detail="reset")]
client("client.outbox.delivered_after_reconnect",
       "Requests made while reconnecting wait in the outbox and go out in order once the connection is ready, "
       "after the subscribes, with the deadline they got when queued; an untracked send is refused meanwhile "
       "(issue 30: a request made while reconnecting threw).",
       ready_steps() + DOWN + [
           step("send", [arm("outbox_deadline", RQ)], frame=OUT, request_id="r1"),
           step("send", [], frame=INFER, request_id="r2"),
           step("send", error={"state": "backing_off", "event": "send"}, frame=EXEC),
           advance(1000, [OPEN])] + reconnect_to_hello(1000) + [
           frame(connected("0.5.0"), [cancel("handshake_deadline"),
                                      ev("connected", version="0.5.0", capabilities=[], auth_version=1),
                                      send(OUT), arm("request_deadline", RQ), send(INFER), cancel("outbox_deadline"),
                                      arm("ping", 31000)]),
           frame(OUT_FULL, [ev("answered", request_id="r1", frame=OUT_FULL)]),
           frame(INFERRED, [ev("answered", request_id="r2", frame=INFERRED)])])

client("client.outbox.full",
       "At most outbox_capacity requests wait (32 by default; 1 here): the next fails at once with outbox_full.",
       ready_steps() + DOWN + [
           step("send", [arm("outbox_deadline", RQ)], frame=OUT, request_id="r1"),
           step("send", [ev("request_failed", request_id="r2", reason="outbox_full")], frame=INFER, request_id="r2")],
       outbox_capacity=1)

client("client.outbox.timeout",
       "A queued request fails with timeout at its request timeout counted from the send (5 s here), while the "
       "client is still connecting; outbox_deadline moves on to the next queued request's deadline.",
       ready_steps() + DOWN + [
           step("send", [arm("outbox_deadline", 5000)], frame=OUT, request_id="r1"),
           advance(1000, [OPEN]),
           advance(3000, []),
           step("send", [], frame=INFER, request_id="r2"),
           advance(1000, [ev("request_failed", request_id="r1", reason="timeout"), arm("outbox_deadline", 9000)]),
           advance(4000, [ev("request_failed", request_id="r2", reason="timeout")])],
       request_timeout_ms=5000)

client("client.outbox.stop",
       "Stopping the client fails every queued request with stopped, before the stopped event.",
       ready_steps() + DOWN + [
           step("send", [arm("outbox_deadline", RQ)], frame=OUT, request_id="r1"),
           step("stop", [cancel("reconnect"), ev("request_failed", request_id="r1", reason="stopped"),
                         cancel("outbox_deadline"), ev("stopped", reason="user")], reason="user")])

client("client.outbox.gave_up",
       "A client that stops reconnecting by itself (here max_reconnect_attempts 1) fails its queued requests with "
       "not_reconnecting: nothing will send them.",
       ready_steps() + DOWN + [
           step("send", [arm("outbox_deadline", RQ)], frame=OUT, request_id="r1"),
           advance(1000, [OPEN]),
           step("transport_closed", [ev("disconnected", reason="transport_closed"), ev("gave_up", attempts=1),
                                     ev("request_failed", request_id="r1", reason="not_reconnecting"),
                                     cancel("outbox_deadline")], detail="refused")],
       max_reconnect_attempts=1)

# An `error` carries no request id. Each request handler of the real server refuses a bad request
# synchronously with its own messages (the catalog's per-request `errors`), and the server handles one
# socket's frames in order, so an `error` whose message is one of a request type's refusals ends the
# oldest pending request of that type, delivered as its answer (STANDARDS.md#requests).
EXEC_NO_DIR = {"type": "execute_command", "command_id": "git.status"}
NO_DIR = {"type": "error", "message": "working_directory required in execute_command message"}
NOT_FOUND = {"type": "error", "message": "Command output not found: cmd-1"}
STARTED = {"type": "command_started", "command_id": "git.status", "command_session_id": "cmd-2",
           "shell_command": "git status"}
client("client.bug.error_refuses_request",
       "Real-system bug (a request refused with error waits until the connection drops): an error whose message is "
       "one of a request type's refusals in the catalog ends the oldest pending request of that type, as its "
       "answer; requests of other types keep waiting.",
       ready_steps() + [
           step("send", [send(EXEC_NO_DIR), arm("request_deadline", RQ)], frame=EXEC_NO_DIR, request_id="r1"),
           step("send", [send(OUT)], frame=OUT, request_id="r2"),
           step("send", [send(EXEC)], frame=EXEC, request_id="r3"),
           frame(NOT_FOUND, [ev("answered", request_id="r2", frame=NOT_FOUND)]),
           frame(NO_DIR, [ev("answered", request_id="r1", frame=NO_DIR)]),
           frame(STARTED, [ev("answered", request_id="r3", frame=STARTED)]),
           step("transport_closed", DROP_RQ + [arm("reconnect", 1000), ev("reconnect_scheduled", attempt=1, at=1000)],
                detail="reset")])

HISTORY = {"type": "get_command_history", "limit": 10}
UNKNOWN = {"type": "error", "message": "Unknown message type: get_command_history"}
client("client.0.2.0.requests.error_unknown_type",
       "A server that does not know a request type answers 'Unknown message type: <type>': the oldest pending "
       "request of that type ends with that error as its answer.",
       ready_steps(version="0.2.0", hello_frame=hello("0.2.0"), connected_frame=SESSION_LIST)[:-1] + [
           frame(SESSION_LIST, [cancel("handshake_deadline"), ev("connected", version="0.2.0", capabilities=[], auth_version=1),
                                arm("ping", 30000), ev("received", frame=SESSION_LIST)]),
           step("send", [send(EXEC), arm("request_deadline", RQ)], frame=EXEC, request_id="r1"),
           step("send", [send(HISTORY)], frame=HISTORY, request_id="r2"),
           frame(UNKNOWN, [ev("answered", request_id="r2", frame=UNKNOWN)]),
           step("stop", [ev("request_failed", request_id="r1", reason="stopped"), cancel("ping"), cancel("request_deadline"),
                         close("client_disconnect"),
                         ev("disconnected", reason="client_disconnect"), ev("stopped", reason="user")], reason="user")],
       min_version="0.2.0")

def locked(session): return {"type": "session_locked", "message": "Session is currently processing a prompt. Please wait.",
                             "session_id": session}
P2 = {"type": "prompt", "text": "Go on", "resume_session_id": S1}
C2 = {"type": "compact_session", "session_id": S2}
R2 = {"type": "start_recipe", "session_id": S1, "recipe_id": "review"}
client("client.0.2.0.requests.session_locked",
       "0.2.0's per-session lock: the real 0.2.0 server refuses a prompt, compact_session or start_recipe of a locked "
       "session with session_locked {session_id} instead of the answer (catalog 0.2.0). It ends the oldest waiting "
       "request of those types about the session it names, and only one; with none left it is received.",
       ready_steps(version="0.2.0", hello_frame=hello("0.2.0"), connected_frame=SESSION_LIST)[:-1] + [
           frame(SESSION_LIST, [cancel("handshake_deadline"), ev("connected", version="0.2.0", capabilities=[], auth_version=1),
                                arm("ping", 30000), ev("received", frame=SESSION_LIST)]),
           step("send", [send(P2), arm("request_deadline", RQ)], frame=P2, request_id="r1"),
           step("send", [send(C2)], frame=C2, request_id="r2"),
           step("send", [send(R2)], frame=R2, request_id="r3"),
           frame(locked(S2), [ev("answered", request_id="r2", frame=locked(S2))]),
           frame(locked(S1), [ev("answered", request_id="r1", frame=locked(S1))]),
           frame(locked(S1), [ev("answered", request_id="r3", frame=locked(S1))]),
           frame(locked(S1), [ev("received", frame=locked(S1))])],
       min_version="0.2.0")

PROCESSING = {"type": "error", "message": "Error processing message: class java.lang.String cannot be cast"}
INVALID_SUB = {"type": "error", "code": "invalid_subscribe", "message": "from_offset must be a non-negative integer"}
PROMPT_RESUME = {"type": "prompt", "text": "Go on", "resume_session_id": S1}
NO_CLI_OTHER = {"type": "error", "message": "No AI CLI tools installed. Please install Claude Code or GitHub Copilot CLI.",
                "session_id": S2}
DISPATCH = {"type": "error", "message": "Failed to dispatch prompt: tmux exited", "session_id": S1}
client("client.requests.error_not_attributed",
       "An error that no request type's refusals match (a handler exception, a coded subscribe error), one naming "
       "another session, or one the server also sends after answering (prompt dispatch failure) ends no request: "
       "it is delivered as received and the requests keep waiting (they still fail when the connection ends).",
       ready_steps() + [
           step("send", [send(EXEC), arm("request_deadline", RQ)], frame=EXEC, request_id="r1"),
           step("send", [send(PROMPT_RESUME)], frame=PROMPT_RESUME, request_id="r2"),
           frame(PROCESSING, [ev("received", frame=PROCESSING)]),
           frame(INVALID_SUB, [ev("received", frame=INVALID_SUB)]),
           frame(NO_CLI_OTHER, [ev("received", frame=NO_CLI_OTHER)]),
           frame(DISPATCH, [ev("received", frame=DISPATCH)]),
           step("stop", [ev("request_failed", request_id="r1", reason="stopped"),
                         ev("request_failed", request_id="r2", reason="stopped"), cancel("ping"),
                         cancel("request_deadline"), close("client_disconnect"), ev("disconnected", reason="client_disconnect"),
                         ev("stopped", reason="user")], reason="user")])

PROMPT_ACK = {"type": "ack", "message": "Processing prompt..."}
SIZE_ACK = {"type": "ack", "message": "Max message size set to 200 KB"}
client("client.requests.untracked_requests_keep_their_place",
       "Answers and refusals are matched in request order, counting the requests nobody tracks: the ack of the "
       "engine's own set_max_message_size does not answer a prompt sent right after it, and the refusal of an "
       "untracked execute_command does not end a tracked one.",
       ready_steps(size=200) + [
           step("send", [send(PROMPT_RESUME)], frame=PROMPT_RESUME, request_id="r1"),
           step("send", [send(EXEC_NO_DIR)], frame=EXEC_NO_DIR),
           step("send", [send(EXEC_NO_DIR)], frame=EXEC_NO_DIR, request_id="r2"),
           frame(SIZE_ACK, [ev("received", frame=SIZE_ACK)]),
           frame(PROMPT_ACK, [ev("answered", request_id="r1", frame=PROMPT_ACK)]),
           frame(NO_DIR, [ev("received", frame=NO_DIR)]),
           frame(NO_DIR, [ev("answered", request_id="r2", frame=NO_DIR)])],
       max_message_size_kb=200)

RECIPE = {"type": "start_recipe", "session_id": S1, "recipe_id": "implement-and-review"}
RECIPE_STARTED = {"type": "recipe_started", "recipe_id": "implement_and_review", "recipe_label": "Implement & Review",
                  "session_id": S1, "current_step": "implement", "step_count": 1}
RECIPE_ACK = {"type": "ack", "message": "Starting recipe..."}
client("client.requests.answer_followed_by_ack",
       "The real server answers start_recipe with recipe_started, then ack 'Starting recipe...' from the same "
       "handler (the catalog's followed_by): that ack belongs to the start_recipe and does not answer a prompt sent "
       "after it, which waits for its own ack.",
       ready_steps() + [
           step("send", [send(RECIPE), arm("request_deadline", RQ)], frame=RECIPE, request_id="r1"),
           step("send", [send(PROMPT_RESUME)], frame=PROMPT_RESUME, request_id="r2"),
           frame(RECIPE_STARTED, [ev("answered", request_id="r1", frame=RECIPE_STARTED)]),
           frame(RECIPE_ACK, [ev("received", frame=RECIPE_ACK)]),
           frame(PROMPT_ACK, [ev("answered", request_id="r2", frame=PROMPT_ACK)])])

SET_DIRECTORY = {"type": "set_directory", "path": "/Users/dev/voice-code"}
DIRECTORY_SET = {"type": "ack", "message": "Directory set"}
PROMPT_020 = {"type": "prompt", "text": "Go on", "resume_session_id": S1}
client("client.0.2.0.requests.set_directory_ack",
       "The real 0.2.0 server answers set_directory with ack 'Directory set' (the catalog's answers): an untracked "
       "set_directory waits for it like any request, so that ack does not answer a prompt sent after it.",
       ready_steps(version="0.2.0", hello_frame=hello("0.2.0"), connected_frame=SESSION_LIST)[:-1] + [
           frame(SESSION_LIST, [cancel("handshake_deadline"), ev("connected", version="0.2.0", capabilities=[], auth_version=1),
                                arm("ping", 30000), ev("received", frame=SESSION_LIST)]),
           step("send", [send(SET_DIRECTORY), arm("request_deadline", RQ)], frame=SET_DIRECTORY),
           step("send", [send(PROMPT_020)], frame=PROMPT_020, request_id="r1"),
           frame(DIRECTORY_SET, [ev("received", frame=DIRECTORY_SET)]),
           frame(PROMPT_ACK, [ev("answered", request_id="r1", frame=PROMPT_ACK)])],
       min_version="0.2.0")

COMPACT = {"type": "compact_session", "session_id": S1}
COMPACTED = {"type": "compaction_complete", "session_id": S1}
FAR = 10000000  # keepalive far away, so that only the request deadline acts
client("client.requests.timeout",
       "A request whose answer never comes (here r1, left waiting by an error no request type's refusals match) "
       "fails with timeout 120 s after it was sent, instead of waiting for the connection to drop. One timer, at the "
       "earliest deadline; answers do not move it. An untracked request expires silently, so its stale entry does "
       "not take the answer of a later request of its type; compact_session waits 1 h 2 min. A late answer is "
       "received like any other frame.",
       ready_steps(ping_at=FAR) + [
           step("send", [send(EXEC), arm("request_deadline", RQ)], frame=EXEC, request_id="r1"),
           step("send", [send(PROMPT_RESUME)], frame=PROMPT_RESUME),
           advance(10000, []),
           step("send", [send(INFER)], frame=INFER, request_id="r2"),
           step("send", [send(COMPACT)], frame=COMPACT, request_id="r3"),
           frame(PROCESSING, [ev("received", frame=PROCESSING)]),
           advance(110000, [ev("request_failed", request_id="r1", reason="timeout"), arm("request_deadline", 10000 + RQ)]),
           advance(10000, [ev("request_failed", request_id="r2", reason="timeout"), arm("request_deadline", 10000 + SLOW_RQ)]),
           step("send", [send(PROMPT_RESUME), arm("request_deadline", 130000 + RQ)], frame=PROMPT_RESUME, request_id="r4"),
           frame(PROMPT_ACK, [ev("answered", request_id="r4", frame=PROMPT_ACK)]),
           frame(INFERRED, [ev("received", frame=INFERRED)]),
           frame(COMPACTED, [ev("answered", request_id="r3", frame=COMPACTED)]),
           advance(RQ, [])],
       ping_interval_ms=FAR)

PROMPT_NEW = {"type": "prompt", "text": "Start", "new_session_id": S2, "working_directory": "/tmp"}
client("client.bug.session_ready_lost_on_reconnect",
       "Real-system bug (session_ready lost on reconnect): session_ready goes to the connection that sent the prompt. "
       "After a drop the engine subscribes to the new session itself, so its messages arrive without session_ready.",
       ready_steps() + [
           step("send", [send(PROMPT_NEW), arm("request_deadline", RQ)], frame=PROMPT_NEW),
           step("transport_closed", DROP_RQ + [arm("reconnect", 1000), ev("reconnect_scheduled", attempt=1, at=1000)], detail="reset"),
           advance(1000, [OPEN])] + reconnect_to_hello(1000) + [
           frame(connected("0.5.0"), [cancel("handshake_deadline"), ev("connected", version="0.5.0", capabilities=[], auth_version=1),
                                      send({"type": "subscribe", "session_id": S2, "from_offset": 0}), arm("ping", 31000)])])

h, c, k = negotiated_ready(["message_ack"])
RESP = {"type": "response", "message_id": "m1", "success": True, "text": "Done", "session_id": S1}
REPLAY1 = {"type": "replay", "message_id": "m1", "message": {"role": "assistant", "text": "Done", "session_id": S1}}
REPLAY2 = {"type": "replay", "message_id": "m2", "message": {"role": "assistant", "text": "More", "session_id": S1}}
client("client.message_ack.ack_and_dedupe_replay",
       "message_ack: every frame with a message_id is acknowledged; a replay of an id already delivered is acknowledged "
       "again but not delivered twice.",
       ready_steps(caps=["message_ack"], hello_frame=h, connect_frame=c, connected_frame=k) + [
           frame(RESP, [send({"type": "message_ack", "message_id": "m1"}), ev("received", frame=RESP)]),
           frame(REPLAY1, [send({"type": "message_ack", "message_id": "m1"})]),
           frame(REPLAY2, [send({"type": "message_ack", "message_id": "m2"}), ev("received", frame=REPLAY2)])],
       capabilities=["message_ack"])

# --- subscriptions per version ---
SUB5 = lambda frm: {"type": "subscribe", "session_id": S1, "from_offset": frm}
client("client.0.5.0.subscribe.chain_and_dedup",
       "0.5.0: resume from the stored offset (no file_signature_seen: the real server's signature changes on every append); "
       "end_of_file:false continues from next_offset; a push repeating an offset is a replace; another session's message is dropped.",
       ready_steps() + [
           step("subscribe", [send(SUB5(10))], session_id=S1, cursor=off(10, "100:u-0")),
           frame(hist5([msg5(10), msg5(12)], 13, eof=False, sig="150:u-0"),
                 [update(insert=[msg5(10), msg5(12)], cursor=off(13, "150:u-0"), complete=False), send(SUB5(13))]),
           frame(hist5([msg5(13)], 14, sig="160:u-0"), [update(insert=[msg5(13)], cursor=off(14, "160:u-0"))]),
           frame(hist5([msg5(13), msg5(14), msg5(15, session=S2)], 15, sig="170:u-0"),
                 [update(insert=[msg5(14)], replace=[msg5(13)], cursor=off(15, "170:u-0"), dropped=1)])])

client("client.bug.stalled_chain_retries",
       "Real-system hazard (spurious stalled chain): a half-written last line gives end_of_file:false with an unchanged "
       "next_offset. iOS aborted with a 'stalled' banner; the engine asks again 1 s later.",
       ready_steps() + [
           step("subscribe", [send(SUB5(0))], session_id=S1, cursor=None),
           frame(hist5([msg5(0)], 5, eof=False), [update(insert=[msg5(0)], cursor=off(5, "100:u-0"), complete=False), send(SUB5(5))]),
           frame(hist5([], 5, eof=False), [arm("continuation:" + S1, 1000), update(cursor=off(5, "100:u-0"), complete=False)]),
           advance(1000, [send(SUB5(5))]),
           frame(hist5([msg5(5)], 6, sig="120:u-0"), [update(insert=[msg5(5)], cursor=off(6, "120:u-0"))])])

client("client.0.5.0.file_replaced",
       "file_replaced:true: purge everything of the session and reload from offset 0.",
       ready_steps() + [
           step("subscribe", [send(SUB5(40))], session_id=S1, cursor=off(40, "900:u-0")),
           frame(hist5([], 0, sig="80:u-9", file_replaced=True),
                 [update(purge="all", cursor=off(0, "80:u-9"), complete=False), send(SUB5(0))]),
           frame(hist5([msg5(0)], 1, sig="80:u-9"), [update(insert=[msg5(0)], cursor=off(1, "80:u-9"))])])

client("client.bug.signature_growth_is_not_replacement",
       "Real-system bug (file signature forces a full reload): a signature whose byte length grew with the same first "
       "record is the same file: no purge. A different first record, or a shorter file, is a replacement.",
       ready_steps() + [
           step("subscribe", [send(SUB5(3))], session_id=S1, cursor=off(3, "100:u-0")),
           frame(hist5([msg5(3)], 4, sig="180:u-0"), [update(insert=[msg5(3)], cursor=off(4, "180:u-0"))]),
           frame(hist5([msg5(4)], 5, sig="50:u-0"),
                 [update(purge="all", cursor=off(0, "50:u-0"), complete=False), send(SUB5(0))])])

client("client.0.5.0.client_ahead_purge",
       "Client ahead: a reply whose next_offset is below the cursor purges every message at offset >= next_offset.",
       ready_steps() + [
           step("subscribe", [send(SUB5(20))], session_id=S1, cursor=off(20, "500:u-0")),
           frame(hist5([], 15, sig="500:u-0"), [update(purge={"from": 15}, cursor=off(15, "500:u-0"))])])

SUB4 = lambda n: {"type": "subscribe", "session_id": S1, "last_seq": n}
client("client.0.4.0.subscribe.continuation_and_client_ahead",
       "0.4.0: subscribe with last_seq; is_complete:false re-subscribes from the returned last_seq; gap client_ahead "
       "purges seq >= next_seq.",
       ready_steps(version="0.4.0", hello_frame=hello("0.4.0")) + [
           step("subscribe", [send(SUB4(5))], session_id=S1, cursor={"last_seq": 5}),
           frame(hist4([msg4(6), msg4(7)], 7, 8, complete=False),
                 [update(insert=[msg4(6), msg4(7)], cursor={"last_seq": 7}, complete=False), send(SUB4(7))]),
           frame(hist4([msg4(8)], 8, 9), [update(insert=[msg4(8)], cursor={"last_seq": 8})]),
           step("unsubscribe", [send({"type": "unsubscribe", "session_id": S1})], session_id=S1),
           step("subscribe", [send(SUB4(50))], session_id=S1, cursor={"last_seq": 50}),
           frame(hist4([msg4(1), msg4(2)], 2, 3, gap={"requested_last_seq": 50, "min_available_seq": 1, "reason": "client_ahead"}),
                 [update(insert=[msg4(1), msg4(2)], purge={"from": 3}, cursor={"last_seq": 2},
                         gap={"requested_last_seq": 50, "min_available_seq": 1, "reason": "client_ahead"})])])

PRUNED = {"requested_last_seq": 2, "min_available_seq": 10, "reason": "pruned"}
client("client.0.4.0.subscribe.dedup_and_pruned",
       "0.4.0: a message whose seq was delivered is a replace, another session's message is dropped; a gap with reason "
       "pruned (the catalog allows it; the real server never sends it, STANDARDS.md#versions) is passed on as "
       "received, with no purge, and the cursor moves to the frame's last_seq.",
       ready_steps(version="0.4.0", hello_frame=hello("0.4.0")) + [
           step("subscribe", [send(SUB4(5))], session_id=S1, cursor={"last_seq": 5}),
           frame(hist4([msg4(6), msg4(7)], 7, 8), [update(insert=[msg4(6), msg4(7)], cursor={"last_seq": 7})]),
           frame(hist4([msg4(7), msg4(8), msg4(9, session=S2)], 8, 9),
                 [update(insert=[msg4(8)], replace=[msg4(7)], cursor={"last_seq": 8}, dropped=1)]),
           step("unsubscribe", [send({"type": "unsubscribe", "session_id": S1})], session_id=S1),
           step("subscribe", [send(SUB4(2))], session_id=S1, cursor={"last_seq": 2}),
           frame(hist4([msg4(10), msg4(11)], 11, 12, gap=PRUNED),
                 [update(insert=[msg4(10), msg4(11)], cursor={"last_seq": 11}, gap=PRUNED)])])

AHEAD_BAD = {"requested_last_seq": 40, "min_available_seq": 1, "reason": "client_ahead"}
client("client.0.4.0.subscribe.untrusted_positions",
       "0.4.0: positions the protocol forbids are never acted on (STANDARDS.md#subscriptions and "
       "STANDARDS.md#peer-integers): a frame with one fails validation and is dropped and reported as a violation "
       "(a client_ahead gap whose next_seq is below 1, -2^63 once trapped on next_seq - 1; a message at a negative "
       "seq); nothing changes (the next frame resumes from the cursor). An application cursor with a negative "
       "last_seq is none (the subscribe asks from 0).",
       ready_steps(version="0.4.0", hello_frame=hello("0.4.0")) + [
           step("subscribe", [send(SUB4(40))], session_id=S1, cursor={"last_seq": 40}),
           frame(hist4([], None, -2**63, gap=AHEAD_BAD),
                 [violation("session_history", [("/next_seq", "invalid_value")])]),
           frame(hist4([], None, 0, gap=AHEAD_BAD), [violation("session_history", [("/next_seq", "invalid_value")])]),
           frame(hist4([msg4(-1), msg4(41)], 41, 42),
                 [violation("session_history", [("/first_seq", "invalid_value"), ("/messages/0/seq", "invalid_value")])]),
           frame(hist4([msg4(41)], 41, 42), [update(insert=[msg4(41)], cursor={"last_seq": 41})]),
           step("unsubscribe", [send({"type": "unsubscribe", "session_id": S1})], session_id=S1),
           step("subscribe", [send(SUB4(0))], session_id=S1, cursor={"last_seq": -5})])

client("client.0.5.0.untrusted_positions",
       "0.5.0: a negative next_offset or a message at a negative offset fails validation: the frame is dropped and "
       "reported as a violation, nothing changes; an application cursor with a negative offset is none "
       "(from_offset 0).",
       ready_steps() + [
           step("subscribe", [send(SUB5(20))], session_id=S1, cursor=off(20, "500:u-0")),
           frame(hist5([], -1, sig="500:u-0"), [violation("session_history", [("/next_offset", "invalid_value")])]),
           frame(hist5([msg5(-3), msg5(21)], 22, sig="520:u-0"),
                 [violation("session_history", [("/messages/0/offset", "invalid_value")])]),
           frame(hist5([msg5(21)], 22, sig="520:u-0"), [update(insert=[msg5(21)], cursor=off(22, "520:u-0"))]),
           step("unsubscribe", [send({"type": "unsubscribe", "session_id": S1})], session_id=S1),
           step("subscribe", [send(SUB5(0))], session_id=S1, cursor=off(-2**63, None))])

# --- the validation boundary (issue 30) ---
SUMMARY_BAD = {"session_id": S2, "name": "n", "working_directory": "/w", "last_modified": "yesterday", "message_count": 1}
FUTURE = {"type": "future_thing", "x": 1}
client("client.validation.violations",
       "The engine is a validation boundary: every frame is decoded once against the connection's version, and one "
       "that fails is never delivered as if it were fine. An ordinary frame is dropped and reported as a violation "
       "(its error findings, sorted by pointer) and the connection goes on: a turn_complete without session_id, a "
       "session_list with a string last_modified, a type of another version (session_locked is 0.2.0's), a text "
       "that is not JSON, a session_history for a session the client never subscribed to. An unknown type from a "
       "newer peer is still delivered (as the unknown message it is).",
       ready_steps() + [
           step("subscribe", [send(SUB5(0))], session_id=S1, cursor=None),
           frame({"type": "turn_complete"}, [violation("turn_complete", [("/session_id", "missing_field")])]),
           frame({"type": "session_list", "sessions": [SUMMARY_BAD], "total_count": 1},
                 [violation("session_list", [("/sessions/0/last_modified", "wrong_type")])]),
           frame({"type": "session_locked", "session_id": S1, "message": "busy"},
                 [violation("session_locked", [("/type", "not_in_version")])]),
           step("received", [violation(None, [("", "invalid_json")])], text="not json"),
           frame(hist5([msg5(0, session=S2)], 1, session=S2),
                 [violation("session_history", [("/session_id", "unsubscribed_session_data")])]),
           frame(FUTURE, [ev("received", frame=FUTURE)]),
           frame(hist5([msg5(0)], 1), [update(insert=[msg5(0)], cursor=off(1, "100:u-0"))])])

client("client.validation.handshake_violation_closes",
       "A handshake message that fails validation closes the connection (reported first), then the client backs "
       "off: here a hello without version.",
       [step("start", [OPEN]),
        step("transport_opened", [arm("handshake_deadline", 30000)], client_nonce=NONCE),
        frame({k: v for k, v in hello().items() if k != "version"},
              [violation("hello", [("/version", "missing_field")], {"closed": "protocol_violation"}),
               cancel("handshake_deadline"), close("protocol_violation"), ev("disconnected", reason="protocol_violation"),
               arm("reconnect", 1000), ev("reconnect_scheduled", attempt=1, at=1000)])])

H2 = lambda msgs, newest: {"type": "session_history", "session_id": S1, "messages": msgs, "total_count": len(msgs),
                           "oldest_message_id": msgs[0]["uuid"] if msgs else None, "newest_message_id": newest, "is_complete": True}
client("client.0.2.0.subscribe.last_message_id",
       "0.2.0: subscribe with last_message_id; messages keyed by uuid; a repeated uuid is a replace; live "
       "session_updated pushes are merged the same way.",
       [step("start", [OPEN]), step("transport_opened", [arm("handshake_deadline", 30000)], client_nonce=NONCE),
        frame(hello("0.2.0"), [send(connect_v1())]),
        frame(SESSION_LIST, [cancel("handshake_deadline"), ev("connected", version="0.2.0", capabilities=[], auth_version=1),
                             arm("ping", 30000), ev("received", frame=SESSION_LIST)]),
        step("subscribe", [send({"type": "subscribe", "session_id": S1})], session_id=S1, cursor=None),
        frame(H2([msg2("a"), msg2("b")], "b"), [update(insert=[msg2("a"), msg2("b")], cursor={"last_message_id": "b"})]),
        frame({"type": "session_updated", "session_id": S1, "messages": [msg2("b"), msg2("c")]},
              [update(insert=[msg2("c")], replace=[msg2("b")], cursor={"last_message_id": "c"})])],
       min_version="0.2.0")

client("client.0.2.0.subscribe.no_position_yet",
       "0.2.0: a push before the client holds any message id (no uuid, no newest_message_id) reports no cursor "
       "(null: keep what you had), never a position of another version; the next uuid gives the first cursor.",
       [step("start", [OPEN]), step("transport_opened", [arm("handshake_deadline", 30000)], client_nonce=NONCE),
        frame(hello("0.2.0"), [send(connect_v1())]),
        frame(SESSION_LIST, [cancel("handshake_deadline"), ev("connected", version="0.2.0", capabilities=[], auth_version=1),
                             arm("ping", 30000), ev("received", frame=SESSION_LIST)]),
        step("subscribe", [send({"type": "subscribe", "session_id": S1})], session_id=S1, cursor=None),
        frame({"type": "session_updated", "session_id": S1, "messages": []}, [update(cursor=None)]),
        frame({"type": "session_updated", "session_id": S1, "messages": [{"type": "summary", "summary": "x"}]},
              [update(cursor=None, dropped=1)]),
        frame({"type": "session_updated", "session_id": S1, "messages": [msg2("a")]},
              [update(insert=[msg2("a")], cursor={"last_message_id": "a"})])],
       min_version="0.2.0")

client("client.0.3.0.subscribe.last_message_id",
       "0.3.0 (hello says 0.3.0, no connected): the same message-id resume as 0.2.0.",
       [step("start", [OPEN]), step("transport_opened", [arm("handshake_deadline", 30000)], client_nonce=NONCE),
        frame(hello("0.3.0"), [send(connect_v1())]),
        frame(SESSION_LIST, [cancel("handshake_deadline"), ev("connected", version="0.3.0", capabilities=[], auth_version=1),
                             arm("ping", 30000), ev("received", frame=SESSION_LIST)]),
        step("subscribe", [send({"type": "subscribe", "session_id": S1, "last_message_id": "b"})], session_id=S1,
             cursor={"last_message_id": "b"}),
        frame(H2([msg3("c")], "c"), [update(insert=[msg3("c")], cursor={"last_message_id": "c"})])],
       min_version="0.2.0")

client("client.subscriptions.survive_reconnect",
       "What survives a reconnect: desired subscriptions, re-sent with their latest cursor after connected.",
       ready_steps() + [
           step("subscribe", [send(SUB5(0))], session_id=S1, cursor=None),
           frame(hist5([msg5(0), msg5(2)], 3, sig="90:u-0"), [update(insert=[msg5(0), msg5(2)], cursor=off(3, "90:u-0"))]),
           step("transport_closed", DROP + [arm("reconnect", 1000), ev("reconnect_scheduled", attempt=1, at=1000)], detail="reset"),
           advance(1000, [OPEN])] + reconnect_to_hello(1000) + [
           frame(connected("0.5.0"), [cancel("handshake_deadline"), ev("connected", version="0.5.0", capabilities=[], auth_version=1),
                                      send(SUB5(3)), arm("ping", 31000)])])

client("client.subscriptions.family_change_forgets_positions",
       "A reconnect that negotiates another version family (0.4.0 seq, then 0.5.0 offset) forgets the positions "
       "delivered on the old one: offset 3 is a new message, not the seq 3 already delivered (an insert, not a "
       "replace); the seq cursor means nothing to 0.5.0, so the subscribe asks from offset 0. Within the new family "
       "a repeated offset is a replace again.",
       ready_steps(version="0.4.0", hello_frame=hello("0.4.0")) + [
           step("subscribe", [send(SUB4(0))], session_id=S1, cursor=None),
           frame(hist4([msg4(3)], 3, 4), [update(insert=[msg4(3)], cursor={"last_seq": 3})]),
           step("transport_closed", DROP + [arm("reconnect", 1000), ev("reconnect_scheduled", attempt=1, at=1000)], detail="reset"),
           advance(1000, [OPEN])] + reconnect_to_hello(1000) + [
           frame(connected("0.5.0"), [cancel("handshake_deadline"), ev("connected", version="0.5.0", capabilities=[], auth_version=1),
                                      send(SUB5(0)), arm("ping", 31000)]),
           frame(hist5([msg5(3)], 4, sig="90:u-3"), [update(insert=[msg5(3)], cursor=off(4, "90:u-3"))]),
           frame(hist5([msg5(3)], 4, sig="90:u-3"), [update(replace=[msg5(3)], cursor=off(4, "90:u-3"))])])

# A 0.2.0/0.3.0 cursor is a message id the server chose; the client keeps it only up to 256 UTF-8
# bytes (STANDARDS.md#subscription-bounds). "é" is 2 bytes: 128 of them are 256 bytes
# (kept), one more ASCII letter makes 257 bytes in 129 characters (dropped): the bound counts bytes.
ID256, ID257 = "é" * 128, "é" * 128 + "n"
assert len(ID256.encode()) == 256 and len(ID257.encode()) == 257
def ready_legacy(version, at=0):
    """A 0.2.0/0.3.0 server (no connected): hello, connect, then the session_list authenticates."""
    return [frame(hello(version), [send(connect_v1())]),
            frame(SESSION_LIST, [cancel("handshake_deadline"), ev("connected", version=version, capabilities=[], auth_version=1),
                                 arm("ping", at + 30000), ev("received", frame=SESSION_LIST)])]
client("client.0.2.0.subscribe.long_cursor_dropped",
       "0.2.0: a newest_message_id over 256 UTF-8 bytes (257 bytes in 129 characters) is not kept as the cursor: the "
       "update's cursor is null and the subscription has none; exactly 256 bytes is kept. A later long id drops the "
       "cursor it replaced.",
       [step("start", [OPEN]), step("transport_opened", [arm("handshake_deadline", 30000)], client_nonce=NONCE)]
       + ready_legacy("0.2.0") + [
           step("subscribe", [send({"type": "subscribe", "session_id": S1})], session_id=S1, cursor=None),
           frame(H2([msg2("a")], ID257), [update(insert=[msg2("a")], cursor=None)]),
           frame(H2([msg2("b")], ID256), [update(insert=[msg2("b")], cursor={"last_message_id": ID256})]),
           frame(H2([msg2("c")], ID257), [update(insert=[msg2("c")], cursor=None)])],
       min_version="0.2.0")

client("client.0.3.0.subscribe.long_cursor_dropped",
       "0.3.0: without newest_message_id the cursor is the newest inserted message's uuid; one over 256 UTF-8 bytes "
       "is not kept, so after a reconnect the subscribe has no last_message_id (the whole history), and the remembered "
       "positions make the repeated message a replace, not a second insert.",
       [step("start", [OPEN]), step("transport_opened", [arm("handshake_deadline", 30000)], client_nonce=NONCE)]
       + ready_legacy("0.3.0") + [
           step("subscribe", [send({"type": "subscribe", "session_id": S1, "last_message_id": "a"})], session_id=S1,
                cursor={"last_message_id": "a"}),
           frame({"type": "session_updated", "session_id": S1, "messages": [msg2(ID257)]},
                 [update(insert=[msg2(ID257)], cursor=None)]),
           step("transport_closed", DROP + [arm("reconnect", 1000), ev("reconnect_scheduled", attempt=1, at=1000)], detail="reset"),
           advance(1000, [OPEN]),
           step("transport_opened", [arm("handshake_deadline", 31000)], client_nonce=NONCE),
           frame(hello("0.3.0"), [send(connect_v1())]),
           frame(SESSION_LIST, [cancel("handshake_deadline"), ev("connected", version="0.3.0", capabilities=[], auth_version=1),
                                send({"type": "subscribe", "session_id": S1}), arm("ping", 31000),
                                ev("received", frame=SESSION_LIST)]),
           frame({"type": "session_updated", "session_id": S1, "messages": [msg2(ID257)]},
                 [update(replace=[msg2(ID257)], cursor=None)])],
       min_version="0.2.0")

# Configuration values outside their ranges are held to them (STANDARDS.md#configuration):
# a period below 1 ms is 1, the jitter within 0-1, a negative attempt limit 0, and a
# deadline past 2^63 - 1 (absolute milliseconds) is 2^63 - 1, a timer that never fires.
INT64_MAX = 2**63 - 1
h, c, k = negotiated_ready(["heartbeat"])
rng = SplitMix64(42)
d1 = backoff(0, rng, jitter=1.0)
client("client.config.clamped_timers",
       "Out-of-range timing: ping_interval_ms 0 and pong_timeout_ms -5 are 1 ms; heartbeat_timeout_ms 2^63 - 1 "
       "saturates (clock_start_ms + 2^63 - 1 is past the end of time: the deadline is 2^63 - 1 absolute, shown here "
       "as 2^63 - 1 - clock_start_ms, and never fires); jitter 7 is 1 (±100 %, SplitMix64 seeded 42). The pong "
       "deadline and the next ping fall due together; the deadline was armed first, so it fires first.",
       ready_steps(caps=["heartbeat"], hello_frame=h, connect_frame=c, connected_frame=k,
                   heartbeat_at=INT64_MAX - T0, ping_at=1) + [
           advance(1, [send(PING), arm("pong_deadline", 2), arm("ping", 2)]),
           advance(1, [cancel("heartbeat_deadline"), cancel("ping"), close("pong_timeout"),
                       ev("disconnected", reason="pong_timeout"), arm("reconnect", 2 + d1),
                       ev("reconnect_scheduled", attempt=1, at=2 + d1)])],
       capabilities=["heartbeat"], ping_interval_ms=0, pong_timeout_ms=-5, heartbeat_timeout_ms=INT64_MAX,
       jitter=7, random_seed=42)

h, c, k = negotiated_ready(["draining"])
rng = SplitMix64(42)
extra = int(5000 * 1.0 * rng.unit())
client("client.config.clamped_counts",
       "Out-of-range jitter 1e308 is 1: a draining reconnect waits retry_after_ms plus up to 100 % more (SplitMix64 "
       "seeded 42); max_reconnect_attempts -3 is 0: the next failure gives up at once (a draining reconnect is not "
       "a failure).",
       ready_steps(caps=["draining"], hello_frame=h, connect_frame=c, connected_frame=k) + [
           frame({"type": "draining", "message": "Server shutting down, please reconnect", "retry_after_ms": 5000},
                 [cancel("ping"), close("draining"), ev("disconnected", reason="draining"), arm("reconnect", 5000 + extra),
                  ev("reconnect_scheduled", attempt=1, at=5000 + extra)]),
           step("transport_closed", [], detail="server closed"),
           advance(5000 + extra, [OPEN]),
           step("transport_closed", [ev("disconnected", reason="transport_closed"), ev("gave_up", attempts=0)],
                detail="refused")],
       capabilities=["draining"], jitter=1e308, max_reconnect_attempts=-3, random_seed=42)

client("client.illegal.transport_opened_twice",
       "An event the state does not accept is an error value naming the state and the event: here the current "
       "transport reported open twice.",
       [step("start", [OPEN]),
        step("transport_opened", [arm("handshake_deadline", 30000)], client_nonce=NONCE),
        step("transport_opened", error={"state": "awaiting_hello", "event": "transport_opened"}, client_nonce=NONCE)])

# --- transports: news of a socket the engine is done with is ignored (issue 30: a host that reported
# transport_closed after the engine's own close abandoned the reconnect in progress, and the new
# socket's transport_opened then failed as an illegal event) ---
client("client.transport.stale_news_ignored",
       "The client closes transport 1 (handshake timeout), backs off and opens transport 2; the host then reports "
       "transport 1 closed, and opened: both are ignored (no action, no error) and transport 2 carries on. News "
       "of a transport never opened is ignored too, in idle as anywhere.",
       [step("transport_closed", [], transport=7, detail="never opened"),
        step("start", [OPEN]),
        step("transport_opened", [arm("handshake_deadline", 30000)], client_nonce=NONCE),
        advance(30000, [close("handshake_timeout"), ev("disconnected", reason="handshake_timeout"),
                        arm("reconnect", 31000), ev("reconnect_scheduled", attempt=1, at=31000)]),
        advance(1000, [OPEN]),
        step("transport_closed", [], transport=1, detail="closed by the client"),
        step("transport_opened", [], transport=1, client_nonce=NONCE),
        step("transport_opened", [arm("handshake_deadline", 61000)], transport=2, client_nonce=NONCE),
        frame(hello(), [send(connect_v1())]),
        frame(connected("0.5.0"), [cancel("handshake_deadline"),
                                   ev("connected", version="0.5.0", capabilities=[], auth_version=1),
                                   arm("ping", 61000)]),
        step("transport_closed", [], transport=1, detail="late again"),
        step("stop", [cancel("ping"), close("client_disconnect"), ev("disconnected", reason="client_disconnect"),
                      ev("stopped", reason="user")], reason="user"),
        step("transport_closed", [], transport=2, detail="closed by the client")])

client("client.transport.closed_while_opening",
       "A socket that fails to open is reported closed with its id: the client backs off, then opens the next one.",
       [step("start", [OPEN]),
        step("transport_closed", [ev("disconnected", reason="transport_closed"), arm("reconnect", 1000),
                                  ev("reconnect_scheduled", attempt=1, at=1000)], detail="connection refused"),
        step("transport_opened", [], transport=1, client_nonce=NONCE),
        advance(1000, [OPEN]),
        step("transport_opened", [arm("handshake_deadline", 31000)], client_nonce=NONCE)])

# ================= server =================
SERVER = []
def server_config(**kw):
    c = {"api_key": KEY, "protocol_versions": ["0.4.0", "0.5.0"], "floor": "0.4.0", "auth_versions": [1], "capabilities": [],
         "clock_start_ms": T0}
    c.update(kw); return c
def server(id, desc, steps, **cfg):
    SERVER.append({"id": id, "description": desc, "role": "server", "config": server_config(**cfg), "steps": steps})
def shello(versions=("0.4.0", "0.5.0"), auth=(1,), caps=(), challenge=None):
    # STANDARDS.md#auth-v2: a server with nothing to negotiate (no capability, no auth v2) sends the
    # real backend's four members only; otherwise the negotiation members follow.
    h = hello(versions[-1])
    h["auth_version"] = 1 if 1 in auth else max(auth)
    if not caps and tuple(auth) == (1,):
        return h
    h.update(protocol_versions=list(versions), auth_versions=list(auth), capabilities=list(caps))
    if challenge: h["challenge"] = challenge
    return h
def opened(connection_id=None, **kw):
    extra = {"connection_id": connection_id} if connection_id else {}
    return step("transport_opened", [send(shello(**kw)), arm("auth_deadline", 60000)], challenge=kw.get("challenge"), **extra)
def sconnected(version, caps=(), auth=1, session=None, **extra):
    # The real backend's members; capabilities and auth_version only when something was negotiated
    # (a capability accepted, or auth v2), so a client that asked for nothing sees the backend's frame.
    k = {"type": "connected", "message": "Session registered", "session_id": session, "negotiated_protocol_version": version}
    if caps or auth == 2:
        k.update(capabilities=list(caps), auth_version=auth)
    k.update(extra); return k
def authenticated(version, caps=(), auth=1, session=None, limit=5):
    return ev("authenticated", version=version, capabilities=sorted(caps), auth_version=auth, session_id=session,
              recent_sessions_limit=limit)
def closed_by(reason, *timers):
    return [cancel(t) for t in timers] + [close(reason), ev("closed", reason=reason)]
# A frame that broke the protocol reaches the application only as a violation (STANDARDS.md#server-boundary):
# its type, its error findings (code, pointer; sorted by pointer, then code) and what the
# engine did (dropped, or closed with a reason).
def violation(kind, findings, closed=None):
    return ev("violation", message_type=kind,
              findings=[{"code": c, "pointer": p} for c, p in sorted(findings, key=lambda f: (f[1], f[0]))],
              disposition={"closed": closed} if closed else "dropped")
def refused_before_auth(kind):
    return [send(AUTH_ERROR), violation(kind, [("before_authentication", "")], "not_authenticated")] + \
        closed_by("not_authenticated", "auth_deadline")
def sealed_refused(reason):
    """A sealed frame the channel refused: the violation, then the connection closes."""
    code = "frame_sequence" if reason in ("replayed", "sequence_gap") else "unauthenticated_frame"
    return [violation(None, [(code, "")], reason)] + closed_by(reason)

def ready_server(version="0.5.0", caps=(), **kw):
    c = connect_v1(version)
    if caps: c["capabilities"] = list(caps)
    after = [cancel("auth_deadline"), send(sconnected(version, caps)), authenticated(version, caps)]
    if "heartbeat" in caps: after.append(arm("heartbeat", 45000))
    return [opened(caps=kw.get("offer_caps", caps)), frame(c, after)]

server("server.0.5.0.handshake",
       "A server with nothing to negotiate: hello is the real backend's four members (the ceiling in version), connect "
       "from iOS (protocol_version 0.5.0) -> connected with only message, session_id (null: connect had none) and "
       "negotiated_protocol_version; ping answered before and after authentication.",
       [opened(), frame(PING, [send(PONG)]),
        frame(connect_v1(recent_sessions_limit=10),
              [cancel("auth_deadline"), send(sconnected("0.5.0")), authenticated("0.5.0", limit=10)]),
        frame(PING, [send(PONG)])])

server("server.0.4.0.handshake.silent_client",
       "Android/web announce nothing: they get the floor 0.4.0, and connected (0.4.0 servers send it).",
       [opened(), frame({"type": "connect", "api_key": KEY},
                        [cancel("auth_deadline"), send(sconnected("0.4.0")), authenticated("0.4.0")])])

server("server.0.2.0.handshake.legacy",
       "A 0.2.0 server and a silent client: success is silent (no connected), as the real 0.2.0 backend.",
       [opened(versions=("0.2.0",)), frame({"type": "connect", "api_key": KEY}, [cancel("auth_deadline"), authenticated("0.2.0")]),
        frame({"type": "subscribe", "session_id": S1, "last_message_id": "u-1"},
              [ev("subscribe", session_id=S1, cursor={"last_message_id": "u-1"})])],
       protocol_versions=["0.2.0"], floor=None)

server("server.0.3.0.handshake.announced",
       "A 0.3.0/0.4.0 server with floor 0.3.0: a client announcing 0.3.0 gets 0.3.0 and a connected frame (it negotiated); "
       "connect carries no session_id, so connected says null, as the real server (0.3.0 made the member nullable), "
       "whatever the host's connection id.",
       [opened(versions=("0.3.0", "0.4.0"), connection_id="conn-7"),
        frame(connect_v1("0.3.0"), [cancel("auth_deadline"), send(sconnected("0.3.0")), authenticated("0.3.0")]),
        frame({"type": "subscribe", "session_id": S1}, [ev("subscribe", session_id=S1, cursor=None)])],
       protocol_versions=["0.3.0", "0.4.0"], floor="0.3.0")

server("server.0.3.0.subscribe.last_message_id",
       "0.3.0 subscribe resumes by last_message_id (a string; null or absent is the whole history); unsubscribe ends it.",
       [opened(versions=("0.3.0", "0.4.0")),
        frame(connect_v1("0.3.0"), [cancel("auth_deadline"), send(sconnected("0.3.0")), authenticated("0.3.0")]),
        frame({"type": "subscribe", "session_id": S1, "last_message_id": "u-1"},
              [ev("subscribe", session_id=S1, cursor={"last_message_id": "u-1"})]),
        frame({"type": "subscribe", "session_id": S2, "last_message_id": None}, [ev("subscribe", session_id=S2, cursor=None)]),
        frame({"type": "unsubscribe", "session_id": S1}, [ev("unsubscribe", session_id=S1)])],
       protocol_versions=["0.3.0", "0.4.0"], floor="0.3.0")

server("server.0.2.0.handshake.announced",
       "A 0.2.0 server and a client that announces a version: it gets 0.2.0 and a connected frame; 0.2.0's connected "
       "needs a string session_id, so without one in connect it names the host's connection id.",
       [opened(versions=("0.2.0",), connection_id="conn-7"),
        frame(connect_v1("0.5.0"), [cancel("auth_deadline"), send(sconnected("0.2.0", session="conn-7")), authenticated("0.2.0")])],
       protocol_versions=["0.2.0"], floor=None)

server("server.handshake.nothing_negotiated",
       "A server that offers a capability sends the negotiation members in hello; a client that asks for none (every "
       "real client) gets the real backend's connected, without capabilities or auth_version, and no heartbeat.",
       [opened(caps=("heartbeat",)),
        frame(connect_v1("0.5.0", session_id=S1),
              [cancel("auth_deadline"), send(sconnected("0.5.0", session=S1)), authenticated("0.5.0", session=S1)])],
       capabilities=["heartbeat"])

server("server.handshake.too_old",
       "The too-old refusal: protocol_version 0.3.0 against 0.4.0/0.5.0, checked before the key; error with code, then close.",
       [opened(), frame(connect_v1("0.3.0"),
                        [send({"type": "error", "message": "Client is too old; upgrade required", "code": "unsupported_protocol_version",
                               "required": "0.4.0", "received": "0.3.0"})]
                        + closed_by("unsupported_protocol_version", "auth_deadline"))])

server("server.auth.wrong_key",
       "A wrong key: the generic auth_error, then close.",
       [opened(), frame({"type": "connect", "api_key": "untethered-ffffffffffffffffffffffffffffffff", "protocol_version": "0.5.0"},
                        [send(AUTH_ERROR)] + closed_by("auth_failed", "auth_deadline"))])

server("server.auth.pre_auth_frame",
       "Before authentication only ping and connect: a subscribe gets auth_error and close; the closed engine emits nothing.",
       [opened(), frame({"type": "subscribe", "session_id": S1}, refused_before_auth("subscribe")),
        frame(PING, []), advance(60000, [])])

server("server.auth.frame_without_type",
       "A frame without type before authentication is refused like any other.",
       [opened(), frame({"session_id": S1}, refused_before_auth(None))])

server("server.auth.deadline",
       "A socket that does not authenticate within 60 s is closed (the real server keeps it forever).",
       [opened(), advance(59999, []), advance(1, [close("auth_timeout"), ev("closed", reason="auth_timeout")])])

pvs = ["0.4.0", "0.5.0"]
CONNECT_V2 = {"type": "connect", "session_id": S1, "protocol_version": "0.5.0", "protocol_versions": pvs,
              "capabilities": ["heartbeat"], "auth_version": 2, "client_nonce": NONCE}
resp = CONNECT_V2["auth_response"] = client_mac(CONNECT_V2, shello(auth=(1, 2), caps=("heartbeat",), challenge=CHALLENGE))
proof = server_proof(sconnected("0.5.0", ["heartbeat"], auth=2, session=S1), resp)
server("server.auth.v2",
       "Auth v2: the answer to the hello's challenge is checked (HMAC computed here with Python's hmac) and connected "
       "carries the server's proof; the same challenge cannot be answered twice.",
       [opened(auth=(1, 2), caps=("heartbeat",), challenge=CHALLENGE),
        frame(CONNECT_V2, [cancel("auth_deadline"),
                           send(sconnected("0.5.0", ["heartbeat"], auth=2, session=S1, server_proof=proof)),
                           authenticated("0.5.0", ["heartbeat"], auth=2, session=S1), arm("heartbeat", 45000)]),
        frame(CONNECT_V2, [send(AUTH_ERROR)] + closed_by("auth_failed", "heartbeat"))],
       auth_versions=[1, 2], capabilities=["heartbeat"])

for name, back, said in [("1s", 1000, "1 s"), ("1d", 86400000, "a day"), ("2e62ms", 2**62, "2^62 ms")]:
    server("server.auth.v2.answer_before_challenge_" + name,
           "An auth v2 answer at a time %s before the challenge was issued (a clock that went backwards) is "
           "refused like an expired one: auth_error and close, without overflow at any distance." % said,
           [opened(auth=(1, 2), caps=("heartbeat",), challenge=CHALLENGE), advance(-back, []),
            frame(CONNECT_V2, [send(AUTH_ERROR)] + closed_by("auth_failed", "auth_deadline"))],
           auth_versions=[1, 2], capabilities=["heartbeat"])

bad = dict(CONNECT_V2, auth_response="0" * 64)
server("server.auth.v2.wrong_answer",
       "A wrong auth v2 answer: auth_error and close.",
       [opened(auth=(1, 2), caps=("heartbeat",), challenge=CHALLENGE), frame(bad, [send(AUTH_ERROR)] + closed_by("auth_failed", "auth_deadline"))],
       auth_versions=[1, 2], capabilities=["heartbeat"])


# --- authenticated frames (STANDARDS.md#authenticated-frames): enforced once negotiated ---
def frames_server():
    """A v2 connect asking for authenticated_frames, granted: connected (plain, with the proof) and the keys."""
    hello_f = shello(auth=(2,), caps=(FR,), challenge=CHALLENGE)
    connect = {"type": "connect", "session_id": S1, "protocol_version": "0.5.0", "protocol_versions": pvs,
               "capabilities": [FR], "auth_version": 2, "client_nonce": NONCE}
    connect["auth_response"] = response = client_mac(connect, hello_f)
    k = sconnected("0.5.0", [FR], auth=2, session=S1)
    k["server_proof"] = server_proof(k, response)
    to_server, to_client = (Sealer(key) for key in frame_keys(k, response))
    steps = [opened(auth=(2,), caps=(FR,), challenge=CHALLENGE),
             frame(connect, [cancel("auth_deadline"), send(k), authenticated("0.5.0", [FR], auth=2, session=S1)])]
    return steps, to_server, to_client, connect
def frames_server_vector(id, desc, more):
    steps, to_server, to_client, connect = frames_server()
    server(id, desc, steps + more(to_server, to_client, connect), auth_versions=[2], capabilities=[FR])
SCMD = {"type": "execute_command", "command_id": "git.status", "working_directory": "/srv/app"}
frames_server_vector(
    "server.auth.frames.sealed_conversation",
    "authenticated_frames granted with auth v2: connected goes out plain (with its proof), then every frame both "
    "ways is sealed, each direction counting from 0 (keys: HKDF-SHA256 over the handshake; MACs computed here with "
    "Python's hmac); the application gets the inner frames and its frames go out sealed.",
    lambda to_server, to_client, connect: [
        frame(to_server(PING), [send(to_client(PONG))]),
        frame(to_server({"type": "subscribe", "session_id": S1, "from_offset": 0}),
              [ev("subscribe", session_id=S1, cursor=off(0, None))]),
        frame(to_server(SCMD), [ev("request", frame=SCMD)]),
        step("send", [send(to_client(SESSION_LIST))], frame=SESSION_LIST),
        frame(to_server({"type": "subscribe", "session_id": S1, "from_offset": -1}),
              [send(to_client({"type": "error", "message": "from_offset must be a non-negative integer",
                               "code": "invalid_subscribe"})),
               violation("subscribe", [("invalid_value", "/from_offset")])])])
frames_server_vector(
    "server.auth.frames.plain_refused",
    "With authenticated frames in force an injected plain execute_command is refused: not_authenticated, close; "
    "the application never sees it (a plain ping is refused the same way).",
    lambda to_server, to_client, connect: [frame(SCMD, sealed_refused("not_authenticated")), frame(PING, [])])
frames_server_vector(
    "server.auth.frames.plain_ping_refused",
    "A plain ping after connected is not answered: not_authenticated, close.",
    lambda to_server, to_client, connect: [frame(PING, sealed_refused("not_authenticated"))])
frames_server_vector(
    "server.auth.frames.forged_refused",
    "An authenticated wrapper forged without the key (a well-formed MAC of zeros): mac_mismatch, close, no request.",
    lambda to_server, to_client, connect: [
        frame({"type": "authenticated", "seq": 0, "mac": "0" * 64,
               "frame": json.dumps(SCMD, separators=(",", ":"))}, sealed_refused("mac_mismatch"))])
def s_altered(to_server, to_client, connect):
    genuine = to_server(SCMD)
    return [frame(dict(genuine, frame=genuine["frame"].replace("/srv/app", "/")), sealed_refused("mac_mismatch"))]
frames_server_vector(
    "server.auth.frames.altered_refused",
    "A sealed execute_command whose directory was altered on the way: mac_mismatch, close, no request.", s_altered)
def s_replayed(to_server, to_client, connect):
    genuine = to_server(SCMD)
    return [frame(genuine, [ev("request", frame=SCMD)]), frame(genuine, sealed_refused("replayed"))]
frames_server_vector(
    "server.auth.frames.replayed_refused",
    "A genuine sealed execute_command delivered twice: the second is replayed, close; the command runs once.",
    s_replayed)
def s_reordered(to_server, to_client, connect):
    to_server(PING)  # seq 0, held back by the attacker
    return [frame(to_server(SCMD), sealed_refused("sequence_gap"))]
frames_server_vector(
    "server.auth.frames.reordered_refused",
    "The client's second sealed frame arrives first: sequence_gap, close, no request.", s_reordered)
def s_reflected(to_server, to_client, connect):
    pong = to_client(PONG)
    return [frame(to_server(PING), [send(pong)]), frame(pong, sealed_refused("mac_mismatch"))]
frames_server_vector(
    "server.auth.frames.reflected_refused",
    "The server's own sealed pong sent back to it: the client-to-server key does not match (mac_mismatch), close.",
    s_reflected)
def s_malformed(to_server, to_client, connect):
    genuine = to_server(SCMD)
    return [frame(dict(genuine, seq=str(genuine["seq"])), sealed_refused("malformed")), frame(genuine, [])]
frames_server_vector(
    "server.auth.frames.malformed_refused",
    "A genuine sealed execute_command whose seq is written as a string (seq is an integer literal): malformed, "
    "close, no request; the genuine frame after it reaches nothing.", s_malformed)
frames_server_vector(
    "server.auth.frames.not_json_refused",
    "A message that is not JSON where an authenticated frame is due: malformed, close (without the capability the "
    "server answers error and stays open).",
    lambda to_server, to_client, connect: [step("malformed_frame", sealed_refused("malformed"), detail="bad")])
frames_server_vector(
    "server.auth.frames.second_connect_refused",
    "A sealed second connect: the frame keys belong to the first handshake, so it is refused like a failed "
    "authentication (a sealed auth_error, then close).",
    lambda to_server, to_client, connect: [
        frame(to_server(connect), [send(to_client(AUTH_ERROR))] + closed_by("auth_failed"))])

server("server.auth.v1_claiming_v2_no_frames",
       "An auth v1 connect (the key itself) that claims auth_version 2 is not granted authenticated_frames: the grant "
       "follows the auth performed, so connected says auth_version 1 without the capability and frames stay plain.",
       [opened(auth=(1, 2), caps=(FR, "heartbeat"), challenge=CHALLENGE),
        frame(connect_v1(auth_version=2, capabilities=[FR, "heartbeat"]),
              [cancel("auth_deadline"), send(sconnected("0.5.0", ["heartbeat"])), authenticated("0.5.0", ["heartbeat"]),
               arm("heartbeat", 45000)]),
        frame(PING, [send(PONG)])],
       auth_versions=[1, 2], capabilities=[FR, "heartbeat"])

def ts(ms): return datetime.datetime.fromtimestamp((T0 + ms) / 1000, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
server("server.heartbeat.every_45s",
       "Heartbeat extension: a heartbeat {timestamp, RFC 3339 UTC} every 45 s after authentication.",
       ready_server(caps=["heartbeat"]) + [
           advance(45000, [send({"type": "heartbeat", "timestamp": ts(45000)}), arm("heartbeat", 90000)]),
           advance(45000, [send({"type": "heartbeat", "timestamp": ts(90000)}), arm("heartbeat", 135000)])],
       capabilities=["heartbeat"])

server("server.0.5.0.subscribe.validation",
       "0.5.0 subscribe: from_offset (default 0, null counts as absent) must be a non-negative integer; file_signature_seen "
       "a string when present; session_id required. Errors as the real server words them.",
       ready_server() + [
           frame({"type": "subscribe", "session_id": S1, "from_offset": 10, "file_signature_seen": "100:u-0"},
                 [ev("subscribe", session_id=S1, cursor=off(10, "100:u-0"))]),
           frame({"type": "subscribe", "session_id": S2, "from_offset": None}, [ev("subscribe", session_id=S2, cursor=off(0, None))]),
           frame({"type": "subscribe", "session_id": S1, "from_offset": -1},
                 [send({"type": "error", "message": "from_offset must be a non-negative integer", "code": "invalid_subscribe"}),
                  violation("subscribe", [("invalid_value", "/from_offset")])]),
           frame({"type": "subscribe", "session_id": S1, "from_offset": "5"},
                 [send({"type": "error", "message": "from_offset must be a non-negative integer", "code": "invalid_subscribe"}),
                  violation("subscribe", [("wrong_type", "/from_offset")])]),
           frame({"type": "subscribe", "session_id": S1, "file_signature_seen": 5},
                 [send({"type": "error", "message": "file_signature_seen must be a string when provided", "code": "invalid_subscribe"}),
                  violation("subscribe", [("wrong_type", "/file_signature_seen")])]),
           frame({"type": "subscribe"}, [send({"type": "error", "message": "session_id required in subscribe message"}),
                                         violation("subscribe", [("missing_field", "/session_id")])])])

server("server.0.4.0.subscribe.validation",
       "0.4.0 subscribe: last_seq a non-negative integer (5.0 is not); a non-null last_message_id is unsupported_subscribe_field.",
       ready_server("0.4.0") + [
           frame({"type": "subscribe", "session_id": S1, "last_seq": 7}, [ev("subscribe", session_id=S1, cursor={"last_seq": 7})]),
           frame({"type": "subscribe", "session_id": S1, "last_message_id": None}, [ev("subscribe", session_id=S1, cursor={"last_seq": 0})]),
           frame({"type": "subscribe", "session_id": S1, "last_seq": 5.0},
                 [send({"type": "error", "message": "last_seq must be a non-negative integer", "code": "invalid_subscribe"}),
                  violation("subscribe", [("wrong_type", "/last_seq")])]),
           frame({"type": "subscribe", "session_id": S1, "last_message_id": "u-1"},
                 [send({"type": "error", "message": "last_message_id is not supported in protocol v0.4.0; use last_seq instead",
                        "code": "unsupported_subscribe_field"}),
                  violation("subscribe", [("invalid_value", "/last_message_id")])])])

HIST = hist5([msg5(0)], 1)
server("server.session_data.only_to_subscribers",
       "The server engine refuses session data for a session the client did not subscribe to (0.4.0+: per-channel "
       "gating), and any application frame before authentication.",
       [opened(), step("send", error={"state": "awaiting_connect", "event": "send"}, frame=SESSION_LIST)] +
       ready_server()[1:] + [
           step("send", error={"state": "authenticated", "event": "send"}, frame=HIST),
           frame({"type": "subscribe", "session_id": S1, "from_offset": 0}, [ev("subscribe", session_id=S1, cursor=off(0, None))]),
           step("send", [send(HIST)], frame=HIST),
           frame({"type": "unsubscribe", "session_id": S1}, [ev("unsubscribe", session_id=S1)]),
           step("send", error={"state": "authenticated", "event": "send"}, frame=HIST)])

server("server.extensions.not_negotiated",
       "Extension frames the client did not negotiate are refused; extension requests are passed on as ordinary requests.",
       ready_server() + [
           step("send", error={"state": "authenticated", "event": "send"}, frame={"type": "heartbeat", "timestamp": ts(0)}),
           frame({"type": "message_ack", "message_id": "m1"}, [ev("request", frame={"type": "message_ack", "message_id": "m1"})]),
           step("drain", [close("draining"), ev("closed", reason="draining")], retry_after_ms=5000, message="bye")])

PROMPT_K = {"type": "prompt", "text": "Run the tests", "resume_session_id": S1, "idempotency_key": "k-1"}
server("server.idempotency.repeated_key",
       "idempotent_prompt: a prompt whose key was seen is answered with the ack and not run again.",
       ready_server(caps=["idempotent_prompt"]) + [
           frame(PROMPT_K, [ev("request", frame=PROMPT_K)]),
           frame(PROMPT_K, [send({"type": "ack", "message": "Processing prompt..."}), ev("duplicate_prompt", idempotency_key="k-1")])],
       capabilities=["idempotent_prompt"])

RESP_S = {"type": "response", "message_id": "m1", "success": True, "text": "Done", "session_id": S1}
server("server.message_ack.buffer",
       "message_ack: a frame with message_id is kept until acknowledged; an ack for an unknown id (for example one that "
       "arrives after a reconnect) is a warning event, not an error.",
       ready_server(caps=["message_ack"]) + [
           step("send", [send(RESP_S)], frame=RESP_S),
           frame({"type": "message_ack", "message_id": "m1"}, []),
           frame({"type": "message_ack", "message_id": "m1"}, [ev("unknown_ack", message_id="m1")])],
       capabilities=["message_ack"])

def resp(mid, text):
    return {"type": "response", "message_id": mid, "success": True, "text": text, "session_id": S1}
# Costs: message_id (2 bytes) + text + session_id; S1 is a 36-byte uuid.
R1, R2, R3, BIG = resp("m1", "a" * 22), resp("m2", "b" * 22), resp("m3", "c" * 22), resp("m4", "d" * 63)
server("server.message_ack.byte_budget",
       "message_ack: the replay buffer is bounded by bytes as well as count (here 100 bytes; a frame costs the UTF-8 bytes "
       "of message_id, text and session_id, 60 each): the oldest frames are dropped and reported; a frame over the whole "
       "budget is sent but never kept, so its ack is unknown and it is not replayed.",
       ready_server(caps=["message_ack"]) + [
           step("send", [send(R1)], frame=R1),
           step("send", [send(R2), ev("replay_evicted", message_id="m1")], frame=R2),
           frame({"type": "message_ack", "message_id": "m1"}, [ev("unknown_ack", message_id="m1")]),
           step("send", [send(BIG), ev("replay_evicted", message_id="m4")], frame=BIG),
           frame({"type": "message_ack", "message_id": "m4"}, [ev("unknown_ack", message_id="m4")]),
           frame({"type": "message_ack", "message_id": "m2"}, []),
           step("send", [send(R3)], frame=R3)],
       capabilities=["message_ack"], replay_buffer_bytes=100)

server("server.draining",
       "drain: draining {message, retry_after_ms} when negotiated, then close; nothing after.",
       ready_server(caps=["draining", "heartbeat"]) + [
           step("drain", [send({"type": "draining", "message": "Server shutting down, please reconnect", "retry_after_ms": 5000})]
                + closed_by("draining", "heartbeat"), retry_after_ms=5000, message="Server shutting down, please reconnect"),
           frame(PING, [])],
       capabilities=["draining", "heartbeat"])

server("server.close",
       "close from the application: the timers cancelled in name order, close (server_close), closed; nothing after.",
       ready_server(caps=["heartbeat"]) + [
           step("close", closed_by("server_close", "heartbeat")),
           frame(PING, [])],
       capabilities=["heartbeat"])

server("server.transport_closed",
       "The socket went by itself: the timers cancelled, closed (transport_closed); no close action, nothing after.",
       ready_server(caps=["heartbeat"]) + [
           step("transport_closed", [cancel("heartbeat"), ev("closed", reason="transport_closed")]),
           frame(PING, [])],
       capabilities=["heartbeat"])

server("server.disconnect",
       "disconnect (negotiated): the client leaves on purpose; the server closes without treating it as a failure.",
       ready_server(caps=["disconnect"]) + [
           frame({"type": "disconnect", "reason": "background"},
                 [ev("client_disconnecting", reason="background"), close("client_disconnect"), ev("closed", reason="client_disconnect")])],
       capabilities=["disconnect"])

server("server.malformed_frame",
       "A frame that is not JSON gets an error and the socket stays open, before or after authentication.",
       [opened(), step("malformed_frame", [send({"type": "error", "message": "Error processing message: invalid_json"}),
                                           violation(None, [("invalid_json", "")])],
                       detail="Unexpected end of input"),
        frame(PING, [send(PONG)])])

server("server.request_forwarded",
       "Other requests go to the application as they are.",
       ready_server() + [frame(EXEC, [ev("request", frame=EXEC)])])

# subscribe.session_id is bounded (ServerConfiguration.maxSessionIdBytes, 256 UTF-8 bytes by default;
# STANDARDS.md#server-details): a longer one is refused with an error naming the bound,
# before any other check of the frame, and not remembered.
TOO_LONG = {"type": "error", "message": "session_id is longer than 256 bytes"}
def hist(session):
    return hist5([], 0, session=session)
server("server.0.5.0.subscribe.session_id_too_long",
       "0.5.0: a session_id of 257 UTF-8 bytes (129 characters) is refused before its from_offset is read, and not "
       "remembered: session data for it is then refused (STANDARDS.md#subscriptions). Exactly 256 bytes is accepted.",
       ready_server() + [
           frame({"type": "subscribe", "session_id": ID257, "from_offset": 0}, [send(TOO_LONG)]),
           frame({"type": "subscribe", "session_id": ID257, "from_offset": -1},
                 [send(TOO_LONG), violation("subscribe", [("invalid_value", "/from_offset")])]),
           step("send", error={"state": "authenticated", "event": "send"}, frame=hist(ID257)),
           frame({"type": "subscribe", "session_id": ID256, "from_offset": 0},
                 [ev("subscribe", session_id=ID256, cursor=off(0, None))]),
           step("send", [send(hist(ID256))], frame=hist(ID256))])

server("server.0.4.0.subscribe.session_id_too_long",
       "0.4.0: the length refusal comes before the version's own checks (a last_message_id here, otherwise "
       "unsupported_subscribe_field), and the refused id is not remembered (its session data is refused).",
       ready_server("0.4.0") + [
           frame({"type": "subscribe", "session_id": ID257, "last_message_id": "u-1"},
                 [send(TOO_LONG), violation("subscribe", [("invalid_value", "/last_message_id")])]),
           frame({"type": "subscribe", "session_id": ID257, "last_seq": 3}, [send(TOO_LONG)]),
           step("send", error={"state": "authenticated", "event": "send"},
                frame=hist4([], 0, 1) | {"session_id": ID257}),
           frame({"type": "subscribe", "session_id": ID256, "last_seq": 3},
                 [ev("subscribe", session_id=ID256, cursor={"last_seq": 3})])])

server("server.0.2.0.subscribe.session_id_too_long",
       "0.2.0 sends session data unsubscribed too, so what shows that a refused id is not remembered is the "
       "subscription limit (max_subscriptions 1 here): after the refusal the one place is still free; the next id is "
       "over the limit. The length refusal comes first even then.",
       [opened(versions=("0.2.0",)),
        frame({"type": "connect", "api_key": KEY}, [cancel("auth_deadline"), authenticated("0.2.0")]),
        frame({"type": "subscribe", "session_id": ID257, "last_message_id": "u-1"}, [send(TOO_LONG)]),
        frame({"type": "subscribe", "session_id": S1, "last_message_id": "u-1"},
              [ev("subscribe", session_id=S1, cursor={"last_message_id": "u-1"})]),
        frame({"type": "subscribe", "session_id": S2},
              [send({"type": "error", "message": "Too many subscriptions on this connection"})]),
        frame({"type": "subscribe", "session_id": ID257}, [send(TOO_LONG)]),
        frame({"type": "subscribe", "session_id": S1}, [ev("subscribe", session_id=S1, cursor=None)])],
       protocol_versions=["0.2.0"], floor=None, max_subscriptions=1)

# Out-of-range server configuration (STANDARDS.md#configuration).
server("server.config.clamped_timers",
       "Out-of-range periods are 1 ms: auth_timeout_ms -7 (the deadline is armed 1 ms after the socket opened) and "
       "heartbeat_interval_ms 0 (a heartbeat every millisecond; the timestamp is in whole seconds).",
       [opened(caps=("heartbeat",)) | {"expect": [send(shello(caps=("heartbeat",))), arm("auth_deadline", 1)]},
        frame(connect_v1(capabilities=["heartbeat"]),
              [cancel("auth_deadline"), send(sconnected("0.5.0", ["heartbeat"])), authenticated("0.5.0", ["heartbeat"]),
               arm("heartbeat", 1)]),
        advance(2, [send({"type": "heartbeat", "timestamp": ts(1)}), arm("heartbeat", 2),
                    send({"type": "heartbeat", "timestamp": ts(2)}), arm("heartbeat", 3)])],
       capabilities=["heartbeat"], auth_timeout_ms=-7, heartbeat_interval_ms=0)

server("server.config.clamped_bounds",
       "Out-of-range bounds are 0 and long periods saturate: max_session_id_bytes -1 is 0 (any non-empty id is too "
       "long, and the message names 0; that check comes first), max_subscriptions -5 is 0 (every other subscribe is "
       "over the limit), replay_buffer_bytes -1 is 0 (every frame with a message_id is sent but not kept); "
       "auth_timeout_ms and heartbeat_interval_ms 2^63 - 1 put their deadlines at 2^63 - 1 absolute (shown as "
       "2^63 - 1 - clock_start_ms): they never fire.",
       [opened(caps=("heartbeat", "message_ack")) | {"expect": [send(shello(caps=("heartbeat", "message_ack"))),
                                                               arm("auth_deadline", INT64_MAX - T0)]},
        frame(connect_v1(capabilities=["heartbeat", "message_ack"]),
              [cancel("auth_deadline"), send(sconnected("0.5.0", ["heartbeat", "message_ack"])),
               authenticated("0.5.0", ["heartbeat", "message_ack"]), arm("heartbeat", INT64_MAX - T0)]),
        frame({"type": "subscribe", "session_id": "a"},
              [send({"type": "error", "message": "session_id is longer than 0 bytes"})]),
        frame({"type": "subscribe", "session_id": ""},
              [send({"type": "error", "message": "Too many subscriptions on this connection"})]),
        step("send", [send(RESP_S), ev("replay_evicted", message_id="m1")], frame=RESP_S),
        frame({"type": "message_ack", "message_id": "m1"}, [ev("unknown_ack", message_id="m1")]),
        advance(10**9, [])],
       capabilities=["heartbeat", "message_ack"], max_session_id_bytes=-1, max_subscriptions=-5, replay_buffer_bytes=-1,
       auth_timeout_ms=INT64_MAX, heartbeat_interval_ms=INT64_MAX)

server("server.illegal.send_before_open",
       "An event the state does not accept is an error value naming the state and the event.",
       [step("send", error={"state": "idle", "event": "send"}, frame=SESSION_LIST)])

# ---------- the server vectors' wire form (Vectors/README.md, "sessions/") ----------
# Written above as frames (objects), the server vectors are stored as the host sees them: each received
# WebSocket message as its text exactly as received, each message the application or the engine sends
# as its text, each request handed on as the typed message's canonical JSON. The canonical form and the
# verdict on each request come from the reference peer's schema judge (tools/vcpeer/messages.py), not
# from vcproto: a request the judge rejects must be expected as a violation.
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vcpeer import messages as server_judged  # noqa: E402
SERVER_JUDGE = server_judged.Judge(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Schema"))
SERVER_PROBLEMS = []
def server_wire(f):
    return f if isinstance(f, str) else json.dumps(f, ensure_ascii=False, separators=(",", ":"))
def server_wire_step(s, version):
    """One server step in the wire form; returns the connection's version after it."""
    inp = s["input"]
    if inp["kind"] == "frame":
        s["input"] = {"kind": "received", "text": server_wire(inp["frame"])}
    elif inp["kind"] == "malformed_frame":
        s["input"] = {"kind": "received", "text": inp["detail"]}
    elif inp["kind"] == "send" and "frame" in inp:
        s["input"] = dict({k: v for k, v in inp.items() if k != "frame"}, text=server_wire(inp["frame"]))
    for action in s.get("expect", []):
        if action.get("action") == "send" and "frame" in action:
            action["text"] = server_wire(action.pop("frame"))
        elif action.get("event") == "authenticated":
            version = action["version"]
        elif action.get("event") == "request" and "frame" in action:
            frame = action.pop("frame")
            errors, _, text = SERVER_JUDGE.judge(server_wire(frame), "client_to_server", version)
            if errors:
                SERVER_PROBLEMS.append("%s: %s" % (errors, server_wire(frame)[:150]))
            action["message"] = frame if errors else json.loads(text)
    return version
for vector in SERVER:
    version = "0.5.0"
    for s in vector["steps"]:
        version = server_wire_step(s, version)
assert not SERVER_PROBLEMS, SERVER_PROBLEMS

# ---------- the client vectors' wire form (Vectors/README.md, "sessions/") ----------
# Written above as frames (objects), the client vectors are stored as the host sees them: each received
# WebSocket message as its text exactly as received, each message the engine sends as its text, each
# delivered message as the typed message's canonical JSON. The canonical form and the verdict on each
# delivered frame come from the reference peer's schema judge (tools/vcpeer/messages.py, Python's
# jsonschema over Schema/), not from vcproto: a frame the judge rejects must be expected as a violation.
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vcpeer import jsontext, messages as judged  # noqa: E402
PROBLEMS = []
JUDGE = judged.Judge(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Schema"))
def wire(f): return f if isinstance(f, str) else jsontext.write(f)
def canonical(f, version):
    errors, _, text = JUDGE.judge(wire(f), "server_to_client", version)
    if errors:
        PROBLEMS.append("%s: %s: %s" % (version, errors, wire(f)[:150]))
        return f
    return json.loads(text)
def inner_frame(f):
    """The frame a received message carries (the inner frame of a sealed one)."""
    if isinstance(f, dict) and f.get("type") == "authenticated" and isinstance(f.get("frame"), str):
        try: return json.loads(f["frame"])
        except ValueError: return None
    return f
def wire_step(s, version):
    """One client step in the wire form; returns the connection's version after it."""
    inp = s["input"]
    received = None
    if inp["kind"] == "frame":
        received = inner_frame(inp["frame"])
        s["input"] = {"kind": "received", "text": wire(inp["frame"])}
    elif inp["kind"] == "send" and "frame" in inp:
        s["input"] = dict({k: v for k, v in inp.items() if k != "frame"}, text=wire(inp["frame"]))
    for action in s.get("expect", []):
        if action.get("action") == "send" and "frame" in action:
            action["text"] = wire(action.pop("frame"))
        elif action.get("event") == "connected":
            version = action["version"]
        elif action.get("event") in ("received", "answered") and "frame" in action:
            action["message"] = canonical(action.pop("frame"), version)
        elif action.get("event") == "session_update":
            whole = canonical(received, version)
            raw = received["messages"]
            def typed(m): return whole["messages"][raw.index(m)]
            action["insert"] = [typed(m) for m in action["insert"]]
            action["replace"] = [typed(m) for m in action["replace"]]
            if action.get("gap") is not None: action["gap"] = whole["gap"]
    return version
for vector in CLIENT:
    version = "0.2.0"
    for s in vector["steps"]:
        version = wire_step(s, version)

if PROBLEMS:
    raise SystemExit("delivered frames the judge rejects (expect violations instead):\n" + "\n".join(PROBLEMS))
root = os.path.join(os.path.dirname(__file__), "..", "Vectors", "sessions")
os.makedirs(root, exist_ok=True)
for vector in CLIENT:  # (those appended directly too)
    vector["steps"] = connect_deadlines(number_transports(vector["steps"]))
for name, vectors in (("client.json", CLIENT), ("server.json", SERVER)):
    ids = [v["id"] for v in vectors]
    assert len(ids) == len(set(ids)), ids
    with open(os.path.join(root, name), "w") as f:
        json.dump(vectors, f, indent=1, ensure_ascii=False)
        f.write("\n")
print(len(CLIENT), "client vectors,", len(SERVER), "server vectors")

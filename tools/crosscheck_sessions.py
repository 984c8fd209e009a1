#!/usr/bin/env python3
"""Differential check of the conversation engines: random conversations are played into the
reference peer's Python engines (tools/vcpeer/session_client.py, session_server.py, written from
STANDARDS.md#state-machine), their answers are written as session vectors, and `vcproto vectors`
replays them through vcproto's Swift ClientEngine/ServerEngine. Any difference is a disagreement
between two independent implementations of the same rules, well beyond the hand-written vectors:
random handshakes (auth v1/v2, versions, capabilities, refusals), frames in every state, timers,
reconnects, subscriptions of every version, requests and extensions.

    python3 tools/crosscheck_sessions.py [path/to/vcproto] [--seed N] [--conversations N] [--steps N]

Deterministic for a seed. Prints one line per disagreeing conversation (with the seed and id to
replay it) and `N passed, M failed`; exits 1 on any disagreement. Without a built binary it says so
and exits 0. KNOWN would list disagreements already reported, each recognised narrowly and counted,
not failed; it is empty.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from vcpeer import auth_bound, jsontext, sessions  # noqa: E402
from vcpeer.session_client import ClientEngine  # noqa: E402
from vcpeer.session_server import ServerEngine  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

KEY = "untethered-0123456789abcdef0123456789abcdef"
S1, S2 = "4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11", "9a8b7c6d-1e2f-4a3b-8c7d-6e5f4a3b2c1d"
NONCE = "00112233445566778899aabbccddeeff"
CH = "a1" * 32
VERS = ["0.2.0", "0.3.0", "0.4.0", "0.5.0"]
CAPS = ["heartbeat", "message_ack", "draining", "disconnect", "idempotent_prompt"]
# Over the 256-byte bounds of subscribe.session_id and of a 0.2.0/0.3.0 cursor (STANDARDS.md#state-machine).
LONG_ID = "\u00e9" * 128 + "n"
INT64_MAX = 2**63 - 1


# Random inputs, biased towards what moves each engine on (a hello when one is awaited, a connect with
# the right answer, a connected with a valid proof), so that conversations reach every state.

def hello(r, eng):
    v = r.choice(VERS)
    h = {"type": "hello", "message": "Welcome to voice-code backend", "version": v, "auth_version": 1,
         "instructions": "Send connect message with api_key"}
    if r.random() < 0.5:
        h["protocol_versions"] = [x for x in VERS if "0.3.0" <= x <= v] or [v]
        h["auth_versions"] = r.choice([[1], [1, 2], [2]])
        h["capabilities"] = r.sample(CAPS, r.randrange(len(CAPS) + 1))
        if 2 in h["auth_versions"] and r.random() < 0.8:
            h["challenge"] = CH
    return h


def connected(r, eng):
    v = r.choice(VERS + [None])
    c = {"type": "connected", "message": "Session registered", "session_id": r.choice([None, S1]),
         "negotiated_protocol_version": v}
    if v is None:
        del c["negotiated_protocol_version"]
    if r.random() < 0.6:
        c["capabilities"] = sorted(r.sample(eng.wanted, r.randrange(len(eng.wanted) + 1))) if eng.wanted else []
        if r.random() < 0.1:
            c["capabilities"] = ["heartbeat"]
        c["auth_version"] = eng.auth_version
    if eng.auth_version == 2 and r.random() < 0.85 and eng.hello is not None:
        members = {k: c[k] for k in ("message", "session_id", "negotiated_protocol_version", "capabilities",
                                     "auth_version") if k in c}
        members.update(challenge=eng.hello.get("challenge"), client_nonce=eng.nonce, auth_response=eng.response)
        proof_input = auth_bound.build("vcproto/auth/v2/server", members, auth_bound.SERVER)
        c["server_proof"] = auth_bound.mac(KEY, proof_input)
    return c


def msg(r, fam, sid, pos):
    if fam == "uuid":
        return {"type": "assistant", "uuid": "u-%d" % pos, "message": {"role": "assistant", "content": "ok"},
                "timestamp": "2026-01-11T17:00:00.000Z", "sessionId": sid}
    m = {"session_id": r.choice([sid, sid, sid, S2]), "uuid": "u-%d" % pos, "role": "assistant", "text": "hi",
         "timestamp": "2026-01-11T17:00:00.000Z", "provider": "claude"}
    if r.random() < 0.95:
        m[fam] = pos
    return m


def history(r, eng):
    sid = r.choice([S1, S1, S2])
    v = eng.version or (0, 5, 0)
    fam = "offset" if v >= (0, 5, 0) else "seq" if v >= (0, 4, 0) else "uuid"
    base = r.randrange(0, 12)
    ms = [msg(r, fam, sid, base + i) for i in range(r.randrange(0, 4))]
    if fam == "offset":
        f = {"type": "session_history", "session_id": sid, "messages": ms,
             "next_offset": base + len(ms) + r.choice([0, 0, 1, -3]), "end_of_file": r.random() < 0.6,
             "file_signature": "%d:u-%d" % (r.choice([100, 150, 50]), r.choice([0, 0, 9]))}
        if r.random() < 0.1:
            f["file_replaced"] = True
    elif fam == "seq":
        f = {"type": "session_history", "session_id": sid, "messages": ms, "first_seq": base,
             "last_seq": base + len(ms) - 1 if ms else None, "next_seq": base + len(ms),
             "is_complete": r.random() < 0.6, "gap": None}
        if r.random() < 0.2:
            f["gap"] = {"requested_last_seq": 50, "min_available_seq": 1,
                        "reason": r.choice(["client_ahead", "evicted"])}
    else:
        f = {"type": r.choice(["session_history", "session_updated"]), "session_id": sid, "messages": ms}
        if f["type"] == "session_history":
            f.update(total_count=len(ms), is_complete=r.random() < 0.7)
            if ms and r.random() < 0.5:
                f["newest_message_id"] = ms[-1]["uuid"]
            elif r.random() < 0.15:
                f["newest_message_id"] = LONG_ID
    return f


def client_frame(r, eng):
    st = eng.state
    if st == "awaiting_hello" and r.random() < 0.7:
        return hello(r, eng)
    if st == "awaiting_connected" and r.random() < 0.6:
        refusals = [{"type": "auth_error", "message": "Authentication failed"},
                    {"type": "error", "message": "Client is too old; upgrade required",
                     "code": "unsupported_protocol_version", "required": "0.4.0", "received": "0.3.0"}]
        return r.choice([connected(r, eng)] * 4 + refusals)
    choices = [
        lambda: {"type": "pong"},
        lambda: {"type": "heartbeat", "timestamp": "2026-01-11T16:47:25Z"},
        lambda: {"type": "draining", "message": "bye", "retry_after_ms": r.choice([0, 5000, 10**8])},
        lambda: {"type": "session_list", "sessions": [], "total_count": 0},
        lambda: history(r, eng), lambda: history(r, eng), lambda: history(r, eng),
        lambda: {"type": "command_started", "command_session_id": "cmd-1", "command_id": "git.status",
                 "shell_command": "git status"},
        lambda: {"type": "session_name_inferred", "session_id": r.choice([S1, S2]), "name": "x"},
        lambda: {"type": "ack", "message": "Processing prompt..."},
        lambda: {"type": "ack", "message": r.choice(["Starting recipe...", "Directory set"])},
        lambda: {"type": "recipe_started", "recipe_id": "review", "recipe_label": "Review", "session_id": r.choice([S1, S2]),
                 "current_step": "code_review", "step_count": 3},
        lambda: {"type": "compaction_complete", "session_id": r.choice([S1, S2])},
        lambda: {"type": "session_locked", "message": "Session is currently processing a prompt. Please wait.",
                 "session_id": r.choice([S1, S2])},
        lambda: {"type": "session_ready", "session_id": S2},
        lambda: {"type": "response", "message_id": r.choice(["m1", "m2"]), "success": True, "text": "Done",
                 "session_id": S1},
        lambda: {"type": "replay", "message_id": r.choice(["m1", "m2", "m3"]),
                 "message": {"role": "assistant", "text": "x", "session_id": S1}},
        lambda: {"type": "auth_error", "message": "Authentication failed"},
        lambda: hello(r, eng),
        lambda: error(r), lambda: error(r),
    ]
    return r.choice(choices)()


def error(r):
    """An `error` that refuses a request, or one that must end none (STANDARDS.md#requests); any of them may name a
    session, which then limits it to requests about that session (a request that names none too)."""
    sessionless = ["Command output not found: cmd-1", "command_id required in execute_command message",
                   "size_kb (positive integer) required in set_max_message_size message",
                   "Failed to list resources: disk", "Unknown message type: get_command_history"]
    session_bound = ["text required in prompt message", "Invalid provider: 'x'. Valid providers: claude, copilot",
                     "Recipe not found: :r1", "Unknown message type: prompt", "Internal error: boom",
                     "Failed to dispatch prompt: x", "Session not found: x",
                     "Compaction in progress for this session; retry once it completes"]
    message = r.choice(sessionless + session_bound)
    e = {"type": "error", "message": message}
    if r.random() < 0.4:
        e["session_id"] = r.choice([S1, S2])
    if r.random() < 0.1:
        e["code"] = "invalid_subscribe"
    return e


def cursor(r):
    return r.choice([None, {"last_message_id": "u-3"}, {"last_seq": r.randrange(0, 10)},
                     {"offset": r.randrange(0, 10), "signature": r.choice([None, "100:u-0"])}])


def transport(r, eng):
    """The transport an input reports on: mostly the current (else the last) one, sometimes a stale or
    never-opened one, which the engines ignore."""
    if r.random() < 0.15:
        return r.randrange(0, eng.opened + 2)
    return eng.transport if eng.transport is not None else eng.opened


def received(frame):
    """A client input: the WebSocket message the server sent, as its text."""
    return {"kind": "received", "text": jsontext.write(frame)}


def client_input(r, eng):
    st = eng.state
    if st == "idle" and r.random() < 0.8:
        return {"kind": "start"}
    if st == "connecting" and r.random() < 0.7:
        return {"kind": "transport_opened", "transport": transport(r, eng), "client_nonce": NONCE}
    if st in ("awaiting_hello", "awaiting_connected", "ready") and r.random() < 0.55:
        return received(client_frame(r, eng))
    if st in ("stopped", "reauth_required", "upgrade_required") and r.random() < 0.4:
        return {"kind": r.choice(["start", "resume"])}
    k = r.choice(["advance"] * 4 + ["subscribe"] * 2 + ["send"] * 3
                 + ["transport_closed", "unsubscribe", "stop", "resume", "start", "frame", "transport_opened"])
    if k == "advance":
        return {"kind": "advance", "ms": r.choice([1, 999, 1000, 5000, 15000, 30000, 45000, 90000, 120000,
                                                   3720000])}
    if k == "subscribe":
        return {"kind": "subscribe", "session_id": r.choice([S1, S2]), "cursor": cursor(r)}
    if k == "unsubscribe":
        return {"kind": "unsubscribe", "session_id": r.choice([S1, S2])}
    if k == "send":
        f = r.choice([
            {"type": "execute_command", "command_id": "git.status", "working_directory": "/tmp"},
            {"type": "get_command_output", "command_session_id": "cmd-1"},
            {"type": "infer_session_name", "session_id": r.choice([S1, S2]), "message_text": "x"},
            {"type": "prompt", "text": "go", "new_session_id": S2, "working_directory": "/tmp"},
            {"type": "prompt", "text": "go", "resume_session_id": S1},
            {"type": "subscribe", "session_id": S1},
            {"type": "refresh_sessions"},
            {"type": "get_command_history"},
            {"type": "list_resources", "storage_location": "/tmp"},
            {"type": "set_max_message_size", "size_kb": 100},
            {"type": "compact_session", "session_id": r.choice([S1, S2])},
            {"type": "start_recipe", "session_id": r.choice([S1, S2]), "recipe_id": "review"},
            {"type": "start_recipe", "session_id": r.choice([S1, S2]), "recipe_id": "review"},
            {"type": "set_directory", "path": "/tmp"},
            {"type": "prompt", "text": "go"},
            {"type": "prompt", "text": "go", "resume_session_id": S2, "provider": "x"},
        ])
        inp = {"kind": "send", "text": jsontext.write(f)}
        if r.random() < 0.6:
            inp["request_id"] = "r%d" % r.randrange(100)
        return inp
    if k == "stop":
        return {"kind": "stop", "reason": "user"}
    if k == "transport_closed":
        return {"kind": "transport_closed", "transport": transport(r, eng), "detail": "reset"}
    if k == "transport_opened":
        return {"kind": "transport_opened", "transport": transport(r, eng), "client_nonce": NONCE}
    if k == "frame":
        return received(client_frame(r, eng))
    return {"kind": k}


def client_config(r):
    lo = r.choice(VERS[:3])
    hi = r.choice([v for v in VERS if v >= lo])
    c = {"api_key": KEY, "min_version": lo, "max_version": hi, "capabilities": r.sample(CAPS, r.randrange(4)),
         "jitter": r.choice([0, 0.25]), "clock_start_ms": 1768150000000}
    if r.random() < 0.3: c["random_seed"] = r.randrange(1000)
    # Absent (the default: v1 refused), or said; most opt into v1, as a client of the real backend must.
    v1 = r.choice([None, False, True, True, True])
    if v1 is not None: c["allow_auth_v1"] = v1
    if r.random() < 0.2: c["max_reconnect_attempts"] = r.randrange(1, 4)
    if r.random() < 0.2: c["max_message_size_kb"] = 200
    if r.random() < 0.2: c["max_pending_requests"] = r.randrange(-1, 4)  # -1 is held to 0
    if r.random() < 0.2: c["session_id"] = S1
    if r.random() < 0.2: c["recent_sessions_limit"] = 10
    if r.random() < 0.3: c["ping_interval_ms"] = 10**7  # keepalive out of the way: requests can time out
    if r.random() < 0.15:  # out-of-range values, held to their ranges (STANDARDS.md#configuration)
        c["jitter"] = r.choice([-1, 2, 1e308])
        c["heartbeat_timeout_ms"] = r.choice([0, -1, INT64_MAX])
        c["max_reconnect_attempts"] = r.choice([-2, 0, None])
        if r.random() < 0.5:  # 1 ms pings with a 1 ms pong deadline: the connection soon dies, cheaply
            c["ping_interval_ms"], c["pong_timeout_ms"] = -1, r.choice([0, -3])
        else:
            c["ping_interval_ms"], c["pong_timeout_ms"] = INT64_MAX, INT64_MAX
    return c


def server_config(r):
    pv = r.choice([["0.2.0"], ["0.3.0", "0.4.0"], ["0.4.0"], ["0.4.0", "0.5.0"], ["0.3.0", "0.4.0", "0.5.0"],
                   ["0.5.0"]])
    return {"api_key": KEY, "protocol_versions": pv, "floor": r.choice([None, pv[0]]),
            "auth_versions": r.choice([[1], [1, 2], [2]]), "capabilities": r.sample(CAPS, r.randrange(len(CAPS) + 1)),
            "clock_start_ms": 1768150000000, **(server_extremes(r) if r.random() < 0.2 else {})}


def server_extremes(r):
    """Out-of-range server values (STANDARDS.md#configuration). A 1 ms heartbeat is left to
    the vectors: over a random advance of minutes it would send a frame per millisecond."""
    return {"auth_timeout_ms": r.choice([0, -5, INT64_MAX]), "heartbeat_interval_ms": r.choice([1000, INT64_MAX]),
            "max_subscriptions": r.choice([-1, 0, 1]), "max_session_id_bytes": r.choice([-1, 0, 36]),
            "replay_buffer_bytes": r.choice([-1, 0, 100])}


def server_connect(r, eng):
    c = {"type": "connect"}
    if r.random() < 0.2: c["session_id"] = S1
    if r.random() < 0.2: c["recent_sessions_limit"] = r.choice([0, 10, 100])
    pv = r.choice([None, "0.2.0", "0.3.0", "0.4.0", "0.5.0", "0.6.0", "abc"])
    if pv: c["protocol_version"] = pv
    if r.random() < 0.4: c["capabilities"] = r.sample(CAPS, r.randrange(len(CAPS) + 1))
    if r.random() < 0.03:  # at and over the handshake-list cap
        c[r.choice(["capabilities", "protocol_versions"])] = ["x%d" % i for i in range(r.choice([64, 65]))]
    if r.random() < 0.3: c["protocol_versions"] = ["0.4.0", "0.5.0"]
    if eng.challenge and r.random() < 0.6:
        c["auth_version"] = 2
        c["client_nonce"] = NONCE
        members = auth_bound.client_members(eng.challenge, NONCE, c, eng.hello())
        answer = auth_bound.mac(KEY, auth_bound.build("vcproto/auth/v2/client", members, auth_bound.CLIENT))
        c["auth_response"] = answer if r.random() < 0.85 else "00" * 32
    else:
        c["api_key"] = KEY if r.random() < 0.85 else "untethered-" + "f" * 32
    return c


def text_of(frame):
    """A frame as the text of a WebSocket message (compact JSON; Python floats as json writes them)."""
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))


def server_input(r, eng):
    st = eng.state
    if st == "idle" and r.random() < 0.85:
        i = {"kind": "transport_opened", "challenge": r.choice([None, CH])}
        if r.random() < 0.3: i["connection_id"] = "conn-7"
        return i
    if st == "awaiting_connect" and r.random() < 0.85:
        return {"kind": "received", "text": text_of(server_connect(r, eng))}
    k = r.choice(["frame"] * 12 + ["send"] * 6 + ["advance"] * 3 + ["malformed_frame"])
    if r.random() < 0.04:
        k = r.choice(["drain", "close", "transport_closed"])
    if k == "advance":
        return {"kind": "advance", "ms": r.choice([1, 1000, 45000, 59999, 60000, 90000])}
    if k == "malformed_frame":
        return {"kind": "received", "text": r.choice(['{"type":', "[1]", '"ping"', "not json"])}
    if k == "drain":
        return {"kind": "drain", "retry_after_ms": 5000, "message": "bye"}
    if k in ("close", "transport_closed"):
        return {"kind": k}
    if k == "send":
        f = r.choice([
            {"type": "session_history", "session_id": r.choice([S1, S2, LONG_ID]), "messages": [], "next_offset": 0,
             "end_of_file": True, "file_signature": "1:u"},
            {"type": "session_updated", "session_id": r.choice([S1, S2]), "messages": []},
            {"type": "heartbeat", "timestamp": "2026-01-11T16:46:40Z"},
            {"type": "draining", "message": "x", "retry_after_ms": 1},
            {"type": "replay", "message_id": "m1", "message": {"role": "assistant", "text": "x"}},
            {"type": "response", "message_id": r.choice(["m1", "m2"]), "success": True, "text": "Done",
             "session_id": S1},
            {"type": "session_list", "sessions": [], "total_count": 0},
        ])
        return {"kind": "send", "text": text_of(f)}
    f = r.choice([
        {"type": "ping"},
        lambda: server_connect(r, eng),
        {"type": "subscribe", "session_id": r.choice([S1, S2, LONG_ID])},
        {"type": "subscribe", "session_id": S1, "from_offset": r.choice([None, -1, 3, "5", 2.5])},
        {"type": "subscribe", "session_id": S1, "last_seq": r.choice([None, -1, 3, 5.0])},
        {"type": "subscribe", "session_id": S1, "last_message_id": r.choice([None, "u-1"])},
        {"type": "subscribe", "session_id": S1, "file_signature_seen": r.choice([None, 5, "1:u"])},
        {"type": "subscribe"},
        {"type": "unsubscribe", "session_id": r.choice([S1, S2])},
        {"type": "message_ack", "message_id": r.choice(["m1", "m2"])},
        {"type": "prompt", "text": "go", "resume_session_id": S1,
         "idempotency_key": r.choice(["k-1", "k-2", "k" * 300])},
        {"type": "disconnect", "reason": "background"},
        {"type": "execute_command", "command_id": "git.status", "working_directory": "/tmp"},
        {"session_id": S1},
    ])
    if callable(f):
        f = f()
    return {"kind": "received", "text": text_of(f)}


def conversation(r, role, steps):
    config = client_config(r) if role == "client" else server_config(r)
    engine = (ClientEngine if role == "client" else ServerEngine)(config)
    host = sessions.Host(engine, config["clock_start_ms"])
    out = []
    after_close = 0
    for _ in range(steps):
        if engine.state == "closed":  # a closed server does nothing: a few inputs show it, then stop
            after_close += 1
            if after_close > 3:
                break
        inp = (client_input if role == "client" else server_input)(r, engine)
        try:
            out.append({"input": inp, "expect": host.feed(inp)})
        except sessions.IllegalEvent as illegal:
            out.append({"input": inp, "error": {"state": illegal.state, "event": illegal.event}})
    return {"id": "", "description": "random", "role": role, "config": config, "steps": out}


# Disagreements already reported, each a function (vector, expected, got) -> bool that recognises it
# narrowly, so that it is counted instead of failed. Empty: the engines agree.
KNOWN = []


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", nargs="?", default=os.path.join(ROOT, ".build", "debug", "vcproto"))
    parser.add_argument("--seed", type=int, default=20260111)
    parser.add_argument("--conversations", type=int, default=300, help="per role")
    parser.add_argument("--steps", type=int, default=40)
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        print("vcproto binary not found (%s): skipped" % args.binary)
        return
    r = random.Random(args.seed)
    made = {}
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "sessions"))
        for role in ("client", "server"):
            vectors = []
            for i in range(args.conversations):
                v = conversation(r, role, args.steps)
                v["id"] = "%s.random.%d" % (role, i)
                vectors.append(v)
                made["sessions/" + v["id"]] = v
            with open(os.path.join(tmp, "sessions", role + ".json"), "w", encoding="utf-8") as f:
                json.dump(vectors, f)
        run = subprocess.run([args.binary, "vectors", tmp], capture_output=True, text=True)
    if run.returncode not in (0, 1):
        sys.exit("vcproto vectors failed (%d): %s" % (run.returncode, run.stderr.strip()))
    passed = failed = 0
    known = {k.__name__: 0 for k in KNOWN}
    for line in run.stdout.splitlines():
        if line.startswith("PASS "):
            passed += 1
        elif line.startswith("FAIL "):
            expected = got = None
            if ": expected [" in line and "], got [" in line:
                head, _, rest = line.partition(": expected ")
                want_text, _, got_text = rest.partition(", got ")
                expected, got = json.loads(want_text), json.loads(got_text)
            vector = made.get(line[len("FAIL "):].split(":", 1)[0])
            why = next((k.__name__ for k in KNOWN if expected is not None and vector and k(vector, expected, got)),
                       None)
            if why:
                known[why] += 1
                continue
            failed += 1
            print("%s  (--seed %d)" % (line[:2000], args.seed))
    print("%d random conversations: %d passed, %d failed; known divergences: %s" % (
        2 * args.conversations, passed, failed, ", ".join("%d %s" % (n, k) for k, n in known.items()) or "none"))
    print("%d passed, %d failed" % (passed + sum(known.values()), failed))
    sys.exit(1 if failed or not passed else 0)


if __name__ == "__main__":
    main()

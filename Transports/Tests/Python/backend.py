#!/usr/bin/env python3
"""A voice-code backend for end-to-end tests: the Python reference server engine (tools/vcpeer,
`session_server.ServerEngine`) behind Python's `websockets` server, serving Claude session files
(JSON Lines) the way the real backend does, with a fake agent that answers prompts.

    backend.py --session FILE [--session FILE ...] [--port 0] [--protocol 0.5.0|0.4.0]
               [--auth v1|v2|both] [--api-key KEY] [--capability NAME ...] [--page N]
               [--poll-ms 50] [--turn-delay-ms 100]

It listens on 127.0.0.1 (`--port 0`: any free port) and prints `port N` on standard output once it
accepts connections; SIGTERM (or SIGINT) closes every connection with 1001 and exits 0. A session's
id is its file's name without `.jsonl` (as Claude names its files).

What it does, per connection (facts about the real backend at `1e7bcc30`, from the repository's
STANDARDS.md#versions and STANDARDS.md#state-machine and the session behaviour reading in Reference/; `SRV` is
`backend/src/voice_code/server.clj`, `REP` `backend/src/voice_code/replication.clj`):
- the handshake, ping, auth v1 and v2, authenticated frames and every refusal are the engine's;
  `--protocol 0.5.0` offers 0.4.0-0.5.0 (a client announcing 0.5.0 gets it), `--protocol 0.4.0`
  only 0.4.0; `--auth v2` offers only auth v2 (with a fresh 256-bit challenge per connection);
- after `connect`: `session_list` (sessions with messages, newest first), `recent_sessions`,
  `available_commands` (SRV:2227-2256);
- `subscribe` (validated by the engine): `available_commands`, then `session_history`. 0.5.0: the
  canonical messages of the file's complete lines from `from_offset`, at most `--page` lines
  (`end_of_file: false` when more follow: the client continues from `next_offset`), each with its
  line index as `offset`, `file_signature` `<byte length>:<first line's uuid>`, and the reload reply
  (`messages: []`, `next_offset: 0`, `file_replaced: true`) when `file_signature_seen` differs
  (SRV:2006-2137). 0.4.0: the messages after `last_seq` (seq: the message's 1-based rank in the
  file), at most `--page` (`is_complete: false` when cut), `gap` `client_ahead` when `last_seq` is
  past the last seq;
- `prompt`: `ack` (`Processing prompt...`), `available_commands`; then the fake agent appends a user
  record with the prompt's text and, `--turn-delay-ms` later, an assistant record (`stop_reason:
  end_turn`) answering `echo: <text>` to the session's file (`resume_session_id`, else
  `new_session_id`, else the first session);
- a watcher reads every session file each `--poll-ms` (the real one is event driven, REP:2365-2610):
  for an assistant record with `stop_reason` `end_turn` it sends `turn_complete` to the subscribed
  connections, then the push: 0.5.0 `session_history` from each connection's offset (with the new
  signature), 0.4.0 `session_history` with the new messages' seqs. A file replaced under it (its
  first line's uuid changed, or it shrank) starts over at offset 0: the push carries the new
  signature, and a 0.5.0 client purges its rows and reloads;
- `refresh_sessions` -> `session_list`; `get_available_recipes` -> `available_recipes` (none);
  `set_max_message_size` -> `ack`; any other request ->
  `error` `Unknown message type: <type>` (SRV:3081-3086's answer to what it does not handle).

Every frame goes through the engine's `send` input, so with authenticated frames it is sealed.
Times are wall-clock milliseconds. Nothing is written to disk but the session files.
"""
import argparse
import asyncio
import json
import os
import secrets
import signal
import sys
import time
import uuid as uuidlib

import websockets

TOOLS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools")
sys.path.insert(0, os.path.abspath(TOOLS))

from vcpeer.frames import _no_duplicates, _reject  # noqa: E402
from vcpeer.session_common import IllegalEvent  # noqa: E402
from vcpeer.session_server import ServerEngine  # noqa: E402

GENERAL_COMMANDS = [
    {"id": "git.status", "label": "Git Status", "type": "command", "description": "Show git working tree status"},
]


def now_ms():
    return int(time.time() * 1000)


def iso(ms):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms / 1000)) + ".%03dZ" % (ms % 1000)


# -- session files ------------------------------------------------------------------------------------


class SessionFile:
    """One Claude session file as the watcher last read it."""

    def __init__(self, path):
        self.path = path
        self.id = os.path.basename(path)[: -len(".jsonl")] if path.endswith(".jsonl") else os.path.basename(path)
        self.stamp = None  # (inode, size, mtime) of the last read
        self.lines = []  # complete lines, parsed (None: not JSON)
        self.size = 0
        self.partial = False  # a half-written last line was held back
        self.first_uuid = None
        self.announced = set()  # uuids of the turns already completed

    def read(self):
        """Reads the file again when it changed; returns (changed, replaced)."""
        try:
            st = os.stat(self.path)
            stamp = (st.st_ino, st.st_size, st.st_mtime_ns)
        except FileNotFoundError:
            stamp = None
        if stamp == self.stamp:
            return False, False
        self.stamp = stamp
        data = b""
        if stamp is not None:
            with open(self.path, "rb") as f:
                data = f.read()
        complete, _, tail = data.rpartition(b"\n")
        lines = []
        for raw in complete.split(b"\n") if complete or data.startswith(b"\n") else []:
            try:
                lines.append(json.loads(raw.decode("utf-8")))
            except (ValueError, UnicodeDecodeError):
                lines.append(None)
        first = lines[0].get("uuid") if lines and isinstance(lines[0], dict) else None
        replaced = (self.first_uuid is not None and first != self.first_uuid) or len(data) < self.size
        self.lines, self.size, self.partial, self.first_uuid = lines, len(data), bool(tail), first
        return True, replaced

    def signature(self):
        """`<byte length>:<first line's uuid>` (REP:1207-1212), or None for an empty file."""
        return "%d:%s" % (self.size, self.first_uuid or "") if self.lines else None

    def message(self, index, record):
        """The canonical message of a record (user/assistant, not a sidechain, with text), or None."""
        if not isinstance(record, dict) or record.get("type") not in ("user", "assistant") or record.get("isSidechain"):
            return None
        body = record.get("message") or {}
        content = body.get("content")
        if isinstance(content, str):
            text = content
        elif isinstance(content, list):
            text = "\n".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
        else:
            return None
        if not text or not isinstance(record.get("uuid"), str):
            return None
        return {"uuid": record["uuid"], "role": record["type"], "text": text,
                "timestamp": record.get("timestamp") if isinstance(record.get("timestamp"), str) else None,
                "provider": "claude", "session_id": self.id}

    def messages(self):
        """[(line index, seq, canonical message)] in file order."""
        out = []
        for index, record in enumerate(self.lines):
            message = self.message(index, record)
            if message is not None:
                out.append((index, len(out) + 1, message))
        return out

    def summary(self):
        count = len(self.messages())
        modified = (self.stamp[2] // 1_000_000) if self.stamp else 0
        return {"session_id": self.id, "name": "Session " + self.id[:8], "working_directory": "/tmp/backend",
                "last_modified": modified, "message_count": count, "provider": "claude"}

    def append(self, record):
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")


def record(session, role, text, parent=None, end_turn=False):
    message = {"role": role, "content": text if role == "user" else [{"type": "text", "text": text}]}
    if end_turn:
        message["stop_reason"] = "end_turn"
    return {"type": role, "uuid": str(uuidlib.uuid4()), "parentUuid": parent, "timestamp": iso(now_ms()),
            "sessionId": session.id, "cwd": "/tmp/backend", "isSidechain": False, "message": message}


# -- one connection -----------------------------------------------------------------------------------


class Connection:
    def __init__(self, backend, ws):
        self.backend = backend
        self.ws = ws
        config = {"api_key": backend.args.api_key, "protocol_versions": backend.versions,
                  "auth_versions": backend.auth_versions, "capabilities": backend.args.capability}
        self.engine = ServerEngine(config)
        self.timers = {}
        self.outbox = asyncio.Queue()
        self.version = None
        self.subscribed = {}  # session id -> {"offset": n, "signature": s} (0.5.0) or {"seq": n} (0.4.0)
        self.closing = False
        self.events = None  # the engine's events, handled once its actions are carried out

    # The engine's inputs; every action it returns is carried out in order, then its events are
    # handled (which may feed the engine again).
    def feed(self, kind, **members):
        if self.closing and kind != "transport_closed":
            return
        try:
            actions = self.engine.handle(kind, now_ms(), **members)
        except IllegalEvent as illegal:
            print("backend: illegal event %s" % illegal, file=sys.stderr, flush=True)
            return
        outer = self.events is None
        if outer:
            self.events = []
        for action in actions:
            self.perform(action)
        if outer:
            while self.events:
                self.on_event(self.events.pop(0))
            self.events = None

    def perform(self, action):
        name = action["action"]
        if name == "send":
            self.outbox.put_nowait(action["text"])  # the engine's text, as it wrote it
        elif name == "close":
            self.closing = True
            self.outbox.put_nowait(close_frame(action["reason"]))
        elif name == "arm_timer":
            self.cancel(action["timer"])
            delay = max(0.0, (action["at"] - now_ms()) / 1000)
            timer = action["timer"]
            self.timers[timer] = asyncio.get_running_loop().call_later(delay, lambda: self.fire(timer))
        elif name == "cancel_timer":
            self.cancel(action["timer"])
        elif name == "event":
            self.events.append(action)

    def cancel(self, timer):
        handle = self.timers.pop(timer, None)
        if handle is not None:
            handle.cancel()

    def fire(self, timer):
        self.timers.pop(timer, None)
        self.feed("timer", name=timer)

    def send(self, frame):
        """An application frame (through the engine, which seals it when frames are authenticated)."""
        if self.version is not None and not self.closing:
            self.feed("send", frame=frame)

    def received(self, data):
        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
        try:
            frame = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_reject)
        except ValueError as error:
            return self.feed("malformed_frame", detail=str(error))
        if not isinstance(frame, dict):
            return self.feed("malformed_frame", detail="not a JSON object")
        self.feed("frame", frame=frame)

    # -- what the engine hands the application ----------------------------------------------------

    def on_event(self, action):
        kind = action["event"]
        if kind == "authenticated":
            self.version = action["version"]
            self.backend.connections.add(self)
            self.send(self.backend.session_list())
            self.send({"type": "recent_sessions", "sessions": self.backend.recent(action["recent_sessions_limit"]),
                       "limit": action["recent_sessions_limit"]})
            self.send(available_commands())
        elif kind == "subscribe":
            self.subscribe(action["session_id"], action["cursor"] or {})
        elif kind == "unsubscribe":
            self.subscribed.pop(action["session_id"], None)
        elif kind == "request":
            self.request(action["message"])  # the typed request, in canonical JSON
        elif kind == "closed":
            self.closing = True
            self.backend.connections.discard(self)

    def request(self, frame):
        kind = frame.get("type")
        if kind == "prompt":
            session = self.backend.session_for(frame)
            if not isinstance(frame.get("text"), str) or session is None:
                return self.send({"type": "error", "message": "text required in prompt message"})
            self.send({"type": "ack", "message": "Processing prompt..."})
            self.send(available_commands())
            asyncio.get_running_loop().create_task(self.backend.agent(session, frame["text"]))
        elif kind == "refresh_sessions":
            self.send(self.backend.session_list())
        elif kind == "get_available_recipes":
            self.send({"type": "available_recipes", "recipes": []})
        elif kind == "set_max_message_size" and isinstance(frame.get("size_kb"), int) and frame["size_kb"] > 0:
            self.send({"type": "ack", "message": "Max message size set to %d KB" % frame["size_kb"]})
        else:
            self.send({"type": "error", "message": "Unknown message type: %s" % kind})

    def subscribe(self, session_id, cursor):
        session = self.backend.sessions.get(session_id)
        if session is None:
            self.subscribed[session_id] = {"offset": 0, "signature": None, "seq": 0}
            return self.send({"type": "error", "message": "Session not found: %s" % session_id})
        self.send(available_commands())
        page = self.backend.args.page
        if self.version == "0.5.0":
            signature = session.signature()
            seen = cursor.get("signature")
            if seen is not None and seen != signature:
                self.subscribed[session_id] = {"offset": 0, "signature": signature}
                return self.send({"type": "session_history", "session_id": session_id, "messages": [],
                                  "next_offset": 0, "end_of_file": True, "file_replaced": True,
                                  "file_signature": signature})
            start = cursor.get("offset") or 0
            count = len(session.lines)
            end = min(start + page, count) if start <= count else count
            messages = [dict(m, offset=i) for i, _, m in session.messages() if start <= i < end]
            reached = end if start <= count else count
            self.subscribed[session_id] = {"offset": reached, "signature": signature}
            self.send({"type": "session_history", "session_id": session_id, "messages": messages,
                       "next_offset": reached, "end_of_file": end == count and not session.partial,
                       "file_signature": signature})
        else:
            last = cursor.get("last_seq") or 0
            every = session.messages()
            next_seq = len(every) + 1
            if last >= next_seq:
                self.subscribed[session_id] = {"seq": next_seq - 1}
                return self.send(history_04(session_id, [], next_seq, True, {
                    "requested_last_seq": last, "min_available_seq": 1, "reason": "client_ahead"}))
            after = [(seq, m) for _, seq, m in every if seq > last]
            shown = after[:page]
            self.subscribed[session_id] = {"seq": shown[-1][0] if shown else last}
            self.send(history_04(session_id, shown, next_seq, len(shown) == len(after), None))

    def push(self, session, replaced, turns):
        """One watcher tick for a session this connection follows: turn_complete first, then the
        session's new messages (REP:2482-2503)."""
        state = self.subscribed.get(session.id)
        if state is None:
            return
        for _ in turns:
            self.send({"type": "turn_complete", "session_id": session.id})
        if self.version == "0.5.0":
            signature = session.signature()
            start = 0 if replaced else state.get("offset", 0)
            if start >= len(session.lines) and signature == state.get("signature"):
                return
            messages = [dict(m, offset=i) for i, _, m in session.messages() if i >= start]
            state.update(offset=len(session.lines), signature=signature)
            self.send({"type": "session_history", "session_id": session.id, "messages": messages,
                       "next_offset": len(session.lines), "end_of_file": not session.partial,
                       "file_signature": signature})
        else:
            every = session.messages()
            fresh = [(seq, m) for _, seq, m in every if seq > state.get("seq", 0)]
            if fresh:
                state["seq"] = fresh[-1][0]
                self.send(history_04(session.id, fresh, len(every) + 1, True, None))

    async def writer(self):
        while True:
            text = await self.outbox.get()
            if text is None or isinstance(text, tuple):
                code, reason = text or (1000, "")
                await self.ws.close(code, reason)
                return
            try:
                await self.ws.send(text)
            except websockets.ConnectionClosed:
                return


def close_frame(reason):
    """The WebSocket close for an engine's close reason, as vcproto's hosts send it: 1000 when a side
    ends on purpose, 1001 when a deadline passed or the transport failed, 1008 when the peer broke
    the protocol or failed to authenticate (in time); the reason text is the stable code."""
    if reason in ("client_disconnect", "server_close", "draining"):
        return 1000, reason
    if reason in ("pong_timeout", "heartbeat_timeout", "handshake_timeout", "transport_closed"):
        return 1001, reason
    return 1008, reason


def history_04(session_id, shown, next_seq, complete, gap):
    return {"type": "session_history", "session_id": session_id,
            "messages": [dict(m, seq=seq) for seq, m in shown],
            "first_seq": shown[0][0] if shown else None, "last_seq": shown[-1][0] if shown else None,
            "next_seq": next_seq, "is_complete": complete, "gap": gap}


def available_commands():
    return {"type": "available_commands", "working_directory": None, "project_commands": [],
            "general_commands": GENERAL_COMMANDS}


# -- the server -----------------------------------------------------------------------------------------


class Backend:
    def __init__(self, args):
        self.args = args
        self.versions = ["0.4.0", "0.5.0"] if args.protocol == "0.5.0" else ["0.4.0"]
        self.auth_versions = {"v1": [1], "v2": [2], "both": [1, 2]}[args.auth]
        self.sessions = {}
        for path in args.session:
            session = SessionFile(path)
            session.read()
            session.announced = {m["uuid"] for m in (session.message(i, r) for i, r in enumerate(session.lines))
                                 if m is not None}
            self.sessions[session.id] = session
        self.connections = set()

    def session_list(self):
        listed = sorted((s.summary() for s in self.sessions.values() if s.summary()["message_count"] > 0),
                        key=lambda s: -s["last_modified"])
        return {"type": "session_list", "sessions": listed, "total_count": len(listed)}

    def recent(self, limit):
        listed = sorted(self.sessions.values(), key=lambda s: -(s.stamp[2] if s.stamp else 0))[:limit]
        return [{"session_id": s.id, "name": "Session " + s.id[:8], "working_directory": "/tmp/backend",
                 "last_modified": iso((s.stamp[2] // 1_000_000) if s.stamp else 0), "provider": "claude"}
                for s in listed]

    def session_for(self, prompt):
        for key in ("resume_session_id", "new_session_id"):
            if isinstance(prompt.get(key), str):
                if prompt[key] not in self.sessions:
                    directory = os.path.dirname(next(iter(self.sessions.values())).path)
                    self.sessions[prompt[key]] = SessionFile(os.path.join(directory, prompt[key] + ".jsonl"))
                return self.sessions[prompt[key]]
        return next(iter(self.sessions.values()), None)

    async def agent(self, session, text):
        """The fake agent: the user's line, then after a while the answer ending the turn."""
        user = record(session, "user", text)
        session.append(user)
        await asyncio.sleep(self.args.turn_delay_ms / 1000)
        session.append(record(session, "assistant", "echo: " + text, parent=user["uuid"], end_turn=True))

    async def watch(self):
        while True:
            await asyncio.sleep(self.args.poll_ms / 1000)
            for session in list(self.sessions.values()):
                changed, replaced = session.read()
                if not changed:
                    continue
                turns = []
                for record_ in session.lines:
                    if (isinstance(record_, dict) and record_.get("type") == "assistant"
                            and (record_.get("message") or {}).get("stop_reason") in ("end_turn", "stop_sequence")
                            and record_.get("uuid") not in session.announced):
                        session.announced.add(record_.get("uuid"))
                        turns.append(record_["uuid"])
                for connection in list(self.connections):
                    connection.push(session, replaced, turns)

    async def serve(self, ws):
        connection = Connection(self, ws)
        writer = asyncio.get_running_loop().create_task(connection.writer())
        challenge = secrets.token_hex(32) if 2 in self.auth_versions else None
        connection.feed("transport_opened", challenge=challenge, connection_id=str(uuidlib.uuid4()))
        try:
            async for data in ws:
                connection.received(data)
        except websockets.ConnectionClosed:
            pass
        finally:
            connection.feed("transport_closed")
            for timer in list(connection.timers):
                connection.cancel(timer)
            self.connections.discard(connection)
            connection.outbox.put_nowait(None)
            await asyncio.wait([writer], timeout=2)


async def main(args):
    # A parent may have started it with signals blocked (a test runner's threads block most of them,
    # and a child inherits the mask): SIGTERM and SIGINT must reach it.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    backend = Backend(args)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    async with websockets.serve(backend.serve, "127.0.0.1", args.port, compression=None, max_size=4 * 1024 * 1024,
                                ping_interval=None, close_timeout=1) as server:
        print("port %d" % server.sockets[0].getsockname()[1], flush=True)
        watcher = loop.create_task(backend.watch())
        await stop.wait()
        watcher.cancel()
        server.close(close_connections=False)
        for ws in list(server.connections):
            await ws.close(1001, "going away")
    return 0


def parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--session", action="append", required=True, help="a Claude session file (JSON Lines)")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--protocol", choices=["0.4.0", "0.5.0"], default="0.5.0")
    parser.add_argument("--auth", choices=["v1", "v2", "both"], default="v1")
    parser.add_argument("--api-key", default="untethered-0123456789abcdef0123456789abcdef")
    parser.add_argument("--capability", action="append", default=[], help="a capability offered (repeatable)")
    parser.add_argument("--page", type=int, default=200, help="lines (0.5.0) or messages (0.4.0) per reply")
    parser.add_argument("--poll-ms", type=int, default=50)
    parser.add_argument("--turn-delay-ms", type=int, default=100)
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse(sys.argv[1:]))))

"""The client side of a conversation as a pure state machine (STANDARDS.md#state-machine): inputs and the
current time in, actions out (dicts in the vectors' `expect` form, times absolute); no socket, no
clock, no randomness but the seeded SplitMix64.

States: idle, connecting, awaiting_hello, awaiting_connected, ready, backing_off, reauth_required,
upgrade_required, stopped. `LEGAL` says which inputs each accepts; anything else raises IllegalEvent.
Transports are numbered 1, 2, ... in the order the engine opens them; news (`transport_opened`,
`transport_closed`) of any transport but the current one is ignored before `LEGAL` is consulted.
"""
import base64
import hmac
import json
import os

from . import auth_bound, envelope, jsontext, messages
from .session_frames import Channel, outgoing
from .session_requests import ANSWERS, REQUEST_TIMEOUT_MS, SLOW_REQUEST_TIMEOUT_MS, Requests
from .session_common import (KNOWN_VERSIONS, SEQ_FROM, BoundedSet, IllegalEvent, SplitMix64, at_least_zero, close,
                             duration, event, family, fraction, is_int, later, parse_version, send, show_version)

LIVE = ("connecting", "awaiting_hello", "awaiting_connected", "ready")
PARKED = ("backing_off", "reauth_required", "upgrade_required", "stopped")
ALL = ("idle",) + LIVE + PARKED

# Which inputs each state accepts (the transition table of STANDARDS.md#states). `timer` stands for `advance`.
LEGAL = {state: {"start", "resume", "stop", "subscribe", "unsubscribe", "timer"} for state in ALL}
for _state in LIVE:  # only a live state has a current transport
    LEGAL[_state].add("transport_closed")
for _state in ("awaiting_hello", "awaiting_connected", "ready") + PARKED:
    LEGAL[_state].add("frame")  # a frame (input `received`) before the socket opened cannot happen: illegal
LEGAL["connecting"].add("transport_opened")
LEGAL["ready"].add("send")
for _state in ("connecting", "awaiting_hello", "awaiting_connected", "backing_off"):
    LEGAL[_state].add("send")  # a request with a request id waits in the outbox; one without is refused

# Frames only the engine writes: the application asks with start/subscribe/unsubscribe instead.
ENGINE_FRAMES = {"connect", "subscribe", "unsubscribe", "message_ack"}

# The validation boundary: every received frame is judged against the connection's version from the
# schemas (messages.Judge); one with an error is never delivered, only reported as a violation.
JUDGE = messages.Judge(os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                    "Schema"))
HANDSHAKE_TYPES = {"hello", "connected", "auth_error"}  # a violation in one of these closes
HANDSHAKE_PHASE_TYPES = HANDSHAKE_TYPES | {"error", "pong"}  # what is read before ready


def send_text(frame):
    """A message the engine sends: its compact JSON text (STANDARDS.md#encoding)."""
    return {"action": "send", "text": jsontext.write(frame)}


def violation(kind, errors, disposition="dropped"):
    return event("violation", message_type=kind,
                 findings=[{"code": c, "pointer": p} for p, c in sorted(set(errors))], disposition=disposition)

MAX_PENDING = 256
OUTBOX_CAPACITY = 32  # requests made while not ready (STANDARDS.md#outbox)
MAX_SUBSCRIPTIONS = 256
DEDUP_WINDOW = 2048
MAX_NEW_SESSIONS = 16
MAX_DRAIN_WAIT = 3_600_000
MAX_CURSOR_ID_BYTES = 256  # a longer 0.2.0/0.3.0 cursor is not kept (STANDARDS.md#state-machine)
MAX_HANDSHAKE_LIST = 64


def usable_cursor(cursor):
    """The application's cursor, or None (the whole history) when its position is negative."""
    if isinstance(cursor, dict):
        for key in ("last_seq", "offset"):
            if is_int(cursor.get(key)) and cursor[key] < 0:
                return None
    return cursor


class Subscription:
    """The client's view of one followed session."""

    def __init__(self, cursor):
        self.cursor = cursor  # None or {last_message_id} / {last_seq} / {offset, signature}
        # (family, position); emptied when a connection negotiates another family than the last one.
        self.delivered = BoundedSet(DEDUP_WINDOW)
        self.asked_from = None  # the position the subscribe in flight resumes from


def signature_replaced(seen, current):
    """`<bytes>:<first record>`: a different first record or a shorter file is another file; a file
    that only grew is the same one (the real server's equality test reloads on every append)."""
    def split(sig):
        length, colon, first = sig.partition(":")
        return (int(length), first) if colon and length.isdigit() else None
    a, b = split(seen), split(current)
    if a is None or b is None:
        return seen != current
    return b[1] != a[1] or b[0] < a[0]


class ClientEngine:
    """The client side, built from a session vector's client `config`; it lives across connections."""

    is_new_file = staticmethod(signature_replaced)

    def __init__(self, config):
        c = config
        self.api_key = c.get("api_key", "")
        self.min_version = parse_version(c.get("min_version")) or (0, 2, 0)
        self.max_version = parse_version(c.get("max_version")) or (0, 5, 0)
        self.wanted = list(c.get("capabilities") or [])
        self.allow_v1 = c.get("allow_auth_v1", False)  # v1 only when the application opted in (STANDARDS.md#negotiation-and-auth)
        self.session_id = c.get("session_id")
        self.recent_limit = c.get("recent_sessions_limit")
        self.max_kb = c.get("max_message_size_kb")
        # Held to their ranges (STANDARDS.md#configuration): periods at least 1 ms, the
        # jitter within 0-1, the attempt limit at least 0; every deadline stops at 2^63 - 1 (`later`).
        self.jitter = fraction(c.get("jitter"), 0.25)
        self.max_attempts = at_least_zero(c.get("max_reconnect_attempts"), None)
        self.ping_every = duration(c.get("ping_interval_ms"), 30_000)
        self.pong_within = duration(c.get("pong_timeout_ms"), 15_000)
        self.heartbeat_within = duration(c.get("heartbeat_timeout_ms"), 90_000)
        self.connect_within = duration(c.get("connect_timeout_ms"), 15_000)
        self.handshake_within = 30_000
        self.rng = SplitMix64(c.get("random_seed", 0))

        self.state = "idle"
        self.opened = 0  # transports asked for: the number of the last one
        self.timers = {}
        self.attempts = 0  # reconnect attempts since the last authenticated connection
        self.auth_failures = 0  # auth_error in a row
        self.subs = {}  # session id -> Subscription, in subscription order
        self.new_sessions = []  # prompt-created sessions whose session_ready may be lost
        self.requests = Requests(at_least_zero(c.get("max_pending_requests"), MAX_PENDING),  # oldest first
                                 duration(c.get("request_timeout_ms"), REQUEST_TIMEOUT_MS),
                                 duration(c.get("slow_request_timeout_ms"), SLOW_REQUEST_TIMEOUT_MS))
        self.outbox_capacity = at_least_zero(c.get("outbox_capacity"), OUTBOX_CAPACITY)
        self.outbox = []  # (frame, request id, deadline) made while not ready, oldest first
        self.seen_ids = BoundedSet(DEDUP_WINDOW)
        self.delivered_family = None  # the family of the positions the subscriptions remember
        self.forget_connection()

    def forget_connection(self):
        self.transport = None  # the current transport's number: none once closed or reported closed
        self.version = None
        self.heading = None  # the version the handshake is heading for, once hello came
        self.canonical = None  # the frame being handled, as the judge writes it
        self.caps = []
        self.nonce = None
        self.hello = None
        self.response = None
        self.auth_version = 1
        self.implicit = None
        self.last_frame_at = 0
        self.ping_at = None
        self.drain_ms = None
        self.channel = None  # authenticated frames (STANDARDS.md#authenticated-frames): seals what is sent, opens what arrives
        self.exhausted = False  # the channel used its last sequence number while sending
        for sub in self.subs.values():
            sub.asked_from = None

    def emit(self, frame, out):
        """Sends `frame`, sealed when authenticated frames are in force."""
        wire = outgoing(self, frame)
        if wire is not None:
            out.append(send_text(wire))

    # -- inputs ---------------------------------------------------------------------------------

    def handle(self, kind, now, **inp):
        """One input at absolute time `now`; returns the actions."""
        if kind in ("transport_opened", "transport_closed") and inp.get("transport") != self.transport:
            return []  # news of a socket the engine closed or gave up on: not this conversation's
        named = "frame" if kind == "received" else kind
        if named not in LEGAL[self.state]:
            raise IllegalEvent(self.state, named)
        if kind == "send":
            inp = dict(inp)
            inp["frame"] = jsontext.parse(inp.pop("text").encode("utf-8"))
        if kind == "send" and (inp["frame"].get("type") in ENGINE_FRAMES):
            raise IllegalEvent(self.state, kind, "the engine writes %s itself" % inp["frame"].get("type"))
        out = []
        getattr(self, "on_" + kind)(out, now, **inp)
        if self.outbox and self.state in ("reauth_required", "upgrade_required", "stopped"):
            self.fail_outbox("not_reconnecting", out)  # stopped reconnecting by itself: never sent
        if self.exhausted and self.state == "ready":
            self.lost("sequence_exhausted", now, True, out)
        return out

    def on_start(self, out, now):
        if self.state in LIVE:
            return
        self.cancel("reconnect", out)
        if self.state != "backing_off":
            self.attempts = 0
        self.auth_failures = 0
        self.open(out, now)

    def on_resume(self, out, now):
        if self.state in ("backing_off", "stopped"):
            self.attempts = 0
            self.cancel("reconnect", out)
            self.open(out, now)

    def open(self, out, now):
        self.state = "connecting"
        self.opened += 1
        self.transport = self.opened
        out.append({"action": "open_transport", "transport": self.transport})
        self.arm("connect_deadline", later(now, self.connect_within), out)  # open and upgrade, at most

    def close(self, reason):
        """The action closing the current transport."""
        return dict(close(reason), transport=self.transport)

    def on_stop(self, out, now, reason="user"):
        if self.state not in LIVE:
            self.cancel("reconnect", out)
            self.fail_outbox("stopped", out)
            if self.state != "stopped":  # ends reconnecting, or a parked client: the application is told why
                out.append(event("stopped", reason=reason))
            self.state = "stopped"
            return
        if self.state == "ready" and "disconnect" in self.caps:
            self.emit({"type": "disconnect", "reason": reason}, out)
        self.fail_pending("stopped", out)
        self.fail_outbox("stopped", out)
        self.cancel_connection_timers(out)
        out.append(self.close("client_disconnect"))
        self.forget_connection()
        self.state = "stopped"
        out.append(event("disconnected", reason="client_disconnect"))
        out.append(event("stopped", reason=reason))

    def on_transport_opened(self, out, now, client_nonce=None, transport=None):
        self.cancel("connect_deadline", out)
        self.nonce = client_nonce
        self.last_frame_at = now
        self.state = "awaiting_hello"
        self.arm("handshake_deadline", later(now, self.handshake_within), out)

    def on_transport_closed(self, out, now, detail="", transport=None):
        self.lost("transport_closed", now, False, out)  # (only a live state has a current transport)

    def on_subscribe(self, out, now, session_id, cursor=None):
        if session_id not in self.subs:
            if len(self.subs) >= MAX_SUBSCRIPTIONS:
                return
            self.subs[session_id] = Subscription(usable_cursor(cursor))
        elif cursor is not None:
            self.subs[session_id].cursor = usable_cursor(cursor)
        if self.state == "ready":
            self.send_subscribe(session_id, out)

    def on_unsubscribe(self, out, now, session_id):
        if self.subs.pop(session_id, None) is None:
            return
        self.cancel("continuation:" + session_id, out)
        if self.state == "ready":
            self.emit({"type": "unsubscribe", "session_id": session_id}, out)

    def on_send(self, out, now, frame, request_id=None, deadline=None):
        if self.state != "ready":
            if request_id is None:
                raise IllegalEvent(self.state, "send", "only a request with a request id waits in the outbox")
            return self.enqueue(frame, request_id, now, out)
        kind = frame.get("type")
        deadline = self.requests.add(kind, frame, request_id, now, deadline) if kind in ANSWERS else None
        if kind in ANSWERS and deadline is None and request_id is not None:
            out.append(event("request_failed", request_id=request_id, reason="too_many_pending"))
            return  # refused, not sent (an untracked one that finds no room is sent unrecorded)
        created = frame.get("new_session_id") if kind == "prompt" else None
        if isinstance(created, str) and created not in self.new_sessions:
            self.new_sessions = (self.new_sessions + [created])[-MAX_NEW_SESSIONS:]
        self.emit(frame, out)
        self.arm_request_deadline(deadline, out)

    # -- the outbox: requests made while not ready --------------------------------------------------

    def enqueue(self, frame, request_id, now, out):
        if len(self.outbox) >= self.outbox_capacity:
            return out.append(event("request_failed", request_id=request_id, reason="outbox_full"))
        deadline = later(now, self.requests.timeout(frame.get("type")))  # counted from the application's send
        self.outbox.append((frame, request_id, deadline))
        armed = self.timers.get("outbox_deadline")
        if armed is None or deadline < armed:
            self.arm("outbox_deadline", deadline, out)

    def flush_outbox(self, now, out):
        queued, self.outbox = self.outbox, []
        for frame, request_id, deadline in queued:
            self.on_send(out, now, frame, request_id, deadline)
        if queued:
            self.cancel("outbox_deadline", out)

    def fail_outbox(self, reason, out):
        queued, self.outbox = self.outbox, []
        for _, request_id, _ in queued:
            out.append(event("request_failed", request_id=request_id, reason=reason))
        if queued:
            self.cancel("outbox_deadline", out)

    def arm_request_deadline(self, deadline, out):
        """One timer for all waiting requests, at the earliest deadline; answers do not move it."""
        armed = self.timers.get("request_deadline")
        if deadline is not None and (armed is None or deadline < armed):
            self.arm("request_deadline", deadline, out)

    # -- timers ---------------------------------------------------------------------------------

    def arm(self, name, at, out):
        self.timers[name] = at
        out.append({"action": "arm_timer", "timer": name, "at": at})

    def cancel(self, name, out):
        if self.timers.pop(name, None) is not None:
            out.append({"action": "cancel_timer", "timer": name})

    def cancel_connection_timers(self, out):
        for name in sorted(self.timers):
            if name not in ("reconnect", "outbox_deadline"):  # the outbox outlives a connection
                self.cancel(name, out)

    def on_timer(self, out, now, name):
        at = self.timers.get(name)
        if at is None or at > now:
            return  # cancelled, moved or early: stale
        del self.timers[name]
        if name == "reconnect":
            if self.state == "backing_off":
                self.open(out, now)
        elif name == "connect_deadline":
            if self.state == "connecting":
                self.lost("connect_timeout", now, True, out)
        elif name == "handshake_deadline":
            if self.state in ("awaiting_hello", "awaiting_connected"):
                self.lost("handshake_timeout", now, True, out)
        elif name == "outbox_deadline":
            due = [q for q in self.outbox if q[2] <= now]
            self.outbox = [q for q in self.outbox if q[2] > now]
            for _, request_id, _ in due:
                out.append(event("request_failed", request_id=request_id, reason="timeout"))
            if self.outbox:
                self.arm("outbox_deadline", min(q[2] for q in self.outbox), out)
        elif self.state != "ready":
            return
        elif name == "ping":
            self.emit({"type": "ping"}, out)
            if "pong_deadline" not in self.timers:  # the oldest unanswered ping's deadline is never pushed back
                self.ping_at = now
                self.arm("pong_deadline", later(now, self.pong_within), out)
            self.arm("ping", later(now, self.ping_every), out)
        elif name == "pong_deadline":
            if self.ping_at is not None and self.last_frame_at <= self.ping_at:
                self.lost("pong_timeout", now, True, out)
        elif name == "heartbeat_deadline":
            due = later(self.last_frame_at, self.heartbeat_within)
            if due > now:
                self.arm("heartbeat_deadline", due, out)
            else:
                self.lost("heartbeat_timeout", now, True, out)
        elif name == "request_deadline":
            due, next_deadline = self.requests.expire(now)
            for waiting in due:
                if waiting.request_id is not None:
                    out.append(event("request_failed", request_id=waiting.request_id, reason="timeout"))
            if next_deadline is not None:
                self.arm("request_deadline", next_deadline, out)
        elif name.startswith("continuation:"):
            if name[len("continuation:"):] in self.subs:
                self.send_subscribe(name[len("continuation:"):], out)

    # -- losing the connection --------------------------------------------------------------------

    def fail_pending(self, reason, out):
        for waiting in self.requests.drain():
            if waiting.request_id is not None:
                out.append(event("request_failed", request_id=waiting.request_id, reason=reason))

    def lost(self, reason, now, close_it, out):
        """The connection is gone: fail waiting requests, stop keepalive, back off (or give up)."""
        self.fail_pending("connection_lost", out)
        self.cancel_connection_timers(out)
        if close_it:
            out.append(self.close(reason))
        drain = self.drain_ms
        self.forget_connection()
        out.append(event("disconnected", reason=reason))
        if drain is not None:  # a planned restart, not a failure: the count stays
            extra = int(drain * self.jitter * self.rng.unit())
            return self.schedule(later(later(now, drain), extra), self.attempts + 1, out)
        if self.max_attempts is not None and self.attempts >= self.max_attempts:
            self.state = "stopped"
            out.append(event("gave_up", attempts=self.attempts))
            return
        delay = self.backoff_delay()
        self.attempts += 1
        self.schedule(later(now, delay), self.attempts, out)

    def backoff_delay(self):
        """Attempt n's delay; capped again after jitter, so no delay exceeds the cap (STANDARDS.md#reconnect)."""
        raw = min(1000 * 2 ** min(self.attempts, 30), 30_000)
        return min(30_000, max(1000, int(raw * (1 + self.jitter * (2 * self.rng.unit() - 1)))))

    def schedule(self, at, attempt, out):
        self.state = "backing_off"
        self.arm("reconnect", at, out)
        out.append(event("reconnect_scheduled", attempt=attempt, at=at))

    def park(self, state, why, out, **members):
        """Close and wait for the application: reauth_required or upgrade_required."""
        self.fail_pending("connection_lost", out)
        self.cancel_connection_timers(out)
        out.append(self.close(why))
        self.forget_connection()
        self.state = state
        out.append(event(state, **members))

    # -- frames ---------------------------------------------------------------------------------

    def on_received(self, out, now, text=None, binary_base64=None):
        """A WebSocket message as received: the envelope opened (when negotiated), then the sealed frame
        (authenticated frames), then the frame judged once against the connection's version."""
        if self.state not in ("awaiting_hello", "awaiting_connected", "ready"):
            return  # still in flight after the socket went: ignored
        self.last_frame_at = now
        parsed = None
        if text is None:
            if "compression_binary" not in self.caps:
                return self.violation(None, [("", "extension_not_negotiated")], now, out)
            try:
                data = envelope.open_binary(base64.b64decode(binary_base64 or ""))
            except envelope.EnvelopeError as error:
                return self.violation(None, [("", error.code)], now, out)
        else:
            data = text.encode("utf-8", "surrogatepass")
            if "compression_text" in self.caps:
                try:
                    parsed = jsontext.parse(data)
                except jsontext.ParseError as error:
                    return self.violation(None, [("", error.code)], now, out)
                if isinstance(parsed, dict) and parsed.get("type") == "compressed":
                    try:
                        data, parsed = envelope.open_text(data), None
                    except envelope.EnvelopeError as error:
                        return self.violation("compressed", [("", error.code)], now, out)
        if self.channel is not None:
            # Every frame after the verified connected is opened first; a refused one closes.
            if parsed is None:
                try:
                    parsed = jsontext.parse(data)
                except jsontext.ParseError:
                    return self.lost("malformed", now, True, out)
            refused, inner = self.channel.open_text(parsed)
            if refused:
                return self.lost(refused, now, True, out)
            data = inner.encode("utf-8", "surrogatepass")
        self.judge_and_act(data, now, out)

    def judge_and_act(self, data, now, out):
        try:
            value = jsontext.parse(data)
        except jsontext.ParseError as error:
            return self.violation(None, [("", error.code)], now, out)
        kind = value.get("type") if isinstance(value, dict) else None
        if self.state == "ready":
            version = show_version(self.version)
        elif isinstance(kind, str) and kind in HANDSHAKE_PHASE_TYPES:
            version = self.handshake_version(kind, value)
        elif self.state == "awaiting_connected" and self.implicit is not None and self.allow_v1:
            version = show_version(self.implicit)
        elif not isinstance(value, dict) or not isinstance(kind, str):
            version = "0.2.0"
        else:
            return  # before authentication nothing else is acted on
        errors, _, canonical = JUDGE.judge(jsontext.write(value), "server_to_client", version)
        # hello.version is the server's ceiling: on a connection of a later version than 0.2.0 it is at
        # least that version (a rule across messages the schemas cannot state).
        ceiling = parse_version(value.get("version")) if kind == "hello" else None
        if ceiling is not None and version != "0.2.0" and ceiling < parse_version(version):
            errors = sorted(set(errors) | {("/version", "invalid_value")})
        if errors:
            return self.violation(kind if isinstance(kind, str) else None, errors, now, out)
        self.on_frame(out, now, value, json.loads(canonical))

    def handshake_version(self, kind, value):
        """What a frame before ready is judged against: hello as 0.2.0 (its rules do not depend on the
        version still to be negotiated); connected as the version it names, when acceptable; the rest
        as the version the handshake is heading for (0.2.0 before hello)."""
        named = parse_version(value.get("negotiated_protocol_version")) if kind == "connected" else None
        if named is not None and self.min_version <= named <= self.max_version and named in KNOWN_VERSIONS:
            return show_version(named)
        if kind == "hello" or self.heading is None:
            return "0.2.0"
        return show_version(self.heading)

    def violation(self, kind, errors, now, out):
        """Reports a frame that failed validation; during the handshake, or in a handshake message, the
        connection closes."""
        if self.state == "ready" and kind not in HANDSHAKE_TYPES:
            return out.append(violation(kind, errors))
        out.append(violation(kind, errors, {"closed": "protocol_violation"}))
        self.lost("protocol_violation", now, True, out)

    def on_frame(self, out, now, frame, canonical):
        self.canonical = canonical
        kind = frame.get("type")
        if kind == "error" and frame.get("code") == "unsupported_protocol_version":
            required = frame.get("required")
            return self.park("upgrade_required", "unsupported_protocol_version", out,
                             required=required if isinstance(required, str) else None)
        if self.state == "awaiting_hello":
            if kind == "hello":  # anything before hello is ignored
                self.on_hello(frame, now, out)
        elif self.state == "awaiting_connected":
            self.on_verdict(frame, kind, now, out)
        else:
            self.on_ready_frame(frame, kind, now, out)

    def on_hello(self, hello, now, out):
        if any(isinstance(hello.get(k), list) and len(hello[k]) > MAX_HANDSHAKE_LIST
               for k in ("protocol_versions", "auth_versions", "capabilities")):
            return self.lost("protocol_violation", now, True, out)  # too long to read (STANDARDS.md#limits)
        listed = hello.get("protocol_versions")
        offered = [parse_version(v) for v in (listed if isinstance(listed, list) else [hello.get("version")])]
        offered = [v for v in offered if v]
        if not offered or max(offered) < self.min_version:
            return self.park("upgrade_required", "unsupported_protocol_version", out, required=None)
        server_max = max(offered)
        heading = min(server_max, self.max_version)
        self.heading = heading if heading in KNOWN_VERSIONS else None
        auth_versions = hello.get("auth_versions")
        if not isinstance(auth_versions, list):
            auth_versions = [hello.get("auth_version", 1)]
        challenge = hello.get("challenge") if 2 in auth_versions else None
        v2 = isinstance(challenge, str) and self.nonce is not None
        if not v2 and not self.allow_v1:
            return self.park("reauth_required", "downgrade_refused", out, reason="downgrade_refused")
        connect = {"type": "connect"}
        if not v2:
            connect["api_key"] = self.api_key
        if self.session_id is not None:
            connect["session_id"] = self.session_id
        if self.recent_limit is not None:
            connect["recent_sessions_limit"] = self.recent_limit
        connect["protocol_version"] = show_version(self.max_version)
        if isinstance(listed, list):
            mine = [v for v in KNOWN_VERSIONS if self.min_version <= v <= self.max_version] or [self.max_version]
            connect["protocol_versions"] = [show_version(v) for v in mine]
        if "capabilities" in hello and self.wanted:
            connect["capabilities"] = list(self.wanted)
        self.auth_version = 1
        if v2:
            # The answer binds this connect and the hello as received (the client input of STANDARDS.md#mac-layout).
            self.auth_version = connect["auth_version"] = 2
            members = auth_bound.client_members(challenge, self.nonce, connect, hello)
            self.response = auth_bound.mac(self.api_key, auth_bound.build("vcproto/auth/v2/client", members,
                                                                          auth_bound.CLIENT))
            connect.update(client_nonce=self.nonce, auth_response=self.response)
        self.hello = hello
        if not isinstance(listed, list) and not v2 and server_max < SEQ_FROM:
            # A server from before `connected`: its first frame that is not auth_error means success.
            self.implicit = min(server_max, self.max_version)
        self.state = "awaiting_connected"
        out.append(send_text(connect))

    def on_verdict(self, frame, kind, now, out):
        if kind == "auth_error":
            self.auth_failures += 1
            if self.auth_failures >= 3:
                return self.park("reauth_required", "auth_failed", out, reason="auth_failed")
            return self.lost("auth_failed", now, True, out)
        if kind == "connected":
            return self.on_connected(frame, now, out)
        if kind in ("pong", "hello", "error") or self.implicit is None:
            return  # not a verdict: nothing is acted on before authentication
        self.become_ready(self.implicit, [], now, out)
        self.on_ready_frame(frame, kind, now, out)

    def on_connected(self, frame, now, out):
        if self.auth_version == 2 and not self.proof_holds(frame):
            return self.park("reauth_required", "server_proof_invalid", out, reason="server_proof_invalid")
        text = frame.get("negotiated_protocol_version")
        if text is not None:
            version = parse_version(text)
            if version is None or not self.min_version <= version <= self.max_version:
                return self.lost("protocol_violation", now, True, out)
        else:
            version = self.implicit or min(self.max_version, SEQ_FROM)
        caps = frame.get("capabilities")
        caps = [c for c in caps if isinstance(c, str)] if isinstance(caps, list) else []
        if any(c not in self.wanted for c in caps):
            return self.lost("protocol_violation", now, True, out)
        if "authenticated_frames" in caps:
            if self.auth_version != 2:  # no handshake keys: nothing could be sealed
                return self.lost("protocol_violation", now, True, out)
            self.channel = Channel(self.api_key, self.hello.get("challenge"), self.nonce, self.response, frame, "client")
        self.become_ready(version, caps, now, out)

    def proof_holds(self, connected):
        proof = connected.get("server_proof")
        if not isinstance(proof, str) or self.hello is None:
            return False
        members = {k: connected[k] for k in ("message", "session_id", "negotiated_protocol_version", "capabilities",
                                              "auth_version") if k in connected}
        members.update(challenge=self.hello.get("challenge"), client_nonce=self.nonce, auth_response=self.response)
        data = auth_bound.build("vcproto/auth/v2/server", members, auth_bound.SERVER)
        return hmac.compare_digest(auth_bound.mac(self.api_key, data).encode(), proof.encode())

    def become_ready(self, version, caps, now, out):
        self.state = "ready"
        self.version = version
        if self.delivered_family not in (None, family(version)):
            # A seq and an offset with the same number are different messages: forget the old family's.
            for sub in self.subs.values():
                sub.delivered.clear()
        self.delivered_family = family(version)
        self.caps = caps
        self.attempts = 0
        self.auth_failures = 0
        self.implicit = None
        self.cancel("handshake_deadline", out)
        out.append(event("connected", version=show_version(version), capabilities=sorted(caps),
                         auth_version=self.auth_version))
        if self.max_kb is not None:
            frame = {"type": "set_max_message_size", "size_kb": self.max_kb}
            # Recorded so that its ack does not answer a later prompt.
            deadline = self.requests.add("set_max_message_size", frame, None, now)
            self.emit(frame, out)
            self.arm_request_deadline(deadline, out)
        # session_ready goes only to the connection that sent the prompt: follow the session instead.
        for session in self.new_sessions:
            if session not in self.subs and len(self.subs) < MAX_SUBSCRIPTIONS:
                self.subs[session] = Subscription(None)
        self.new_sessions = []
        for session in list(self.subs):
            self.send_subscribe(session, out)
        self.flush_outbox(now, out)  # what the application asked while not ready, in order
        self.arm("ping", later(now, self.ping_every), out)
        if "heartbeat" in caps:
            self.arm("heartbeat_deadline", later(now, self.heartbeat_within), out)

    def on_ready_frame(self, frame, kind, now, out):
        if kind == "pong":
            self.ping_at = None
            return self.cancel("pong_deadline", out)
        if kind == "heartbeat":
            return  # liveness only, negotiated or not
        if kind == "draining" and "draining" in self.caps:
            wait = frame.get("retry_after_ms")
            self.drain_ms = min(max(0, wait), MAX_DRAIN_WAIT) if is_int(wait) else 0
            return self.lost("draining", now, True, out)
        if kind == "auth_error":
            self.auth_failures += 1
            return self.lost("auth_failed", now, True, out)
        if kind == "session_history" or (kind == "session_updated" and family(self.version) == "uuid"):
            if self.on_history(frame, now, out):
                return
        if kind in ("session_ready", "session_created", "turn_complete"):
            self.new_sessions = [s for s in self.new_sessions if s != frame.get("session_id")]
        message_id = frame.get("message_id")
        if "message_ack" in self.caps and isinstance(message_id, str):
            self.emit({"type": "message_ack", "message_id": message_id}, out)
            if not self.seen_ids.add(message_id):
                return  # a replay of a frame already delivered
        ended = self.requests.resolve(frame)
        if ended is not None and ended.request_id is not None:
            return out.append(event("answered", request_id=ended.request_id, message=self.canonical))
        out.append(event("received", message=self.canonical))

    # -- subscriptions ------------------------------------------------------------------------------

    def send_subscribe(self, session, out):
        sub = self.subs[session]
        frame = {"type": "subscribe", "session_id": session}
        cursor = sub.cursor or {}
        fam = family(self.version)
        if fam == "uuid":
            if isinstance(cursor.get("last_message_id"), str):
                frame["last_message_id"] = cursor["last_message_id"]
            sub.asked_from = None
        elif fam == "seq":
            sub.asked_from = frame["last_seq"] = cursor.get("last_seq", 0) if is_int(cursor.get("last_seq")) else 0
        else:
            sub.asked_from = frame["from_offset"] = cursor.get("offset", 0) if is_int(cursor.get("offset")) else 0
        self.cancel("continuation:" + session, out)
        self.emit(frame, out)

    def on_history(self, frame, now, out):
        """A subscribed session's history or live push becomes one session_update; False otherwise."""
        session = frame.get("session_id")
        messages = frame.get("messages")
        if not isinstance(session, str) or not isinstance(messages, list):
            return False
        if session not in self.subs:
            if frame.get("type") != "session_history":
                return False
            # Never subscribed (or no longer): not delivered, reported.
            out.append(violation("session_history", [("/session_id", "unsubscribed_session_data")]))
            return True
        sub = self.subs[session]
        fam = family(self.version)
        # An offset cursor reported to the application carries this frame's own file_signature.
        signature = frame.get("file_signature") if isinstance(frame.get("file_signature"), str) else None
        update = {"purge": None, "insert": [], "replace": [], "gap": None, "dropped": 0, "signature": signature}
        cursor = sub.cursor or {}
        if fam == "uuid":
            self.classify(messages, fam, session, sub, update, self.canonical["messages"])
            newest = frame.get("newest_message_id")
            if not isinstance(newest, str) and update["insert"]:
                newest = update["insert"][-1].get("uuid")
            if isinstance(newest, str):
                # STANDARDS.md#state-machine: an id over 256 UTF-8 bytes is not kept; the subscription has no cursor.
                short = len(newest.encode("utf-8", "surrogatepass")) <= MAX_CURSOR_ID_BYTES
                sub.cursor = {"last_message_id": newest} if short else None
            # 0.2.0/0.3.0 `is_complete: false` says older messages exist; nothing newer to fetch.
            out.append(self.session_update(session, sub, update, frame.get("is_complete") is not False))
            return True
        if fam == "seq":
            held = cursor.get("last_seq", 0) if is_int(cursor.get("last_seq")) else 0
            gap = frame.get("gap")
            if isinstance(gap, dict):
                update["gap"] = self.canonical.get("gap")
                next_seq = frame.get("next_seq")
                # seq is 1-based: a next_seq below 1 is not trusted (no purge, the cursor stays).
                if gap.get("reason") == "client_ahead" and is_int(next_seq) and next_seq >= 1:
                    update["purge"] = {"from": next_seq}
                    sub.delivered.discard_where(lambda p: p[0] == "seq" and p[1] >= next_seq)
                    held = next_seq - 1
            self.classify(messages, fam, session, sub, update, self.canonical["messages"])
            if is_int(frame.get("last_seq")):
                held = max(held, frame["last_seq"])
            sub.cursor = {"last_seq": held}
            return self.deliver(session, sub, update, frame.get("is_complete") is not False, held, now, out)
        held = cursor.get("offset", 0) if is_int(cursor.get("offset")) else 0
        seen = cursor.get("signature")
        current = frame.get("file_signature") if isinstance(frame.get("file_signature"), str) else None
        if frame.get("file_replaced") is True or (
                isinstance(seen, str) and current is not None and self.is_new_file(seen, current)):
            update["purge"] = "all"
            sub.delivered.clear()
            sub.cursor = {"offset": 0, "signature": current}
            out.append(self.session_update(session, sub, update, False))
            self.send_subscribe(session, out)
            return True
        # A negative next_offset is not trusted: as if absent.
        next_offset = frame.get("next_offset") if is_int(frame.get("next_offset")) and frame["next_offset"] >= 0 else held
        if next_offset < held:  # the client is ahead of the file
            update["purge"] = {"from": next_offset}
            sub.delivered.discard_where(lambda p: p[0] == "offset" and p[1] >= next_offset)
            held = next_offset
        self.classify(messages, fam, session, sub, update, self.canonical["messages"])
        sub.cursor = {"offset": max(held, next_offset), "signature": current if current is not None else seen}
        return self.deliver(session, sub, update, frame.get("end_of_file") is not False, next_offset, now, out)

    def deliver(self, session, sub, update, complete, reached, now, out):
        """The update; an incomplete one continues at once, or after 1 s when it did not advance."""
        if complete:
            out.append(self.session_update(session, sub, update, True))
        elif sub.asked_from is not None and reached <= sub.asked_from:
            self.arm("continuation:" + session, later(now, 1000), out)
            out.append(self.session_update(session, sub, update, False))
        else:
            out.append(self.session_update(session, sub, update, False))
            self.send_subscribe(session, out)
        return True

    @staticmethod
    def session_update(session, sub, update, complete):
        cursor = dict(sub.cursor) if sub.cursor else None
        if cursor is not None and "signature" in cursor:
            cursor["signature"] = update["signature"]
        return event("session_update", session_id=session, purge=update["purge"], insert=update["insert"],
                     replace=update["replace"], cursor=cursor, is_complete=complete, gap=update["gap"],
                     dropped=update["dropped"])

    @staticmethod
    def classify(messages, fam, session, sub, update, typed):
        """Inserts and replaces by position (uuid, seq or offset); the rest is dropped and counted.
        `typed` holds the same messages as the judge writes them (what the update delivers)."""
        key = {"uuid": "uuid", "seq": "seq", "offset": "offset"}[fam]
        for index, message in enumerate(messages):
            position = message.get(key) if isinstance(message, dict) else None
            # A negative seq or offset is no position (never trusted).
            valid = isinstance(position, str) if fam == "uuid" else is_int(position) and position >= 0
            owner = message.get("session_id") if isinstance(message, dict) else None
            if not valid or (fam != "uuid" and isinstance(owner, str) and owner != session):
                update["dropped"] += 1
            elif sub.delivered.add((fam, position)):
                update["insert"].append(typed[index])
            else:
                update["replace"].append(typed[index])

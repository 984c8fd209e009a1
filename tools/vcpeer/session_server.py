"""The server side of one connection as a pure state machine (STANDARDS.md#state-machine): inputs and the
current time in, actions out (dicts in the vectors' `expect` form, times absolute).

States: idle, awaiting_connect, authenticated, closed. `LEGAL` says which inputs each accepts. The
version decision is the real backend's (STANDARDS.md#negotiation, `negotiation.decide`); auth v1 compares the key
and auth v2 checks the answer to this connection's challenge, both in constant time.
"""
import base64
import datetime
import hmac
import json
import os
import re

from . import auth_bound, catalog_facts, envelope, jsontext, messages, negotiation
from .session_frames import Channel, outgoing
from .session_common import (KNOWN_VERSIONS, BoundedSet, IllegalEvent, at_least_zero, close, duration, event, family,
                             is_int, later, parse_version, send, show_version)

ALWAYS = {"close", "drain", "transport_closed"}
LEGAL = {
    "idle": {"transport_opened", "close", "transport_closed"},
    "awaiting_connect": ALWAYS | {"received", "timer"},
    "authenticated": ALWAYS | {"received", "timer", "send"},
    "closed": ALWAYS | {"received", "timer"},
}
# The vectors' input kinds for a received message, all the engine's one `received` event.
RECEIVED = {"frame", "malformed_frame", "received"}
ENVELOPE_MAGIC = '"compressed"'


def send_text(frame):
    """A message the engine sends: its compact JSON text (STANDARDS.md#encoding), the form the vectors show."""
    return {"action": "send", "text": jsontext.write(frame)}
# What the server may send only when the client negotiated the capability (the table of STANDARDS.md#extensions): whole
# messages, and members when present and not null. `replay` is a message of every version: not gated.
GATED = {"heartbeat": "heartbeat", "draining": "draining", "disconnect": "disconnect", "message_ack": "message_ack"}
GATED_MEMBERS = {("error", "message_id"): "message_ack", ("prompt", "idempotency_key"): "idempotent_prompt"}
SESSION_DATA = {"session_history", "session_updated"}

AUTH_WITHIN = 60_000
HEARTBEAT_EVERY = 45_000
REPLAY_CAPACITY = 256
REPLAY_BYTES = 4_194_304  # default byte budget of the replay buffer
KEY_CAPACITY = 1024
MAX_KEY_BYTES = 256
MAX_SUBSCRIPTIONS = 1024  # ServerConfiguration.maxSubscriptions default (STANDARDS.md#server-details)
MAX_SESSION_ID_BYTES = 256  # a longer subscribe.session_id is refused (STANDARDS.md#state-machine)
MAX_HANDSHAKE_LIST = 64  # entries in a connect's protocol_versions or capabilities (STANDARDS.md#limits)
# Frames are judged from Schema/ (messages.Judge); before negotiation with 0.3.0, whose rules do not
# refuse a connect announcing a version below 0.4.0 (the engine answers that with the too-old refusal).
JUDGE = messages.Judge(os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                    "Schema"))
HANDSHAKE_VERSION = "0.3.0"
# A frame that cannot be read as a JSON object: answered with error, the socket stays open.
UNREADABLE = {"invalid_json", "invalid_utf8", "duplicate_key", "frame_too_large", "nesting_too_deep",
              "string_too_long", "array_too_long", "object_too_large", "number_too_long", "too_many_values",
              "not_an_object"}
AUTH_ERROR = {"type": "auth_error", "message": "Authentication failed"}
HELLO_TEXT = {"message": "Welcome to voice-code backend", "instructions": "Send connect message with api_key"}


def rfc3339(ms):
    """Milliseconds since 1970 as an RFC 3339 UTC time in whole seconds (`2026-01-11T16:47:25Z`)."""
    return datetime.datetime.fromtimestamp(ms // 1000, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


CONNECT_KINDS = {"protocol_version": str, "session_id": str, "api_key": str, "recent_sessions_limit": int,
                 "auth_version": int, "protocol_versions": list, "capabilities": list}


def readable(connect):
    """An auth v2 `connect` is read as a typed frame before its answer is checked: each member the
    MAC covers has its declared JSON type, and `protocol_versions` lists versions (`0.5.0`)."""
    for name, kind in CONNECT_KINDS.items():
        value = connect.get(name)
        if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
            return False
    for name in ("protocol_versions", "capabilities"):
        if not all(isinstance(e, str) for e in connect.get(name) or []):
            return False
    return all(re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", v) for v in connect.get("protocol_versions") or [])


def offer_bounds(versions, floor):
    """The backend's floor and ceiling from a list of versions (Vectors/README.md, `auth/`), or None
    for a 0.2.0 server."""
    listed = {v for v in (parse_version(t) for t in versions) if v}
    if not listed or max(listed) <= (0, 2, 0):
        return None
    ceiling = (0, 5, 0) if (0, 5, 0) in listed else (0, 4, 0)
    mapped = sorted(v for v in listed if v in negotiation.MAPPED)
    low = parse_version(floor) if floor else None
    return (low if low in negotiation.MAPPED else (mapped[0] if mapped else (0, 4, 0))), ceiling


class ServerEngine:
    """One connection's server side, built from a session vector's server `config`."""

    def __init__(self, config):
        self.api_key = config.get("api_key", "")
        self.bounds = offer_bounds(config.get("protocol_versions") or ["0.2.0"], config.get("floor"))
        self.auth_versions = list(config.get("auth_versions") or [1])
        self.offered = list(config.get("capabilities") or [])
        self.state = "idle"
        self.timers = {}
        self.challenge = None
        self.challenge_at = 0
        self.challenge_used = False
        self.connection_id = None
        self.version = None
        self.caps = []
        self.subscribed = set()
        # Held to their ranges (STANDARDS.md#configuration): periods at least 1 ms, the
        # bounds at least 0; every deadline stops at 2^63 - 1 (`later`).
        self.replay_budget = at_least_zero(config.get("replay_buffer_bytes"), REPLAY_BYTES)
        self.heartbeat_every = duration(config.get("heartbeat_interval_ms"), HEARTBEAT_EVERY)
        self.auth_within = duration(config.get("auth_timeout_ms"), AUTH_WITHIN)
        self.max_subscriptions = at_least_zero(config.get("max_subscriptions"), MAX_SUBSCRIPTIONS)
        self.max_session_id_bytes = at_least_zero(config.get("max_session_id_bytes"), MAX_SESSION_ID_BYTES)
        self.unacked = []  # [message id, replay message, cost in bytes], oldest first
        self.keys = BoundedSet(KEY_CAPACITY)  # idempotency keys already run
        self.channel = None  # authenticated frames (STANDARDS.md#authenticated-frames): seals what is sent, opens what arrives
        self.exhausted = False  # the channel used its last sequence number while sending

    def emit(self, frame, out):
        """Sends `frame`, sealed when authenticated frames are in force."""
        wire = outgoing(self, frame)
        if wire is not None:
            out.append(send_text(wire))

    def handle(self, kind, now, **inp):
        if ("received" if kind in RECEIVED else kind) not in LEGAL[self.state]:
            raise IllegalEvent(self.state, "received" if kind in RECEIVED else kind)
        if self.state == "closed":
            return []
        out = []
        getattr(self, "on_" + kind)(out, now, **inp)
        if self.exhausted and self.state != "closed":
            self.finish("sequence_exhausted", out)
        return out

    # -- timers and closing -----------------------------------------------------------------------

    def arm(self, name, at, out):
        self.timers[name] = at
        out.append({"action": "arm_timer", "timer": name, "at": at})

    def finish(self, reason, out, close_it=True):
        for name in sorted(self.timers):
            out.append({"action": "cancel_timer", "timer": name})
        self.timers = {}
        if close_it:
            out.append(close(reason))
        self.state = "closed"
        out.append(event("closed", reason=reason))

    def on_timer(self, out, now, name):
        at = self.timers.get(name)
        if at is None or at > now:
            return
        del self.timers[name]
        if name == "auth_deadline" and self.state == "awaiting_connect":
            self.finish("auth_timeout", out)
        elif name == "heartbeat" and self.state == "authenticated":
            self.emit({"type": "heartbeat", "timestamp": rfc3339(now)}, out)
            self.arm("heartbeat", later(now, self.heartbeat_every), out)

    # -- inputs ---------------------------------------------------------------------------------

    def on_transport_opened(self, out, now, challenge=None, connection_id=None):
        self.connection_id = connection_id
        self.challenge = challenge if 2 in self.auth_versions else None
        self.challenge_at = now
        self.state = "awaiting_connect"
        out.append(send_text(self.hello()))
        self.arm("auth_deadline", later(now, self.auth_within), out)

    def decide(self, announced):
        """The backend's decision for an announced `protocol_version` (None: absent)."""
        if self.bounds is None:
            return negotiation.decide({"legacy": True}, {})
        floor, ceiling = self.bounds
        return negotiation.decide({"floor": show_version(floor), "ceiling": show_version(ceiling)},
                                  {"protocol_version": announced} if announced is not None else {})

    def reachable(self):
        """Every version some client can get: the decision for every known version and for none."""
        outcomes = {self.decide(a).get("negotiated_protocol_version") for a in [None] + list(map(show_version,
                                                                                               KNOWN_VERSIONS))}
        return sorted((v for v in outcomes if v), key=parse_version)

    def hello(self):
        ceiling = self.bounds[1] if self.bounds else (0, 2, 0)
        frame = {"type": "hello", "message": HELLO_TEXT["message"], "version": show_version(ceiling),
                 "auth_version": 1 if 1 in self.auth_versions else max(self.auth_versions),
                 "instructions": HELLO_TEXT["instructions"]}
        if not self.offered and self.auth_versions == [1]:
            return frame  # nothing to negotiate: the real backend's four members, nothing more
        frame.update(protocol_versions=self.reachable(), auth_versions=self.auth_versions, capabilities=self.offered)
        if self.challenge is not None:
            frame["challenge"] = self.challenge
        return frame

    def on_transport_closed(self, out, now):
        self.finish("transport_closed", out, close_it=False)

    def on_close(self, out, now):
        self.finish("server_close", out)

    def on_drain(self, out, now, retry_after_ms=0, message=""):
        if self.state == "authenticated" and "draining" in self.caps:
            self.emit({"type": "draining", "message": message, "retry_after_ms": max(0, retry_after_ms)}, out)
        self.finish("draining", out)

    def on_malformed_frame(self, out, now, detail=""):
        self.receive(detail, now, out, sealed_object=False)

    def on_received(self, out, now, text=None, binary_base64=None):
        """A WebSocket message as it arrived: a compression envelope opened when its form was
        negotiated (STANDARDS.md#compression), then the frame received as text."""
        if binary_base64 is not None:
            if "compression_binary" not in self.caps:
                return self.refuse_envelope("extension_not_negotiated", out)
            try:
                inner = envelope.open_binary(base64.b64decode(binary_base64))
            except envelope.EnvelopeError as error:
                return self.refuse_envelope(error.code, out)
            text = inner.decode("utf-8", "replace")
        elif "compression_text" in self.caps and ENVELOPE_MAGIC in text:
            try:
                value = json.loads(text)
            except ValueError:
                value = None
            if isinstance(value, dict) and value.get("type") == "compressed":
                try:
                    text = envelope.open_text(text.encode("utf-8")).decode("utf-8", "replace")
                except envelope.EnvelopeError as error:
                    return self.refuse_envelope(error.code, out)
        self.receive(text, now, out, sealed_object=False)

    def refuse_envelope(self, code, out):
        """An envelope that does not open (or a binary message without its capability): dropped with
        the error answer, or with authenticated frames in force the connection closed."""
        if self.channel is not None:
            return self.violate(None, [("", code)], None, "malformed", out)
        self.violate(None, [("", code)], self.processing_error([("", code)]), None, out)

    # -- violations (STANDARDS.md#server-boundary) -----------------------------------------

    def violate(self, kind, errors, answer, reason, out):
        """The answer (if any), the violation event, then (closing) the end of the connection."""
        if answer is not None:
            self.emit(answer, out)
        out.append(event("violation", message_type=kind,
                         findings=[{"code": c, "pointer": p} for p, c in sorted(errors)],
                         disposition={"closed": reason} if reason else "dropped"))
        if reason:
            self.finish(reason, out)

    @staticmethod
    def processing_error(errors):
        """`Error processing message: <code>[ at <pointer>]` naming the least finding by (pointer, code)."""
        pointer, code = min(errors)
        text = "Error processing message: " + code
        if pointer:
            text += " at " + (pointer if len(pointer) <= 60 else pointer[:60] + "\u2026")
        return {"type": "error", "message": text}

    def refuse_before_authentication(self, kind, out):
        self.violate(kind, [("", "before_authentication")], AUTH_ERROR, "not_authenticated", out)

    def receive(self, wire, now, out, sealed_object):
        """One received message: opened when sealed, judged with the connection's version, acted on.
        `wire`: the frame object (old vector form) when `sealed_object`, else the message text."""
        if self.channel is not None:
            if not sealed_object:
                try:
                    wire = json.loads(wire)
                except ValueError:
                    wire = None
                refused, text = ("malformed", None) if wire is None else self.channel.open_text(wire)
            else:
                refused, text = self.channel.open_text(wire)
            if refused:
                code = "frame_sequence" if refused in ("replayed", "sequence_gap") else "unauthenticated_frame"
                return self.violate(None, [("", code)], None, refused, out)
        elif sealed_object:
            text = json.dumps(wire, ensure_ascii=False, separators=(",", ":"))
        else:
            text = wire
        try:
            value = jsontext.parse(text.encode("utf-8"))
        except jsontext.ParseError:
            value = None
        # connect is judged as before negotiation whatever the connection's version: a second handshake
        # negotiates again (and a too-old announcement gets the engine's refusal, not a violation).
        handshake = self.state != "authenticated" or (isinstance(value, dict) and value.get("type") == "connect")
        version = HANDSHAKE_VERSION if handshake else show_version(self.version)
        errors, _, canonical = JUDGE.judge(text, "client_to_server", version)
        if errors:
            return self.reject(errors, value, out)
        self.on_message(value, json.loads(canonical), now, out)

    def reject(self, errors, value, out):
        if all(c in UNREADABLE for _, c in errors):
            return self.violate(None, errors, self.processing_error(errors), None, out)
        kind = value.get("type") if isinstance(value, dict) and isinstance(value.get("type"), str) else None
        handshake = kind in catalog_facts.CLIENT_BEFORE_AUTHENTICATION
        if not handshake and self.state != "authenticated":
            return self.refuse_before_authentication(kind, out)
        if handshake:  # a handshake that fails: refused like a wrong credential
            return self.violate(kind, errors, AUTH_ERROR, "auth_failed", out)
        answer = self.processing_error(errors)
        if kind == "subscribe":
            answer = self.subscribe_refusal(value) or answer
        self.violate(kind, errors, answer, None, out)

    def on_send(self, out, now, frame=None, text=None):
        """The application's message (`text`, or a `frame` object), typed as the engine's encoder
        writes it: the canonical form of the connection's version when it is valid there, else kept
        whole (a newer server's type)."""
        if text is None:
            text = jsontext.write(frame)
        frame = jsontext.parse(text.encode("utf-8"))
        version = show_version(self.version) if self.version else self.hello()["version"]
        errors, _, canonical = JUDGE.judge(text, "server_to_client", version)
        if not errors and canonical is not None:
            frame = json.loads(canonical)
        kind = frame.get("type")
        needs = GATED.get(kind) or next((cap for (k, member), cap in GATED_MEMBERS.items()
                                          if k == kind and frame.get(member) is not None), None)
        if needs is not None and needs not in self.caps:
            raise IllegalEvent(self.state, "send", "%s needs %s, not negotiated" % (kind, needs))
        if (kind in SESSION_DATA and family(self.version) != "uuid"
                and isinstance(frame.get("session_id"), str) and frame["session_id"] not in self.subscribed):
            raise IllegalEvent(self.state, "send", "session data for a session the client did not subscribe to")
        self.emit(frame, out)
        message_id = frame.get("message_id")
        if "message_ack" in self.caps and isinstance(message_id, str):
            for dropped in self.keep(message_id, self.replay_message(frame, now)):
                out.append(event("replay_evicted", message_id=dropped))

    def keep(self, message_id, message):
        """Keeps a frame for replay within both bounds (256 frames, the byte budget; a frame costs
        the UTF-8 bytes of its id, text and session_id); returns the ids dropped, oldest first: a
        frame over the whole budget is not kept and is reported itself."""
        self.unacked = [e for e in self.unacked if e[0] != message_id]  # a resend replaces, silently
        cost = sum(len(s.encode("utf-8")) for s in (message_id, message["text"], message.get("session_id", "")))
        if cost > self.replay_budget:
            return [message_id]
        self.unacked.append([message_id, message, cost])
        dropped = []
        while len(self.unacked) > REPLAY_CAPACITY or sum(e[2] for e in self.unacked) > self.replay_budget:
            dropped.append(self.unacked.pop(0)[0])
        return dropped

    def replay_message(self, frame, now):
        text = next((frame[k] for k in ("text", "message", "error") if isinstance(frame.get(k), str)), "")
        message = {"role": "assistant", "text": text}
        if isinstance(frame.get("session_id"), str):
            message["session_id"] = frame["session_id"]
        message["timestamp"] = rfc3339(now)
        return message

    def on_frame(self, out, now, frame):
        self.receive(frame, now, out, sealed_object=True)

    def on_message(self, frame, canonical, now, out):
        """A frame that passed validation (`canonical`: the typed message as the encoder writes it)."""
        kind = frame.get("type")
        if self.state != "authenticated" and kind not in catalog_facts.CLIENT_BEFORE_AUTHENTICATION:
            # Before authentication only what the catalog allows, ping and connect.
            return self.refuse_before_authentication(kind, out)
        if kind == "ping":
            return self.emit({"type": "pong"}, out)
        if kind == "connect":
            if self.channel is not None:  # the keys belong to the first handshake
                return self.refuse(out)
            return self.on_connect(frame, now, out)
        if kind == "subscribe":
            return self.on_subscribe(frame, out)
        if kind == "unsubscribe" and isinstance(frame.get("session_id"), str):
            self.subscribed.discard(frame["session_id"])
            return out.append(event("unsubscribe", session_id=frame["session_id"]))
        if kind == "message_ack" and "message_ack" in self.caps and isinstance(frame.get("message_id"), str):
            held = [e for e in self.unacked if e[0] == frame["message_id"]]
            if not held:
                return out.append(event("unknown_ack", message_id=frame["message_id"]))
            self.unacked.remove(held[0])
            return
        if kind == "disconnect" and "disconnect" in self.caps:
            reason = frame.get("reason")
            out.append(event("client_disconnecting", reason=reason if isinstance(reason, str) else ""))
            return self.finish("client_disconnect", out)
        key = frame.get("idempotency_key")
        if (kind == "prompt" and "idempotent_prompt" in self.caps and isinstance(key, str)
                and len(key.encode("utf-8")) <= MAX_KEY_BYTES):
            if key in self.keys:
                self.emit({"type": "ack", "message": "Processing prompt..."}, out)
                return out.append(event("duplicate_prompt", idempotency_key=key))
            self.keys.add(key)
        out.append(event("request", message=canonical))

    def refuse(self, out):
        self.emit({"type": "auth_error", "message": "Authentication failed"}, out)
        self.finish("auth_failed", out)

    def on_connect(self, connect, now, out):
        for name in ("protocol_versions", "capabilities"):
            listed = connect.get(name)
            if isinstance(listed, list) and sum(isinstance(e, str) for e in listed) > MAX_HANDSHAKE_LIST:
                return self.refuse(out)  # too long to look at: refused like a failed authentication
        announced = connect.get("protocol_version")
        response = connect.get("auth_response")
        auth_version = connect.get("auth_version", 2 if response is not None else 1)
        decision = self.decide(announced)
        if "refusal" in decision:  # too old: refused before any credential is looked at
            out.append(send_text(decision["refusal"]))
            return self.finish("unsupported_protocol_version", out)
        if response is not None:
            if not self.answer_holds(connect, response, now):
                return self.refuse(out)
            auth_version = 2
        else:
            key = connect.get("api_key")
            if 1 not in self.auth_versions or not isinstance(key, str) or not hmac.compare_digest(
                    key.encode("utf-8"), self.api_key.encode("utf-8")):
                return self.refuse(out)
            auth_version = 1
        wanted = connect.get("capabilities") if isinstance(connect.get("capabilities"), list) else []
        caps = sorted(c for c in set(self.offered) & set(wanted)
                      if c != "authenticated_frames" or auth_version == 2)
        self.version = parse_version(decision["negotiated_protocol_version"])
        self.caps = caps
        self.state = "authenticated"
        self.subscribed = set()
        if self.timers.pop("auth_deadline", None) is not None:
            out.append({"action": "cancel_timer", "timer": "auth_deadline"})
        session = connect.get("session_id") if isinstance(connect.get("session_id"), str) else None
        # `connected` goes to a client that negotiated anything, and on every 0.4.0+ connection (the
        # real server sends it from 0.4.0 on); a silent client on 0.2.0/0.3.0 gets none (STANDARDS.md#connection-flow).
        client_announced = any(k in connect for k in ("protocol_version", "protocol_versions", "capabilities"))
        if client_announced or auth_version == 2 or family(self.version) != "uuid":
            # session_id: the connect's, else null as the real server; only 0.2.0 (a string is
            # required there) falls back to the host's connection id.
            echoed = self.connection_id if session is None and self.version == (0, 2, 0) else session
            connected = {"type": "connected", "message": "Session registered", "session_id": echoed,
                         "negotiated_protocol_version": show_version(self.version)}
            if caps or auth_version == 2:  # vcproto's members only for a client that negotiated something
                connected.update(capabilities=caps, auth_version=auth_version)
            if auth_version == 2:
                members = {k: v for k, v in connected.items() if k != "type"}
                members.update(challenge=self.challenge, client_nonce=connect["client_nonce"], auth_response=response)
                connected["server_proof"] = auth_bound.mac(
                    self.api_key, auth_bound.build("vcproto/auth/v2/server", members, auth_bound.SERVER))
            out.append(send_text(connected))
            if "authenticated_frames" in caps:  # granted only with auth v2: every later frame is sealed
                self.channel = Channel(self.api_key, self.challenge, connect["client_nonce"], response, connected,
                                       "server")
        limit = connect.get("recent_sessions_limit")
        out.append(event("authenticated", version=show_version(self.version), capabilities=caps,
                         auth_version=auth_version, session_id=session,
                         recent_sessions_limit=catalog_facts.recent_sessions_limit(limit, is_int)))
        if "heartbeat" in caps:
            self.arm("heartbeat", later(now, self.heartbeat_every), out)
        if "message_ack" in caps:
            for message_id, message, _ in self.unacked:
                self.emit({"type": "replay", "message_id": message_id, "message": message}, out)

    def answer_holds(self, connect, response, now):
        """Auth v2: a fresh, unused challenge, a well-formed nonce, and the MAC over this connection's
        hello and the connect as received (STANDARDS.md#negotiation-and-auth), compared in constant time."""
        # Valid from the issue time (inclusive) to auth_within later (exclusive): an answer at a time
        # before the issue time (a clock that went backwards) is refused (STANDARDS.md#negotiation-and-auth).
        fresh = self.challenge is not None and not self.challenge_used and 0 <= now - self.challenge_at < self.auth_within
        self.challenge_used = True  # the first answer consumes it, right or wrong
        nonce = connect.get("client_nonce")
        if not fresh or not isinstance(nonce, str) or not re.fullmatch(r"[0-9a-f]*", nonce) \
                or not catalog_facts.nonce_length_accepted(nonce):
            return False
        if connect.get("auth_version") not in (None, 2) or not isinstance(response, str) or not readable(connect):
            return False
        members = auth_bound.client_members(self.challenge, nonce, connect, self.hello())
        expected = auth_bound.mac(self.api_key, auth_bound.build("vcproto/auth/v2/client", members, auth_bound.CLIENT))
        return hmac.compare_digest(expected.encode(), response.encode())

    def subscribe_refusal(self, frame):
        """The real server's refusal of a subscribe that failed validation (STANDARDS.md#errors), in
        its order: no string session_id, one too long, then the version's cursor members; None when
        none applies (the violation is elsewhere)."""
        session = frame.get("session_id")
        if not isinstance(session, str):
            return {"type": "error", "message": "session_id required in subscribe message"}
        if len(session.encode("utf-8", "surrogatepass")) > self.max_session_id_bytes:
            return {"type": "error", "message": f"session_id is longer than {self.max_session_id_bytes} bytes"}

        def count_ok(name):  # absent, null or an integer >= 0
            value = frame.get(name)
            return value is None or (is_int(value) and value >= 0)

        def refusal(message, code):
            return {"type": "error", "message": message, "code": code}
        fam = family(self.version)
        if fam == "seq":
            if frame.get("last_message_id") is not None:
                return refusal("last_message_id is not supported in protocol v0.4.0; use last_seq instead",
                               "unsupported_subscribe_field")
            if not count_ok("last_seq"):
                return refusal("last_seq must be a non-negative integer", "invalid_subscribe")
        elif fam == "offset":
            if not count_ok("from_offset"):
                return refusal("from_offset must be a non-negative integer", "invalid_subscribe")
            seen = frame.get("file_signature_seen")
            if seen is not None and not isinstance(seen, str):
                return refusal("file_signature_seen must be a string when provided", "invalid_subscribe")
        return None

    def on_subscribe(self, frame, out):
        """A subscribe that passed validation: refused when its id is too long or the connection holds
        too many subscriptions, else remembered with its cursor."""
        session = frame["session_id"]
        if len(session.encode("utf-8", "surrogatepass")) > self.max_session_id_bytes:
            return self.emit({"type": "error", "message": f"session_id is longer than {self.max_session_id_bytes} bytes"},
                             out)
        fam = family(self.version)
        if fam == "uuid":
            last = frame.get("last_message_id")
            cursor = {"last_message_id": last} if isinstance(last, str) else None
        elif fam == "seq":
            cursor = {"last_seq": frame.get("last_seq") or 0}
        else:
            seen = frame.get("file_signature_seen")
            cursor = {"offset": frame.get("from_offset") or 0, "signature": seen}
        if session not in self.subscribed and len(self.subscribed) >= self.max_subscriptions:
            return self.emit({"type": "error", "message": "Too many subscriptions on this connection"}, out)
        self.subscribed.add(session)
        out.append(event("subscribe", session_id=session, cursor=cursor))

"""Authenticated frames inside the conversation engines (STANDARDS.md#authenticated-frames, capability
`authenticated_frames`): after a verified auth v2 handshake that granted the capability, every frame
an engine sends after `connected` is sealed and every frame it receives is opened first; any failure
closes the connection with the check's code (`not_authenticated`, `malformed`, `mac_mismatch`,
`replayed`, `sequence_gap`).

The keys are HKDF-SHA256 over the handshake (this peer's own copy of the layout, `auth_bound`), the
inner frame is written with vcproto's compact encoding (`jsontext.write`), Python's hmac makes the MACs.
"""
import hashlib
import hmac
import json
import re

from . import auth_bound, jsontext
from .frames import _no_duplicates, _reject, frame_input
from .hkdf import hkdf
from .session_common import is_int

MAX_SEQ = 2 ** 53 - 1
MEMBERS = {"type", "seq", "mac", "frame"}


class Channel:
    """One connection's authenticated frames, for `role` ("client" or "server")."""

    def __init__(self, api_key, challenge, nonce, response, connected, role):
        salt = auth_bound.build("vcproto/auth/v2/frames/salt", {"challenge": challenge, "client_nonce": nonce},
                                auth_bound.SALT)

        def key(direction):
            info = auth_bound.build("vcproto/auth/v2/frames/key",
                                    dict(connected, direction=direction, auth_response=response), auth_bound.INFO)
            return hkdf(api_key.encode("utf-8"), salt, info, 32)[1]

        to_server, to_client = key("client_to_server"), key("server_to_client")
        self.send_key, self.receive_key = (to_server, to_client) if role == "client" else (to_client, to_server)
        self.sent = 0
        self.next = 0

    def seal(self, frame):
        """The authenticated frame carrying `frame`, or None once every sequence number is used."""
        if self.sent > MAX_SEQ:
            return None
        text = jsontext.write(frame)
        tag = hmac.new(self.send_key, frame_input(self.sent, text), hashlib.sha256).hexdigest()
        sealed = {"type": "authenticated", "seq": self.sent, "mac": tag, "frame": text}
        self.sent += 1
        return sealed

    def open(self, wire):
        """(error code, None) for a refused frame, else (None, the inner frame, or None when the
        genuine frame holds no JSON object)."""
        refused, text = self.open_text(wire)
        if refused:
            return refused, None
        try:
            inner = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_reject)
        except ValueError:
            return None, None
        return None, inner if isinstance(inner, dict) else None

    def open_text(self, wire):
        """(error code, None) for a refused frame, else (None, the inner frame's text)."""
        if not isinstance(wire, dict) or wire.get("type") != "authenticated":
            return "not_authenticated", None
        seq, tag, text = wire.get("seq"), wire.get("mac"), wire.get("frame")
        if (set(wire) != MEMBERS or not is_int(seq) or not str(getattr(seq, "text", seq)).isdigit()
                or not 0 <= seq <= MAX_SEQ or not isinstance(tag, str) or not re.fullmatch(r"[0-9a-f]{64}", tag)
                or not isinstance(text, str)):
            return "malformed", None
        want = hmac.new(self.receive_key, frame_input(seq, text), hashlib.sha256).hexdigest()
        if not hmac.compare_digest(want.encode(), tag.encode()):
            return "mac_mismatch", None
        if seq < self.next:
            return "replayed", None
        if seq != self.next:
            return "sequence_gap", None
        self.next += 1
        return None, text


def outgoing(engine, frame):
    """`frame` as `engine` puts it on the wire: sealed by its channel when authenticated frames are in
    force, else as it is; None once the channel used its last sequence number (`engine.exhausted` is
    then set and nothing more is sent). The Swift engines' AuthenticatedChannel.outgoing."""
    if engine.channel is None:
        return frame
    sealed = None if engine.exhausted else engine.channel.seal(frame)
    if sealed is None:
        engine.exhausted = True
    return sealed

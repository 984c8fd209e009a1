"""Authenticated frames (STANDARDS.md#authenticated-frames): the sender's sealed bytes and the receiver's
verdict on each message that reaches one end, with this file's own copy of the frame MAC layout and
Python's hmac. Any error closes the channel; later messages get `channel_closed`.
"""
import hashlib
import hmac
import json
import re

from . import auth_bound


def frame_input(seq, frame):
    return auth_bound.build("vcproto/auth/v2/frame", {"seq": seq, "frame": frame}, ["seq:i", "frame:s"])


def _no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("duplicate key")
    return dict(pairs)


def _reject(_):
    raise ValueError("not JSON")


def receive(state, key, wire):
    """("accept", frame) or (error code, None)."""
    if state["closed"]:
        return "channel_closed", None
    try:
        obj = json.loads(wire, object_pairs_hook=_no_duplicates, parse_constant=_reject)
    except ValueError:
        state["closed"] = True
        return "malformed", None
    if not isinstance(obj, dict) or obj.get("type") != "authenticated":
        state["closed"] = True
        return "not_authenticated", None
    seq, tag, frame = obj.get("seq"), obj.get("mac"), obj.get("frame")
    wire_seq = re.search(r'"seq"\s*:\s*(-?[0-9.eE+-]+)', wire)
    if set(obj) != {"type", "seq", "mac", "frame"} or not isinstance(seq, int) or isinstance(seq, bool) \
            or not wire_seq or not wire_seq.group(1).isdigit() or not 0 <= seq < 2 ** 53 \
            or not isinstance(tag, str) or not re.fullmatch(r"[0-9a-f]{64}", tag) or not isinstance(frame, str):
        state["closed"] = True
        return "malformed", None
    want = hmac.new(bytes.fromhex(key), frame_input(seq, frame), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(want, tag):
        state["closed"] = True
        return "mac_mismatch", None
    if seq != state["next"]:
        state["closed"] = True
        return ("replayed" if seq < state["next"] else "sequence_gap"), None
    state["next"] += 1
    return "accept", frame


def answer(request):
    """`{receiver, frame_key_*_hex, messages: [{wire, sealed?, frame?}]}` -> `{messages: [...]}`, each
    `{verdict, frame?}` plus, for a message to seal, the sender's `wire` and `mac_input_hex`."""
    direction = "client_to_server" if request["receiver"] == "server" else "server_to_client"
    key = request["frame_key_%s_hex" % direction]
    state = {"next": 0, "closed": False}
    sent = 0
    out = []
    for m in request["messages"]:
        entry = {}
        if m.get("sealed"):
            data = frame_input(sent, m["frame"])
            tag = hmac.new(bytes.fromhex(key), data, hashlib.sha256).hexdigest()
            entry["mac_input_hex"] = data.hex()
            entry["wire"] = '{"type":"authenticated","seq":%d,"mac":"%s","frame":%s}' % (
                sent, tag, json.dumps(m["frame"], ensure_ascii=False))
            sent += 1
        verdict, frame = receive(state, key, m["wire"])
        entry["verdict"] = verdict
        if frame is not None:
            entry["frame"] = frame
        out.append(entry)
    return {"messages": out}

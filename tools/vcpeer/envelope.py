"""Compression envelopes (STANDARDS.md#compression) opened with Python's zlib, independently of
vcproto: the binary header checks in order, the text form's receiver rule, the size, ratio and
length limits, and strict base64."""
import base64
import binascii
import json
import re
import struct
import zlib

MAX_INFLATED = 16 * 1024 * 1024
MAX_COMPRESSED = 16 * 1024 * 1024
RATIO = 1000
MAX_GZIP_HEADER = 1024
WBITS = {1: 15, 2: 31}
NAMES = {"zlib": 1, "gzip": 2}
STRICT_B64 = re.compile(r"\A(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?\Z")


class EnvelopeError(Exception):
    def __init__(self, code):
        super().__init__(code)
        self.code = "envelope_" + code


def gzip_header_length(payload):
    """The length of a gzip member header (RFC 1952 section 2.3), or None when the payload is not
    a gzip member or ends inside its header (zlib then reports it)."""
    if len(payload) < 10 or payload[:2] != b"\x1f\x8b":
        return None
    flags = payload[3]
    at = 10
    if flags & 0x04:  # FEXTRA: 2-byte little-endian length, then the bytes
        if at + 2 > len(payload):
            return None
        at += 2 + struct.unpack("<H", payload[at:at + 2])[0]
    for bit in (0x08, 0x10):  # FNAME, FCOMMENT: zero-terminated
        if flags & bit:
            end = payload.find(b"\x00", at)
            if end < 0:
                return max(at, len(payload)) if len(payload) > MAX_GZIP_HEADER else None
            at = end + 1
    if flags & 0x02:  # FHCRC
        at += 2
    return at


def inflate(payload, encoding_id, declared):
    if declared > MAX_INFLATED or len(payload) > MAX_COMPRESSED:
        raise EnvelopeError("too_large")
    if encoding_id == 2:
        header = gzip_header_length(payload)
        if header is not None and header > MAX_GZIP_HEADER:
            raise EnvelopeError("gzip_header_too_large")
    ratio_budget = RATIO * len(payload)
    stop_at = min(declared, ratio_budget)
    d = zlib.decompressobj(WBITS[encoding_id])
    try:
        out = d.decompress(payload, stop_at + 1)
    except zlib.error:
        raise EnvelopeError("corrupt")
    if len(out) > ratio_budget:
        raise EnvelopeError("ratio_exceeded")
    if len(out) > declared:
        raise EnvelopeError("inflate_limit")
    if not d.eof:
        raise EnvelopeError("truncated")
    if d.unused_data:
        raise EnvelopeError("trailing_data")
    if len(out) != declared:
        raise EnvelopeError("length_mismatch")
    return out


def open_binary(frame):
    expected_prefix = [(0, 0x56, "bad_magic"), (1, 0x43, "bad_magic"),
                       (2, 0x01, "unsupported_version"), (3, 0x00, "reserved_flags")]
    for index, value, code in expected_prefix:
        if len(frame) > index and frame[index] != value:
            raise EnvelopeError(code)
    if len(frame) > 4 and frame[4] not in WBITS:
        raise EnvelopeError("unknown_encoding")
    if len(frame) < 9:
        raise EnvelopeError("truncated_header")
    (declared,) = struct.unpack(">I", frame[5:9])
    return inflate(frame[9:], frame[4], declared)


def strict_object(pairs):
    keys = [key for key, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("duplicate key")  # never resolved last-wins (STANDARDS.md#encoding)
    return dict(pairs)


def reject_constant(name):
    raise ValueError("not JSON: %s" % name)  # NaN, Infinity


def open_text(frame):
    """The receiver rule of STANDARDS.md#compression: parse as strict JSON, any member order and
    whitespace, other members ignored; fields checked type, encoding, length, data."""
    if len(frame) > (MAX_COMPRESSED // 3 + 1) * 4 + 64 * 1024:
        raise EnvelopeError("too_large")
    try:
        obj = json.loads(frame.decode("utf-8"), object_pairs_hook=strict_object,
                         parse_constant=reject_constant)
    except ValueError:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise EnvelopeError("malformed")
    if not isinstance(obj, dict) or obj.get("type") != "compressed":
        raise EnvelopeError("malformed")
    encoding, length, data = obj.get("encoding"), obj.get("length"), obj.get("data")
    if not isinstance(encoding, str):
        raise EnvelopeError("malformed")
    if encoding not in NAMES:
        raise EnvelopeError("unknown_encoding")
    if isinstance(length, bool) or not isinstance(length, int):
        raise EnvelopeError("malformed")
    if not 0 <= length <= 0xFFFFFFFF:
        raise EnvelopeError("malformed")
    if not isinstance(data, str):
        raise EnvelopeError("malformed")
    if length > MAX_INFLATED:
        raise EnvelopeError("too_large")
    if not STRICT_B64.match(data):
        raise EnvelopeError("invalid_base64")
    try:
        payload = base64.b64decode(data, validate=True)
    except binascii.Error:
        raise EnvelopeError("invalid_base64")
    if base64.b64encode(payload).decode("ascii") != data:  # non-zero padding bits
        raise EnvelopeError("invalid_base64")
    return inflate(payload, NAMES[encoding], length)


CODES = {"envelope_" + c for c in (
    "bad_magic unsupported_version reserved_flags unknown_encoding truncated_header "
    "too_large inflate_limit ratio_exceeded length_mismatch truncated corrupt "
    "trailing_data invalid_base64 malformed").split()}


def answer(request):
    """`{form, envelope_base64}` -> `{opened_base64}` or `{error}` (an envelope code)."""
    frame = base64.b64decode(request["envelope_base64"], validate=True)
    opener = open_binary if request["form"] == "binary" else open_text
    try:
        return {"opened_base64": base64.b64encode(opener(frame)).decode("ascii")}
    except EnvelopeError as error:
        return {"error": error.code}

#!/usr/bin/env python3
"""Generate the compression-envelope test vectors in Vectors/envelope/.

The compressed streams are produced with Python's zlib module, independently of the
Swift implementation. Output is deterministic: running the script twice gives identical
files.

    python3 tools/make_envelope_vectors.py
"""
import base64
import json
import os
import struct
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Vectors", "envelope")

MAX_INFLATED = 16 * 1024 * 1024
RATIO = 1000


def compact(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def compress(data, encoding="zlib", level=6):
    wbits = 15 if encoding == "zlib" else 31
    c = zlib.compressobj(level, zlib.DEFLATED, wbits, 8, zlib.Z_DEFAULT_STRATEGY)
    return c.compress(data) + c.flush()


def binary(payload, declared, encoding_id=1, magic=b"VC", version=1, flags=0):
    return magic + bytes([version, flags, encoding_id]) + struct.pack(">I", declared) + payload


def text_frame(encoding, length, data):
    # Field order and formatting exactly as the spec mandates for senders.
    return ('{"type":"compressed","encoding":%s,"length":%s,"data":%s}' % (
        json.dumps(encoding), json.dumps(length), json.dumps(data))).encode("ascii")


def b64(data):
    return base64.b64encode(data).decode("ascii")


# --- realistic inner frames -------------------------------------------------

PING = compact({"type": "ping"})

SESSION_ID = "4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11"
CWD = "/Users/dev/voice-code"


def record_id(i):
    return "%08x-1c2d-4e5f-8a9b-%012x" % (0x5eed0000 + i, 0xc0ffee000000 + i * 7919)


def record(i, text, parent, timestamp):
    """A raw Claude Code record as session_history carries it (STANDARDS.md: ClaudeRecord)."""
    role = "assistant" if i % 2 else "user"
    message = {"role": role, "content": text}
    if role == "assistant":
        message = {"role": role, "model": "claude-sonnet",
                   "content": [{"type": "text", "text": text}]}
    return {
        "type": role, "uuid": record_id(i), "parentUuid": parent, "timestamp": timestamp,
        "sessionId": SESSION_ID, "cwd": CWD, "isSidechain": False, "message": message,
    }


def history_frame(records):
    return compact({
        "type": "session_history",
        "session_id": SESSION_ID,
        "messages": records,
        "total_count": len(records),
        "oldest_message_id": records[0]["uuid"] if records else None,
        "newest_message_id": records[-1]["uuid"] if records else None,
        "is_complete": True,
    })


HISTORY_SMALL = history_frame([
    record(0, "Run the unit tests for the parser and tell me what fails.", None,
           "2025-03-14T09:26:53.589Z"),
    record(1, "All 214 parser tests pass. Two warnings about deprecated APIs remain in "
              "Sources/Parser/Lexer.swift lines 88 and 131.", record_id(0),
           "2025-03-14T09:27:10.002Z"),
])


def history(count, unicode=False):
    records = []
    for i in range(count):
        text = ("Step %d: edited Sources/App/Session%02d.swift, replaced the retry loop with "
                "exponential backoff (base 250 ms, cap 8 s) and added a test case." % (i, i % 17))
        if unicode and i % 3 == 0:
            text += " Résumé: naïve café — ✓ 完了 🚀"
        timestamp = "2025-03-14T10:%02d:%02d.%03dZ" % (i // 60 % 60, i % 60, (i * 37) % 1000)
        records.append(record(i, text, record_id(i - 1) if i else None, timestamp))
    return history_frame(records)


HISTORY_MEDIUM = history(24)
HISTORY_UNICODE = history(9, unicode=True)


# --- vector builders --------------------------------------------------------

def valid(vid, description, form, inner, encoding="zlib", level=6):
    payload = compress(inner, encoding, level)
    if form == "binary":
        frame = binary(payload, len(inner), 1 if encoding == "zlib" else 2)
    else:
        frame = text_frame(encoding, len(inner), b64(payload))
    return {
        "id": vid, "description": description, "form": form,
        "json": inner.decode("utf-8"), "envelope_base64": b64(frame), "valid": True,
    }


def invalid(vid, description, form, frame, error):
    return {
        "id": vid, "description": description, "form": form,
        "envelope_base64": b64(frame), "valid": False, "error": error,
    }


def flip_middle_corrupt(inner, encoding):
    """A stream with one byte flipped near its middle that zlib rejects as invalid
    DEFLATE data well before producing the declared length (searched deterministically;
    checksum-only failures are skipped so no length check can fire first)."""
    payload = bytearray(compress(inner, encoding))
    start = len(payload) // 2
    for delta in range(len(payload) // 2):
        for pos in (start + delta, start - delta):
            candidate = bytearray(payload)
            candidate[pos] ^= 0x5A
            d = zlib.decompressobj(15 if encoding == "zlib" else 31)
            produced = 0
            try:
                for i in range(len(candidate)):
                    produced += len(d.decompress(bytes(candidate[i:i + 1])))
            except zlib.error as error:
                if "invalid" in str(error) and produced < len(inner) // 2:
                    return bytes(candidate), pos
    raise SystemExit("no corrupting flip found")


def reordered_text_frame(inner, spacing=False, extra=False, escaped=False):
    """A text envelope as a lenient sender might write it: receivers must accept it."""
    payload = b64(compress(inner))
    members = [("data", payload), ("length", len(inner)), ("encoding", "zlib"),
               ("type", "compressed")]
    if extra:
        members.insert(2, ("note", "ignored by receivers"))
        members.append(("meta", {"sender": "test", "chunks": [1, 2], "flag": None}))
    if spacing:
        text = json.dumps(dict(members), indent=2, ensure_ascii=False) + "\n"
    else:
        text = json.dumps(dict(members), separators=(",", ":"), ensure_ascii=False)
    if escaped:
        # Same values, spelled with JSON escapes: "\u0065" for "e", "\/" for "/".
        text = text.replace('"compressed"', '"compr\\u0065ssed"', 1).replace("/", "\\/")
    return text.encode("utf-8")


def gzip_with_header(inner, extra=None, name=None, comment=None):
    """A gzip member for `inner` whose header carries the optional FEXTRA, FNAME and FCOMMENT
    fields (RFC 1952 section 2.3), spliced after the 10 fixed bytes; the CRC-32 covers the data
    only, so the stream stays valid. vcproto bounds the whole header (maxGzipHeaderSize, 1024)."""
    plain = compress(inner, "gzip")
    assert plain[:2] == b"\x1f\x8b" and plain[3] == 0
    flags = 0
    fields = b""
    if extra is not None:
        flags |= 0x04
        fields += struct.pack("<H", len(extra)) + extra
    if name is not None:
        flags |= 0x08
        fields += name + b"\x00"
    if comment is not None:
        flags |= 0x10
        fields += comment + b"\x00"
    return plain[:3] + bytes([flags]) + plain[4:10] + fields + plain[10:]


def valid_raw(vid, description, inner, frame):
    return {
        "id": vid, "description": description, "form": "text",
        "json": inner.decode("utf-8"), "envelope_base64": b64(frame), "valid": True,
    }


def build_valid():
    header_1024 = gzip_with_header(HISTORY_SMALL, name=b"n" * 507, comment=b"c" * 505)
    assert header_1024.index(b"c" * 505) + 505 + 1 == 1024
    return [
        {
            "id": "valid-binary-gzip-header-1024",
            "description": "gzip header of exactly 1,024 bytes (file name and comment): at the limit",
            "form": "binary", "json": HISTORY_SMALL.decode("utf-8"),
            "envelope_base64": b64(binary(header_1024, len(HISTORY_SMALL), 2)), "valid": True,
        },
        valid("valid-binary-zlib-history", "binary form, zlib, short session_history", "binary",
              HISTORY_SMALL),
        valid("valid-binary-gzip-history", "binary form, gzip, short session_history", "binary",
              HISTORY_SMALL, "gzip"),
        valid("valid-text-zlib-history", "text form, zlib, short session_history", "text",
              HISTORY_SMALL),
        valid("valid-text-gzip-history", "text form, gzip, short session_history", "text",
              HISTORY_SMALL, "gzip"),
        valid("valid-binary-zlib-ping", "binary form, zlib, a ping below the send threshold "
              "(receivers accept it anyway)", "binary", PING),
        valid("valid-text-zlib-ping", "text form, zlib, a ping below the send threshold",
              "text", PING),
        valid("valid-binary-zlib-medium-l9", "binary form, zlib level 9, 24-message history",
              "binary", HISTORY_MEDIUM, "zlib", 9),
        valid("valid-binary-zlib-medium-l1", "binary form, zlib level 1, 24-message history",
              "binary", HISTORY_MEDIUM, "zlib", 1),
        valid("valid-binary-zlib-stored", "binary form, zlib level 0 (stored blocks)",
              "binary", HISTORY_SMALL, "zlib", 0),
        valid("valid-text-gzip-medium", "text form, gzip, 24-message history", "text",
              HISTORY_MEDIUM, "gzip"),
        valid("valid-text-zlib-unicode", "text form, zlib, history with non-ASCII UTF-8",
              "text", HISTORY_UNICODE),
        valid("valid-binary-gzip-unicode", "binary form, gzip, history with non-ASCII UTF-8",
              "binary", HISTORY_UNICODE, "gzip"),
        valid_raw("valid-text-reordered", "text form with the members in reverse order "
                  "(receivers accept any order)", HISTORY_SMALL,
                  reordered_text_frame(HISTORY_SMALL)),
        valid_raw("valid-text-whitespace", "text form pretty-printed with spaces and line breaks",
                  HISTORY_SMALL, reordered_text_frame(HISTORY_SMALL, spacing=True)),
        valid_raw("valid-text-extra-members", "text form with extra members (a string and an "
                  "object), which receivers ignore", HISTORY_SMALL,
                  reordered_text_frame(HISTORY_SMALL, extra=True)),
        valid_raw("valid-text-escapes", "text form whose strings use JSON escapes (\\u0065, \\/)",
                  HISTORY_SMALL, reordered_text_frame(HISTORY_SMALL, escaped=True)),
    ]


def build_invalid_binary():
    inner = HISTORY_SMALL
    n = len(inner)
    z = compress(inner)
    g = compress(inner, "gzip")
    good = binary(z, n)
    flipped, _ = flip_middle_corrupt(inner, "zlib")
    bomb_inner = bytes(8 * 1024 * 1024)
    bomb = compress(bomb_inner, "zlib", 9)
    assert len(bomb_inner) > RATIO * len(bomb), "ratio vector does not exceed the ratio"
    vectors = [
        invalid("bin-bad-magic", "magic is 'XC'", "binary", b"XC" + good[2:], "envelope_bad_magic"),
        invalid("bin-bad-magic-json", "a plain JSON frame sent as a binary envelope", "binary",
                PING, "envelope_bad_magic"),
        invalid("bin-bad-magic-second-byte", "magic is 'Vc'", "binary", b"Vc" + good[2:],
                "envelope_bad_magic"),
        invalid("bin-bad-magic-short", "single byte that is not 'V'", "binary", b"{",
                "envelope_bad_magic"),
        invalid("bin-version-2", "format version 2", "binary", binary(z, n, version=2),
                "envelope_unsupported_version"),
        invalid("bin-version-0", "format version 0", "binary", binary(z, n, version=0),
                "envelope_unsupported_version"),
        invalid("bin-flags-1", "reserved flags 0x01", "binary", binary(z, n, flags=1),
                "envelope_reserved_flags"),
        invalid("bin-flags-80", "reserved flags 0x80", "binary", binary(z, n, flags=0x80),
                "envelope_reserved_flags"),
        invalid("bin-encoding-0", "encoding id 0", "binary", binary(z, n, encoding_id=0),
                "envelope_unknown_encoding"),
        invalid("bin-encoding-3", "encoding id 3", "binary", binary(z, n, encoding_id=3),
                "envelope_unknown_encoding"),
        invalid("bin-encoding-ff", "encoding id 255", "binary", binary(z, n, encoding_id=255),
                "envelope_unknown_encoding"),
        invalid("bin-header-empty", "empty message", "binary", b"", "envelope_truncated_header"),
        invalid("bin-header-1", "just 'V'", "binary", b"V", "envelope_truncated_header"),
        invalid("bin-header-5", "magic, version, flags, encoding; no length", "binary",
                good[:5], "envelope_truncated_header"),
        invalid("bin-header-8", "header one byte short", "binary", good[:8],
                "envelope_truncated_header"),
        invalid("bin-too-large", "declared length 16 MiB + 1", "binary",
                binary(z, MAX_INFLATED + 1), "envelope_too_large"),
        invalid("bin-too-large-max", "declared length 0xFFFFFFFF", "binary",
                binary(z, 0xFFFFFFFF), "envelope_too_large"),
        invalid("bin-inflate-limit", "declared length one byte short of the real length",
                "binary", binary(z, n - 1), "envelope_inflate_limit"),
        invalid("bin-inflate-limit-zero", "declared length 0, stream not empty", "binary",
                binary(z, 0), "envelope_inflate_limit"),
        invalid("bin-inflate-limit-gzip", "gzip, declared length half the real length",
                "binary", binary(g, n // 2, 2), "envelope_inflate_limit"),
        invalid("bin-ratio", "8 MiB of zeros in %d bytes (ratio %.0f > 1000)" % (
                len(bomb), len(bomb_inner) / len(bomb)), "binary",
                binary(bomb, len(bomb_inner)), "envelope_ratio_exceeded"),
        invalid("bin-length-short", "stream ends one byte before the declared length",
                "binary", binary(z, n + 1), "envelope_length_mismatch"),
        invalid("bin-length-short-gzip", "gzip, declared length 1000 bytes too long", "binary",
                binary(g, n + 1000, 2), "envelope_length_mismatch"),
        invalid("bin-truncated-trailer", "zlib stream missing its Adler-32 trailer", "binary",
                binary(z[:-4], n), "envelope_truncated"),
        invalid("bin-truncated-middle", "zlib stream cut in half", "binary",
                binary(z[: len(z) // 2], n), "envelope_truncated"),
        invalid("bin-truncated-empty", "header only, no stream", "binary", binary(b"", n),
                "envelope_truncated"),
        invalid("bin-truncated-gzip", "gzip member missing its last trailer byte", "binary",
                binary(g[:-1], n, 2), "envelope_truncated"),
        invalid("bin-corrupt-adler", "last Adler-32 byte flipped", "binary",
                binary(z[:-1] + bytes([z[-1] ^ 0xFF]), n), "envelope_corrupt"),
        invalid("bin-corrupt-middle", "one byte in the middle of the stream flipped", "binary",
                binary(flipped, n), "envelope_corrupt"),
        invalid("bin-corrupt-zlib-header", "zlib header check bits wrong", "binary",
                binary(bytes([0x78, 0x9D]) + z[2:], n), "envelope_corrupt"),
        invalid("bin-corrupt-gzip-crc", "gzip CRC-32 flipped", "binary",
                binary(g[:-8] + bytes([g[-8] ^ 1]) + g[-7:], n, 2), "envelope_corrupt"),
        invalid("bin-corrupt-gzip-isize", "gzip ISIZE wrong", "binary",
                binary(g[:-4] + struct.pack("<I", n + 1), n, 2), "envelope_corrupt"),
        invalid("bin-corrupt-zlib-as-gzip", "zlib stream labelled gzip", "binary",
                binary(z, n, 2), "envelope_corrupt"),
        invalid("bin-gzip-header-file-name", "gzip header with a 2,000-byte file name (FNAME)",
                "binary", binary(gzip_with_header(inner, name=b"a" * 2000), n, 2),
                "envelope_gzip_header_too_large"),
        invalid("bin-gzip-header-extra", "gzip header with 65,535 bytes of FEXTRA", "binary",
                binary(gzip_with_header(inner, extra=b"x" * 65535), n, 2),
                "envelope_gzip_header_too_large"),
        invalid("bin-gzip-header-1025", "gzip header of 1,025 bytes: name 507 and comment 506, "
                "each with its zero", "binary",
                binary(gzip_with_header(inner, name=b"n" * 507, comment=b"c" * 506), n, 2),
                "envelope_gzip_header_too_large"),
        invalid("bin-trailing-byte", "one garbage byte after the zlib stream", "binary",
                binary(z + b"\x00", n), "envelope_trailing_data"),
        invalid("bin-trailing-stream", "a second complete zlib stream appended", "binary",
                binary(z + z, n), "envelope_trailing_data"),
        invalid("bin-trailing-gzip-member", "a second gzip member appended", "binary",
                binary(g + g, n, 2), "envelope_trailing_data"),
    ]
    return vectors


def build_invalid_text():
    inner = HISTORY_SMALL
    n = len(inner)
    z = compress(inner)
    data = b64(z)
    one_pad = None
    two_pad = None
    # Deterministic streams whose base64 needs one and two padding characters.
    for extra in range(64):
        payload = compress(inner + b" " * extra)
        if len(payload) % 3 == 2:
            one_pad = (payload, n + extra)
        elif len(payload) % 3 == 1:
            two_pad = (payload, n + extra)
    assert one_pad and two_pad
    one_b64 = b64(one_pad[0])
    two_b64 = b64(two_pad[0])
    assert one_b64.endswith("=") and not one_b64.endswith("==") and two_b64.endswith("==")
    # Same bytes, but with non-zero padding bits (lenient decoders accept these).
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    last = one_b64[-2]
    nonzero_bits_one = one_b64[:-2] + alphabet[alphabet.index(last) | 1] + "="
    last2 = two_b64[-3]
    nonzero_bits_two = two_b64[:-3] + alphabet[alphabet.index(last2) | 1] + "=="

    def raw(text):
        return text.encode("utf-8")

    t = text_frame
    return [
        invalid("text-encoding-deflate", "encoding \"deflate\"", "text", t("deflate", n, data),
                "envelope_unknown_encoding"),
        invalid("text-encoding-upper", "encoding \"ZLIB\" (names are case-sensitive)", "text",
                t("ZLIB", n, data), "envelope_unknown_encoding"),
        invalid("text-missing-data", "no data field", "text",
                raw('{"type":"compressed","encoding":"zlib","length":%d}' % n),
                "envelope_malformed"),
        invalid("text-missing-length", "no length field", "text",
                raw('{"type":"compressed","encoding":"zlib","data":"%s"}' % data),
                "envelope_malformed"),
        invalid("text-missing-encoding", "no encoding field", "text",
                raw('{"type":"compressed","length":%d,"data":"%s"}' % (n, data)),
                "envelope_malformed"),
        invalid("text-length-string", "length is a string", "text", t("zlib", str(n), data),
                "envelope_malformed"),
        invalid("text-length-fraction", "length is not an integer", "text",
                raw('{"type":"compressed","encoding":"zlib","length":%d.5,"data":"%s"}' % (n, data)),
                "envelope_malformed"),
        invalid("text-length-negative", "length is -1", "text", t("zlib", -1, data),
                "envelope_malformed"),
        invalid("text-length-over-u32", "length is 2^32", "text", t("zlib", 2 ** 32, data),
                "envelope_malformed"),
        invalid("text-data-number", "data is a number", "text",
                raw('{"type":"compressed","encoding":"zlib","length":%d,"data":12}' % n),
                "envelope_malformed"),
        invalid("text-encoding-null", "encoding is null", "text", t(None, n, data),
                "envelope_malformed"),
        invalid("text-length-exponent", "length written with an exponent (1e3)", "text",
                raw('{"type":"compressed","encoding":"zlib","length":1e3,"data":"%s"}' % data),
                "envelope_malformed"),
        invalid("text-length-bool", "length is true", "text", t("zlib", True, data),
                "envelope_malformed"),
        invalid("text-duplicate-data", "data given twice (duplicate keys are never resolved)",
                "text", raw('{"type":"compressed","encoding":"zlib","length":%d,"data":"%s",'
                            '"data":"%s"}' % (n, data, data)), "envelope_malformed"),
        invalid("text-not-json", "the frame is cut short (not JSON)", "text",
                t("zlib", n, data)[:-1], "envelope_malformed"),
        invalid("text-not-object", "the frame is a JSON array", "text",
                raw('["compressed","zlib",%d,"%s"]' % (n, data)), "envelope_malformed"),
        invalid("text-type-other", "type is not \"compressed\"", "text",
                raw('{"type":"Compressed","encoding":"zlib","length":%d,"data":"%s"}' % (n, data)),
                "envelope_malformed"),
        invalid("text-too-large", "length 16 MiB + 1", "text", t("zlib", MAX_INFLATED + 1, data),
                "envelope_too_large"),
        invalid("text-b64-space", "a space inside data", "text",
                t("zlib", n, data[:8] + " " + data[8:]), "envelope_invalid_base64"),
        invalid("text-b64-newline", "a line break inside data (escaped \\n in JSON)", "text",
                t("zlib", n, data[:8] + "\n" + data[8:]), "envelope_invalid_base64"),
        invalid("text-b64-trailing-newline", "data ends with a line break", "text",
                t("zlib", n, data + "\n"), "envelope_invalid_base64"),
        invalid("text-b64-no-padding", "padding removed", "text",
                t("zlib", one_pad[1], one_b64.rstrip("=")), "envelope_invalid_base64"),
        invalid("text-b64-no-padding-2", "double padding removed", "text",
                t("zlib", two_pad[1], two_b64.rstrip("=")), "envelope_invalid_base64"),
        invalid("text-b64-extra-padding", "an extra '=' appended", "text",
                t("zlib", one_pad[1], one_b64 + "="), "envelope_invalid_base64"),
        invalid("text-b64-padding-middle", "'=' inside the data", "text",
                t("zlib", n, data[:4] + "=" + data[5:]), "envelope_invalid_base64"),
        invalid("text-b64-urlsafe", "URL-safe alphabet ('-' and '_')", "text",
                t("zlib", n, data.replace("+", "-").replace("/", "_") if ("+" in data or "/" in data)
                  else "-_" + data[2:]), "envelope_invalid_base64"),
        invalid("text-b64-nonzero-bits-1", "non-zero padding bits before '='", "text",
                t("zlib", one_pad[1], nonzero_bits_one), "envelope_invalid_base64"),
        invalid("text-b64-nonzero-bits-2", "non-zero padding bits before '=='", "text",
                t("zlib", two_pad[1], nonzero_bits_two), "envelope_invalid_base64"),
        invalid("text-inflate-limit", "declared length one byte short", "text",
                t("zlib", n - 1, data), "envelope_inflate_limit"),
        invalid("text-length-short", "declared length one byte long", "text",
                t("zlib", n + 1, data), "envelope_length_mismatch"),
        invalid("text-truncated", "zlib stream missing its trailer", "text",
                t("zlib", n, b64(z[:-4])), "envelope_truncated"),
        invalid("text-truncated-empty", "empty data", "text", t("zlib", n, ""),
                "envelope_truncated"),
        invalid("text-corrupt", "Adler-32 flipped", "text",
                t("zlib", n, b64(z[:-1] + bytes([z[-1] ^ 0xFF]))), "envelope_corrupt"),
        invalid("text-trailing", "garbage after the stream", "text",
                t("zlib", n, b64(z + b"junk")), "envelope_trailing_data"),
        invalid("text-gzip-header-comment", "gzip header with a 5,000-byte comment (FCOMMENT)",
                "text", t("gzip", n, b64(gzip_with_header(inner, comment=b"c" * 5000))),
                "envelope_gzip_header_too_large"),
        invalid("text-ratio", "8 MiB of zeros (ratio > 1000)", "text",
                t("zlib", 8 * 1024 * 1024, b64(compress(bytes(8 * 1024 * 1024), "zlib", 9))),
                "envelope_ratio_exceeded"),
    ]


def write(name, vectors):
    path = os.path.join(OUT, name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(vectors, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print("wrote %d vectors to %s" % (len(vectors), os.path.relpath(path, ROOT)))


def main():
    os.makedirs(OUT, exist_ok=True)
    write("valid.json", build_valid())
    write("invalid_binary.json", build_invalid_binary())
    write("invalid_text.json", build_invalid_text())


if __name__ == "__main__":
    main()

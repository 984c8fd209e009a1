#!/usr/bin/env python3
"""Seeds each fuzz target's corpus from the golden vectors (frames, envelopes, captures)."""
import base64
import glob
import hashlib
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.dirname(os.path.abspath(__file__))


def write(target, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)


frames = []
# Vectors/messages/<version>/<type>.json (one directory per protocol version).
for path in sorted(glob.glob(os.path.join(ROOT, "Vectors", "messages", "*", "*.json"))):
    for v in json.load(open(path, encoding="utf-8")):
        frames.append(v["frame"].encode("utf-8"))
for f in frames:
    write("fuzz-frame", f)
    if b'"connect"' in f:
        write("fuzz-auth", f)
for path in glob.glob(os.path.join(ROOT, "Vectors", "envelope", "*.json")):
    for v in json.load(open(path)):
        write("fuzz-envelope", base64.b64decode(v["envelope_base64"]))
# fuzz-auth-frames: each frames vector's messages, separated by 0xFF as the target splits them, and
# each message alone.
for v in json.load(open(os.path.join(ROOT, "Vectors", "auth", "frames.json"), encoding="utf-8")):
    wires = [m["wire"].encode("utf-8") for m in v["messages"]]
    write("fuzz-auth-frames", b"\xff".join(wires))
    for w in wires:
        write("fuzz-auth-frames", w)
# fuzz-frame regressions. Issue 29: a 0.2.0 session_history with 102 findings (its byte sum picks
# 0.2.0) stopped the target on its own findings-cap oracle, which took the default report's count
# (itself capped at 100) for the whole count (Tests/VCProtoCLITests/FindingsCapCheckTests.swift).
write("fuzz-frame", json.dumps({"type": "session_history", "session_id": "s", "messages": [{"role": "x"}] * 98},
                               separators=(",", ":")).encode("utf-8"))
# fuzz-capture: small seeds (at most CAPTURE_SEED bytes). Every exec reads its input several times
# (two readers, two chunkings, the validate pipeline twice), so seed size sets the speed.
CAPTURE_SEED = 4096


def capture_seed(data):
    if len(data) <= CAPTURE_SEED:
        write("fuzz-capture", data)


for path in sorted(glob.glob(os.path.join(ROOT, "Samples", "*.jsonl"))):
    lines = open(path, "rb").read().splitlines(keepends=True)
    for start in range(0, len(lines), 6):  # windows of 8 lines, overlapping, so handshakes stay whole
        piece = b"".join(lines[start:start + 8])
        while len(piece) > CAPTURE_SEED and b"\n" in piece[:-1]:
            piece = piece[:piece[:-1].rindex(b"\n") + 1]
        capture_seed(piece)
for path in sorted(glob.glob(os.path.join(ROOT, "Samples", "*.har"))):
    raw = open(path, "rb").read()
    capture_seed(raw)
    capture_seed(raw[: len(raw) // 2])  # a truncated HAR
    har = json.loads(raw)
    for entry in har["log"]["entries"]:
        messages = entry.get("_webSocketMessages") or []
        for start in range(0, len(messages), 3):
            small = {"log": {"version": "1.2", "entries": [{"request": {"url": entry["request"]["url"]},
                                                             "_webSocketMessages": messages[start:start + 4]}]}}
            capture_seed(json.dumps(small).encode("utf-8"))
for i in range(0, 40, 4):
    capture_seed(b"\n".join(frames[i:i + 4]) + b"\n")
# fuzz-engine: each input's bytes pick a role and a sequence of events; start from a few fixed ones.
_engine_bytes = hashlib.sha256(b"fuzz-engine").digest()
for i in range(32):
    chunk = b"".join(hashlib.sha256(_engine_bytes + bytes([i, j])).digest() for j in range(8))
    write("fuzz-engine", bytes([i % 2]) + chunk)
assert frames, "no message vectors found under Vectors/messages/<version>/"
print("seeded", {t: len(os.listdir(os.path.join(HERE, "corpus", t))) for t in os.listdir(os.path.join(HERE, "corpus"))})

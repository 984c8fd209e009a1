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
for path in glob.glob(os.path.join(ROOT, "Vectors", "messages", "*.json")):
    for v in json.load(open(path, encoding="utf-8")):
        frames.append(v["frame"].encode("utf-8"))
for f in frames:
    write("fuzz-frame", f)
    if b'"connect"' in f:
        write("fuzz-auth", f)
for path in glob.glob(os.path.join(ROOT, "Vectors", "envelope", "*.json")):
    for v in json.load(open(path)):
        write("fuzz-envelope", base64.b64decode(v["envelope_base64"]))
for path in glob.glob(os.path.join(ROOT, "Samples", "*")):
    write("fuzz-capture", open(path, "rb").read()[:60000])
write("fuzz-capture", b"\n".join(frames[:40]))
print("seeded", {t: len(os.listdir(os.path.join(HERE, "corpus", t))) for t in os.listdir(os.path.join(HERE, "corpus"))})

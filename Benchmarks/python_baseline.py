#!/usr/bin/env python3
"""`vcproto validate` end to end against Python's jsonschema and fastjsonschema on the same JSON Lines
capture and the project's own Schema/ (the validators a user would otherwise pick), and against
jsonschema-rs (Rust, with orjson parsing each line) as a whole process, like vcproto's: start, read,
parse, validate, exit, with both processes' peak memory.

    pip install jsonschema rfc3339-validator fastjsonschema jsonschema-rs orjson
    Benchmarks/.build/release/vcproto-bench corpus --megabytes 20 --output /tmp/corpus.jsonl
    python3 Benchmarks/python_baseline.py /tmp/corpus.jsonl path/to/release/vcproto [FRAMES [VERSION]]

VERSION (default 0.2.0) picks Schema/VERSION and is passed to `vcproto validate --protocol`; a 0.5.0
corpus comes from `vcproto-bench corpus --protocol 0.5.0 ...`. FRAMES 0: the whole capture.
"""
import json
import os
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


ROUNDS = 5

# The jsonschema-rs contender as a whole process: every line parsed by orjson and validated (formats on).
JSONSCHEMA_RS = """
import sys, orjson, jsonschema_rs
with open(sys.argv[1], "rb") as f:
    validator = jsonschema_rs.validator_for(orjson.loads(f.read()), validate_formats=True)
invalid = 0
with open(sys.argv[2], "rb") as f:
    for line in f:
        invalid += not validator.is_valid(orjson.loads(line))
sys.exit(1 if invalid else 0)
"""


def process(command):
    """(wall seconds, peak RSS in MB) of the fastest of ROUNDS runs of `command`; it must exit 0. The
    peak comes from /usr/bin/time, whose own small process is what the command's replaces (a child
    forked from this Python would count this process's memory, the frames it holds, as its own)."""
    best, peak = float("inf"), 0.0
    report = "/tmp/vcproto-baseline-rss.txt"
    for _ in range(ROUNDS):
        t = time.perf_counter()
        run = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report] + command, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
        seconds = time.perf_counter() - t
        assert run.returncode == 0, (command[:3], run.stderr.decode()[:500])
        if seconds < best:
            with open(report) as f:
                best, peak = seconds, int(f.read().split()[-1]) / 1024
    return best, peak


def fastest(body):
    """Seconds of the fastest of ROUNDS runs of body."""
    best = float("inf")
    for _ in range(ROUNDS):
        t = time.perf_counter()
        body()
        best = min(best, time.perf_counter() - t)
    return best


def main():
    capture, binary = sys.argv[1], sys.argv[2]
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else 20000
    limit = limit or float("inf")
    version = sys.argv[4] if len(sys.argv) > 4 else "0.2.0"
    with open(os.path.join(ROOT, "Schema", version, "message.schema.json")) as f:
        schema = json.load(f)
    frames = []
    with open(capture, encoding="utf-8") as f:
        for line in f:
            frames.append(json.loads(line))
            if len(frames) >= limit:
                break
    size = sum(len(json.dumps(x)) for x in frames)
    results = {}

    from jsonschema import Draft202012Validator, FormatChecker
    v = Draft202012Validator(schema, format_checker=FormatChecker())
    sample = frames[: min(len(frames), 2000)]
    assert all(v.is_valid(x) for x in sample), "jsonschema rejected corpus frames"
    # Every contender: the fastest of ROUNDS runs (the least disturbed one on a shared machine).
    results["jsonschema"] = len(sample) / fastest(lambda: [v.is_valid(x) for x in sample])

    try:
        import fastjsonschema
        fast = fastjsonschema.compile(schema)
        results["fastjsonschema"] = len(frames) / fastest(lambda: [fast(x) for x in frames])
    except ImportError:
        print("fastjsonschema not installed: pip install fastjsonschema")

    head = "/tmp/vcproto-baseline-head.jsonl"
    with open(capture, encoding="utf-8") as src, open(head, "w", encoding="utf-8") as dst:
        for i, line in enumerate(src):
            if i >= len(frames):
                break
            dst.write(line)
    memory = {}
    seconds, memory["vcproto validate"] = process([binary, "validate", "--protocol", version, "--format", "json", head])
    results["vcproto validate"] = len(frames) / seconds
    try:
        import jsonschema_rs, orjson  # noqa: F401 (the contender imports them in its own process)
        schema_path = os.path.join(ROOT, "Schema", version, "message.schema.json")
        seconds, memory["jsonschema-rs"] = process([sys.executable, "-c", JSONSCHEMA_RS, schema_path, head])
        results["jsonschema-rs"] = len(frames) / seconds
    except ImportError:
        print("jsonschema-rs or orjson not installed: pip install jsonschema-rs orjson")

    print("protocol %s: %d frames, %.1f MB (%d bytes of JSON Lines)" % (version, len(frames), size / 1e6, os.path.getsize(head)))
    for name, rate in results.items():
        rss = " (whole process, peak RSS %.1f MB)" % memory[name] if name in memory else ""
        print("%-18s %10.0f msg/s %8.1f MB/s%s" % (name, rate, rate * os.path.getsize(head) / len(frames) / 1e6, rss))
    print("vcproto validate vs jsonschema: %.0fx" % (results["vcproto validate"] / results["jsonschema"]))
    if "fastjsonschema" in results:
        print("vcproto validate vs fastjsonschema: %.1fx" % (results["vcproto validate"] / results["fastjsonschema"]))
    if "jsonschema-rs" in results:
        print("vcproto validate vs jsonschema-rs (whole processes): %.2fx" % (results["vcproto validate"] / results["jsonschema-rs"]))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""`vcproto validate` end to end against Python's jsonschema and fastjsonschema on the same JSON Lines
capture and the project's own Schema/ (the validators a user would otherwise pick).

    pip install jsonschema rfc3339-validator fastjsonschema
    Benchmarks/.build/release/vcproto-bench corpus --megabytes 20 --output /tmp/corpus.jsonl
    python3 Benchmarks/python_baseline.py /tmp/corpus.jsonl path/to/release/vcproto [FRAMES [VERSION]]

VERSION (default 0.2.0) picks Schema/VERSION and is passed to `vcproto validate --protocol`; a 0.5.0
corpus comes from `vcproto-bench corpus --protocol 0.5.0 ...`.
"""
import json
import os
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


ROUNDS = 5


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
    def validate():
        run = subprocess.run([binary, "validate", "--protocol", version, "--format", "json", head], capture_output=True)
        assert run.returncode == 0, run.stderr.decode()[:500]
    results["vcproto validate"] = len(frames) / fastest(validate)

    print("protocol %s: %d frames, %.1f MB" % (version, len(frames), size / 1e6))
    for name, rate in results.items():
        print("%-18s %10.0f msg/s" % (name, rate))
    print("vcproto validate vs jsonschema: %.0fx" % (results["vcproto validate"] / results["jsonschema"]))
    if "fastjsonschema" in results:
        print("vcproto validate vs fastjsonschema: %.1fx" % (results["vcproto validate"] / results["fastjsonschema"]))


if __name__ == "__main__":
    main()

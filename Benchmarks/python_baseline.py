#!/usr/bin/env python3
"""`vcproto validate` end to end against Python's jsonschema and fastjsonschema on the same JSON Lines
capture and the project's own Schema/ (the validators a user would otherwise pick), and against
jsonschema-rs (Rust, with orjson parsing each line; one thread) as a whole process, like vcproto's:
start, read, parse, validate, exit, with both processes' wall clock, CPU time and peak memory.
vcproto runs twice: on one thread per core (its default) and on one thread (`--jobs 1`).

    pip install jsonschema rfc3339-validator fastjsonschema jsonschema-rs orjson
    Benchmarks/.build/release/vcproto-bench corpus --megabytes 20 --output /tmp/corpus.jsonl
    python3 Benchmarks/python_baseline.py /tmp/corpus.jsonl path/to/release/vcproto [FRAMES [VERSION [BEFORE]]]

VERSION (default 0.2.0) picks Schema/VERSION and is passed to `vcproto validate --protocol`; a 0.5.0
corpus comes from `vcproto-bench corpus --protocol 0.5.0 ...`. FRAMES 0: the whole capture. BEFORE:
another vcproto binary (an earlier build), run alternately with the others as `vcproto before` (with
its default threads; one thread if it predates `--jobs`). Options: `--whole-only` times only the
whole processes (vcproto and jsonschema-rs; jsonschema and fastjsonschema take minutes), `--rounds N`
(default 5). `Benchmarks/run.sh validate` builds everything and runs this on the 100 MB 0.5.0 capture.
"""
import argparse
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
    """(wall seconds, CPU seconds, peak RSS in MB) of one run of `command`, which must exit 0: CPU time
    is user + system of all its threads. The figures come from /usr/bin/time, whose own small process
    is what the command's replaces (a child forked from this Python would count this process's
    memory, the frames it holds, as its own)."""
    report = "/tmp/vcproto-baseline-rss.txt"
    t = time.perf_counter()
    run = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", "-o", report] + command,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - t
    assert run.returncode == 0, (command[:3], run.stderr.decode()[:500])
    with open(report) as f:
        rss, user, system = f.read().split()[-3:]
    return seconds, float(user) + float(system), int(rss) / 1024


def processes(commands):
    """For each named command: (wall seconds, CPU seconds, peak RSS in MB) of its fastest of ROUNDS
    runs by wall clock (CPU: the least of its rounds), the commands run alternately, round by round."""
    best = {name: (float("inf"), float("inf"), 0.0) for name in commands}
    for _ in range(ROUNDS):
        for name, command in commands.items():
            seconds, cpu, rss = process(command)
            wall, least, peak = best[name]
            best[name] = (min(wall, seconds), min(least, cpu), rss if seconds < wall else peak)
    return best


def fastest(body):
    """Seconds of the fastest of ROUNDS runs of body."""
    best = float("inf")
    for _ in range(ROUNDS):
        t = time.perf_counter()
        body()
        best = min(best, time.perf_counter() - t)
    return best


def main():
    global ROUNDS
    parser = argparse.ArgumentParser(description="vcproto validate end to end against Python's validators")
    parser.add_argument("capture")
    parser.add_argument("binary")
    parser.add_argument("frames", nargs="?", type=int, default=20000, help="0: the whole capture")
    parser.add_argument("version", nargs="?", default="0.2.0")
    parser.add_argument("before", nargs="?", default=None, help="an earlier vcproto binary")
    parser.add_argument("--whole-only", action="store_true", help="time only the whole processes")
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args()
    capture, binary, version, before = args.capture, args.binary, args.version, args.before
    limit = args.frames or float("inf")
    ROUNDS = args.rounds
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

    if not args.whole_only:
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
    memory, cpu = {}, {}
    # vcproto validate on one thread per core (its default) and on one thread (--jobs 1), then
    # jsonschema-rs (one thread: a Python loop over the lines), alternately, each the fastest of ROUNDS.
    wholes = {
        "vcproto validate": [binary, "validate", "--protocol", version, "--format", "json", head],
        "vcproto --jobs 1": [binary, "validate", "--jobs", "1", "--protocol", version, "--format", "json", head],
    }
    if before:
        wholes["vcproto before"] = [before, "validate", "--protocol", version, "--format", "json", head]
    try:
        import jsonschema_rs, orjson  # noqa: F401 (the contender imports them in its own process)
        schema_path = os.path.join(ROOT, "Schema", version, "message.schema.json")
        wholes["jsonschema-rs"] = [sys.executable, "-c", JSONSCHEMA_RS, schema_path, head]
    except ImportError:
        print("jsonschema-rs or orjson not installed: pip install jsonschema-rs orjson")
    for name, (seconds, cpu[name], memory[name]) in processes(wholes).items():
        results[name] = len(frames) / seconds

    print("protocol %s: %d frames, %.1f MB (%d bytes of JSON Lines)" % (version, len(frames), size / 1e6, os.path.getsize(head)))
    for name, rate in results.items():
        rss = ""
        if name in memory:
            rss = " (whole process: %.2f s CPU, peak RSS %.1f MB)" % (cpu[name], memory[name])
        print("%-18s %10.0f msg/s %8.1f MB/s%s" % (name, rate, rate * os.path.getsize(head) / len(frames) / 1e6, rss))
    if "jsonschema" in results:
        print("vcproto validate vs jsonschema: %.0fx" % (results["vcproto validate"] / results["jsonschema"]))
    if "fastjsonschema" in results:
        print("vcproto validate vs fastjsonschema: %.1fx" % (results["vcproto validate"] / results["fastjsonschema"]))
    if "jsonschema-rs" in results:
        for name in [name for name in wholes if name.startswith("vcproto")]:
            print("%s vs jsonschema-rs (whole processes): %.2fx wall clock, %.2fx CPU time"
                  % (name, results[name] / results["jsonschema-rs"], cpu["jsonschema-rs"] / max(cpu[name], 0.01)))


if __name__ == "__main__":
    main()

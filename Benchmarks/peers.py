#!/usr/bin/env python3
"""vcproto against the Python peers a user would pick for speed, decoding and encoding, in one run.

    Benchmarks/run.sh peers                      # builds vcproto-bench (release), then this
    python3 Benchmarks/peers.py [--frames N] [--rounds R] [--protocol V]... [--smoke]

Contenders, on the same corpus (`vcproto-bench peer-server`, which writes `Corpus.generate`'s frames,
the ones every other benchmark measures, and times vcproto's passes in its own process):
- vcproto: MessageDecoder (typed decode and validation) and MessageEncoder, release build;
- msgspec typed: Structs generated from Schema/ (Benchmarks/msgspec_structs.py), `msgspec.json.Decoder`
  of the union of every message type, and `msgspec.json.Encoder`;
- orjson: `orjson.loads` (untyped, no validation) and `orjson.dumps` of its result;
- pysimdjson: `Parser.parse`, the parsing ceiling (a tape, no Python objects; decode only).
Each round runs every contender once, one after another; each keeps its fastest round of thread CPU
time. Every process of the run, this one and vcproto's, is pinned to one CPU (`--cpu`, Linux): the
contenders run one at a time anyway, and the VM's two CPUs are not equally fast at every moment (one ran
this benchmark 30 % slower than the other for minutes on 2026-11-30), so a contender on the other CPU
would be measured on another machine. vcproto runs in several processes (`--processes`, 3 by default),
each measured in every round; its figure is the median of the processes' fastest rounds, as the engine
benchmark takes the median of its processes, so that one process slower in every round does not decide
a run (the spread is printed). Frames "small" are those under 1 KB. Ratios are vcproto's speed over the
peer's (>= 1.0: vcproto is ahead). Python's garbage collector stays on, as a user has it; the decoded values that the encoders
are given are frozen out of its sight (`gc.freeze()`), and no pass keeps its results.

Before timing, each contender is checked on the corpus and the message vectors: msgspec must accept
every corpus frame, give the same JSON back (date-times compared as instants: msgspec writes
microseconds), and decode its own output to equal Structs; orjson and pysimdjson must give the same
values as each other; jsonschema-rs (Schema/VERSION/message.schema.json, formats on) must accept every
corpus frame, and msgspec must reject every invalid message vector that jsonschema-rs rejects (the
Structs check at least what the schema says; how many each rejects is printed, not required, since
some vectors need vcproto's rules beyond the schema). `--smoke` (CI): 400 frames, one round, the checks and the figures they give. A contender whose
package is missing is skipped with a message naming it (`pip install msgspec orjson pysimdjson
jsonschema-rs`); its ratios print as n/a.
"""
import argparse
import datetime
import gc
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)


def optional(module, package):
    try:
        return __import__(module)
    except ImportError:
        print(f"skipping {package}: not installed (pip install {package})")
        return None


msgspec = optional("msgspec", "msgspec")
orjson = optional("orjson", "orjson")
simdjson = optional("simdjson", "pysimdjson")
jsonschema_rs = optional("jsonschema_rs", "jsonschema-rs")
if msgspec is not None:
    import msgspec_structs

FAILURES = []


def check(condition, message):
    if condition:
        print(f"  ok: {message}")
    else:
        print(f"  FAILED: {message}")
        FAILURES.append(message)


class VCProto:
    """vcproto-bench peer-server: writes the corpus, then times one pass per request."""

    def __init__(self, binary, version, frames, path):
        self.process = subprocess.Popen(
            [binary, "peer-server", "--protocol", version, "--frames", str(frames), "--output", path],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        ready = self.process.stdout.readline().split()
        if not ready or ready[0] != "ready":
            raise SystemExit(f"vcproto-bench peer-server did not start: {ready}")

    def time(self, operation, subset):
        self.process.stdin.write(f"{operation} {subset}\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise SystemExit(f"vcproto-bench peer-server stopped on {operation} {subset}")
        return float(answer)

    def close(self):
        try:  # a server that died (the error being reported) has no pipe left to write to
            self.process.stdin.write("quit\n")
            self.process.stdin.close()
        except OSError:
            self.process.kill()
        self.process.wait()


def each(function, items):
    """Calls `function` on every item, keeping no result (as a stream of frames is handled)."""
    for item in items:
        function(item)


def cpu(body):
    start = time.thread_time()
    body()
    return time.thread_time() - start


DATE_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")


def instants(value):
    """`value` with date-time strings as datetimes (msgspec re-encodes them with microseconds)."""
    if isinstance(value, dict):
        return {k: instants(v) for k, v in value.items()}
    if isinstance(value, list):
        return [instants(v) for v in value]
    if isinstance(value, str) and DATE_TIME.match(value):
        try:
            return datetime.datetime.fromisoformat(value)
        except ValueError:
            return value
    return value


def vectors(version):
    """(frame bytes, direction, valid) of every message vector of `version`."""
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "Vectors", "messages", version, "*.json"))):
        with open(path, encoding="utf-8") as f:
            for v in json.load(f):
                out.append((v["frame"].encode(), v.get("direction"), v["valid"]))
    return out


class Contenders:
    """The Python contenders of one version, checked, with their decode and encode passes."""

    def __init__(self, version, frames):
        self.version = version
        self.decode = {}  # name -> (frames -> None)
        self.encode = {}  # name -> (frames -> None), over values decoded beforehand
        self.prepare = {}  # name -> (frames -> decoded values for encode)
        parsed = None
        if orjson is not None:
            parsed = [orjson.loads(f) for f in frames]
            check(all(orjson.loads(orjson.dumps(x)) == x for x in parsed), "orjson: dumps(loads(frame)) round trips")
            loads, dumps = orjson.loads, orjson.dumps
            self.decode["orjson"] = lambda fs: each(loads, fs)
            self.prepare["orjson"] = lambda fs: [loads(f) for f in fs]
            self.encode["orjson"] = lambda xs: each(dumps, xs)
        if msgspec is not None:
            self.check_msgspec(version, frames, parsed)
        if simdjson is not None:
            parser = simdjson.Parser()
            if parsed is not None:
                same = all(parser.parse(f).as_dict() == parsed[i] for i, f in enumerate(frames))
                check(same, "pysimdjson: parses every frame to orjson's values")

            def parse_all(fs):
                for f in fs:
                    parser.parse(f)

            self.decode["simdjson"] = parse_all
        if jsonschema_rs is not None:
            self.check_jsonschema_rs(version, frames)

    def check_msgspec(self, version, frames, parsed):
        module = msgspec_structs.load(version)
        decoder = msgspec.json.Decoder(module.Message)
        encoder = msgspec.json.Encoder()
        try:
            typed = [decoder.decode(f) for f in frames]
            accepted = True
        except msgspec.ValidationError as error:
            typed, accepted = [], False
            print(f"  msgspec rejected a corpus frame: {error}")
        check(accepted, f"msgspec Structs ({version}): accept every corpus frame")
        if accepted:
            encoded = [encoder.encode(m) for m in typed]
            check(all(decoder.decode(e) == m for e, m in zip(encoded, typed)),
                  "msgspec: decode(encode(struct)) == struct")
            if parsed is not None:
                same = all(instants(orjson.loads(e)) == instants(p) for e, p in zip(encoded, parsed))
                check(same, "msgspec: encode(decode(frame)) is the frame's JSON (date-times as instants)")
        by_direction = {None: decoder, "client_to_server": msgspec.json.Decoder(module.ClientToServer),
                        "server_to_client": msgspec.json.Decoder(module.ServerToClient)}
        rejected = invalid = valid_accepted = valid = 0
        self.msgspec_accepts = set()  # the invalid vectors msgspec accepts
        for index, (frame, direction, is_valid) in enumerate(vectors(version)):
            try:
                by_direction.get(direction, decoder).decode(frame)
                ok = True
            except (msgspec.ValidationError, msgspec.DecodeError):
                ok = False
            if is_valid:
                valid += 1
                valid_accepted += ok
            else:
                invalid += 1
                rejected += not ok
                if ok:
                    self.msgspec_accepts.add(index)
        print(f"  msgspec Structs ({version}): reject {rejected} of {invalid} invalid message vectors, "
              f"accept {valid_accepted} of {valid} valid ones (unknown types are rejected)")
        decode = decoder.decode
        encode = encoder.encode
        self.decode["msgspec"] = lambda fs: each(decode, fs)
        self.prepare["msgspec"] = lambda fs: [decode(f) for f in fs]
        self.encode["msgspec"] = lambda xs: each(encode, xs)

    def check_jsonschema_rs(self, version, frames):
        with open(os.path.join(ROOT, "Schema", version, "message.schema.json"), encoding="utf-8") as f:
            schema = json.load(f)
        validator = jsonschema_rs.validator_for(schema, validate_formats=True)
        check(all(validator.is_valid(json.loads(f)) for f in frames), f"jsonschema-rs ({version}): accepts every corpus frame")
        rejected = invalid = 0
        weaker = []  # invalid vectors the schema rejects and the Structs accept: a generator bug
        for index, (frame, _, is_valid) in enumerate(vectors(version)):
            if is_valid:
                continue
            invalid += 1
            try:
                schema_rejects = not validator.is_valid(json.loads(frame))
            except ValueError:
                schema_rejects = True  # not JSON
            rejected += schema_rejects
            if schema_rejects and index in getattr(self, "msgspec_accepts", ()):
                weaker.append(index)
        print(f"  jsonschema-rs ({version}): rejects {rejected} of {invalid} invalid message vectors "
              "(the rest need vcproto's checks beyond the schema)")
        if msgspec is not None:
            check(not weaker, "msgspec Structs reject every invalid vector the schema rejects")


def by_type(vcs, contenders, small, rounds):
    """Decoding of the frames under 1 KB, one message type at a time (the types by their share of the
    bytes): where vcproto's small-frame ratio comes from. Measured as the main table is, except that each
    contender makes two passes a round and the second is timed: a pass over a few hundred frames takes
    well under a millisecond, and the first after another contender ran on the CPU is a cold start."""
    types = {}
    for f in small:
        name = json.loads(f)["type"]
        # The peer-server groups frames by the bytes after `{"type":"`: both must find the same sets.
        if not f.startswith(b'{"type":"' + name.encode() + b'"'):
            raise SystemExit(f"--by-type: a frame does not open with its type: {f[:60]!r}")
        types.setdefault(name, []).append(f)
    total = sum(len(f) for f in small)
    print("\n| type (frames < 1 KB) | frames | share of bytes | vcproto ns a frame | vcproto / msgspec | vcproto / orjson |")
    print("|---|---|---|---|---|---|")
    for name, fs in sorted(types.items(), key=lambda item: -sum(len(f) for f in item[1])):
        best = {}
        for _ in range(rounds):
            for k, vc in enumerate(vcs):
                vc.time("decode", "small/" + name)
                best[k] = min(best.get(k, float("inf")), vc.time("decode", "small/" + name))
            for peer, body in contenders.decode.items():
                body(fs)
                best[peer] = min(best.get(peer, float("inf")), cpu(lambda: body(fs)))
        ours = statistics.median(best[k] for k in range(len(vcs)))
        ratio = ["n/a" if peer not in best else f"{best[peer] / ours:.2f}x" for peer in ("msgspec", "orjson")]
        share = sum(len(f) for f in fs) / total * 100
        print(f"| {name} | {len(fs)} | {share:.1f} % | {ours / len(fs) * 1e9:.0f} | {ratio[0]} | {ratio[1]} |")


def run(version, args, binary):
    path = f"/tmp/vcproto-peers-{version}-{os.getpid()}.jsonl"
    print(f"\n### protocol {version}")
    vcs = []
    try:
        for k in range(args.processes):
            try:
                vcs.append(VCProto(binary, version, args.frames, f"{path}.{k}"))
                with open(f"{path}.{k}", "rb") as f:
                    corpus = f.read()
            finally:
                if os.path.exists(f"{path}.{k}"):
                    os.remove(f"{path}.{k}")
            if k == 0:
                first = corpus
            elif corpus != first:
                raise SystemExit("vcproto-bench peer-server processes wrote different corpora")
        frames = [line for line in first.split(b"\n") if line]
        sets = {"all": frames, "small": [f for f in frames if len(f) < 1024]}
        sizes = {name: sum(len(f) for f in fs) for name, fs in sets.items()}
        print(f"corpus: {len(frames)} frames, {sizes['all']} bytes; {len(sets['small'])} under 1 KB, "
              f"{sizes['small']} bytes")
        contenders = Contenders(version, frames)
        values = {(name, s): prepare(fs) for name, prepare in contenders.prepare.items() for s, fs in sets.items()}
        # The values to encode live for the whole run: out of the collector's sight, as a long-lived
        # heap is after a few collections (each contender's own allocations are still collected).
        gc.collect()
        gc.freeze()
        best = {}

        def keep(key, seconds):
            best[key] = min(best.get(key, float("inf")), seconds)

        for _ in range(args.rounds):
            for s, fs in sets.items():
                for k, vc in enumerate(vcs):
                    keep(("vcproto", k, "decode", s), vc.time("decode", s))
                for name, body in contenders.decode.items():
                    keep((name, "decode", s), cpu(lambda: body(fs)))
                for k, vc in enumerate(vcs):
                    keep(("vcproto", k, "encode", s), vc.time("encode", s))
                for name, body in contenders.encode.items():
                    xs = values[(name, s)]
                    keep((name, "encode", s), cpu(lambda: body(xs)))
        if args.by_type:
            by_type(vcs, contenders, sets["small"], args.rounds)
    finally:
        for vc in vcs:
            vc.close()
    spreads = {}
    for operation in ("decode", "encode"):
        for s in sets:
            each_process = sorted(best.pop(("vcproto", k, operation, s)) for k in range(len(vcs)))
            best[("vcproto", operation, s)] = statistics.median(each_process)
            spreads[(operation, s)] = [sizes[s] / t / 1e6 for t in reversed(each_process)]
    rows = []
    for operation in ("decode", "encode"):
        for s in ("all", "small"):
            mbps = {name: sizes[s] / seconds / 1e6 for (name, op, sub), seconds in best.items()
                    if op == operation and sub == s}
            label = "all frames" if s == "all" else "frames < 1 KB"
            line = f"{operation} {label:14}" + "".join(
                f"  {name} {mbps[name]:7.1f}" for name in ("vcproto", "msgspec", "orjson", "simdjson") if name in mbps)
            print(line + " MB/s")
            if len(vcs) > 1:
                spread = ", ".join(f"{x:.1f}" for x in spreads[(operation, s)])
                print(f"  vcproto, the median of {len(vcs)} processes: {spread} MB/s")
            for peer in ("msgspec", "orjson"):
                ratio = mbps["vcproto"] / mbps[peer] if peer in mbps else None
                rows.append((version, operation, label, peer, ratio))
            if "simdjson" in mbps:
                print(f"  vcproto / simdjson (parsing ceiling): {mbps['vcproto'] / mbps['simdjson']:.2f}x")
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--processes", type=int, default=3, help="vcproto processes (the median is taken)")
    parser.add_argument("--by-type", action="store_true", help="also small-frame decoding type by type")
    first_cpu = min(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else -1
    parser.add_argument("--cpu", type=int, default=first_cpu,
                        help="the CPU every process of the run is pinned to (-1: none; Linux only)")
    parser.add_argument("--protocol", action="append", choices=["0.5.0", "0.2.0"])
    parser.add_argument("--smoke", action="store_true", help="400 frames, one round: the checks (CI)")
    parser.add_argument("--bench", default=os.path.join(HERE, ".build", "release", "vcproto-bench"))
    args = parser.parse_args()
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    if args.smoke:
        args.frames, args.rounds, args.processes = 400, 1, 1
    pinned = args.cpu >= 0 and hasattr(os, "sched_setaffinity")
    if pinned:
        os.sched_setaffinity(0, {args.cpu})  # the peer-server processes inherit it
    gc.collect()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(f"peers: {args.frames} frames per corpus, fastest of {args.rounds} alternating rounds, thread CPU time, "
          f"vcproto in {args.processes} processes (median), "
          f"{f'on CPU {args.cpu}' if pinned else 'not pinned'}; {started}")
    rows = []
    for version in args.protocol or ["0.5.0", "0.2.0"]:
        rows += run(version, args, args.bench)
    print("\n| corpus | frames | operation | vcproto / msgspec typed | vcproto / orjson |")
    print("|---|---|---|---|---|")
    ahead = measured = 0
    table = {}
    for version, operation, label, peer, ratio in rows:
        table[(version, label, operation, peer)] = ratio
        if ratio is not None:
            measured += 1
            ahead += ratio >= 1.0
    for version in args.protocol or ["0.5.0", "0.2.0"]:
        for label in ("all frames", "frames < 1 KB"):
            for operation in ("decode", "encode"):
                cells = [table.get((version, label, operation, p)) for p in ("msgspec", "orjson")]
                text = ["n/a" if c is None else f"{c:.2f}x" for c in cells]
                print(f"| {version} | {label} | {operation} | {text[0]} | {text[1]} |")
    print(f"\nvcproto at or ahead of the peer on {ahead} of {measured} ratios")
    if args.smoke:
        print(f"\nsmoke: {0 if FAILURES else 1} passed, {len(FAILURES)} failed")
    if FAILURES:
        raise SystemExit("contender checks failed: " + "; ".join(FAILURES))


if __name__ == "__main__":
    main()

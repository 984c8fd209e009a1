#!/usr/bin/env python3
"""vcproto's reference conformance peer: answers `vcproto conformance` over stdin/stdout in JSON
Lines (the pipe protocol of Vectors/CONFORMANCE.md), computing every answer independently of vcproto
with Python's jsonschema (from Schema/), zlib and hmac (modules in tools/vcpeer/).

    vcproto conformance -- python3 tools/conformance_peer.py

`--break GLOB` (repeatable) turns it into a deliberately broken implementation for testing the
runner: the answer of every test whose id matches GLOB is corrupted (a flipped verdict, a lost
finding, a changed byte, another outcome; for `sessions`, the answer of engines with the real
system's conversation bugs put back, vcpeer/session_broken.py), and each id whose answer changed
is appended to the file given by `--broken-log`. CI runs the runner on it with that log as the
failure list: the run passes only if exactly those tests fail.
"""
import argparse
import fnmatch
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from vcpeer import auth_bound, envelope, frames, hkdf, messages, negotiation, sessions  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROTOCOL = 1


def handlers(schema_root):
    judge = messages.Judge(schema_root)
    return {
        "messages": lambda request: messages.answer(judge, request),
        "envelope": envelope.answer,
        "auth": auth_bound.answer,
        "negotiation": negotiation.answer,
        "auth_hkdf": hkdf.answer,
        "auth_frames": frames.answer,
        "sessions": sessions.answer,
    }


def corrupt(kind, request, result):
    """A wrong answer of the same shape."""
    result = dict(result)
    if kind == "messages":
        if result["valid"]:
            result["canonical"] = result.get("canonical", "") + " "
        else:
            result["findings"] = result["findings"][1:] or [{"pointer": "/x", "code": "wrong_type"}]
    elif kind == "envelope":
        result = {"error": "envelope_corrupt"} if "opened_base64" in result else {"opened_base64": "e30="}
    elif kind == "auth":
        result["outcome"] = "server_proof_mismatch" if result["outcome"] == "ok" else "ok"
    elif kind == "negotiation":
        result = {"negotiated_protocol_version": "9.9.9", "capabilities": [], "auth_version": 1}
    elif kind == "auth_hkdf":
        result["okm_hex"] = "00" + result["okm_hex"][2:]
    elif kind == "auth_frames":
        result["messages"] = result["messages"][:-1]
    elif kind == "sessions":
        # Not a corrupted answer but buggy engines: the real system's bugs (vcpeer/session_broken.py).
        # A conversation that never meets them gets the right answer and is not logged.
        result = sessions.answer(request, broken=True)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--schema", default=os.path.join(ROOT, "Schema"), help="the Schema/ folder")
    parser.add_argument("--break", dest="breaks", action="append", default=[], metavar="GLOB",
                        help="corrupt the answers of tests whose id matches GLOB")
    parser.add_argument("--broken-log", help="append the id of every corrupted answer to this file")
    args = parser.parse_args()
    kinds = handlers(args.schema)
    out = sys.stdout
    out.write(json.dumps({"conformance": PROTOCOL, "implementation": "vcproto reference peer (Python)",
                          "kinds": sorted(kinds)}) + "\n")
    out.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        reply = {"id": request.get("id")}
        handler = kinds.get(request.get("kind"))
        if handler is None:
            reply["unsupported"] = "no such kind: %s" % request.get("kind")
        else:
            try:
                reply["result"] = handler(request["input"])
            except messages.Unsupported as why:
                reply = {"id": reply["id"], "unsupported": str(why)}
            except Exception as error:  # the runner shows it as this test's failure
                reply["error"] = "%s: %s" % (type(error).__name__, error)
        if "result" in reply and any(fnmatch.fnmatchcase(reply["id"], g) for g in args.breaks):
            broken = corrupt(request["kind"], request["input"], reply["result"])
            if args.broken_log and broken != reply["result"]:
                with open(args.broken_log, "a", encoding="utf-8") as log:
                    log.write(reply["id"] + "\n")
            reply["result"] = broken
        out.write(json.dumps(reply, ensure_ascii=False) + "\n")
        out.flush()


if __name__ == "__main__":
    main()

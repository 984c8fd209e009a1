#!/usr/bin/env python3
"""Writes Vectors/negotiation/cases.json: the real backend's version negotiation, one vector per
announced value and server configuration.

    python3 tools/make_negotiation_vectors.py

Every expected outcome is read from the outcome matrix of the reference (versions.md section 6,
"Outcome matrix", at the backend's newest commit 1e7bcc30; evidence
backend/test/voice_code/server_protocol_version_test.clj:316-352,394-470@1e7bcc30), typed in below as
a table. Nothing here runs or imitates vcproto. A few extra rows (marked "rule") exercise the parsing
and guard rules written in the same section (step 1: strip from the first '-' or '+', exactly three
integers; step 2: the guard compares the parsed triple but reports the string as sent); their
expectations are worked out by hand from that text and written literally. The vector format is
described in Vectors/README.md.
"""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The matrix's four columns: (id, floor, ceiling, description).
COLUMNS = [
    ("default", "0.4.0", "0.5.0", "floor 0.4.0, ceiling 0.5.0 (the default configuration)"),
    ("offset_off", "0.4.0", "0.4.0", "ceiling 0.4.0 (VC_OFFSET_PROTOCOL=0)"),
    ("floor_0.3.0", "0.3.0", "0.5.0", "floor 0.3.0 (rollback), ceiling 0.5.0"),
    ("floor_0.5.0", "0.5.0", "0.5.0", "floor 0.5.0, ceiling 0.5.0"),
]

ABSENT = object()  # the connect has no protocol_version member
ERR = "refused"    # error{code:unsupported_protocol_version} + close

# The matrix rows: (announced values, outcome per column in COLUMNS order). A value is a string,
# None (JSON null) or ABSENT.
MATRIX = [
    ([ABSENT, None, "abc", "0.4"], ["0.4.0", "0.4.0", "0.3.0", "0.5.0"]),
    (["0.2.0", "0.3.0", "0.3.9"], [ERR, ERR, "0.3.0", ERR]),
    (["0.4.0"], ["0.4.0", "0.4.0", "0.4.0", "0.4.0"]),
    (["0.4.1"], ["0.4.0", "0.4.0", "0.3.0", "0.5.0"]),
    (["0.5.0", "0.5.0-rc1", "0.5.2"], ["0.5.0", "0.4.0", "0.5.0", "0.5.0"]),
    (["0.6.0", "1.0.0"], ["0.5.0", "0.4.0", "0.5.0", "0.5.0"]),
]

# Rows read off the rules of STANDARDS.md#findings (not the matrix), same columns.
RULES = [
    # a pre-release suffix is dropped before the guard compares; `received` keeps it
    (["0.3.0-rc1", "0.2.9+build.7"], [ERR, ERR, "0.3.0", ERR]),
    # four components, a leading "v", an empty string, a non-number: unparseable -> floor
    (["0.5.0.1", "v0.5.0", "", "0.x.0", "-0.5.0"], ["0.4.0", "0.4.0", "0.3.0", "0.5.0"]),
    # an unmapped triple below 0.4.0 is refused wherever the guard is on; 0.1.0 under floor 0.3.0
    # is unmapped -> floor
    (["0.1.0"], [ERR, ERR, "0.3.0", ERR]),
    # suffix on an accepted version: mapped after stripping
    (["0.4.0+ios.17"], ["0.4.0", "0.4.0", "0.4.0", "0.4.0"]),
]


def label(value):
    if value is ABSENT:
        return "absent"
    if value is None:
        return "null"
    return json.dumps(value)


def client(value, **extra):
    c = {} if value is ABSENT else {"protocol_version": value}
    c.update(extra)
    return c


def expectation(outcome, ceiling, value, capabilities=(), auth_version=1):
    if outcome == ERR:
        return {
            "hello_version": ceiling,
            "refusal": {
                "type": "error",
                "code": "unsupported_protocol_version",
                "required": "0.4.0",  # hard-coded by the backend, also under floor 0.5.0
                "received": value,
                "message": "Client is too old; upgrade required",
            },
        }
    return {"hello_version": ceiling, "negotiated_protocol_version": outcome,
            "capabilities": sorted(capabilities), "auth_version": auth_version}


def server(floor, ceiling, capabilities=()):
    return {"floor": floor, "ceiling": ceiling, "auth_versions": [1], "capabilities": list(capabilities)}


def main():
    vectors = []
    for source, rows in (("matrix", MATRIX), ("rule", RULES)):
        for values, outcomes in rows:
            for value in values:
                for (column, floor, ceiling, what), outcome in zip(COLUMNS, outcomes):
                    shown = "refused" if outcome == ERR else outcome
                    vectors.append({
                        "id": "%s.%s.%s" % (source, column, label(value)),
                        "source": source,
                        "description": "%s: protocol_version %s -> %s" % (what, label(value), shown),
                        "server": server(floor, ceiling),
                        "client": client(value),
                        "expect": expectation(outcome, ceiling, value),
                    })

    # vcproto's extensions ride on every version: the intersection, sorted; unknown names ignored.
    offered = ["heartbeat", "draining", "message_ack", "compression_text", "idempotent_prompt"]
    asked = ["message_ack", "teleport", "heartbeat", "compression_text"]
    for (column, floor, ceiling, what), value, outcome in [
        (COLUMNS[0], "0.5.0", "0.5.0"), (COLUMNS[0], ABSENT, "0.4.0"), (COLUMNS[1], "0.5.0", "0.4.0"),
        (COLUMNS[2], "0.3.0", "0.3.0"), (COLUMNS[3], "0.4.0", "0.4.0"),
    ]:
        vectors.append({
            "id": "extensions.%s.%s" % (column, label(value)),
            "source": "extensions",
            "description": "%s: extensions are negotiated on %s like on any version" % (what, outcome),
            "server": server(floor, ceiling, offered),
            "client": client(value, capabilities=asked, auth_version=2),
            "expect": expectation(outcome, ceiling, value, ["compression_text", "heartbeat", "message_ack"], 2),
        })
    # An old peer asks for nothing and gets nothing, even from a server offering everything.
    vectors.append({
        "id": "extensions.default.silent_client",
        "source": "extensions",
        "description": "a real client announces no capabilities: none are negotiated",
        "server": server("0.4.0", "0.5.0", offered),
        "client": {"protocol_version": "0.5.0"},
        "expect": expectation("0.5.0", "0.5.0", "0.5.0"),
    })
    # The refusal comes before any capability or credential is looked at.
    vectors.append({
        "id": "extensions.default.refused_first",
        "source": "extensions",
        "description": "a too-old client asking for extensions is refused all the same",
        "server": server("0.4.0", "0.5.0", offered),
        "client": client("0.3.0", capabilities=asked, auth_version=2),
        "expect": expectation(ERR, "0.5.0", "0.3.0"),
    })
    # A 0.2.0 server negotiates nothing: every client gets 0.2.0 (seed era, versions.md section 1).
    for value in [ABSENT, "0.2.0", "0.3.0", "0.5.0", "abc"]:
        vectors.append({
            "id": "legacy.%s" % label(value),
            "source": "legacy",
            "description": "a 0.2.0 server ignores protocol_version %s" % label(value),
            "server": {"legacy": True, "auth_versions": [1], "capabilities": []},
            "client": client(value),
            "expect": expectation("0.2.0", "0.2.0", value),
        })
    assert len({v["id"] for v in vectors}) == len(vectors)
    path = os.path.join(ROOT, "Vectors", "negotiation", "cases.json")
    with open(path, "w") as f:
        f.write("[\n")
        f.write(",\n".join(" " + json.dumps(v, ensure_ascii=False) for v in vectors))
        f.write("\n]\n")
    print("wrote %d vectors to %s" % (len(vectors), path))


if __name__ == "__main__":
    main()

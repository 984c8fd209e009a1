#!/usr/bin/env python3
"""Independent cross-checks of every message vector in Vectors/messages/<version>/ (every protocol
version). Three judges, each must agree with the vector:

1. JSON Schema (Python's jsonschema, Draft 2020-12, format checking for date-time and uuid, after
   the reference peer's strict parse, tools/vcpeer/jsontext.py, which keeps number literals so that
   `1.0` is not an integer). Every frame is validated against all
   three levels of Schema/<version>/: message.schema.json (any message), the direction's schema and
   the per-type schema. Each level must give the vector's verdict. The only exceptions are what a
   level cannot see: message.schema.json and the per-type schema do not know the direction, so a
   vector whose only errors are `wrong_direction` is valid there; the per-type level applies only
   to frames that are objects with a `type` that has a per-type schema.
2. The vcproto binary (the path .ci/run passes): `vcproto validate --input frame --format json` on
   every frame, with the vector's direction and protocol version. It must give the vector's verdict,
   exactly the vector's set of error findings (pointer, code), and at least the listed warnings.
3. An oracle written here from the independent reference catalog of the vector's version
   (Reference/catalog-<version>.json, not from vcproto's catalog or Schema/): for every vector whose
   frame has one of that reference's types, the verdict the reference's facts imply (the type's
   status in that version, direction, requiredness, nullability, JSON types, nested shapes, the
   members of that version's variant, the closed sets, and the rules the reference states as
   backend error texts). Vectors that set an extension member the reference cannot know are
   skipped, as are the few vcproto-only value rules listed in VCPROTO_ONLY (each with its reason).

The exact findings of every vector, derived from the per-type schemas, are the reference peer's job
(tools/conformance_peer.py, run by `vcproto conformance` in CI); this script keeps the checks the peer
does not make: the verdicts of the aggregate schemas, the vcproto binary's `validate` path and the
independent reference catalog.

Prints one line per disagreement and `N passed, M failed` (a vector passes when every judge that
applies agrees); exits 1 on any disagreement.

    pip install jsonschema rfc3339-validator
    python3 tools/crosscheck_schema.py [path/to/vcproto]      # .ci/run: .build/debug/vcproto

Without an argument the binary is looked for at .build/debug/vcproto; when it is not built, judge 2
is skipped (and says so). A path given explicitly must exist.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

from jsonschema import Draft202012Validator, FormatChecker

from vcpeer import jsontext

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VERSIONS = ["0.2.0", "0.3.0", "0.4.0", "0.5.0"]
REFERENCES = {v: os.path.join(ROOT, "Reference", "catalog-%s.json" % v) for v in VERSIONS}


def parse(frame):
    return jsontext.parse(frame.encode("utf-8"))


def try_parse(frame):
    try:
        return True, parse(frame)
    except jsontext.ParseError:
        return False, None


def errors_of(v):
    return {(f["pointer"], f["code"]) for f in v.get("findings") or []}


def only_wrong_direction(v):
    codes = {c for _, c in errors_of(v)}
    return codes == {"wrong_direction"}


# ---------------------------------------------------------------------------------------------------
# Judge 1: the three schema levels.

class SchemaJudge:
    def __init__(self):
        self.checker = FormatChecker()
        if "date-time" not in self.checker.checkers:
            sys.exit("jsonschema lacks date-time checking: pip install rfc3339-validator")
        self.cache = {}

    def validator(self, path):
        if path not in self.cache:
            if not os.path.exists(path):
                self.cache[path] = None
            else:
                with open(path, encoding="utf-8") as f:
                    schema = json.load(f)
                Draft202012Validator.check_schema(schema)
                self.cache[path] = Draft202012Validator(schema, format_checker=self.checker)
        return self.cache[path]

    def judge(self, v):
        """Returns a list of disagreements (strings)."""
        base = os.path.join(ROOT, "Schema", v["protocol_version"])
        ok, value = try_parse(v["frame"])
        direction_blind = v["valid"] or only_wrong_direction(v)
        levels = [("message.schema.json", os.path.join(base, "message.schema.json"), direction_blind),
                  (v["direction"] + ".schema.json", os.path.join(base, v["direction"] + ".schema.json"), v["valid"])]
        if ok and isinstance(value, dict) and isinstance(value.get("type"), str):
            per_type = os.path.join(base, "types", value["type"] + ".schema.json")
            if os.path.exists(per_type):
                levels.append(("types/%s.schema.json" % value["type"], per_type, direction_blind))
        out = []
        for name, path, expected in levels:
            validator = self.validator(path)
            if validator is None:
                out.append("%s missing" % name)
                continue
            verdict = ok and validator.is_valid(value)
            if verdict != expected:
                out.append("jsonschema %s says %s, expected %s" % (name, verdict, expected))
        return out


# ---------------------------------------------------------------------------------------------------
# Judge 2: the vcproto binary.

def run_binary(binary, vectors):
    """Validates each vector's frame with `vcproto validate --input frame --format json`, one file per
    frame, batched per (direction, version). Returns {(version, id): (errors, warnings)}."""
    results = {}
    groups = {}
    for v in vectors:
        groups.setdefault((v["direction"], v["protocol_version"]), []).append(v)
    with tempfile.TemporaryDirectory() as tmp:
        for (direction, version), group in sorted(groups.items()):
            paths = {}
            for i, v in enumerate(group):
                path = os.path.join(tmp, "%s-%s-%d.json" % (version, direction, i))
                with open(path, "wb") as f:
                    f.write(v["frame"].encode("utf-8"))
                paths[path] = (version, v["id"])
            found = {path: (set(), set()) for path in paths}
            for chunk in range(0, len(group), 200):
                args = list(paths)[chunk:chunk + 200]
                run = subprocess.run([binary, "validate", "--input", "frame", "--format", "json",
                                      "--direction", direction, "--protocol", version] + args,
                                     capture_output=True, text=True)
                if run.returncode not in (0, 1):
                    sys.exit("vcproto validate failed (%d): %s" % (run.returncode, run.stderr.strip()))
                for line in run.stdout.splitlines():
                    record = json.loads(line)
                    if "summary" in record:
                        continue
                    errors, warnings = found[record["source"]]
                    (errors if record["severity"] == "error" else warnings).add((record["pointer"], record["code"]))
            for path, vid in paths.items():
                results[vid] = found[path]
    return results


def judge_binary(v, result):
    errors, warnings = result
    out = []
    if (not errors) != v["valid"]:
        out.append("vcproto binary says %s, expected %s" % (not errors, v["valid"]))
    if errors != errors_of(v):
        out.append("vcproto binary errors %s, expected %s" % (sorted(errors), sorted(errors_of(v))))
    listed = {(w["pointer"], w["code"]) for w in v.get("warnings") or []}
    if not listed <= warnings:
        out.append("vcproto binary warnings %s lack %s" % (sorted(warnings), sorted(listed - warnings)))
    return out


# ---------------------------------------------------------------------------------------------------
# Judge 3: the reference catalog oracle. Everything below reads catalog-0.2.0.json; nothing comes from
# vcproto's catalog, Schema/ or the vectors' findings.

# Members vcproto adds as negotiated extensions (STANDARDS.md#extensions and STANDARDS.md#negotiation): the reference cannot
# judge a frame that sets one, so such vectors are skipped. Listed by hand, not derived from Schema/.
# From 0.4.0 the real server has connect.protocol_version, connected.negotiated_protocol_version and
# error.code/required/received itself (versions.md section 3.2), so they are judged there.
EXTENSION_MEMBERS = {
    "connect": {"protocol_version", "protocol_versions", "capabilities", "auth_version", "client_nonce", "auth_response"},
    "hello": {"protocol_versions", "auth_versions", "capabilities", "challenge"},
    "connected": {"negotiated_protocol_version", "capabilities", "auth_version", "server_proof"},
    "prompt": {"idempotency_key"},
    "error": {"code", "required", "received", "supported", "requested", "message_id"},
}
REAL_FROM_0_4_0 = {"connect": {"protocol_version"}, "connected": {"negotiated_protocol_version"},
                   "error": {"code", "required", "received"}}


def extension_members(version, type_):
    members = EXTENSION_MEMBERS.get(type_, set())
    if VERSIONS.index(version) >= 2:
        members = members - REAL_FROM_0_4_0.get(type_, set())
    return members

# Closed sets. The reference lists values for many members (hello.message, recipe steps, ...) that are
# merely what the backend sends today; the protocol closes only these (issue 2: stream, role, command
# node type; `success` is a constant per type).
# Keyed by (message type, member name at any depth): `type` inside available_commands is the command
# node's (the frame's own `type` is not checked as a member).
CLOSED = {("command_output", "stream"), ("replay", "role"), ("available_commands", "type"),
          ("worktree_session_created", "success"), ("worktree_session_error", "success"),
          # from 0.3.0 (versions.md 2.2, 3.2, 4.2): the server refuses another provider; aborted,
          # streaming and file_replaced are only ever true; history roles and gap reasons are closed.
          ("prompt", "provider"), ("turn_complete", "aborted"), ("tts_speak", "streaming"),
          ("session_history", "file_replaced"), ("session_history", "role"), ("session_history", "reason")}

# vcproto rules the reference states nowhere as a checkable fact: vectors that rely on one are
# skipped here (jsonschema and the binary still judge them).
VCPROTO_ONLY = {  # keyed by (version, vector id)
    **{(v, "hello.invalid_value.version"): "format MAJOR.MINOR.PATCH; the reference only lists the values seen"
       for v in VERSIONS},
    **{(v, "error.missing.received"): "the reference shows required/received on every refusal (handshake), "
       "but states no rule for a frame without them" for v in VERSIONS[2:]},
    ("0.4.0", "session_history.invalid_value.seq"): "seq is 1-based (versions.md 3.2), not in the catalog's facts",
    ("0.5.0", "session_history.invalid_value.next_offset"): "an offset is a line index, never negative "
    "(versions.md 4.2); the catalog states no minimum",
    ("0.5.0", "session_history.invalid_value.offset"): "an offset is a line index, never negative "
    "(versions.md 4.2); the catalog states no minimum",
    ("0.4.0", "session_history.invalid_value.next_seq"): "next_seq is the count plus 1, so at least 1 "
    "(versions.md 3.3); the catalog states no minimum",
    ("0.4.0", "session_history.invalid_value.gap.requested_last_seq"): "the client's last_seq, which the server "
    "refuses when negative (versions.md 3.3); the catalog states no minimum",
}

INT64 = (-(2 ** 63), 2 ** 63 - 1)


class ReferenceOracle:
    def __init__(self, version, path):
        self.version = version
        self.variant = "v" + version
        with open(path, encoding="utf-8") as f:
            self.messages = {m["type"]: m for m in json.load(f)["messages"]}
        assert len(self.messages) == {"0.2.0": 63, "0.3.0": 67, "0.4.0": 68, "0.5.0": 68}[version], len(self.messages)

    def applies(self, v):
        """None when the oracle judges the vector, else the category of why not."""
        ok, value = try_parse(v["frame"])
        if not ok or not isinstance(value, dict) or value.get("type") not in self.messages:
            return "not one of the reference's types"
        if extension_members(self.version, value["type"]) & set(value):
            return "extension members"
        if (self.version, v["id"]) in VCPROTO_ONLY:
            return "vcproto-only rules"
        return None

    def fields_of(self, entry):
        """The entry's members in this version: a catalog covering several negotiated versions lists
        each variant's keys (`variants`); a member is required when `required` or this version is in
        its `required_in`."""
        fields = [f for f in entry["fields"] if f["name"] != "type"]
        variant = (entry.get("variants") or {}).get(self.variant)
        if isinstance(variant, dict):
            keys = variant.get("keys") or [k.rstrip("?") for k in variant.get("request_fields") or []]
            if keys:
                fields = [f for f in fields if f["name"] in keys]
        out = []
        for f in fields:
            f = dict(f)
            if self.variant in (f.get("required_in") or []):
                f["required"] = True
            out.append(f)
        return out

    def reason(self, v):
        """The first reason the reference rejects the frame, or None when it accepts it."""
        value = parse(v["frame"])
        entry = self.messages[value["type"]]
        if entry["status"] == "listed_in_review_but_nonexistent":
            return None  # not a real type: an unknown type is a warning, never an error
        if entry["status"] == "removed":
            return "removed in %s" % entry.get("removed_in")
        if entry["direction"] != v["direction"]:
            return "sent in the wrong direction"
        fields = self.fields_of(entry)
        why = self.check_object(value, fields, value["type"], "")
        if why:
            return why
        # Rules the reference states as the backend's error texts and notes.
        texts = [e.get("message") or "" for e in entry.get("errors") or []]
        if "Cannot specify both new_session_id and resume_session_id" in texts:
            if value.get("new_session_id") is not None and value.get("resume_session_id") is not None:
                return "both new_session_id and resume_session_id"
        for text in texts:  # "<member> must be a non-negative integer" (invalid_subscribe)
            name = text.split(" ")[0]
            if text.endswith("must be a non-negative integer") and value.get(name) is not None \
                    and any(f["name"] == name for f in fields):
                n = value[name]
                if not (isinstance(n, int) and not isinstance(n, bool) and n >= 0):
                    return "%s is not a non-negative integer" % name
        for e in entry.get("errors") or []:  # a member the version refuses when set
            if e.get("code") == "unsupported_subscribe_field" and self.version in (e.get("message") or ""):
                name = e["message"].split(" ")[0]
                if value.get(name) is not None:
                    return "%s refused in %s" % (name, self.version)
        for f in fields:
            if "pos-int?" in (f.get("notes") or "") and f["name"] in value:
                n = value[f["name"]]  # Clojure's pos-int?: a fixed-precision (64-bit) integer > 0
                if not (isinstance(n, int) and not isinstance(n, bool) and 0 < n <= INT64[1]):
                    return "%s is not pos-int?" % f["name"]
        return None

    def check_object(self, obj, fields, owner, path, node_fields=None):
        for f in fields:
            name = f["name"]
            if name not in obj:
                if f["required"]:
                    return "missing %s%s" % (path, name)
                continue
            value = obj[name]
            if value is None:
                if not f["nullable"]:
                    return "null %s%s" % (path, name)
                continue
            why = self.check_value(value, f, owner, path + name, node_fields or fields)
            if why:
                return why
        return None

    def check_value(self, value, f, owner, where, enclosing):
        kind = f["json_type"]
        is_int = isinstance(value, int) and not isinstance(value, bool)
        checks = {
            "string": isinstance(value, str),
            "integer": is_int and INT64[0] <= value <= INT64[1],
            "number": (is_int or isinstance(value, (float, jsontext.FloatLiteral))) and not isinstance(value, bool),
            "boolean": isinstance(value, bool),
            "string|array": isinstance(value, (str, list)),
            "object": isinstance(value, dict),
            "array": isinstance(value, list),
            "any": True,
        }
        if kind not in checks:
            raise SystemExit("reference json_type %r unknown to the oracle" % kind)
        if not checks[kind]:
            return "type %s" % where
        shape = f.get("shape")
        if isinstance(shape, dict) and "json_type" not in shape:  # one shape per variant
            if self.variant in shape:
                shape = shape[self.variant]
            else:  # several kinds of frame in this version: an element may match any of them
                alternatives = list(shape.values())
                for alt in alternatives:
                    if self.check_value(value, dict(f, shape=alt), owner, where, enclosing) is None:
                        return None
                return "%s matches no variant" % where
        if kind == "array" and isinstance(shape, dict) and shape.get("json_type") == "object":
            shape = {"json_type": "array", "items": shape}
        if isinstance(shape, str) and "recursive" in shape:
            shape = {"json_type": "array", "items": {"json_type": "object", "fields": enclosing}}
        if kind == "object" and isinstance(shape, dict) and shape.get("fields"):
            why = self.check_object(value, shape["fields"], owner, where + ".")
            if why:
                return why
        if kind == "array" and isinstance(shape, dict) and isinstance(shape.get("items"), dict):
            item = shape["items"]
            for i, element in enumerate(value):
                if element is None:
                    return "null %s[%d]" % (where, i)
                if item.get("json_type") == "object":
                    if not isinstance(element, dict):
                        return "type %s[%d]" % (where, i)
                    why = self.check_object(element, item.get("fields") or [], owner, "%s[%d]." % (where, i),
                                            item.get("fields"))
                    if why:
                        return why
        if f.get("enum") and (owner, f["name"]) in CLOSED and value not in f["enum"]:
            return "%s not in %s" % (where, f["enum"])
        return None


# ---------------------------------------------------------------------------------------------------

def main():
    explicit = len(sys.argv) > 1
    binary = sys.argv[1] if explicit else os.path.join(ROOT, ".build", "debug", "vcproto")
    if explicit and not os.access(binary, os.X_OK):
        sys.exit("vcproto binary not found: %s" % binary)
    use_binary = os.access(binary, os.X_OK)
    for path in REFERENCES.values():
        if not os.path.exists(path):
            sys.exit("reference catalog not found: %s" % os.path.normpath(path))

    vectors = []
    for path in sorted(glob.glob(os.path.join(ROOT, "Vectors", "messages", "**", "*.json"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            vectors.extend(json.load(f))
    seen = {v["protocol_version"] for v in vectors}
    if seen != set(VERSIONS):
        sys.exit("vectors cover %s, expected every version %s" % (sorted(seen), VERSIONS))

    schemas = SchemaJudge()
    oracles = {version: ReferenceOracle(version, path) for version, path in REFERENCES.items()}
    results = run_binary(binary, vectors) if use_binary else {}
    passed = failed = judged_by_oracle = 0
    skipped = {}
    for v in vectors:
        problems = schemas.judge(v)
        if use_binary:
            problems += judge_binary(v, results[(v["protocol_version"], v["id"])])
        oracle = oracles[v["protocol_version"]]
        why_not = oracle.applies(v)
        if why_not is None:
            judged_by_oracle += 1
            reason = oracle.reason(v)
            if (reason is None) != v["valid"]:
                problems.append("reference catalog says %s, expected %s" % (
                    "valid" if reason is None else "invalid (%s)" % reason, v["valid"]))
        else:
            skipped[why_not] = skipped.get(why_not, 0) + 1
        if problems:
            failed += 1
            for p in problems:
                print("DISAGREE %s %s: %s" % (v["protocol_version"], v["id"], p))
        else:
            passed += 1
    for vid in VCPROTO_ONLY:
        if vid not in {(v["protocol_version"], v["id"]) for v in vectors}:
            failed += 1
            print("STALE VCPROTO_ONLY entry %s: no such vector" % vid)
    print("judges: jsonschema (3 levels), %s, reference oracle on %d vectors (skipped: %s)" % (
        "vcproto binary %s" % binary if use_binary else "vcproto binary SKIPPED (not built)",
        judged_by_oracle, ", ".join("%d %s" % (n, k) for k, n in sorted(skipped.items()))))
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed or not passed else 0)


if __name__ == "__main__":
    main()

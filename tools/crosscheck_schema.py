#!/usr/bin/env python3
"""Independent cross-check: Python's jsonschema must give every message vector the verdict vcproto gives.

Each vector in Vectors/messages/ is validated against Schema/<version>/<direction>.schema.json with
jsonschema's Draft 2020-12 validator and format checking (date-time, uuid), after a strict parse that
rejects duplicate keys and NaN/Infinity. The verdict must equal the vector's `valid`, which the Swift
tests hold vcproto to. Prints one line per disagreement and `N passed, M failed`; exits 1 on any.

    pip install jsonschema rfc3339-validator
    python3 tools/crosscheck_schema.py
"""
import glob
import json
import os
import sys

from jsonschema import Draft202012Validator, FormatChecker

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def strict_object(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("duplicate key")
    return dict(pairs)


def reject_constant(name):
    raise ValueError("not JSON: " + name)


def parse(frame):
    return json.loads(frame, object_pairs_hook=strict_object, parse_constant=reject_constant)


def main():
    checker = FormatChecker()
    if "date-time" not in checker.checkers:
        sys.exit("jsonschema lacks date-time checking: pip install rfc3339-validator")
    validators = {}
    passed = failed = 0
    for path in sorted(glob.glob(os.path.join(ROOT, "Vectors", "messages", "*.json"))):
        with open(path, encoding="utf-8") as f:
            vectors = json.load(f)
        for v in vectors:
            key = (v["protocol_version"], v["direction"])
            if key not in validators:
                with open(os.path.join(ROOT, "Schema", key[0], key[1] + ".schema.json")) as f:
                    schema = json.load(f)
                Draft202012Validator.check_schema(schema)
                validators[key] = Draft202012Validator(schema, format_checker=checker)
            try:
                verdict = validators[key].is_valid(parse(v["frame"]))
            except ValueError:
                verdict = False
            if verdict == v["valid"]:
                passed += 1
            else:
                failed += 1
                print("DISAGREE %s: jsonschema says %s, vcproto says %s" % (v["id"], verdict, v["valid"]))
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed or not passed else 0)


if __name__ == "__main__":
    main()

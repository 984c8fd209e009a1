"""Message frames judged from Schema/<version>/ with Python's jsonschema (Draft 2020-12).

The verdict and every finding come from the generated schemas, not from vcproto's code:

- frame level, in code (JSON Schema cannot see these): invalid_utf8, invalid_json, duplicate_key
  (jsontext.parse), not_an_object, missing_type, `wrong_type` at /type;
- which types exist: message.schema.json dispatches each type of the version with `if type = X then
  $ref`, and names the types of other versions in its top-level `not` (not_in_version); a type in
  neither is unknown_type (a warning; the frame is kept whole); a type the frame's direction schema
  does not dispatch is wrong_direction (the members are still checked);
- members: types/<type>.schema.json, each jsonschema error mapped to a code (`map_error`): `required`
  -> missing_field at the missing member; `type` or `not {type: null}` on `null` -> null_not_allowed,
  else wrong_type; an `anyOf`/`oneOf` of alternatives -> the alternative whose JSON type the value
  has decides (none: wrong_type); const, enum, pattern, format, minimum, maximum -> invalid_value;
  maxItems (only on the handshake lists of hello, connect and connected, STANDARDS.md#limits)
  -> handshake_list_too_long at the list;
- number literals: an integer member takes an integer literal only (a Decimal is never a JSON Schema
  integer) and a number that overflows a double is invalid_value;
- rules across members: the type schema's top-level `allOf` entries, read by their structure:
  `oneOf` of `required` alternatives (exactly one: none set -> missing_field at the first, several
  -> constraint_violation at the second set one), `if`/`then` (a requires b: constraint_violation at
  b), `not` of `allOf` requireds (mutually exclusive: constraint_violation at the second set one);
  a member counts as set when present and not null;
- rules that make members required when a member has a value (`if` a const `then` an `allOf` of
  requireds): missing_field at each of them that is unset;
- warnings: unexpected_field for members the schema does not declare, at any depth (not inside a
  record passed through whole, `additionalProperties: true`).

The canonical re-encoding of a valid frame (STANDARDS.md#encoding): `type` first, then the members
in the order of the schema's `properties`, then undeclared members in received order, recursively
through objects the schema describes; an optional member that is `null` is omitted. An object whose
schema says `additionalProperties: true` (a raw Claude record) is a record passed through whole and
keeps its members as received.
"""
import os

from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError
from jsonschema.validators import extend

from . import jsontext

INVALID_VALUE_KEYWORDS = {"const", "enum", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
                          "exclusiveMaximum", "minLength", "maxLength", "multipleOf", "finite"}


def _type_with_finite_numbers(validator, types, instance, schema):
    """JSON Schema's `type`, plus vcproto's rule that a `number` must fit a double."""
    yield from Draft202012Validator.VALIDATORS["type"](validator, types, instance, schema)
    wanted = types if isinstance(types, list) else [types]
    if "number" in wanted and isinstance(instance, jsontext.FloatLiteral) and not instance.is_finite_double():
        yield ValidationError("%s is not a finite double" % instance.text, validator="finite")


Validator = extend(Draft202012Validator, {"type": _type_with_finite_numbers})


def _pointer(tokens):
    return "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in tokens)


def _is_set(obj, name):
    return name in obj and obj[name] is not None


class Version:
    """The schemas of one protocol version."""

    def __init__(self, folder):
        self.folder = folder
        self.format_checker = FormatChecker()
        if "date-time" not in self.format_checker.checkers:
            raise SystemExit("jsonschema lacks date-time checking: pip install rfc3339-validator")
        message = self._load("message.schema.json")
        self.types = self._dispatched(message)
        self.other_versions = set(message.get("not", {}).get("properties", {}).get("type", {}).get("enum", []))
        self.directions = {}
        for direction in ("client_to_server", "server_to_client"):
            self.directions[direction] = self._dispatched(self._load(direction + ".schema.json"))
        self.validators = {}

    def _load(self, name):
        import json
        with open(os.path.join(self.folder, name), encoding="utf-8") as f:
            return json.load(f)

    @staticmethod
    def _dispatched(schema):
        out = set()
        for entry in schema.get("allOf", []):
            const = entry.get("if", {}).get("properties", {}).get("type", {}).get("const")
            if const is not None:
                out.add(const)
        return out

    def validator(self, type_name):
        if type_name not in self.validators:
            schema = self._load(os.path.join("types", type_name + ".schema.json"))
            self.validators[type_name] = Validator(schema, format_checker=self.format_checker)
        return self.validators[type_name]


class Judge:
    """Findings for frames of every version under Schema/."""

    def __init__(self, schema_root):
        self.folder = schema_root
        self.root = None  # the type schema being judged
        self.versions = {}

    def version(self, name):
        if name not in self.versions:
            folder = os.path.join(self.folder, name)
            self.versions[name] = Version(folder) if os.path.isdir(folder) else None
        return self.versions[name]

    def judge(self, frame, direction, version_name):
        """Returns (errors, warnings, canonical text or None); each finding a (pointer, code)."""
        version = self.version(version_name)
        if version is None:
            raise Unsupported("protocol version %s has no schema" % version_name)
        try:
            value = jsontext.parse(frame.encode("utf-8"))
        except jsontext.ParseError as error:
            return [("", error.code)], [], None
        if not isinstance(value, dict):
            return [("", "not_an_object")], [], None
        if "type" not in value:
            return [("/type", "missing_type")], [], None
        type_name = value["type"]
        if not isinstance(type_name, str):
            return [("/type", "wrong_type")], [], None
        if type_name in version.other_versions:
            return [("/type", "not_in_version")], [], None
        if type_name not in version.types:
            return [], [("/type", "unknown_type")], jsontext.write(value)
        errors = []
        if direction is not None and type_name not in version.directions[direction]:
            errors.append(("/type", "wrong_direction"))
        validator = version.validator(type_name)
        schema = self.root = validator.schema
        for error in validator.iter_errors(value):
            path = list(error.absolute_schema_path)
            if path and path[0] == "allOf":
                errors.extend(self.rule(schema["allOf"][path[1]], value))
            else:
                errors.extend(self.map_error(validator, error, []))
        warnings = self.undeclared(validator, value, schema, [])
        # A value check applies only to a value of the right type (an enum member that is `null`
        # is null_not_allowed alone).
        mistyped = {p for p, c in errors if c in ("wrong_type", "null_not_allowed")}
        errors = sorted({(p, c) for p, c in errors if not (c == "invalid_value" and p in mistyped)})
        canonical = None if errors else jsontext.write(self.canonical(validator, value, schema, top=True))
        return errors, warnings, canonical

    # -- jsonschema errors to findings -----------------------------------------------------------

    def map_error(self, validator, error, base):
        path = base + list(error.absolute_path)
        keyword = error.validator
        instance = error.instance
        if keyword == "required":
            return [(_pointer(path + [name]), "missing_field")
                    for name in error.validator_value if name not in instance]
        if keyword in ("type", "not"):
            return [(_pointer(path), "null_not_allowed" if instance is None else "wrong_type")]
        if keyword in ("anyOf", "oneOf"):
            if instance is None:
                return [(_pointer(path), "null_not_allowed")]
            for branch in error.validator_value:
                if self.type_matches(validator, branch, instance):
                    sub = validator.evolve(schema=branch)
                    out = []
                    for inner in sub.iter_errors(instance):
                        out.extend(self.map_error(sub, inner, path))
                    return out
            return [(_pointer(path), "wrong_type")]
        if keyword in INVALID_VALUE_KEYWORDS:
            return [(_pointer(path), "invalid_value")]
        if keyword == "maxItems":
            return [(_pointer(path), "handshake_list_too_long")]
        return [(_pointer(path), "unmapped_" + str(keyword))]

    def type_matches(self, validator, schema, instance):
        """Whether `instance` has the JSON type an alternative describes (its `type`, through
        `$ref`; an alternative without one, such as `not {type: null}`, takes any value)."""
        schema = self.resolve(validator, schema)
        if not isinstance(schema, dict) or "type" not in schema:
            return True
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        return any(validator.is_type(instance, t) for t in types)

    def resolve(self, validator, schema):
        """Follows `$ref`s; the generated schemas use local ones only (`#/$defs/Name`), resolved in
        the type schema being judged (no jsonschema internals, so any 4.x version will do)."""
        while isinstance(schema, dict) and "$ref" in schema:
            ref = schema["$ref"]
            if not ref.startswith("#"):
                raise ValueError("non-local $ref %s" % ref)
            schema = self.root
            for token in ref[1:].split("/")[1:]:
                schema = schema[token.replace("~1", "/").replace("~0", "~")]
        return schema

    @staticmethod
    def rule(entry, obj):
        """The finding of a broken rule across members (the type schema's `allOf` entry)."""
        if "oneOf" in entry:
            names = [alternative["required"][0] for alternative in entry["oneOf"]]
            present = [n for n in names if _is_set(obj, n)]
            if not present:
                return [(_pointer([names[0]]), "missing_field")]
            return [(_pointer([present[1] if len(present) > 1 else present[0]]), "constraint_violation")]
        if "then" in entry and "allOf" in entry["then"]:
            # A condition on a value makes members required: each one unset is missing.
            names = [part["required"][0] for part in entry["then"]["allOf"]]
            return [(_pointer([n]), "missing_field") for n in names if not _is_set(obj, n)]
        if "then" in entry:
            return [(_pointer([entry["then"]["required"][0]]), "constraint_violation")]
        if "not" in entry:
            names = [part["required"][0] for part in entry["not"]["allOf"]]
            present = [n for n in names if _is_set(obj, n)]
            return [(_pointer([present[1]]), "constraint_violation")]
        return [("", "unmapped_rule")]

    def undeclared(self, validator, value, schema, path):
        """unexpected_field for each member the schema does not declare, at any depth (not inside
        a record passed through whole, `additionalProperties: true`)."""
        schema = self.resolve(validator, schema)
        if not isinstance(schema, dict):
            return []
        for key in ("anyOf", "oneOf"):
            for branch in schema.get(key, []):
                if self.type_matches(validator, branch, value):
                    return self.undeclared(validator, value, branch, path)
        out = []
        if isinstance(value, dict) and "properties" in schema and schema.get("additionalProperties") is not True:
            declared = schema["properties"]
            for name, member in value.items():
                if name not in declared:
                    out.append((_pointer(path + [name]), "unexpected_field"))
                elif member is not None:
                    out.extend(self.undeclared(validator, member, declared[name], path + [name]))
        if isinstance(value, list) and isinstance(schema.get("items"), dict):
            for i, item in enumerate(value):
                out.extend(self.undeclared(validator, item, schema["items"], path + [i]))
        return out

    # -- canonical encoding ----------------------------------------------------------------------

    def canonical(self, validator, value, schema, top=False):
        schema = self.resolve(validator, schema)
        if not isinstance(schema, dict):
            return value
        for key in ("anyOf", "oneOf"):
            if key in schema:
                for branch in schema[key]:
                    if self.type_matches(validator, branch, value):
                        return self.canonical(validator, value, branch)
                return value
        if isinstance(value, dict) and schema.get("additionalProperties") is True:
            return value  # a record passed through whole keeps its members as received
        if isinstance(value, dict) and "properties" in schema:
            declared = schema["properties"]
            required = set(schema.get("required", []))
            out = {}
            if top and "type" in value:
                out["type"] = value["type"]
            for name, member in declared.items():
                if name in value and name not in out:
                    if value[name] is None and name not in required:
                        continue
                    out[name] = self.canonical(validator, value[name], member)
            for name, member in value.items():
                if name not in declared:
                    out[name] = member
            return out
        if isinstance(value, list) and isinstance(schema.get("items"), dict):
            return [self.canonical(validator, v, schema["items"]) for v in value]
        return value


class Unsupported(Exception):
    """A request this peer cannot answer (for example a protocol version without a schema)."""


def answer(judge, request):
    errors, warnings, canonical = judge.judge(request["frame"], request.get("direction"),
                                              request.get("protocol_version") or "0.2.0")
    result = {"valid": not errors,
              "findings": [{"pointer": p, "code": c} for p, c in errors],
              "warnings": [{"pointer": p, "code": c} for p, c in warnings]}
    if canonical is not None:
        result["canonical"] = canonical
    return result

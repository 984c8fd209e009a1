#!/usr/bin/env python3
"""msgspec Structs generated from Schema/VERSION/*.schema.json: the typed contender of Benchmarks/peers.py.

    python3 Benchmarks/msgspec_structs.py 0.5.0          # prints the generated module
    import msgspec_structs; m = msgspec_structs.load("0.5.0")   # m.Message, m.ClientToServer, ...

The Structs check what msgspec can check of what vcproto checks: required members, nulls (a member
that may be absent but not null is `T | UnsetType`), JSON types, enums and consts (`Literal`), integer
ranges (`Meta(ge, le)`), patterns, `maxItems`, the date-time and uuid formats (`datetime`, `UUID`),
and the cross-member rules of the schemas (oneOf, if/then, not, in `__post_init__`, which msgspec runs
while decoding). Members the schemas leave untyped (`not null`, bare objects) decode to Python values;
the open records of raw Claude Code history (`additionalProperties: true`: `ClaudeRecord`) are kept
whole as dicts, so nothing is lost in a round trip, and checked against their Struct with
`msgspec.convert` in the container's `__post_init__`. Every message type is a Struct tagged by `type`;
a frame of an unknown type is rejected (vcproto accepts it with a warning).

Anything in a schema the generator cannot express raises, so a schema change cannot silently weaken
the contender.
"""
import json
import keyword
import os
import sys
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IGNORED = {"description", "title", "examples", "default", "$comment"}


class Generator:
    def __init__(self, schema):
        self.defs = schema["$defs"]
        self.classes = {}  # def name -> class name
        self.lines = []  # generated class bodies, in order
        self.pending = []
        self.helpers = 0

    @staticmethod
    def class_name(name):
        if name.startswith("message."):
            return "M_" + name[len("message."):]
        return name

    def open_record(self, name):
        return self.defs[name].get("additionalProperties") is True

    def ref(self, schema):
        return schema["$ref"].split("/")[-1]

    def struct_for(self, name):
        if name not in self.classes:
            self.classes[name] = self.class_name(name)
            self.pending.append(name)
        return self.classes[name]

    # --- types -------------------------------------------------------------------------------------

    def annotation(self, schema, owner, member, checks, path, top):
        """The msgspec type of `schema`; appends post-init checks for what the type cannot say."""
        keys = set(schema) - IGNORED
        if "$ref" in schema:
            if keys != {"$ref"}:
                raise ValueError(f"{owner}.{member}: $ref with {keys}")
            name = self.ref(schema)
            if top and self.open_record(name):
                # Kept whole as a dict (nothing lost), checked against the record's Struct.
                checks.append(("record", path, self.struct_for(name)))
                return "dict[str, Any]"
            return self.struct_for(name)
        if "anyOf" in schema:
            if keys != {"anyOf"}:
                raise ValueError(f"{owner}.{member}: anyOf with {keys}")
            # An alternative that admits nothing (`enum: []`, a member gone from the version) drops out.
            parts = [self.annotation(s, owner, member, checks, path, top) for s in schema["anyOf"]
                     if s.get("enum") != []]
            return " | ".join(parts)
        if keys == {"not"} and schema["not"] == {"type": "null"}:
            return "NonNull"
        if "const" in schema:
            if keys - {"const", "type"}:
                raise ValueError(f"{owner}.{member}: const with {keys}")
            return f"Literal[{schema['const']!r}]"
        if "enum" in schema:
            if keys - {"enum", "type"}:
                raise ValueError(f"{owner}.{member}: enum with {keys}")
            return "Literal[" + ", ".join(repr(v) for v in schema["enum"]) + "]"
        kind = schema.get("type")
        if kind == "null":
            return "None"
        if kind == "boolean":
            self.only(schema, {"type"}, owner, member)
            return "bool"
        if kind == "number":
            return self.meta("float", schema, {"minimum": "ge", "maximum": "le"}, owner, member)
        if kind == "integer":
            return self.meta("int", schema, {"minimum": "ge", "maximum": "le"}, owner, member)
        if kind == "string":
            fmt = schema.get("format")
            if fmt == "date-time":
                self.only(schema, {"type", "format"}, owner, member)
                return "datetime"
            if fmt == "uuid":
                self.only(schema, {"type", "format"}, owner, member)
                return "UUID"
            if fmt is not None:
                raise ValueError(f"{owner}.{member}: format {fmt}")
            return self.meta("str", schema, {"pattern": "pattern", "minLength": "min_length",
                                             "maxLength": "max_length"}, owner, member)
        if kind == "array":
            item = self.annotation(schema.get("items", {}), owner, member, checks, path + ("*",), top)
            return self.meta(f"list[{item}]", schema, {"maxItems": "max_length", "minItems": "min_length"},
                             owner, member, extra={"items"})
        if kind == "object":
            if "properties" in schema:
                name = f"{owner}_{member}"
                self.defs[name] = schema
                return self.struct_for(name)
            self.only(schema, {"type", "additionalProperties"}, owner, member)
            return "dict[str, Any]"
        if not keys:
            return "Any"
        raise ValueError(f"{owner}.{member}: cannot express {schema}")

    def only(self, schema, allowed, owner, member):
        extra = set(schema) - IGNORED - allowed
        if extra:
            raise ValueError(f"{owner}.{member}: cannot express {sorted(extra)}")

    def meta(self, base, schema, mapping, owner, member, extra=()):
        self.only(schema, {"type", *mapping, *extra}, owner, member)
        args = [f"{mapping[k]}={schema[k]!r}" for k in mapping if k in schema]
        return f"Annotated[{base}, Meta({', '.join(args)})]" if args else base

    # --- cross-member rules ------------------------------------------------------------------------

    def condition(self, schema, fields):
        """A Python expression over `self` that is true when the object satisfies `schema` (the subset
        of JSON Schema the cross-member rules use: required, properties with not-null/const/enum,
        allOf, anyOf, oneOf, not, if/then)."""
        parts = []
        for key, value in schema.items():
            if key in IGNORED:
                continue
            if key == "required":
                parts += [f"self.{fields[m]} is not UNSET" for m in value]
            elif key == "properties":
                for m, sub in value.items():
                    attr = f"self.{fields[m]}"
                    if sub == {"not": {"type": "null"}}:
                        parts.append(f"{attr} is not None")
                    elif set(sub) - IGNORED == {"const"}:
                        parts.append(f"({attr} is UNSET or {attr} == {sub['const']!r})")
                    elif set(sub) - IGNORED == {"enum"}:
                        parts.append(f"({attr} is UNSET or {attr} in {tuple(sub['enum'])!r})")
                    else:
                        raise ValueError(f"rule on {m}: cannot express {sub}")
            elif key == "allOf":
                parts += [self.condition(s, fields) for s in value]
            elif key == "anyOf":
                parts.append("(" + " or ".join(self.condition(s, fields) for s in value) + ")")
            elif key == "oneOf":
                parts.append("(" + " + ".join(f"bool({self.condition(s, fields)})" for s in value) + " == 1)")
            elif key == "not":
                parts.append(f"not ({self.condition(value, fields)})")
            elif key == "if":
                then = self.condition(schema.get("then", {}), fields)
                parts.append(f"(not ({self.condition(value, fields)}) or ({then}))")
            elif key == "then":
                continue
            else:
                raise ValueError(f"rule: cannot express {key}")
        return "(" + " and ".join(parts) + ")" if parts else "True"

    # --- classes -----------------------------------------------------------------------------------

    def emit(self, name, tag=None):
        schema = self.defs[name]
        cls = self.class_name(name)
        self.classes[name] = cls
        self.only(schema, {"type", "required", "properties", "allOf", "additionalProperties"}, name, "")
        required = set(schema.get("required", []))
        props = schema.get("properties", {})
        fields = {}
        body = []
        checks = []
        for member, sub in props.items():
            if tag is not None and member == "type":
                continue
            attr = member if member.isidentifier() and not keyword.iskeyword(member) else "m_" + \
                "".join(c if c.isalnum() else "_" for c in member)
            fields[member] = attr
            annotation = self.annotation(sub, cls, member, checks, (attr,), True)
            rename = f'name="{member}"' if attr != member else ""
            if member in required:
                default = f" = msgspec.field({rename})" if rename else ""
            else:
                annotation += " | UnsetType"
                default = f" = msgspec.field(default=UNSET{', ' + rename if rename else ''})"
            body.append(f"    {attr}: {annotation}{default}")
        options = ["kw_only=True"]
        if tag is not None:
            options += [f'tag="{tag}"', 'tag_field="type"']
        lines = [f"class {cls}(msgspec.Struct, {', '.join(options)}):"]
        lines += body or ["    pass"]
        post = []
        for index, rule in enumerate(schema.get("allOf", [])):
            post.append(f"        if not {self.condition(rule, fields)}:")
            post.append(f"            raise ValueError('{name}: cross-member rule {index} violated')")
        for _, path, struct in checks:
            post += self.record_check(path, struct)
        if post:
            lines += ["", "    def __post_init__(self):"] + post
        self.lines.append("\n".join(lines))

    def record_check(self, path, struct):
        """Statements converting the open record(s) at `path` (attribute, then `*` per list level)."""
        value = f"self.{path[0]}"
        indent = "        "
        out = [f"{indent}if {value} is not UNSET and {value} is not None:"]
        indent += "    "
        for depth, step in enumerate(path[1:]):
            out.append(f"{indent}for item{depth} in {value}:")
            value = f"item{depth}"
            indent += "    "
        out.append(f"{indent}msgspec.convert({value}, {struct})")
        return out

    def module(self, unions):
        tags = {}
        for union, names in unions.items():
            for name in names:
                if name not in tags:
                    tags[name] = name[len("message."):]
                    self.emit(name, tag=tags[name])
        while self.pending:
            name = self.pending.pop(0)
            if not any(line.startswith(f"class {self.class_name(name)}(") for line in self.lines):
                self.emit(name)
        head = [
            "# Generated by Benchmarks/msgspec_structs.py from Schema/: do not edit.",
            "from __future__ import annotations",
            "from datetime import datetime",
            "from typing import Annotated, Any, Literal, Union",
            "from uuid import UUID",
            "import msgspec",
            "from msgspec import Meta, UNSET, UnsetType",
            "",
            "NonNull = Union[dict[str, Any], list[Any], str, int, float, bool]",
        ]
        tail = []
        for union, names in unions.items():
            tail.append(f"{union} = Union[{', '.join(self.class_name(n) for n in names)}]")
        return "\n".join(head) + "\n\n\n" + "\n\n\n".join(self.lines) + "\n\n\n" + "\n".join(tail) + "\n"


def message_types(path):
    """The message defs a union file dispatches to (its allOf of if type == X then $ref)."""
    with open(path) as f:
        schema = json.load(f)
    names = []
    for rule in schema.get("allOf", []):
        ref = rule.get("then", {}).get("$ref")
        if ref:
            names.append(ref.split("/")[-1])
    return schema, names


def without_annotations(value):
    """`value` without the catalog's `x-vcproto-*` annotations (engine facts that validators ignore)."""
    if isinstance(value, dict):
        return {k: without_annotations(v) for k, v in value.items() if not k.startswith("x-vcproto-")}
    if isinstance(value, list):
        return [without_annotations(v) for v in value]
    return value


def source(version):
    base = os.path.join(ROOT, "Schema", version)
    schema, everything = message_types(os.path.join(base, "message.schema.json"))
    schema = without_annotations(schema)
    _, client = message_types(os.path.join(base, "client_to_server.schema.json"))
    _, server = message_types(os.path.join(base, "server_to_client.schema.json"))
    unions = {"Message": everything, "ClientToServer": client, "ServerToClient": server}
    return Generator(schema).module(unions)


def load(version):
    """The generated module for `version` (Message, ClientToServer, ServerToClient unions)."""
    name = "vcproto_msgspec_" + version.replace(".", "_")
    if name in sys.modules:
        return sys.modules[name]
    module = types.ModuleType(name)
    module.__source__ = source(version)
    sys.modules[name] = module
    exec(compile(module.__source__, f"<msgspec structs {version}>", "exec"), module.__dict__)
    return module


if __name__ == "__main__":
    print(source(sys.argv[1] if len(sys.argv) > 1 else "0.5.0"), end="")

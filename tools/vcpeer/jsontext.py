"""Strict JSON for the reference peer (STANDARDS.md#encoding).

`parse` rejects what a vcproto receiver rejects (invalid UTF-8, a byte-order mark, lone surrogate
escapes, NaN/Infinity, duplicate keys, trailing data) and keeps what the canonical encoding needs:
member order (dicts keep insertion order) and every number's literal text (`IntLiteral`,
`FloatLiteral`). `canonical` writes a value compactly with vcproto's escaping rules.
"""
import decimal
import json


class IntLiteral(int):
    """An integer literal; `text` is exactly as received (`-0` stays `-0`)."""

    def __new__(cls, text):
        value = super().__new__(cls, int(text))
        value.text = text
        return value


class FloatLiteral(decimal.Decimal):
    """A number literal with a fraction or an exponent. It is a Decimal, not a float, so that
    JSON Schema's `integer` refuses `1.0` (vcproto: `wrong_type`) and `1e400` keeps its value."""

    def __new__(cls, text):
        value = super().__new__(cls, text)
        value.text = text
        return value

    def is_finite_double(self):
        return float(self) not in (float("inf"), float("-inf"))


class ParseError(Exception):
    """`code` is the finding code: invalid_utf8, invalid_json or duplicate_key."""

    def __init__(self, code, why):
        super().__init__(why)
        self.code = code


def _object(pairs):
    keys = [key for key, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ParseError("duplicate_key", "an object repeats a key")
    return dict(pairs)


def _constant(name):
    raise ParseError("invalid_json", "not JSON: %s" % name)


def _has_lone_surrogate(value):
    if isinstance(value, str):
        return any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, list):
        return any(_has_lone_surrogate(v) for v in value)
    if isinstance(value, dict):
        return any(_has_lone_surrogate(k) or _has_lone_surrogate(v) for k, v in value.items())
    return False


def parse(data):
    """Parses UTF-8 bytes (or text) into Python values; raises ParseError."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ParseError("invalid_utf8", str(error))
    else:
        text = data
    if text.startswith("\ufeff"):
        raise ParseError("invalid_json", "byte-order mark")
    try:
        value = json.loads(text, object_pairs_hook=_object, parse_int=IntLiteral, parse_float=FloatLiteral,
                           parse_constant=_constant)
    except json.JSONDecodeError as error:
        raise ParseError("invalid_json", str(error))
    # Python decodes "\ud800" to a lone surrogate; a pair becomes one scalar.
    if _has_lone_surrogate(value):
        raise ParseError("invalid_json", "lone surrogate escape")
    return value


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def write_string(s):
    out = ['"']
    for c in s:
        if c in _ESCAPES:
            out.append(_ESCAPES[c])
        elif ord(c) < 0x20:
            out.append("\\u%04x" % ord(c))
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def write(value):
    """Compact JSON text: members in the dict's order, numbers as their literals, `/` and
    non-ASCII text raw, only `"`, `\\` and control characters escaped."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (IntLiteral, FloatLiteral)):
        return value.text
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return write_string(value)
    if isinstance(value, list):
        return "[" + ",".join(write(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(write_string(k) + ":" + write(v) for k, v in value.items()) + "}"
    raise TypeError("cannot write %r" % (value,))

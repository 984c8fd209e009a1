"""The catalog's conversation facts, read from Schema/ rather than copied (STANDARDS.md#state-machine).

vcproto's schema generator writes them from its catalog as annotations JSON Schema validators ignore
(Vectors/README.md): on a message `x-vcproto-before-authentication` (it may cross before the
connection is authenticated); on a request `x-vcproto-answers`, `x-vcproto-refusal-types` (the frame
types that end it), `x-vcproto-refusals` (the `error` messages that refuse it, `<...>` any text),
`x-vcproto-followed-by` (what the server sends after the answer, for the same request), `x-vcproto-slow`
and `x-vcproto-session-scoped`; on a server frame
`x-vcproto-ends-only-its-sessions-request`; on a member `x-vcproto-clamp` and `x-vcproto-lengths`
(what a server holds an integer within, and the string lengths it accepts) next to `default`.

The engines use them over every version at once (a type only some versions have, such as 0.2.0's
`session_locked`, simply never arrives on the others), so the facts here are the union over
Schema/<version>/, oldest version first, each list in declaration order without repeats.
"""
import json
import os

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "Schema")
DIRECTIONS = ("client_to_server", "server_to_client")


def _versions(root):
    def key(name):
        return tuple(int(part) for part in name.split("."))
    return sorted((name for name in os.listdir(root) if os.path.isdir(os.path.join(root, name))), key=key)


def _messages(root):
    """(direction, type, schema) of every message of every version, oldest version first."""
    for version in _versions(root):
        for direction in DIRECTIONS:
            with open(os.path.join(root, version, direction + ".schema.json"), encoding="utf-8") as f:
                envelope = json.load(f)
            for name, schema in envelope.get("$defs", {}).items():
                if name.startswith("message."):
                    yield direction, name[len("message."):], schema


def _append(table, kind, items):
    listed = table.setdefault(kind, [])
    listed.extend(item for item in items if item not in listed)


def load(root=SCHEMA):
    """The facts as a dict: answers, refusals, slow, before_authentication (per direction), members."""
    answers, refusals, slow, scoped, bound, followed = {}, {}, set(), set(), set(), {}
    before = {direction: set() for direction in DIRECTIONS}
    members = {}  # (type, member) -> the member's schema (its newest declaration)
    for direction, kind, schema in _messages(root):
        if schema.get("x-vcproto-before-authentication"):
            before[direction].add(kind)
        ends = schema.get("x-vcproto-answers", []) + schema.get("x-vcproto-refusal-types", [])
        if ends:
            _append(answers, kind, ends)
        if schema.get("x-vcproto-refusals"):
            _append(refusals, kind, schema["x-vcproto-refusals"])
        if schema.get("x-vcproto-followed-by"):
            after, then = followed.setdefault(kind, (set(), []))
            after.update(schema.get("x-vcproto-answers", []))
            then.extend(t for t in schema["x-vcproto-followed-by"] if t not in then)
        if schema.get("x-vcproto-slow"):
            slow.add(kind)
        if schema.get("x-vcproto-session-scoped"):
            scoped.add(kind)
        if schema.get("x-vcproto-ends-only-its-sessions-request"):
            bound.add(kind)
        for name, member in schema.get("properties", {}).items():
            members[(kind, name)] = member
    return {"answers": answers, "refusals": refusals, "slow": slow, "session_scoped": scoped,
            "session_bound": bound, "followed_by": followed, "before_authentication": before, "members": members}


FACTS = load()
# For each request type, the frame types that end it: its answers, then its refusal types.
ANSWERS = FACTS["answers"]
# For each request type, the `error` messages with which its handler refuses it (`<...>`: any text).
REFUSALS = FACTS["refusals"]
# The requests whose answer comes after long work (the slow-request timeout).
SLOW = FACTS["slow"]
# For each request whose answer is followed by more frames for it: (its answers, those frames).
FOLLOWED_BY = FACTS["followed_by"]
# The requests about one session: an answer naming another session does not end them.
SESSION_SCOPED = FACTS["session_scoped"]
# The server frames that end only a request about the session they name (0.2.0's session_locked).
SESSION_BOUND_ANSWERS = FACTS["session_bound"]
# What a client sends, and what a server sends, before authentication.
CLIENT_BEFORE_AUTHENTICATION = FACTS["before_authentication"]["client_to_server"]
SERVER_BEFORE_AUTHENTICATION = FACTS["before_authentication"]["server_to_client"]


def _member(kind, name):
    member = FACTS["members"].get((kind, name))
    if member is None:
        raise SystemExit("Schema/ declares no %s.%s: run tools/regenerate.sh" % (kind, name))
    return member


_LIMIT = _member("connect", "recent_sessions_limit")
# connect.recent_sessions_limit: the default and the range a server holds it within.
RECENT_SESSIONS_LIMIT_DEFAULT = _LIMIT["default"]
RECENT_SESSIONS_LIMIT_RANGE = (_LIMIT["x-vcproto-clamp"]["minimum"], _LIMIT["x-vcproto-clamp"]["maximum"])
_NONCE = _member("connect", "client_nonce")["x-vcproto-lengths"]
# connect.client_nonce: the lengths (characters) a server accepts.
CLIENT_NONCE_LENGTHS = (_NONCE["minimum"], _NONCE["maximum"])


def recent_sessions_limit(value, is_int):
    """The limit a server keeps for a connect that sent `value`: held within the range, else the default."""
    if not is_int(value):
        return RECENT_SESSIONS_LIMIT_DEFAULT
    low, high = RECENT_SESSIONS_LIMIT_RANGE
    return min(max(value, low), high)


def nonce_length_accepted(nonce):
    """Whether a server accepts a client_nonce of this length."""
    return CLIENT_NONCE_LENGTHS[0] <= len(nonce) <= CLIENT_NONCE_LENGTHS[1]

"""What both conversation engines share (STANDARDS.md#state-machine): the illegal-event error, protocol
versions and their families, bounded collections, the seeded random source for backoff jitter.

Written from the specification for the reference peer; vcproto's Swift engines are not consulted at
run time, so a disagreement between the two shows up as a failing conformance test.
"""
import collections

KNOWN_VERSIONS = [(0, 2, 0), (0, 3, 0), (0, 4, 0), (0, 5, 0)]
SEQ_FROM = (0, 4, 0)  # 0.4.0 identifies messages by seq, 0.5.0 by offset, older versions by uuid
OFFSET_FROM = (0, 5, 0)


class IllegalEvent(Exception):
    """An input the engine's state does not accept: the engine refuses it and changes nothing."""

    def __init__(self, state, event, why="not in the transition table"):
        super().__init__("%s in state %s: %s" % (event, state, why))
        self.state = state
        self.event = event


def parse_version(text):
    """`MAJOR.MINOR.PATCH` (a `-`/`+` suffix cut) as a tuple, or None."""
    if not isinstance(text, str):
        return None
    for mark in "-+":
        text = text.split(mark, 1)[0]
    parts = text.split(".")
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() for p in parts):
        return None
    return tuple(int(p) for p in parts)


def show_version(version):
    return "%d.%d.%d" % version


def family(version):
    """How a version names a message's position: `uuid`, `seq` or `offset`."""
    if version >= OFFSET_FROM:
        return "offset"
    return "seq" if version >= SEQ_FROM else "uuid"


INT64_MAX = (1 << 63) - 1
INT64_MIN = -(1 << 63)


def later(now, ms):
    """`now + ms` held within signed 64 bits (STANDARDS.md#configuration):
    a deadline past the end of time is 2^63 - 1, a timer that never fires."""
    return max(INT64_MIN, min(now + ms, INT64_MAX))


def duration(value, default):
    """A timer period from a configuration: at least 1 ms (0 or less is 1); absent is the default."""
    return default if value is None else max(1, value)


def at_least_zero(value, default):
    """A count or byte budget from a configuration: below 0 is 0; absent is the default."""
    return default if value is None else max(0, value)


def fraction(value, default):
    """The jitter from a configuration: within 0-1 (below 0 is 0, above 1 is 1, NaN is 0)."""
    if value is None:
        return default
    if value != value:  # NaN
        return 0.0
    return min(max(value, 0.0), 1.0)


def is_int(value):
    """A JSON integer (a bool or a float such as `5.0` is not)."""
    return isinstance(value, int) and not isinstance(value, bool)


class BoundedSet:
    """A set that remembers at most `capacity` members, forgetting the oldest first."""

    def __init__(self, capacity):
        self.capacity = capacity
        self.members = collections.OrderedDict()

    def add(self, member):
        """True when `member` is new."""
        if member in self.members:
            return False
        self.members[member] = None
        if len(self.members) > self.capacity:
            self.members.popitem(last=False)
        return True

    def __contains__(self, member):
        return member in self.members

    def discard_where(self, predicate):
        for member in [m for m in self.members if predicate(m)]:
            del self.members[member]

    def clear(self):
        self.members.clear()


class SplitMix64:
    """The jitter source the vectors pin (Vectors/README.md, "Jitter")."""
    MASK = (1 << 64) - 1

    def __init__(self, seed):
        self.state = seed & self.MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & self.MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self.MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self.MASK
        return z ^ (z >> 31)

    def unit(self):
        """Uniform in [0, 1): the top 53 bits."""
        return (self.next() >> 11) / float(1 << 53)


def event(name, **members):
    return dict({"action": "event", "event": name}, **members)


def send(frame):
    return {"action": "send", "frame": frame}


def close(reason):
    return {"action": "close", "reason": reason}

"""What both conversation engines share (STANDARDS.md section 15): the illegal-event error, protocol
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

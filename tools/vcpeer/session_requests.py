"""Requests waiting for their answer (STANDARDS.md#requests): which frame types answer which
request and which `error` messages refuse which request (the catalog's, read from Schema/ by
catalog_facts), and the waiting list itself.

Answers carry no request id. The real server answers one socket's frames in order, so a frame of an
answer type ends the oldest waiting request it can answer; every request of an answerable type waits,
whether the application tracks it (gave a request id) or not, so that order is kept.
"""
import re

from . import catalog_facts
from .session_common import later

# Which frame types end which request, which requests are slow and which `error` messages refuse
# which request: the catalog's, read from Schema/ (catalog_facts).
ANSWERS = catalog_facts.ANSWERS
# 0.2.0's session_locked refuses a prompt, compact_session or start_recipe of the session it names.
SESSION_BOUND_ANSWERS = catalog_facts.SESSION_BOUND_ANSWERS
# Session-scoped requests: an answer naming another session does not answer them.
SESSION_SCOPED = catalog_facts.SESSION_SCOPED
# How long a request waits for its answer (STANDARDS.md#requests): 120 s, or 1 h 2 min for the two whose answer
# comes after work the real server bounds at an hour.
REQUEST_TIMEOUT_MS = 120_000
SLOW_REQUEST_TIMEOUT_MS = 3_720_000
SLOW = catalog_facts.SLOW

# The synchronous refusals of each request handler (STANDARDS.md#errors; `<...>` stands for any text). Left
# out on purpose (STANDARDS.md#requests): what the server may also send after it answered (a prompt's dispatch
# failure, "Compaction in progress ...", a recipe's tmux dispatch failure), and what any handler
# sends ("Internal error: ...", "Error processing message: ...").
REFUSALS = catalog_facts.REFUSALS
UNKNOWN_TYPE = "Unknown message type: "


def _pattern(template):
    """The template as a regular expression: literal text, each `<...>` any text."""
    return re.compile(".*".join(re.escape(part) for part in re.split(r"<[^>]*>", template)), re.DOTALL)


PATTERNS = [(kind, _pattern(t)) for kind, templates in REFUSALS.items() for t in templates]


def refused_type(error):
    """The request type an `error` frame refuses, or None."""
    message = error.get("message")
    if not isinstance(message, str) or "code" in error:
        return None
    if message.startswith(UNKNOWN_TYPE):
        return message[len(UNKNOWN_TYPE):]
    return next((kind for kind, pattern in PATTERNS if pattern.fullmatch(message)), None)


class Waiting:
    """One request waiting: its type, the application's id (None: untracked), its session."""

    def __init__(self, kind, frame, request_id, deadline, answers=None):
        self.kind = kind
        # A request already answered keeps its place for what follows its answer (`followed_by`):
        # untracked, ended only by those frames, never refused.
        self.following = answers is not None
        self.request_id = request_id
        self.deadline = deadline
        self.answers = ANSWERS[kind] if answers is None else answers
        self.session = next((frame[k] for k in ("session_id", "resume_session_id", "new_session_id")
                             if isinstance(frame.get(k), str)), None)
        self.scope = frame.get("session_id") if kind in SESSION_SCOPED and "session_id" in frame else None
        self.frame = frame

    def answered_by(self, frame):
        kind = frame.get("type")
        if kind == "error":
            return False
        if kind in SESSION_BOUND_ANSWERS and (self.session is None or frame.get("session_id") != self.session):
            return False
        return kind in self.answers and (self.scope is None or frame.get("session_id") in (None, self.scope))

    def refused_by(self, error, refused):
        session = error.get("session_id")
        return not self.following and self.kind == refused and (not isinstance(session, str) or self.session == session)


class Requests:
    """The waiting list, oldest first, at most `capacity` long."""

    def __init__(self, capacity, timeout=REQUEST_TIMEOUT_MS, slow_timeout=SLOW_REQUEST_TIMEOUT_MS):
        self.capacity = capacity
        self.waiting = []
        self.timeouts = (timeout, slow_timeout)

    def timeout(self, kind):
        """How long a request of type `kind` waits for its answer."""
        return self.timeouts[1] if kind in SLOW else self.timeouts[0]

    def add(self, kind, frame, request_id, now, deadline=None):
        """The new request's deadline (`deadline`, else its timeout from `now`), or None when the list
        is full of tracked requests (the new one is then not recorded)."""
        if len(self.waiting) >= self.capacity:
            untracked = next((w for w in self.waiting if w.request_id is None), None)
            if untracked is None:
                return None
            self.waiting.remove(untracked)  # the oldest untracked one makes room
        if deadline is None:
            deadline = later(now, self.timeout(kind))
        self.waiting.append(Waiting(kind, frame, request_id, deadline))
        return deadline

    def expire(self, now):
        """The requests due by `now`, oldest first (removed), and the earliest deadline left or None."""
        due = [w for w in self.waiting if w.deadline <= now]
        self.waiting = [w for w in self.waiting if w.deadline > now]
        return due, min((w.deadline for w in self.waiting), default=None)

    def resolve(self, frame):
        """The oldest waiting request `frame` ends (removed), or None."""
        if frame.get("type") == "error":
            refused = refused_type(frame)
            if refused is None:
                return None
            found = next((w for w in self.waiting if w.refused_by(frame, refused)), None)
        else:
            found = next((w for w in self.waiting if w.answered_by(frame)), None)
        if found is not None:
            index = self.waiting.index(found)
            self.waiting.remove(found)
            follow = catalog_facts.FOLLOWED_BY.get(found.kind)
            if not found.following and follow is not None and frame.get("type") in follow[0]:
                # Its answer is followed by more frames for it: an untracked entry in its place takes them.
                self.waiting.insert(index, Waiting(found.kind, found.frame, None, found.deadline, answers=follow[1]))
        return found

    def drain(self):
        """Every waiting request, oldest first; the list is then empty."""
        waiting, self.waiting = self.waiting, []
        return waiting

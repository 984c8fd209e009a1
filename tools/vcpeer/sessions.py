"""The `sessions` kind: replays a conversation vector's inputs into a client or server engine and
answers what the engine did after each (Vectors/CONFORMANCE.md, Vectors/README.md `sessions/`).

The host side lives here: the clock (vector time, milliseconds after `clock_start_ms`) and the timers
the engine armed. `advance` fires every armed timer whose time has come, in time order (ties in
arming order), each at its own time.
"""
from .session_broken import RealSystemClient, RealSystemServer
from .session_client import ClientEngine
from .session_common import IllegalEvent
from .session_server import ServerEngine

CLIENT_INPUTS = {"start", "resume", "stop", "transport_opened", "transport_closed", "received", "subscribe",
                 "unsubscribe", "send"}
SERVER_INPUTS = {"transport_opened", "transport_closed", "received", "send", "drain", "close"}


class Host:
    def __init__(self, engine, start):
        self.engine = engine
        self.start = start
        self.now = start
        self.timers = {}  # name -> (deadline, arming order)
        self.order = 0

    def record(self, actions):
        """Keeps the timer table and turns absolute times into vector times."""
        shown = []
        for action in actions:
            action = dict(action)
            if action["action"] == "arm_timer":
                self.order += 1
                self.timers[action["timer"]] = (action["at"], self.order)
                action["at"] -= self.start
            elif action["action"] == "cancel_timer":
                self.timers.pop(action["timer"], None)
            elif action.get("event") == "reconnect_scheduled":
                action["at"] -= self.start
            shown.append(action)
        return shown

    def feed(self, step):
        kind = step.get("kind")
        if kind == "advance":
            target = self.now + step.get("ms", 0)
            out = []
            while True:
                due = [(at, order, name) for name, (at, order) in self.timers.items() if at <= target]
                if not due:
                    break
                at, _, name = min(due)
                del self.timers[name]
                self.now = max(self.now, at)
                out += self.record(self.engine.handle("timer", self.now, name=name))
            self.now = target
            return out
        inputs = CLIENT_INPUTS if isinstance(self.engine, ClientEngine) else SERVER_INPUTS
        if kind not in inputs:
            raise ValueError("unknown input kind %r for this role" % kind)
        members = {k: v for k, v in step.items() if k != "kind"}
        return self.record(self.engine.handle(kind, self.now, **members))


def answer(request, broken=False):
    """`{role, config, steps: [input, ...]}` -> `{steps: [{actions} or {error: {state, event}}]}`.
    `broken`: the engines answer with real-system bugs put back (session_broken.py)."""
    config = request.get("config") or {}
    roles = {"client": RealSystemClient, "server": RealSystemServer} if broken else {
        "client": ClientEngine, "server": ServerEngine}
    engine = roles[request["role"]](config)
    host = Host(engine, config.get("clock_start_ms", 0))
    answers = []
    for step in request["steps"]:
        try:
            answers.append({"actions": host.feed(step)})
        except IllegalEvent as illegal:
            answers.append({"error": {"state": illegal.state, "event": illegal.event}})
    return {"steps": answers}

"""Deliberately broken engines for testing the conformance runner and the session vectors: they put
back real-system behaviours that STANDARDS.md#state-machine and the `*.bug.*` vectors rule out (evidence
in STANDARDS.md#state-machine). `conformance_peer.py --break 'sessions/...'` answers with them; a vector that does
not exercise any of these behaviours gets the same answer as from the correct engines.
"""
from .session_client import ClientEngine
from .session_server import ServerEngine


class RealSystemClient(ClientEngine):
    """The iOS client's conversation bugs, on top of the correct engine."""

    def on_verdict(self, frame, kind, now, out):
        if frame.get("type") == "auth_error":
            # One auth_error stopped iOS for good (no retry with backoff).
            return self.park("reauth_required", "auth_failed", out, reason="auth_failed")
        return super().on_verdict(frame, kind, now, out)

    def fail_pending(self, reason, out):
        if reason == "connection_lost":
            return  # a request waiting when the socket dropped was never answered nor failed
        super().fail_pending(reason, out)

    def become_ready(self, version, caps, now, out):
        self.new_sessions = []  # session_ready went to the old connection: the new session is lost
        super().become_ready(version, caps, now, out)

    def backoff_delay(self):
        """iOS jitters the capped delay: a 30 s cap waits up to 37.5 s."""
        raw = min(1000 * 2 ** min(self.attempts, 30), 30_000)
        return max(1000, int(raw * (1 + self.jitter * (2 * self.rng.unit() - 1))))

    @staticmethod
    def is_new_file(seen, current):
        """The real server's test: any other signature (a file that only grew too) is a new file."""
        return seen != current


class RealSystemServer(ServerEngine):
    """The real backend has no idempotency keys: a repeated prompt runs again, even when the
    connection negotiated `idempotent_prompt`."""

    def on_message(self, frame, canonical, now, out):
        if frame.get("type") == "prompt" and self.state == "authenticated" and "idempotency_key" in frame:
            return out.append({"action": "event", "event": "request", "message": canonical})
        return super().on_message(frame, canonical, now, out)

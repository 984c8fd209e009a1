import VCProtoCore
import VCProtoJSON

/// The engine's timers of one host connection (``ClientHost`` or a ``ServerConnection``): each armed
/// timer is a task sleeping on the host's clock until its deadline, with a token, so a timer that
/// was cancelled or re-armed while its task was already waking is recognised as stale and ignored.
/// A value the host's actor owns; the due report goes back to that actor through `fire`.
struct HostTimers {
  private var armed: [ConnectionTimer: (token: Int, task: Task<Void, Never>)] = [:]
  private var tokens = 0

  /// Arms `timer` for `deadline` (milliseconds, the engine's time) on `clock`, replacing its
  /// previous arming; when due, `fire` gets the arming's token (check it with ``take(_:token:)``).
  mutating func arm(
    _ timer: ConnectionTimer, at deadline: Int64, on clock: HostClock,
    fire: @escaping @Sendable (Int) async -> Void
  ) {
    armed[timer]?.task.cancel()
    tokens += 1
    let token = tokens
    let task = Task {
      do { try await clock.sleep(deadline) } catch { return }
      await fire(token)
    }
    armed[timer] = (token, task)
  }

  /// Cancels `timer` (nothing when it is not armed).
  mutating func cancel(_ timer: ConnectionTimer) {
    armed.removeValue(forKey: timer)?.task.cancel()
  }

  /// Whether `token` is `timer`'s current arming (its fire counts); if so, the timer is disarmed.
  mutating func take(_ timer: ConnectionTimer, token: Int) -> Bool {
    guard armed[timer]?.token == token else { return false }
    armed[timer] = nil
    return true
  }

  /// Cancels every timer.
  mutating func cancelAll() {
    for (_, arming) in armed { arming.task.cancel() }
    armed = [:]
  }
}

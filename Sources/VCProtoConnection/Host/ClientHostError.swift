import VCProtoCore
import VCProtoJSON

/// Why a ``ClientHost`` call failed. (An answer that fails validation is never handed to the caller:
/// the engine reports it as ``ClientApplicationEvent/violation(_:)`` on ``ClientHost/events``, and
/// the request keeps waiting until its answer, its timeout or the end of the connection.)
public enum ClientHostError: Error, Sendable, CustomStringConvertible {
  /// The host was stopped (before the call, or while it waited).
  case stopped
  /// The request will never be answered (the connection dropped, it timed out, too many were
  /// waiting, or the host stopped while it waited).
  case requestFailed(RequestFailure)
  /// The message type has no answer to wait for: send it with ``ClientHost/post(_:)``.
  case noAnswer(type: String)
  /// The connection ended and the host does not reconnect by itself (the credentials were refused,
  /// no common version, or reconnecting gave up): the application acts, then calls
  /// ``ClientHost/restart()``. `reason` is the stable code.
  case notConnected(reason: String)
  /// The engine refused the call in its current state.
  case refused(IllegalEvent)

  public var description: String {
    switch self {
    case .stopped: return "the client host was stopped"
    case .requestFailed(let failure): return "the request failed: \(failure.rawValue)"
    case .noAnswer(let type): return "\(type) has no answer to wait for (use post)"
    case .notConnected(let reason): return "not connected and not reconnecting: \(reason)"
    case .refused(let illegal): return "the engine refused the call: \(illegal)"
    }
  }
}

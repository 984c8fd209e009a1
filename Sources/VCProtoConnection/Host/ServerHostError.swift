import VCProtoCore
import VCProtoJSON

/// Why a ``ServerConnection`` call failed.
public enum ServerHostError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The connection is closed.
  case closed
  /// The engine refused the call in its current state (a frame to a client not authenticated, session
  /// data for a session it did not subscribe to, an extension it did not negotiate).
  case refused(IllegalEvent)

  public var description: String {
    switch self {
    case .closed: return "the connection is closed"
    case .refused(let illegal): return "the engine refused the call: \(illegal)"
    }
  }
}

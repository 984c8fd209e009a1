import VCProtoCore
import VCProtoJSON

/// An event the engine cannot take in its current state: a mistake of the host application (for
/// example sending a request before ``ClientEvent/start``, or a message without a request id before
/// the connection is authenticated), never of the peer. The engine
/// is left unchanged and nothing is emitted.
public struct IllegalEvent: Error, Sendable, Hashable, CustomStringConvertible {
  /// The engine's state when the event arrived (`awaiting_connected`, ...).
  public var state: String
  /// The event (`send`, `transport_opened`, ...).
  public var event: String
  /// Why it is refused.
  public var reason: String

  /// Creates the error.
  public init(state: String, event: String, reason: String) {
    self.state = state
    self.event = event
    self.reason = reason
  }

  /// `event "send" is not allowed in state "awaiting_connected": ...`.
  public var description: String { "event \"\(event)\" is not allowed in state \"\(state)\": \(reason)" }
}

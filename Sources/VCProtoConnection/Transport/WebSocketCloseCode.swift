import VCProtoCore
import VCProtoJSON

/// The status code of a close frame (RFC 6455 section 7.4), passed through as a number: codes the
/// RFC does not name (3000-4999, for applications) are kept as they are.
public struct WebSocketCloseCode: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
  /// The code.
  public var rawValue: UInt16

  /// Wraps a code.
  public init(rawValue: UInt16) {
    self.rawValue = rawValue
  }

  /// 1000: the purpose of the connection was fulfilled.
  public static let normalClosure = WebSocketCloseCode(rawValue: 1000)
  /// 1001: the endpoint is going away (server shutting down, page left).
  public static let goingAway = WebSocketCloseCode(rawValue: 1001)
  /// 1002: protocol error.
  public static let protocolError = WebSocketCloseCode(rawValue: 1002)
  /// 1005: no code was given (never sent in a frame; what a close frame without a body means).
  public static let noStatusReceived = WebSocketCloseCode(rawValue: 1005)
  /// 1006: the connection closed without a close frame (never sent in a frame).
  public static let abnormalClosure = WebSocketCloseCode(rawValue: 1006)
  /// 1008: the message broke the endpoint's policy (hosts: the peer broke the protocol).
  public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
  /// 1009: a message too big to process.
  public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
  /// 1011: the server met an unexpected condition (used when a peer fails).
  public static let internalError = WebSocketCloseCode(rawValue: 1011)

  public var description: String { String(rawValue) }
}

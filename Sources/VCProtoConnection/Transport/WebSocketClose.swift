import VCProtoCore
import VCProtoJSON

/// How a WebSocket connection ended: the close frame's status code and reason (RFC 6455 section
/// 5.5.1), or ``WebSocketCloseCode/abnormalClosure`` (1006) with an empty reason when the connection
/// ended without one.
public struct WebSocketClose: Sendable, Hashable, CustomStringConvertible {
  /// The status code.
  public var code: WebSocketCloseCode
  /// The reason text (at most 123 bytes on the wire; may be empty).
  public var reason: String

  /// Creates a close.
  public init(code: WebSocketCloseCode, reason: String = "") {
    self.code = code
    self.reason = reason
  }

  /// The connection ended without a close frame (1006, RFC 6455 section 7.1.5).
  public static let abnormal = WebSocketClose(code: .abnormalClosure)

  /// `code`, then ` reason` when there is one.
  public var description: String { reason.isEmpty ? code.description : "\(code) \(reason)" }
}

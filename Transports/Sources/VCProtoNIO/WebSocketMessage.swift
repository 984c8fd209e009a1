/// One WebSocket message (RFC 6455 section 5.6), its bytes exactly as they travelled: a text
/// message's bytes are not checked for UTF-8 here (the protocol's validator does that).
public enum WebSocketMessage: Sendable, Hashable {
  /// A text message (opcode 1).
  case text([UInt8])
  /// A binary message (opcode 2).
  case binary([UInt8])

  /// A text message of `string`'s UTF-8 bytes.
  public static func text(_ string: String) -> WebSocketMessage { .text(Array(string.utf8)) }

  /// The message's bytes.
  public var bytes: [UInt8] {
    switch self {
    case .text(let bytes), .binary(let bytes): return bytes
    }
  }
}

import VCProtoJSON

/// One WebSocket data message (RFC 6455 section 5.6): its kind and its payload bytes exactly as they
/// travelled. A text message's bytes are not checked for UTF-8 here (the validator does that).
///
/// The kind matters because the two envelope forms travel differently: a binary message is
/// always a binary envelope (protocol messages themselves travel as text), and a text message
/// is either a plain protocol message or a text envelope (`{"type":"compressed",...}`).
public enum WebSocketMessage: Sendable, Hashable {
  /// A text message (opcode 1): UTF-8 JSON, a plain frame or a text envelope.
  case text([UInt8])
  /// A binary message (opcode 2): a binary envelope (starting with `VC`).
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

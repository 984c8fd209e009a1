/// One WebSocket data message as received: its kind (text or binary) and its payload bytes.
///
/// The kind matters because the two envelope forms travel differently: a binary message is
/// always a binary envelope (protocol messages themselves travel as text), and a text message
/// is either a plain protocol message or a text envelope (`{"type":"compressed",...}`).
public enum ReceivedFrame: Sendable, Hashable {
  /// A text message: UTF-8 JSON, a plain frame or a text envelope.
  case text([UInt8])
  /// A binary message: a binary envelope (starting with `VC`).
  case binary([UInt8])
}

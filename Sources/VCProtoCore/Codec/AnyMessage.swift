import VCProtoJSON

/// A message of either direction (what ``MessageDecoder/decode(_:)-([UInt8])`` returns when the
/// direction is not fixed).
public enum AnyMessage: Sendable, Hashable {
  /// A client-to-server message.
  case client(ClientMessage)
  /// A server-to-client message.
  case server(ServerMessage)
  /// A frame whose `type` no direction defines; the object is kept whole.
  case unknown(JSONObject)

  /// The `type` value.
  public var type: String {
    switch self {
    case .client(let m): return m.type
    case .server(let m): return m.type
    case .unknown(let o): return o["type"]?.stringValue ?? ""
    }
  }
}

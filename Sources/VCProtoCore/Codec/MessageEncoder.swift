import VCProtoJSON

/// Encodes typed messages into frames: UTF-8 JSON text, deterministic.
///
/// Order: `type` first, then the catalog's members in catalog order, then any additional members in
/// the order they were received. Required members are always written (`null` when a nullable one
/// is `nil`); optional members are omitted when `nil`. `/` is never escaped.
public struct MessageEncoder: Sendable {
  /// Creates an encoder.
  public init() {}

  /// The frame bytes of a client message.
  public func encode(_ message: ClientMessage) -> [UInt8] {
    var w = JSONWriter()
    message.encode(to: &w)
    return w.bytes
  }

  /// The frame bytes of a server message.
  public func encode(_ message: ServerMessage) -> [UInt8] {
    var w = JSONWriter()
    message.encode(to: &w)
    return w.bytes
  }

  /// The frame bytes of a message of either direction.
  public func encode(_ message: AnyMessage) -> [UInt8] {
    switch message {
    case .client(let m): return encode(m)
    case .server(let m): return encode(m)
    case .unknown(let o):
      var w = JSONWriter()
      w.write(o)
      return w.bytes
    }
  }

  /// The frame text of a message of either direction.
  public func encodeText(_ message: AnyMessage) -> String {
    String(decoding: encode(message), as: UTF8.self)
  }
}

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
    var w = JSONWriter(reservingCapacity: Self.firstCapacity)
    message.encode(to: &w)
    return w.bytes
  }

  /// The frame bytes of a server message.
  public func encode(_ message: ServerMessage) -> [UInt8] {
    var w = JSONWriter(reservingCapacity: Self.firstCapacity)
    message.encode(to: &w)
    return w.bytes
  }

  /// Appends the frame of a client message to `writer`: a writer kept from frame to frame (emptied
  /// with ``JSONWriter/removeAll()``, its bytes read with ``JSONWriter/withUnsafeBytes(_:)``)
  /// allocates only for a frame longer than every one before.
  public func encode(_ message: ClientMessage, into writer: inout JSONWriter) {
    message.encode(to: &writer)
  }

  /// Appends the frame of a server message to `writer` (see the client message's).
  public func encode(_ message: ServerMessage, into writer: inout JSONWriter) {
    message.encode(to: &writer)
  }

  /// The writer's first capacity: most frames fit (those that do not grow it by doubling), and the
  /// allocation stays within the C library's cache of small blocks.
  static var firstCapacity: Int { 960 }

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

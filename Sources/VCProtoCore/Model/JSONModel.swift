import VCProtoJSON

/// A typed protocol object (a message payload or a nested shape) that writes itself as JSON. It is
/// read by its one generated decoder, from a frame's bytes or a parsed tree (``MessageDecoder``).
public protocol JSONModel: Sendable, Hashable, JSONFieldValue {
  /// Writes the value as a JSON object.
  func encode(to writer: inout JSONWriter)
}

extension JSONModel {
  /// Writes the value as a nested object.
  public func encodeField(to writer: inout JSONWriter) {
    encode(to: &writer)
  }
}

import VCProtoJSON

/// A Swift type that one JSON member of the typed model holds (`String`, `Int`, `Double`, `Bool`,
/// ``JSONValue``, ``JSONObject``, arrays of those, the generated shapes, and the generated enums of a
/// member of alternative types such as ``HistoryMessageOrClaudeRecord``). Values are read by the one
/// generated decoder of each struct (``MessageDecoder``); this protocol writes them.
public protocol JSONFieldValue: Sendable, Hashable {
  /// Writes the value.
  func encodeField(to writer: inout JSONWriter)
}

extension String: JSONFieldValue {
  /// Writes a JSON string.
  public func encodeField(to writer: inout JSONWriter) { writer.write(self) }
}

extension Int: JSONFieldValue {
  /// Writes the integer.
  public func encodeField(to writer: inout JSONWriter) { writer.write(self) }
}

extension Double: JSONFieldValue {
  /// Writes the number (integral values without a fraction).
  public func encodeField(to writer: inout JSONWriter) { writer.write(.number(JSONNumber(self))) }
}

extension Bool: JSONFieldValue {
  /// Writes the boolean.
  public func encodeField(to writer: inout JSONWriter) { writer.write(self) }
}

extension JSONValue: JSONFieldValue {
  /// Writes the value.
  public func encodeField(to writer: inout JSONWriter) { writer.write(self) }
}

extension JSONObject: JSONFieldValue {
  /// Writes the object, its members in their order.
  public func encodeField(to writer: inout JSONWriter) { writer.write(self) }
}

extension Array: JSONFieldValue where Element: JSONFieldValue {
  /// Writes the array.
  public func encodeField(to writer: inout JSONWriter) {
    writer.beginArray()
    for (i, e) in enumerated() {
      if i > 0 { writer.writeComma() }
      e.encodeField(to: &writer)
    }
    writer.endArray()
  }
}

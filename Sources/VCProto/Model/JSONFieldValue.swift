/// A Swift type that one JSON member decodes into (`String`, `Int`, `Double`, `Bool`, ``JSONValue``, ``JSONObject``,
/// arrays of those, the generated shapes, and the generated enums of a member of alternative types such
/// as ``HistoryMessageOrClaudeRecord``).
public protocol JSONFieldValue: Sendable, Hashable {
  /// Converts a non-null member value, or throws naming the member.
  static func decodeField(_ value: JSONValue, key: String) throws(ModelDecodingError) -> Self
  /// Writes the value.
  func encodeField(to writer: inout JSONWriter)
}

extension String: JSONFieldValue {
  /// Decodes a JSON string.
  public static func decodeField(_ value: JSONValue, key: String) throws(ModelDecodingError) -> String {
    guard case .string(let s) = value else { throw ModelDecodingError(key: key, expected: "string", value) }
    return s
  }

  /// Writes a JSON string.
  public func encodeField(to writer: inout JSONWriter) { writer.write(self) }
}

extension Int: JSONFieldValue {
  /// Decodes an integer literal that fits in `Int`.
  public static func decodeField(_ value: JSONValue, key: String) throws(ModelDecodingError) -> Int {
    guard let v = value.intValue else { throw ModelDecodingError(key: key, expected: "integer", value) }
    return v
  }

  /// Writes the integer.
  public func encodeField(to writer: inout JSONWriter) { writer.write(self) }
}

extension Double: JSONFieldValue {
  /// Decodes any finite number.
  public static func decodeField(_ value: JSONValue, key: String) throws(ModelDecodingError) -> Double {
    guard let v = value.doubleValue else { throw ModelDecodingError(key: key, expected: "number", value) }
    return v
  }

  /// Writes the number (integral values without a fraction).
  public func encodeField(to writer: inout JSONWriter) { writer.write(.number(JSONNumber(self))) }
}

extension Bool: JSONFieldValue {
  /// Decodes `true` or `false`.
  public static func decodeField(_ value: JSONValue, key: String) throws(ModelDecodingError) -> Bool {
    guard case .bool(let b) = value else { throw ModelDecodingError(key: key, expected: "boolean", value) }
    return b
  }

  /// Writes the boolean.
  public func encodeField(to writer: inout JSONWriter) { writer.write(self) }
}

extension JSONValue: JSONFieldValue {
  /// Keeps any value as it is.
  public static func decodeField(_ value: JSONValue, key: String) throws(ModelDecodingError) -> JSONValue {
    value
  }

  /// Writes the value.
  public func encodeField(to writer: inout JSONWriter) { writer.write(self) }
}

extension JSONObject: JSONFieldValue {
  /// Decodes any JSON object (a free-form member), keeping its members as received.
  public static func decodeField(_ value: JSONValue, key: String) throws(ModelDecodingError) -> JSONObject {
    guard case .object(let object) = value else { throw ModelDecodingError(key: key, expected: "object", value) }
    return object
  }

  /// Writes the object, its members in their order.
  public func encodeField(to writer: inout JSONWriter) { writer.write(self) }
}

extension Array: JSONFieldValue where Element: JSONFieldValue {
  /// Decodes an array, each element with `Element`'s rules.
  public static func decodeField(_ value: JSONValue, key: String) throws(ModelDecodingError) -> [Element] {
    guard case .array(let items) = value else { throw ModelDecodingError(key: key, expected: "array", value) }
    var out: [Element] = []
    out.reserveCapacity(items.count)
    for (i, item) in items.enumerated() {
      do {
        out.append(try Element.decodeField(item, key: String(i)))
      } catch {
        throw error.nested(in: key)
      }
    }
    return out
  }

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

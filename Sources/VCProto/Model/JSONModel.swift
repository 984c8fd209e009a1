/// A typed protocol object (a message payload or a nested shape) that converts to and from JSON.
public protocol JSONModel: Sendable, Hashable, JSONFieldValue {
  /// Builds the value from a JSON object.
  init(json object: JSONObject) throws(ModelDecodingError)
  /// Writes the value as a JSON object.
  func encode(to writer: inout JSONWriter)
}

extension JSONModel {
  /// Decodes a nested object member.
  public static func decodeField(_ value: JSONValue, key: String) throws(ModelDecodingError) -> Self {
    guard case .object(let object) = value else { throw ModelDecodingError(key: key, expected: "object", value) }
    do {
      return try Self(json: object)
    } catch {
      throw error.nested(in: key)
    }
  }

  /// Writes the value as a nested object.
  public func encodeField(to writer: inout JSONWriter) {
    encode(to: &writer)
  }
}

import VCProtoJSON

/// A type the generated model reads one member's value into, from any ``ModelReader``: `String`,
/// `Int`, `Double`, `Bool`, ``JSONValue``, ``JSONObject``, arrays of those, ``ClaudeRecord``, the
/// generated structs, closed sets (``JSONStringEnum``) and alternatives.
///
/// `read` is called with the reader at the value, never at `null` (the caller handles nulls).
package protocol ModelReadable {
  /// Reads one value.
  static func read<R: ModelReader>(_ r: inout R) throws(DirectPathError) -> Self
}

extension String: ModelReadable {
  @inline(__always)
  package static func read<R: ModelReader>(_ r: inout R) throws(DirectPathError) -> String { try r.readString() }
}

extension Int: ModelReadable {
  @inline(__always)
  package static func read<R: ModelReader>(_ r: inout R) throws(DirectPathError) -> Int { try r.readInt() }
}

extension Double: ModelReadable {
  package static func read<R: ModelReader>(_ r: inout R) throws(DirectPathError) -> Double { try r.readDouble() }
}

extension Bool: ModelReadable {
  package static func read<R: ModelReader>(_ r: inout R) throws(DirectPathError) -> Bool { try r.readBool() }
}

extension JSONValue: ModelReadable {
  package static func read<R: ModelReader>(_ r: inout R) throws(DirectPathError) -> JSONValue { try r.readValue() }
}

extension JSONObject: ModelReadable {
  /// Any object, read whole; another JSON type is refused (the validator's `wrong_type`).
  package static func read<R: ModelReader>(_ r: inout R) throws(DirectPathError) -> JSONObject {
    let refusal = r.miss()
    guard case .object(let object) = try r.readValue() else { throw refusal }
    return object
  }
}

extension Array: ModelReadable where Element: ModelReadable {
  @inline(__always)
  package static func read<R: ModelReader>(_ r: inout R) throws(DirectPathError) -> [Element] {
    try r.readArray { (q: inout R) throws(DirectPathError) in try Element.read(&q) }
  }
}

extension JSONStringEnum {
  /// Reads a string that is one of the raw values, matched by exact Unicode scalars; any other value
  /// is refused (the validator's `wrong_type` or `invalid_value`).
  @inline(__always)
  package static func read<R: ModelReader>(_ r: inout R) throws(DirectPathError) -> Self { try r.readEnum(Self.self) }
}

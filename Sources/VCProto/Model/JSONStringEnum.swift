/// A closed set of string values the protocol defines (the catalog's `allowedValues` of a plain string
/// member), modelled as a Swift enum whose raw values are the wire strings.
///
/// The generated model declares one nested enum per such member (`CommandOutputMessage.Stream`,
/// `ReplayedMessage.Role`, `CommandNode.Kind`); this protocol gives them their JSON conversion, so the
/// type itself enforces the set: a value outside it is rejected exactly where the validator reports
/// `invalid_value`.
public protocol JSONStringEnum: JSONFieldValue, RawRepresentable, CaseIterable where RawValue == String {}

extension JSONStringEnum {
  /// Decodes a JSON string that is one of the raw values: another type is a wrong type, another string
  /// an invalid value (the validator's `wrong_type` and `invalid_value`).
  public static func decodeField(_ value: JSONValue, key: String) throws(ModelDecodingError) -> Self {
    guard case .string(let s) = value else { throw ModelDecodingError(key: key, expected: "string", value) }
    guard let v = exactly(s) else { throw ModelDecodingError(invalid: key) }
    return v
  }

  /// The case whose raw value is the same sequence of Unicode scalars as `s` (as the validator's
  /// closed-set check compares): `init(rawValue:)` would match a canonically equivalent spelling.
  @inline(__always)
  static func exactly(_ s: String) -> Self? {
    for candidate in allCases where candidate.rawValue.hasSameScalars(as: s) { return candidate }
    return nil
  }

  /// Writes the raw value as a JSON string.
  public func encodeField(to writer: inout JSONWriter) { writer.write(rawValue) }

  /// Reads a JSON string that is one of the raw values (the direct decode path's ``JSONPullDecodable``
  /// witness); anything else gives up with ``DirectPathError/miss(at:)``, as ``decodeField(_:key:)`` would throw.
  ///
  /// A plain ASCII value (the usual case) is matched byte for byte against the raw values, making no
  /// `String`; a value with escapes or other characters is unescaped first and matched by exact
  /// Unicode scalars (``exactly(_:)``).
  @inline(__always)
  static func pull(_ p: inout JSONParser) throws(DirectPathError) -> Self {
    let start = p.pos
    if let value = p.plainStringValue() {
      for candidate in allCases where p.keyIs(value, candidate.rawValue) { return candidate }
      throw JSONParser.miss(start)
    }
    guard let v = exactly(try p.pullString()) else { throw JSONParser.miss(start) }
    return v
  }
}

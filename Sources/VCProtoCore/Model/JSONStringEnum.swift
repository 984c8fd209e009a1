import VCProtoJSON

/// A closed set of string values the protocol defines (the catalog's `allowedValues` of a plain string
/// member), modelled as a Swift enum whose raw values are the wire strings.
///
/// The generated model declares one nested enum per such member (`CommandOutputMessage.Stream`,
/// `ReplayedMessage.Role`, `CommandNode.Kind`); this protocol gives them their JSON conversion, so the
/// type itself enforces the set: a value outside it is rejected exactly where the validator reports
/// `invalid_value`.
public protocol JSONStringEnum: JSONFieldValue, RawRepresentable, CaseIterable where RawValue == String {}

extension JSONStringEnum {
  /// The case whose raw value is the same sequence of Unicode scalars as `s` (as the validator's
  /// closed-set check compares): `init(rawValue:)` would match a canonically equivalent spelling.
  @inline(__always)
  package static func exactly(_ s: String) -> Self? {
    for candidate in allCases where candidate.rawValue.hasSameScalars(as: s) { return candidate }
    return nil
  }

  /// Writes the raw value as a JSON string.
  public func encodeField(to writer: inout JSONWriter) { writer.write(rawValue) }
}

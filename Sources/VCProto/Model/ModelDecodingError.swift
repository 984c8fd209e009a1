/// Why a JSON object could not become a typed value. The validator reports the same problems as
/// findings first, so this is only seen when the model is built from unvalidated input.
public struct ModelDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The RFC 6901 pointer of the member, relative to the object being built.
  public var pointer: String
  /// What is wrong.
  public var reason: String

  /// A required member is missing.
  public init(missing key: String) {
    pointer = JSONPointer.appending("", key: key)
    reason = "required member is missing"
  }

  /// A member has the wrong type.
  public init(key: String, expected: String, _ value: JSONValue) {
    pointer = JSONPointer.appending("", key: key)
    reason = "expected \(expected), got \(value.typeName)"
  }

  /// A member that must not be null is null.
  public init(null key: String) {
    pointer = JSONPointer.appending("", key: key)
    reason = "must not be null"
  }

  /// A member's value breaks a format, range, closed set or cross-member rule.
  public init(invalid key: String) {
    pointer = JSONPointer.appending("", key: key)
    reason = "invalid value"
  }

  /// The same error one level deeper.
  func nested(in key: String) -> ModelDecodingError {
    var copy = self
    copy.pointer = JSONPointer.appending("", key: key) + pointer
    return copy
  }

  /// `pointer: reason`.
  public var description: String { "\(pointer): \(reason)" }
}

import VCProtoJSON

/// One catalog rule a value breaks, as ``ValueRules`` finds it: the typed verdict that the validator
/// turns into a ``Finding`` (code, pointer, message) and ``RuleBreak`` into `false`.
///
/// The position is not part of the violation: the ``ValueRuleSink`` receiving it knows where the
/// evaluation stands (the member or element being checked). Violations about a member of the current
/// object (missing, null, undeclared) name it.
package enum ValueViolation: Sendable, Hashable {
  /// A required member is absent (`missing_field` at the member).
  case missingMember(String)
  /// A member that is not nullable is `null` (`null_not_allowed` at the member).
  case nullMember(String)
  /// A member the declaration does not have (`unexpected_field` warning at the member; only reported
  /// where undeclared members draw a warning, see ``ShapeSpec/ExtraMembers``).
  case undeclaredMember(String, owner: MemberOwner)
  /// An array element is `null` (`null_not_allowed` at the element).
  case nullElement
  /// The value's JSON type is not the declared one (`wrong_type`); `got` is the value's JSON type name.
  case wrongType(expected: String, got: String)
  /// A string does not have its declared format (`invalid_value`).
  case badFormat(String, StringFormat, secret: Bool)
  /// An integer literal outside the 64-bit range (`invalid_value`); the literal as written.
  case outOfRange(literal: String)
  /// An integer below the declared minimum (`invalid_value`).
  case belowMinimum(Int64, minimum: Int64)
  /// A number that is not a finite double (`invalid_value`); the literal as written.
  case notFinite(literal: String)
  /// A value outside the member's closed set of allowed values (`invalid_value`); an empty set means
  /// the member may only be `null` or absent.
  case notAllowed(JSONValue, allowed: [JSONValue], member: String, secret: Bool)

  /// `false` only for what is a warning, never an error, outside strict mode (an undeclared member).
  package var isError: Bool {
    if case .undeclaredMember = self { return false }
    return true
  }
}

import VCProtoJSON

/// The scalar rules of the catalog as typed predicates. ``ValueRules`` applies them to parsed values,
/// and the generated decoder (`reading(_:)`, over either reader) calls them on the typed values it reads, so
/// the rules are stated here once and never restated as inline expressions in generated code.
extension ValueRules {
  /// An integer satisfies a declared minimum (none: every integer).
  @inline(__always)
  package static func accepts(_ value: Int64, minimum: Int64?) -> Bool {
    guard let minimum else { return true }
    return value >= minimum
  }

  /// An `Int` read by the direct path satisfies a declared minimum.
  @inline(__always)
  package static func accepts(_ value: Int, minimum: Int64?) -> Bool {
    accepts(Int64(value), minimum: minimum)
  }

  /// Every element of an integer array satisfies the element type's minimum.
  @inline(__always)
  package static func accepts(_ values: [Int], minimum: Int64?) -> Bool {
    values.allSatisfy { accepts($0, minimum: minimum) }
  }

  /// A string has the declared format (``StringFormat/plain``: any string).
  @inline(__always)
  package static func accepts(_ value: String, format: StringFormat) -> Bool {
    format == .plain || FormatCheck.matches(value, format)
  }

  /// Every element of a string array has the element type's format.
  @inline(__always)
  package static func accepts(_ values: [String], format: StringFormat) -> Bool {
    values.allSatisfy { accepts($0, format: format) }
  }

  /// A value is one of a member's closed set of allowed values (an empty set admits no value: the
  /// member may only be `null` or absent).
  @inline(__always)
  package static func accepts<Value: Equatable>(_ value: Value, allowed: [Value]) -> Bool {
    allowed.contains(value)
  }

  /// A string is one of the allowed strings when it is the same sequence of Unicode scalars, as names
  /// are compared (STANDARDS.md#exact-identifiers): Swift's `==` is canonical equivalence, which would let
  /// `"e\u{301}"` stand for an allowed `"\u{E9}"`.
  @inline(__always)
  package static func accepts(_ value: String, allowed: [String]) -> Bool {
    allowed.contains { $0.hasSameScalars(as: value) }
  }

  /// A JSON value is one of the allowed values, strings (at any depth) compared by exact Unicode
  /// scalars (``JSONValue/isExactly(_:)``).
  @inline(__always)
  package static func accepts(_ value: JSONValue, allowed: [JSONValue]) -> Bool {
    allowed.contains { $0.isExactly(value) }
  }

  /// A non-null value satisfies `type` completely (format, range, elements, alternatives); a nested
  /// shape is checked member by member only when `catalog` is given.
  package static func accepts(_ value: JSONValue, _ type: FieldType, deep catalog: ProtocolCatalog? = nil) -> Bool {
    var verdict = RuleBreak()
    check(value, type, secret: false, in: catalog, into: &verdict)
    return !verdict.hasErrors
  }

  /// A declared member satisfies every rule of its declaration: present when required (`value` is
  /// `nil` when absent), `null` only when nullable, then its type and closed set (nested shapes
  /// checked member by member only when `catalog` is given).
  @inline(__always)
  package static func accepts(_ value: JSONValue?, member field: FieldSpec, deep catalog: ProtocolCatalog? = nil)
    -> Bool
  {
    var verdict = RuleBreak()
    checkMember(value, field, in: catalog, into: &verdict)
    return !verdict.hasErrors
  }

  /// The index of the alternative a non-null value of a `oneOf` type takes, as the validator decides it
  /// (``checkAlternatives(_:_:secret:in:into:)``, nested shapes checked member by member in `catalog`):
  /// the first it satisfies completely; `nil` when it satisfies none.
  package static func alternative(of value: JSONValue, among alternatives: [FieldType], in catalog: ProtocolCatalog)
    -> Int?
  {
    var verdict = RuleBreak()
    return checkAlternatives(value, alternatives, secret: false, in: catalog, into: &verdict).chosen
  }
}

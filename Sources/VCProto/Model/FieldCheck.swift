/// The value checks the generated model runs while it builds typed values from a parsed object, so
/// that building a message succeeds exactly when the validator would report no error (the validator
/// then only runs to explain a failure). Every check is ``ValueRules`` (or ``FieldRule/violation(set:)``)
/// with its verdict reduced to `true`/`false` or a thrown ``ModelDecodingError``: the rules are stated
/// there once.
package enum FieldCheck {
  /// Throws unless `value` (non-null) satisfies `type`'s format, range and element rules and, when
  /// given, is one of `allowed`.
  package static func require(_ value: JSONValue, _ type: FieldType, allowed: [JSONValue]?, key: String)
    throws(ModelDecodingError)
  {
    guard passes(value, type), allowed.map({ ValueRules.accepts(value, allowed: $0) }) ?? true else {
      throw ModelDecodingError(invalid: key)
    }
  }

  /// Throws when a cross-member rule is broken, naming the member the validator's finding names;
  /// `set[i]` says whether the rule's i-th member is present and non-null (see ``FieldRule/violation(set:)``).
  package static func require(_ rule: FieldRule, set: [Bool]) throws(ModelDecodingError) {
    if let violation = rule.violation(set: set) { throw ModelDecodingError(invalid: violation.member) }
  }

  /// `true` when an object satisfies a shape completely (members, nullability, types, nested shapes):
  /// the check for shapes whose model is hand-written rather than generated.
  package static func conforms(_ object: JSONObject, to shape: ShapeSpec, in catalog: ProtocolCatalog) -> Bool {
    var verdict = RuleBreak()
    ValueRules.checkMembers(
      object, fields: shape.fields, extra: shape.extraMembers, owner: .shape(shape.name), skipping: nil,
      in: catalog, into: &verdict)
    return !verdict.hasErrors
  }

  /// `true` when a non-null value satisfies the type. Nested shapes are checked only when `deep`
  /// gives the catalog (otherwise their own generated model checks them).
  static func passes(_ value: JSONValue, _ type: FieldType, deep catalog: ProtocolCatalog? = nil) -> Bool {
    ValueRules.accepts(value, type, deep: catalog)
  }
}

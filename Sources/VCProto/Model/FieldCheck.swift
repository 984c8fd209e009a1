/// The value checks the generated model runs while it builds typed values, so that building a message
/// succeeds exactly when the validator would report no error (the validator then only runs to explain
/// a failure). Each check mirrors one rule of ``Validator``; the vector and fuzz tests hold them together.
package enum FieldCheck {
  /// Throws unless `value` (non-null) satisfies `type`'s format, range and element rules and, when
  /// given, is one of `allowed`.
  package static func require(_ value: JSONValue, _ type: FieldType, allowed: [JSONValue]?, key: String)
    throws(ModelDecodingError)
  {
    guard passes(value, type) else { throw ModelDecodingError(invalid: key) }
    if let allowed, !allowed.contains(value) { throw ModelDecodingError(invalid: key) }
  }

  /// Throws when a cross-member rule is broken; `set[i]` says whether the rule's i-th member is present
  /// and non-null.
  package static func require(_ rule: FieldRule, set: [Bool]) throws(ModelDecodingError) {
    let count = set.filter { $0 }.count
    switch rule {
    case .mutuallyExclusive(let names):
      if count > 1 { throw ModelDecodingError(invalid: names[1]) }
    case .exactlyOne(let names):
      if count != 1 { throw ModelDecodingError(invalid: names[0]) }
    case .requires(_, let b):
      if set[0] && !set[1] { throw ModelDecodingError(invalid: b) }
    case .requiredWhen(_, _, let names):
      if set[0], let i = set.dropFirst().firstIndex(of: false) { throw ModelDecodingError(invalid: names[i - 1]) }
    }
  }

  /// `true` when an object satisfies a shape completely (members, nullability, types, nested shapes):
  /// the check for shapes whose model is hand-written rather than generated.
  package static func conforms(_ object: JSONObject, to shape: ShapeSpec, in catalog: ProtocolCatalog) -> Bool {
    for field in shape.fields {
      guard let value = object[field.name] else {
        if field.required { return false }
        continue
      }
      if case .null = value {
        if field.nullable { continue }
        return false
      }
      guard passes(value, field.type, deep: catalog) else { return false }
      if let allowed = field.allowedValues, !allowed.contains(value) { return false }
    }
    return true
  }

  /// `true` when a non-null value satisfies the type. Nested shapes are checked only when `deep`
  /// gives the catalog (otherwise their own generated model checks them).
  static func passes(_ value: JSONValue, _ type: FieldType, deep catalog: ProtocolCatalog? = nil) -> Bool {
    switch type {
    case .any: return true
    case .string(let format):
      guard case .string(let s) = value else { return false }
      return format == .plain || FormatCheck.matches(s, format)
    case .integer(let minimum):
      guard case .number(let n) = value, let v = n.int64Value else { return false }
      return minimum.map { v >= $0 } ?? true
    case .number:
      guard case .number(let n) = value else { return false }
      return n.doubleValue != nil
    case .boolean:
      if case .bool = value { return true }
      return false
    case .shape(let name):
      guard case .object(let object) = value else { return false }
      guard let catalog, let shape = catalog.shapes[name] else { return true }
      return conforms(object, to: shape, in: catalog)
    case .array(let element):
      guard case .array(let items) = value else { return false }
      for item in items {
        if case .null = item { return false }
        if !passes(item, element, deep: catalog) { return false }
      }
      return true
    case .oneOf(let alternatives):
      return alternatives.contains { passes(value, $0, deep: catalog) }
    }
  }
}

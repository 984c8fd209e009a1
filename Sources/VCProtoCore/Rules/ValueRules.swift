import VCProtoJSON

/// The one interpreter of the catalog's value rules: what each ``FieldType`` (type, format, minimum,
/// element, alternatives, shape), a member's nullability, presence and closed set of allowed values
/// mean for a JSON value.
///
/// The walk reports every broken rule as a typed ``ValueViolation`` to a ``ValueRuleSink``: the
/// ``Validator`` maps them to findings, ``RuleBreak`` to a yes/no verdict. The scalar rules themselves
/// are the predicates of `ValueRules+Predicates.swift`, which the generated decoder (`reading(_:)`)
/// calls too; cross-member rules are ``FieldRule/violation(set:)``.
package enum ValueRules {
  /// Walks a non-null `value` of the declared `type`, reporting each broken rule to `sink`. Returns
  /// `true` when the value has the declared JSON type (so that its closed set of allowed values applies).
  ///
  /// A nested shape is checked member by member when `catalog` declares it; with no catalog only its
  /// JSON type is checked (the shape's own generated model checks the rest). `resolved`, when given, is
  /// `catalog`'s declaration of the shape `type` names with its members prepared (``PreparedMember``
  /// looks it up once).
  @discardableResult
  package static func check<Sink: ValueRuleSink>(
    _ value: JSONValue, _ type: FieldType, secret: Bool, in catalog: ProtocolCatalog?,
    shape resolved: PreparedShape? = nil, into sink: inout Sink
  ) -> Bool {
    switch type {
    case .any:
      return true
    case .object:
      guard case .object = value else { return wrongType("object", value, into: &sink) }
      return true
    case .string(let format):
      guard case .string(let s) = value else { return wrongType("string", value, into: &sink) }
      if !accepts(s, format: format) { sink.record(.badFormat(s, format, secret: secret)) }
      return true
    case .integer(let minimum):
      guard case .number(let n) = value, n.isIntegerLiteral else { return wrongType("integer", value, into: &sink) }
      guard let v = n.int64Value else {
        sink.record(.outOfRange(literal: n.literal))
        return true
      }
      if let minimum, !accepts(v, minimum: minimum) { sink.record(.belowMinimum(v, minimum: minimum)) }
      return true
    case .number:
      guard case .number(let n) = value else { return wrongType("number", value, into: &sink) }
      if n.doubleValue == nil { sink.record(.notFinite(literal: n.literal)) }
      return true
    case .boolean:
      guard case .bool = value else { return wrongType("boolean", value, into: &sink) }
      return true
    case .shape(let name):
      guard case .object(let object) = value else { return wrongType("object", value, into: &sink) }
      guard let catalog else { return true }
      if let resolved {
        checkMembers(
          object, fields: resolved.members, extra: resolved.spec.extraMembers, owner: .shape(name), skipping: nil,
          in: catalog, into: &sink)
        return true
      }
      guard let shape = catalog.shapes[name] else { return true }
      checkMembers(
        object, fields: shape.fields, extra: shape.extraMembers, owner: .shape(name), skipping: nil, in: catalog,
        into: &sink)
      return true
    case .array(let element):
      guard case .array(let items) = value else { return wrongType("array", value, into: &sink) }
      for (i, item) in items.enumerated() {
        if sink.isHalted { break }
        sink.enterElement(i)
        if case .null = item {
          sink.record(.nullElement)
        } else {
          check(item, element, secret: secret, in: catalog, into: &sink)
        }
        sink.leaveElement()
      }
      return true
    case .oneOf(let alternatives):
      return checkAlternatives(value, alternatives, secret: secret, in: catalog, into: &sink).sameJSONType
    }
  }

  /// Walks a value of a `oneOf` type: the first alternative the value satisfies wins (its warnings are
  /// kept) and is returned as `chosen`. When none does, the findings of the closest alternative of the
  /// value's JSON type (fewest errors, the first of equals) say what is wrong inside it ("expected
  /// object or object, got object" would not); `sameJSONType` is `false` when no alternative has the
  /// value's JSON type. The typed model's alternative enums take the case this chooses
  /// (``alternative(of:among:in:)``), so model and validator cannot pick differently.
  @inline(__always)  // the walk's own `oneOf` case, as before it was shared with the model
  package static func checkAlternatives<Sink: ValueRuleSink>(
    _ value: JSONValue, _ alternatives: [FieldType], secret: Bool, in catalog: ProtocolCatalog?,
    into sink: inout Sink
  ) -> (chosen: Int?, sameJSONType: Bool) {
    var closest: Sink?
    for (index, alternative) in alternatives.enumerated() {
      var trial = sink.trial()
      let sameJSONType = check(value, alternative, secret: secret, in: catalog, into: &trial)
      if !trial.hasErrors {
        sink.absorb(trial)
        return (index, true)
      }
      if sameJSONType, trial.errorCount < closest?.errorCount ?? .max { closest = trial }
    }
    if let closest {
      sink.absorb(closest)
      return (nil, true)
    }
    return (nil, wrongType(alternatives.map(\.jsonTypeName).joined(separator: " or "), value, into: &sink))
  }

  /// Walks the members of an object declared by `fields`: presence, nullability, type and closed set
  /// of each, then (when the sink wants warnings and `extra` is ``ShapeSpec/ExtraMembers/warn``) each
  /// member the declaration lacks. `skipping` names a member checked elsewhere (a message's `type`).
  /// `fields` are plain ``FieldSpec``s or the same declarations prepared (``PreparedMember``).
  package static func checkMembers<Sink: ValueRuleSink, Fields: Collection>(
    _ object: JSONObject, fields: Fields, extra: ShapeSpec.ExtraMembers, owner: MemberOwner,
    skipping: String?, in catalog: ProtocolCatalog?, into sink: inout Sink
  ) where Fields.Element: MemberDeclaration {
    var matched = 0
    // Canonical frames list members in catalog order (after `type`): look at the member after the last
    // one found before searching the whole object.
    var cursor = skipping.map { object.members.first?.key.hasSameScalars(as: $0) ?? false } ?? false ? 1 : 0
    func lookup(_ name: String) -> JSONValue? {
      if cursor < object.members.count, object.members[cursor].key.hasSameScalars(as: name) {
        cursor += 1
        return object.members[cursor - 1].value
      }
      return object[name]
    }
    for field in fields {
      if sink.isHalted { return }
      let value = lookup(field.name)
      if value != nil { matched += 1 }
      field.check(value, in: catalog, into: &sink)
    }
    guard sink.wantsWarnings, extra == .warn else { return }
    let expected = matched + (skipping.map { object[$0] != nil } ?? false ? 1 : 0)
    guard expected < object.count else { return }
    for member in object.members
    where !(skipping.map { member.key.hasSameScalars(as: $0) } ?? false)
      && !fields.contains(where: { $0.name.hasSameScalars(as: member.key) })
    {
      sink.record(.undeclaredMember(member.key, owner: owner))
    }
  }

  /// Walks one declared member of an object: its presence (`value` is `nil` when absent), its
  /// nullability, then its type and closed set of allowed values. `resolved` as in
  /// ``check(_:_:secret:in:shape:into:)``.
  package static func checkMember<Sink: ValueRuleSink>(
    _ value: JSONValue?, _ field: FieldSpec, in catalog: ProtocolCatalog?, shape resolved: PreparedShape? = nil,
    into sink: inout Sink
  ) {
    guard let value else {
      if field.required { sink.record(.missingMember(field.name)) }
      return
    }
    if case .null = value {
      if !field.nullable { sink.record(.nullMember(field.name)) }
      return
    }
    let composite = field.type.isComposite
    sink.enterMember(field.name, composite: composite)
    if check(value, field.type, secret: field.secret, in: catalog, shape: resolved, into: &sink),
      let allowed = field.allowedValues,
      !accepts(value, allowed: allowed)
    {
      sink.record(.notAllowed(value, allowed: allowed, member: field.name, secret: field.secret))
    }
    sink.leaveMember(composite: composite)
  }

  /// Reports a value of the wrong JSON type; always `false` (the type did not match).
  private static func wrongType<Sink: ValueRuleSink>(
    _ expected: String, _ value: JSONValue, into sink: inout Sink
  ) -> Bool {
    sink.record(.wrongType(expected: expected, got: value.typeName))
    return false
  }
}

extension FieldType {
  /// `true` for types whose values contain other values (objects, arrays, alternatives).
  package var isComposite: Bool {
    switch self {
    case .shape, .array, .oneOf, .any, .object: return true
    default: return false
    }
  }

  /// The JSON type name(s) a value of this type has.
  package var jsonTypeName: String {
    switch self {
    case .string: return "string"
    case .integer: return "integer"
    case .number: return "number"
    case .boolean: return "boolean"
    case .any: return "any"
    case .shape, .object: return "object"
    case .array: return "array"
    case .oneOf(let types): return types.map(\.jsonTypeName).joined(separator: " or ")
    }
  }
}

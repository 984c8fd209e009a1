import VCProtoJSON

/// What changed between two protocol versions: types added and removed, and for the types and shapes
/// both have, members added, removed, retyped, and changes of requiredness, nullability, allowed and
/// known values, defaults, status and cross-member rules. `vcproto catalog --diff A B` prints it.
package struct CatalogDiff: Sendable {
  /// One change of one member (or of the type itself, when `member` is `nil`).
  package struct Change: Sendable, Hashable {
    /// What changed.
    package enum Kind: String, Sendable, Hashable {
      case added, removed, retyped, required, nullable
      case allowedValues = "allowed_values"
      case knownValues = "known_values"
      case defaultValue = "default"
      case status, rules
    }
    /// The member, or `nil` for a change of the type itself (status, rules).
    package var member: String?
    /// What changed.
    package var kind: Kind
    /// The old value in words (`nil` for an added member).
    package var from: String?
    /// The new value in words (`nil` for a removed member).
    package var to: String?
  }

  /// The changes of one message type or shape both versions have.
  package struct Changed: Sendable, Hashable {
    /// The type or shape name.
    package var name: String
    /// The message's direction (`nil` for a shape).
    package var direction: MessageDirection?
    /// The changes, in member order.
    package var changes: [Change]
  }

  /// The older side.
  package var from: String
  /// The newer side.
  package var to: String
  /// Message types only `to` has, with their direction.
  package var typesAdded: [(String, MessageDirection)] = []
  /// Message types only `from` has.
  package var typesRemoved: [(String, MessageDirection)] = []
  /// Types both have whose members or status differ.
  package var typesChanged: [Changed] = []
  /// Shapes only `to` uses.
  package var shapesAdded: [String] = []
  /// Shapes only `from` uses.
  package var shapesRemoved: [String] = []
  /// Shapes both use whose members differ.
  package var shapesChanged: [Changed] = []

  /// The differences from `a` to `b`.
  package init(from a: ProtocolCatalog, to b: ProtocolCatalog) {
    from = a.version
    to = b.version
    for spec in b.messages where spec.isModelled && !(a.message(spec.type)?.isModelled ?? false) {
      typesAdded.append((spec.type, spec.direction))
    }
    for spec in a.messages where spec.isModelled && !(b.message(spec.type)?.isModelled ?? false) {
      typesRemoved.append((spec.type, spec.direction))
    }
    for new in b.messages where new.isModelled {
      guard let old = a.message(new.type), old.isModelled else { continue }
      var changes: [Change] = []
      if old.status != new.status {
        changes.append(Change(member: nil, kind: .status, from: old.status.rawValue, to: new.status.rawValue))
      }
      if old.rules != new.rules {
        changes.append(
          Change(member: nil, kind: .rules, from: Self.rulesText(old.rules), to: Self.rulesText(new.rules)))
      }
      changes += Self.memberChanges(old.fields, new.fields)
      if !changes.isEmpty { typesChanged.append(Changed(name: new.type, direction: new.direction, changes: changes)) }
    }
    shapesAdded = b.shapeOrder.filter { a.shapes[$0] == nil }
    shapesRemoved = a.shapeOrder.filter { b.shapes[$0] == nil }
    for name in b.shapeOrder {
      guard let old = a.shapes[name], let new = b.shapes[name] else { continue }
      let changes = Self.memberChanges(old.fields, new.fields)
      if !changes.isEmpty { shapesChanged.append(Changed(name: name, direction: nil, changes: changes)) }
    }
  }

  /// `true` when the two versions are the same protocol.
  package var isEmpty: Bool {
    typesAdded.isEmpty && typesRemoved.isEmpty && typesChanged.isEmpty && shapesAdded.isEmpty
      && shapesRemoved.isEmpty && shapesChanged.isEmpty
  }

  static func memberChanges(_ old: [FieldSpec], _ new: [FieldSpec]) -> [Change] {
    var changes: [Change] = []
    for field in old where !new.contains(where: { $0.name == field.name }) {
      changes.append(Change(member: field.name, kind: .removed, from: describe(field), to: nil))
    }
    for field in new {
      guard let before = old.first(where: { $0.name == field.name }) else {
        changes.append(Change(member: field.name, kind: .added, from: nil, to: describe(field)))
        continue
      }
      func change(_ kind: Change.Kind, _ a: String, _ b: String) {
        if a != b { changes.append(Change(member: field.name, kind: kind, from: a, to: b)) }
      }
      change(.retyped, typeText(before.type), typeText(field.type))
      change(.required, before.required ? "required" : "optional", field.required ? "required" : "optional")
      change(.nullable, before.nullable ? "nullable" : "not nullable", field.nullable ? "nullable" : "not nullable")
      change(.allowedValues, allowedText(before), allowedText(field))
      change(.knownValues, knownText(before), knownText(field))
      change(.defaultValue, before.defaultValue?.jsonText ?? "none", field.defaultValue?.jsonText ?? "none")
    }
    return changes
  }

  /// `integer >= 0, optional, nullable, one of true`.
  static func describe(_ field: FieldSpec) -> String {
    var words = [typeText(field.type), field.required ? "required" : "optional"]
    if field.nullable { words.append("nullable") }
    if field.allowedValues != nil { words.append(allowedText(field)) }
    return words.joined(separator: ", ")
  }

  static func allowedText(_ field: FieldSpec) -> String {
    guard let allowed = field.allowedValues else { return "any value" }
    if allowed.isEmpty { return field.nullable ? "only null" : "no value" }
    return "one of " + allowed.map(\.jsonText).joined(separator: ", ")
  }

  static func knownText(_ field: FieldSpec) -> String {
    field.knownValues.isEmpty ? "none" : field.knownValues.joined(separator: ", ")
  }

  static func rulesText(_ rules: [FieldRule]) -> String {
    rules.isEmpty ? "none" : rules.map(\.summary).joined(separator: "; ")
  }

  /// The type in words: `string (uuid)`, `integer >= 0`, `array of HistoryMessage`.
  static func typeText(_ type: FieldType) -> String {
    switch type {
    case .string(let format): return format == .plain ? "string" : "string (\(format.rawValue))"
    case .integer(let minimum): return minimum.map { "integer >= \($0)" } ?? "integer"
    case .number: return "number"
    case .boolean: return "boolean"
    case .any: return "any"
    case .object: return "object"
    case .shape(let name): return name
    case .array(let element): return "array of " + typeText(element)
    case .oneOf(let types): return types.map(typeText).joined(separator: " or ")
    }
  }
}

import VCProtoCore
import VCProtoJSON

/// Typed `oneOf` members: a catalog type with alternatives becomes an enum with one case per
/// alternative (`HistoryMessageOrClaudeRecord.historyMessage(HistoryMessage)`), generated into
/// `Alternatives.swift`.
///
/// The case is never chosen by generated code: decoding asks ``ValueRules`` which alternative the value
/// takes (the validator's own `oneOf` rule: the first alternative the value satisfies completely,
/// nested shapes checked member by member) and then builds that alternative. The direct decode path
/// reads the element as JSON and makes the same call, so the two paths and the validator agree by
/// construction. Encoding writes the chosen alternative's value as its own type writes it.
///
/// A `oneOf` stays ``JSONValue`` when two alternatives would have the same Swift type (a string of two
/// formats, say) or an alternative has no Swift type of its own (`any`, a nested `oneOf`). Generation
/// refuses such a `oneOf` when it names a shape: the shape's members would then be checked by no
/// generated code.
extension SwiftModelGenerator {
  /// One generated alternatives enum: its Swift name, its alternatives, and the protocol versions of
  /// the structs that use it (the oldest one's catalog checks nested shapes).
  package struct AlternativeEnum: Sendable, Hashable {
    /// One case: the catalog type, the Swift type of its value and the case name.
    package struct Alternative: Sendable, Hashable {
      /// The alternative as the catalog declares it.
      package var type: FieldType
      /// The Swift type of the case's value (`HistoryMessage`, `[CommandNode]`).
      package var swiftType: String
      /// The case name (`historyMessage`).
      package var caseName: String
    }

    /// The enum's Swift name (`HistoryMessageOrClaudeRecord`).
    package var name: String
    /// The cases, in the catalog's order of alternatives.
    package var alternatives: [Alternative]
    /// The protocol versions of the generated structs that use the enum.
    package var versions: Set<ProtocolVersion>
  }

  /// The UpperCamelCase name part of one alternative, with shapes under their catalog names; `nil` when
  /// the alternative has no Swift type of its own.
  static func alternativePart(_ type: FieldType, shapeNames: [String: String] = [:]) -> String? {
    switch type {
    case .string: return "String"
    case .integer: return "Int"
    case .number: return "Double"
    case .boolean: return "Bool"
    case .shape(let name): return shapeNames[name] ?? name
    case .array(let element): return alternativePart(element, shapeNames: shapeNames).map { $0 + "List" }
    case .any, .object, .oneOf: return nil
    }
  }

  /// Whether the model types these alternatives as an enum: every alternative has a Swift type of its
  /// own, and no two have the same one.
  package static func typesAlternatives(_ alternatives: [FieldType]) -> Bool {
    let parts = alternatives.compactMap { alternativePart($0) }
    return parts.count == alternatives.count && Set(parts).count == parts.count
  }

  /// The enum's Swift name: the alternatives' names joined by `Or` (`HistoryMessageOrClaudeRecord`).
  func alternativesName(_ alternatives: [FieldType]) -> String {
    alternatives.map { Self.alternativePart($0, shapeNames: shapeNames)! }.joined(separator: "Or")
  }

  /// Every `oneOf` (directly or as array elements) in `type`.
  static func alternativeSets(in type: FieldType) -> [[FieldType]] {
    switch type {
    case .array(let element): return alternativeSets(in: element)
    case .oneOf(let alternatives): return [alternatives]
    default: return []
    }
  }

  /// Every generated struct (message payload variant or shape variant): its Swift name, fields,
  /// versions and shape names.
  var generatedVariants: [(owner: String, variant: ModelPlan.Variant)] {
    var out: [(String, ModelPlan.Variant)] = []
    for m in plan.messageOrder {
      for v in plan.messages[m.type] ?? [] { out.append((m.type, v)) }
    }
    let declared = Dictionary(uniqueKeysWithValues: ProtocolCatalog.declaration.shapes.map { ($0.name, $0) })
    for name in plan.shapeOrder where declared[name]?.handWrittenModel == false {
      for v in plan.shapes[name] ?? [] { out.append((name, v)) }
    }
    return out
  }

  /// The alternatives enums the generated structs use, by name.
  package var alternativeEnums: [AlternativeEnum] {
    var enums: [String: AlternativeEnum] = [:]
    var order: [String] = []
    for (owner, variant) in generatedVariants {
      var g = self
      g.shapeNames = variant.shapeNames
      for field in variant.fields {
        for alternatives in Self.alternativeSets(in: field.type) {
          guard Self.typesAlternatives(alternatives) else {
            precondition(
              alternatives.allSatisfy { $0.shapeNames.isEmpty },
              "\(owner).\(field.name): a oneOf naming a shape needs alternatives of distinct Swift types")
            continue
          }
          precondition(field.allowedValues == nil, "\(owner).\(field.name): allowed values on a typed oneOf")
          let name = g.alternativesName(alternatives)
          if enums[name] == nil {
            order.append(name)
            let cases = alternatives.map { type in
              let part = Self.alternativePart(type, shapeNames: g.shapeNames)!
              return AlternativeEnum.Alternative(
                type: type, swiftType: g.swiftType(type),
                caseName: Self.caseName(part.prefix(1).lowercased() + part.dropFirst()))
            }
            enums[name] = AlternativeEnum(name: name, alternatives: cases, versions: [])
          }
          enums[name]!.versions.formUnion(variant.versions)
        }
      }
    }
    let result = order.map { enums[$0]! }
    for e in result { Self.requireSameShapes(e) }
    return result
  }

  /// Stops generation unless the shapes reachable from the enum's alternatives are checked alike in
  /// every version that uses it: the enum checks them in one version's catalog.
  static func requireSameShapes(_ e: AlternativeEnum) {
    let versions = e.versions.sorted()
    let oldest = ProtocolCatalog.catalog(versions[0])
    let names = ModelPlan.shapesUsed(e.alternatives.map { FieldSpec("", $0.type) }, oldest)
    for version in versions.dropFirst() {
      let catalog = ProtocolCatalog.catalog(version)
      for name in names {
        precondition(
          oldest.shapes[name]?.fields.map(ModelPlan.checked) == catalog.shapes[name]?.fields.map(ModelPlan.checked),
          "\(e.name): shape \(name) differs between \(versions[0]) and \(version)")
      }
    }
  }

  /// `Alternatives.swift`: each of ``alternativeEnums``.
  func alternatives() -> String {
    var s = Self.header
    for e in alternativeEnums {
      let catalog = e.versions.min()!
      let names = e.alternatives.map { "`\($0.swiftType)`" }
      s +=
        "/// One of \(names.joined(separator: " or ")) (a catalog `oneOf`, protocol \(VersionSet(Array(e.versions)))).\n"
      s += "///\n"
      s += "/// The case is the first alternative the value satisfies completely, exactly as the validator's\n"
      s += "/// `oneOf` rule chooses it (nested shapes checked in protocol \(catalog.rawValue)'s catalog).\n"
      s += "public enum \(e.name): Sendable, Hashable, JSONFieldValue, ModelReadable {\n"
      for (i, a) in e.alternatives.enumerated() {
        let earlier = e.alternatives[..<i].map { "`\($0.swiftType)`" }
        let not = earlier.isEmpty ? "" : " (and not \(earlier.joined(separator: " or ")))"
        s += "  /// The value satisfies `\(a.swiftType)`\(not).\n"
        s += "  case \(a.caseName)(\(a.swiftType))\n"
      }
      s += "\n  /// The alternatives in catalog order, the order the validator tries them in.\n"
      s += "  package static let alternatives: [FieldType] = [\n"
      s += e.alternatives.map { "    \(Self.literal($0.type)),\n" }.joined()
      s += "  ]\n\n"
      s += "  /// Reads the value whole, then the alternative the validator's `oneOf` rule chooses from it (with\n"
      s += "  /// the tree reader, whichever reader `r` is); a value no alternative accepts is refused.\n"
      s += "  package static func read<R: ModelReader>(_ r: inout R) throws(DirectPathError) -> Self {\n"
      s += "    let refusal = r.miss()\n"
      s += "    let value = try r.readValue()\n"
      s += "    var tree = JSONTreeReader(value)\n"
      s += "    switch ValueRules.alternative(of: value, among: alternatives, in: .\(ModelPlan.caseName(catalog))) {\n"
      for (i, a) in e.alternatives.enumerated() {
        s += "    case \(i): return .\(a.caseName)(try \(a.swiftType).read(&tree))\n"
      }
      s += "    default: throw refusal\n    }\n  }\n\n"
      s += "  /// Writes the chosen alternative's value, as its own type writes it.\n"
      s += "  public func encodeField(to writer: inout JSONWriter) {\n    switch self {\n"
      for a in e.alternatives {
        s += "    case .\(a.caseName)(let value): value.encodeField(to: &writer)\n"
      }
      s += "    }\n  }\n}\n\n"
    }
    return String(s.dropLast())
  }
}

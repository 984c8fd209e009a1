import VCProtoCore
import VCProtoJSON

/// Which Swift types the model has, across protocol versions.
///
/// A message type or shape whose members are checked the same way in every version it exists in has
/// one struct (the plain name, e.g. `PingMessage`, `CommandNode`). One whose members differ has a
/// struct per span of versions with the same members: a shape keeps its plain name for the oldest span
/// and adds the first version of each later one (`HistoryMessage`, `HistoryMessageV0_4_0`); a message's
/// payload is an enum with one case per span (`SessionHistoryMessage.v0_4_0(SessionHistoryMessageV0_4_0)`)
/// so an app switches on the version it negotiated. Members differ when the generated code would check
/// them differently (name, JSON type, requiredness, nullability, closed set, default, capability,
/// secrecy, the nested shapes' variants); documentation and known values do not count.
///
/// A member of alternative types (`oneOf`) is an enum with a case per alternative, shared by every
/// struct that uses the same alternatives (`SwiftModelGenerator+Alternatives.swift`).
///
/// Handshake messages (``Validator/handshakeTypes``) are the exception: one struct for every version,
/// with the union of the versions' members (a member optional unless every version requires it, null
/// allowed when any version allows it), because negotiation builds and reads them before a version is
/// chosen. Their decoder (`reading(_:typeConsumed:version:)`) checks the exact rules of the
/// connection's version: presence and null per version (``MemberVersions``), the handshake's version rules
/// and list bound (``HandshakeRules``).
package struct ModelPlan: Sendable {
  /// One struct: the versions it serves, its members and rules (as projected in those versions), its
  /// Swift name, and the Swift names of the shapes its members use.
  package struct Variant: Sendable {
    package var versions: [ProtocolVersion]
    package var fields: [FieldSpec]
    package var rules: [FieldRule]
    package var name: String
    package var shapeNames: [String: String]
    /// For a handshake message's one struct (``union(_:_:_:)``): per member, the versions that declare,
    /// require and allow null for it, which its direct decode path checks against the connection's
    /// version; `nil` for every other struct (it checks exactly its versions' rules).
    package var memberVersions: [String: MemberVersions]? = nil
  }

  /// The versions in which a member of a handshake message is declared, required, and nullable.
  package struct MemberVersions: Sendable {
    package var declared = VersionSet.none
    package var required = VersionSet.none
    package var nullable = VersionSet.none
  }

  /// Shape name -> its variants, oldest first.
  package var shapes: [String: [Variant]] = [:]
  /// Shape names in declaration order.
  package var shapeOrder: [String] = []
  /// Message type -> its variants, oldest first.
  package var messages: [String: [Variant]] = [:]
  /// Every message type modelled in some version, in declaration order, with its spec (the
  /// declaration's: doc, direction, capability).
  package var messageOrder: [MessageSpec] = []

  /// What the generated code checks of a field (documentation and known values left out).
  static func checked(_ field: FieldSpec) -> FieldSpec {
    var f = field
    f.doc = ""
    f.knownValues = []
    f.versions = .all
    return f
  }

  package init(_ declaration: ProtocolDeclaration) {
    let catalogs = ProtocolVersion.allCases.map(ProtocolCatalog.catalog)
    // Shapes first: a message's variants depend on its shapes' variants.
    var shapeVariant: [ProtocolVersion: [String: String]] = [:]
    for shape in declaration.shapes {
      var variants: [Variant] = []
      for (version, catalog) in zip(ProtocolVersion.allCases, catalogs) {
        guard let projected = catalog.shapes[shape.name] else { continue }
        let key = projected.fields.map(Self.checked)
        if let i = variants.firstIndex(where: { $0.fields.map(Self.checked) == key }) {
          variants[i].versions.append(version)
        } else {
          let name = variants.isEmpty ? shape.name : shape.name + Self.suffix(version)
          variants.append(
            Variant(versions: [version], fields: projected.fields, rules: [], name: name, shapeNames: [:]))
        }
      }
      guard !variants.isEmpty else { continue }
      for variant in variants { for v in variant.versions { shapeVariant[v, default: [:]][shape.name] = variant.name } }
      shapes[shape.name] = variants
      shapeOrder.append(shape.name)
    }
    for name in shapeOrder {
      for i in shapes[name]!.indices {
        let version = shapes[name]![i].versions[0]
        shapes[name]![i].shapeNames = shapeVariant[version] ?? [:]
      }
    }
    var seen: Set<String> = []
    for spec in declaration.messages where spec.isModelled && seen.insert(spec.type).inserted {
      if Validator.handshakeTypes.contains(spec.type) {
        messages[spec.type] = [Self.union(spec, catalogs, shapeVariant)]
        messageOrder.append(spec)
        continue
      }
      var variants: [Variant] = []
      var keys: [String] = []
      for (version, catalog) in zip(ProtocolVersion.allCases, catalogs) {
        guard let projected = catalog.message(spec.type), projected.isModelled else { continue }
        let used = Self.shapesUsed(projected.fields, catalog)
        let names = shapeVariant[version]?.filter { used.contains($0.key) } ?? [:]
        let key =
          "\(projected.fields.map(Self.checked))|\(projected.rules)|"
          + names.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        if let i = keys.firstIndex(of: key) {
          variants[i].versions.append(version)
        } else {
          keys.append(key)
          variants.append(
            Variant(
              versions: [version], fields: projected.fields, rules: projected.rules, name: "", shapeNames: names))
        }
      }
      let base = SwiftModelGenerator.payloadName(spec.type)
      for i in variants.indices {
        variants[i].name = variants.count == 1 ? base : base + Self.suffix(variants[i].versions[0])
        variants[i].shapeNames = shapeVariant[variants[i].versions[0]] ?? [:]
      }
      messages[spec.type] = variants
      messageOrder.append(spec)
    }
  }

  /// One struct for every version of a handshake message: the union of the members.
  static func union(
    _ spec: MessageSpec, _ catalogs: [ProtocolCatalog], _ shapeVariant: [ProtocolVersion: [String: String]]
  ) -> Variant {
    let projections = catalogs.compactMap { $0.message(spec.type) }
    var fields: [FieldSpec] = []
    for projection in projections {
      for field in projection.fields {
        guard let i = fields.firstIndex(where: { $0.name == field.name }) else {
          fields.append(field)
          continue
        }
        precondition(fields[i].type == field.type, "\(spec.type).\(field.name) changes type between versions")
        fields[i].required = fields[i].required && field.required
        fields[i].nullable = fields[i].nullable || field.nullable
        if let a = fields[i].allowedValues, let b = field.allowedValues {
          fields[i].allowedValues = a + b.filter { !a.contains($0) }
        } else {
          fields[i].allowedValues = nil
        }
        fields[i].knownValues += field.knownValues.filter { !fields[i].knownValues.contains($0) }
        fields[i].doc = field.doc
      }
    }
    for i in fields.indices where projections.contains(where: { $0.field(fields[i].name) == nil }) {
      fields[i].required = false
    }
    // What the union loses, the direct decode path checks per version: presence and null. Closed sets
    // and cross-member rules are not checked per version there, so they must not differ.
    var memberVersions: [String: MemberVersions] = [:]
    for (version, catalog) in zip(ProtocolVersion.allCases, catalogs) {
      guard let projection = catalog.message(spec.type) else { continue }
      precondition(
        projection.rules == projections.last?.rules, "\(spec.type): cross-member rules change between versions")
      for field in projection.fields {
        let union = fields.first { $0.name == field.name }
        precondition(
          union?.allowedValues == field.allowedValues,
          "\(spec.type).\(field.name): allowed values change between versions")
        let one = VersionSet([version])
        var member = memberVersions[field.name] ?? MemberVersions()
        member.declared = member.declared.union(one)
        if field.required { member.required = member.required.union(one) }
        if field.nullable { member.nullable = member.nullable.union(one) }
        memberVersions[field.name] = member
      }
    }
    return Variant(
      versions: ProtocolVersion.allCases.filter { spec.versions.contains($0) }, fields: fields,
      rules: projections.last?.rules ?? [], name: SwiftModelGenerator.payloadName(spec.type),
      shapeNames: shapeVariant[ProtocolVersion.oldest] ?? [:], memberVersions: memberVersions)
  }

  /// `V0_4_0`.
  package static func suffix(_ version: ProtocolVersion) -> String {
    "V" + version.rawValue.replacingOccurrences(of: ".", with: "_")
  }

  /// `v0_4_0`: the enum case of a payload variant.
  package static func caseName(_ version: ProtocolVersion) -> String {
    "v" + version.rawValue.replacingOccurrences(of: ".", with: "_")
  }

  /// Every shape name reachable from `fields` in `catalog`.
  static func shapesUsed(_ fields: [FieldSpec], _ catalog: ProtocolCatalog) -> Set<String> {
    var found: Set<String> = []
    var pending = fields.flatMap(\.type.shapeNames)
    while let name = pending.popLast() {
      guard found.insert(name).inserted else { continue }
      pending += catalog.shapes[name]?.fields.flatMap(\.type.shapeNames) ?? []
    }
    return found
  }
}

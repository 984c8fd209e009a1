import VCProtoJSON

/// Every protocol version at once: each message, member and shape declared once, with the versions it
/// belongs to. A member that changed between versions is declared once per span of versions.
///
/// ``projection(_:)`` yields one version's ``ProtocolCatalog``; the validator, the schema and spec
/// generators work on projections. Lookups across versions (which versions have a type or a member)
/// answer the findings that name another version.
public struct ProtocolDeclaration: Sendable {
  /// Every message type, client-to-server first, each with its versions.
  public let messages: [MessageSpec]
  /// Every named shape (shapes carry no versions of their own: their members do).
  public let shapes: [ShapeSpec]

  /// Creates a declaration.
  package init(messages: [MessageSpec], shapes: [ShapeSpec]) {
    self.messages = messages
    self.shapes = shapes
  }

  /// The catalog of one version: the messages of that version with the members of that version, the
  /// shapes they use (with the members of that version), in declaration order.
  public func projection(_ version: ProtocolVersion) -> ProtocolCatalog {
    func project(_ fields: [FieldSpec]) -> [FieldSpec] { fields.filter { $0.versions.contains(version) } }
    var projected: [MessageSpec] = []
    let types = Set(messages.filter { $0.versions.contains(version) && $0.isModelled }.map(\.type))
    for spec in messages where spec.versions.contains(version) {
      var copy = spec
      copy.answers = spec.answers.filter(types.contains)
      copy.refusalTypes = spec.refusalTypes.filter(types.contains)
      copy.followedBy = spec.followedBy.filter(types.contains)
      copy.status = spec.status(in: version)
      copy.statusChanges = [:]
      copy.versions = .only(version)
      copy.fields = project(spec.fields)
      copy.rules = spec.rules.filter { rule in rule.fieldNames.allSatisfy { name in copy.field(name) != nil } }
      projected.append(copy)
    }
    var used: Set<String> = []
    var pending = projected.flatMap { $0.fields.map(\.type) }
    let byName = Dictionary(uniqueKeysWithValues: shapes.map { ($0.name, $0) })
    while let type = pending.popLast() {
      for name in type.shapeNames where used.insert(name).inserted {
        pending += project(byName[name]?.fields ?? []).map(\.type)
      }
    }
    let projectedShapes = shapes.filter { used.contains($0.name) }.map { shape -> ShapeSpec in
      var copy = shape
      copy.fields = project(shape.fields)
      return copy
    }
    return ProtocolCatalog(version: version.rawValue, messages: projected, shapes: projectedShapes)
  }

  /// The versions in which `type` is a real message type (declared and not `nonexistent`). Types and
  /// member names match by their exact Unicode scalars, here and below.
  public func versions(ofType type: String) -> VersionSet {
    messages.filter { $0.type.hasSameScalars(as: type) && $0.isModelled }.reduce(.none) { $0.union($1.versions) }
  }

  /// The versions in which the message `type` has a member `name`.
  public func versions(ofMember name: String, inMessage type: String) -> VersionSet {
    messages.filter { $0.type.hasSameScalars(as: type) }.reduce(.none) { result, spec in
      spec.fields.filter { $0.name.hasSameScalars(as: name) }.reduce(result) {
        $0.union($1.versions.intersection(spec.versions))
      }
    }
  }

  /// The versions in which the shape `shape` has a member `name`.
  public func versions(ofMember name: String, inShape shape: String) -> VersionSet {
    shapes.filter { $0.name.hasSameScalars(as: shape) }.flatMap(\.fields).filter { $0.name.hasSameScalars(as: name) }
      .reduce(.none) {
        $0.union($1.versions)
      }
  }
}

extension FieldType {
  /// The shape names this type refers to directly (through arrays and alternatives).
  package var shapeNames: [String] {
    switch self {
    case .shape(let name): return [name]
    case .array(let element): return element.shapeNames
    case .oneOf(let types): return types.flatMap(\.shapeNames)
    default: return []
    }
  }
}

extension MessageDecoder {
  /// The message types whose generated struct (built from ``ProtocolCatalog/modelVersion``) checks
  /// exactly a version's rules: the type's members and every shape reachable from them are declared the
  /// same in that version as in the model's. For these types the direct and tree paths decide alone in
  /// that version too; the other types of the version are decided by the validator and kept whole.
  static let typedTypes: [KnownVersion: Set<String>] = {
    let model = ProtocolCatalog.modelled
    var table: [KnownVersion: Set<String>] = [:]
    for version in KnownVersion.allCases {
      let catalog = ProtocolCatalog.catalog(version)
      table[version] = Set(
        catalog.messages.filter { spec in
          guard spec.isModelled, let modelled = model.message(spec.type) else { return false }
          return modelled.fields == spec.fields && modelled.rules == spec.rules
            && sameShapes(from: spec.fields, catalog, model)
        }.map(\.type))
    }
    return table
  }()

  /// Whether every shape reachable from `fields` has the same members in both catalogs.
  static func sameShapes(from fields: [FieldSpec], _ a: ProtocolCatalog, _ b: ProtocolCatalog) -> Bool {
    var seen: Set<String> = []
    var pending = fields.flatMap(\.type.shapeNames)
    while let name = pending.popLast() {
      guard seen.insert(name).inserted else { continue }
      guard let shape = a.shapes[name], shape == b.shapes[name] else { return false }
      pending += shape.fields.flatMap(\.type.shapeNames)
    }
    return true
  }

  /// Whether the generated struct of `type` checks exactly the rules of `version` (see ``typedTypes``).
  static func typedModelCovers(_ type: String, in version: String) -> Bool {
    guard let known = KnownVersion(rawValue: version) else { return false }
    return typedTypes[known]?.contains(type) ?? false
  }
}

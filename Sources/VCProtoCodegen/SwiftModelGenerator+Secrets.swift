import VCProtoCore
import VCProtoJSON

extension SwiftModelGenerator {
  /// Every generated type (message payload or shape) with a member the catalog marks secret: its
  /// name and members, in catalog order.
  package var secretHoldingTypes: [(name: String, fields: [FieldSpec])] {
    var types: [(name: String, fields: [FieldSpec])] = []
    for direction in [MessageDirection.clientToServer, .serverToClient] {
      for m in modelled(direction) {
        for v in plan.messages[m.type] ?? [] where v.fields.contains(where: \.secret) {
          types.append((v.name, v.fields))
        }
      }
    }
    let declared = Dictionary(uniqueKeysWithValues: ProtocolCatalog.declaration.shapes.map { ($0.name, $0) })
    for name in plan.shapeOrder {
      guard let shape = declared[name], !shape.handWrittenModel else { continue }
      for v in plan.shapes[name] ?? [] where v.fields.contains(where: \.secret) { types.append((v.name, v.fields)) }
    }
    return types
  }

  /// `Secrets.swift`: for each of ``secretHoldingTypes``, a `description` and `debugDescription`
  /// (the JSON text, secrets masked: `JSONModel+RedactedDescription.swift`) and a `customMirror`
  /// with the stored properties, each secret one shown as the mask when set.
  func secrets() -> String {
    var s = Self.header
    s += "// Every type below holds a member the catalog marks secret; its printed forms mask it.\n"
    for type in secretHoldingTypes {
      let secret = type.fields.filter(\.secret).map { "`\($0.name)`" }.joined(separator: ", ")
      s += "\n/// Printed forms that mask the secret members \(secret).\n"
      s += "extension \(type.name): CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {\n"
      s += "  /// The JSON text with secrets masked.\n"
      s += "  public var description: String { redactedDescription }\n"
      s += "  /// The JSON text with secrets masked.\n"
      s += "  public var debugDescription: String { redactedDescription }\n"
      s += "  /// The stored properties, secrets masked.\n"
      s += "  public var customMirror: Mirror {\n"
      s += "    Mirror(\n"
      s += "      self,\n"
      s += "      children: [\n"
      for f in type.fields {
        let value: String
        if !f.secret {
          value = "\(Self.identifier(f.name)) as Any"
        } else if isOptional(f) {
          value = "\(Self.identifier(f.name)).map { _ in Redaction.mask } as Any"
        } else {
          value = "Redaction.mask as Any"
        }
        s += "        (\"\(Self.bare(f.name))\", \(value)),\n"
      }
      s +=
        "        (\"additionalMembers\", Redaction.redacted(.object(additionalMembers)).objectValue ?? JSONObject()),\n"
      s += "      ],\n"
      s += "      displayStyle: .struct)\n"
      s += "  }\n"
      s += "}\n"
    }
    return s
  }
}

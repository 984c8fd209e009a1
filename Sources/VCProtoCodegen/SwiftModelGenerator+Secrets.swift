import VCProto

extension SwiftModelGenerator {
  /// Every generated type (message payload or shape) with a member the catalog marks secret, with
  /// the JSON names of those members, in catalog order.
  public var secretHoldingTypes: [(name: String, secretFields: [String])] {
    var types: [(name: String, secretFields: [String])] = []
    for direction in [MessageDirection.clientToServer, .serverToClient] {
      for m in modelled(direction) {
        let secret = m.fields.filter(\.secret).map(\.name)
        if !secret.isEmpty { types.append((Self.payloadName(m.type), secret)) }
      }
    }
    for name in catalog.shapeOrder {
      guard let shape = catalog.shapes[name], !shape.handWrittenModel else { continue }
      let secret = shape.fields.filter(\.secret).map(\.name)
      if !secret.isEmpty { types.append((name, secret)) }
    }
    return types
  }

  /// `Secrets.swift`: for each of ``secretHoldingTypes``, a `description`, `debugDescription` and
  /// `customMirror` that mask the secret members (see `JSONModel+RedactedDescription.swift`).
  func secrets() -> String {
    var s = Self.header
    s += "// Every type below holds a member the catalog marks secret; its printed forms mask it.\n"
    for type in secretHoldingTypes {
      s += """

        /// Printed forms that mask the secret members \(type.secretFields.map { "`\($0)`" }.joined(separator: ", ")).
        extension \(type.name): CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
          /// The JSON text with secrets masked.
          public var description: String { redactedDescription }
          /// The JSON text with secrets masked.
          public var debugDescription: String { redactedDescription }
          /// The JSON members with secrets masked.
          public var customMirror: Mirror { redactedMirror }
        }

        """
    }
    return s
  }
}

import VCProtoJSON

/// What declares the members being checked: a message type or a named shape.
package enum MemberOwner: Sendable, Hashable {
  case message(String)
  case shape(String)

  /// The versions that declare the member `name` here (for a finding about an undeclared member).
  package func versions(ofMember name: String) -> VersionSet {
    switch self {
    case .message(let type): return ProtocolCatalog.declaration.versions(ofMember: name, inMessage: type)
    case .shape(let shape): return ProtocolCatalog.declaration.versions(ofMember: name, inShape: shape)
    }
  }
}

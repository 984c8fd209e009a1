import VCProtoJSON

extension Mirror {
  /// `TypeName(label: value, ...)` from the mirror's children, for the `description` of a type whose
  /// `customMirror` lists only what may be shown (its secrets already masked).
  package func structDescription(of typeName: String) -> String {
    let members = children.map { child in
      "\(child.label ?? "_"): " + String(reflecting: child.value)
    }
    return "\(typeName)(\(members.joined(separator: ", ")))"
  }
}

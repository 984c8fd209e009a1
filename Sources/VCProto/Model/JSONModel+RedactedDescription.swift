extension JSONModel {
  /// `TypeName({...})`: the value as its JSON text with every secret member masked
  /// (``Redaction/redacted(_:)``). The generated model's types that hold a secret (`Secrets.swift`)
  /// use it as their `description` and `debugDescription`, so `print`, string interpolation and
  /// `String(describing:)` never show the secret.
  var redactedDescription: String {
    "\(Self.self)(\(redactedJSON.jsonText))"
  }

  /// A mirror whose children are the value's JSON members, secrets masked, so `dump` and debuggers
  /// never show the secret either.
  var redactedMirror: Mirror {
    let members = redactedJSON.objectValue?.members ?? []
    return Mirror(
      self, children: members.map { (label: Optional($0.key), value: $0.value as Any) }, displayStyle: .struct)
  }

  /// The value as JSON with secrets masked; if its own encoding cannot be read back (a bug), only
  /// the mask, so a failure can never print the secret.
  private var redactedJSON: JSONValue {
    var writer = JSONWriter()
    encode(to: &writer)
    do {
      return Redaction.redacted(try JSONReader().parse(writer.bytes))
    } catch {
      return .string("\(Redaction.mask) (unreadable encoding: \(error.kind.rawValue))")
    }
  }
}

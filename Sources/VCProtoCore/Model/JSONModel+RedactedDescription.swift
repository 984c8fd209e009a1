import VCProtoJSON

extension JSONModel {
  /// `TypeName({...})`: the value as its JSON text with every secret member masked
  /// (``Redaction/redacted(_:)``). The generated model's types that hold a secret (`Secrets.swift`)
  /// use it as their `description` and `debugDescription`, so `print`, string interpolation and
  /// `String(describing:)` never show the secret (their generated `customMirror` masks it for `dump`).
  package var redactedDescription: String {
    "\(Self.self)(\(redactedJSON.jsonText))"
  }

  /// The value as JSON with secrets masked; if its own encoding cannot be read back (a bug), only
  /// the mask, so a failure can never print the secret.
  private var redactedJSON: JSONValue {
    var writer = JSONWriter()
    encode(to: &writer)
    do {
      return Redaction.redacted(try JSONReader(knownKeys: .protocolNames).parse(writer.bytes))
    } catch {
      return .string("\(Redaction.mask) (unreadable encoding: \(error.kind.rawValue))")
    }
  }
}

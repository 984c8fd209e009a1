import VCProtoJSON

extension ClaudeRecord: ModelReadable {
  /// The catalog's `ClaudeRecord` shape prepared for the bytes reader's scan, and the index of its
  /// `uuid` member (kept as decoded).
  private static let scanned: (shape: ScannedShape, uuid: Int)? = shape.map { shape in
    (ScannedShape(shape), shape.fields.firstIndex { $0.name == "uuid" } ?? -1)
  }

  /// On the bytes reader, the record is scanned: every declared member checked against the catalog's
  /// `ClaudeRecord` shape (``ValueRules``, the nested `message` too), the rest checked as JSON, and its
  /// bytes kept as ``json`` without building a tree. On the tree reader, the object is checked whole.
  package static func read<R: ModelReader>(_ r: inout R) throws(DirectPathError) -> ClaudeRecord {
    if let scanned, let (json, uuid) = try r.readScanned(scanned.shape, capturing: scanned.uuid) {
      return ClaudeRecord(json: json, uuid: uuid)
    }
    let refusal = r.miss()
    guard case .object(let object) = try r.readValue(), conforms(object) else { throw refusal }
    return ClaudeRecord(raw: object)
  }

  /// `true` when an object satisfies the `ClaudeRecord` shape completely (members, nullability, types,
  /// nested shapes), as the validator checks it.
  private static func conforms(_ object: JSONObject) -> Bool {
    guard let shape else { return true }
    var verdict = RuleBreak()
    ValueRules.checkMembers(
      object, fields: shape.fields, extra: shape.extraMembers, owner: .shape(shape.name), skipping: nil,
      in: .modelled, into: &verdict)
    return !verdict.hasErrors
  }
}

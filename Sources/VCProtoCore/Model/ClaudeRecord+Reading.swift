import VCProtoJSON

extension ClaudeRecord: ModelReadable {
  /// The catalog's `ClaudeRecord` shape laid out for matching names without copying specs: every
  /// field name's bytes in one buffer, each field's slice of it, and each field prepared once for
  /// ``ValueRules`` in the modelled catalog (a nested shape's declaration looked up here, not per record).
  private struct Layout: Sendable {
    package var names: [UInt8] = []
    package var ranges: [(start: Int, count: Int)] = []
    package var fields: [ValueRules.PreparedMember] = []

    package init(_ fields: [FieldSpec]) {
      let catalog = ProtocolCatalog.modelled
      for f in fields {
        ranges.append((names.count, f.name.utf8.count))
        names.append(contentsOf: f.name.utf8)
        self.fields.append(ValueRules.PreparedMember(f, in: catalog))
      }
    }

    /// The index of the declared field whose name is `key`, if any.
    @inline(__always)
    package func field<R: ModelReader>(_ key: R.Key, in r: R) -> Int? {
      let length = r.length(of: key)
      return names.withUnsafeBufferPointer { names -> Int? in
        for i in 0..<ranges.count where ranges[i].count == length {
          if r.keyIs(key, UnsafeBufferPointer(rebasing: names[ranges[i].start..<(ranges[i].start + length)])) {
            return i
          }
        }
        return nil
      }
    }
  }

  private static let layout = Layout(shape?.fields ?? [])

  /// Raw records stay lossless ``JSONObject``s. The record's members are read one by one and each
  /// declared member is checked against the catalog's `ClaudeRecord` shape (``ValueRules``) as it is
  /// read, without looking each field up again afterwards.
  package static func read<R: ModelReader>(_ r: inout R) throws(DirectPathError) -> ClaudeRecord {
    let layout = Self.layout
    guard !layout.fields.isEmpty, layout.fields.count < 64 else {
      let refusal = r.miss()
      guard case .object(let object) = try r.readValue(), conforms(object) else { throw refusal }
      return ClaudeRecord(raw: object)
    }
    var cursor = try r.beginObject(typeConsumed: false)
    var members: [JSONObject.Member] = []
    members.reserveCapacity(12)
    var seen: UInt64 = 0
    while let key = try r.nextKey(&cursor) {
      guard let index = layout.field(key, in: r) else {
        // An undeclared name can only repeat an earlier undeclared one (the reader refuses that).
        try r.readExtra(key, into: &members, warns: false)
        continue
      }
      // A declared name's String is its declaration's. A repeated declared name is the same bytes
      // as the declaration: its bit is already set.
      guard seen & (1 << index) == 0 else { throw r.miss(key) }
      seen |= 1 << index
      let value = try r.readValue()
      guard ValueRules.accepts(value, member: layout.fields[index]) else { throw r.miss(key) }
      members.append(JSONObject.Member(key: layout.fields[index].field.name, value: value))
    }
    for i in 0..<layout.fields.count where seen & (1 << i) == 0 {
      guard ValueRules.accepts(nil, member: layout.fields[i]) else { throw r.miss() }
    }
    return ClaudeRecord(raw: JSONObject(members))
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

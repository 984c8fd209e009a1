/// A type the generated model can read straight from a frame's bytes (the direct decode path).
///
/// `pull` is called with the parser at the value (whitespace skipped, never at `null`: the caller
/// handles nulls). It must accept exactly the values ``JSONFieldValue/decodeField(_:key:)`` accepts
/// for the same type, or give up with ``DirectPathError``; it never accepts more.
protocol JSONPullDecodable {
  /// Reads one value.
  static func pull(_ p: inout JSONParser) throws(DirectPathError) -> Self
}

extension String: JSONPullDecodable {
  @inline(__always)
  static func pull(_ p: inout JSONParser) throws(DirectPathError) -> String { try p.pullString() }
}

extension Int: JSONPullDecodable {
  @inline(__always)
  static func pull(_ p: inout JSONParser) throws(DirectPathError) -> Int { try p.pullInt() }
}

extension Double: JSONPullDecodable {
  static func pull(_ p: inout JSONParser) throws(DirectPathError) -> Double { try p.pullDouble() }
}

extension Bool: JSONPullDecodable {
  static func pull(_ p: inout JSONParser) throws(DirectPathError) -> Bool { try p.pullBool() }
}

extension JSONValue: JSONPullDecodable {
  static func pull(_ p: inout JSONParser) throws(DirectPathError) -> JSONValue {
    do { return try p.parseValue() } catch { throw .read(error) }
  }
}

extension JSONObject: JSONPullDecodable {
  /// Any object, read whole; another JSON type gives up (the general path reports `wrong_type`).
  static func pull(_ p: inout JSONParser) throws(DirectPathError) -> JSONObject {
    let start = p.pos
    guard case .object(let object) = try JSONValue.pull(&p) else { throw JSONParser.miss(start) }
    return object
  }
}

extension Array: JSONPullDecodable where Element: JSONPullDecodable {
  @inline(__always)
  static func pull(_ p: inout JSONParser) throws(DirectPathError) -> [Element] {
    try p.pullArray { (q: inout JSONParser) throws(DirectPathError) in try Element.pull(&q) }
  }
}

extension ClaudeRecord: JSONPullDecodable {
  /// The catalog's `ClaudeRecord` shape laid out for matching keys in the frame without copying specs:
  /// every field name's bytes in one buffer, each field's slice of it, and each field prepared once for
  /// ``ValueRules`` in the modelled catalog (a nested shape's declaration looked up here, not per record).
  private struct PullLayout: Sendable {
    var names: [UInt8] = []
    var ranges: [(start: Int, count: Int)] = []
    var fields: [ValueRules.PreparedMember] = []

    init(_ fields: [FieldSpec]) {
      let catalog = ProtocolCatalog.modelled
      for f in fields {
        ranges.append((names.count, f.name.utf8.count))
        names.append(contentsOf: f.name.utf8)
        self.fields.append(ValueRules.PreparedMember(f, in: catalog))
      }
    }

    /// The index of the declared field whose name is `key`, if any.
    @inline(__always)
    func field(_ key: JSONParser.Key, in p: JSONParser) -> Int? {
      names.withUnsafeBufferPointer { names -> Int? in
        for i in 0..<ranges.count where ranges[i].count == key.count {
          if p.keyIs(key, UnsafeBufferPointer(rebasing: names[ranges[i].start..<(ranges[i].start + key.count)])) {
            return i
          }
        }
        return nil
      }
    }
  }

  private static let layout = PullLayout(shape?.fields ?? [])

  /// Raw records stay lossless ``JSONObject``s. The record's members are read one by one and each
  /// declared member is checked against the catalog's `ClaudeRecord` shape as it is read, by
  /// ``ValueRules`` as in ``decodeField(_:key:)`` (``FieldCheck/conforms(_:to:in:)``), without looking
  /// each field up again afterwards.
  static func pull(_ p: inout JSONParser) throws(DirectPathError) -> ClaudeRecord {
    let layout = Self.layout
    guard !layout.fields.isEmpty, layout.fields.count < 64 else {
      let start = p.pos
      let value = try JSONValue.pull(&p)
      do { return try decodeField(value, key: "") } catch { throw JSONParser.miss(start) }
    }
    try p.pullObjectStart()
    var members: [JSONObject.Member] = []
    members.reserveCapacity(12)
    var names = MemberNames()
    var count = 0
    var seen: UInt64 = 0
    while let key = try p.pullKey(&count) {
      let index = layout.field(key, in: p)
      // A declared name's String is its declaration's; only an undeclared one is looked up or made.
      let name = index.map { layout.fields[$0].field.name } ?? p.keyString(key)
      // A repeated declared name is the same bytes as the declaration (keys here are plain ASCII):
      // its bit is already set. An undeclared name can only repeat an earlier undeclared one.
      if let index {
        guard seen & (1 << index) == 0 else { throw JSONParser.miss(key.start) }
      } else {
        guard names.isNew(name, among: members[...], checks: &p.stats.keyChecks) else {
          throw JSONParser.miss(key.start)
        }
      }
      let value = try JSONValue.pull(&p)
      if let index {
        seen |= 1 << index
        guard ValueRules.accepts(value, member: layout.fields[index]) else {
          throw JSONParser.miss(key.start)
        }
      }
      members.append(JSONObject.Member(key: name, value: value))
    }
    for i in 0..<layout.fields.count where seen & (1 << i) == 0 {
      guard ValueRules.accepts(nil, member: layout.fields[i]) else { throw JSONParser.miss(p.pos) }
    }
    return ClaudeRecord(raw: JSONObject(members))
  }
}

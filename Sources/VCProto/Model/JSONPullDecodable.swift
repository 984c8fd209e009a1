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

extension Array: JSONPullDecodable where Element: JSONPullDecodable {
  @inline(__always)
  static func pull(_ p: inout JSONParser) throws(DirectPathError) -> [Element] {
    try p.pullArray { (q: inout JSONParser) throws(DirectPathError) in try Element.pull(&q) }
  }
}

extension ClaudeRecord: JSONPullDecodable {
  /// The catalog's `ClaudeRecord` shape laid out for matching keys in the frame and checking values
  /// without copying specs: every field name's bytes in one buffer and each field's slice of it, and
  /// per field what its value must be, worked out once (a nested shape's spec is looked up here, not
  /// for every record).
  private struct PullLayout: Sendable {
    /// How a declared field's value is checked: the common leaf types inline, a nested shape against
    /// its spec, anything else by ``ValueRules/accepts(_:_:deep:)``; each exactly as ``ValueRules``
    /// checks it (a plain string is any string, a boolean only `true`/`false`).
    enum Check: Sendable {
      case text
      case boolean
      case shape(ShapeSpec)
      case other(FieldType)
    }

    var names: [UInt8] = []
    var ranges: [(start: Int, count: Int)] = []
    var checks: [Check] = []
    var nullable: [Bool] = []
    var allowed: [[JSONValue]?] = []
    /// A bit per required field.
    var required: UInt64 = 0
    /// The catalog nested shapes are checked in.
    let catalog = ProtocolCatalog.modelled

    init(_ fields: [FieldSpec]) {
      for (i, f) in fields.enumerated() {
        ranges.append((names.count, f.name.utf8.count))
        names.append(contentsOf: f.name.utf8)
        switch f.type {
        case .string(.plain): checks.append(.text)
        case .boolean: checks.append(.boolean)
        case .shape(let name) where catalog.shapes[name] != nil: checks.append(.shape(catalog.shapes[name]!))
        default: checks.append(.other(f.type))
        }
        nullable.append(f.nullable)
        allowed.append(f.allowedValues)
        if f.required, i < 64 { required |= 1 << UInt64(i) }
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

    /// Whether the non-null `value` of field `index` has the field's type (and nested shape).
    @inline(__always)
    func passes(_ value: JSONValue, _ index: Int) -> Bool {
      switch checks[index] {
      case .text:
        if case .string = value { return true }
        return false
      case .boolean:
        if case .bool = value { return true }
        return false
      case .shape(let shape):
        guard case .object(let object) = value else { return false }
        return FieldCheck.conforms(object, to: shape, in: catalog)
      case .other(let type):
        return ValueRules.accepts(value, type, deep: catalog)
      }
    }
  }

  private static let layout = PullLayout(shape?.fields ?? [])

  /// Raw records stay lossless ``JSONObject``s. The record's members are read one by one and each
  /// declared member is checked against the catalog's `ClaudeRecord` shape as it is read: the same
  /// rules as ``decodeField(_:key:)`` (which uses ``FieldCheck/conforms(_:to:in:)``), without looking
  /// each field up again afterwards.
  static func pull(_ p: inout JSONParser) throws(DirectPathError) -> ClaudeRecord {
    let layout = Self.layout
    guard !layout.checks.isEmpty, layout.checks.count < 64 else {
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
      let name = p.keyString(key)
      guard names.isNew(name, among: members[...], checks: &p.stats.keyChecks) else {
        throw JSONParser.miss(key.start)
      }
      let index = layout.field(key, in: p)
      let value = try JSONValue.pull(&p)
      if let index {
        seen |= 1 << index
        if case .null = value {
          guard layout.nullable[index] else { throw JSONParser.miss(key.start) }
        } else {
          guard layout.passes(value, index),
            layout.allowed[index].map({ ValueRules.accepts(value, allowed: $0) }) ?? true
          else { throw JSONParser.miss(key.start) }
        }
      }
      members.append(JSONObject.Member(key: name, value: value))
    }
    guard seen & layout.required == layout.required else { throw JSONParser.miss(p.pos) }
    return ClaudeRecord(raw: JSONObject(members))
  }
}

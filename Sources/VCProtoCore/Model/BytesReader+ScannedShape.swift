import VCProtoJSON

/// The bytes reader's scan of an object the model keeps as raw JSON (``ScannedShape``): every rule
/// the validator applies to the shape is checked while the bytes are scanned (VCProtoJSON's
/// validating scan, `JSONParser+Scan.swift`, for what is only JSON), nothing is built but the few
/// declared scalar values the rules look at, and the object's bytes become its ``RawJSON``. As
/// everywhere on the bytes reader, what it does not read outright (an escaped member name, a repeated
/// one, a broken rule) is a miss, and the tree path decides.
extension BytesReader {
  /// Reads the object of `shape` at the position; returns its bytes and the value of its member at
  /// index `captured` (when a scalar and present).
  package mutating func readScanned(_ shape: ScannedShape, capturing captured: Int) throws(DirectPathError) -> (
    RawJSON, JSONValue?
  )? {
    let start = parser.pos
    let value = try scanShape(shape, capturing: captured)
    return (RawJSON(validatedBytes: Array(UnsafeBufferPointer(rebasing: parser.bytes[start..<parser.pos]))), value)
  }

  /// Scans an object of `shape`; returns the value of the member at index `captured`, if parsed.
  mutating func scanShape(_ shape: ScannedShape, capturing captured: Int = -1) throws(DirectPathError)
    -> JSONValue?
  {
    guard shape.members.count < 64 else { throw miss() }
    try parser.pullObjectStart()
    let result = ScannedNames.with { names -> Result<JSONValue?, DirectPathError> in
      do throws(DirectPathError) {
        return .success(try scanMembers(shape, names: &names, capturing: captured))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// The members of an object of `shape`, from its `{` (consumed) to its `}`.
  private mutating func scanMembers(_ shape: ScannedShape, names: inout ScannedNames, capturing captured: Int)
    throws(DirectPathError) -> JSONValue?
  {
    var cursor = 0
    var seen: UInt64 = 0
    var result: JSONValue? = nil
    while let key = try parser.pullKey(&cursor) {
      if let index = shape.member(key, in: self) {
        guard seen & (1 << index) == 0 else { throw miss(key) }
        seen |= 1 << index
        let value = try scanMember(shape.members[index], shape.kinds[index], at: key, keep: index == captured)
        if index == captured { result = value }
        continue
      }
      // Undeclared: a name unique among the object's undeclared names (a declared name cannot repeat
      // as an undeclared one; the scan's own comparison, linear in the object's size), any JSON value.
      let isNew: Bool
      do { isNew = try parser.noteScannedName(key, escaped: false, in: &names) } catch { throw .read(error) }
      guard isNew else { throw miss(key) }
      if shape.spec.extraMembers == .warn { sawExtraMember = true }
      do { try parser.scanValue() } catch { throw .read(error) }
    }
    for i in 0..<shape.members.count where seen & (1 << i) == 0 {
      guard ValueRules.accepts(nil, member: shape.members[i]) else { throw miss() }
    }
    return result
  }

  /// Checks the value of a declared member (`kind` as prepared for it); returns it when it was parsed
  /// (`keep`: parse it if it is a scalar).
  @inline(__always)
  private mutating func scanMember(
    _ member: ValueRules.PreparedMember, _ kind: ScannedShape.Kind, at key: Key, keep: Bool
  ) throws(DirectPathError) -> JSONValue? {
    if case .parsed(let type) = kind, keep || !Self.isPlainText(type) {
      let value = try readValue()
      guard ValueRules.accepts(value, member: member) else { throw miss(key) }
      return value
    }
    if member.field.allowedValues != nil {
      // A closed set of composite values: the rules need the value.
      let value = try readValue()
      guard ValueRules.accepts(value, member: member) else { throw miss(key) }
      return nil
    }
    if parser.pullNull() {
      guard member.field.nullable else { throw miss(key) }
      return nil
    }
    try scan(kind)
    return nil
  }

  /// Checks a non-null value of `kind` and steps over it.
  private mutating func scan(_ kind: ScannedShape.Kind) throws(DirectPathError) {
    switch kind {
    case .any:
      do { try parser.scanValue() } catch { throw .read(error) }
    case .object:
      guard parser.pos < parser.bytes.count, parser.bytes[parser.pos] == UInt8(ascii: "{") else { throw miss() }
      do { try parser.scanValue() } catch { throw .read(error) }
    case .shape(let shape):
      _ = try scanShape(shape)
    case .array(let element):
      guard try parser.pullArrayStart() else { return }
      var count = 0
      repeat {
        try parser.pullArrayElement(count: count)
        try scan(element)
        count += 1
      } while try parser.pullArrayNext()
    case .oneOf(let alternatives):
      let saved = (parser.pos, parser.depth, parser.stats, sawExtraMember)
      for alternative in alternatives {
        do {
          try scan(alternative)
          return
        } catch {
          (parser.pos, parser.depth, parser.stats, sawExtraMember) = saved
        }
      }
      throw miss()
    case .parsed(let type) where Self.isPlainText(type):
      // Any string: only that it is one.
      guard parser.pos < parser.bytes.count, parser.bytes[parser.pos] == UInt8(ascii: "\"") else { throw miss() }
      do { _ = try parser.scanString() } catch { throw .read(error) }
    case .parsed(let type):
      let start = parser.pos
      guard ValueRules.accepts(try readValue(), type, deep: .modelled) else { throw .miss(at: start) }
    }
  }

  /// `true` for a string of any content (no format to check).
  @inline(__always)
  private static func isPlainText(_ type: FieldType) -> Bool {
    if case .string(.plain) = type { return true }
    return false
  }
}

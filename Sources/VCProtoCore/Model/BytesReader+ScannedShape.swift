import VCProtoJSON

/// The bytes reader's scan of an object the model keeps as raw JSON (``ScannedShape``): every rule
/// the validator applies to the shape is checked while the bytes are scanned (VCProtoJSON's
/// validating scan, `JSONParser+Scan.swift`, for what is only JSON), nothing is built but the few
/// declared scalar values the rules look at, and the object's bytes become its ``RawJSON``. As
/// everywhere on the bytes reader, what it does not read outright (an escaped member name, a repeated
/// one, a broken rule) is a miss, and the tree path decides.
extension BytesReader {
  /// Reads the object of `shape` at the position; returns its bytes and its member at index
  /// `captured` (when present: a string without escapes as where it lies in those bytes, a scalar
  /// parsed).
  package mutating func readScanned(_ shape: ScannedShape, capturing captured: Int) throws(DirectPathError) -> (
    RawJSON, ScannedCapture?
  )? {
    let start = parser.pos
    var capture = try scanShape(shape, capturing: captured)
    if case .text(let offset, let count) = capture { capture = .text(offset: offset - start, count: count) }
    if let slice = frameSlice(start..<parser.pos) { return (RawJSON(validatedSlice: slice), capture) }
    return (RawJSON(validatedBytes: Array(UnsafeBufferPointer(rebasing: parser.bytes[start..<parser.pos]))), capture)
  }

  /// Scans an object of `shape`; returns the member at index `captured`, if present (a string
  /// without escapes as where it lies in the frame).
  mutating func scanShape(_ shape: ScannedShape, capturing captured: Int = -1) throws(DirectPathError)
    -> ScannedCapture?
  {
    guard shape.members.count < 64 else { throw miss() }
    try parser.pullObjectStart()
    let result = ScannedNames.with { names -> Result<ScannedCapture?, DirectPathError> in
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
    throws(DirectPathError) -> ScannedCapture?
  {
    var cursor = 0
    var seen: UInt64 = 0
    var result: ScannedCapture? = nil
    while let key = try parser.pullKey(&cursor) {
      if let index = shape.member(key, in: self) {
        let bit: UInt64 = 1 << index
        guard seen & bit == 0 else { throw miss(key) }
        seen |= bit
        if index == captured {
          // Kept where it lies only when being a string is its one rule (no closed set to check).
          if case .plainText = shape.kinds[index], shape.closedSet & bit == 0, let text = try scanPlainText() {
            result = .text(offset: text.start, count: text.count)
          } else if let value = try scanMember(index, of: shape, bit: bit, at: key, keep: true) {
            result = .value(value)
          }
        } else {
          _ = try scanMember(index, of: shape, bit: bit, at: key, keep: false)
        }
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
    // An absent member the rules refuse (`ValueRules.accepts(nil, member:)`, computed once per shape).
    guard shape.absentRefused & ~seen == 0 else { throw miss() }
    return result
  }

  /// A string without escapes at the position, checked and stepped over: where its characters lie.
  /// `nil`, with nothing consumed, for any other value (a string with escapes is then parsed).
  private mutating func scanPlainText() throws(DirectPathError) -> (start: Int, count: Int)? {
    let open = parser.pos
    guard open < parser.bytes.count, parser.bytes[open] == UInt8(ascii: "\"") else { return nil }
    let escaped: Bool
    do { escaped = try parser.scanString() } catch { throw .read(error) }
    guard !escaped else {
      parser.pos = open
      return nil
    }
    return (open + 1, parser.pos - open - 2)
  }

  /// Checks the value of the declared member at `index` of `shape` (`bit`: its bit in the shape's
  /// masks); returns it when it was parsed (`keep`: parse it if it is a scalar).
  @inline(__always)
  private mutating func scanMember(
    _ index: Int, of shape: ScannedShape, bit: UInt64, at key: Key, keep: Bool
  ) throws(DirectPathError) -> JSONValue? {
    let kind = shape.kinds[index]
    let parse: Bool
    switch kind {
    case .parsed: parse = true
    case .plainText: parse = keep  // any string: parsed only to be kept
    default: parse = false
    }
    if parse {
      let value = try readValue()
      guard ValueRules.accepts(value, member: shape.members[index]) else { throw miss(key) }
      return value
    }
    if shape.closedSet & bit != 0 {
      // A closed set of composite values: the rules need the value.
      let value = try readValue()
      guard ValueRules.accepts(value, member: shape.members[index]) else { throw miss(key) }
      return nil
    }
    if parser.pullNull() {
      guard shape.nullable & bit != 0 else { throw miss(key) }
      return nil
    }
    try scan(kind, in: shape)
    return nil
  }

  /// Checks a non-null value of `kind` (one of `shape`'s) and steps over it.
  private mutating func scan(_ kind: ScannedShape.Kind, in shape: ScannedShape) throws(DirectPathError) {
    switch kind {
    case .any:
      do { try parser.scanValue() } catch { throw .read(error) }
    case .object:
      guard parser.pos < parser.bytes.count, parser.bytes[parser.pos] == UInt8(ascii: "{") else { throw miss() }
      do { try parser.scanValue() } catch { throw .read(error) }
    case .shape(let nested):
      // The nested shape is borrowed from its owner, which `shape` keeps alive: no retain.
      let result = nested._withUnsafeGuaranteedRef { nested -> Result<Void, DirectPathError> in
        do throws(DirectPathError) {
          _ = try scanShape(nested)
          return .success(())
        } catch {
          return .failure(error)
        }
      }
      try result.get()
    case .array(let element):
      guard try parser.pullArrayStart() else { return }
      let elementKind = shape.kinds[element]
      var count = 0
      repeat {
        try parser.pullArrayElement(count: count)
        try scan(elementKind, in: shape)
        count += 1
      } while try parser.pullArrayNext()
    case .oneOf(let first, let alternatives):
      let saved = (parser.pos, parser.depth, parser.stats, sawExtraMember)
      for i in first..<(first + alternatives) {
        do {
          try scan(shape.kinds[i], in: shape)
          return
        } catch {
          (parser.pos, parser.depth, parser.stats, sawExtraMember) = saved
        }
      }
      throw miss()
    case .plainText:
      // Any string: only that it is one.
      guard parser.pos < parser.bytes.count, parser.bytes[parser.pos] == UInt8(ascii: "\"") else { throw miss() }
      do { _ = try parser.scanString() } catch { throw .read(error) }
    case .parsed(let type):
      let start = parser.pos
      guard ValueRules.accepts(try readValue(), shape.types[type], deep: .modelled) else { throw .miss(at: start) }
    }
  }
}

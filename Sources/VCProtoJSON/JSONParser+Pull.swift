/// Pull parsing: the generated model reads members straight from the frame's bytes into typed
/// fields, with no intermediate ``JSONValue`` tree (see ``MessageDecoder``'s direct path), for the bytes reader (`JSONParser+ModelReader.swift`).
///
/// The pull path is an accelerator, never a second definition of the protocol: it accepts only what it
/// recognises outright (keys of plain ASCII without escapes, values of the declared types, every
/// catalog rule satisfied) and otherwise gives up with ``JSONPullError/miss(at:)``; an error of the
/// shared JSON primitives comes out as ``JSONPullError/read(_:)``. The caller then decodes
/// the frame the general way, through the tree and the validator, which explains any problem. It
/// enforces the same ``JSONLimits`` and strictness as the tree reader: the primitives are shared.
extension JSONParser {
  /// The error that abandons the pull path at `offset` (never shown: the general path re-reads the frame).
  @inlinable @inline(__always)
  package static func miss(_ offset: Int) -> JSONPullError { .miss(at: offset) }

  /// A member name inside the frame: `count` plain ASCII bytes starting at `start`.
  @usableFromInline package struct Key {
    /// Offset of the first byte after the opening quote.
    @usableFromInline package var start: Int
    /// Length in bytes.
    @usableFromInline package var count: Int

    /// The name of `count` bytes at `start`.
    @inlinable package init(start: Int, count: Int) {
      self.start = start
      self.count = count
    }
  }

  /// Consumes `{` and enters one nesting level (forgetting the undeclared names of the previous
  /// object read at that level).
  @inlinable @inline(__always)
  package mutating func pullObjectStart() throws(JSONPullError) {
    skipWhitespace()
    guard pos < bytes.count, bytes[pos] == UInt8(ascii: "{") else { throw Self.miss(pos) }
    do { try enter() } catch { throw .read(error) }
    pos += 1
    if depth < extraNames.count { extraNames[depth].removeAll() }
  }

  /// The next member's name (with its `:` consumed), or `nil` after the closing `}` (nesting left).
  ///
  /// `members` counts the members read so far and is checked against the object-size limit; the
  /// member's value is counted against ``JSONLimits/maxValues``. Names with escapes, control
  /// characters or non-ASCII bytes are left to the general path.
  ///
  /// Called once per member from every generated reader: transparent, so that it is inlined into
  /// those large functions (where `@inline(__always)` was not), and the name is scanned with a local
  /// cursor (``plainASCIIRunEnd(from:)``), `pos` written once.
  @_transparent @usableFromInline
  package mutating func pullKey(_ members: inout Int) throws(JSONPullError) -> Key? {
    skipWhitespace()
    guard pos < bytes.count else { throw Self.miss(pos) }
    if bytes[pos] == UInt8(ascii: "}") {
      pos += 1
      depth -= 1
      return nil
    }
    if members > 0 {
      guard bytes[pos] == UInt8(ascii: ",") else { throw Self.miss(pos) }
      pos += 1
      skipWhitespace()
      guard pos < bytes.count else { throw Self.miss(pos) }
    }
    guard bytes[pos] == UInt8(ascii: "\"") else { throw Self.miss(pos) }
    let start = pos + 1
    var end = plainASCIIRunEnd(from: start)
    while end < bytes.count {
      let b = bytes[end]
      if b == UInt8(ascii: "\"") { break }
      guard b >= 0x20, b < 0x80, b != UInt8(ascii: "\\") else { throw Self.miss(end) }
      end += 1
    }
    guard end < bytes.count, end - start <= limits.maxStringBytes else { throw Self.miss(end) }
    members += 1
    guard members <= limits.maxObjectMembers else { throw Self.miss(end) }
    do { try countValue() } catch { throw .read(error) }
    pos = end + 1
    skipWhitespace()
    guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else { throw Self.miss(pos) }
    pos += 1
    skipWhitespace()
    return Key(start: start, count: end - start)
  }

  /// `true` when `key` is exactly `name` (compared byte for byte; the caller has matched the length).
  @inlinable @inline(__always)
  package func keyIs(_ key: Key, _ name: StaticString) -> Bool {
    let n = name.utf8CodeUnitCount
    guard key.count == n, let base = bytes.baseAddress else { return false }
    return memcmpBytes(base + key.start, name.utf8Start, n)
  }

  /// `true` when `key` is exactly the bytes `name`.
  @inlinable @inline(__always)
  package func keyIs(_ key: Key, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
    guard key.count == name.count, let base = bytes.baseAddress, let other = name.baseAddress else { return false }
    return memcmpBytes(base + key.start, other, key.count)
  }

  /// `true` when `key` is exactly the UTF-8 of `name` (a String with contiguous storage, such as a
  /// literal or a raw value; any other String is compared through a copy).
  @inlinable @inline(__always)
  package func keyIs(_ key: Key, _ name: String) -> Bool {
    guard key.count == name.utf8.count else { return false }
    if let equal = name.utf8.withContiguousStorageIfAvailable({ keyIs(key, $0) }) { return equal }
    return Array(name.utf8).withUnsafeBufferPointer { keyIs(key, $0) }
  }

  /// The key as a String (its bytes are plain ASCII: ``pullKey(_:)`` admits nothing else).
  @inlinable @inline(__always)
  package func keyString(_ key: Key) -> String {
    if let base = bytes.baseAddress, let known = knownKeys.lookup(base + key.start, key.count) { return known }
    return String(
      validatedUTF8: UnsafeBufferPointer(rebasing: bytes[key.start..<(key.start + key.count)]), isASCII: true)
  }

  /// Reads an undeclared member's value and appends it (name and value) to `extra`, refusing a name
  /// that repeats one already kept.
  ///
  /// Linear in the object's size: `extra` belongs to the object being read at the current nesting
  /// level, so the hashed names past ``MemberNames/linearLimit`` are kept per level in
  /// ``extraNames`` (reset by ``pullObjectStart()``). Declared names are never among them: the
  /// generated code refuses a repeated declared member itself.
  package mutating func pullExtra(_ key: Key, into extra: inout [JSONObject.Member]) throws(JSONPullError) {
    let name = keyString(key)
    if extraNames.count <= depth {
      extraNames.append(contentsOf: repeatElement(MemberNames(), count: depth + 1 - extraNames.count))
    }
    var checks = stats.keyChecks
    let isNew = extraNames[depth].isNew(name, among: extra[...], checks: &checks)
    stats.keyChecks = checks
    guard isNew else { throw Self.miss(key.start) }
    do { extra.append(JSONObject.Member(key: name, value: try parseValue())) } catch { throw .read(error) }
  }

  /// Consumes `null` if it is next (after whitespace was skipped) and says so.
  @inlinable @inline(__always)
  package mutating func pullNull() -> Bool {
    guard pos + 4 <= bytes.count, bytes[pos] == UInt8(ascii: "n"), bytes[pos + 1] == UInt8(ascii: "u"),
      bytes[pos + 2] == UInt8(ascii: "l"), bytes[pos + 3] == UInt8(ascii: "l")
    else { return false }
    pos += 4
    return true
  }

  /// Reads a string value.
  @inlinable @inline(__always)
  package mutating func pullString() throws(JSONPullError) -> String {
    guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else { throw Self.miss(pos) }
    do { return try parseString() } catch { throw .read(error) }
  }

  /// Reads an integer literal (no fraction, no exponent) that fits in `Int`.
  package mutating func pullInt() throws(JSONPullError) -> Int {
    let start = pos
    var negative = false
    if pos < bytes.count, bytes[pos] == UInt8(ascii: "-") {
      negative = true
      pos += 1
    }
    guard pos < bytes.count else { throw Self.miss(pos) }
    var value = 0
    let digitsStart = pos
    while pos < bytes.count {
      let d = bytes[pos] &- UInt8(ascii: "0")
      guard d < 10 else { break }
      // Accumulate negatively so that Int.min fits; overflow leaves the literal to the general path.
      let (m, o1) = value.multipliedReportingOverflow(by: 10)
      let (v, o2) = m.subtractingReportingOverflow(Int(d))
      guard !o1, !o2 else { throw Self.miss(start) }
      value = v
      pos += 1
    }
    let digits = pos - digitsStart
    guard digits > 0, pos - start <= limits.maxNumberLength else { throw Self.miss(start) }
    if digits > 1, bytes[digitsStart] == UInt8(ascii: "0") { throw Self.miss(start) }
    if pos < bytes.count {
      let b = bytes[pos]
      guard b != UInt8(ascii: "."), b != UInt8(ascii: "e"), b != UInt8(ascii: "E") else { throw Self.miss(start) }
    }
    if negative { return value }
    guard value != Int.min else { throw Self.miss(start) }
    return -value
  }

  /// Reads any finite number.
  package mutating func pullDouble() throws(JSONPullError) -> Double {
    guard pos < bytes.count, bytes[pos] == UInt8(ascii: "-") || bytes[pos] &- UInt8(ascii: "0") < 10 else {
      throw Self.miss(pos)
    }
    let number: JSONNumber
    do { number = try parseNumber() } catch { throw .read(error) }
    guard let d = number.doubleValue else { throw Self.miss(pos) }
    return d
  }

  /// Reads `true` or `false`.
  package mutating func pullBool() throws(JSONPullError) -> Bool {
    guard pos < bytes.count else { throw Self.miss(pos) }
    if bytes[pos] == UInt8(ascii: "t") {
      do { try expectLiteral("true") } catch { throw .read(error) }
      return true
    }
    guard bytes[pos] == UInt8(ascii: "f") else { throw Self.miss(pos) }
    do { try expectLiteral("false") } catch { throw .read(error) }
    return false
  }

  /// Reads an array whose elements are never null, each with `element`.
  @inlinable @inline(__always)
  package mutating func pullArray<Element>(
    _ element: (inout JSONParser) throws(JSONPullError) -> Element
  ) throws(JSONPullError) -> [Element] {
    var out: [Element] = []
    guard try pullArrayStart() else { return out }
    repeat {
      try pullArrayElement(count: out.count)
      out.append(try element(&self))
    } while try pullArrayNext()
    return out
  }

  /// Enters an array: `false` when it is empty (and already left).
  @inlinable @inline(__always)
  package mutating func pullArrayStart() throws(JSONPullError) -> Bool {
    guard pos < bytes.count, bytes[pos] == UInt8(ascii: "[") else { throw Self.miss(pos) }
    do { try enter() } catch { throw .read(error) }
    pos += 1
    skipWhitespace()
    if pos < bytes.count, bytes[pos] == UInt8(ascii: "]") {
      pos += 1
      depth -= 1
      return false
    }
    return true
  }

  /// Before an array's element (`count` read so far): counts it and refuses a `null` one or one past
  /// ``JSONLimits/maxArrayElements``.
  @inlinable @inline(__always)
  package mutating func pullArrayElement(count: Int) throws(JSONPullError) {
    skipWhitespace()
    do { try countValue() } catch { throw .read(error) }
    guard count < limits.maxArrayElements, !pullNull() else { throw Self.miss(pos) }
  }

  /// After an array's element: `true` when another follows, `false` when the array ended (and is left).
  @inlinable @inline(__always)
  package mutating func pullArrayNext() throws(JSONPullError) -> Bool {
    skipWhitespace()
    guard pos < bytes.count else { throw Self.miss(pos) }
    if bytes[pos] == UInt8(ascii: ",") {
      pos += 1
      return true
    } else if bytes[pos] == UInt8(ascii: "]") {
      pos += 1
      depth -= 1
      return false
    }
    throw Self.miss(pos)
  }

  /// Where the top-level `type` value's characters are, when the frame is an object whose first member
  /// is `"type"` with a string of plain ASCII (no escapes); `nil` otherwise. On success the object's
  /// opening and that member are consumed (the generated `reading(_:typeConsumed:)` goes on from
  /// there); on failure the position is where it was.
  package mutating func pullLeadingType() -> Key? {
    if let type = pullCompactLeadingType() { return type }
    let saved = (pos, depth)
    do {
      try pullObjectStart()
      var members = 0
      if let key = try pullKey(&members), keyIs(key, "type"), let type = plainStringValue() { return type }
    } catch {}
    (pos, depth) = saved
    return nil
  }

  /// ``pullLeadingType()`` for the usual frame, which opens with exactly `{"type":"` (compact JSON): its
  /// first eight bytes compared as one word, with the same effects and limits as the general way
  /// (one nesting level, one member, one value counted); `nil`, consuming nothing, for any other
  /// frame, which the general way then reads.
  @inline(__always)
  mutating func pullCompactLeadingType() -> Key? {
    // `{"type":` as a little-endian word.
    let opening: UInt64 = 0x3A22_6570_7974_227B
    guard pos == 0, depth == 0, buffers == nil, bytes.count > 8, let base = bytes.baseAddress,
      UnsafeRawPointer(base).loadUnaligned(as: UInt64.self) == UInt64(littleEndian: opening),
      limits.maxDepth >= 1, limits.maxObjectMembers >= 1, limits.maxStringBytes >= 4,
      stats.values < limits.maxValues
    else { return nil }
    pos = 8
    guard let type = plainStringValue() else {
      pos = 0
      return nil
    }
    depth = 1
    stats.values += 1
    return type
  }

  /// The characters of the string at the position when it is plain printable ASCII without escapes
  /// (consumed, closing quote included); `nil`, consuming nothing, otherwise.
  @inlinable @inline(__always)
  package mutating func plainStringValue() -> Key? {
    guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else { return nil }
    let saved = pos
    let start = pos + 1
    pos = start
    skipPlainASCII()
    while pos < bytes.count {
      let b = bytes[pos]
      if b == UInt8(ascii: "\"") {
        guard pos - start <= limits.maxStringBytes else { break }
        pos += 1
        return Key(start: start, count: pos - 1 - start)
      }
      guard b >= 0x20, b < 0x80, b != UInt8(ascii: "\\") else { break }
      pos += 1
    }
    pos = saved
    return nil
  }

  /// Consumes a plain string value equal to `expected` and says so; `false` (the caller gives up) for
  /// any other value.
  @inlinable @inline(__always)
  package mutating func pullPlainString(is expected: StaticString) -> Bool {
    guard let value = plainStringValue() else { return false }
    return keyIs(value, expected)
  }
}

/// `true` when the `n` bytes at `a` and at `b` are equal, compared a word at a time, the last word
/// overlapping the one before (`n` is mostly a member name's length, a constant where the generated
/// code calls it, so all but one branch folds away). Reads nothing outside either range.
@inlinable @inline(__always)
package func memcmpBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
  let a = UnsafeRawPointer(a)
  let b = UnsafeRawPointer(b)
  @inline(__always) func same<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> Bool {
    a.loadUnaligned(fromByteOffset: offset, as: T.self) == b.loadUnaligned(fromByteOffset: offset, as: T.self)
  }
  switch n {
  case ..<1: return true
  case 1: return same(UInt8.self, at: 0)
  case 2...3: return same(UInt16.self, at: 0) && same(UInt16.self, at: n - 2)
  case 4...7: return same(UInt32.self, at: 0) && same(UInt32.self, at: n - 4)
  default:
    var offset = 0
    while offset + 8 < n {
      guard same(UInt64.self, at: offset) else { return false }
      offset += 8
    }
    return same(UInt64.self, at: n - 8)
  }
}

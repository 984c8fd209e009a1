/// A strict RFC 8259 JSON reader: one pass over the bytes, UTF-8 validated, bounded by ``JSONLimits``.
///
/// Strictness, as specified in STANDARDS.md: no byte-order mark, no trailing commas, no leading
/// zeros, no control characters or invalid escapes in strings, no lone surrogate escapes, no invalid
/// UTF-8, no duplicate keys (names compared by their exact Unicode scalars, STANDARDS.md#exact-member-names),
/// nothing after the top-level value but whitespace. It never traps on any input: every failure is a
/// ``JSONReadError`` with the byte offset. Work is linear in the frame's size, and memory a small
/// multiple of it, bounded absolutely by ``JSONLimits/maxValues`` (STANDARDS.md#limits).
public struct JSONReader: Sendable {
  /// The limits applied while reading.
  public var limits: JSONLimits
  /// Member names made into Strings once, matched byte for byte (speed only, never results).
  package var knownKeys: KnownKeys = .none

  /// Creates a reader with the given limits.
  public init(limits: JSONLimits = .default) {
    self.limits = limits
  }

  /// Creates a reader with the given limits that makes the member names of `knownKeys` into Strings
  /// by lookup.
  package init(limits: JSONLimits = .default, knownKeys: KnownKeys) {
    self.limits = limits
    self.knownKeys = knownKeys
  }

  /// Parses one complete JSON text.
  public func parse(_ bytes: [UInt8]) throws(JSONReadError) -> JSONValue {
    let result: Result<JSONValue, JSONReadError> = bytes.withUnsafeBufferPointer { buffer in
      parseResult(buffer)
    }
    return try result.get()
  }

  /// Parses one complete JSON text from a string's UTF-8 bytes.
  public func parse(_ text: String) throws(JSONReadError) -> JSONValue {
    var text = text
    let result: Result<JSONValue, JSONReadError> = text.withUTF8 { parseResult($0) }
    return try result.get()
  }

  /// Parses one complete JSON text from raw memory.
  public func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONReadError) -> JSONValue {
    try parseResult(buffer).get()
  }

  private func parseResult(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONReadError> {
    var stats = JSONParseStats()
    return parseResult(buffer, stats: &stats)
  }

  private func parseResult(
    _ buffer: UnsafeBufferPointer<UInt8>, stats: inout JSONParseStats
  ) -> Result<JSONValue, JSONReadError> {
    guard buffer.count <= limits.maxFrameBytes else {
      return .failure(
        JSONReadError(
          .frameTooLarge, offset: limits.maxFrameBytes,
          "frame of \(buffer.count) bytes exceeds the limit of \(limits.maxFrameBytes)"))
    }
    var parser = JSONParser(buffer: buffer, limits: limits, knownKeys: knownKeys)
    defer { stats = parser.finalStats }
    do {
      return .success(try parser.parseDocument())
    } catch {
      return .failure(error)
    }
  }

  /// Parses one complete JSON text and says what it cost (values, duplicate-key checks, reserved
  /// slots): how tests measure that work and memory grow linearly with the frame.
  package func parseCountingWork(_ bytes: [UInt8]) -> (Result<JSONValue, JSONReadError>, JSONParseStats) {
    var stats = JSONParseStats()
    let result = bytes.withUnsafeBufferPointer { parseResult($0, stats: &stats) }
    return (result, stats)
  }
}

/// The parsing state: a cursor over the frame's bytes.
///
/// Memory: the values of the containers being read wait on two stacks shared by the whole parse
/// (``valueStack``, ``memberStack``); when a container closes, its elements move into an array of
/// exactly their number, so the tree never holds spare capacity (an empty container holds none at
/// all), and a value costs its slot plus, for a non-empty container, one allocation.
@usableFromInline package struct JSONParser {
  @usableFromInline package let bytes: UnsafeBufferPointer<UInt8>
  @usableFromInline package let limits: JSONLimits
  @usableFromInline package var pos = 0
  @usableFromInline package var depth = 0
  /// Member names made into Strings once (``KnownKeys``): none unless the caller brings a table.
  @usableFromInline package let knownKeys: KnownKeys
  /// What the parse has cost so far.
  @usableFromInline package var stats = JSONParseStats()
  /// The stacks and the scratch space, made when first needed (`JSONParser+Buffers.swift`).
  @usableFromInline package var buffers: Buffers? = nil

  @inlinable
  package init(buffer: UnsafeBufferPointer<UInt8>, limits: JSONLimits, knownKeys: KnownKeys = .none) {
    self.bytes = buffer
    self.limits = limits
    self.knownKeys = knownKeys
  }

  /// ``stats`` with the stacks' capacities (which only grow during a parse: their largest).
  package var finalStats: JSONParseStats {
    var final = stats
    final.stackElements = valueStack.capacity
    final.stackMembers = memberStack.capacity
    return final
  }

  package mutating func parseDocument() throws(JSONReadError) -> JSONValue {
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
      throw JSONReadError(.invalidJSON, offset: 0, "byte-order mark is not allowed")
    }
    skipWhitespace()
    try countValue()
    let value = try parseValue()
    skipWhitespace()
    if pos != bytes.count {
      throw JSONReadError(.invalidJSON, offset: pos, "unexpected data after the JSON value")
    }
    return value
  }

  /// Counts one value about to be read (the top-level value, a member's value or an array element)
  /// against ``JSONLimits/maxValues``.
  @inlinable @inline(__always)
  package mutating func countValue() throws(JSONReadError) {
    stats.values += 1
    if stats.values > limits.maxValues { throw tooManyValues() }
  }

  /// The error of ``countValue()`` (out of line: each value inlines only the check).
  @usableFromInline func tooManyValues() -> JSONReadError {
    JSONReadError(.tooManyValues, offset: pos, "frame has more than \(limits.maxValues) values (limit maxValues)")
  }

  @inlinable @inline(__always)
  package mutating func skipWhitespace() {
    while pos < bytes.count {
      let b = bytes[pos]
      if b > 0x20 { return }  // the usual case: no whitespace at all (compact JSON)
      switch b {
      case 0x20, 0x0A, 0x0D, 0x09: pos += 1
      default: return
      }
    }
  }

  package mutating func parseValue() throws(JSONReadError) -> JSONValue {
    guard pos < bytes.count else {
      throw JSONReadError(.invalidJSON, offset: pos, "unexpected end of input, expected a value")
    }
    switch bytes[pos] {
    case UInt8(ascii: "{"): return .object(try parseObject())
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return .number(try parseNumber())
    default:
      throw JSONReadError(.invalidJSON, offset: pos, "unexpected character \(describe(bytes[pos])), expected a value")
    }
  }

  private func describe(_ byte: UInt8) -> String {
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "byte 0x" + String(byte, radix: 16, uppercase: true)
  }

  package mutating func expectLiteral(_ literal: StaticString) throws(JSONReadError) {
    let n = literal.utf8CodeUnitCount
    guard pos + n <= bytes.count else {
      throw JSONReadError(.invalidJSON, offset: pos, "truncated literal, expected \(literal)")
    }
    let start = literal.utf8Start
    for i in 0..<n where bytes[pos + i] != start[i] {
      throw JSONReadError(.invalidJSON, offset: pos + i, "invalid literal, expected \(literal)")
    }
    pos += n
  }

  /// Enters one nesting level (an object or an array), refusing one past ``JSONLimits/maxDepth``.
  @inlinable @inline(__always)
  package mutating func enter() throws(JSONReadError) {
    depth += 1
    if depth > limits.maxDepth { throw tooDeep() }
  }

  /// The error of ``enter()`` (out of line: each container's opening inlines only the check).
  @usableFromInline func tooDeep() -> JSONReadError {
    JSONReadError(.nestingTooDeep, offset: pos, "nesting deeper than the limit of \(limits.maxDepth)")
  }

  private mutating func parseObject() throws(JSONReadError) -> JSONObject {
    if try openContainer(closingWith: UInt8(ascii: "}")) { return JSONObject() }
    let base = memberStack.count
    var names = MemberNames()
    while true {
      try expectMemberName()
      let keyOffset = pos
      let key = try parseKey()
      guard names.isNew(key, among: memberStack[base...], checks: &stats.keyChecks) else {
        throw JSONReadError(.duplicateKey, offset: keyOffset, "duplicate key \"\(knownKeys.quote(key))\"")
      }
      try afterMemberName()
      try countValue()
      let value = try parseValue()
      let closed = try afterMember(memberStack.count - base, keyOffset: keyOffset)
      memberStack.append(JSONObject.Member(key: key, value: value))
      if closed {
        let members = memberStack.moveTail(from: base, leaving: JSONObject.Member(key: "", value: .null))
        stats.containers += 1
        stats.reservedMembers += members.capacity
        return JSONObject(members)
      }
    }
  }

  /// The step into an object or array, for every reader of containers (``JSONReader``, the
  /// validating scan): the depth held to ``JSONLimits/maxDepth``, the opening byte stepped over, then
  /// `true` when `close` follows at once: the container is empty, stepped over and left.
  @inline(__always)
  mutating func openContainer(closingWith close: UInt8) throws(JSONReadError) -> Bool {
    try enter()
    pos += 1
    skipWhitespace()
    guard pos < bytes.count, bytes[pos] == close else { return false }
    pos += 1
    depth -= 1
    return true
  }

  /// Before a member's name, for every reader of objects: a `"` at `pos`.
  @inline(__always)
  func expectMemberName() throws(JSONReadError) {
    guard pos < bytes.count else {
      throw JSONReadError(.invalidJSON, offset: pos, "unexpected end of input inside an object")
    }
    guard bytes[pos] == UInt8(ascii: "\"") else {
      throw JSONReadError(.invalidJSON, offset: pos, "expected a member name in double quotes")
    }
  }

  /// After a member's name, for every reader of objects: the `:` between whitespace, stepped over.
  @inline(__always)
  mutating func afterMemberName() throws(JSONReadError) {
    skipWhitespace()
    guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else {
      throw JSONReadError(.invalidJSON, offset: pos, "expected ':' after a member name")
    }
    pos += 1
    skipWhitespace()
  }

  /// The step after a member's value, for every reader of objects (``JSONReader``, the validating
  /// scan): the member held to ``JSONLimits/maxObjectMembers`` (`members`: those before it; an
  /// overflow is reported at `keyOffset`, its name's), then a `,` that no `}` follows (no trailing
  /// comma) or the object's `}`, stepped over. `true` at the `}`: the object is closed.
  @inline(__always)
  mutating func afterMember(_ members: Int, keyOffset: Int) throws(JSONReadError) -> Bool {
    if members >= limits.maxObjectMembers {
      throw JSONReadError(
        .objectTooLarge, offset: keyOffset, "object has more than \(limits.maxObjectMembers) members")
    }
    skipWhitespace()
    guard pos < bytes.count else {
      throw JSONReadError(.invalidJSON, offset: pos, "unexpected end of input inside an object")
    }
    switch bytes[pos] {
    case UInt8(ascii: ","):
      pos += 1
      skipWhitespace()
      if pos < bytes.count, bytes[pos] == UInt8(ascii: "}") {
        throw JSONReadError(.invalidJSON, offset: pos, "trailing comma in an object")
      }
      return false
    case UInt8(ascii: "}"):
      pos += 1
      depth -= 1
      return true
    default:
      throw JSONReadError(.invalidJSON, offset: pos, "expected ',' or '}' in an object")
    }
  }

  private mutating func parseArray() throws(JSONReadError) -> JSONValue {
    if try openContainer(closingWith: UInt8(ascii: "]")) { return .array([]) }
    let base = valueStack.count
    while true {
      skipWhitespace()
      try countValue()
      let value = try parseValue()
      let closed = try afterElement(valueStack.count - base)
      valueStack.append(value)
      if closed {
        let elements = valueStack.moveTail(from: base, leaving: .null)
        stats.containers += 1
        stats.reservedElements += elements.capacity
        return .array(elements)
      }
    }
  }

  /// The step after an element, for every reader of arrays (``JSONReader``, the validating scan):
  /// the element held to ``JSONLimits/maxArrayElements`` (`elements`: those before it), then a `,`
  /// that no `]` follows (no trailing comma) or the array's `]`, stepped over. `true` at the `]`:
  /// the array is closed.
  @inline(__always)
  mutating func afterElement(_ elements: Int) throws(JSONReadError) -> Bool {
    if elements >= limits.maxArrayElements {
      throw JSONReadError(.arrayTooLong, offset: pos, "array has more than \(limits.maxArrayElements) elements")
    }
    skipWhitespace()
    guard pos < bytes.count else {
      throw JSONReadError(.invalidJSON, offset: pos, "unexpected end of input inside an array")
    }
    switch bytes[pos] {
    case UInt8(ascii: ","):
      pos += 1
      skipWhitespace()
      if pos < bytes.count, bytes[pos] == UInt8(ascii: "]") {
        throw JSONReadError(.invalidJSON, offset: pos, "trailing comma in an array")
      }
      return false
    case UInt8(ascii: "]"):
      pos += 1
      depth -= 1
      return true
    default:
      throw JSONReadError(.invalidJSON, offset: pos, "expected ',' or ']' in an array")
    }
  }

  package mutating func parseNumber() throws(JSONReadError) -> JSONNumber {
    let start = pos
    try scanNumber()
    return JSONNumber(
      uncheckedLiteral: String(validatedUTF8: UnsafeBufferPointer(rebasing: bytes[start..<pos]), isASCII: true))
  }

  /// Steps over the number literal at `pos`, checking it as ``parseNumber()`` does.
  @inline(__always)
  mutating func scanNumber() throws(JSONReadError) {
    let start = pos
    if bytes[pos] == UInt8(ascii: "-") { pos += 1 }
    guard pos < bytes.count, isDigit(bytes[pos]) else {
      throw JSONReadError(.invalidJSON, offset: pos, "expected a digit in a number")
    }
    if bytes[pos] == UInt8(ascii: "0") {
      pos += 1
      if pos < bytes.count, isDigit(bytes[pos]) {
        throw JSONReadError(.invalidJSON, offset: pos, "leading zeros are not allowed in numbers")
      }
    } else {
      while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
    }
    if pos < bytes.count, bytes[pos] == UInt8(ascii: ".") {
      pos += 1
      guard pos < bytes.count, isDigit(bytes[pos]) else {
        throw JSONReadError(.invalidJSON, offset: pos, "expected a digit after the decimal point")
      }
      while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
    }
    if pos < bytes.count, bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E") {
      pos += 1
      if pos < bytes.count, bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-") { pos += 1 }
      guard pos < bytes.count, isDigit(bytes[pos]) else {
        throw JSONReadError(.invalidJSON, offset: pos, "expected a digit in the exponent")
      }
      while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
    }
    let length = pos - start
    if length > limits.maxNumberLength {
      throw JSONReadError(
        .numberTooLong, offset: start, "number literal longer than \(limits.maxNumberLength) characters")
    }
  }

  @inline(__always)
  func isDigit(_ b: UInt8) -> Bool { b &- UInt8(ascii: "0") < 10 }

  /// Parses a member name starting at its opening quote: a plain name ``KnownKeys`` holds is matched
  /// and its ready-made String returned; anything else is parsed as any string.
  @inline(__always)
  package mutating func parseKey() throws(JSONReadError) -> String {
    let start = pos + 1
    var i = start
    let end = min(bytes.count, start + KnownKeys.maxLength + 1)
    while i < end {
      let b = bytes[i]
      if b == UInt8(ascii: "\"") {
        if let base = bytes.baseAddress, let known = knownKeys.lookup(base + start, i - start) {
          pos = i + 1
          return known
        }
        break
      }
      if b == UInt8(ascii: "\\") || b < 0x20 || b >= 0x80 { break }
      i += 1
    }
    return try parseString()
  }

  /// Parses a string starting at the opening quote. Fast path: no escapes, one copy into the String,
  /// whose bytes this scan has validated (``String/init(validatedUTF8:isASCII:)``).
  @usableFromInline package mutating func parseString() throws(JSONReadError) -> String {
    let open = pos
    pos += 1
    let start = pos
    var isASCII = true
    while pos < bytes.count {
      skipPlainASCII()
      guard pos < bytes.count else { break }
      let b = bytes[pos]
      if b == UInt8(ascii: "\"") {
        let length = pos - start
        if length > limits.maxStringBytes { throw stringTooLong(open) }
        pos += 1
        return String(validatedUTF8: UnsafeBufferPointer(rebasing: bytes[start..<(pos - 1)]), isASCII: isASCII)
      } else if b == UInt8(ascii: "\\") {
        return try parseEscapedString(open: open, start: start, isASCII: isASCII)
      } else if b < 0x20 {
        throw JSONReadError(.invalidJSON, offset: pos, "control character in a string must be escaped")
      } else if b < 0x80 {
        pos += 1
      } else {
        isASCII = false
        if !skipCommonUTF8() { try skipUTF8Sequence() }
      }
    }
    throw JSONReadError(.invalidJSON, offset: open, "unterminated string")
  }

  /// Steps over a well-formed two-byte UTF-8 sequence at `pos` (lead byte C2-DF, one continuation byte),
  /// or a three-byte one whose lead byte admits any continuation (E1-EC, EE-EF: no overlong form or
  /// surrogate possible), all its bytes within the frame, and says so; anything else is left to
  /// ``skipUTF8Sequence()``, which checks every form and reports what is wrong. The common cases of
  /// text beyond ASCII (Latin, Cyrillic, Greek; most of the BMP: CJK, punctuation), without a call.
  @inline(__always)
  mutating func skipCommonUTF8() -> Bool {
    let b0 = bytes[pos]
    if b0 >= 0xC2, b0 <= 0xDF {
      guard pos + 1 < bytes.count, bytes[pos + 1] & 0xC0 == 0x80 else { return false }
      pos += 2
      return true
    }
    guard b0 >= 0xE1, b0 <= 0xEF, b0 != 0xED, pos + 2 < bytes.count, bytes[pos + 1] & 0xC0 == 0x80,
      bytes[pos + 2] & 0xC0 == 0x80
    else { return false }
    pos += 3
    return true
  }

  /// Advances over bytes that need no attention inside a string (printable ASCII other than `"` and
  /// `\`), eight at a time: a word has such a byte only if one of the classic "has zero byte" tests fires.
  @inlinable @inline(__always)
  package mutating func skipPlainASCII() {
    pos = plainASCIIRunEnd(from: pos)
  }

  /// Where the run of plain bytes from `start` ends (see ``skipPlainASCII()``): the first byte from
  /// `start` that needs attention, or the start of the last seven bytes or fewer, which the caller
  /// reads one at a time.
  @inlinable @inline(__always)
  package func plainASCIIRunEnd(from start: Int) -> Int {
    guard let base = bytes.baseAddress else { return start }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var i = start
    while i &+ 8 <= bytes.count {
      let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
      let quote = w ^ (ones &* 0x22)
      let backslash = w ^ (ones &* 0x5C)
      let special =
        ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((w &- ones &* 0x20) & ~w) | w
      let found = special & highs
      if found != 0 {
        // The lowest flagged byte is a real one (a false alarm can only sit above a real one), so
        // step straight to it; loads are little-endian on every platform Swift targets here.
        #if _endian(little)
          return i &+ (found.trailingZeroBitCount &>> 3)
        #else
          return i
        #endif
      }
      i &+= 8
    }
    return i
  }

  func stringTooLong(_ open: Int) -> JSONReadError {
    JSONReadError(.stringTooLong, offset: open, "string longer than \(limits.maxStringBytes) bytes")
  }

  /// Validates one multi-byte UTF-8 sequence at `pos` (RFC 3629: no overlongs, no surrogates, at most U+10FFFF).
  mutating func skipUTF8Sequence() throws(JSONReadError) {
    let b0 = bytes[pos]
    let need: Int
    var lower: UInt8 = 0x80
    var upper: UInt8 = 0xBF
    switch b0 {
    case 0xC2...0xDF: need = 1
    case 0xE0:
      need = 2
      lower = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: need = 2
    case 0xED:
      need = 2
      upper = 0x9F
    case 0xF0:
      need = 3
      lower = 0x90
    case 0xF1...0xF3: need = 3
    case 0xF4:
      need = 3
      upper = 0x8F
    default:
      throw JSONReadError(
        .invalidUTF8, offset: pos, "invalid UTF-8 lead byte 0x\(String(b0, radix: 16, uppercase: true))")
    }
    guard pos + need < bytes.count else {
      throw JSONReadError(.invalidUTF8, offset: pos, "truncated UTF-8 sequence")
    }
    let b1 = bytes[pos + 1]
    guard b1 >= lower && b1 <= upper else {
      throw JSONReadError(.invalidUTF8, offset: pos + 1, "invalid UTF-8 continuation byte")
    }
    if need >= 2 {
      guard bytes[pos + 2] & 0xC0 == 0x80 else {
        throw JSONReadError(.invalidUTF8, offset: pos + 2, "invalid UTF-8 continuation byte")
      }
    }
    if need == 3 {
      guard bytes[pos + 3] & 0xC0 == 0x80 else {
        throw JSONReadError(.invalidUTF8, offset: pos + 3, "invalid UTF-8 continuation byte")
      }
    }
    pos += need + 1
  }

  /// The character of the escape at `pos` (its backslash), checked (no lone surrogate) and stepped over.
  @inline(__always)
  mutating func readEscape() throws(JSONReadError) -> Unicode.Scalar {
    let escapeStart = pos
    pos += 1
    guard pos < bytes.count else {
      throw JSONReadError(.invalidJSON, offset: escapeStart, "unterminated escape sequence")
    }
    let c = bytes[pos]
    pos += 1
    switch c {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let unit = try readHex4(escapeStart)
      var scalarValue = UInt32(unit)
      if unit >= 0xD800 && unit <= 0xDBFF {
        guard pos + 1 < bytes.count, bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u") else {
          throw JSONReadError(.invalidJSON, offset: escapeStart, "lone high surrogate escape")
        }
        pos += 2
        let low = try readHex4(pos - 2)
        guard low >= 0xDC00 && low <= 0xDFFF else {
          throw JSONReadError(
            .invalidJSON, offset: escapeStart, "high surrogate escape not followed by a low surrogate")
        }
        scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
      } else if unit >= 0xDC00 && unit <= 0xDFFF {
        throw JSONReadError(.invalidJSON, offset: escapeStart, "lone low surrogate escape")
      }
      guard let scalar = Unicode.Scalar(scalarValue) else {
        throw JSONReadError(.invalidJSON, offset: escapeStart, "invalid Unicode escape")
      }
      return scalar
    default:
      throw JSONReadError(.invalidJSON, offset: escapeStart, "invalid escape sequence")
    }
  }

  private mutating func readHex4(_ escapeStart: Int) throws(JSONReadError) -> UInt16 {
    guard pos + 4 <= bytes.count else {
      throw JSONReadError(.invalidJSON, offset: escapeStart, "truncated \\u escape")
    }
    var v: UInt16 = 0
    for _ in 0..<4 {
      let h = bytes[pos]
      let d: UInt8
      switch h {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): d = h - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): d = h - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): d = h - UInt8(ascii: "A") + 10
      default: throw JSONReadError(.invalidJSON, offset: pos, "invalid hex digit in \\u escape")
      }
      v = v << 4 | UInt16(d)
      pos += 1
    }
    return v
  }
}

extension Array {
  /// Moves the elements from `start` on into a new array with room for exactly their number (what
  /// the allocator rounds it up to; `Array(slice)` could keep the stack's spare capacity) and drops
  /// them from `self`. Moving, not copying, saves a retain and a release per element; the slots left
  /// behind are filled with `placeholder` (a value that owns no storage) before they are dropped.
  ///
  /// The array is made by `reserveCapacity` and appends, which the compiler specialises for the
  /// element type. `Array(unsafeUninitializedCapacity:)` is not: it looks the array's type up in the
  /// runtime's metadata cache on every call (about 160 instructions, through code of the runtime that
  /// nothing else a host does per frame touches), once per object and array parsed.
  @inline(__always)
  fileprivate mutating func moveTail(from start: Int, leaving placeholder: Element) -> [Element] {
    let n = count - start
    guard n > 0 else { return [] }
    var tail: [Element] = []
    tail.reserveCapacity(n)
    withUnsafeMutableBufferPointer { stack in
      guard let from = stack.baseAddress.map({ $0 + start }) else { return }
      for offset in 0..<n { tail.append((from + offset).move()) }
      from.initialize(repeating: placeholder, count: n)
    }
    removeLast(n)
    return tail
  }
}

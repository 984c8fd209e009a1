/// Unescaping a string with escapes: each run without escapes copied whole, each escape's character
/// appended, into one of two spaces.
///
/// The unescaped bytes are never more than the frame's bytes from the string's first character on
/// (an escape is never shorter than the UTF-8 of the character it stands for). So a string that
/// starts within ``stackUnescapeBytes`` of the frame's end (every string of a small frame) is
/// unescaped on the stack, written through a pointer with no capacity check and no allocation;
/// one further from the end goes to the parser's growable ``scratch`` space (made on first use,
/// reserving at most ``scratchReserve`` bytes at once), as before. The checks are the same on both:
/// the escapes (``readEscape()``), UTF-8, control characters, ``JSONLimits/maxStringBytes``.
extension JSONParser {
  /// How close to the frame's end a string must start to be unescaped on the stack.
  package static let stackUnescapeBytes = 1024

  /// The most ``scratch`` reserves at once for an escaped string (a longer one grows it as it goes).
  package static let scratchReserve = 4096

  /// The rest of a string with escapes, from `start` (the bytes before `pos` validated, ASCII when
  /// `isASCII`; `pos` at the first backslash), unescaped.
  mutating func parseEscapedString(open: Int, start: Int, isASCII: Bool) throws(JSONReadError) -> String {
    let room = bytes.count - start
    if room <= Self.stackUnescapeBytes {
      let result = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) {
        space -> Result<String, JSONReadError> in
        var sink = UnescapedOnStack(base: space.baseAddress!)
        do throws(JSONReadError) {
          return .success(try unescape(into: &sink, open: open, start: start, isASCII: isASCII))
        } catch {
          return .failure(error)
        }
      }
      return try result.get()
    }
    var sink = UnescapedInScratch(bytes: [])
    swap(&sink.bytes, &scratch)  // the scratch space's capacity, without a copy
    defer { swap(&sink.bytes, &scratch) }
    sink.bytes.removeAll(keepingCapacity: true)
    let bound = Swift.min(room, Self.scratchReserve)
    if sink.bytes.capacity < bound { sink.bytes.reserveCapacity(bound) }
    return try unescape(into: &sink, open: open, start: start, isASCII: isASCII)
  }

  /// The unescaping proper, into `sink`.
  @inline(__always)
  private mutating func unescape<Sink: UnescapedBytes>(
    into sink: inout Sink, open: Int, start: Int, isASCII: Bool
  ) throws(JSONReadError) -> String {
    var isASCII = isASCII
    sink.append(UnsafeBufferPointer(rebasing: bytes[start..<pos]))
    while pos < bytes.count {
      // Copy the longest run that needs no unescaping in one go.
      let runStart = pos
      while pos < bytes.count {
        skipPlainASCII()
        guard pos < bytes.count else { break }
        let b = bytes[pos]
        if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 { break }
        if b < 0x80 {
          pos += 1
        } else {
          isASCII = false
          if !skipCommonUTF8() { try skipUTF8Sequence() }
        }
      }
      if runStart < pos { sink.append(UnsafeBufferPointer(rebasing: bytes[runStart..<pos])) }
      if sink.count > limits.maxStringBytes { throw stringTooLong(open) }
      guard pos < bytes.count else { break }
      let b = bytes[pos]
      if b == UInt8(ascii: "\"") {
        pos += 1
        return sink.string(isASCII: isASCII)
      } else if b == UInt8(ascii: "\\") {
        let scalar = try readEscape()
        if scalar.value < 0x80 {
          sink.append(UInt8(truncatingIfNeeded: scalar.value))
        } else {
          isASCII = false
          if let encoded = UTF8.encode(scalar) { for unit in encoded { sink.append(unit) } }
        }
      } else {
        throw JSONReadError(.invalidJSON, offset: pos, "control character in a string must be escaped")
      }
    }
    throw JSONReadError(.invalidJSON, offset: open, "unterminated string")
  }
}

/// Where ``JSONParser/parseEscapedString(open:start:isASCII:)`` writes the unescaped bytes.
private protocol UnescapedBytes {
  /// The bytes written so far.
  var count: Int { get }
  mutating func append(_ run: UnsafeBufferPointer<UInt8>)
  mutating func append(_ byte: UInt8)
  /// The bytes written, as a String (they are validated UTF-8; ASCII when `isASCII`).
  func string(isASCII: Bool) -> String
}

/// Stack space with room for every byte the string can unescape to: written without checks.
private struct UnescapedOnStack: UnescapedBytes {
  let base: UnsafeMutablePointer<UInt8>
  var count = 0

  @inline(__always)
  mutating func append(_ run: UnsafeBufferPointer<UInt8>) {
    guard let from = run.baseAddress, run.count > 0 else { return }
    (base + count).update(from: from, count: run.count)
    count += run.count
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    base[count] = byte
    count += 1
  }

  func string(isASCII: Bool) -> String {
    String(validatedUTF8: UnsafeBufferPointer(start: base, count: count), isASCII: isASCII)
  }
}

/// The parser's growable scratch space.
private struct UnescapedInScratch: UnescapedBytes {
  var bytes: [UInt8]
  var count: Int { bytes.count }

  @inline(__always)
  mutating func append(_ run: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: run) }

  @inline(__always)
  mutating func append(_ byte: UInt8) { bytes.append(byte) }

  func string(isASCII: Bool) -> String {
    bytes.withUnsafeBufferPointer { String(validatedUTF8: $0, isASCII: isASCII) }
  }
}

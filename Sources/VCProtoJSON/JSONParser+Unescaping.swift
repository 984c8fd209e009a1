/// Unescaping a string with escapes: each run without escapes copied whole, each escape's character
/// appended, on the stack while the string fits there.
///
/// The unescaped bytes go to ``stackUnescapeBytes`` of stack space first (fewer when fewer bytes are
/// left in the frame: an escape is never shorter than the UTF-8 of the character it stands for, so the
/// unescaped bytes never outnumber the frame's bytes from the string's first character on). A string
/// that unescapes to no more (most strings of a conversation) allocates nothing but its own storage.
/// One that outgrows it moves what it has to the parser's growable ``scratch`` space (made on first
/// use, reserving at most ``scratchReserve`` bytes at once) and goes on there from where it was,
/// reading nothing twice but the escape that did not fit. (Before, every escaped string that started
/// further than that from the frame's end went to the scratch space: a 4 KiB allocation on nearly
/// every history frame, and the code of both ways run.) The checks are the same either way: the
/// escapes (``readEscape()``), UTF-8, control characters, ``JSONLimits/maxStringBytes``.
extension JSONParser {
  /// The stack space a string is unescaped into before it needs the scratch space.
  package static let stackUnescapeBytes = 1024

  /// The most ``scratch`` reserves at once for an escaped string (a longer one grows it as it goes).
  package static let scratchReserve = 4096

  /// The rest of a string with escapes, from `start` (the bytes before `pos` validated, ASCII when
  /// `isASCII`; `pos` at the first backslash), unescaped.
  mutating func parseEscapedString(open: Int, start: Int, isASCII: Bool) throws(JSONReadError) -> String {
    var isASCII = isASCII
    var pending = start  // the bytes from here to `pos` are validated and not yet written
    let capacity = Swift.min(bytes.count - start, Self.stackUnescapeBytes)
    let onStack = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) {
      space -> Result<String?, JSONReadError> in
      var sink = UnescapedOnStack(base: space.baseAddress!, capacity: capacity)
      do throws(JSONReadError) {
        if let string = try unescape(into: &sink, open: open, pending: &pending, isASCII: &isASCII) {
          return .success(string)
        }
      } catch {
        return .failure(error)
      }
      // Outgrown: what the stack holds moves to the scratch space, and the string goes on there.
      scratch.removeAll(keepingCapacity: true)
      let bound = Swift.min(sink.count + bytes.count - pending, Self.scratchReserve)
      if scratch.capacity < bound { scratch.reserveCapacity(bound) }
      scratch.append(contentsOf: UnsafeBufferPointer(start: sink.base, count: sink.count))
      return .success(nil)
    }
    if let string = try onStack.get() { return string }
    var sink = UnescapedInScratch(bytes: [])
    swap(&sink.bytes, &scratch)  // the scratch space's capacity and contents, without a copy
    defer { swap(&sink.bytes, &scratch) }
    // The scratch space always has room: `unescape` returns a string.
    return try unescape(into: &sink, open: open, pending: &pending, isASCII: &isASCII) ?? ""
  }

  /// The unescaping proper, into `sink`, from `pending` (the bytes from there to `pos` are validated
  /// and not yet written); `nil` when `sink` has no room for what comes next, with `pending` and `pos`
  /// where to go on from.
  @inline(__always)
  private mutating func unescape<Sink: UnescapedBytes>(
    into sink: inout Sink, open: Int, pending: inout Int, isASCII: inout Bool
  ) throws(JSONReadError) -> String? {
    var runStart = pending
    while true {
      // Copy the longest run that needs no unescaping in one go.
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
      if runStart < pos {
        guard sink.append(UnsafeBufferPointer(rebasing: bytes[runStart..<pos])) else {
          pending = runStart
          return nil
        }
      }
      if sink.count > limits.maxStringBytes { throw stringTooLong(open) }
      guard pos < bytes.count else { break }
      let b = bytes[pos]
      if b == UInt8(ascii: "\"") {
        pos += 1
        return sink.string(isASCII: isASCII)
      } else if b == UInt8(ascii: "\\") {
        let escape = pos
        let scalar = try readEscape()
        if scalar.value < 0x80 {
          guard sink.append(UInt8(truncatingIfNeeded: scalar.value)) else {
            (pending, pos) = (escape, escape)  // the escape is read again
            return nil
          }
        } else {
          isASCII = false
          guard let encoded = UTF8.encode(scalar), sink.hasRoom(encoded.count) else {
            (pending, pos) = (escape, escape)
            return nil
          }
          for unit in encoded { _ = sink.append(unit) }
        }
      } else {
        throw JSONReadError(.invalidJSON, offset: pos, "control character in a string must be escaped")
      }
      runStart = pos
    }
    throw JSONReadError(.invalidJSON, offset: open, "unterminated string")
  }
}

/// Where ``JSONParser/parseEscapedString(open:start:isASCII:)`` writes the unescaped bytes.
private protocol UnescapedBytes {
  /// The bytes written so far.
  var count: Int { get }
  /// Whether `count` more bytes fit.
  func hasRoom(_ count: Int) -> Bool
  /// Appends `run`; `false` (writing nothing) when it does not fit.
  mutating func append(_ run: UnsafeBufferPointer<UInt8>) -> Bool
  /// Appends `byte`; `false` (writing nothing) when it does not fit.
  mutating func append(_ byte: UInt8) -> Bool
  /// The bytes written, as a String (they are validated UTF-8; ASCII when `isASCII`).
  func string(isASCII: Bool) -> String
}

/// Stack space of a fixed size, written through a pointer.
private struct UnescapedOnStack: UnescapedBytes {
  let base: UnsafeMutablePointer<UInt8>
  let capacity: Int
  var count = 0

  init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
    self.base = base
    self.capacity = capacity
  }

  @inline(__always)
  func hasRoom(_ count: Int) -> Bool { self.count + count <= capacity }

  @inline(__always)
  mutating func append(_ run: UnsafeBufferPointer<UInt8>) -> Bool {
    guard hasRoom(run.count) else { return false }
    guard let from = run.baseAddress, run.count > 0 else { return true }
    (base + count).update(from: from, count: run.count)
    count += run.count
    return true
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) -> Bool {
    guard count < capacity else { return false }
    base[count] = byte
    count += 1
    return true
  }

  func string(isASCII: Bool) -> String {
    String(validatedUTF8: UnsafeBufferPointer(start: base, count: count), isASCII: isASCII)
  }
}

/// The parser's growable scratch space: always has room.
private struct UnescapedInScratch: UnescapedBytes {
  var bytes: [UInt8]
  var count: Int { bytes.count }

  @inline(__always)
  func hasRoom(_ count: Int) -> Bool { true }

  @inline(__always)
  mutating func append(_ run: UnsafeBufferPointer<UInt8>) -> Bool {
    bytes.append(contentsOf: run)
    return true
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) -> Bool {
    bytes.append(byte)
    return true
  }

  func string(isASCII: Bool) -> String {
    bytes.withUnsafeBufferPointer { String(validatedUTF8: $0, isASCII: isASCII) }
  }
}

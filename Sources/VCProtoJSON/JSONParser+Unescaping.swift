/// Unescaping a string with escapes: each run without escapes copied whole, each escape's character
/// appended, through a pointer into stack space, then heap space if the string outgrows it.
///
/// The unescaped bytes go to ``stackUnescapeBytes`` of stack space first (fewer when fewer bytes are
/// left in the frame: an escape is never shorter than the UTF-8 of the character it stands for, so the
/// unescaped bytes never outnumber the frame's bytes from the string's first character on). A string
/// that unescapes to no more (most strings of a conversation) allocates nothing but its own storage.
/// One that outgrows it moves what it has to the parser's ``UnescapeSpace`` (made on first use, at
/// least ``heapUnescapeBytes``, kept for the frame's later strings, doubled while a string needs more)
/// and goes on there from where it was, reading nothing twice but the escape that did not fit. Both
/// spaces are written by the same code (one loop, not one per space). The checks are the same either
/// way: the escapes (``readEscape()``), UTF-8, control characters, ``JSONLimits/maxStringBytes``.
extension JSONParser {
  /// The stack space a string is unescaped into before it needs heap space.
  package static let stackUnescapeBytes = 1024

  /// The heap space made for the first string that outgrows its stack space (never more than the
  /// frame's bytes from that string on).
  package static let heapUnescapeBytes = 4096

  /// The rest of a string with escapes, from `start` (the bytes before `pos` validated, ASCII when
  /// `isASCII`; `pos` at the first backslash), unescaped.
  mutating func parseEscapedString(open: Int, start: Int, isASCII: Bool) throws(JSONReadError) -> String {
    var isASCII = isASCII
    var pending = start  // the bytes from here to `pos` are validated and not yet written
    let capacity = Swift.min(bytes.count - start, Self.stackUnescapeBytes)
    let result = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) {
      space -> Result<String, JSONReadError> in
      var sink = UnescapedBytes(base: space.baseAddress!, capacity: capacity)
      do throws(JSONReadError) {
        while true {
          if let string = try unescape(into: &sink, open: open, pending: &pending, isASCII: &isASCII) {
            return .success(string)
          }
          moveToHeap(&sink, pending: pending)
        }
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// The unescaping proper, into `sink`, from `pending` (the bytes from there to `pos` are validated
  /// and not yet written); `nil` when `sink` has no room for what comes next, with `pending` and `pos`
  /// where to go on from.
  @inline(__always)
  private mutating func unescape(
    into sink: inout UnescapedBytes, open: Int, pending: inout Int, isASCII: inout Bool
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
        return String(validatedUTF8: UnsafeBufferPointer(start: sink.base, count: sink.count), isASCII: isASCII)
      } else if b == UInt8(ascii: "\\") {
        let escape = pos
        let scalar = try readEscape()
        if scalar.value < 0x80, sink.count < sink.capacity {
          sink.append(UInt8(truncatingIfNeeded: scalar.value))
        } else {
          guard let encoded = UTF8.encode(scalar), sink.count + encoded.count <= sink.capacity else {
            (pending, pos) = (escape, escape)  // the escape is read again
            return nil
          }
          if scalar.value >= 0x80 { isASCII = false }
          for unit in encoded { sink.append(unit) }
        }
      } else {
        throw JSONReadError(.invalidJSON, offset: pos, "control character in a string must be escaped")
      }
      runStart = pos
    }
    throw JSONReadError(.invalidJSON, offset: open, "unterminated string")
  }

  /// Moves `sink`'s bytes to heap space with room for more: the parser's ``UnescapeSpace`` when it is
  /// larger than `sink`'s space, else a new one (at least ``heapUnescapeBytes``, at least twice
  /// `sink`'s, at most what the rest of the frame can unescape to, from `pending`), kept for the
  /// frame's later strings.
  @inline(never)
  private mutating func moveToHeap(_ sink: inout UnescapedBytes, pending: Int) {
    let bound = sink.count + bytes.count - pending  // the string's unescaped bytes can be no more
    var target = unescapeSpace
    if target == nil || target!.capacity <= sink.capacity {
      let grown = Swift.min(Swift.max(Self.heapUnescapeBytes, 2 * sink.capacity), bound)
      target = UnescapeSpace(capacity: Swift.max(grown, sink.count + 4))
    }
    let space = target!
    if space.base != sink.base { space.base.update(from: sink.base, count: sink.count) }
    unescapeSpace = space  // replaces (and frees) a smaller one only after the copy
    sink = UnescapedBytes(base: space.base, capacity: space.capacity, count: sink.count)
  }
}

/// Where ``JSONParser/parseEscapedString(open:start:isASCII:)`` writes the unescaped bytes: space of a
/// fixed size, on the stack or the heap, written through a pointer.
private struct UnescapedBytes {
  let base: UnsafeMutablePointer<UInt8>
  let capacity: Int
  var count = 0

  init(base: UnsafeMutablePointer<UInt8>, capacity: Int, count: Int = 0) {
    self.base = base
    self.capacity = capacity
    self.count = count
  }

  /// Appends `run`; `false` (writing nothing) when it does not fit.
  @inline(__always)
  mutating func append(_ run: UnsafeBufferPointer<UInt8>) -> Bool {
    guard count + run.count <= capacity else { return false }
    guard let from = run.baseAddress, run.count > 0 else { return true }
    (base + count).update(from: from, count: run.count)
    count += run.count
    return true
  }

  /// Appends `byte`, for which the caller has checked there is room.
  @inline(__always)
  mutating func append(_ byte: UInt8) {
    base[count] = byte
    count += 1
  }
}

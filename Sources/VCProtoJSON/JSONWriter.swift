/// Writes JSON text deterministically: members in the order given, no insignificant whitespace,
/// `/` never escaped, non-ASCII written as raw UTF-8, and only `"`, `\` and control characters escaped
/// (`\b \f \n \r \t`, others as lowercase `\u00xx`).
public struct JSONWriter: Sendable {
  /// The bytes written so far.
  public private(set) var bytes: [UInt8]

  /// Creates a writer, optionally reserving capacity.
  public init(reservingCapacity capacity: Int = 256) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  /// Appends raw, already-valid JSON bytes.
  @inline(__always)
  package mutating func appendRaw(_ s: StaticString) {
    s.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  @inline(__always)
  package mutating func appendByte(_ b: UInt8) { bytes.append(b) }

  /// Writes any JSON value.
  public mutating func write(_ value: JSONValue) {
    switch value {
    case .null: appendRaw("null")
    case .bool(let b): appendRaw(b ? "true" : "false")
    case .number(let n): bytes.append(contentsOf: n.literal.utf8)
    case .string(let s): write(s)
    case .array(let a):
      bytes.append(UInt8(ascii: "["))
      var first = true
      for e in a {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        write(e)
      }
      bytes.append(UInt8(ascii: "]"))
    case .object(let o): write(o)
    }
  }

  /// Writes an object with its members in order.
  public mutating func write(_ object: JSONObject) {
    bytes.append(UInt8(ascii: "{"))
    var first = true
    for m in object.members {
      if !first { bytes.append(UInt8(ascii: ",")) }
      first = false
      write(m.key)
      bytes.append(UInt8(ascii: ":"))
      write(m.value)
    }
    bytes.append(UInt8(ascii: "}"))
  }

  /// Writes a string literal with the minimal escaping described above.
  ///
  /// Bytes that need no escaping are copied in runs; the scan steps over eight of them at a time (a
  /// word holds a `"`, a `\` or a control character only if one of the classic "has zero byte" tests
  /// fires, and the lowest test that fires marks the first such byte).
  public mutating func write(_ string: String) {
    bytes.append(UInt8(ascii: "\""))
    var string = string
    string.withUTF8 { utf8 in
      guard let base = utf8.baseAddress else { return }
      let count = utf8.count
      let ones: UInt64 = 0x0101_0101_0101_0101
      let highs: UInt64 = 0x8080_8080_8080_8080
      var runStart = 0
      var i = 0
      while i < count {
        while i &+ 8 <= count {
          let w = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
          let quote = w ^ (ones &* 0x22)
          let backslash = w ^ (ones &* 0x5C)
          let special =
            (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((w &- ones &* 0x20) & ~w)) & highs
          if special != 0 {
            i &+= special.trailingZeroBitCount >> 3
            break
          }
          i &+= 8
        }
        guard i < count else { break }
        let b = base[i]
        if b >= 0x20 && b != 0x22 && b != 0x5C {
          i &+= 1
          continue
        }
        if runStart < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
        i &+= 1
        runStart = i
        bytes.append(UInt8(ascii: "\\"))
        switch b {
        case 0x22: bytes.append(0x22)
        case 0x5C: bytes.append(0x5C)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
          let hex: [UInt8] = Array("0123456789abcdef".utf8)
          bytes.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0xF)]])
        }
      }
      if runStart < count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// Writes a key (a string) followed by `:`; a leading `,` unless `first`.
  public mutating func writeKey(_ key: StaticString, first: Bool) {
    if !first { bytes.append(UInt8(ascii: ",")) }
    bytes.append(UInt8(ascii: "\""))
    key.withUTF8Buffer { bytes.append(contentsOf: $0) }
    bytes.append(UInt8(ascii: "\""))
    bytes.append(UInt8(ascii: ":"))
  }

  /// Writes an integer.
  public mutating func write(_ value: Int) {
    // The digits straight into the output, without making a String.
    var magnitude = value.magnitude
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var i = digits.count
      repeat {
        i -= 1
        digits[i] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      if value < 0 { bytes.append(UInt8(ascii: "-")) }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[i...]))
    }
  }

  /// Writes a boolean.
  public mutating func write(_ value: Bool) {
    appendRaw(value ? "true" : "false")
  }

  /// Writes `null`.
  public mutating func writeNull() {
    appendRaw("null")
  }
}

extension JSONValue {
  /// The value as compact JSON text (see ``JSONWriter`` for the exact rules).
  public var jsonText: String {
    var w = JSONWriter()
    w.write(self)
    return String(decoding: w.bytes, as: UTF8.self)
  }
}

extension JSONWriter {
  /// Writes `{`.
  public mutating func beginObject() { appendByte(UInt8(ascii: "{")) }
  /// Writes `}`.
  public mutating func endObject() { appendByte(UInt8(ascii: "}")) }
  /// Writes `[`.
  public mutating func beginArray() { appendByte(UInt8(ascii: "[")) }
  /// Writes `]`.
  public mutating func endArray() { appendByte(UInt8(ascii: "]")) }
  /// Writes `,`.
  public mutating func writeComma() { appendByte(UInt8(ascii: ",")) }

  /// Writes members of an object (without braces), preceded by `,` unless `first`.
  public mutating func writeMembers(_ object: JSONObject, first: Bool) {
    var first = first
    for m in object.members {
      if !first { writeComma() }
      first = false
      write(m.key)
      appendByte(UInt8(ascii: ":"))
      write(m.value)
    }
  }
}

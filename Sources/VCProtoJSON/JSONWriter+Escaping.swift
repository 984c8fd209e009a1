extension JSONWriter {
  /// Appends `utf8` as a JSON string literal: quoted, with `"`, `\` and the control characters escaped
  /// (`\b \f \n \r \t`, the others as lowercase `\u00xx`) and every other byte copied as it is.
  ///
  /// Bytes are copied sixteen at a time while they are checked (a SIMD load, a store, and a test of
  /// the sixteen for a byte to escape; the store runs ahead of what is kept, so room for sixteen more
  /// bytes is always made), the last few of a longer string as the string's last sixteen, then eight
  /// at a time, then one by one. Room for the string unescaped is
  /// made once; an escape makes room for what is left only when it would not fit.
  ///
  /// `asName`: the string is a member's name, written with a `:` after it and a `,` before it
  /// unless `first` (one call, one check of the room, for the three).
  @usableFromInline
  package mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, asName: Bool = false, first: Bool = true) {
    let total = utf8.count
    // The quotes, a `,` and a `:`, sixteen bytes of overrun and a little for escapes.
    var out = room(total &+ 36)
    var end = storage.start + capacity
    if !first {
      out[0] = UInt8(ascii: ",")
      out += 1
    }
    out[0] = UInt8(ascii: "\"")
    out += 1
    guard let source = utf8.baseAddress else {
      out[0] = UInt8(ascii: "\"")
      if asName { out[1] = UInt8(ascii: ":") }
      count = out + (asName ? 2 : 1) - storage.start
      return
    }
    var i = 0
    while true {
      // Clean bytes, sixteen at a time: copied, then kept up to the first byte to escape.
      while i &+ 16 <= total {
        let v = UnsafeRawPointer(source + i).loadUnaligned(as: SIMD16<UInt8>.self)
        UnsafeMutableRawPointer(out).storeBytes(of: v, as: SIMD16<UInt8>.self)
        let marks = Self.escapeMarks(v)
        if marks.0 | marks.1 != 0 {
          let clean = marks.0 != 0 ? marks.0.trailingZeroBitCount &>> 3 : 8 &+ marks.1.trailingZeroBitCount &>> 3
          i &+= clean
          out += clean
          break
        }
        i &+= 16
        out += 16
      }
      // Fewer than sixteen left of a string of sixteen or more: the last sixteen bytes, loaded again
      // over some already copied, are copied at once when none is to escape (they were copied as
      // they are, so storing them again changes nothing): a UUID's last four bytes cost some seventy
      // instructions one by one.
      if i < total, i &+ 16 > total, total >= 16 {
        let v = UnsafeRawPointer(source + (total &- 16)).loadUnaligned(as: SIMD16<UInt8>.self)
        let marks = Self.escapeMarks(v)
        if marks.0 | marks.1 == 0 {
          UnsafeMutableRawPointer(out - (i &- (total &- 16))).storeBytes(of: v, as: SIMD16<UInt8>.self)
          out += total &- i
          i = total
        }
      }
      // A byte to escape at `i`, or fewer than sixteen left: one by one, eight at a time when clean.
      while i < total {
        let b = source[i]
        if b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
          // At most six bytes, then what is left may still be stored unescaped.
          if _slowPath(end - out < total &- i &+ 40) {
            count = out - storage.start
            out = room(total &- i &+ 40)
            end = storage.start + capacity
          }
          out += Self.storeEscape(of: b, at: out)
          i &+= 1
          if i &+ 16 <= total { break }  // back to sixteen at a time
          continue
        }
        if i &+ 8 <= total {
          let w = UnsafeRawPointer(source + i).loadUnaligned(as: UInt64.self)
          UnsafeMutableRawPointer(out).storeBytes(of: w, as: UInt64.self)
          let marks = Self.escapeMarks(UInt64(littleEndian: w))
          // The byte at `i` is clean, so at least one byte is kept.
          let clean = marks == 0 ? 8 : marks.trailingZeroBitCount &>> 3
          i &+= clean
          out += clean
          continue
        }
        out[0] = b
        out += 1
        i &+= 1
      }
      if i >= total { break }
    }
    out[0] = UInt8(ascii: "\"")
    if asName { out[1] = UInt8(ascii: ":") }
    count = out + (asName ? 2 : 1) - storage.start
  }

  /// For each of the sixteen bytes, its high bit set when it must be escaped (`"`, `\` or below
  /// 0x20), else zero; as two little-endian words (bytes 0-7, 8-15).
  @inline(__always)
  package static func escapeMarks(_ v: SIMD16<UInt8>) -> (UInt64, UInt64) {
    // Per byte: x - 1 has its high bit set and x has it clear exactly when x == 0; x - 0x20 has it
    // set and x clear exactly when x < 0x20. Lanes do not carry into each other.
    let quote = v ^ SIMD16(repeating: UInt8(ascii: "\""))
    let backslash = v ^ SIMD16(repeating: UInt8(ascii: "\\"))
    let marks =
      (((quote &- 1) & ~quote) | ((backslash &- 1) & ~backslash) | ((v &- 0x20) & ~v)) & SIMD16(repeating: 0x80)
    let words = unsafeBitCast(marks, to: SIMD2<UInt64>.self)
    return (UInt64(littleEndian: words[0]), UInt64(littleEndian: words[1]))
  }

  /// The same test on eight bytes in a word: the lowest marked byte is the first to escape (bytes
  /// above it may be marked wrongly, by a borrow out of that byte).
  @inline(__always)
  package static func escapeMarks(_ w: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let quote = w ^ (ones &* 0x22)
    let backslash = w ^ (ones &* 0x5C)
    return (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((w &- ones &* 0x20) & ~w))
      & (ones &* 0x80)
  }

  /// Stores the escape of `byte` (`"`, `\` or a control character) at `out`; returns its length.
  @inline(__always)
  package static func storeEscape(of byte: UInt8, at out: UnsafeMutablePointer<UInt8>) -> Int {
    out[0] = UInt8(ascii: "\\")
    let short: UInt8
    switch byte {
    case 0x22: short = 0x22
    case 0x5C: short = 0x5C
    case 0x08: short = UInt8(ascii: "b")
    case 0x0C: short = UInt8(ascii: "f")
    case 0x0A: short = UInt8(ascii: "n")
    case 0x0D: short = UInt8(ascii: "r")
    case 0x09: short = UInt8(ascii: "t")
    default:
      let hex: StaticString = "0123456789abcdef"
      out[1] = UInt8(ascii: "u")
      out[2] = UInt8(ascii: "0")
      out[3] = UInt8(ascii: "0")
      out[4] = hex.utf8Start[Int(byte &>> 4)]
      out[5] = hex.utf8Start[Int(byte & 0xF)]
      return 6
    }
    out[1] = short
    return 2
  }
}

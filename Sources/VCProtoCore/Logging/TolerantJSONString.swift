import VCProtoJSON

/// Decodes JSON string tokens in text that may not be JSON at all (a malformed frame, a cut-off
/// excerpt): it never fails, so whoever looks for secrets or keys sees the text a JSON reader would
/// see, escapes decoded, even where the text around it is broken.
///
/// Rules: the standard escapes are decoded; `\uXXXX` is decoded, a surrogate pair to its scalar and
/// a lone surrogate to U+FFFD; an unknown escape or an incomplete `\u` is kept as written; invalid
/// UTF-8 becomes U+FFFD; a string without its closing quote ends with the text.
package enum TolerantJSONString {
  /// A decoded string token.
  package struct Token {
    /// The decoded value.
    package var value: String
    /// The index just past the closing quote (or the end of the text when it is missing).
    package var end: Int
  }

  /// Decodes the string token whose opening quote is `bytes[start]`.
  package static func decode(_ bytes: [UInt8], from start: Int) -> Token {
    var out: [UInt8] = []
    var i = start + 1
    while i < bytes.count {
      let b = bytes[i]
      if b == UInt8(ascii: "\"") { return Token(value: String(decoding: out, as: UTF8.self), end: i + 1) }
      guard b == UInt8(ascii: "\\"), i + 1 < bytes.count else {
        out.append(b)
        i += 1
        continue
      }
      let e = bytes[i + 1]
      switch e {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "u"):
        guard let unit = hex4(bytes, i + 2) else {
          out += [b, e]
          i += 2
          continue
        }
        var scalar = Unicode.Scalar(unit)
        var length = 6
        if (0xD800...0xDBFF).contains(unit), i + 7 < bytes.count, bytes[i + 6] == UInt8(ascii: "\\"),
          bytes[i + 7] == UInt8(ascii: "u"), let low = hex4(bytes, i + 8), (0xDC00...0xDFFF).contains(low)
        {
          scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
          length = 12
        }
        out += Array(String(scalar ?? "\u{FFFD}").utf8)
        i += length
        continue
      default:
        out += [b, e]
      }
      i += 2
    }
    return Token(value: String(decoding: out, as: UTF8.self), end: bytes.count)
  }

  /// The value of four hex digits at `bytes[at...]`, or `nil`.
  private static func hex4(_ bytes: [UInt8], _ at: Int) -> UInt32? {
    guard at + 4 <= bytes.count else { return nil }
    var value: UInt32 = 0
    for b in bytes[at..<(at + 4)] {
      let digit: UInt8
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }
}

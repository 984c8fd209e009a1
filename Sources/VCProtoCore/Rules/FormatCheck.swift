import VCProtoJSON

/// Checks the string formats of ``StringFormat``. Pure byte-level checks, no Foundation.
package enum FormatCheck {
  package static func matches(_ s: String, _ format: StringFormat) -> Bool {
    switch format {
    case .plain: return true
    case .dateTime: return isDateTime(s)
    case .uuid: return isUUID(s)
    case .hex: return isHex(s)
    case .version: return isVersion(s)
    }
  }

  private static func digit(_ b: UInt8) -> Int? {
    b >= 0x30 && b <= 0x39 ? Int(b - 0x30) : nil
  }

  /// RFC 3339 `date-time`: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)`; `T` and `Z` in either case.
  ///
  /// Reads the string's UTF-8 in place (a native String always has it contiguous); no copy, no allocation.
  package static func isDateTime(_ s: String) -> Bool {
    if let verdict = s.utf8.withContiguousStorageIfAvailable({ isDateTime(bytes: $0) }) { return verdict }
    return isDateTime(bytes: Array(s.utf8))
  }

  /// ``isDateTime(_:)`` on the bytes. Every index is checked against `b.count` before it is read.
  private static func isDateTime<Bytes: RandomAccessCollection<UInt8>>(bytes b: Bytes) -> Bool
  where Bytes.Index == Int {
    let count = b.count
    guard count >= 20, b.startIndex == 0 else { return false }
    func number(_ from: Int, _ length: Int) -> Int? {
      guard from + length <= count else { return nil }
      var v = 0
      for i in from..<(from + length) {
        guard let d = digit(b[i]) else { return nil }
        v = v * 10 + d
      }
      return v
    }
    guard let year = number(0, 4), b[4] == 0x2D, let month = number(5, 2), b[7] == 0x2D,
      let day = number(8, 2), b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
      let hour = number(11, 2), b[13] == 0x3A, let minute = number(14, 2), b[16] == 0x3A,
      let second = number(17, 2)
    else { return false }
    guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour <= 23, minute <= 59,
      second <= 60
    else { return false }
    var i = 19
    if i < count, b[i] == UInt8(ascii: ".") {
      i += 1
      let start = i
      while i < count, digit(b[i]) != nil { i += 1 }
      guard i > start else { return false }
    }
    guard i < count else { return false }
    if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") { return i + 1 == count }
    guard b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-"), i + 6 == count, let oh = number(i + 1, 2),
      b[i + 3] == 0x3A, let om = number(i + 4, 2)
    else { return false }
    return oh <= 23 && om <= 59
  }

  /// The number of days of `month` (1-12) in `year` of the Gregorian calendar.
  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// `8-4-4-4-12` hexadecimal digits, either case.
  package static func isUUID(_ s: String) -> Bool {
    guard s.utf8.count == 36 else { return false }  // before copying: the string may be megabytes long
    for (i, c) in s.utf8.enumerated() {
      if i == 8 || i == 13 || i == 18 || i == 23 {
        if c != 0x2D { return false }
      } else if !isHexDigit(c, allowUpper: true) {
        return false
      }
    }
    return true
  }

  /// Lowercase hexadecimal of even length.
  package static func isHex(_ s: String) -> Bool {
    s.utf8.count % 2 == 0 && s.utf8.allSatisfy { isHexDigit($0, allowUpper: false) }
  }

  /// `MAJOR.MINOR.PATCH`, each one or more decimal digits. One pass over the bytes, stopping at the
  /// first that cannot belong to a version, and no allocation (splitting first would make an array of
  /// as many parts as the string has dots: 16 MiB of dots, half a gigabyte of slices).
  package static func isVersion(_ s: String) -> Bool {
    var dots = 0
    var partLength = 0
    for c in s.utf8 {
      if c == UInt8(ascii: ".") {
        guard partLength > 0, dots < 2 else { return false }
        dots += 1
        partLength = 0
      } else {
        guard digit(c) != nil else { return false }
        partLength += 1
      }
    }
    return dots == 2 && partLength > 0
  }

  private static func isHexDigit(_ c: UInt8, allowUpper: Bool) -> Bool {
    (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (allowUpper && c >= 0x41 && c <= 0x46)
  }
}

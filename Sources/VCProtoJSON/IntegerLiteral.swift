/// Decimal integer literals, read and written without the standard library's generic integer
/// parsing and printing (`Int64(String)` and `String(Int64)`), which go through protocol witnesses
/// and several out-of-line functions for a few digits. The engines read a position or an offset from
/// every message of a history and write one into every `subscribe` they send; both stay short loops.
package enum IntegerLiteral {
  /// The value of the literal in `bytes` (UTF-8), in place: `nil` unless it is an optional sign and
  /// one or more decimal digits whose value fits in `Int64` (a fraction or an exponent, even `1.0` or
  /// `1e3`, is not an integer literal). Only bytes of `bytes` are read.
  @inline(__always)
  package static func value(of bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
    var index = 0
    let negative = bytes.count > 0 && bytes[0] == UInt8(ascii: "-")
    if negative || (bytes.count > 0 && bytes[0] == UInt8(ascii: "+")) { index = 1 }
    guard index < bytes.count else { return nil }
    var value: Int64 = 0
    if bytes.count - index <= 18 {
      // Eighteen digits or fewer stay below 10^18 < Int64.max: no overflow to check (every position a
      // history carries takes this loop).
      while index < bytes.count {
        let digit = bytes[index] &- UInt8(ascii: "0")
        guard digit < 10 else { return nil }
        value = value &* 10 &+ Int64(digit)
        index += 1
      }
      return negative ? 0 &- value : value
    }
    while index < bytes.count {
      let digit = bytes[index] &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      let (scaled, o1) = value.multipliedReportingOverflow(by: 10)
      let (next, o2) =
        negative ? scaled.subtractingReportingOverflow(Int64(digit)) : scaled.addingReportingOverflow(Int64(digit))
      guard !o1, !o2 else { return nil }
      value = next
      index += 1
    }
    return value
  }

  /// The decimal text of `value`: what `String(value)` gives (`-` and the digits, no leading zero).
  package static func text(of value: Int64) -> String {
    // Twenty bytes hold the longest, `-9223372036854775808`. Digits are written from the end.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
      var magnitude = value.magnitude
      var start = buffer.count
      repeat {
        start -= 1
        buffer[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
        magnitude /= 10
      } while magnitude != 0
      if value < 0 {
        start -= 1
        buffer[start] = UInt8(ascii: "-")
      }
      return String(decoding: UnsafeBufferPointer(rebasing: buffer[start...]), as: UTF8.self)
    }
  }
}

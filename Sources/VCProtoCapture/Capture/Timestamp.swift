/// Capture timestamps as seconds since 1970: a number (seconds, or milliseconds when it is too
/// large to be seconds) or an RFC 3339 string.
package enum Timestamp {
  /// Seconds since 1970, or `nil` when `value` is not a timestamp.
  static func seconds(_ value: String) -> Double? {
    let b = Array(value.utf8)
    func number(_ from: Int, _ count: Int) -> Int? {
      guard from + count <= b.count else { return nil }
      var v = 0
      for i in from..<(from + count) {
        guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
        v = v * 10 + Int(b[i] - 0x30)
      }
      return v
    }
    guard b.count >= 20, let year = number(0, 4), b[4] == 0x2D, let month = number(5, 2), b[7] == 0x2D,
      let day = number(8, 2), b[10] | 0x20 == UInt8(ascii: "t"), let hour = number(11, 2), b[13] == 0x3A,
      let minute = number(14, 2), b[16] == 0x3A, let second = number(17, 2),
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60
    else { return nil }
    var i = 19
    var fraction = 0.0
    if i < b.count, b[i] == UInt8(ascii: ".") {
      i += 1
      var scale = 0.1
      let first = i
      while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
        fraction += Double(b[i] - 0x30) * scale
        scale /= 10
        i += 1
      }
      guard i > first else { return nil }
    }
    guard i < b.count else { return nil }
    var offset = 0
    if b[i] | 0x20 == UInt8(ascii: "z") {
      guard i + 1 == b.count else { return nil }
    } else {
      guard b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-"), i + 6 == b.count, let oh = number(i + 1, 2),
        b[i + 3] == 0x3A, let om = number(i + 4, 2)
      else { return nil }
      offset = (oh * 60 + om) * 60 * (b[i] == UInt8(ascii: "-") ? -1 : 1)
    }
    let days = daysFromCivil(year: year, month: month, day: day)
    return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
  }

  /// Seconds since 1970 from a JSON number: values beyond 10^11 are taken as milliseconds.
  static func seconds(_ number: Double) -> Double {
    number > 100_000_000_000 ? number / 1000 : number
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date.
  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}

import Foundation

/// A number through `Codable`: written as the `Int64`, `UInt64`, `Double` or `Decimal` whose value is
/// exactly the literal's, read back as the first of those the decoder can give.
///
/// `Encoder` has no way to write a literal's text, so what survives is the value, never the spelling:
/// through Foundation's `JSONEncoder`, `1.0` comes out as `1`, `1E2` as `100`, `-0` as `0`, and
/// `0.0036` and `12345678901234567890123` unchanged. A literal that none of those types holds
/// exactly (more than 38 significant digits beyond `Double`'s, or `1e400`) throws
/// `EncodingError.invalidValue` rather than being written as a different number.
extension JSONNumber: Codable {
  /// Writes the number as the first of `Int64`, `UInt64`, `Double` (when its shortest form has the
  /// literal's value) and `Decimal` (when exact) that holds the literal's value exactly; throws
  /// `EncodingError.invalidValue` when none does.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let value = int64Value { return try container.encode(value) }
    if isIntegerLiteral, let value = UInt64(literal) { return try container.encode(value) }
    if let value = doubleValue, Self.sameValue(literal, value.description) { return try container.encode(value) }
    if let value = Decimal(string: literal, locale: nil), value.isFinite,
      Self.sameValue(literal, value.description)
    {
      return try container.encode(value)
    }
    let shown = literal.count > 40 ? String(literal.prefix(40)) + "…" : literal
    throw EncodingError.invalidValue(
      self,
      EncodingError.Context(
        codingPath: encoder.codingPath,
        debugDescription: "the number \(shown) has no exact Int64, UInt64, Double or Decimal value to encode"))
  }

  /// Reads a number as the first of `Int64`, `UInt64`, `Decimal` and `Double` the decoder gives.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let value = try? container.decode(Int64.self) {
      self.init(value)
    } else if let value = try? container.decode(UInt64.self) {
      self.init(uncheckedLiteral: String(value))
    } else if let value = try? container.decode(Decimal.self), value.isFinite,
      let exact = Self.decimalValue(of: value.description)
    {
      self.init(uncheckedLiteral: exact.literal)
    } else if let value = try? container.decode(Double.self), value.isFinite {
      self.init(value)
    } else {
      throw DecodingError.typeMismatch(
        JSONNumber.self,
        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "not a finite number"))
    }
  }

  /// Whether two number texts (JSON literals, or Swift's spelling of a `Double` or `Decimal`) have
  /// the same mathematical value; `false` when either is not a number.
  package static func sameValue(_ a: String, _ b: String) -> Bool {
    guard let x = decimalValue(of: a), let y = decimalValue(of: b) else { return false }
    return x == y
  }

  /// A number's value as sign, significant digits (no leading or trailing zero) and the exponent of
  /// the last digit; zero is `(false, [], 0)` whatever its sign. `nil` unless `text` is an optional
  /// `-`, digits, an optional fraction and an optional exponent (`+` allowed there). Linear in the text.
  package static func decimalValue(of text: String) -> DecimalValue? {
    var bytes = Array(text.utf8)[...]
    let negative = bytes.first == UInt8(ascii: "-")
    if negative { bytes = bytes.dropFirst() }
    var digits: [UInt8] = []
    var exponent = 0
    var sawDigit = false
    while let b = bytes.first, b &- UInt8(ascii: "0") < 10 {
      digits.append(b)
      sawDigit = true
      bytes = bytes.dropFirst()
    }
    guard sawDigit else { return nil }
    if bytes.first == UInt8(ascii: ".") {
      bytes = bytes.dropFirst()
      var sawFraction = false
      while let b = bytes.first, b &- UInt8(ascii: "0") < 10 {
        digits.append(b)
        exponent -= 1
        sawFraction = true
        bytes = bytes.dropFirst()
      }
      guard sawFraction else { return nil }
    }
    if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
      bytes = bytes.dropFirst()
      let negativeExponent = bytes.first == UInt8(ascii: "-")
      if negativeExponent || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
      var value = 0
      var sawExponent = false
      while let b = bytes.first, b &- UInt8(ascii: "0") < 10 {
        value = min(value * 10 + Int(b &- UInt8(ascii: "0")), 1 << 40)  // saturates: no overflow
        sawExponent = true
        bytes = bytes.dropFirst()
      }
      guard sawExponent else { return nil }
      exponent += negativeExponent ? -value : value
    }
    guard bytes.isEmpty else { return nil }
    guard let first = digits.firstIndex(where: { $0 != UInt8(ascii: "0") }) else {
      return DecimalValue(negative: false, digits: [], exponent: 0)
    }
    let last = digits.lastIndex(where: { $0 != UInt8(ascii: "0") })!
    exponent += digits.count - 1 - last
    return DecimalValue(negative: negative, digits: Array(digits[first...last]), exponent: exponent)
  }

  /// A number's exact value: `(-1)^negative × digits × 10^exponent`, normalized (see
  /// `decimalValue(of:)`).
  package struct DecimalValue: Hashable {
    package var negative: Bool
    package var digits: [UInt8]
    package var exponent: Int

    /// A short JSON literal of the value: plain digits while that takes at most 40 digits (`100`,
    /// `12345678901234567890123`, `0.0036`), else one digit, a fraction and an exponent (`1.5e+100`,
    /// `1e-200`), never longer than the significant digits plus a dozen characters.
    package var literal: String {
      guard !digits.isEmpty else { return "0" }
      let sign = negative ? "-" : ""
      let text = String(decoding: digits, as: UTF8.self)
      if exponent >= 0, digits.count + exponent <= 40 {
        return sign + text + String(repeating: "0", count: exponent)
      }
      if exponent < 0, -exponent < digits.count {
        let point = digits.count + exponent
        return sign + text.prefix(point) + "." + text.dropFirst(point)
      }
      if exponent < 0, -exponent - digits.count <= 6 {
        return sign + "0." + String(repeating: "0", count: -exponent - digits.count) + text
      }
      let fraction = digits.count > 1 ? "." + text.dropFirst() : ""
      let power = exponent + digits.count - 1
      return sign + text.prefix(1) + fraction + (power < 0 ? "e" : "e+") + String(power)
    }
  }
}

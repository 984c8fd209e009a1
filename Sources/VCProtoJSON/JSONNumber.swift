/// A JSON number that keeps its literal text, so decode -> encode never changes a number's spelling.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
  /// The number exactly as written on the wire (already checked against RFC 8259's grammar).
  public let literal: String

  /// Creates a number from a literal that the caller guarantees is valid RFC 8259 number syntax.
  package init(uncheckedLiteral literal: String) {
    self.literal = literal
  }

  /// Creates a number from an integer.
  public init(_ value: Int) {
    self.literal = IntegerLiteral.text(of: Int64(value))
  }

  /// Creates a number from an integer.
  public init(_ value: Int64) {
    self.literal = IntegerLiteral.text(of: value)
  }

  /// Creates a number from a finite double (non-finite values become `0`, which JSON cannot express otherwise).
  public init(_ value: Double) {
    if !value.isFinite {
      self.literal = "0"
    } else if abs(value) < 1e15, let exact = Int64(exactly: value) {
      self.literal = IntegerLiteral.text(of: exact)
    } else {
      self.literal = "\(value)"
    }
  }

  /// `true` when the literal has no fraction and no exponent (`12`, `-0`), i.e. JSON-Schema `integer`
  /// in vcproto's stricter sense: `1.0` is a `number`, not an `integer`.
  public var isIntegerLiteral: Bool {
    for u in literal.utf8 where u == UInt8(ascii: ".") || u == UInt8(ascii: "e") || u == UInt8(ascii: "E") {
      return false
    }
    return true
  }

  /// The value as `Int64` when the literal is an integer literal within range, else `nil`.
  public var int64Value: Int64? {
    // The digits in place (native and small strings); a literal whose bytes are not contiguous (a
    // bridged string) is read by the standard library. The two agree on every valid literal.
    if let value = literal.utf8.withContiguousStorageIfAvailable({ IntegerLiteral.value(of: $0) }) { return value }
    guard isIntegerLiteral else { return nil }
    return Int64(literal)
  }

  /// The value as a finite `Double`, or `nil` when it overflows (`1e400`).
  public var doubleValue: Double? {
    guard let d = Double(literal), d.isFinite else { return nil }
    return d
  }

  /// The literal text.
  public var description: String { literal }
}

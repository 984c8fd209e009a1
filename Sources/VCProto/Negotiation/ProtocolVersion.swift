/// A protocol version `MAJOR.MINOR.PATCH`, ordered numerically (`0.10.0` > `0.9.0`).
public struct ProtocolVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The three components.
  public var major: Int, minor: Int, patch: Int

  /// Parses `MAJOR.MINOR.PATCH` (three ASCII decimal integers); `nil` for anything else.
  public init?(_ text: String) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let a = Int(parts[0]), let b = Int(parts[1]), let c = Int(parts[2])
    else { return nil }
    (major, minor, patch) = (a, b, c)
  }

  /// Creates a version from its components.
  public init(_ major: Int, _ minor: Int, _ patch: Int) {
    (self.major, self.minor, self.patch) = (major, minor, patch)
  }

  /// Parses a version a peer announced the way the real backend does: everything from the first `-`
  /// or `+` is dropped, so `0.5.0-rc1` is `0.5.0`; `nil` ("unparseable") when what is left is not
  /// exactly three integers separated by dots (`0.4`, `abc`, `""`).
  public init?(announced text: String) {
    let core = text.prefix { $0 != "-" && $0 != "+" }
    self.init(String(core))
  }

  /// Numeric order.
  public static func < (l: ProtocolVersion, r: ProtocolVersion) -> Bool {
    (l.major, l.minor, l.patch) < (r.major, r.minor, r.patch)
  }

  /// `MAJOR.MINOR.PATCH`.
  public var description: String { "\(major).\(minor).\(patch)" }

  /// 0.2.0: the seed-era real system, and what a 0.2.0 server gives every client.
  public static let legacy = ProtocolVersion(0, 2, 0)

  /// 0.4.0: the oldest version the real backend accepts when its floor is 0.4.0 or 0.5.0 (the
  /// `required` of its refusal, whatever the floor).
  public static let oldestAccepted = ProtocolVersion(0, 4, 0)

  /// The triples the real backend maps to a channel version (0.3.0, 0.4.0, 0.5.0); any other
  /// triple it meets after capping at the ceiling (e.g. `0.4.1`) gives the floor.
  public static let mapped = [ProtocolVersion(0, 3, 0), ProtocolVersion(0, 4, 0), ProtocolVersion(0, 5, 0)]
}

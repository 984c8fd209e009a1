/// A protocol version `MAJOR.MINOR.PATCH`, ordered numerically (`0.10.0` > `0.9.0`).
public struct ProtocolVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The three components.
  public var major: Int, minor: Int, patch: Int

  /// Parses `MAJOR.MINOR.PATCH`; `nil` for anything else.
  public init?(_ text: String) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let a = Int(parts[0]), let b = Int(parts[1]), let c = Int(parts[2])
    else { return nil }
    (major, minor, patch) = (a, b, c)
  }

  /// Parses a version a peer announced the way the real backend does: a semver pre-release or build
  /// suffix (from the first `-` or `+`) is dropped, so `0.5.0-beta.1` is `0.5.0`; `nil` when what is
  /// left is not `MAJOR.MINOR.PATCH`.
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

  /// The version of today's real system (0.2.0), and of every peer that announces none to a server
  /// whose floor is 0.2.0.
  public static let legacy = ProtocolVersion("0.2.0")!
}

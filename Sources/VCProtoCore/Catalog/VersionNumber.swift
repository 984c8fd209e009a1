import VCProtoJSON

/// A version number `MAJOR.MINOR.PATCH` as a peer announces it, ordered numerically (`0.10.0` >
/// `0.9.0`): what negotiation parses and compares, including versions vcproto does not know (a newer
/// peer's `0.6.0`). Internal; the version type is ``ProtocolVersion``.
package struct VersionNumber: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The three components.
  package var major: Int, minor: Int, patch: Int

  /// Parses `MAJOR.MINOR.PATCH` (three ASCII decimal integers, each within `Int`); `nil` for anything
  /// else. One pass over the UTF-8 bytes that stops at the first one that cannot belong to a version,
  /// with no allocation: a peer's string may be megabytes of dots.
  package init?(_ text: String) {
    var parts = (0, 0, 0)
    var index = 0
    var digits = 0
    for c in text.utf8 {
      if c == UInt8(ascii: ".") {
        guard digits > 0, index < 2 else { return nil }
        index += 1
        digits = 0
        continue
      }
      guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
      let value = index == 0 ? parts.0 : index == 1 ? parts.1 : parts.2
      let (times10, o1) = value.multipliedReportingOverflow(by: 10)
      let (next, o2) = times10.addingReportingOverflow(Int(c - UInt8(ascii: "0")))
      guard !o1, !o2 else { return nil }
      if index == 0 { parts.0 = next } else if index == 1 { parts.1 = next } else { parts.2 = next }
      digits += 1
    }
    guard index == 2, digits > 0 else { return nil }
    (major, minor, patch) = parts
  }

  /// Creates a version from its components.
  package init(_ major: Int, _ minor: Int, _ patch: Int) {
    (self.major, self.minor, self.patch) = (major, minor, patch)
  }

  /// Parses a version a peer announced the way the real backend does: everything from the first `-`
  /// or `+` is dropped, so `0.5.0-rc1` is `0.5.0`; `nil` ("unparseable") when what is left is not
  /// exactly three integers separated by dots (`0.4`, `abc`, `""`).
  package init?(announced text: String) {
    let core = text.prefix { $0 != "-" && $0 != "+" }
    self.init(String(core))
  }

  /// Numeric order.
  package static func < (l: VersionNumber, r: VersionNumber) -> Bool {
    (l.major, l.minor, l.patch) < (r.major, r.minor, r.patch)
  }

  /// `MAJOR.MINOR.PATCH`.
  package var description: String { "\(major).\(minor).\(patch)" }

  /// 0.2.0: the seed-era real system, and what a 0.2.0 server gives every client.
  package static let legacy = VersionNumber(0, 2, 0)

  /// 0.4.0: the oldest version the real backend accepts when its floor is 0.4.0 or 0.5.0 (the
  /// `required` of its refusal, whatever the floor).
  package static let oldestAccepted = VersionNumber(0, 4, 0)

  /// The triples the real backend maps to a channel version (0.3.0, 0.4.0, 0.5.0); any other
  /// triple it meets after capping at the ceiling (e.g. `0.4.1`) gives the floor.
  package static let mapped = [VersionNumber(0, 3, 0), VersionNumber(0, 4, 0), VersionNumber(0, 5, 0)]
}

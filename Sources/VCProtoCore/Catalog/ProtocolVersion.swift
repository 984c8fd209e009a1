import VCProtoJSON

/// A protocol version vcproto models: the one version type of the public API (decoder and validation
/// options, engine configuration and events, negotiation, the CLI's `--protocol`), and the one place
/// the version strings are spelled.
///
/// A version a peer announces that vcproto does not know (e.g. a newer `0.6.0`) is not a
/// `ProtocolVersion`: negotiation parses and orders such text internally and always settles on one of
/// these cases.
///
/// The real voice-code system went through 0.2.0 (the seed), 0.3.0 (two days in April 2026), 0.4.0 (the
/// server's floor today: what a client that announces nothing gets) and 0.5.0 (the ceiling today:
/// negotiated by iOS). STANDARDS.md has the history of each transition.
public enum ProtocolVersion: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
  /// The seed protocol (raw Claude records, `last_message_id` cursor).
  case v0_2_0 = "0.2.0"
  /// Canonical history messages, providers, the supervisor and canvas types; no `set_directory`.
  case v0_3_0 = "0.3.0"
  /// The `seq` cursor, `connected` with the negotiated version, machine-readable error codes.
  case v0_4_0 = "0.4.0"
  /// The offset cursor with file signatures.
  case v0_5_0 = "0.5.0"

  /// The oldest version vcproto knows.
  public static let oldest = ProtocolVersion.v0_2_0
  /// The newest version vcproto knows.
  public static let newest = ProtocolVersion.v0_5_0
  /// The real server's default floor: what a client gets that announces no (or an unparseable) version.
  public static let serverFloor = ProtocolVersion.v0_4_0

  /// The version string, e.g. `0.4.0`.
  public var description: String { rawValue }

  /// Orders versions oldest first.
  public static func < (a: ProtocolVersion, b: ProtocolVersion) -> Bool { a.ordinal < b.ordinal }

  /// The position in ``allCases`` (a switch: hot paths ask for it on every frame, and `allCases` is an
  /// array built on each access).
  package var ordinal: Int {
    switch self {
    case .v0_2_0: return 0
    case .v0_3_0: return 1
    case .v0_4_0: return 2
    case .v0_5_0: return 3
    }
  }

  /// Every version string, oldest first.
  public static let allStrings: [String] = allCases.map(\.rawValue)
}

extension ProtocolVersion {
  /// The version as a number, for ordering against a version a peer announced.
  package var number: VersionNumber {
    switch self {
    case .v0_2_0: return VersionNumber(0, 2, 0)
    case .v0_3_0: return VersionNumber(0, 3, 0)
    case .v0_4_0: return VersionNumber(0, 4, 0)
    case .v0_5_0: return VersionNumber(0, 5, 0)
    }
  }

  /// The known version with exactly this number; `nil` for one vcproto does not know (`0.4.1`, `0.6.0`).
  package init?(_ number: VersionNumber) {
    guard let known = Self.allCases.first(where: { $0.number == number }) else { return nil }
    self = known
  }
}

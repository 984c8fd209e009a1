import VCProtoJSON

/// The protocol versions a message, member or value belongs to.
///
/// A declaration that did not change between versions carries the versions it exists in; a change is a
/// second declaration with the versions after the change (``ProtocolDeclaration``).
public struct VersionSet: Sendable, Hashable, CustomStringConvertible {
  private var bits: UInt8

  private init(bits: UInt8) {
    self.bits = bits
  }

  /// The given versions.
  public init(_ versions: [ProtocolVersion]) {
    bits = versions.reduce(0) { $0 | (1 << UInt8($1.ordinal)) }
  }

  /// Every known version.
  public static let all = VersionSet(ProtocolVersion.allCases)

  /// No version.
  public static let none = VersionSet(bits: 0)

  /// From `version` on (`since`), up to but excluding `removedIn` when given.
  public static func since(_ version: ProtocolVersion, removedIn: ProtocolVersion? = nil) -> VersionSet {
    VersionSet(
      ProtocolVersion.allCases.filter { candidate in
        candidate >= version && (removedIn.map { candidate < $0 } ?? true)
      })
  }

  /// Every version before `version` (removed in `version`).
  public static func removedIn(_ version: ProtocolVersion) -> VersionSet {
    VersionSet(ProtocolVersion.allCases.filter { $0 < version })
  }

  /// Exactly these versions.
  public static func only(_ versions: ProtocolVersion...) -> VersionSet { VersionSet(versions) }

  /// Whether `version` is in the set.
  public func contains(_ version: ProtocolVersion) -> Bool { bits & (1 << UInt8(version.ordinal)) != 0 }

  /// The versions, oldest first.
  public var versions: [ProtocolVersion] { ProtocolVersion.allCases.filter(contains) }

  /// `true` when no version is in the set.
  public var isEmpty: Bool { bits == 0 }

  /// `true` when the set holds every known version.
  public var isAll: Bool { self == .all }

  /// The versions in both sets.
  public func intersection(_ other: VersionSet) -> VersionSet { VersionSet(bits: bits & other.bits) }

  /// The versions in either set.
  public func union(_ other: VersionSet) -> VersionSet { VersionSet(bits: bits | other.bits) }

  /// The versions in this set and not in `other`.
  public func subtracting(_ other: VersionSet) -> VersionSet { VersionSet(bits: bits & ~other.bits) }

  /// `0.2.0-0.3.0`, `0.4.0`, `0.2.0, 0.4.0`, `all versions` or `no version`.
  public var description: String {
    let list = versions
    guard let first = list.first, let last = list.last else { return "no version" }
    if isAll { return "all versions" }
    if list.count == 1 { return first.rawValue }
    if last.ordinal - first.ordinal + 1 == list.count { return "\(first.rawValue)-\(last.rawValue)" }
    return list.map(\.rawValue).joined(separator: ", ")
  }
}

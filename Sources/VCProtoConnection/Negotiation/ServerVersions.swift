import VCProtoCore
import VCProtoJSON

/// Which protocol versions a server gives its clients: a 0.2.0 server, which negotiates nothing, or
/// the real backend's floor and ceiling (STANDARDS.md#negotiation).
public enum ServerVersions: Sendable, Hashable {
  /// A 0.2.0 server: `hello.version` is `"0.2.0"` and every client gets 0.2.0, whatever it announces.
  case legacy
  /// The real backend since 0.4.0: clients that announce no usable version get `floor`, the others
  /// at most `ceiling`, and a client below 0.4.0 is refused when the floor is 0.4.0 or 0.5.0.
  case negotiating(floor: Floor, ceiling: Ceiling)

  /// The version a client gets when it announces none (the real backend's `:message-stream-version`).
  public enum Floor: String, Sendable, Hashable, CaseIterable {
    /// The rollback floor: the too-old guard is off and silent clients get 0.3.0.
    case v0_3_0 = "0.3.0"
    /// The default.
    case v0_4_0 = "0.4.0"
    /// Silent clients get 0.5.0.
    case v0_5_0 = "0.5.0"

    /// The floor as a protocol version.
    public var version: ProtocolVersion { ProtocolVersion(rawValue: rawValue)! }
  }

  /// The highest version the server gives, and the one its `hello.version` advertises.
  public enum Ceiling: String, Sendable, Hashable, CaseIterable {
    /// The real backend started with `VC_OFFSET_PROTOCOL=0`.
    case v0_4_0 = "0.4.0"
    /// The default.
    case v0_5_0 = "0.5.0"

    /// The ceiling as a protocol version.
    public var version: ProtocolVersion { ProtocolVersion(rawValue: rawValue)! }
  }

  /// The real backend at its newest commit with its default configuration: floor 0.4.0, ceiling 0.5.0.
  public static let realHead = ServerVersions.negotiating(floor: .v0_4_0, ceiling: .v0_5_0)

  /// The versions read from the real backend's two settings, as it reads them once at startup: the
  /// floor setting (`0.3.0`, `0.4.0` or `0.5.0`, also written `v0.4.0` or `:v0.4.0`; anything else,
  /// or none, is the default 0.4.0) and the `VC_OFFSET_PROTOCOL` environment variable (exactly `"0"`
  /// lowers the ceiling to 0.4.0; anything else, or unset, keeps 0.5.0).
  public init(floorSetting: String?, offsetProtocolSetting: String?) {
    var name = Substring(floorSetting ?? "")
    if name.hasPrefix(":") { name = name.dropFirst() }
    if name.hasPrefix("v") { name = name.dropFirst() }
    self = .negotiating(
      floor: Floor(rawValue: String(name)) ?? .v0_4_0, ceiling: offsetProtocolSetting == "0" ? .v0_4_0 : .v0_5_0)
  }

  /// The version `hello.version` advertises: the ceiling (`"0.2.0"` for a 0.2.0 server).
  public var advertised: ProtocolVersion {
    switch self {
    case .legacy: return .v0_2_0
    case .negotiating(_, let ceiling): return ceiling.version
    }
  }

  /// Every version a client can end up with, ascending.
  public var reachable: [ProtocolVersion] {
    switch self {
    case .legacy: return [.v0_2_0]
    case .negotiating(let floor, let ceiling):
      let mapped = VersionNumber.mapped.compactMap(ProtocolVersion.init)
      var versions = Set(mapped.filter { $0 <= ceiling.version && (!guardsAgainstOldClients || $0 >= .v0_4_0) })
      versions.insert(floor.version)
      return versions.sorted()
    }
  }

  /// Whether a client that announces a version below 0.4.0 is refused (floor 0.4.0 or 0.5.0).
  public var guardsAgainstOldClients: Bool {
    if case .negotiating(let floor, _) = self { return floor != .v0_3_0 }
    return false
  }
}

import VCProtoCore
import VCProtoJSON

/// What a server offers: the versions it gives (``ServerVersions``) and vcproto's extensions, which
/// are negotiable on every version.
public struct ServerOffer: Sendable, Hashable {
  /// The versions it gives clients.
  public var versions: ServerVersions
  /// Auth versions accepted.
  public var authVersions: [Int]
  /// Capabilities offered.
  public var capabilities: [String]

  /// Creates an offer.
  public init(versions: ServerVersions, authVersions: [Int] = [1], capabilities: [String] = []) {
    self.versions = versions
    self.authVersions = authVersions
    self.capabilities = capabilities
  }

  /// An offer described by a list of versions and an optional floor, the `server` object of
  /// `Vectors/auth/`: a list with no parseable version above 0.2.0 is a 0.2.0 server; otherwise the
  /// ceiling is 0.5.0 when the list reaches it (else 0.4.0), and the floor is `floor` when it is
  /// 0.3.0, 0.4.0 or 0.5.0 (else the lowest of those listed, else 0.4.0).
  package init(protocolVersions: [String], authVersions: [Int] = [1], capabilities: [String] = [], floor: String? = nil)
  {
    let listed = protocolVersions.compactMap { VersionNumber($0) }.filter { $0 > .legacy }
    let versions: ServerVersions
    if let top = listed.max() {
      let lowest = listed.min().flatMap { ServerVersions.Floor(rawValue: $0.description) }
      versions = .negotiating(
        floor: floor.flatMap(ServerVersions.Floor.init(rawValue:)) ?? lowest ?? .v0_4_0,
        ceiling: top >= VersionNumber(0, 5, 0) ? .v0_5_0 : .v0_4_0)
    } else {
      versions = .legacy
    }
    self.init(versions: versions, authVersions: authVersions, capabilities: capabilities)
  }

  /// A 0.2.0 server: auth v1, no extensions.
  public static let legacy = ServerOffer(versions: .legacy)

  /// The real backend at its newest commit (1e7bcc30): floor 0.4.0, ceiling 0.5.0, auth v1, no extensions.
  public static let realHead = ServerOffer(versions: .realHead)

  /// Whether the offer has anything beyond the real backend's handshake (a capability, or an auth
  /// version other than v1 alone): only then does its `hello` carry vcproto's negotiation members.
  var offersExtensions: Bool { !capabilities.isEmpty || authVersions != [1] }

  /// The `hello` advertising this offer; `challenge` for auth v2. `version` is the ceiling, as the real
  /// backend advertises it. vcproto's members (`protocol_versions`: every version a client can get;
  /// `auth_versions`, `capabilities`, `challenge`) are added only when the offer has an extension or
  /// auth v2, so a plain offer's hello is exactly the real backend's.
  public func hello(challenge: String?) -> HelloMessage {
    var hello = HelloMessage(
      message: "Welcome to voice-code backend", version: versions.advertised.rawValue,
      authVersion: authVersions.contains(1) ? 1 : (authVersions.max() ?? 1),
      instructions: "Send connect message with api_key")
    if offersExtensions || challenge != nil {
      hello.protocolVersions = versions.reachable.map(\.rawValue)
      hello.authVersions = authVersions
      hello.capabilities = capabilities
      hello.challenge = challenge
    }
    return hello
  }
}

/// What a server supports.
public struct ServerOffer: Sendable, Hashable {
  /// Protocol versions, any order.
  public var protocolVersions: [String]
  /// Auth versions accepted.
  public var authVersions: [Int]
  /// Capabilities offered.
  public var capabilities: [String]

  /// Creates an offer.
  public init(protocolVersions: [String], authVersions: [Int] = [1], capabilities: [String] = []) {
    self.protocolVersions = protocolVersions
    self.authVersions = authVersions
    self.capabilities = capabilities
  }

  /// Today's real 0.2.0 server: one version, auth v1, no extensions.
  public static let legacy = ServerOffer(protocolVersions: ["0.2.0"])

  /// The offer read from a `hello` (a hello without the negotiation members is a legacy server).
  public init(hello: HelloMessage) {
    protocolVersions = hello.protocolVersions ?? [hello.version]
    authVersions = hello.authVersions ?? [hello.authVersion]
    capabilities = hello.capabilities ?? []
  }

  /// The `hello` advertising this offer; `challenge` for auth v2.
  public func hello(challenge: String?) -> HelloMessage {
    let versions = protocolVersions.compactMap(ProtocolVersion.init).sorted()
    return HelloMessage(
      message: "Welcome to voice-code backend", version: versions.last?.description ?? "0.2.0",
      authVersion: authVersions.contains(1) ? 1 : (authVersions.max() ?? 1),
      instructions: "Send connect message with api_key", protocolVersions: protocolVersions,
      authVersions: authVersions, capabilities: capabilities, challenge: challenge)
  }
}

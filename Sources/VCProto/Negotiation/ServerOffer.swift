/// What a server supports.
public struct ServerOffer: Sendable, Hashable {
  /// Protocol versions, any order. Entries that are not `MAJOR.MINOR.PATCH` are ignored.
  public var protocolVersions: [String]
  /// Auth versions accepted.
  public var authVersions: [Int]
  /// Capabilities offered.
  public var capabilities: [String]
  /// The version a client gets when it announces no parseable version (the real backend's
  /// `:message-stream-version`, 0.4.0 at HEAD). `nil` means the lowest supported version, so a
  /// server that supports 0.2.0 gives silent clients exactly today's 0.2.0 behaviour.
  public var floor: String?

  /// Creates an offer. Versions that are not `MAJOR.MINOR.PATCH` are ignored; an offer left with
  /// none counts as a 0.2.0 server, and a `floor` that is not one of the supported versions is
  /// ignored (see ``supportedVersions`` and ``floorVersion``). Nothing here traps, so an offer may be
  /// built from configuration or test data as it comes.
  public init(protocolVersions: [String], authVersions: [Int] = [1], capabilities: [String] = [], floor: String? = nil)
  {
    self.protocolVersions = protocolVersions
    self.authVersions = authVersions
    self.capabilities = capabilities
    self.floor = floor
  }

  /// Today's real 0.2.0 server: one version, auth v1, no extensions.
  public static let legacy = ServerOffer(protocolVersions: ["0.2.0"])

  /// The real backend at HEAD (1e7bcc30): 0.4.0 and 0.5.0, floor 0.4.0, auth v1, no extensions.
  public static let realHead = ServerOffer(protocolVersions: ["0.4.0", "0.5.0"], floor: "0.4.0")

  /// The offer read from a `hello` (a hello without the negotiation members is a legacy server; one
  /// that names no parseable version counts as a 0.2.0 server).
  public init(hello: HelloMessage) {
    protocolVersions = hello.protocolVersions ?? [hello.version]
    authVersions = hello.authVersions ?? [hello.authVersion]
    capabilities = hello.capabilities ?? []
    floor = nil
  }

  /// The supported versions, ascending and never empty: the parseable entries of
  /// ``protocolVersions``, or 0.2.0 when none parses. Never empty, so an
  /// `unsupported_protocol_version` error always names a real `required` version.
  public var supportedVersions: [ProtocolVersion] {
    let parsed = Set(protocolVersions.compactMap { ProtocolVersion($0) }).sorted()
    return parsed.isEmpty ? [.legacy] : parsed
  }

  /// The version for silent clients: ``floor`` when it is supported, else the lowest supported version.
  public var floorVersion: ProtocolVersion {
    let supported = supportedVersions
    if let floor, let version = ProtocolVersion(floor), supported.contains(version) { return version }
    return supported[0]
  }

  /// The `hello` advertising this offer; `challenge` for auth v2. `version` is the highest supported
  /// version, as the real backend advertises its ceiling.
  public func hello(challenge: String?) -> HelloMessage {
    HelloMessage(
      message: "Welcome to voice-code backend", version: supportedVersions.last!.description,
      authVersion: authVersions.contains(1) ? 1 : (authVersions.max() ?? 1),
      instructions: "Send connect message with api_key", protocolVersions: protocolVersions,
      authVersions: authVersions, capabilities: capabilities, challenge: challenge)
  }
}

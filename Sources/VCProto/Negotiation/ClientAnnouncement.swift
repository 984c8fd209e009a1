/// What a client announces in `connect`. All optional: a client that announces nothing is a 0.2.0
/// client asking for nothing.
public struct ClientAnnouncement: Sendable, Hashable {
  /// Its preferred (highest) version.
  public var protocolVersion: String?
  /// Every version it supports.
  public var protocolVersions: [String]?
  /// The capabilities it asks for.
  public var capabilities: [String]?

  /// Creates an announcement.
  public init(protocolVersion: String? = nil, protocolVersions: [String]? = nil, capabilities: [String]? = nil) {
    self.protocolVersion = protocolVersion
    self.protocolVersions = protocolVersions
    self.capabilities = capabilities
  }

  /// The announcement in a `connect`.
  public init(connect: ConnectMessage) {
    self.init(
      protocolVersion: connect.protocolVersion, protocolVersions: connect.protocolVersions,
      capabilities: connect.capabilities)
  }
}

/// What a client announces in `connect`. All optional: a client that announces nothing is a legacy
/// client asking for nothing, and gets the server's floor version.
public struct ClientAnnouncement: Sendable, Hashable {
  /// Its preferred (highest) version: the ceiling when no ``protocolVersions`` are given.
  public var protocolVersion: String?
  /// Every version it supports.
  public var protocolVersions: [String]?
  /// The capabilities it asks for.
  public var capabilities: [String]?
  /// The auth version its `connect` uses (`nil` counts as 1).
  public var authVersion: Int?

  /// Creates an announcement.
  public init(
    protocolVersion: String? = nil, protocolVersions: [String]? = nil, capabilities: [String]? = nil,
    authVersion: Int? = nil
  ) {
    self.protocolVersion = protocolVersion
    self.protocolVersions = protocolVersions
    self.capabilities = capabilities
    self.authVersion = authVersion
  }

  /// The announcement in a `connect`. The auth version is its `auth_version` member, else 2 when it
  /// carries `auth_response`, else 1.
  public init(connect: ConnectMessage) {
    self.init(
      protocolVersion: connect.protocolVersion, protocolVersions: connect.protocolVersions,
      capabilities: connect.capabilities, authVersion: connect.authVersion ?? (connect.authResponse != nil ? 2 : 1))
  }
}

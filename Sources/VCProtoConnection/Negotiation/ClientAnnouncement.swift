import VCProtoCore
import VCProtoJSON

/// What a client announces in `connect`. All optional: a client that announces nothing gets the
/// server's floor version and no extension.
public struct ClientAnnouncement: Sendable, Hashable {
  /// `connect.protocol_version` as sent, the only member the version decision reads (`nil`: absent or
  /// JSON null, which the real backend treats alike).
  public var protocolVersion: String?
  /// `connect.protocol_versions` (vcproto): every version the client supports. Carried into the
  /// `connect` (and auth v2's MAC) as sent; the version decision does not read it, because the real
  /// backend does not.
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

  /// The announcement in a `connect`. The auth version is the auth the `connect` performs: 2 when it
  /// carries `auth_response` (an answer to the challenge), else 1 (the key itself), whatever its
  /// `auth_version` member claims, so a v1 `connect` that says `auth_version: 2` is never granted
  /// `authenticated_frames` (STANDARDS.md#authenticated-frames).
  public init(connect: ConnectMessage) {
    self.init(
      protocolVersion: connect.protocolVersion, protocolVersions: connect.protocolVersions,
      capabilities: connect.capabilities, authVersion: connect.authResponse != nil ? 2 : 1)
  }
}

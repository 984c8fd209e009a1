import VCProtoCore
import VCProtoJSON

/// An authenticated connection, client side: what ``ClientHandshake/complete(with:)`` returns.
public struct ClientSession: Sendable {
  /// 2 (HMAC answer, server verified) or 1 (the key itself, nothing verified).
  public let authVersion: Int
  /// `true` exactly when the server proved it knows the key (auth v2 `server_proof`).
  public let isServerVerified: Bool
  /// The server's `connected` (always with auth v2; with auth v1 only when the server sent one).
  public let connected: ConnectedMessage?
  /// Auth v1 only: the first frame after `connect`, which showed success and still has to be handled.
  public let pendingMessage: ServerMessage?
  /// The authenticated frames of this connection, when `authenticated_frames` was negotiated: every
  /// later frame goes out through ``AuthenticatedChannel/seal(_:)`` and comes in through
  /// ``AuthenticatedChannel/open(_:)``. Take it out and keep it with the connection.
  public var channel: AuthenticatedChannel?

  init(
    authVersion: Int, isServerVerified: Bool, connected: ConnectedMessage?, pendingMessage: ServerMessage? = nil,
    channel: AuthenticatedChannel? = nil
  ) {
    self.authVersion = authVersion
    self.isServerVerified = isServerVerified
    self.connected = connected
    self.pendingMessage = pendingMessage
    self.channel = channel
  }

  /// The negotiated protocol version as `connected` confirmed it (`nil` without one: the server's
  /// floor, a real 0.2.0 backend).
  public var negotiatedProtocolVersion: String? { connected?.negotiatedProtocolVersion }
  /// The accepted capabilities as `connected` confirmed them (empty without one).
  public var capabilities: [String] { connected?.capabilities ?? [] }
}

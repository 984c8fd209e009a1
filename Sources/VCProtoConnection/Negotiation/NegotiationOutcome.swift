import VCProtoCore
import VCProtoJSON

/// What two peers agreed on.
public struct NegotiationOutcome: Sendable, Hashable {
  /// The protocol version both speak from now on.
  public var version: ProtocolVersion
  /// The accepted capabilities (vcproto's extensions), sorted.
  public var capabilities: [String]
  /// The auth version the client's `connect` uses (1: the API key; 2: the HMAC answer).
  public var authVersion: Int

  /// Creates an outcome.
  public init(version: ProtocolVersion, capabilities: [String], authVersion: Int = 1) {
    self.version = version
    self.capabilities = capabilities.sorted()
    self.authVersion = authVersion
  }

  /// Whether an extension may be used on this connection.
  public func allows(_ capability: String) -> Bool { capabilities.contains(capability) }

  /// The capabilities as a set, for ``ValidationOptions/negotiatedCapabilities`` and the encoder.
  public var capabilitySet: Set<String> { Set(capabilities) }

  /// Whether the confirmation carries vcproto's members: only when an extension was accepted or auth
  /// v2 was used, so a client that asked for neither (every real client) gets exactly the real
  /// backend's `connected`.
  public var confirmsExtensions: Bool { authVersion != 1 || !capabilities.isEmpty }

  /// The `connected` frame confirming the outcome: `message`, `session_id`,
  /// `negotiated_protocol_version` and, when ``confirmsExtensions``, `capabilities`, `auth_version`
  /// and, for auth v2, the server's proof.
  public func connected(sessionId: String, serverProof: String?) -> ConnectedMessage {
    guard confirmsExtensions else {
      return ConnectedMessage(
        message: "Session registered", sessionId: sessionId, negotiatedProtocolVersion: version.rawValue)
    }
    return ConnectedMessage(
      message: "Session registered", sessionId: sessionId, negotiatedProtocolVersion: version.rawValue,
      capabilities: capabilities, authVersion: authVersion, serverProof: serverProof)
  }
}

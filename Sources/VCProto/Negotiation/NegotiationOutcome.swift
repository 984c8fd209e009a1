/// What two peers agreed on.
public struct NegotiationOutcome: Sendable, Hashable {
  /// The protocol version both speak.
  public var version: String
  /// The accepted capabilities, sorted.
  public var capabilities: [String]
  /// The auth version the client's `connect` uses (1: the API key; 2: the HMAC answer).
  public var authVersion: Int

  /// Creates an outcome.
  public init(version: String, capabilities: [String], authVersion: Int = 1) {
    self.version = version
    self.capabilities = capabilities.sorted()
    self.authVersion = authVersion
  }

  /// Whether an extension may be used on this connection.
  public func allows(_ capability: String) -> Bool { capabilities.contains(capability) }

  /// The capabilities as a set, for ``ValidationOptions/negotiatedCapabilities`` and the encoder.
  public var capabilitySet: Set<String> { Set(capabilities) }

  /// The `connected` frame confirming the outcome: `negotiated_protocol_version`, `capabilities`,
  /// `auth_version` and, for auth v2, the server's proof.
  public func connected(sessionId: String, serverProof: String?) -> ConnectedMessage {
    ConnectedMessage(
      message: "Session registered", sessionId: sessionId, negotiatedProtocolVersion: version,
      capabilities: capabilities, authVersion: authVersion, serverProof: serverProof)
  }
}

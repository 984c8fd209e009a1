/// What two peers agreed on.
public struct NegotiationOutcome: Sendable, Hashable {
  /// The protocol version both speak.
  public var version: String
  /// The accepted capabilities, sorted.
  public var capabilities: [String]

  /// Creates an outcome.
  public init(version: String, capabilities: [String]) {
    self.version = version
    self.capabilities = capabilities.sorted()
  }

  /// Whether an extension may be used on this connection.
  public func allows(_ capability: String) -> Bool { capabilities.contains(capability) }

  /// The capabilities as a set, for ``ValidationOptions/negotiatedCapabilities`` and the encoder.
  public var capabilitySet: Set<String> { Set(capabilities) }

  /// The `connected` frame confirming the outcome.
  public func connected(sessionId: String, authVersion: Int, serverProof: String?) -> ConnectedMessage {
    ConnectedMessage(
      message: "Session registered", sessionId: sessionId, negotiatedProtocolVersion: version,
      capabilities: capabilities, authVersion: authVersion, serverProof: serverProof)
  }
}

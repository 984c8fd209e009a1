/// The client side of authentication, pure: it builds `connect` for a `hello` and checks the server's
/// proof in `connected`.
public struct AuthClient: Sendable {
  /// The pre-shared API key.
  public var apiKey: String
  /// Whether the client may fall back to sending the key itself (auth v1). `false` is downgrade
  /// protection: the key is never sent to a server that offers no v2 challenge.
  public var allowAuthV1: Bool

  /// Creates the client side.
  public init(apiKey: String, allowAuthV1: Bool = true) {
    self.apiKey = apiKey
    self.allowAuthV1 = allowAuthV1
  }

  /// Why the client refuses to go on.
  public enum Refusal: Error, Sendable, Hashable {
    /// The server offers no auth v2 and the client does not allow v1.
    case downgradeRefused
    /// The server's `connected` lacks the proof although v2 was used.
    case serverProofMissing
    /// The server's proof is wrong: it does not know the key (or the handshake was tampered with).
    case serverProofMismatch
  }

  /// `connect` for `hello`: auth v2 when the server offers it (auth version 2 and a challenge),
  /// else auth v1 when allowed. `nonce` must be at least 128 fresh random bits (see ``freshNonce()``).
  public func connect(
    for hello: HelloMessage, sessionId: String?, announcement: ClientAnnouncement, nonce: String
  ) throws(Refusal) -> ConnectMessage {
    var connect = ConnectMessage(
      sessionId: sessionId, protocolVersion: announcement.protocolVersion,
      protocolVersions: announcement.protocolVersions, capabilities: announcement.capabilities)
    if let challenge = hello.challenge, (hello.authVersions ?? [hello.authVersion]).contains(2) {
      connect.authVersion = 2
      connect.clientNonce = nonce
      connect.authResponse = AuthMAC.mac(
        apiKey: apiKey, input: AuthMAC.clientInput(challenge: challenge, clientNonce: nonce, connect: connect))
      return connect
    }
    guard allowAuthV1 else { throw .downgradeRefused }
    connect.apiKey = apiKey
    return connect
  }

  /// Checks `connected` after a v2 `connect`: the proof must match, compared in constant time. The
  /// proof covers `negotiated_protocol_version` and `capabilities` exactly as `connected` carries them,
  /// so a stripped or altered outcome is refused too.
  public func verify(
    _ connected: ConnectedMessage, sent connect: ConnectMessage, challenge: String
  ) throws(Refusal) {
    guard let response = connect.authResponse, let nonce = connect.clientNonce else { return }  // v1: nothing to check
    guard let proof = connected.serverProof else { throw .serverProofMissing }
    let expected = AuthMAC.mac(
      apiKey: apiKey,
      input: AuthMAC.serverInput(
        challenge: challenge, clientNonce: nonce, sessionId: connect.sessionId,
        negotiatedVersion: connected.negotiatedProtocolVersion,
        acceptedCapabilities: connected.capabilities, authResponse: response))
    guard constantTimeEquals(Array(expected.utf8), Array(proof.utf8)) else { throw .serverProofMismatch }
  }

  /// 128 fresh bits from the system's secure random source, lowercase hex.
  public static func freshNonce() -> String {
    var rng = SystemRandomNumberGenerator()
    return Hex.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) })
  }
}

import VCProtoCore
import VCProtoJSON

/// The server side of authentication, pure: it checks a `connect` against the key, the hello it sent
/// and the challenge store, and gives the `connected` to answer with.
public struct AuthServer: Sendable {
  /// The pre-shared API key.
  public var apiKey: String
  /// Auth versions the server accepts. Default `[1, 2]`; `[2]` refuses the plaintext key.
  public var acceptedAuthVersions: Set<Int>

  /// Creates the server side.
  public init(apiKey: String, acceptedAuthVersions: Set<Int> = [1, 2]) {
    self.apiKey = apiKey
    self.acceptedAuthVersions = acceptedAuthVersions
  }

  /// A successful check.
  public struct Success: Sendable {
    /// 1 or 2.
    public var authVersion: Int
    /// The frame to send: the outcome, the session id and, for auth v2, `server_proof` over all of it.
    public var connected: ConnectedMessage
    /// With auth v2 and `authenticated_frames` in the outcome: this connection's channel. Every frame
    /// after `connected` goes out through ``AuthenticatedChannel/seal(_:)`` and comes in through
    /// ``AuthenticatedChannel/open(_:)``.
    public var channel: AuthenticatedChannel?
    /// The server's proof (auth v2 only), as in ``connected``.
    public var serverProof: String? { connected.serverProof }
  }

  /// Verifies `connect` answering `hello` (the hello this connection sent, with its challenge).
  ///
  /// The challenge is consumed on the first attempt, successful or not, so a replayed answer always
  /// fails. The client's MAC is recomputed over the `connect` as received and the `hello` as sent, so
  /// a man in the middle who changed either is refused. Keys and MACs are compared in constant time.
  ///
  /// - Parameters:
  ///   - connect: the `connect` as received.
  ///   - hello: the `hello` this connection sent (its challenge and offer are bound into the MAC).
  ///   - store: the challenge store that issued the hello's challenge.
  ///   - outcome: the negotiation outcome for this `connect`; `connected` confirms it.
  ///   - sessionId: the `connected.session_id` the server will send (bound into `server_proof`).
  ///   - now: the time the `connect` arrived.
  public func verify(
    _ connect: ConnectMessage, hello: HelloMessage, store: ChallengeStore, outcome: NegotiationOutcome,
    sessionId: String, now: ContinuousClock.Instant
  ) -> Result<Success, AuthFailure> {
    if let response = connect.authResponse {
      guard acceptedAuthVersions.contains(2), let challenge = hello.challenge, store.consume(challenge, now: now) else {
        return .failure(.challengeNotValid)
      }
      guard let nonce = connect.clientNonce, EngineFacts.clientNonceLengths.contains(nonce.utf8.count),
        Hex.decode(nonce) != nil
      else {
        return .failure(.badNonce)
      }
      guard connect.authVersion == nil || connect.authVersion == 2 else { return .failure(.wrongResponse) }
      let input = AuthMAC.clientInput(challenge: challenge, clientNonce: nonce, connect: connect, hello: hello)
      let expected = AuthMAC.mac(apiKey: apiKey, input: input)
      guard constantTimeEquals(Array(expected.utf8), Array(response.utf8)) else { return .failure(.wrongResponse) }
      var connected = ConnectedMessage(
        message: "Session registered", sessionId: sessionId, negotiatedProtocolVersion: outcome.version.rawValue,
        capabilities: outcome.capabilities, authVersion: 2)
      connected.serverProof = AuthMAC.mac(
        apiKey: apiKey,
        input: AuthMAC.serverInput(
          challenge: challenge, clientNonce: nonce, authResponse: response, connected: connected))
      var channel: AuthenticatedChannel?
      if outcome.allows(Capability.authenticatedFrames) {
        let keys = FrameKeys.derive(
          apiKey: apiKey, challenge: challenge, clientNonce: nonce, authResponse: response, connected: connected)
        channel = AuthenticatedChannel(keys: keys, role: .server)
      }
      return .success(Success(authVersion: 2, connected: connected, channel: channel))
    }
    guard let key = connect.apiKey else { return .failure(.noCredentials) }
    guard acceptedAuthVersions.contains(1) else { return .failure(.authV1Refused) }
    guard constantTimeEquals(Array(key.utf8), Array(apiKey.utf8)) else { return .failure(.wrongKey) }
    // Auth v1 has no keys to derive: authenticated frames are never granted with it.
    var granted = outcome
    granted.capabilities.removeAll { $0 == Capability.authenticatedFrames }
    granted.authVersion = 1
    return .success(Success(authVersion: 1, connected: granted.connected(sessionId: sessionId, serverProof: nil)))
  }
}

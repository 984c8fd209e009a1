/// The server side of authentication, pure: it checks a `connect` against the key and the challenge
/// store and says what to answer.
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

  /// A successful check: the auth version used and, for v2, the server's proof for `connected`.
  public struct Success: Sendable, Hashable {
    /// 1 or 2.
    public var authVersion: Int
    /// Lowercase hex server proof (v2 only).
    public var serverProof: String?
  }

  /// Verifies `connect` answering `challenge` (the one this connection's hello carried). The challenge
  /// is consumed on the first attempt, successful or not, so a replayed answer always fails. Keys and
  /// MACs are compared in constant time.
  public func verify(
    _ connect: ConnectMessage, challenge: String?, store: ChallengeStore, outcome: NegotiationOutcome,
    now: ContinuousClock.Instant
  ) -> Result<Success, AuthFailure> {
    if let response = connect.authResponse {
      guard acceptedAuthVersions.contains(2), let challenge, store.consume(challenge, now: now) else {
        return .failure(.challengeNotValid)
      }
      guard let nonce = connect.clientNonce, (32...128).contains(nonce.utf8.count), Hex.decode(nonce) != nil else {
        return .failure(.badNonce)
      }
      let input = AuthMAC.clientInput(challenge: challenge, clientNonce: nonce, connect: connect)
      let expected = AuthMAC.mac(apiKey: apiKey, input: input)
      guard constantTimeEquals(Array(expected.utf8), Array(response.utf8)) else { return .failure(.wrongResponse) }
      let proof = AuthMAC.mac(
        apiKey: apiKey,
        input: AuthMAC.serverInput(
          challenge: challenge, clientNonce: nonce, sessionId: connect.sessionId,
          negotiatedVersion: outcome.version, acceptedCapabilities: outcome.capabilities, authResponse: response))
      return .success(Success(authVersion: 2, serverProof: proof))
    }
    guard let key = connect.apiKey else { return .failure(.noCredentials) }
    guard acceptedAuthVersions.contains(1) else { return .failure(.authV1Refused) }
    guard constantTimeEquals(Array(key.utf8), Array(apiKey.utf8)) else { return .failure(.wrongKey) }
    return .success(Success(authVersion: 1, serverProof: nil))
  }
}

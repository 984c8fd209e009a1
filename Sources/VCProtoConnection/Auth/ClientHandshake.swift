import VCProtoCore
import VCProtoJSON

/// One client authentication in progress: made by
/// ``AuthClient/begin(hello:sessionId:recentSessionsLimit:announcement:nonce:)``.
///
/// Send ``connect``, then pass the first frame the server sends after it to ``complete(with:)``. That
/// call is the only way to a ``ClientSession``:
///
/// - auth v2: only a `connected` whose `server_proof` verifies gives a session (verified, with an
///   ``AuthenticatedChannel`` when `authenticated_frames` was granted); `auth_error`, `error` and any
///   other frame are a ``AuthClient/Refusal``, so a fake server that skips the proof is never trusted.
/// - auth v1 (only when the caller allowed it): a real 0.2.0 server sends no `connected`, so the first
///   frame that is not `auth_error` (nor an `unsupported_protocol_version` error) means success, as
///   STANDARDS.md#connection-flow says; that frame comes back as ``ClientSession/pendingMessage`` for the
///   caller to handle. Such a session is not verified: the server proved nothing.
///
/// A value type with no state change: `complete(with:)` can be called again, e.g. by a test.
/// Descriptions never show the key.
public struct ClientHandshake: Sendable {
  /// The `connect` frame to send.
  public let connect: ConnectMessage
  let apiKey: String
  let v2: V2?
  let requireAuthenticatedFrames: Bool

  /// What auth v2 remembers between `connect` and `connected`.
  package struct V2: Sendable, Hashable {
    var challenge: String
    var nonce: String
    var response: String

    package init(challenge: String, nonce: String, response: String) {
      (self.challenge, self.nonce, self.response) = (challenge, nonce, response)
    }
  }

  /// A handshake for a `connect` built elsewhere (vectors replaying another implementation's frame).
  package init(connect: ConnectMessage, apiKey: String, v2: V2?, requireAuthenticatedFrames: Bool) {
    self.connect = connect
    self.apiKey = apiKey
    self.v2 = v2
    self.requireAuthenticatedFrames = requireAuthenticatedFrames
  }

  /// The auth version ``connect`` uses: 2 (HMAC answer) or 1 (the key itself).
  public var authVersion: Int { v2 == nil ? 1 : 2 }

  /// The outcome of the first frame the server sent after ``connect``.
  public func complete(with message: ServerMessage) throws(AuthClient.Refusal) -> ClientSession {
    switch message {
    case .authError: throw .authenticationFailed
    case .error(let error) where v2 != nil || error.code == NegotiationFailure.code:
      throw .serverError(code: error.code.map(Finding.shownType))
    case .connected(let connected):
      guard let v2 else { return ClientSession(authVersion: 1, isServerVerified: false, connected: connected) }
      guard let proof = connected.serverProof else { throw .serverProofMissing }
      let expected = AuthMAC.mac(
        apiKey: apiKey,
        input: AuthMAC.serverInput(
          challenge: v2.challenge, clientNonce: v2.nonce, authResponse: v2.response, connected: connected))
      guard constantTimeEquals(Array(expected.utf8), Array(proof.utf8)) else { throw .serverProofMismatch }
      var channel: AuthenticatedChannel?
      if connected.capabilities?.contains(Capability.authenticatedFrames) == true {
        let keys = FrameKeys.derive(
          apiKey: apiKey, challenge: v2.challenge, clientNonce: v2.nonce, authResponse: v2.response,
          connected: connected)
        channel = AuthenticatedChannel(keys: keys, role: .client)
      } else if requireAuthenticatedFrames {
        throw .authenticatedFramesUnavailable
      }
      return ClientSession(authVersion: 2, isServerVerified: true, connected: connected, channel: channel)
    default:
      guard v2 == nil else { throw .unexpectedFrame(type: Finding.shownType(message.type)) }
      return ClientSession(authVersion: 1, isServerVerified: false, connected: nil, pendingMessage: message)
    }
  }
}

extension ClientHandshake: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// The auth version only: never the key or the answer.
  public var description: String { "ClientHandshake(authVersion: \(authVersion), «redacted»)" }
  /// Same as ``description``.
  public var debugDescription: String { description }
  /// The auth version only, so `dump` shows no secret.
  public var customMirror: Mirror { Mirror(self, children: ["authVersion": authVersion], displayStyle: .struct) }
}

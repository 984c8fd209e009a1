import VCProtoCore
import VCProtoJSON

/// The client side of authentication, pure (no I/O): it answers a `hello` with a ``ClientHandshake``
/// (whose ``ClientHandshake/connect`` the caller sends), and the handshake turns the server's reply
/// into a ``ClientSession`` or a ``Refusal``.
///
/// ```swift
/// let client = AuthClient(apiKey: key)                        // auth v2 only: v1 is refused
/// let handshake = try client.begin(hello: hello, sessionId: id, announcement: announcement)
/// send(.connect(handshake.connect))
/// var session = try handshake.complete(with: firstFrameAfterConnect)  // throws unless verified
/// ```
///
/// With auth v2 nothing the server sends before a `connected` whose `server_proof` verifies is acted
/// on: ``ClientHandshake/complete(with:)`` turns any other frame into a ``Refusal``. Auth v1 (the key
/// itself on the wire, no server proof) happens only when the caller opts in with ``allowAuthV1``.
public struct AuthClient: Sendable {
  /// The pre-shared API key.
  public var apiKey: String
  /// Whether auth v1 is allowed when the application does not say: `false`, for ``AuthClient`` and
  /// ``ClientConfiguration`` alike (both defaults are this constant). A client that refuses v1 never
  /// sends its key to a hello without a v2 challenge, whether the server is old or a man in the
  /// middle stripped the challenge (STANDARDS.md#client-rules).
  public static let allowsAuthV1ByDefault = false

  /// Whether the client may fall back to sending the key itself (auth v1) to a server whose hello
  /// offers no v2 challenge. Default ``allowsAuthV1ByDefault`` (`false`, downgrade protection): a man
  /// in the middle who strips the challenge gets ``Refusal/downgradeRefused``, never the key. Set it
  /// only to talk to a backend that speaks only v1 (the real one, today), knowingly: the key then
  /// crosses the wire in clear and the server proves nothing.
  public var allowAuthV1: Bool
  /// Whether the client refuses a connection without authenticated frames (``Capability/authenticatedFrames``):
  /// it then asks for the capability and refuses a hello that does not offer it and a `connected`
  /// that does not grant it. Default `false`.
  public var requireAuthenticatedFrames: Bool

  /// Creates the client side; auth v1 is refused unless `allowAuthV1` is `true`.
  public init(
    apiKey: String, allowAuthV1: Bool = AuthClient.allowsAuthV1ByDefault, requireAuthenticatedFrames: Bool = false
  ) {
    self.apiKey = apiKey
    self.allowAuthV1 = allowAuthV1
    self.requireAuthenticatedFrames = requireAuthenticatedFrames
  }

  /// Why the client refuses to go on. The connection must be closed; nothing received is to be acted on.
  public enum Refusal: Error, Sendable, Hashable {
    /// The hello offers no auth v2 challenge and the client does not allow auth v1 (or requires
    /// authenticated frames, which need v2): the key is not sent.
    case downgradeRefused
    /// The client requires authenticated frames, and the hello does not offer them or the verified
    /// `connected` does not grant them.
    case authenticatedFramesUnavailable
    /// The server's `connected` lacks the proof although v2 was used.
    case serverProofMissing
    /// The server's proof is wrong: it does not know the key, or the handshake was tampered with.
    case serverProofMismatch
    /// The server answered `auth_error`.
    case authenticationFailed
    /// The server answered an `error` frame (its `code`, e.g. `unsupported_protocol_version`) before
    /// authentication completed. The code is cut like ``Finding/messageType`` (at most 64 Unicode
    /// scalars, a longer one marked with its length: `XXXX… (1000000 bytes)`).
    case serverError(code: String?)
    /// Another frame arrived before a verified `connected` (auth v2): its type, cut like
    /// ``Finding/messageType`` (at most 64 Unicode scalars, a longer one marked with its length).
    case unexpectedFrame(type: String)
  }

  /// Starts authentication for `hello`: auth v2 when the server offers it (auth version 2 and a
  /// challenge), else auth v1 when ``allowAuthV1`` is set, else ``Refusal/downgradeRefused``.
  ///
  /// - Parameters:
  ///   - hello: the server's first frame, as received.
  ///   - sessionId: the `connect` member `session_id`.
  ///   - recentSessionsLimit: the `connect` member `recent_sessions_limit`.
  ///   - announcement: versions and capabilities to ask for (`authenticated_frames` is added when
  ///     ``requireAuthenticatedFrames`` is set).
  ///   - nonce: 32-128 lowercase hex characters, at least 128 fresh random bits; the default is
  ///     ``freshNonce()``. Pass a fixed one only to reproduce a test vector.
  public func begin(
    hello: HelloMessage, sessionId: String?, recentSessionsLimit: Int? = nil, announcement: ClientAnnouncement,
    nonce: String = AuthClient.freshNonce()
  ) throws(Refusal) -> ClientHandshake {
    var capabilities = announcement.capabilities
    if requireAuthenticatedFrames {
      guard hello.capabilities?.contains(Capability.authenticatedFrames) == true else {
        throw hello.challenge == nil ? .downgradeRefused : .authenticatedFramesUnavailable
      }
      if capabilities?.contains(Capability.authenticatedFrames) != true {
        capabilities = (capabilities ?? []) + [Capability.authenticatedFrames]
      }
    }
    var connect = ConnectMessage(
      sessionId: sessionId, recentSessionsLimit: recentSessionsLimit, protocolVersion: announcement.protocolVersion,
      protocolVersions: announcement.protocolVersions, capabilities: capabilities)
    if let challenge = hello.challenge, (hello.authVersions ?? [hello.authVersion]).contains(2) {
      connect.authVersion = 2
      connect.clientNonce = nonce
      let response = AuthMAC.mac(
        apiKey: apiKey,
        input: AuthMAC.clientInput(challenge: challenge, clientNonce: nonce, connect: connect, hello: hello))
      connect.authResponse = response
      return ClientHandshake(
        connect: connect, apiKey: apiKey, v2: .init(challenge: challenge, nonce: nonce, response: response),
        requireAuthenticatedFrames: requireAuthenticatedFrames)
    }
    guard allowAuthV1, !requireAuthenticatedFrames else { throw .downgradeRefused }
    connect.apiKey = apiKey
    return ClientHandshake(connect: connect, apiKey: apiKey, v2: nil, requireAuthenticatedFrames: false)
  }

  /// 128 fresh bits from the system's secure random source, lowercase hex.
  public static func freshNonce() -> String {
    var rng = SystemRandomNumberGenerator()
    return Hex.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) })
  }
}

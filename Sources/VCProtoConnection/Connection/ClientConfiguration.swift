import VCProtoCore
import VCProtoJSON

/// Everything a client engine needs to know before it starts.
public struct ClientConfiguration: Sendable {
  /// The pre-shared API key (never appears in logs or descriptions).
  public var apiKey: String
  /// The lowest protocol version the client speaks (a server whose highest is lower is refused as
  /// "upgrade required").
  public var minimumVersion: ProtocolVersion
  /// The highest protocol version the client speaks: announced as `protocol_version`.
  public var maximumVersion: ProtocolVersion
  /// Capabilities to ask for (sent only to a server whose `hello` lists capabilities). The engine
  /// asks for `compression_text` or `compression_binary` only when ``envelopes`` opens that form.
  public var capabilities: [String]
  /// Whether the key may travel in the clear (auth v1) to a server whose `hello` offers no v2
  /// challenge. Default ``AuthClient/allowsAuthV1ByDefault`` (`false`, downgrade protection): the
  /// engine then closes with ``CloseReason/downgradeRefused`` and sends no key, and never becomes
  /// ready on a `connected` it cannot verify. The real backend speaks only v1 today: set `true` to
  /// talk to it, knowing that the key crosses the wire in clear and the server proves nothing.
  public var allowAuthV1: Bool
  /// `connect.session_id`, or `nil`.
  public var sessionId: String?
  /// `connect.recent_sessions_limit`, or `nil`.
  public var recentSessionsLimit: Int?
  /// Sent as `set_max_message_size` right after authentication (iOS: 200), or `nil`.
  public var maxMessageSizeKB: Int?
  /// Timers and backoff.
  public var timing: ClientTiming
  /// Seed of the jitter generator (any value; pass something random in production).
  public var randomSeed: UInt64
  /// Most requests waiting for an answer at once, tracked or not: 256. When that many wait, a new
  /// request (tracked or not) takes the place of the oldest untracked one; when every waiting one is
  /// tracked, a new tracked request fails at once with ``RequestFailure/tooManyPending`` and a new
  /// untracked one is sent unrecorded (no deadline; its answer is delivered as received).
  public var maxPendingRequests: Int
  /// Most requests the outbox holds while the client is not ready (connecting, handshaking or backing
  /// off): 32. A request made then with a request id waits there, in order, and is sent once the
  /// connection is ready; the one that finds the outbox full fails at once with
  /// ``RequestFailure/outboxFull``. A voice app queues a few dictated prompts and the requests a
  /// screen makes when it appears (session list, recipes, commands) during a reconnect; 32 leaves
  /// room for those while a loop gone wrong is refused early. 0 queues nothing (a negative value
  /// is 0). See ``ClientEvent/send(_:requestId:)``.
  public var outboxCapacity: Int
  /// Most sessions subscribed at once: 256.
  public var maxSubscriptions: Int
  /// Delivered message positions remembered per session for deduplication, and `message_id`s for
  /// replay deduplication: 2,048. The engine remembers at least 1 and at most 16,777,216 (a value
  /// outside counts as the nearer bound; this property keeps the value given).
  public var dedupWindow: Int
  /// Opens the compression envelopes the server sends (STANDARDS.md#compression): `EnvelopeCodec()`
  /// of VCProtoEnvelope, or `nil` (the default), with which the engine does not ask for compression
  /// and a binary message is refused as not negotiated, so the app need not link zlib.
  public var envelopes: (any EnvelopeOpening)?

  /// Creates a configuration.
  public init(
    apiKey: String, minimumVersion: ProtocolVersion = .oldest,
    maximumVersion: ProtocolVersion = .newest, capabilities: [String] = [],
    allowAuthV1: Bool = AuthClient.allowsAuthV1ByDefault, sessionId: String? = nil, recentSessionsLimit: Int? = nil,
    maxMessageSizeKB: Int? = nil, timing: ClientTiming = ClientTiming(), randomSeed: UInt64 = 0,
    maxPendingRequests: Int = 256, maxSubscriptions: Int = 256, dedupWindow: Int = 2_048,
    outboxCapacity: Int = 32, envelopes: (any EnvelopeOpening)? = nil
  ) {
    self.apiKey = apiKey
    self.minimumVersion = minimumVersion
    self.maximumVersion = maximumVersion
    self.capabilities = capabilities
    self.allowAuthV1 = allowAuthV1
    self.sessionId = sessionId
    self.recentSessionsLimit = recentSessionsLimit
    self.maxMessageSizeKB = maxMessageSizeKB
    self.timing = timing
    self.randomSeed = randomSeed
    self.maxPendingRequests = maxPendingRequests
    self.maxSubscriptions = maxSubscriptions
    self.dedupWindow = dedupWindow
    self.outboxCapacity = outboxCapacity
    self.envelopes = envelopes
  }
}

import VCProtoCore
import VCProtoJSON

/// Everything a server engine needs to know.
public struct ServerConfiguration: Sendable {
  /// Versions, auth versions, capabilities and floor. The engine offers `compression_text` or
  /// `compression_binary` only when ``envelopes`` opens that form.
  public var offer: ServerOffer
  /// The pre-shared API key (never appears in logs or descriptions).
  public var apiKey: String
  /// Heartbeat extension period: 45 s (the resilience design's value; under the client's 90 s
  /// timeout twice over).
  public var heartbeatIntervalMs: Int64
  /// How long a socket may stay unauthenticated, and how long an auth v2 challenge stays valid:
  /// 60 s (``ChallengeStore/defaultLifetime``). The real server has no limit, so idle sockets that
  /// never authenticate stay open forever.
  public var authTimeoutMs: Int64
  /// Most sessions one connection may subscribe to: 1,024 (each costs an entry in the watch set). A
  /// further `subscribe` is refused with an `error` frame, "Too many subscriptions on this connection".
  /// An engine uses at most as many as 512 MiB holds at ``maxSessionIdBytes`` plus 16 bytes each
  /// (1,973,790 at the default id length).
  public var maxSubscriptions: Int
  /// The longest `subscribe.session_id` accepted, in UTF-8 bytes: 256 (``defaultMaxSessionIdBytes``;
  /// real session ids are 36-byte UUIDs or short provider ids). A longer one is refused with an
  /// `error` frame, "session_id is longer than 256 bytes", and not remembered, so the subscribed ids
  /// of one connection hold at most ``maxSubscriptions`` times this many bytes (256 KiB by default).
  /// An engine uses at most 1 MiB.
  public var maxSessionIdBytes: Int
  /// The byte budget of the `message_ack` replay buffer kept per client (``ServerMemory``): 4 MiB
  /// (``ServerMemory/defaultReplayBufferBytes``). A frame costs the UTF-8 bytes of its `message_id`,
  /// text and `session_id`; the oldest frames are dropped (and reported) to stay within it, and a
  /// frame costing more than the whole budget is sent but not kept, so it is never replayed and its
  /// `message_ack` is reported as unknown. With at most ``ServerMemory/replayCapacity`` frames, this
  /// bounds what one client holds on the server whatever the frames' size.
  public var replayBufferBytes: Int
  /// Opens the compression envelopes the client sends (STANDARDS.md#compression): `EnvelopeCodec()`
  /// of VCProtoEnvelope, or `nil` (the default), with which the engine does not offer compression
  /// and a binary message is refused as not negotiated, so the app need not link zlib.
  public var envelopes: (any EnvelopeOpening)?

  /// The default of ``maxSessionIdBytes``: 256.
  public static let defaultMaxSessionIdBytes = 256

  /// Creates a configuration. A ``ServerEngine`` holds each value to its range: the heartbeat period
  /// and authentication timeout at least 1 ms (deadlines stop at `Int64.max` instead of overflowing,
  /// so a period near `Int64.max` switches the heartbeat off in effect), the other numbers at least 0,
  /// and the subscription limit and id length within the bounds their documentation gives.
  public init(
    offer: ServerOffer, apiKey: String, heartbeatIntervalMs: Int64 = 45_000, authTimeoutMs: Int64 = 60_000,
    maxSubscriptions: Int = 1_024, maxSessionIdBytes: Int = ServerConfiguration.defaultMaxSessionIdBytes,
    replayBufferBytes: Int = ServerMemory.defaultReplayBufferBytes, envelopes: (any EnvelopeOpening)? = nil
  ) {
    self.offer = offer
    self.apiKey = apiKey
    self.heartbeatIntervalMs = heartbeatIntervalMs
    self.authTimeoutMs = authTimeoutMs
    self.maxSubscriptions = maxSubscriptions
    self.maxSessionIdBytes = maxSessionIdBytes
    self.replayBufferBytes = max(0, replayBufferBytes)
    self.envelopes = envelopes
  }
}

/// What a server keeps for one client across its connections: the unacknowledged frames to replay
/// (`message_ack` extension) and the prompt idempotency keys already run (`idempotent_prompt`).
/// Both are bounded. The host keeps it per client identity (the `connect.session_id`) and hands it
/// to the next connection's engine.
public struct ServerMemory: Sendable, Hashable {
  /// Most unacknowledged frames kept: 256. The oldest is dropped (and reported) beyond it.
  public static let replayCapacity = 256
  /// Most idempotency keys remembered: 1,024 (a client sends one prompt per user turn, so this
  /// covers far more than any retry window). Keys longer than ``maxKeyBytes`` are not remembered.
  public static let idempotencyCapacity = 1_024
  /// The longest idempotency key remembered: 256 bytes of UTF-8.
  public static let maxKeyBytes = 256

  /// One frame waiting for its `message_ack`.
  public struct Unacknowledged: Sendable, Hashable {
    /// Its `message_id`.
    public var messageId: String
    /// The `replay.message` to re-send: role, text, session_id, timestamp.
    public var message: JSONObject
  }

  /// Unacknowledged frames, oldest first.
  public internal(set) var unacknowledged: [Unacknowledged] = []
  var keys = BoundedSet<String>(capacity: ServerMemory.idempotencyCapacity)

  /// Empty memory, for a client seen for the first time.
  public init() {}

  /// The number of idempotency keys remembered.
  public var idempotencyKeyCount: Int { keys.count }
}

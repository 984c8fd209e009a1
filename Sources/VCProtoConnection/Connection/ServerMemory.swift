import VCProtoCore
import VCProtoJSON

/// What a server keeps for one client across its connections: the unacknowledged frames to replay
/// (`message_ack` extension) and the prompt idempotency keys already run (`idempotent_prompt`).
/// Both are bounded: the replay buffer by count (``replayCapacity``) and by bytes
/// (``ServerConfiguration/replayBufferBytes``), the keys by count and length. The host keeps it per client identity (the `connect.session_id`) and hands it
/// to the next connection's engine.
public struct ServerMemory: Sendable, Hashable {
  /// Most unacknowledged frames kept: 256. The oldest is dropped (and reported) beyond it.
  public static let replayCapacity = 256
  /// The default byte budget of the replay buffer: 4 MiB (``ServerConfiguration/replayBufferBytes``).
  public static let defaultReplayBufferBytes = 4 * 1_024 * 1_024
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
    /// What it costs in the byte budget: the UTF-8 bytes of its `message_id`, text and `session_id`.
    var cost: Int
  }

  /// Unacknowledged frames, oldest first.
  public internal(set) var unacknowledged: [Unacknowledged] = []
  /// The bytes the unacknowledged frames cost in the budget (``ServerConfiguration/replayBufferBytes``):
  /// the UTF-8 bytes of each one's `message_id`, text and `session_id`.
  public internal(set) var replayBytes = 0
  /// The idempotency keys, by their exact scalars (``ExactString``): a key canonically equivalent to
  /// a remembered one is another key.
  var keys = BoundedSet<ExactString>(capacity: ServerMemory.idempotencyCapacity)

  /// Empty memory, for a client seen for the first time.
  public init() {}

  /// The number of idempotency keys remembered.
  public var idempotencyKeyCount: Int { keys.count }

  /// Keeps `entry` for replay, replacing an entry with the same id, then forgets the oldest entries
  /// until at most ``replayCapacity`` entries costing at most `budget` bytes remain. An entry that
  /// alone costs more than `budget` is not kept. Returns the ids dropped (`entry`'s own when it is
  /// not kept), oldest first.
  mutating func keep(_ entry: Unacknowledged, budget: Int) -> [String] {
    acknowledge(entry.messageId)
    guard entry.cost <= budget else { return [entry.messageId] }
    unacknowledged.append(entry)
    replayBytes += entry.cost
    var dropped = 0
    while unacknowledged.count - dropped > Self.replayCapacity || replayBytes > budget {
      replayBytes -= unacknowledged[dropped].cost
      dropped += 1
    }
    guard dropped > 0 else { return [] }
    let evicted = unacknowledged[..<dropped].map(\.messageId)
    unacknowledged.removeFirst(dropped)
    return evicted
  }

  /// Forgets the entry with `messageId` (the same exact scalars, not a canonically equivalent id);
  /// `false` when none was kept.
  @discardableResult
  mutating func acknowledge(_ messageId: String) -> Bool {
    guard let index = unacknowledged.firstIndex(where: { $0.messageId.hasSameScalars(as: messageId) }) else {
      return false
    }
    replayBytes -= unacknowledged[index].cost
    unacknowledged.remove(at: index)
    return true
  }
}

import VCProtoCore
import VCProtoJSON

/// Strings a conversation has seen (the server's `message_id`s, the sessions a client subscribed to;
/// ``ClientEngine``'s `message_ack` replay deduplication), in bounded memory: each id is kept as a 64-bit
/// keyed hash of its exact UTF-8 bytes (Swift's `Hasher`, SipHash with a key drawn at random per
/// process; canonically equivalent ids are different ids), never as its text,
/// so an id of any length costs 8 bytes (plus the set's overhead), and at most ``capacity`` are kept.
///
/// Eviction is first in, first out: remembering one more than ``capacity`` distinct ids forgets the
/// oldest. A `message_ack` for a forgotten id is then reported as unknown. Two distinct ids collide
/// with probability about 2⁻⁶⁴ per pair, and a capture cannot aim for a collision because the key is
/// secret and fresh each run; a collision would only hide an `unknown_message_id` finding (in the
/// observer) or make a client engine take a new frame for a replay and not deliver it.
package struct MessageIDMemory: Sendable {
  /// Most ids remembered.
  package let capacity: Int
  private var hashes: Set<Int> = []
  /// The remembered hashes in insertion order, used as a ring once full.
  private var ring: [Int] = []
  private var next = 0
  /// Whether an id was ever forgotten to make room (a lookup's `false` is then not certain).
  package private(set) var hasForgotten = false

  /// Creates an empty memory for at most `capacity` ids.
  package init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  /// How many ids are remembered.
  package var count: Int { hashes.count }

  /// Remembers `id`; `false` when it was already remembered (then nothing changes).
  @discardableResult
  package mutating func insert(_ id: String) -> Bool {
    let hash = Self.hash(id)
    guard hashes.insert(hash).inserted else { return false }
    if ring.count < capacity {
      ring.append(hash)
      return true
    }
    hasForgotten = true
    hashes.remove(ring[next])
    ring[next] = hash
    next = (next + 1) % capacity
    return true
  }

  /// Whether `id` is remembered.
  package func contains(_ id: String) -> Bool {
    hashes.contains(Self.hash(id))
  }

  /// The keyed hash of `id`'s exact UTF-8 bytes (``ExactString``): `String`'s own hash is canonical,
  /// so `"e\u{301}"` would be remembered as `"\u{e9}"`.
  private static func hash(_ id: String) -> Int {
    var hasher = Hasher()
    ExactString(id).hash(into: &hasher)
    return hasher.finalize()
  }
}

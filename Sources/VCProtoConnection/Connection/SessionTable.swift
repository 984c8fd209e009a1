import VCProtoCore
import VCProtoJSON

/// Values by session id: a hash table over ``SessionKey``, whose hash is computed once per id and
/// used as it is. The client engine keeps its subscriptions in one (``SubscriptionTable``); the server
/// engine keeps the sessions a connection subscribed to as bytes (``SessionIDSet``).
///
/// A `Dictionary<SessionKey, Subscription>` hashed every key again on every lookup, insertion and
/// move (a SipHash finalisation of the stored hash, about a hundred and fifty instructions), five
/// times or more for each session a client opens, reads and closes; a `Set<String>` hashed the id's
/// bytes with SipHash on every lookup. Here a lookup masks the stored hash and probes.
///
/// The entries live in one dense array, in no particular order (a removal moves the last one into
/// the hole; the client's order of subscribing is ``Subscription/serial``). An open-addressing index
/// (linear probing, a power-of-two size at least twice the count, backward-shift deletion) maps a
/// key to its entry. Each slot holds the entry's position and the low 32 bits of its hash, so a probe
/// compares hashes without touching entries, and a deletion finds every key's home slot without
/// hashing anything. Its size is bounded by the entries it holds (at most the engine's
/// `maxSubscriptions`), so even ids with colliding hashes cost at most a probe over that many slots.
struct SessionTable<Value: Sendable>: Sendable {
  /// One session and its value.
  struct Entry: Sendable {
    /// The session.
    let key: SessionKey
    /// What is kept for it.
    var value: Value
  }

  /// Every entry, densely.
  private(set) var entries: [Entry] = []
  /// `0`: free; otherwise the entry's position plus one (low 32 bits) under the low 32 bits of its
  /// key's hash.
  private var slots: [UInt64] = []

  /// The number of entries.
  var count: Int { entries.count }

  /// The positions of the entries.
  var indices: Range<Int> { entries.indices }

  /// The session id of the entry at `index`.
  func id(at index: Int) -> String { entries[index].key.id }

  /// The value at `index`, read or changed in place.
  subscript(index: Int) -> Value {
    get { entries[index].value }
    _modify { yield &entries[index].value }
  }

  /// The value of `key`, if any.
  subscript(key: SessionKey) -> Value? {
    guard let index = index(of: key) else { return nil }
    return entries[index].value
  }

  /// Whether `key` has an entry.
  func contains(_ key: SessionKey) -> Bool { slot(of: key) != nil }

  /// Forgets every entry.
  mutating func removeAll() {
    entries = []
    slots = []
  }

  /// The position of `key`'s entry, if any.
  func index(of key: SessionKey) -> Int? {
    guard let slot = slot(of: key) else { return nil }
    return Self.entry(in: slots[slot])
  }

  /// Adds `key` with `value`, or, when an equal key is already there, gives that entry `value` (as a
  /// dictionary's assignment would); returns the entry's position.
  @discardableResult
  mutating func append(_ key: consuming SessionKey, _ value: consuming Value) -> Int {
    precondition(entries.count < Int(Int32.max), "too many entries for the table")
    if (entries.count + 1) * 2 > slots.count { rebuild(size: max(16, slots.count * 2)) }
    // One probe finds the key, or the free slot where it goes.
    let slot = slot(for: key)
    if slots[slot] != 0 {
      let held = Self.entry(in: slots[slot])
      entries[held].value = value
      return held
    }
    let (index, hash) = (entries.count, key.hash)
    entries.append(Entry(key: key, value: value))
    slots[slot] = Self.slotValue(index, hash: hash)
    return index
  }

  /// Removes `key`'s entry; `false` when there was none.
  @discardableResult
  mutating func remove(_ key: SessionKey) -> Bool {
    guard let slot = slot(of: key) else { return false }
    let index = Self.entry(in: slots[slot])
    vacate(slot)
    var last = entries.removeLast()
    if index != entries.count {
      // The last entry moves into the hole: its slot is found by its stored hash and old position.
      let position = entries.count
      let moved = slots.withUnsafeBufferPointer {
        Self.probe($0, from: last.key.hash) { Self.entry(in: $0) == position }
      }
      slots[moved] = Self.slotValue(index, hash: last.key.hash)
      // Moved, not copied (a copy would count references to everything both entries hold).
      swap(&last, &entries[index])
    }
    return true
  }

  // MARK: index

  /// The slot holding `key`, if any.
  private func slot(of key: SessionKey) -> Int? {
    guard !slots.isEmpty else { return nil }
    let slot = slot(for: key)
    return slots[slot] == 0 ? nil : slot
  }

  /// The slot holding `key`, or the free slot that ends its probe run (the index is not empty).
  @inline(__always)
  private func slot(for key: SessionKey) -> Int {
    let tag = Self.tag(key.hash)
    return slots.withUnsafeBufferPointer { slots in
      Self.probe(slots, from: key.hash) { held in
        held == 0 || (held >> 32 == tag && entries[Self.entry(in: held)].key == key)
      }
    }
  }

  /// The first slot from `hash`'s home, walking forward and wrapping, whose value satisfies `stop`
  /// (every probe of this table stops at a free slot at the latest, or at a slot it knows is there).
  @inline(__always)
  private static func probe(
    _ slots: UnsafeBufferPointer<UInt64>, from hash: Int, until stop: (UInt64) -> Bool
  ) -> Int {
    let mask = slots.count - 1
    var probe = hash & mask
    while !stop(slots[probe]) { probe = (probe + 1) & mask }
    return probe
  }

  /// Puts entry `index` (whose key hashes to `hash`) in the first free slot from its home.
  private mutating func place(_ index: Int, hash: Int) {
    let free = slots.withUnsafeBufferPointer { Self.probe($0, from: hash) { $0 == 0 } }
    slots[free] = Self.slotValue(index, hash: hash)
  }

  /// Frees `slot`, moving back later members of its probe run whose home does not lie strictly
  /// between the hole and themselves (so that every key stays reachable from its home).
  private mutating func vacate(_ slot: Int) {
    slots.withUnsafeMutableBufferPointer { slots in
      let mask = slots.count - 1
      var hole = slot
      var next = (hole + 1) & mask
      while slots[next] != 0 {
        let home = Int(truncatingIfNeeded: slots[next] >> 32) & mask
        let stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
        if !stays {
          slots[hole] = slots[next]
          hole = next
        }
        next = (next + 1) & mask
      }
      slots[hole] = 0
    }
  }

  /// A new index of `size` slots (a power of two) for the entries.
  private mutating func rebuild(size: Int) {
    slots = [UInt64](repeating: 0, count: size)
    for index in entries.indices { place(index, hash: entries[index].key.hash) }
  }

  /// What a slot keeps of a hash: its low 32 bits (enough to find the home slot of any index this
  /// table can have).
  private static func tag(_ hash: Int) -> UInt64 { UInt64(UInt32(truncatingIfNeeded: hash)) }

  private static func slotValue(_ index: Int, hash: Int) -> UInt64 { tag(hash) << 32 | UInt64(index + 1) }

  private static func entry(in slot: UInt64) -> Int { Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1 }
}

/// The client engine's subscriptions by session id.
typealias SubscriptionTable = SessionTable<Subscription>

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
/// the hole; the client's order of subscribing is ``Subscription/serial``); a ``ProbeIndex`` maps a
/// key's hash to its entry. Its size is bounded by the entries it holds (at most the engine's
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
  /// Where each key's entry is.
  private var probes = ProbeIndex()
  /// ``SessionIDHash/seeds``, which every key's hash was made with, kept here for ``index(ofId:)``:
  /// read with the table, not through the lazy global's one-time initialisation check (a call into
  /// the runtime on every history frame).
  private let seeds = SessionIDHash.seeds

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
    probes = ProbeIndex()
  }

  /// The position of `key`'s entry, if any.
  func index(of key: SessionKey) -> Int? {
    guard let slot = slot(of: key) else { return nil }
    return probes.entry(at: slot)
  }

  /// The position of `id`'s entry, if any: ``index(of:)`` of `SessionKey(id)`, without making the
  /// key (the id's bytes read once, in line, and no reference to the id taken and dropped: a
  /// client's every history frame looks its session up). The id's hash is made with the table's
  /// copy of the seeds, and each candidate key is compared where it lies in the table (its digest's
  /// words, not a copy of its entry).
  @inline(__always)
  func index(ofId id: String) -> Int? {
    guard let slot = slot(ofId: id) else { return nil }
    return probes.entry(at: slot)
  }

  /// Adds `key` with `value`, or, when an equal key is already there, gives that entry `value` (as a
  /// dictionary's assignment would); returns the entry's position.
  @discardableResult
  mutating func append(_ key: consuming SessionKey, _ value: consuming Value) -> Int {
    switch place(of: key) {
    case .held(let held):
      entries[held].value = value
      return held
    case .free(let slot): return add(key, value, at: slot)
    }
  }

  /// Where a key is, or goes: ``place(of:)``.
  enum Place {
    /// The position of its entry.
    case held(Int)
    /// The free slot of the index where ``add(_:_:at:)`` puts it.
    case free(Int)
  }

  /// Where `key` is, or else where it goes, the index grown first when one more entry needs room: one
  /// probe finds either (a client's `subscribe` to a new session, once per session it opens, probed
  /// twice: a lookup, then an ``append(_:_:)``).
  mutating func place(of key: SessionKey) -> Place {
    if probes.needsRoom(for: entries.count) {
      let entries = self.entries
      probes.grow(count: entries.count) { entries[$0].key.hash }
    }
    let slot = slot(for: key)
    return probes.isFree(slot) ? .free(slot) : .held(probes.entry(at: slot))
  }

  /// Adds `key` with `value` at `slot`, where ``place(of:)`` said it goes (the table unchanged since);
  /// returns its entry's position.
  mutating func add(_ key: consuming SessionKey, _ value: consuming Value, at slot: Int) -> Int {
    let (position, hash) = (entries.count, key.hash)
    entries.append(Entry(key: key, value: value))
    probes.fill(slot, with: position, hash: hash)
    return position
  }

  /// Removes `key`'s entry; `false` when there was none.
  @discardableResult
  mutating func remove(_ key: SessionKey) -> Bool {
    guard let slot = slot(of: key) else { return false }
    removeEntry(in: slot)
    return true
  }

  /// ``remove(_:)`` of `SessionKey(id)`, without making the key (no reference to the id taken and
  /// dropped: a client's `unsubscribe`, once per session it closes).
  @discardableResult
  mutating func remove(id: String) -> Bool {
    guard let slot = slot(ofId: id) else { return false }
    removeEntry(in: slot)
    return true
  }

  /// Removes the entry that `slot` holds.
  private mutating func removeEntry(in slot: Int) {
    let position = probes.entry(at: slot)
    probes.vacate(slot)
    var last = entries.removeLast()
    if position != entries.count {
      // The last entry moves into the hole.
      probes.move(hash: last.key.hash, from: entries.count, to: position)
      // Moved, not copied (a copy would count references to everything both entries hold).
      swap(&last, &entries[position])
    }
  }

  /// The slot holding `id`'s key, if any: its digest made with the table's copy of the seeds, each
  /// candidate key compared where it lies in the table (through the buffer: no copy of its entry).
  @inline(__always)
  private func slot(ofId id: String) -> Int? {
    let digest = SessionKey.Digest(id, seeds: seeds)
    return entries.withUnsafeBufferPointer { entries in
      probes.occupiedSlot(for: digest.hash) { entries[$0].key.isId(id, digest: digest) }
    }
  }

  /// The slot holding `key`, if any.
  private func slot(of key: SessionKey) -> Int? {
    probes.occupiedSlot(for: key.hash) { entries[$0].key == key }
  }

  /// The slot holding `key`, or the free slot that ends its probe run (the index has slots).
  @inline(__always)
  private func slot(for key: SessionKey) -> Int {
    probes.slot(for: key.hash) { entries[$0].key == key }
  }
}

/// The client engine's subscriptions by session id.
typealias SubscriptionTable = SessionTable<Subscription>

import VCProtoCore
import VCProtoJSON

/// The sessions one server connection subscribed to (``ServerEngine``): a set of session ids by
/// their exact bytes (two canonically equivalent spellings are two sessions, as with ``ExactString``)
/// that keeps the ids' UTF-8 bytes in one buffer and no `String`.
///
/// A `subscribe` costs a hash of the id's bytes (``SessionIDHash``), one probe and a copy of the
/// bytes; nothing is allocated but when a buffer grows (doubling). The `String` the frame was
/// decoded into is not kept alive by the engine: a table of `String`s held one heap object per
/// subscription, so the allocator could not reuse that memory for the next frame (about two hundred
/// instructions more per `subscribe`). Entries are plain values: the set is copied and freed
/// without counting references.
///
/// Layout: the entries (where each id's bytes start, how many, their hash) are dense, in no
/// particular order (a removal moves the last entry into the hole); an open-addressing index (linear
/// probing, a power-of-two size at least twice the count, backward-shift deletion) maps an id to its
/// entry, each slot holding the entry's position and the low 32 bits of its hash, as
/// ``SessionTable``'s. A removed id's bytes stay in the buffer until they are more than 4 KiB and
/// more than half of it, when the live ids are copied to a new buffer; so the buffer holds at most
/// twice the live ids' bytes plus 4 KiB (the live ids are at most `maxSubscriptions` ×
/// `maxSessionIdBytes`, 256 KiB by default).
struct SessionIDSet: Sendable {
  /// One id: its bytes in ``bytes`` and its hash.
  private struct Entry: Sendable {
    var start: Int
    var count: Int
    var hash: Int
  }

  /// The ids' UTF-8 bytes, one after another (with the dead bytes of removed ids).
  private var bytes: [UInt8] = []
  /// Every id, densely.
  private var entries: [Entry] = []
  /// `0`: free; otherwise the entry's position plus one (low 32 bits) under the low 32 bits of its
  /// hash.
  private var slots: [UInt64] = []
  /// Bytes of ``bytes`` no entry refers to any more.
  private var deadBytes = 0

  /// The number of ids.
  var count: Int { entries.count }

  /// Every id, in no particular order.
  var ids: [String] {
    bytes.withUnsafeBufferPointer { buffer in
      entries.map {
        String(decoding: UnsafeBufferPointer(rebasing: buffer[$0.start..<$0.start + $0.count]), as: UTF8.self)
      }
    }
  }

  /// Whether `id` is in the set (the same bytes).
  @inline(__always)
  func contains(_ id: String) -> Bool {
    Self.withUTF8(id) { id in slot(of: id, hash: SessionIDHash.of(id).hash) != nil }
  }

  /// Adds `id`; `false` when it was there already.
  @inline(__always) @discardableResult
  mutating func insert(_ id: String) -> Bool {
    Self.withUTF8(id) { id in insert(id) }
  }

  /// Removes `id`; `false` when it was not there.
  @inline(__always) @discardableResult
  mutating func remove(_ id: String) -> Bool {
    Self.withUTF8(id) { id in remove(id) }
  }

  /// Forgets every id.
  mutating func removeAll() {
    self = SessionIDSet()
  }

  // MARK: bytes

  private mutating func insert(_ id: UnsafeBufferPointer<UInt8>) -> Bool {
    precondition(entries.count < Int(Int32.max), "too many ids for the set")
    if (entries.count + 1) * 2 > slots.count { rebuild(size: max(16, slots.count * 2)) }
    let hash = SessionIDHash.of(id).hash
    // One probe finds the id, or the free slot where it goes.
    let slot = slot(for: id, hash: hash)
    guard slots[slot] == 0 else { return false }
    let index = entries.count
    entries.append(Entry(start: bytes.count, count: id.count, hash: hash))
    bytes.append(contentsOf: id)
    slots[slot] = Self.slotValue(index, hash: hash)
    return true
  }

  private mutating func remove(_ id: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let slot = slot(of: id, hash: SessionIDHash.of(id).hash) else { return false }
    let index = Self.entry(in: slots[slot])
    vacate(slot)
    deadBytes += entries[index].count
    let last = entries.removeLast()
    if index != entries.count {
      // The last entry moves into the hole: its slot is found by its stored hash and old position.
      let position = entries.count
      let moved = slots.withUnsafeBufferPointer { Self.probe($0, from: last.hash) { Self.entry(in: $0) == position } }
      slots[moved] = Self.slotValue(index, hash: last.hash)
      entries[index] = last
    }
    if deadBytes > 4_096, deadBytes * 2 > bytes.count { compact() }
    return true
  }

  /// Drops the dead bytes: the live ids copied to a new buffer, in entry order.
  private mutating func compact() {
    var live: [UInt8] = []
    live.reserveCapacity(bytes.count - deadBytes)
    for index in entries.indices {
      let entry = entries[index]
      entries[index].start = live.count
      live.append(contentsOf: bytes[entry.start..<entry.start + entry.count])
    }
    bytes = live
    deadBytes = 0
  }

  /// `id`'s UTF-8 bytes, contiguous (a copy only for a string that does not store them so).
  @inline(__always)
  private static func withUTF8<R>(_ id: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if let result = id.utf8.withContiguousStorageIfAvailable(body) { return result }
    return Array(id.utf8).withUnsafeBufferPointer(body)
  }

  // MARK: index

  /// The slot holding `id`, if any.
  private func slot(of id: UnsafeBufferPointer<UInt8>, hash: Int) -> Int? {
    guard !slots.isEmpty else { return nil }
    let slot = slot(for: id, hash: hash)
    return slots[slot] == 0 ? nil : slot
  }

  /// The slot holding `id`, or the free slot that ends its probe run (the index is not empty).
  @inline(__always)
  private func slot(for id: UnsafeBufferPointer<UInt8>, hash: Int) -> Int {
    let tag = Self.tag(hash)
    return bytes.withUnsafeBufferPointer { bytes in
      entries.withUnsafeBufferPointer { entries in
        slots.withUnsafeBufferPointer { slots in
          Self.probe(slots, from: hash) { held in
            guard held != 0 else { return true }
            guard held >> 32 == tag else { return false }
            let entry = entries[Self.entry(in: held)]
            return entry.hash == hash && entry.count == id.count
              && UTF8Bytes.equal(UnsafeBufferPointer(rebasing: bytes[entry.start..<entry.start + entry.count]), id)
          }
        }
      }
    }
  }

  /// The first slot from `hash`'s home, walking forward and wrapping, whose value satisfies `stop`
  /// (every probe stops at a free slot at the latest, or at a slot it knows is there).
  @inline(__always)
  private static func probe(
    _ slots: UnsafeBufferPointer<UInt64>, from hash: Int, until stop: (UInt64) -> Bool
  ) -> Int {
    let mask = slots.count - 1
    var probe = hash & mask
    while !stop(slots[probe]) { probe = (probe + 1) & mask }
    return probe
  }

  /// Frees `slot`, moving back later members of its probe run whose home does not lie strictly
  /// between the hole and themselves (so that every id stays reachable from its home).
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
    var fresh = [UInt64](repeating: 0, count: size)
    fresh.withUnsafeMutableBufferPointer { fresh in
      for index in entries.indices {
        let hash = entries[index].hash
        let free = Self.probe(UnsafeBufferPointer(fresh), from: hash) { $0 == 0 }
        fresh[free] = Self.slotValue(index, hash: hash)
      }
    }
    slots = fresh
  }

  /// What a slot keeps of a hash: its low 32 bits (enough to find the home slot of any index this
  /// set can have).
  private static func tag(_ hash: Int) -> UInt64 { UInt64(UInt32(truncatingIfNeeded: hash)) }

  private static func slotValue(_ index: Int, hash: Int) -> UInt64 { tag(hash) << 32 | UInt64(index + 1) }

  private static func entry(in slot: UInt64) -> Int { Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1 }
}

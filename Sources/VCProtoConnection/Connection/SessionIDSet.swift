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
/// particular order (a removal moves the last entry into the hole); a ``ProbeIndex`` maps an id's
/// hash to its entry, as ``SessionTable``'s does. A removed id's bytes stay in the buffer until they are more than 4 KiB and
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
  /// Where each id's entry is.
  private var probes = ProbeIndex()
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
    SessionBytes.with(id) { id in slot(of: id, hash: SessionIDHash.of(id).hash) != nil }
  }

  /// Adds `id`; `false` when it was there already.
  @inline(__always) @discardableResult
  mutating func insert(_ id: String) -> Bool {
    SessionBytes.with(id) { id in insert(id) }
  }

  /// Adds `id`, read in place (`inout`: its bytes are lent without retaining the string, as reading
  /// them through its `utf8` view does); `false` when it was there already.
  @inline(__always) @discardableResult
  mutating func insert(lending id: inout String) -> Bool {
    id.withUTF8 { id in insert(id) }
  }

  /// Removes `id`; `false` when it was not there.
  @inline(__always) @discardableResult
  mutating func remove(_ id: String) -> Bool {
    SessionBytes.with(id) { id in remove(id) }
  }

  /// Forgets every id.
  mutating func removeAll() {
    self = SessionIDSet()
  }

  // MARK: bytes

  private mutating func insert(_ id: UnsafeBufferPointer<UInt8>) -> Bool {
    if probes.needsRoom(for: entries.count) {
      let entries = self.entries
      probes.grow(count: entries.count) { entries[$0].hash }
    }
    let hash = SessionIDHash.of(id).hash
    // One probe finds the id, or the free slot where it goes.
    let slot = slot(for: id, hash: hash)
    guard probes.isFree(slot) else { return false }
    probes.fill(slot, with: entries.count, hash: hash)
    entries.append(Entry(start: bytes.count, count: id.count, hash: hash))
    bytes.append(contentsOf: id)
    return true
  }

  private mutating func remove(_ id: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let slot = slot(of: id, hash: SessionIDHash.of(id).hash) else { return false }
    let index = probes.entry(at: slot)
    probes.vacate(slot)
    deadBytes += entries[index].count
    let last = entries.removeLast()
    if index != entries.count {
      // The last entry moves into the hole.
      probes.move(hash: last.hash, from: entries.count, to: index)
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

  /// The slot holding `id`, if any.
  private func slot(of id: UnsafeBufferPointer<UInt8>, hash: Int) -> Int? {
    bytes.withUnsafeBufferPointer { bytes in
      entries.withUnsafeBufferPointer { entries in
        probes.occupiedSlot(for: hash) { Self.holds(entries[$0], id, hash: hash, in: bytes) }
      }
    }
  }

  /// The slot holding `id`, or the free slot that ends its probe run (the index has slots).
  @inline(__always)
  private func slot(for id: UnsafeBufferPointer<UInt8>, hash: Int) -> Int {
    bytes.withUnsafeBufferPointer { bytes in
      entries.withUnsafeBufferPointer { entries in
        probes.slot(for: hash) { Self.holds(entries[$0], id, hash: hash, in: bytes) }
      }
    }
  }

  /// Whether `entry` is `id` (whose hash is `hash`).
  @inline(__always)
  private static func holds(
    _ entry: Entry, _ id: UnsafeBufferPointer<UInt8>, hash: Int, in bytes: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    entry.hash == hash && entry.count == id.count
      && UTF8Bytes.equal(UnsafeBufferPointer(rebasing: bytes[entry.start..<entry.start + entry.count]), id)
  }
}

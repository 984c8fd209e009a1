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
/// instructions more per `subscribe`).
///
/// Layout, shaped for the cost of a `subscribe` (a connection may hold a thousand): each id is one
/// record in a single buffer, a header word (the low 32 bits of its hash, its length in bytes above
/// them, the top bit once removed) followed by its bytes, zero-padded to whole words; a
/// ``ProbeIndex`` maps an id's hash to where its record starts. An insertion is one probe and one
/// copy into memory the set owns (no per-insertion array bookkeeping, which cost as much as the
/// hash), and growing copies the records once without touching the index. A removed id's record
/// stays in the buffer until the removed records are more than 4 KiB and more than half of it, when
/// the live ones are copied to a new buffer and the index rebuilt; so the buffer holds at most twice
/// the live records plus 4 KiB (the live ids are at most `maxSubscriptions` × `maxSessionIdBytes`,
/// 256 KiB by default, plus 8 to 15 bytes of header and padding each).
///
/// The set is a value: copies share the buffer until one of them changes (copy-on-write). The
/// buffer is a class with constant members and everything that changes is in the struct, so no
/// access needs the run-time exclusivity check a class's variable members get (about 190
/// instructions a `subscribe` when the index lived in the class).
struct SessionIDSet: Sendable {
  /// Where each id's record starts (its byte offset in ``records``), by the id's hash.
  private var index = ProbeIndex()
  /// The records.
  private var records = Records(capacity: 0)
  /// Bytes of ``records`` holding records, live or removed.
  private var used = 0
  /// Bytes of removed records.
  private var deadBytes = 0
  /// The number of ids.
  private(set) var count = 0

  private static let removed: UInt64 = 1 << 63

  /// Every id, in the order inserted (compaction keeps it).
  var ids: [String] {
    var ids: [String] = []
    ids.reserveCapacity(count)
    forEachLive { _, id in ids.append(String(decoding: id, as: UTF8.self)) }
    return ids
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

  // MARK: records

  /// Bytes a record of an id of `length` bytes takes: the header, then the id padded to whole words.
  @inline(__always)
  private static func size(ofRecordFor length: Int) -> Int { 8 + (length + 7) & ~7 }

  /// The header word of the record at `offset`.
  @inline(__always)
  private func header(at offset: Int) -> UInt64 { records.start.load(fromByteOffset: offset, as: UInt64.self) }

  /// The id of the record at `offset`, whose length is `length`.
  @inline(__always)
  private func id(at offset: Int, length: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: (records.start + offset + 8).assumingMemoryBound(to: UInt8.self), count: length)
  }

  /// Whether the record at `offset` is the id `id` (the index compared the hashes).
  @inline(__always)
  private func holds(_ offset: Int, _ id: UnsafeBufferPointer<UInt8>) -> Bool {
    // A removed record is in no slot; its set top bit would fail the length too.
    Int(truncatingIfNeeded: header(at: offset) >> 32) == id.count
      && UTF8Bytes.equal(self.id(at: offset, length: id.count), id)
  }

  /// The slot holding `id`, whose hash is `hash`, if any.
  private func slot(of id: UnsafeBufferPointer<UInt8>, hash: Int) -> Int? {
    index.occupiedSlot(for: hash) { holds($0, id) }
  }

  private mutating func insert(_ id: UnsafeBufferPointer<UInt8>) -> Bool {
    if index.needsRoom(for: count) { rebuildIndex(slots: max(16, index.slotCount * 2)) }
    let hash = SessionIDHash.of(id).hash
    // One probe finds the id, or the free slot where it goes.
    let slot = index.slot(for: hash) { holds($0, id) }
    guard index.isFree(slot) else { return false }
    let size = Self.size(ofRecordFor: id.count)
    if used + size > records.capacity || !isKnownUniquelyReferenced(&records) { reallocate(toHold: used + size) }
    let offset = used
    let start = records.start
    // The last word first (its padding must be zero), then the header: an empty id has only the header.
    start.storeBytes(of: 0, toByteOffset: offset + size - 8, as: UInt64.self)
    start.storeBytes(
      of: UInt64(UInt32(truncatingIfNeeded: hash)) | UInt64(id.count) << 32, toByteOffset: offset, as: UInt64.self)
    if let source = id.baseAddress { (start + offset + 8).copyMemory(from: source, byteCount: id.count) }
    used += size
    count += 1
    index.fill(slot, with: offset, hash: hash)
    return true
  }

  private mutating func remove(_ id: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let slot = slot(of: id, hash: SessionIDHash.of(id).hash) else { return false }
    let offset = index.entry(at: slot)
    index.vacate(slot)
    if !isKnownUniquelyReferenced(&records) { reallocate(toHold: used) }
    records.start.storeBytes(of: header(at: offset) | Self.removed, toByteOffset: offset, as: UInt64.self)
    count -= 1
    deadBytes += Self.size(ofRecordFor: id.count)
    if deadBytes > 4_096, deadBytes * 2 > used { compact() }
    return true
  }

  /// Calls `body` with each live record's offset and id, in buffer order.
  private func forEachLive(_ body: (_ offset: Int, _ id: UnsafeBufferPointer<UInt8>) -> Void) {
    var offset = 0
    while offset < used {
      let header = header(at: offset)
      let length = Int(truncatingIfNeeded: header >> 32 & 0x7FFF_FFFF)
      if header & Self.removed == 0 { body(offset, id(at: offset, length: length)) }
      offset += Self.size(ofRecordFor: length)
    }
  }

  /// A buffer of the set's own of at least `needed` bytes (doubling when it grows), the records
  /// copied; the index still holds (offsets do not change).
  private mutating func reallocate(toHold needed: Int) {
    // Offsets (and so lengths) stay below 2^31: the index keeps 32 bits of position.
    precondition(needed < Int(Int32.max), "too many session id bytes for the set")
    let fresh = Records(capacity: needed > records.capacity ? max(needed, 2 * records.capacity, 512) : records.capacity)
    fresh.start.copyMemory(from: records.start, byteCount: used)
    records = fresh
  }

  /// The live records copied to a new buffer (in order), and the index rebuilt for their offsets.
  private mutating func compact() {
    let fresh = Records(capacity: max(512, 2 * (used - deadBytes)))
    var live = 0
    forEachLive { offset, id in
      let size = Self.size(ofRecordFor: id.count)
      (fresh.start + live).copyMemory(from: records.start + offset, byteCount: size)
      live += size
    }
    records = fresh
    used = live
    deadBytes = 0
    rebuildIndex(slots: index.slotCount)
  }

  /// A new index of `slots` slots for the live records (the hash bits a header keeps are the
  /// index's tag, all it needs).
  private mutating func rebuildIndex(slots: Int) {
    let set = self  // read while the index changes
    index.rebuild(slots: slots) { add in
      set.forEachLive { offset, _ in add(offset, Int(truncatingIfNeeded: set.header(at: offset) & 0xFFFF_FFFF)) }
    }
  }

  /// Memory for records, 8-aligned and bound to `UInt8` (the header words are read and written as
  /// raw words). Its members are constants: a set that changes its records first makes sure no
  /// other copy of the set shares them (`isKnownUniquelyReferenced`), and one that needs more room
  /// allocates a new one; so no instance is ever written while another thread can read it.
  private final class Records: @unchecked Sendable {
    let start: UnsafeMutableRawPointer
    let capacity: Int

    init(capacity: Int) {
      self.capacity = capacity
      start = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
      start.bindMemory(to: UInt8.self, capacity: capacity)
    }

    deinit { start.deallocate() }
  }
}

extension SessionIDSet: CustomReflectable {
  /// The records' bytes (headers, ids and padding, removed ones included), as kept: what reflection
  /// over an engine finds retained (`EngineRetainedBytesTests`).
  var customMirror: Mirror {
    let bytes = Array(UnsafeBufferPointer(start: records.start.assumingMemoryBound(to: UInt8.self), count: used))
    return Mirror(self, children: ["records": bytes], displayStyle: .struct)
  }
}

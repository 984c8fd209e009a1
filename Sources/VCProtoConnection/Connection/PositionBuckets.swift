/// The hash table of a ``PositionWindow`` that has left its sorted mode: open addressing over buckets
/// of eight positions, each bucket one 64-byte cache line, with a word of state per bucket (which of
/// its slots are free, and how many members overflowed past it) in place of tombstones.
///
/// Why buckets. The window's table is at most half full, so in a table of single slots a position's
/// first slot is taken about half the time: every probe, and every removal of the oldest position
/// (backward-shift deletion walking the run after it), ended on a branch no predictor can learn,
/// waiting on a multiply and a load. On 0.2.0 history, where every message is hashed into its
/// session's table, that was most of the window's cost: about 35 ns an insert into a full window,
/// against 9.5 ns here (Benchmarks/RESULTS.md, "Session 45"). Here a position is compared with the
/// eight slots of its bucket (found in its own bucket, or absent: the branches almost always go the
/// same way), it goes into the bucket's first free slot (from the bucket's free mask: no search), and
/// the window's oldest position is freed where the window noted it went (``ringSlots``: no search at
/// all). At most half full, a bucket of eight is full about one time in fifty.
///
/// Overflow. A position whose bucket is full goes in the next bucket with a free slot (wrapping), and
/// every full bucket it passed counts one more overflow. A lookup moves past a bucket only while its
/// count is above zero; freeing a position takes one off the count of each bucket it had passed. So
/// every member stays reachable from its bucket, and a removal frees its slot at once: no tombstone,
/// no rebuild, no member moved (which is what lets the window keep each member's slot).
///
/// Storage (the tail of the window's array, after its ring: ``appendStorage(entries:ringSize:to:)``;
/// every offset below is from the table's start): the `entries` slots, holding positions
/// (``PositionWindow/empty`` in a free one, so that it matches no member), starting `skew` slots in
/// (0 to 7: ``skew(of:)``, the first 64-byte boundary when the table is made, so that each bucket is one
/// cache line whatever the allocator's alignment); then one state word per bucket (bits 0-7: the free
/// slots; above: the overflow count); then, for each entry of the window's ring, the slot its position
/// is in. The skew is kept with the table, not found again from the storage's address: a copy of the
/// storage (an array copied on write when a window is copied) has the same layout at another address,
/// perhaps no longer aligned; it stays right, only its buckets may straddle two lines.
struct PositionBuckets {
  /// Positions in a bucket: one 64-byte cache line of `Int`s.
  static let width = 8
  /// A bucket state's free-slot bits.
  static let freeBits = 0xFF
  /// One overflow in a bucket state.
  static let overflowUnit = 0x100

  /// The first slot of bucket 0 (64-byte aligned in the storage the table was made in).
  let entries: UnsafeMutablePointer<Int>
  /// Each bucket's state: its free slots (bits 0-7) and the members that overflowed past it (above).
  let states: UnsafeMutablePointer<Int>
  /// For each index of the window's ring, the slot of the position there (for the empty marker,
  /// which the table does not hold: unused).
  let ringSlots: UnsafeMutablePointer<Int>
  /// The bucket count less one (the count is a power of two).
  let mask: Int
  let seed: UInt64

  /// The table stored in `storage` (made by ``appendStorage(entries:ringSize:to:)``) with `mask + 1`
  /// buckets, its slots `skew` slots in (``skew(of:)`` when it was made), hashed with `seed`.
  @inline(__always)
  init(_ storage: UnsafeMutableBufferPointer<Int>, mask: Int, skew: Int, seed: UInt64) {
    let base = storage.baseAddress!
    entries = base + skew
    states = base + (mask + 1) * Self.width + Self.width
    ringSlots = states + mask + 1
    self.mask = mask
    self.seed = seed
  }

  /// The slots to skip in `storage` to a 64-byte boundary (`Int`s are 8-byte aligned: 0 to 7), for
  /// the table made in it.
  static func skew(of storage: UnsafeMutableBufferPointer<Int>) -> Int {
    (0 &- (Int(bitPattern: storage.baseAddress!) >> 3)) & (width - 1)
  }

  /// The size of the storage of a table of `entries` slots for a window whose ring has `ringSize`
  /// entries (``appendStorage(entries:ringSize:to:)``).
  static func storageSize(entries: Int, ringSize: Int) -> Int {
    entries + width + entries / width + ringSize
  }

  /// Appends to `storage` the storage of an empty table of `entries` slots (a power of two, at least
  /// ``width``) for a window whose ring has `ringSize` entries: every slot free, no overflow.
  static func appendStorage(entries: Int, ringSize: Int, to storage: inout [Int]) {
    storage.append(contentsOf: repeatElement(PositionWindow.empty, count: entries + width))
    storage.append(contentsOf: repeatElement(freeBits, count: entries / width))
    storage.append(contentsOf: repeatElement(0, count: ringSize))
  }

  /// The bucket `position` hashes to.
  @inline(__always)
  func home(_ position: Int) -> Int { PositionWindow.mix(position, seed: seed) & mask }

  /// Bit `i` set when slot `i` of `bucket` holds `position`.
  @inline(__always)
  func lanes(of bucket: Int, holding position: Int) -> UInt32 {
    let slots = entries + bucket &* Self.width
    var bits: UInt32 = 0
    for lane in 0..<Self.width { bits |= UInt32(truncatingIfNeeded: (slots[lane] == position) ? 1 : 0) << lane }
    return bits
  }

  /// The slot holding `position`, if it is a member (an index into ``entries``).
  ///
  /// The common cases (found in its own bucket, or absent from a bucket nothing overflowed past) are
  /// in line; the walk past overflowed buckets is out of line (``slotPast(_:)``), so that the code
  /// inlined into a frame's loop stays small.
  @inline(__always)
  func slot(of position: Int) -> Int? {
    let bucket = home(position)
    let held = lanes(of: bucket, holding: position)
    if held != 0 { return bucket &* Self.width + held.trailingZeroBitCount }
    return states[bucket] < Self.overflowUnit ? nil : slotPast(position)
  }

  /// ``slot(of:)`` of a position not in its own bucket, which has overflowed: the buckets past it,
  /// while each has overflowed in turn.
  @inline(never)
  func slotPast(_ position: Int) -> Int? {
    var bucket = home(position)
    // At most every bucket once: the counts cannot send a lookup round the table forever.
    for _ in 0...mask {
      let held = lanes(of: bucket, holding: position)
      if held != 0 { return bucket &* Self.width + held.trailingZeroBitCount }
      if states[bucket] < Self.overflowUnit { return nil }
      bucket = (bucket + 1) & mask
    }
    return nil
  }

  /// Whether `position` is a member.
  func contains(_ position: Int) -> Bool { slot(of: position) != nil }

  /// Puts `position` (not the empty marker) in the table and returns its slot; `nil` when it was
  /// there. The table must have a free slot (it is at most half full).
  @inline(__always)
  func insert(_ position: Int) -> Int? {
    let bucket = home(position)
    if lanes(of: bucket, holding: position) != 0 { return nil }
    let state = states[bucket]
    // Not overflowed (nothing above the free bits) and a slot free: 1...0xFF.
    guard UInt(bitPattern: state &- 1) < UInt(Self.freeBits) else { return insertPast(position) }
    // The first free slot, and the state without it (its lowest set bit cleared).
    let lane = state.trailingZeroBitCount
    states[bucket] = state & (state &- 1)
    let slot = bucket &* Self.width + lane
    entries[slot] = position
    return slot
  }

  /// ``insert(_:)`` of a position whose bucket is full or has overflowed (out of line: about one in
  /// fifty): looked for past it, else put in the first bucket with a free slot, each full bucket
  /// passed counting one more overflow.
  @inline(never)
  func insertPast(_ position: Int) -> Int? {
    if slotPast(position) != nil { return nil }
    var bucket = home(position)
    while true {
      let free = states[bucket] & Self.freeBits
      if free != 0 {
        let lane = free.trailingZeroBitCount
        states[bucket] &= ~(1 << lane)
        let slot = bucket &* Self.width + lane
        entries[slot] = position
        return slot
      }
      states[bucket] += Self.overflowUnit
      bucket = (bucket + 1) & mask
    }
  }

  /// Frees `slot`, which holds the member `position`.
  @inline(__always)
  func free(_ slot: Int, holding position: Int) {
    entries[slot] = PositionWindow.empty
    let bucket = slot / Self.width
    states[bucket] |= 1 << (slot & (Self.width - 1))
    if home(position) != bucket { uncount(position, past: bucket) }
  }

  /// One overflow less on each bucket a member in `bucket` had passed, from its own (out of line:
  /// rare).
  @inline(never)
  func uncount(_ position: Int, past bucket: Int) {
    var passed = home(position)
    while passed != bucket {
      states[passed] -= Self.overflowUnit
      passed = (passed + 1) & mask
    }
  }

  /// Takes `position` (not the empty marker) out of the table, if there.
  func remove(_ position: Int) {
    if let slot = slot(of: position) { free(slot, holding: position) }
  }
}

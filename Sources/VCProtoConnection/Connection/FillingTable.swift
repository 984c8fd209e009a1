/// The hash table of a ``PositionWindow`` whose ring has not yet reached its capacity: flat open
/// addressing with linear probing, at most half full, and insert only.
///
/// A window still filling its ring never forgets a position (only a full window evicts its oldest),
/// so its table needs no deletion, and a fresh table's probe mostly ends on the first slot: an
/// insert is a hash, a compare or two and a store, cheaper than a bucket's compares, state word and
/// ring reads (``PositionBuckets``). That is every window of a session's first frames, such as the one
/// history frame a client reads on first contact (Benchmarks/RESULTS.md, "Session 45"). When the
/// ring grows to its capacity the window builds its ``PositionBuckets`` instead, whose entries never
/// move, for a full window's eviction on every insert.
///
/// Storage: a power of two of slots (at least 16), the tail of the window's array after its ring;
/// ``PositionWindow/empty`` marks a free one. The buffer given is exactly the table's slots: its count
/// less one is the mask.
enum FillingTable {
  /// Appends to `storage` the storage of an empty table of `entries` slots.
  static func appendStorage(entries: Int, to storage: inout [Int]) {
    storage.append(contentsOf: repeatElement(PositionWindow.empty, count: entries))
  }

  /// The slot of `table` holding `position`, or the free slot where it would go (the table has a
  /// free slot: it is at most half full).
  @inline(__always)
  static func find(_ position: Int, in table: UnsafeBufferPointer<Int>, seed: UInt64) -> Int {
    let mask = table.count - 1
    var slot = PositionWindow.mix(position, seed: seed) & mask
    while true {
      let held = table[slot]
      if held == position || held == PositionWindow.empty { return slot }
      slot = (slot + 1) & mask
    }
  }

  /// Whether `position` (not the empty marker) is in `table`.
  static func contains(_ position: Int, in table: UnsafeBufferPointer<Int>, seed: UInt64) -> Bool {
    table[find(position, in: table, seed: seed)] == position
  }

  /// Puts `position` (not the empty marker) in `table`; `false` when it was there.
  @inline(__always)
  static func insert(_ position: Int, into table: UnsafeMutableBufferPointer<Int>, seed: UInt64) -> Bool {
    let slot = find(position, in: UnsafeBufferPointer(table), seed: seed)
    guard table[slot] == PositionWindow.empty else { return false }
    table[slot] = position
    return true
  }
}

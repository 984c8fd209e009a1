import VCProtoCore
import VCProtoJSON

/// The positions a subscription has delivered, remembering at most `capacity` of them and forgetting
/// the oldest insertion first (what ``BoundedSet`` does, specialised for `Int` on the per-message
/// path).
///
/// A ring buffer of the same capacity holds the positions in insertion order. While every position
/// has been greater than the one before (what a server sends: `seq` and `offset` grow, so a live
/// session only ever appends), the ring is sorted and is all there is: an insert compares with the
/// newest position and appends, and a lookup is a binary search. The first insert that breaks the
/// order (a re-subscribe from an earlier position, a server that reorders), or a frame of positions
/// in no order (0.2.0/0.3.0 uuid hashes: ``insertEach(_:unordered:position:outcome:)``), adds a hash
/// table, built from the ring and kept after it in the same array, until ``removeAll()``: while the ring has not reached the
/// capacity nothing is ever forgotten, and the table is insert-only linear probing (``FillingTable``);
/// from then on (rebuilt when the ring grows to the capacity) it is ``PositionBuckets``, buckets of
/// fifteen entries that note each member's ring place and a tag of its hash (16 KiB for 2,048
/// positions), where the oldest is found by its place and freed on every insert. The filling table
/// is at most half full, the buckets at most 8/15. Ring and table grow by doubling up to their bound
/// (`capacity` positions), so a window that sees few messages stays small.
///
/// Hashing mixes the position with a per-process random seed (taken from `Hasher`), so a peer that
/// chooses `seq`/`offset` values cannot aim them at one bucket without the seed. The mix is a
/// multiply-fold, not a keyed hash like SipHash; at worst a lookup walks the table, whose size the
/// window bounds (`PositionBucketsTests` aims positions at one bucket, knowing the seed). The sorted
/// ring hashes nothing: a peer's positions cost it at most a binary search.
struct PositionWindow: Sendable {
  let capacity: Int
  /// The ring, then the table's storage, in one allocation (made, filled and freed once for both: a
  /// new 0.2.0/0.3.0 session's first frame makes both).
  ///
  /// The ring (`storage[..<ringSize]`): insertion order, oldest at `head`; `count` entries are live,
  /// all of them members. The table's storage (`storage[ringSize...]`, a ``FillingTable``'s or
  /// ``PositionBuckets``'), none while ``ascending``. Neither table holds `PositionWindow.empty`
  /// (a filling table's free slot; the position `Int.min` itself is kept in ``holdsEmptyMarker``).
  private var storage: [Int] = []
  /// The ring's size.
  private var ringSize = 0
  private var head = 0
  private(set) var count = 0
  /// The live positions, oldest first, are strictly increasing: there is no table.
  private var ascending = true
  private var holdsEmptyMarker = false
  /// The bucket count less one of a ``PositionBuckets`` table (with a ``FillingTable``: unused).
  private var bucketMask = 0
  /// Where a ``PositionBuckets`` table's buckets start in its storage (``PositionBuckets/skew(of:)`` when
  /// it was made; kept, since a copy of the storage may lie at another alignment).
  private var bucketSkew = 0

  /// The free slot's mark in the table, and the one position the table does not hold.
  static let empty = Int.min
  /// ``processSeed``, kept by each window: reading the lazily made global on every insert cost a
  /// `swift_once` check and call each time.
  private let seed: UInt64
  /// The process's seed for the windows' hashing: from `Hasher`, random for each process (a constant
  /// when the environment sets `SWIFT_DETERMINISTIC_HASHING`, as it does for every `Set` and
  /// `Dictionary`: then a peer that knows it can aim positions at one bucket, at worst a walk of the
  /// table per insert).
  static let processSeed: UInt64 = {
    var hasher = Hasher()
    hasher.combine(0x5EED as UInt64)
    return UInt64(UInt(bitPattern: hasher.finalize()))
  }()

  /// `position` mixed with `seed`: a multiply-fold, the hash both tables mask to their size.
  @inline(__always)
  static func mix(_ position: Int, seed: UInt64) -> Int {
    let mixed = (UInt64(UInt(bitPattern: position)) ^ seed).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
    return Int(truncatingIfNeeded: mixed.high ^ mixed.low)
  }

  /// The most positions a window remembers: 2^24 (16,777,216), so that a ``PositionBuckets`` entry
  /// keeps at least 8 bits of tag beside the ring place.
  static let maxCapacity = 1 << 24

  /// A window remembering `capacity` positions (at least one, at most ``maxCapacity``); `seed` mixes
  /// their hashes (the process's own unless a test needs to aim positions at one bucket).
  init(capacity: Int, seed: UInt64 = processSeed) {
    self.capacity = min(Self.maxCapacity, max(1, capacity))
    self.seed = seed
  }

  func contains(_ position: Int) -> Bool {
    if ascending { return sortedIndex(of: position) != nil }
    if position == Self.empty { return holdsEmptyMarker }
    guard storage.count > ringSize else { return false }
    let size = ringSize
    return storage.withUnsafeBufferPointer { all in
      let table = UnsafeBufferPointer(rebasing: all[size...])
      if isFilling { return FillingTable.contains(position, in: table, seed: seed) }
      return PositionBuckets(
        UnsafeMutableBufferPointer(mutating: table),
        ring: UnsafeMutableBufferPointer(mutating: UnsafeBufferPointer(rebasing: all[..<size])), mask: bucketMask,
        skew: bucketSkew, seed: seed
      )
      .contains(position)
    }
  }

  /// Makes room for `additional` more positions (up to the capacity) in one step, at least doubling
  /// the ring when it grows (a session that receives a few messages a frame copies its ring a
  /// logarithmic number of times, not once a frame).
  mutating func reserve(_ additional: Int) {
    let wanted = min(capacity, count + additional)
    if wanted > ringSize { grow(to: min(capacity, max(wanted, ringSize * 2))) }
  }

  /// Inserts `position`; `true` when it was not there (the oldest position is forgotten when full).
  ///
  /// The ring write and the probe go through unsafe buffers, taken once per insert (one uniqueness
  /// check of the storage instead of one per write, no bounds checks): every ring index is
  /// below the ring's size and every bucket index is masked by the bucket count (a power of two), so
  /// neither can leave its buffer.
  @discardableResult
  @inline(__always)
  mutating func insert(_ position: Int) -> Bool {
    // The common cases in line: sorted, and a position past the newest (a live session's next
    // message), with room in the ring, or in a full window (a session followed for long): one
    // write, no call. With the table, a position other than the empty marker and room in the ring
    // or a full window: one compact call (``insertHashed(_:)``).
    if ascending {
      if count == 0 || position > newest {
        if count < ringSize {
          appendWithRoom(position)
          return true
        }
        if count == capacity {
          overwriteOldest(position)
          return true
        }
      }
    } else if position != Self.empty, count < ringSize || count == capacity {
      return insertHashed(position)
    }
    return insertOtherwise(position)
  }

  /// ``insert(_:)`` when the ring is full or grows, the position is not past the newest, or the
  /// window has its table and the ring grows or the position is the empty marker.
  @inline(never)
  private mutating func insertOtherwise(_ position: Int) -> Bool {
    if ascending {
      if count == 0 || position > newest {
        append(position)
        return true
      }
      if sortedIndex(of: position) != nil { return false }
      makeTable()
    }
    if count == ringSize, count < capacity { grow(to: min(capacity, max(8, count * 2))) }
    return insertHashed(position)
  }

  /// ``insert(_:)`` into a window with its table and with
  /// room in the ring (`count < ringSize`) or full (`count == capacity`): ``insertHashed(_:into:_:_:_:)``
  /// over unsafe buffers taken once (one uniqueness check of the storage, no bounds checks: every bucket
  /// index is masked by the bucket count, a power of two, and every ring index is below the ring's size).
  @inline(never)
  private mutating func insertHashed(_ position: Int) -> Bool {
    var state = HashedState(self)
    let inserted = withRingAndTable { ring, table in
      Self.insertHashed(
        position, into: table,
        PositionBuckets(table, ring: ring, mask: state.mask, skew: state.skew, seed: state.seed), ring, &state)
    }
    state.store(in: &self)
    return inserted
  }

  /// Inserts the positions `position(0)`, `position(1)`, ... `position(count - 1)` in that order, as
  /// many ``insert(_:)`` calls would, and tells `outcome` each one's index and what its insert returned
  /// (`nil` for an index without a position, which is not inserted).
  ///
  /// A window with its table (a 0.2.0/0.3.0 session's, from its first frame) inserts them all in
  /// one loop over unsafe buffers taken once: made room for first (``reserve(_:)``), it cannot grow on
  /// the way, so every insert has room in the ring or finds the window full. Inlined into the loop of
  /// each family's `classify`, that is one uniqueness check of the storage for a frame's messages, where an
  /// insert each cost a call and two checks a message: on 0.2.0 steady history frames (about 12
  /// messages each) `classify` and the window's inserts fell from 2,609 to 2,123 instructions a frame
  /// (callgrind, `vcproto-bench engine-profile --protocol 0.2.0 --frames 4000 --only history`). A
  /// sorted window (positions that grow, 0.4.0/0.5.0) inserts them one by one, and so does a window
  /// until it makes its table.
  ///
  /// `unordered`: positions in no order (0.2.0/0.3.0 uuid hashes, which leave the sorted mode on a
  /// frame's second or third message), so that a sorted window leaves the sorted mode first: an empty
  /// one (each new session's, on its first frame) then makes its ring and table together, in one
  /// allocation, and takes every position of the frame one way.
  @inline(__always)
  mutating func insertEach(
    _ count: Int, unordered: Bool = false, position: (Int) -> Int?, outcome: (Int, Bool?) -> Void
  ) {
    if unordered, ascending, count > 0 {
      // A ring that `reserve` grows just below (an empty one among them) is made again with the table,
      // built from its live positions; only a ring with room for the frame makes its table now.
      if min(capacity, self.count + count) > ringSize { ascending = false } else { makeTable() }
    }
    reserve(count)
    // Sorted: one by one, until a position out of order makes the table (a window told nothing of the
    // order, whose positions stopped growing); the rest then go in as a window with its table takes them.
    var next = 0
    while ascending, next < count {
      outcome(next, position(next).map { insert($0) })
      next += 1
    }
    guard next < count else { return }
    var state = HashedState(self)
    withRingAndTable { ring, table in
      // (Made once for the frame; a filling table's storage has no buckets, and they are not read.)
      let buckets = PositionBuckets(table, ring: ring, mask: state.mask, skew: state.skew, seed: state.seed)
      for index in next..<count {
        outcome(
          index,
          position(index).map {
            state.filling && $0 != Self.empty
              ? Self.insertFilling($0, into: table, ring, &state)
              : Self.insertHashed($0, into: table, buckets, ring, &state)
          })
      }
    }
    state.store(in: &self)
  }

  /// What an insert into a window with its table changes besides its buffers, held in registers
  /// while a frame's positions go in (``insertEach(_:unordered:position:outcome:)``).
  private struct HashedState {
    var head: Int
    var count: Int
    var holdsEmptyMarker: Bool
    let capacity: Int
    let mask: Int
    let skew: Int
    let seed: UInt64
    /// The table is a ``FillingTable`` (the ring has not reached the capacity).
    let filling: Bool

    init(_ window: PositionWindow) {
      (head, count, holdsEmptyMarker) = (window.head, window.count, window.holdsEmptyMarker)
      (capacity, mask, skew) = (window.capacity, window.bucketMask, window.bucketSkew)
      (seed, filling) = (window.seed, window.isFilling)
    }

    func store(in window: inout PositionWindow) {
      (window.head, window.count, window.holdsEmptyMarker) = (head, count, holdsEmptyMarker)
    }
  }

  /// ``insertHashed(_:into:_:_:_:)`` of a position other than the empty marker into a window whose
  /// ring is still filling (never full: `count < ring.count`): a probe of the ``FillingTable`` and
  /// the ring write, in line in a frame's loop (a call for each was a third of a fresh window's cost).
  @inline(__always)
  private static func insertFilling(
    _ position: Int, into storage: UnsafeMutableBufferPointer<Int>, _ ring: UnsafeMutableBufferPointer<Int>,
    _ state: inout HashedState
  ) -> Bool {
    guard FillingTable.insert(position, into: storage, seed: state.seed) else { return false }
    _ = appendPastNewest(position, ring, &state)
    return true
  }

  /// Puts `position` in the place past the newest of a ring with room (`count < ring.count`) and
  /// returns that place.
  @inline(__always)
  private static func appendPastNewest(
    _ position: Int, _ ring: UnsafeMutableBufferPointer<Int>, _ state: inout HashedState
  ) -> Int {
    // `head` and `count` are below the ring's size: one subtraction wraps.
    let end = state.head + state.count
    let index = end < ring.count ? end : end - ring.count
    ring[index] = position
    state.count += 1
    return index
  }

  /// Inserts `position` into a window with its table whose ring has room (`count < ring.count`) or
  /// is full (`count == capacity`): one lookup (none for the empty marker, which is a flag); in a
  /// full window the oldest position (read in the ring) taken out of the table; then the ring write
  /// and, with buckets, the entry noting the position's place. `true` when it was not there.
  ///
  /// Out of line: inlined, it made the loop of ``insertEach(_:unordered:position:outcome:)`` too big to be
  /// inlined into the engine's `classify`, whose position and outcome closures were then called
  /// indirectly for every message.
  @inline(never)
  private static func insertHashed(
    _ position: Int, into storage: UnsafeMutableBufferPointer<Int>, _ table: PositionBuckets,
    _ ring: UnsafeMutableBufferPointer<Int>, _ state: inout HashedState
  ) -> Bool {
    let marker = position == empty
    if marker {
      if state.holdsEmptyMarker { return false }
      state.holdsEmptyMarker = true
    } else if state.filling {
      // Never full while filling (`count < ring.count < capacity`): nothing to free.
      guard FillingTable.insert(position, into: storage, seed: state.seed) else { return false }
      _ = appendPastNewest(position, ring, &state)
      return true
    } else if table.contains(position) {
      return false
    }
    let (head, count) = (state.head, state.count)
    guard count == state.capacity else {
      let place = appendPastNewest(position, ring, &state)
      if !marker { table.add(position, place: place) }
      return true
    }
    // Full: the oldest's place, `head`, freed (its entry found by its tag and place, from its bucket)
    // and taken.
    let oldest = ring[head]
    if oldest == empty { state.holdsEmptyMarker = false } else { table.remove(oldest, place: head) }
    ring[head] = position
    if !marker { table.add(position, place: head) }
    state.head = head + 1 == count ? 0 : head + 1
    return true
  }

  /// Forgets every position matching `predicate`, keeping the others in their order.
  mutating func removeAll(where predicate: (Int) -> Bool) {
    let kept = ordered.filter { !predicate($0) }
    guard kept.count != count else { return }
    removeAll()
    reserve(kept.count)
    for position in kept { insert(position) }
  }

  mutating func removeAll() {
    storage = []
    ringSize = 0
    bucketMask = 0
    bucketSkew = 0
    head = 0
    count = 0
    ascending = true
    holdsEmptyMarker = false
  }

  /// Entries allocated (ring and table), for the bound tests.
  var storageSlots: Int { storage.count }

  /// The live positions, oldest first.
  var ordered: [Int] {
    (0..<count).map { storage[(head + $0) % ringSize] }
  }

  // MARK: ring

  /// The newest live position (`count > 0`).
  private var newest: Int {
    let end = head + count - 1
    return storage[end < ringSize ? end : end - ringSize]
  }

  /// Puts `position` last in the ring (growing it, or overwriting the oldest when full) and returns
  /// the position it overwrote.
  @discardableResult
  private mutating func append(_ position: Int) -> Int? {
    if count == ringSize, count < capacity { grow(to: min(capacity, max(8, count * 2))) }
    if count == capacity {
      let oldest = storage[head]
      overwriteOldest(position)
      return oldest
    }
    appendWithRoom(position)
    return nil
  }

  /// Puts `position` last in a full ring (`count == capacity`), in place of the oldest.
  @inline(__always)
  private mutating func overwriteOldest(_ position: Int) {
    // `head` is below the ring's size (`capacity` when full).
    let start = head
    storage.withUnsafeMutableBufferPointer { ring in ring[start] = position }
    head = start + 1 == capacity ? 0 : start + 1
  }

  /// Puts `position` last in a ring with room for it (`count < ringSize`).
  @inline(__always)
  private mutating func appendWithRoom(_ position: Int) {
    // `head` and `count` are both below `ringSize` here: one subtraction wraps (no division).
    let (end, size) = (head + count, ringSize)
    storage.withUnsafeMutableBufferPointer { all in all[end < size ? end : end - size] = position }
    count += 1
  }

  /// While ``ascending``: the age (0 = oldest) of `position` among the live positions, by binary search.
  private func sortedIndex(of position: Int) -> Int? {
    var low = 0
    var high = count
    while low < high {
      let middle = low + (high - low) / 2
      let index = head + middle
      let held = storage[index < ringSize ? index : index - ringSize]
      if held < position {
        low = middle + 1
      } else if held > position {
        high = middle
      } else {
        return middle
      }
    }
    return nil
  }

  // MARK: table

  /// Leaves the sorted mode: the table, built from the live positions, read in place in the ring (no
  /// copy of the positions, no generic allocation), and appended to the storage (which grows once:
  /// only ``grow(to:)`` reserves room for a table).
  private mutating func makeTable() {
    ascending = false
    rebuildTable()
  }

  /// Makes the table for the ring as it is (its size, its live positions): on leaving the sorted
  /// mode, and whenever the ring grows (to a ``PositionBuckets`` when it reaches the capacity). The
  /// storage holds the ring alone; the table goes after it, in the
  /// same allocation when ``grow(to:)`` reserved the room (else the storage grows once). Read in
  /// place in the ring: no copy of the positions, no generic allocation.
  private mutating func rebuildTable() {
    assert(storage.count == ringSize, "a table made over another")
    let (start, live, seed, size, filling) = (head, count, self.seed, ringSize, isFilling)
    let buckets = PositionBuckets.bucketCount(ringSize: size)
    let mask = buckets - 1
    storage.reserveCapacity(size + tableStorageSize(ringSize: size))
    if filling {
      FillingTable.appendStorage(entries: Self.tableSize(for: size), to: &storage)
    } else {
      storage.append(contentsOf: repeatElement(0, count: PositionBuckets.storageSize(buckets: buckets)))
    }
    var marker = false
    var skew = 0
    withRingAndTable { ring, table in
      // Visits the live positions, oldest first, with their places in the ring, read in place.
      func eachLive(_ body: (Int, Int) -> Void) {
        // `start` and `live` are within the ring (both below its size): one subtraction wraps.
        for age in 0..<live {
          let index = start + age
          let wrapped = index < size ? index : index - size
          if ring[wrapped] == Self.empty { marker = true } else { body(ring[wrapped], wrapped) }
        }
      }
      if filling {
        eachLive { position, _ in _ = FillingTable.insert(position, into: table, seed: seed) }
      } else {
        skew = PositionBuckets.skew(of: table)
        PositionBuckets.format(table, buckets: buckets)
        let table = PositionBuckets(table, ring: ring, mask: mask, skew: skew, seed: seed)
        eachLive { position, place in table.add(position, place: place) }
      }
    }
    bucketMask = mask
    bucketSkew = skew
    holdsEmptyMarker = marker
  }

  /// `body` given the ring and the table's storage (empty while ``ascending``), after one uniqueness
  /// check of their storage.
  @inline(__always)
  private mutating func withRingAndTable<Result>(
    _ body: (UnsafeMutableBufferPointer<Int>, UnsafeMutableBufferPointer<Int>) -> Result
  ) -> Result {
    let size = ringSize
    return storage.withUnsafeMutableBufferPointer { all in
      body(UnsafeMutableBufferPointer(rebasing: all[..<size]), UnsafeMutableBufferPointer(rebasing: all[size...]))
    }
  }

  /// The window has a ``FillingTable`` (its ring has not reached the capacity: nothing has been
  /// evicted), else ``PositionBuckets``.
  private var isFilling: Bool { ringSize < capacity }

  /// The size of a ``FillingTable`` for a ring of `ringSize` entries: the next power of two at least
  /// twice that (16 at least).
  private static func tableSize(for ringSize: Int) -> Int {
    var size = 16
    while size < ringSize * 2 { size *= 2 }
    return size
  }

  /// The storage the table of a ring of `ringSize` places takes: a ``FillingTable``'s while the ring
  /// is below the capacity, else ``PositionBuckets``'.
  private func tableStorageSize(ringSize: Int) -> Int {
    ringSize < capacity
      ? Self.tableSize(for: ringSize)
      : PositionBuckets.storageSize(buckets: PositionBuckets.bucketCount(ringSize: ringSize))
  }

  /// Resizes the ring to `newCapacity` entries (oldest first) and, past the sorted mode, the table to
  /// match, both in one new allocation.
  private mutating func grow(to newCapacity: Int) {
    let (start, live, size) = (head, count, ringSize)
    // Reserved, then appended to: `reserveCapacity` allocates through code specialised for `Int`, where
    // `init(repeating:count:)` and `init(unsafeUninitializedCapacity:)` call the standard library's
    // generic allocation (a metadata lookup: about five hundred instructions for each new
    // subscription's first window).
    var fresh: [Int] = []
    fresh.reserveCapacity(newCapacity + (ascending ? 0 : tableStorageSize(ringSize: newCapacity)))
    if live > 0 {
      storage.withUnsafeBufferPointer { old in
        // `start` and `live` are within the ring (both below its size): the live entries are at most
        // two runs, each copied at once (a copy of one entry at a time ran once per entry: about ten
        // instructions each, thousands per window grown).
        let first = min(live, size - start)
        fresh.append(contentsOf: UnsafeBufferPointer(rebasing: old[start..<(start + first)]))
        fresh.append(contentsOf: UnsafeBufferPointer(rebasing: old[0..<(live - first)]))
      }
    }
    fresh.append(contentsOf: repeatElement(0, count: newCapacity - live))
    storage = consume fresh  // (not a copy: the storage stays unique, and the table goes in its room)
    ringSize = newCapacity
    head = 0
    if !ascending { rebuildTable() }
  }
}

extension PositionWindow: Hashable {
  /// Equal when the capacity and the live positions, in insertion order, are equal.
  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.capacity == rhs.capacity && lhs.count == rhs.count && lhs.ordered == rhs.ordered
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(capacity)
    hasher.combine(ordered)
  }
}

/// The hash table of a ``PositionWindow`` whose ring has reached its capacity: open addressing over
/// buckets of one 64-byte cache line, each a state word and fifteen 32-bit entries, every entry a
/// ring place and a tag of the position's hash (the position itself is read in the ring).
///
/// Why so small. A full window's insert touches its table at two random places (the new position's
/// bucket, the oldest position's), so the table's size decides how many of those miss the cache; and
/// a client follows several sessions, each with its own window. A table of the positions themselves
/// (8 bytes a slot, at most half full) and a note of each ring place's slot took 52 KiB of a
/// 2,048-position window besides its ring; this one takes 16 KiB. With the windows of four sessions
/// followed, the smaller window was about two points cheaper over decoding on 0.2.0 steady traffic
/// (Benchmarks/RESULTS.md, "Session 47").
///
/// An entry is `tag << placeBits | place`: the ring place (below the ring's size, `placeBits` bits)
/// and the top `32 - placeBits` bits of the position's hash (at least 8: ``PositionWindow/maxCapacity``).
/// A lookup compares the tags of its bucket's occupied entries (all fifteen at once: the branches
/// almost always go the same way) and reads the ring only for an entry whose tag matches, so a
/// position is found or not by its exact value, never by its hash. Removal looks for the exact entry
/// (the place is unique among the members), and needs no ring read.
///
/// Buckets. A position goes into its bucket's first free entry (from the bucket's free mask: no
/// search). With at least one bucket for every eight ring places (at most 8/15 full: eight members a
/// bucket on average at the default 2,048 positions), a bucket is full about one time in sixty.
///
/// Overflow. A position whose bucket is full goes in the next bucket with a free entry (wrapping),
/// and every full bucket it passed counts one more overflow. A lookup moves past a bucket only while
/// its count is above zero; freeing an entry takes one off the count of each bucket it had passed. So
/// every member stays reachable from its bucket, and a removal frees its entry at once: no tombstone,
/// no rebuild, no member moved. A count that reaches its maximum (``overflowMax``, only ever under
/// positions aimed at one bucket) stays there: a count never falls below the members that passed,
/// at worst a lookup walks on.
///
/// Storage (the tail of the window's array, after its ring: ``storageSize(buckets:)`` `Int`s, zeros,
/// then ``format(_:buckets:)``): the buckets, starting `skew` `Int`s in (0 to 7: ``skew(of:)``, the
/// first 64-byte boundary when the table is made, so that each bucket is one cache line whatever the
/// allocator's alignment). In each bucket, 32-bit word 0 is the state (bits 0-14: the free entries;
/// above: the overflow count) and words 1-15 the entries. The words are read and written as raw
/// memory (`load` and `storeBytes` of `UInt32` on the `Int`s' bytes: trivial values, the raw-memory
/// way to view them otherwise; rebinding the memory for each frame's loop would say the same with
/// more nesting). The skew is kept with the table, not found again from the storage's address: a copy of
/// the storage (an array copied on write when a window is copied) has the same layout at another
/// address, perhaps no longer aligned; it stays right, only its buckets may straddle two lines.
struct PositionBuckets {
  /// Entries in a bucket (after its state word).
  static let width = 15
  /// A bucket in 32-bit words: its state and its entries, one 64-byte cache line.
  static let words = 16
  /// A bucket in the window's `Int`s (8 where `Int` is 64 bits).
  static let ints = 64 / MemoryLayout<Int>.stride
  /// A bucket state's free-entry bits (bit `i`: entry `i`, word `i + 1`).
  static let freeBits: UInt32 = 0x7FFF
  /// One overflow in a bucket state.
  static let overflowUnit: UInt32 = 0x8000
  /// The largest overflow count a state holds (and keeps).
  static let overflowMax: UInt32 = 0xFFFF_8000

  /// Bucket 0's first word (64-byte aligned in the storage the table was made in).
  let base: UnsafeMutableRawPointer
  /// The window's ring: the position at each place.
  let ring: UnsafeMutablePointer<Int>
  /// The bucket count less one (the count is a power of two).
  let mask: Int
  let seed: UInt64
  /// The bits of an entry's place (enough for every place of the ring).
  let placeBits: UInt32

  /// The table stored in `storage` with `mask + 1` buckets, starting `skew` `Int`s in (``skew(of:)``
  /// when it was made), for the window whose ring is `ring`, hashed with `seed`.
  @inline(__always)
  init(
    _ storage: UnsafeMutableBufferPointer<Int>, ring: UnsafeMutableBufferPointer<Int>, mask: Int, skew: Int,
    seed: UInt64
  ) {
    base = UnsafeMutableRawPointer(storage.baseAddress! + skew)
    self.ring = ring.baseAddress!
    self.mask = mask
    self.seed = seed
    placeBits = Self.placeBits(ringSize: ring.count)
  }

  /// The bits a place of a ring of `ringSize` places takes (one at least).
  static func placeBits(ringSize: Int) -> UInt32 {
    UInt32(max(1, Int.bitWidth - (ringSize - 1).leadingZeroBitCount))
  }

  /// The buckets of a table for a ring of `ringSize` places: the power of two at least one for every
  /// eight places.
  static func bucketCount(ringSize: Int) -> Int {
    var count = 1
    while count * 8 < ringSize { count *= 2 }
    return count
  }

  /// The `Int`s of the storage of a table of `buckets` buckets, room to align them included.
  static func storageSize(buckets: Int) -> Int {
    buckets * ints + ints
  }

  /// The `Int`s to skip in `storage` to a 64-byte boundary (fewer than a bucket's: `Int`s are
  /// aligned to their size), for the table made in it.
  static func skew(of storage: UnsafeMutableBufferPointer<Int>) -> Int {
    (0 &- Int(bitPattern: storage.baseAddress!) / MemoryLayout<Int>.stride) & (ints - 1)
  }

  /// Makes the zeroed storage of a table of `buckets` buckets, at `table`'s skew, an empty table:
  /// every entry free, no overflow.
  static func format(_ table: UnsafeMutableBufferPointer<Int>, buckets: Int) {
    let base = UnsafeMutableRawPointer(table.baseAddress! + skew(of: table))
    for bucket in 0..<buckets { base.storeBytes(of: freeBits, toByteOffset: bucket &* words &* 4, as: UInt32.self) }
  }

  // MARK: words

  @inline(__always)
  func state(_ bucket: Int) -> UInt32 { base.load(fromByteOffset: bucket &* Self.words &* 4, as: UInt32.self) }

  @inline(__always)
  func setState(_ bucket: Int, _ state: UInt32) {
    base.storeBytes(of: state, toByteOffset: bucket &* Self.words &* 4, as: UInt32.self)
  }

  /// Entry `lane` (0 to 14) of `bucket`.
  @inline(__always)
  func entry(_ bucket: Int, _ lane: Int) -> UInt32 {
    base.load(fromByteOffset: (bucket &* Self.words &+ 1 &+ lane) &* 4, as: UInt32.self)
  }

  @inline(__always)
  func setEntry(_ bucket: Int, _ lane: Int, _ entry: UInt32) {
    base.storeBytes(of: entry, toByteOffset: (bucket &* Self.words &+ 1 &+ lane) &* 4, as: UInt32.self)
  }

  // MARK: hashing

  /// `position`'s hash: its bucket is the low bits, its tag the high ones.
  @inline(__always)
  func hash(_ position: Int) -> UInt { UInt(bitPattern: PositionWindow.mix(position, seed: seed)) }

  /// The bucket of a hash: its low bits.
  @inline(__always)
  func bucket(of hash: UInt) -> Int { Int(bitPattern: hash) & mask }

  /// The bucket `position` hashes to.
  @inline(__always)
  func home(_ position: Int) -> Int { bucket(of: hash(position)) }

  /// The tag of a hash: its top `32 - placeBits` bits.
  @inline(__always)
  func tag(_ hash: UInt) -> UInt32 { UInt32(truncatingIfNeeded: hash &>> (32 &+ UInt(placeBits))) }

  /// The entry of a member whose hash is `h`, at ring place `place`: `tag << placeBits | place`.
  @inline(__always)
  func entry(hash h: UInt, place: Int) -> UInt32 { tag(h) &<< placeBits | UInt32(truncatingIfNeeded: place) }

  /// Bit `i` set when entry `i` of `bucket` is occupied and holds `tag`.
  @inline(__always)
  func lanes(of bucket: Int, tagged tag: UInt32) -> UInt32 {
    let placeBits = placeBits
    return occupied(bucket) { $0 &>> placeBits == tag }
  }

  /// Bit `i` set when entry `i` of `bucket` is occupied and is `entry`.
  @inline(__always)
  func exact(_ entry: UInt32, in bucket: Int) -> UInt32 {
    occupied(bucket) { $0 == entry }
  }

  /// Bit `i` set when entry `i` of `bucket` is occupied and `test` accepts it. (A loop of plain
  /// compares: the compiler makes it a few vector compares.)
  @inline(__always)
  func occupied(_ bucket: Int, _ test: (UInt32) -> Bool) -> UInt32 {
    var bits: UInt32 = 0
    for lane in 0..<Self.width { bits |= UInt32(truncatingIfNeeded: test(entry(bucket, lane)) ? 1 : 0) << lane }
    return bits & ~state(bucket) & Self.freeBits
  }

  // MARK: lookup

  /// Whether `position` (not ``PositionWindow/empty``) is a member.
  ///
  /// The common cases (found in its own bucket, or absent from a bucket nothing overflowed past) are
  /// in line; the walk past overflowed buckets is out of line (``containsPast(_:)``), so that the
  /// code inlined into a frame's loop stays small.
  @inline(__always)
  func contains(_ position: Int) -> Bool {
    let h = hash(position)
    let bucket = bucket(of: h)
    let matches = lanes(of: bucket, tagged: tag(h))
    if matches != 0, holds(position, in: bucket, matches) { return true }
    return state(bucket) < Self.overflowUnit ? false : containsPast(position)
  }

  /// Whether an entry of `matches` (lanes of `bucket` with `position`'s tag) has `position` at its
  /// ring place (a tag matches a non-member about once in 2^(32 - placeBits)).
  @inline(__always)
  func holds(_ position: Int, in bucket: Int, _ matches: UInt32) -> Bool {
    let placeMask = (UInt32(1) &<< placeBits) &- 1
    var matches = matches
    while matches != 0 {
      let lane = matches.trailingZeroBitCount
      if ring[Int(entry(bucket, lane) & placeMask)] == position { return true }
      matches &= matches &- 1
    }
    return false
  }

  /// ``contains(_:)`` of a position not in its own bucket, which has overflowed: the buckets past
  /// it, while each has overflowed in turn.
  @inline(never)
  func containsPast(_ position: Int) -> Bool {
    let h = hash(position)
    let tag = tag(h)
    var bucket = bucket(of: h)
    // At most every bucket once: the counts cannot send a lookup round the table forever.
    for _ in 0...mask {
      if holds(position, in: bucket, lanes(of: bucket, tagged: tag)) { return true }
      if state(bucket) < Self.overflowUnit { return false }
      bucket = (bucket &+ 1) & mask
    }
    return false
  }

  // MARK: changes

  /// Puts `position` (not ``PositionWindow/empty``, not a member), which is at ring place `place`, in
  /// the table. The table must have a free entry (it is at most 8/15 full).
  @inline(__always)
  func add(_ position: Int, place: Int) {
    let h = hash(position)
    let bucket = bucket(of: h)
    let entry = entry(hash: h, place: place)
    let state = state(bucket)
    // Not overflowed (nothing above the free bits) and an entry free: 1...0x7FFF.
    guard state &- 1 < Self.freeBits else { return addPast(entry, from: bucket) }
    // The first free entry, and the state without it (its lowest set bit cleared).
    setState(bucket, state & (state &- 1))
    setEntry(bucket, state.trailingZeroBitCount, entry)
  }

  /// ``add(_:place:)`` of an entry whose bucket is full or has overflowed (out of line: about one in
  /// sixty): put in the first bucket with a free entry, each full bucket passed counting one more
  /// overflow.
  @inline(never)
  func addPast(_ entry: UInt32, from home: Int) {
    var bucket = home
    while true {
      let state = state(bucket)
      let free = state & Self.freeBits
      if free != 0 {
        setState(bucket, state & ~(1 << free.trailingZeroBitCount))
        setEntry(bucket, free.trailingZeroBitCount, entry)
        return
      }
      if state < Self.overflowMax { setState(bucket, state &+ Self.overflowUnit) }
      bucket = (bucket &+ 1) & mask
    }
  }

  /// Takes out the member `position` (not ``PositionWindow/empty``), at ring place `place`: its entry,
  /// looked for from its bucket on (it is there: no ring read), freed, and the overflow it counted
  /// taken off the buckets it passed.
  @inline(__always)
  func remove(_ position: Int, place: Int) {
    let h = hash(position)
    let home = bucket(of: h)
    let entry = entry(hash: h, place: place)
    let lanes = exact(entry, in: home)
    guard lanes != 0 else { return removePast(entry, from: home) }
    setState(home, state(home) | (1 << lanes.trailingZeroBitCount))
  }

  /// ``remove(_:place:)`` of an entry past its bucket (out of line: rare): freed where it is, one
  /// overflow less on each bucket it passed (a count at its maximum stays).
  @inline(never)
  func removePast(_ entry: UInt32, from home: Int) {
    var bucket = (home &+ 1) & mask
    var found: UInt32 = 0
    for _ in 0..<mask {
      found = exact(entry, in: bucket)
      if found != 0 { break }
      bucket = (bucket &+ 1) & mask
    }
    guard found != 0 else {
      assertionFailure("a member not in its table")
      return
    }
    setState(bucket, state(bucket) | (1 << found.trailingZeroBitCount))
    var passed = home
    while passed != bucket {
      let state = state(passed)
      if state < Self.overflowMax { setState(passed, state &- Self.overflowUnit) }
      passed = (passed &+ 1) & mask
    }
  }
}

/// The open-addressing index behind ``SessionTable`` and ``SessionIDSet``: it maps a hash to the
/// position of an entry kept densely by its owner.
///
/// Linear probing over a power-of-two number of slots, kept at least twice the number of entries by
/// the owner (``needsRoom(for:)``), with backward-shift deletion. Each slot holds the entry's position
/// plus one (low 32 bits; `0` is a free slot) under the low 32 bits of its hash, so a probe compares
/// hashes without touching entries and a deletion finds every entry's home slot without hashing
/// anything. The owner compares its keys: ``slot(for:matches:)`` asks it about each entry whose hash
/// tag is the same.
struct ProbeIndex: Sendable {
  /// `0`: free; otherwise ``slotValue(_:hash:)``.
  private var slots: [UInt64] = []

  /// Whether an index that holds `count` entries needs more slots before it takes one more.
  @inline(__always)
  func needsRoom(for count: Int) -> Bool { (count + 1) * 2 > slots.count }

  /// The slot holding the entry `matches` accepts among those whose hash tag is `hash`'s, or the free
  /// slot that ends `hash`'s probe run (the index has slots). `matches` gets the entry's position.
  @inline(__always)
  func slot(for hash: Int, matches: (Int) -> Bool) -> Int {
    let tag = Self.tag(hash)
    return slots.withUnsafeBufferPointer { slots in
      Self.probe(slots, from: hash) { held in
        held == 0 || (held >> 32 == tag && matches(Self.entry(in: held)))
      }
    }
  }

  /// The slot holding the entry `matches` accepts, if any.
  @inline(__always)
  func occupiedSlot(for hash: Int, matches: (Int) -> Bool) -> Int? {
    guard !slots.isEmpty else { return nil }
    let slot = slot(for: hash, matches: matches)
    return slots[slot] == 0 ? nil : slot
  }

  /// The entry position `slot` holds (`-1` for a free slot).
  @inline(__always)
  func entry(at slot: Int) -> Int { Self.entry(in: slots[slot]) }

  /// Whether `slot` is free.
  @inline(__always)
  func isFree(_ slot: Int) -> Bool { slots[slot] == 0 }

  /// Puts the entry at `index`, whose hash is `hash`, in `slot` (a free slot of its probe run).
  @inline(__always)
  mutating func fill(_ slot: Int, with index: Int, hash: Int) {
    slots[slot] = Self.slotValue(index, hash: hash)
  }

  /// Records that the entry with `hash` moved from position `old` to `new` (the owner moved its last
  /// entry into a hole).
  mutating func move(hash: Int, from old: Int, to new: Int) {
    let slot = slots.withUnsafeBufferPointer { Self.probe($0, from: hash) { Self.entry(in: $0) == old } }
    slots[slot] = Self.slotValue(new, hash: hash)
  }

  /// Frees `slot`, moving back later members of its probe run whose home does not lie strictly
  /// between the hole and themselves (so that every entry stays reachable from its home).
  mutating func vacate(_ slot: Int) {
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

  /// A new index of twice the slots (16 at first) for `count` entries whose hashes `hash` gives.
  mutating func grow(count: Int, hash: (Int) -> Int) {
    rebuild(slots: max(16, slots.count * 2)) { add in
      for index in 0..<count { add(index, hash(index)) }
    }
  }

  /// The number of slots.
  var slotCount: Int { slots.count }

  /// A new index of `slots` slots (a power of two, more than twice the entries) for the entries
  /// `entries` lists: it calls its argument with each entry's position and hash (only the hash's low
  /// 32 bits matter). For an owner whose positions are not `0..<count` (``SessionIDSet``'s offsets).
  mutating func rebuild(slots count: Int, _ entries: (_ add: (_ position: Int, _ hash: Int) -> Void) -> Void) {
    var fresh = [UInt64](repeating: 0, count: count)
    fresh.withUnsafeMutableBufferPointer { fresh in
      entries { position, hash in
        precondition(position < Int(Int32.max), "an entry position too large for the index")
        let free = Self.probe(UnsafeBufferPointer(fresh), from: hash) { $0 == 0 }
        fresh[free] = Self.slotValue(position, hash: hash)
      }
    }
    slots = fresh
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

  /// What a slot keeps of a hash: its low 32 bits (enough to find the home slot of any index this
  /// index can have).
  @inline(__always)
  private static func tag(_ hash: Int) -> UInt64 { UInt64(UInt32(truncatingIfNeeded: hash)) }

  @inline(__always)
  private static func slotValue(_ index: Int, hash: Int) -> UInt64 { tag(hash) << 32 | UInt64(index + 1) }

  @inline(__always)
  private static func entry(in slot: UInt64) -> Int { Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1 }
}

/// The positions a subscription has delivered, remembering at most `capacity` of them and forgetting
/// the oldest insertion first (what ``BoundedSet`` does, specialised for `Int` on the per-message
/// path).
///
/// One flat open-addressing table (linear probing, at most half full, backward-shift deletion) holds
/// the positions and a ring buffer of the same capacity holds their insertion order, so an insert is
/// one hash and a probe, with no second structure to hash into and nothing to compact. Both grow by
/// doubling up to their bound (`capacity` positions; a table of the next power of two at least twice
/// that), so a window that sees few messages stays small.
///
/// Hashing mixes the position with a per-process random seed (taken from `Hasher`), so a peer that
/// chooses `seq`/`offset` values cannot aim them at one probe run without the seed. The mix is a
/// multiply-fold, not a keyed hash like SipHash; at worst a probe walks the table, whose size the
/// window bounds.
struct PositionWindow: Sendable {
  let capacity: Int
  /// Hash slots; `PositionWindow.empty` marks a free slot (the position `Int.min` itself is kept in
  /// ``holdsEmptyMarker``).
  private var slots: [Int] = []
  /// Insertion order, oldest at `head`; `count` entries are live, all of them members.
  private var ring: [Int] = []
  private var head = 0
  private(set) var count = 0
  private var holdsEmptyMarker = false

  private static let empty = Int.min
  private static let seed: UInt64 = {
    var hasher = Hasher()
    hasher.combine(0x5EED as UInt64)
    return UInt64(UInt(bitPattern: hasher.finalize()))
  }()

  init(capacity: Int) { self.capacity = max(1, capacity) }

  func contains(_ position: Int) -> Bool {
    if position == Self.empty { return holdsEmptyMarker }
    guard !slots.isEmpty else { return false }
    return slots[find(position)] == position
  }

  /// Makes room for `additional` more positions (up to the capacity) in one step.
  mutating func reserve(_ additional: Int) {
    let wanted = min(capacity, count + additional)
    if wanted > ring.count { grow(to: wanted) }
  }

  /// Inserts `position`; `true` when it was not there (the oldest position is forgotten when full).
  ///
  /// The probe and the ring write go through unsafe buffers, each taken once per insert (one
  /// uniqueness check per array instead of one per write, no bounds checks): every slot index is
  /// masked by the table's size (a power of two) and every ring index is below the ring's size, so
  /// neither can leave its buffer.
  @discardableResult
  mutating func insert(_ position: Int) -> Bool {
    if count == ring.count, count < capacity { grow(to: min(capacity, max(8, count * 2))) }
    if position == Self.empty {
      if holdsEmptyMarker { return false }
      holdsEmptyMarker = true
    } else {
      let seed = Self.seed
      let added = slots.withUnsafeMutableBufferPointer { table -> Bool in
        let mask = table.count - 1
        var slot = Self.home(position, seed: seed, mask: mask)
        while true {
          let held = table[slot]
          if held == position { return false }
          if held == Self.empty {
            table[slot] = position
            return true
          }
          slot = (slot + 1) & mask
        }
      }
      guard added else { return false }
    }
    if count == capacity {
      let oldest = ring[head]
      ring[head] = position
      head = head + 1 == capacity ? 0 : head + 1
      removeFromTable(oldest)
    } else {
      // `head` and `count` are both below `ring.count` here: one subtraction wraps (no division).
      let end = head + count
      ring.withUnsafeMutableBufferPointer { ring in ring[end < ring.count ? end : end - ring.count] = position }
      count += 1
    }
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
    slots = []
    ring = []
    head = 0
    count = 0
    holdsEmptyMarker = false
  }

  /// Entries allocated (ring and table), for the bound tests.
  var storageSlots: Int { ring.count + slots.count }

  /// The live positions, oldest first.
  var ordered: [Int] {
    (0..<count).map { ring[(head + $0) % ring.count] }
  }

  // MARK: table

  private func home(_ position: Int) -> Int { Self.home(position, seed: Self.seed, mask: slots.count - 1) }

  @inline(__always)
  private static func home(_ position: Int, seed: UInt64, mask: Int) -> Int {
    let mixed = (UInt64(UInt(bitPattern: position)) ^ seed).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
    return Int(truncatingIfNeeded: mixed.high ^ mixed.low) & mask
  }

  /// The slot holding `position`, or the free slot where it would go.
  private func find(_ position: Int) -> Int {
    let mask = slots.count - 1
    var slot = home(position)
    while slots[slot] != Self.empty, slots[slot] != position { slot = (slot + 1) & mask }
    return slot
  }

  private mutating func removeFromTable(_ position: Int) {
    if position == Self.empty {
      holdsEmptyMarker = false
      return
    }
    let mask = slots.count - 1
    var hole = find(position)
    guard slots[hole] == position else { return }
    // Backward-shift deletion: move later members of the probe run into the hole when their home
    // slot does not lie strictly between the hole and themselves.
    var next = (hole + 1) & mask
    while slots[next] != Self.empty {
      let wanted = home(slots[next])
      let stays = hole <= next ? (hole < wanted && wanted <= next) : (hole < wanted || wanted <= next)
      if !stays {
        slots[hole] = slots[next]
        hole = next
      }
      next = (next + 1) & mask
    }
    slots[hole] = Self.empty
  }

  /// Resizes the ring to `newCapacity` entries and the table to the next power of two at least twice that.
  private mutating func grow(to newCapacity: Int) {
    let live = count == 0 ? [] : ordered
    var tableSize = 16
    while tableSize < newCapacity * 2 { tableSize *= 2 }
    ring = [Int](repeating: 0, count: newCapacity)
    for (index, position) in live.enumerated() { ring[index] = position }
    head = 0
    if tableSize != slots.count {
      slots = [Int](repeating: Self.empty, count: tableSize)
      for position in live where position != Self.empty { slots[find(position)] = position }
    }
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

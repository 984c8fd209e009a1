import Testing

@testable import VCProto

/// ``PositionWindow`` against a plain model of a bounded FIFO set (an array, oldest first, searched
/// linearly): after every operation both must hold the same positions in the same order.
@Suite struct PositionWindowTests {
  struct Model {
    let capacity: Int
    var items: [Int] = []

    mutating func insert(_ position: Int) -> Bool {
      if items.contains(position) { return false }
      items.append(position)
      if items.count > capacity { items.removeFirst() }
      return true
    }
  }

  /// A small deterministic generator (xorshift64*), so a failure replays.
  struct Generator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state ^= state >> 12
      state ^= state << 25
      state ^= state >> 27
      return Int((state &* 0x2545_F491_4F6C_DD1D) % UInt64(bound))
    }
  }

  @Test(arguments: [1, 3, 16, 100])
  func agreesWithModel(capacity: Int) {
    var window = PositionWindow(capacity: capacity)
    var model = Model(capacity: capacity)
    var random = Generator(state: 0x9E37_79B9 &+ UInt64(capacity))
    // Draw from a small range so duplicates and re-inserts after eviction are frequent; include the
    // table's empty marker (Int.min) and extreme values.
    let specials = [Int.min, Int.max, -1, 0]
    for step in 0..<5_000 {
      let roll = random.next(100)
      if roll < 90 {
        let position = random.next(10) == 0 ? specials[random.next(4)] : random.next(capacity * 3 + 2)
        #expect(window.insert(position) == model.insert(position), "step \(step): insert \(position)")
      } else if roll < 95 {
        let cut = random.next(capacity * 3 + 2)
        window.removeAll { $0 >= cut }
        model.items.removeAll { $0 >= cut }
      } else if roll < 97 {
        window.removeAll()
        model.items.removeAll()
      } else {
        window.reserve(random.next(capacity + 5))
      }
      #expect(window.ordered == model.items, "step \(step)")
      #expect(window.count == model.items.count)
      let probe = random.next(capacity * 3 + 2)
      #expect(window.contains(probe) == model.items.contains(probe))
      #expect(window.contains(Int.min) == model.items.contains(Int.min))
    }
  }

  /// Equality looks at the live positions in order, not at how the storage grew.
  @Test func equalityIgnoresStorageHistory() {
    var grown = PositionWindow(capacity: 8)
    for position in 0..<20 { grown.insert(position) }
    grown.removeAll { $0 < 15 }
    var direct = PositionWindow(capacity: 8)
    for position in 15..<20 { direct.insert(position) }
    #expect(grown == direct)
    #expect(grown.hashValue == direct.hashValue)
    direct.insert(99)
    #expect(grown != direct)
  }

  /// Repeated purge-and-refill cycles keep the storage within the capacity (the earlier window kept
  /// purged positions in its order list until an eviction reached them).
  @Test func purgeCyclesStayBounded() {
    var window = PositionWindow(capacity: 64)
    for cycle in 0..<200 {
      for position in 0..<40 { window.insert(cycle * 1_000 + position) }
      window.removeAll { $0 >= cycle * 1_000 }
      #expect(window.count == 0)
      #expect(window.storageSlots <= 64 * 3)
    }
  }
}

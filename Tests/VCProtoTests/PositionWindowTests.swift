import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

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

  /// The table's deletion (the eviction of the oldest position from a full window) against a
  /// reference set and FIFO: many random inserts into small windows, whose tables are crowded with
  /// long probe runs that wrap, and after each one every position of the range asked about. A
  /// deletion that leaves a member unreachable from its home, or keeps an evicted one, disagrees.
  @Test(arguments: [2, 5, 13, 40])
  func evictionKeepsEveryMemberReachable(capacity: Int) {
    var window = PositionWindow(capacity: capacity)
    var random = Generator(state: 0xDE1E_7E &+ UInt64(capacity))
    let range = capacity * 4
    // One step back first: the window leaves its sorted mode and keeps its table from then on.
    window.insert(1)
    window.insert(0)
    var members: Set = [1, 0]
    var order = [1, 0]
    for step in 0..<20_000 {
      let position = random.next(range) - range / 2
      let expected = members.insert(position).inserted
      if expected {
        order.append(position)
        if order.count > capacity { members.remove(order.removeFirst()) }
      }
      #expect(window.insert(position) == expected, "step \(step): insert \(position)")
      for probe in -range / 2..<range / 2 where window.contains(probe) != members.contains(probe) {
        Issue.record("step \(step): contains \(probe) should be \(members.contains(probe))")
      }
      #expect(window.ordered == order, "step \(step)")
    }
  }

  /// A frame's positions inserted at once (``PositionWindow/insertEach(_:unordered:position:outcome:)``, what
  /// the client engine does with a `session_history`) against the model inserting them one by one:
  /// batches of random sizes, some without a position, with duplicates inside a batch, the empty
  /// marker and extreme values, into windows that start sorted, make their table inside a batch,
  /// grow, fill and wrap. Every outcome, in order, and the window after each batch must agree.
  @Test(arguments: [1, 2, 5, 16, 100])
  func batchInsertAgreesWithModel(capacity: Int) {
    var random = Generator(state: 0xBA7C &+ UInt64(capacity))
    let specials = [Int.min, Int.max, -1, 0]
    for run in 0..<30 {
      var window = PositionWindow(capacity: capacity)
      var model = Model(capacity: capacity)
      var next = random.next(20)
      for batch in 0..<40 {
        let count = random.next(capacity * 2 + 3)
        let positions: [Int?] = (0..<count).map { _ in
          let roll = random.next(100)
          if roll < 5 { return nil }
          if roll < 10 { return specials[random.next(4)] }
          if roll < 20, !model.items.isEmpty { return model.items[random.next(model.items.count)] }
          // Increasing for the first runs' first batches (a sorted window), else anywhere in a range.
          if run % 2 == 0, batch < 3 {
            next += 1 + random.next(3)
            return next
          }
          return random.next(capacity * 3 + 2)
        }
        var outcomes: [Bool?] = []
        // Told the positions are in no order (as 0.2.0/0.3.0 uuid hashes are) or not: the same outcomes.
        window.insertEach(count, unordered: random.next(2) == 0, position: { positions[$0] }) { index, inserted in
          #expect(index == outcomes.count, "run \(run) batch \(batch): outcome out of order")
          outcomes.append(inserted)
        }
        let expected = positions.map { $0.map { model.insert($0) } }
        #expect(outcomes == expected, "run \(run) batch \(batch): \(positions)")
        #expect(window.ordered == model.items, "run \(run) batch \(batch)")
        #expect(window.contains(Int.min) == model.items.contains(Int.min), "run \(run) batch \(batch)")
        for position in model.items { #expect(window.contains(position), "run \(run) batch \(batch)") }
        if random.next(10) == 0 {
          let cut = random.next(capacity * 3 + 2)
          window.removeAll { $0 >= cut }
          model.items.removeAll { $0 >= cut }
        }
      }
    }
  }

  /// Mostly increasing positions (what a live session sends), with an occasional step back, repeat or
  /// purge: the window starts sorted, fills and wraps its ring without a table, and must agree with
  /// the model before and after the first out-of-order insert builds one.
  @Test(arguments: [1, 2, 7, 64])
  func agreesWithModelOnMostlyIncreasingPositions(capacity: Int) {
    var random = Generator(state: 0x51DE &+ UInt64(capacity))
    for run in 0..<40 {
      var window = PositionWindow(capacity: capacity)
      var model = Model(capacity: capacity)
      var next = run % 3 == 0 ? Int.min : random.next(50) - 25
      for step in 0..<400 {
        let roll = random.next(1_000)
        let position: Int
        if roll < 970 || model.items.isEmpty {
          position = next
          next = next &+ 1 &+ random.next(3)  // Int.min grows, never near Int.max
        } else if roll < 990 {
          position = model.items[random.next(model.items.count)]  // a repeat: a replace
        } else if roll < 995 {
          position = next &- 2 &- random.next(capacity * 2 + 2)  // a step back: may be forgotten or new
        } else {
          let cut = next &- random.next(capacity + 2)
          window.removeAll { $0 >= cut }
          model.items.removeAll { $0 >= cut }
          continue
        }
        let added = window.insert(position)
        #expect(added == model.insert(position), "run \(run) step \(step): insert \(position)")
        #expect(window.ordered == model.items, "run \(run) step \(step)")
        let probe = model.items.isEmpty || random.next(2) == 0 ? next &- random.next(capacity * 2 + 2) : model.items[0]
        #expect(window.contains(probe) == model.items.contains(probe), "run \(run) step \(step): contains \(probe)")
        #expect(window.storageSlots <= capacity + Self.tableStorageBound(ringSize: capacity))
      }
    }
  }

  /// The most a table of a window whose ring has `ringSize` places may store: a filling table's at
  /// most four slots for each place (the power of two at least twice the ring; 16 at least), or, for
  /// a full ring, buckets of 8 `Int`s (one for every 8 places, rounded up to a power of two: at most
  /// one for every 4) and 8 to align them.
  static func tableStorageBound(ringSize: Int) -> Int {
    max(max(16, ringSize * 4), 8 * max(1, ringSize / 4 + 1) + 8)
  }

  /// Increasing positions use no table: the storage is the ring alone, whatever the number inserted;
  /// the first out-of-order insert adds the table.
  @Test func increasingPositionsKeepOnlyTheRing() {
    var window = PositionWindow(capacity: 100)
    var added = 0
    for position in 0..<1_000 where window.insert(position * 3) { added += 1 }
    #expect(added == 1_000)
    #expect(window.storageSlots == 100)
    #expect(window.ordered == Array(900..<1_000).map { $0 * 3 })
    let newestAgain = window.insert(2_997)  // a replace
    let oldestAgain = window.insert(2_700)  // still held
    #expect(!newestAgain && !oldestAgain)
    #expect(window.storageSlots == 100)
    let forgotten = window.insert(2_699)  // forgotten long ago: new, and out of order
    #expect(forgotten)
    // The ring, and the table: 16 buckets (a power of two, one at least for every 8 of the ring's 100
    // places) of 8 `Int`s each, and 8 to align them to a cache line.
    #expect(window.storageSlots == 100 + 16 * 8 + 8)
    #expect(window.ordered == Array(901..<1_000).map { $0 * 3 } + [2_699])
  }

  /// A frame of positions in no order (0.2.0/0.3.0 uuid hashes) into an empty window: the ring and
  /// the table are made together for the frame (12 places, and a table of 32 slots: the power of two
  /// at least twice the ring), and every position goes in once; the same frame again is all repeats
  /// (room for it made first: the ring doubles, the table with it).
  @Test func anUnorderedFirstFrameMakesRingAndTableTogether() {
    var window = PositionWindow(capacity: 2_048)
    let positions = [90, 12, 55, 3, 78, 41, 66, 20, 99, 7, 34, 58]
    for round in 0..<2 {
      var outcomes: [Bool?] = []
      window.insertEach(positions.count, unordered: true, position: { positions[$0] }) { outcomes.append($1) }
      #expect(outcomes == Array(repeating: round == 0, count: positions.count), "round \(round)")
      #expect(window.storageSlots == (round == 0 ? 12 + 32 : 24 + 64), "round \(round)")
      #expect(window.ordered == positions, "round \(round)")
    }
    #expect(!window.contains(13) && window.contains(58))
  }

  /// The capacity is at least one and at most ``PositionWindow/maxCapacity``, whose places take 24
  /// bits of a bucket entry and leave it 8 bits of tag.
  @Test func capacityIsClamped() {
    #expect(PositionWindow(capacity: 0).capacity == 1)
    #expect(PositionWindow(capacity: .max).capacity == PositionWindow.maxCapacity)
    #expect(PositionBuckets.placeBits(ringSize: PositionWindow.maxCapacity) == 24)
    #expect(PositionBuckets.placeBits(ringSize: 2_048) == 11)
    #expect(PositionBuckets.placeBits(ringSize: 1) == 1)
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

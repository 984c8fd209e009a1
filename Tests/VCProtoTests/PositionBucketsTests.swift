import Testing

@testable import VCProtoConnection

/// ``PositionBuckets`` where the random seed cannot help it: positions chosen, with the seed known,
/// to share one bucket, so that buckets fill, members overflow past them and are freed again in any
/// order. Every lookup must agree with a plain set, and a table emptied again must be as new.
@Suite struct PositionBucketsTests {
  static let seed: UInt64 = 0x5EED_0F_7E57

  /// `count` positions (from `start` up) that hash to bucket `bucket` of a table with `mask + 1`
  /// buckets, under ``seed``.
  static func aimed(at bucket: Int, mask: Int, count: Int, from start: Int = 0) -> [Int] {
    var storage: [Int] = []
    PositionBuckets.appendStorage(entries: (mask + 1) * PositionBuckets.width, ringSize: 0, to: &storage)
    return storage.withUnsafeMutableBufferPointer { storage in
      let table = PositionBuckets(storage, mask: mask, skew: PositionBuckets.skew(of: storage), seed: seed)
      return Array((start...).lazy.filter { table.home($0) == bucket }.prefix(count))
    }
  }

  /// Positions crowded into one bucket of an eight-bucket table, inserted and removed at random (at
  /// most half full, as a window keeps it) against a set: what `insert` returns, every lookup, and
  /// the slot each member is found in. Emptied at the end, every slot is free and no bucket counts
  /// an overflow.
  @Test func crowdedBucketsAgreeWithASet() {
    let mask = 7
    let crowded = Self.aimed(at: 6, mask: mask, count: 40)  // bucket 6: overflows wrap past 7 to 0
    let others = Array(1_000..<1_040)
    let candidates = crowded + others
    var storage: [Int] = []
    PositionBuckets.appendStorage(entries: 64, ringSize: 0, to: &storage)
    var members = Set<Int>()
    var random = PositionWindowTests.Generator(state: 0xB0C7)
    storage.withUnsafeMutableBufferPointer { storage in
      let table = PositionBuckets(storage, mask: mask, skew: PositionBuckets.skew(of: storage), seed: Self.seed)
      for step in 0..<20_000 {
        let position = random.next(4) == 0 ? others[random.next(others.count)] : crowded[random.next(crowded.count)]
        if members.contains(position) || members.count == 32 {
          // The position itself, else a member picked by the generator (in a fixed order: replayable).
          let victim = members.contains(position) ? position : members.sorted()[random.next(members.count)]
          table.remove(victim)
          members.remove(victim)
        } else {
          let slot = table.insert(position)
          #expect(slot != nil, "step \(step): insert \(position)")
          if let slot { #expect(table.entries[slot] == position) }
          members.insert(position)
        }
        for candidate in candidates {
          let slot = table.slot(of: candidate)
          if members.contains(candidate) {
            #expect(slot.map { table.entries[$0] } == candidate, "step \(step): \(candidate) lost")
          } else if slot != nil {
            Issue.record("step \(step): \(candidate) found but not a member")
          }
        }
      }
      for member in members { table.remove(member) }
      for bucket in 0...mask { #expect(table.states[bucket] == PositionBuckets.freeBits, "bucket \(bucket)") }
      for slot in 0..<64 { #expect(table.entries[slot] == PositionWindow.empty) }
    }
  }

  /// A window whose every position hashes to one bucket of its table (eight buckets for a ring of
  /// 32): the window fills, overflows and evicts its oldest, freeing each where it went, in single
  /// inserts and in frames of several (``PositionWindow/insertEach(_:unordered:position:outcome:)``); every
  /// outcome, the order and every lookup agree with the model.
  @Test func windowOfAimedPositionsAgreesWithModel() {
    let capacity = 32
    let aimed = Self.aimed(at: 7, mask: 7, count: 64)  // the last bucket: overflow wraps to bucket 0
    var window = PositionWindow(capacity: capacity, seed: Self.seed)
    var model = PositionWindowTests.Model(capacity: capacity)
    var random = PositionWindowTests.Generator(state: 0xA1ED)
    for step in 0..<3_000 {
      let count = 1 + random.next(5)
      let positions = (0..<count).map { _ in aimed[random.next(aimed.count)] }
      var outcomes: [Bool?] = []
      if random.next(2) == 0 {
        // Told the positions are in no order or not (a frame at step 0 makes the table at once).
        window.insertEach(count, unordered: random.next(2) == 0, position: { positions[$0] }) { _, inserted in
          outcomes.append(inserted)
        }
      } else {
        outcomes = positions.map { window.insert($0) }
      }
      #expect(outcomes == positions.map { model.insert($0) }, "step \(step): \(positions)")
      #expect(window.ordered == model.items, "step \(step)")
      for position in aimed where window.contains(position) != model.items.contains(position) {
        Issue.record("step \(step): contains \(position) should be \(model.items.contains(position))")
      }
    }
  }

  /// Copies of a window with its table, filling (its ring below the capacity) or full, each take
  /// frames (``PositionWindow/insertEach(_:unordered:position:outcome:)``, whose writes go through the
  /// storage shared until then) as the model does, and the original keeps what it held.
  @Test(arguments: [2_048, 64])
  func copiesTakeFramesApart(capacity: Int) {
    var random = PositionWindowTests.Generator(state: 0xF0A3 &+ UInt64(capacity))
    var window = PositionWindow(capacity: capacity)
    var model = PositionWindowTests.Model(capacity: capacity)
    let first = (0..<100).map { _ in random.next(100_000) }
    window.insertEach(first.count, unordered: true, position: { first[$0] }) { _, _ in }
    for position in first { _ = model.insert(position) }
    for copyIndex in 0..<8 {
      var copy = window
      var copyModel = model
      for _ in 0..<5 {
        let frame = (0..<(1 + random.next(20))).map { _ in
          random.next(3) == 0 ? copyModel.items[random.next(copyModel.items.count)] : random.next(100_000)
        }
        var outcomes: [Bool?] = []
        copy.insertEach(frame.count, unordered: true, position: { frame[$0] }) { outcomes.append($1) }
        #expect(outcomes == frame.map { copyModel.insert($0) }, "copy \(copyIndex)")
      }
      #expect(copy.ordered == copyModel.items, "copy \(copyIndex)")
      for position in copyModel.items where !copy.contains(position) {
        Issue.record("copy \(copyIndex): \(position) lost")
      }
      #expect(window.ordered == model.items, "original after copy \(copyIndex)")
      for position in model.items where !window.contains(position) { Issue.record("original: \(position) lost") }
    }
  }

  /// Copies of a full window (a `ClientEngine` an application keeps, then changes) each keep a right
  /// table: the copy's storage lies at another address, perhaps at another alignment, and its table
  /// must be read with the layout it was made with. Each copy, then the original, takes positions of
  /// its own, and every lookup must agree with its model.
  @Test func copiesOfAFullWindowKeepTheirTables() {
    let capacity = 64
    var random = PositionWindowTests.Generator(state: 0xC0B1)
    var window = PositionWindow(capacity: capacity)
    var model = PositionWindowTests.Model(capacity: capacity)
    for _ in 0..<200 {
      let position = random.next(100_000)
      #expect(window.insert(position) == model.insert(position))
    }
    for copyIndex in 0..<12 {
      var copy = window
      var copyModel = model
      for _ in 0..<40 {
        let position = random.next(2) == 0 ? copyModel.items[random.next(copyModel.items.count)] : random.next(100_000)
        #expect(copy.insert(position) == copyModel.insert(position), "copy \(copyIndex)")
      }
      for position in copyModel.items where !copy.contains(position) {
        Issue.record("copy \(copyIndex): \(position) lost")
      }
      #expect(copy.ordered == copyModel.items)
      // The original, unchanged by its copy's inserts.
      for position in model.items where !window.contains(position) { Issue.record("original: \(position) lost") }
      let position = random.next(100_000)
      #expect(window.insert(position) == model.insert(position))
    }
  }
}

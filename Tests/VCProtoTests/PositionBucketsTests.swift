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
    withTable(buckets: mask + 1, ringSize: 1) { table, _ in
      Array((start...).lazy.filter { table.home($0) == bucket }.prefix(count))
    }
  }

  /// `body` given an empty table of `buckets` buckets for a ring of `ringSize` places (the ring
  /// given too, all `PositionWindow.empty`), hashed with ``seed``.
  static func withTable<R>(
    buckets: Int, ringSize: Int, _ body: (PositionBuckets, UnsafeMutableBufferPointer<Int>) -> R
  ) -> R {
    var ring = [Int](repeating: PositionWindow.empty, count: ringSize)
    var storage = [Int](repeating: 0, count: PositionBuckets.storageSize(buckets: buckets))
    return ring.withUnsafeMutableBufferPointer { ring in
      storage.withUnsafeMutableBufferPointer { storage in
        PositionBuckets.format(storage, buckets: buckets)
        let table = PositionBuckets(
          storage, ring: ring, mask: buckets - 1, skew: PositionBuckets.skew(of: storage), seed: seed)
        return body(table, ring)
      }
    }
  }

  /// Positions crowded into one bucket of an eight-bucket table, added and removed at random (at
  /// most 8/15 full, as a window keeps it) against a set, each at a ring place of its own: every
  /// lookup agrees with the set. Emptied at the end, every entry is free and no bucket counts an
  /// overflow.
  @Test func crowdedBucketsAgreeWithASet() {
    let buckets = 8
    let crowded = Self.aimed(at: 6, mask: buckets - 1, count: 60)  // bucket 6: overflows wrap past 7 to 0
    let others = Array(1_000..<1_060)
    let candidates = crowded + others
    let places = 64
    var random = PositionWindowTests.Generator(state: 0xB0C7)
    Self.withTable(buckets: buckets, ringSize: places) { table, ring in
      var members: [Int: Int] = [:]  // position: place
      var freePlaces = Array(0..<places)
      for step in 0..<20_000 {
        let position = random.next(4) == 0 ? others[random.next(others.count)] : crowded[random.next(crowded.count)]
        if members[position] != nil || members.count == places {
          // The position itself, else a member picked by the generator (in a fixed order: replayable).
          let victim = members[position] != nil ? position : members.keys.sorted()[random.next(members.count)]
          let place = members.removeValue(forKey: victim)!
          table.remove(victim, place: place)
          ring[place] = PositionWindow.empty
          freePlaces.append(place)
        } else {
          #expect(!table.contains(position), "step \(step): \(position) found before it was added")
          let place = freePlaces.removeLast()
          ring[place] = position
          table.add(position, place: place)
          members[position] = place
        }
        for candidate in candidates where table.contains(candidate) != (members[candidate] != nil) {
          Issue.record("step \(step): contains \(candidate) should be \(members[candidate] != nil)")
        }
      }
      for (member, place) in members { table.remove(member, place: place) }
      for bucket in 0..<buckets { #expect(table.state(bucket) == PositionBuckets.freeBits, "bucket \(bucket)") }
    }
  }

  /// Members whose tags are equal (found knowing the seed) are told apart by the ring: a lookup
  /// reads the place of each entry whose tag matches. (A ring of 2^20 places leaves 12 bits of tag,
  /// and a table of one bucket puts every position in it.)
  @Test func equalTagsAreToldApartByTheRing() {
    Self.withTable(buckets: 1, ringSize: 1 << 20) { table, ring in
      let first = 7
      let tag = table.tag(table.hash(first))
      let same = [first] + Array((0...).lazy.filter { $0 != first && table.tag(table.hash($0)) == tag }.prefix(2))
      #expect(same.count == 3)
      for (place, position) in same.prefix(2).enumerated() {
        ring[place] = position
        table.add(position, place: place)
      }
      #expect(table.contains(same[0]) && table.contains(same[1]))
      #expect(!table.contains(same[2]), "a position of the same tag, not a member")
      table.remove(same[0], place: 0)
      ring[0] = PositionWindow.empty
      #expect(!table.contains(same[0]) && table.contains(same[1]))
      #expect(table.state(0) == PositionBuckets.freeBits & ~2, "one entry left, the second")
    }
  }

  /// An overflow count at its maximum stays there: members that pass a bucket whose count is full
  /// (set here; reached only under positions aimed at one bucket past 131,071 members) stay found, and
  /// their removal leaves the count (never below the members that passed) and the free bits right.
  @Test func aFullOverflowCountStays() {
    let aimed = Self.aimed(at: 0, mask: 1, count: 17)
    Self.withTable(buckets: 2, ringSize: 32) { table, ring in
      for (place, position) in aimed.prefix(15).enumerated() {
        ring[place] = position
        table.add(position, place: place)
      }
      #expect(table.state(0) == 0, "bucket 0 full, nothing passed it")
      table.setState(0, PositionBuckets.overflowMax &- PositionBuckets.overflowUnit)
      for place in 15..<17 {
        ring[place] = aimed[place]
        table.add(aimed[place], place: place)  // past bucket 0, into bucket 1
      }
      #expect(table.state(0) == PositionBuckets.overflowMax, "counted up to the maximum, not past it")
      #expect(aimed.allSatisfy { table.contains($0) })
      table.remove(aimed[16], place: 16)
      ring[16] = PositionWindow.empty
      #expect(table.state(0) == PositionBuckets.overflowMax, "a full count is not taken off")
      #expect(table.contains(aimed[15]) && !table.contains(aimed[16]))
      table.remove(aimed[3], place: 3)
      ring[3] = PositionWindow.empty
      #expect(table.state(0) == PositionBuckets.overflowMax | 1 << 3, "the freed entry, the count kept")
      #expect(!table.contains(aimed[3]) && table.contains(aimed[15]))
      #expect(table.state(1) == PositionBuckets.freeBits & ~1, "bucket 1 holds the one left that passed")
    }
  }

  /// A table's bytes copied to another alignment (as a copy-on-write copy of a window's storage may
  /// lie) are read with the skew the table was made with: every member is still found, and the copy
  /// takes and gives up members as the original would.
  @Test func aTableCopiedToAnotherAlignmentKeepsItsLayout() {
    let buckets = 4
    let ringSize = 24
    var ring = (0..<ringSize).map { $0 * 7_919 + 1 }
    var storage = [Int](repeating: 0, count: PositionBuckets.storageSize(buckets: buckets))
    // Room for the copy one or two `Int`s in: whichever puts it at another alignment than the original.
    var moved = [Int](repeating: 0, count: storage.count + 2)
    ring.withUnsafeMutableBufferPointer { ring in
      storage.withUnsafeMutableBufferPointer { storage in
        PositionBuckets.format(storage, buckets: buckets)
        let skew = PositionBuckets.skew(of: storage)
        let table = PositionBuckets(storage, ring: ring, mask: buckets - 1, skew: skew, seed: Self.seed)
        for place in 0..<20 { table.add(ring[place], place: place) }
        moved.withUnsafeMutableBufferPointer { moved in
          let one = UnsafeMutableBufferPointer(rebasing: moved[1..<(1 + storage.count)])
          let copy =
            PositionBuckets.skew(of: one) != skew ? one : UnsafeMutableBufferPointer(rebasing: moved[2...])
          _ = copy.initialize(fromContentsOf: storage)
          #expect(PositionBuckets.skew(of: copy) != skew, "the copy lies at another alignment")
          let copied = PositionBuckets(copy, ring: ring, mask: buckets - 1, skew: skew, seed: Self.seed)
          #expect(ring.prefix(20).allSatisfy { copied.contains($0) })
          #expect(!ring.suffix(4).contains { copied.contains($0) })
          copied.remove(ring[0], place: 0)
          copied.add(ring[20], place: 20)
          #expect(!copied.contains(ring[0]) && copied.contains(ring[20]) && copied.contains(ring[19]))
          #expect(table.contains(ring[0]) && !table.contains(ring[20]), "the original unchanged")
        }
      }
    }
  }

  /// A window whose every position hashes to one bucket of its table (four buckets for a ring of
  /// 32): the window fills, overflows and evicts its oldest, freeing each where it went, in single
  /// inserts and in frames of several (``PositionWindow/insertEach(_:unordered:position:outcome:)``); every
  /// outcome, the order and every lookup agree with the model.
  @Test func windowOfAimedPositionsAgreesWithModel() {
    let capacity = 32
    let aimed = Self.aimed(at: 3, mask: 3, count: 64)  // the last bucket: overflow wraps to bucket 0
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

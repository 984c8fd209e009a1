import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// `SessionIDSet` (the sessions a server connection subscribed to) behaves as a set of exact
/// session ids through insertions and removals that shift its index, grow it and compact its bytes.
@Suite struct SessionIDSetTests {
  /// Against a `Set<[UInt8]>` reference: ids of many lengths (empty, short, long, non-ASCII) inserted
  /// and removed at random, enough of them long for the dead bytes to pass the compaction threshold
  /// several times; every id is found exactly when the reference holds it, and `ids` lists the same.
  @Test func agreesWithASet() {
    var generator = SplitMix64(state: 5)
    func id(_ n: Int) -> String {
      switch n % 4 {
      case 0: return "s-\(n)"
      case 1: return String(repeating: "long-session-\(n)-", count: 1 + n % 7)
      case 2: return "caf\u{e9}-\(n)-\u{1F600}"
      default: return n % 8 == 3 ? "" : "\(n)"
      }
    }
    var set = SessionIDSet()
    var reference: Set<[UInt8]> = []
    for step in 0..<20_000 {
      let candidate = id(Int(generator.next() % 300))
      if generator.next() % 2 == 0 {
        let inserted = set.insert(candidate)
        #expect(inserted == reference.insert(Array(candidate.utf8)).inserted, "insert at \(step)")
      } else {
        let removed = set.remove(candidate)
        #expect(removed == (reference.remove(Array(candidate.utf8)) != nil), "remove at \(step)")
      }
      #expect(set.count == reference.count)
      if step % 211 == 0 {
        for n in 0..<300 {
          let probe = id(n)
          #expect(set.contains(probe) == reference.contains(Array(probe.utf8)), "\(probe) at step \(step)")
        }
      }
    }
    #expect(Set(set.ids.map { Array($0.utf8) }) == reference && set.ids.count == reference.count)
  }

  /// Canonically equivalent ids are two sessions (exact scalars, STANDARDS.md#exact-identifiers),
  /// each found and removed under its own spelling only.
  @Test func equivalentIdsAreTwoSessions() {
    var set = SessionIDSet()
    let first = set.insert("caf\u{e9}-\u{212A}")
    #expect(first && !set.contains("cafe\u{301}-K"))
    let removedOther = set.remove("cafe\u{301}-K")
    #expect(!removedOther)
    let second = set.insert("cafe\u{301}-K")
    let again = set.insert("caf\u{e9}-\u{212A}")
    #expect(second && !again && set.count == 2)
    let removed = set.remove("caf\u{e9}-\u{212A}")
    #expect(removed)
    #expect(set.count == 1 && set.contains("cafe\u{301}-K") && !set.contains("caf\u{e9}-\u{212A}"))
    #expect(set.ids == ["cafe\u{301}-K"])
  }

  /// `removeAll` forgets every id (a server's second `connect`), and the set works again after.
  @Test func removeAllForgetsEverything() {
    var set = SessionIDSet()
    for n in 0..<40 { set.insert("s-\(n)") }
    #expect(set.contains("s-39") && set.count == 40)
    set.removeAll()
    #expect(set.count == 0 && !set.contains("s-39") && set.ids.isEmpty)
    set.insert("s-39")
    #expect(set.contains("s-39") && !set.contains("s-38") && set.count == 1)
  }

  /// `ids` lists the survivors in the order they were inserted, and the buffer stays within its
  /// bound (twice the live records plus 4 KiB) however many ids come and go: removals past the
  /// threshold compact it, and the index is rebuilt for the moved records (every survivor is still
  /// found, no removed id is).
  @Test func compactionKeepsOrderAndBound() {
    var set = SessionIDSet()
    var live: [String] = []
    for round in 0..<40 {
      for n in 0..<100 {
        let id = "round-\(round)-session-\(n)-" + String(repeating: "x", count: n % 50)
        set.insert(id)
        live.append(id)
      }
      // Remove all but every seventh id, oldest first.
      var kept: [String] = []
      for (position, id) in live.enumerated() {
        if position % 7 == 0 {
          kept.append(id)
        } else {
          let removed = set.remove(id)
          #expect(removed)
        }
      }
      live = kept
      let liveBytes = live.reduce(0) { $0 + 8 + ($1.utf8.count + 7) / 8 * 8 }
      #expect(EngineRetainedBytesTests.retainedStringBytes(set) <= 2 * liveBytes + 4_096, "round \(round)")
    }
    #expect(set.ids == live)
    #expect(live.allSatisfy { set.contains($0) } && !set.contains("round-0-session-1-x"))
  }

  /// Copies stay values through the set's own changes of buffer: one copy grows (a new buffer for
  /// its records) and the other compacts (records moved, index rebuilt), each agreeing with its own
  /// reference afterwards.
  @Test func copiesStayIndependentThroughGrowthAndCompaction() {
    var set = SessionIDSet()
    for n in 0..<300 { set.insert("shared-\(n)-" + String(repeating: "y", count: n % 40)) }
    var copy = set
    for n in 0..<2_000 { set.insert("grown-\(n)") }
    for n in 0..<290 { copy.remove("shared-\(n)-" + String(repeating: "y", count: n % 40)) }
    #expect(set.count == 2_300 && copy.count == 10)
    #expect((0..<300).allSatisfy { set.contains("shared-\($0)-" + String(repeating: "y", count: $0 % 40)) })
    #expect((0..<2_000).allSatisfy { set.contains("grown-\($0)") })
    #expect(copy.ids == (290..<300).map { "shared-\($0)-" + String(repeating: "y", count: $0 % 40) })
    #expect(!copy.contains("grown-0") && !copy.contains("shared-0-"))
  }

  /// A copy is a value: changing one does not change the other (the engine is a value type).
  @Test func copiesAreIndependent() {
    var set = SessionIDSet()
    set.insert("a")
    var copy = set
    copy.insert("b")
    copy.remove("a")
    #expect(set.contains("a") && !set.contains("b") && set.count == 1)
    #expect(copy.contains("b") && !copy.contains("a") && copy.count == 1)
  }
}

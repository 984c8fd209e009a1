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

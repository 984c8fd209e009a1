import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// `SubscriptionTable` behaves as a dictionary from session id to subscription, through insertions
/// and removals that wrap, collide, shift and grow its index.
@Suite struct SubscriptionTableTests {
  /// Against a `[String: Int]` reference (the value is each subscription's serial), with real hashes
  /// and with hashes crowded into four home slots (long probe runs, wrapping at the end of the index,
  /// every removal shifting later keys back).
  @Test(.tags(.slow), .enabled(if: slowSuitesRun), arguments: [false, true]) func agreesWithADictionary(crowded: Bool) {
    var generator = SplitMix64(state: crowded ? 7 : 11)
    func key(_ id: String) -> SessionKey {
      // A crowded hash is a function of the id, as a real one is, whose low 32 bits are one of four:
      // every id lands in the first two or the last two slots of the index, whatever its size (the
      // last two wrap), and the stored low bits cannot tell the ids apart.
      guard crowded, let n = Int(id.dropFirst(2)) else { return SessionKey(id) }
      return SessionKey(id, hash: [0, 1, -1, -2][n % 4] ^ (n << 40))
    }
    var table = SubscriptionTable()
    var reference: [String: Int] = [:]
    for step in 0..<20_000 {
      let id = "s-\(Int(generator.next() % 200))"
      if generator.next() % 2 == 0 {
        if step % 3 == 0 {
          // Found, or placed and added, in one probe (a client's `subscribe`).
          switch table.place(of: key(id)) {
          case .held(let index): #expect(table[index].serial == reference[id])
          case .free(let slot):
            #expect(reference[id] == nil)
            let index = table.add(key(id), Subscription(cursor: nil, window: 4, serial: step), at: slot)
            #expect(table.id(at: index) == id)
            reference[id] = step
          }
        } else if reference[id] == nil {
          table.append(key(id), Subscription(cursor: nil, window: 4, serial: step))
          reference[id] = step
        }
      } else {
        let held = table[key(id)]?.serial
        #expect(held == reference[id])
        // By key, or (real hashes only: the id's own digest) by id, as `unsubscribe` removes.
        let removed = crowded || step % 4 == 1 ? table.remove(key(id)) : table.remove(id: id)
        #expect(removed == (reference.removeValue(forKey: id) != nil))
      }
      #expect(table.count == reference.count)
      if step % 97 == 0 {
        for probe in 0..<200 {
          let id = "s-\(probe)"
          #expect(table[key(id)]?.serial == reference[id], "\(id) at step \(step)")
        }
      }
    }
    // Every entry is where the index says, with the id it was added under.
    for index in table.indices {
      #expect(table.index(of: key(table.id(at: index))) == index)
      #expect(reference[table.id(at: index)] == table[index].serial)
    }
  }

  /// Canonically equivalent ids are two sessions (exact scalars, STANDARDS.md#exact-identifiers), each found
  /// and removed under its own spelling only.
  @Test func equivalentIdsAreTwoEntries() {
    var table = SubscriptionTable()
    table.append(SessionKey("caf\u{e9}-\u{212A}"), Subscription(cursor: nil, window: 4, serial: 1))
    #expect(table.index(of: SessionKey("cafe\u{301}-K")) == nil)
    let removedOther = table.remove(SessionKey("cafe\u{301}-K"))
    #expect(!removedOther)
    table.append(SessionKey("cafe\u{301}-K"), Subscription(cursor: nil, window: 4, serial: 2))
    #expect(table.count == 2)
    #expect(table[SessionKey("caf\u{e9}-\u{212A}")]?.serial == 1 && table[SessionKey("cafe\u{301}-K")]?.serial == 2)
    let removed = table.remove(SessionKey("caf\u{e9}-\u{212A}"))
    #expect(removed)
    #expect(table.count == 1 && table[SessionKey("cafe\u{301}-K")]?.serial == 2)
  }

  /// A lookup by id (the history path's: the id's digest made in one pass, no key) finds exactly what
  /// a lookup by `SessionKey(id)` finds: ids of every length around the words a key keeps (48 bytes),
  /// spellings equivalent but not equal, and ids that differ from a held one only in their last byte,
  /// in the last kept byte or just past it.
  @Test func lookupByIdIsLookupByKey() {
    var held: [String] = ["", "caf\u{e9}-\u{212A}", "\u{1E69}", "f47ac10b-58cc-4372-a567-0e02b2c3d479"]
    for length in 1...60 { held.append(String(repeating: "x", count: length - 1) + "a") }
    let absent =
      ["cafe\u{301}-K", "s\u{323}\u{307}", "f47ac10b-58cc-4372-a567-0e02b2c3d47a", "y", "xxa\u{0}"]
      + (1...60).map { String(repeating: "x", count: $0 - 1) + "b" }
      + [String(repeating: "x", count: 47) + "ca", String(repeating: "x", count: 48) + "ab"]
    var table = SubscriptionTable()
    for (serial, id) in held.enumerated() {
      table.append(SessionKey(id), Subscription(cursor: nil, window: 4, serial: serial))
    }
    for id in held {
      let byId = table.index(ofId: id)
      #expect(byId != nil && byId == table.index(of: SessionKey(id)) && table.id(at: byId ?? 0) == id, "\(id)")
    }
    for id in absent { #expect(table.index(ofId: id) == nil && table.index(of: SessionKey(id)) == nil, "\(id)") }
    // The digest a lookup makes is the one the key holds.
    for id in held + absent { #expect(SessionKey.Digest(id) == SessionKey(id).digest) }
  }

  /// Removing by id (a client's `unsubscribe`, without a key) removes what removing by key does: the
  /// entry of exactly that id, none for an absent id or an equivalent spelling, the others kept and
  /// found where the index says.
  @Test func removeByIdIsRemoveByKey() {
    var held: [String] = ["", "caf\u{e9}-\u{212A}", "\u{1E69}", "f47ac10b-58cc-4372-a567-0e02b2c3d479"]
    for length in 1...60 { held.append(String(repeating: "x", count: length - 1) + "a") }
    let absent = ["cafe\u{301}-K", "s\u{323}\u{307}", "f47ac10b-58cc-4372-a567-0e02b2c3d47a", "xxa\u{0}"]
    var byId = SubscriptionTable()
    var byKey = SubscriptionTable()
    for (serial, id) in held.enumerated() {
      byId.append(SessionKey(id), Subscription(cursor: nil, window: 4, serial: serial))
      byKey.append(SessionKey(id), Subscription(cursor: nil, window: 4, serial: serial))
    }
    for id in absent {
      let removed = byId.remove(id: id)
      #expect(!removed, "\(id)")
    }
    var left = Set(held)
    // Every other id, then the rest: removals that move the last entry into holes and shift probe runs.
    for id in held.enumerated().filter({ $0.offset % 2 == 0 }).map(\.element)
      + held.enumerated().filter({
        $0.offset % 2 == 1
      }).map(\.element)
    {
      let (removed, removedByKey) = (byId.remove(id: id), byKey.remove(SessionKey(id)))
      let again = byId.remove(id: id)
      #expect(removed && removedByKey && !again, "\(id)")
      left.remove(id)
      #expect(byId.count == left.count && byKey.count == left.count)
      for other in left {
        let index = byId.index(ofId: other)
        #expect(index != nil && byId.id(at: index ?? 0) == other, "\(other) after removing \(id)")
        #expect(byId[SessionKey(other)]?.serial == byKey[SessionKey(other)]?.serial)
      }
    }
  }

  /// Appending a key already there replaces its subscription (one entry, as a dictionary's
  /// assignment); an equivalent spelling is another key.
  @Test func appendingAHeldKeyReplacesItsSubscription() {
    var table = SubscriptionTable()
    let first = table.append(SessionKey("K-1"), Subscription(cursor: nil, window: 4, serial: 1))
    let again = table.append(SessionKey("K-1"), Subscription(cursor: nil, window: 4, serial: 2))
    #expect(first == again && table.count == 1)
    #expect(table[SessionKey("K-1")]?.serial == 2 && table.id(at: first) == "K-1")
    let other = table.append(SessionKey("\u{212A}-1"), Subscription(cursor: nil, window: 4, serial: 3))
    #expect(other != first && table.count == 2)
  }

  /// `place(of:)` finds a held key's entry, or the free slot where `add(_:_:at:)` puts an absent one,
  /// last, growing the index as entries come; an equivalent spelling is another key.
  @Test func placeFindsOrAddAddsWhereItSaid() {
    var table = SubscriptionTable()
    for n in 0..<40 {
      guard case .free(let slot) = table.place(of: SessionKey("s-\(n)")) else {
        Issue.record("s-\(n) held before it was added")
        continue
      }
      let index = table.add(SessionKey("s-\(n)"), Subscription(cursor: nil, window: 4, serial: n), at: slot)
      #expect(index == n && table.id(at: n) == "s-\(n)" && table.index(of: SessionKey("s-\(n)")) == n)
    }
    for n in 0..<40 {
      guard case .held(let index) = table.place(of: SessionKey("s-\(n)")) else {
        Issue.record("s-\(n) not held")
        continue
      }
      #expect(index == n && table[index].serial == n)
    }
    #expect(table.count == 40)
    table.append(SessionKey("caf\u{e9}"), Subscription(cursor: nil, window: 4, serial: 41))
    guard case .free = table.place(of: SessionKey("cafe\u{301}")) else {
      Issue.record("an equivalent spelling found as held")
      return
    }
  }

  /// `removeAll` forgets every entry (a server's second `connect`), and the table works again after.
  @Test func removeAllForgetsEverything() {
    var table = SessionTable<Void>()
    for n in 0..<40 { table.append(SessionKey("s-\(n)"), ()) }
    #expect(table.contains(SessionKey("s-39")) && table.count == 40)
    table.removeAll()
    #expect(table.count == 0 && !table.contains(SessionKey("s-39")) && table.index(of: SessionKey("s-0")) == nil)
    table.append(SessionKey("s-39"), ())
    #expect(table.contains(SessionKey("s-39")) && !table.contains(SessionKey("s-38")) && table.count == 1)
  }

  /// A subscription changed through the table is changed in place (the index's subscript yields it).
  @Test func changesInPlace() {
    var table = SubscriptionTable()
    let index = table.append(SessionKey("a"), Subscription(cursor: nil, window: 4, serial: 0))
    table[index].delivered.insert(41)
    table[index].continuing = true
    #expect(table[SessionKey("a")]?.delivered.contains(41) == true)
    #expect(table[SessionKey("a")]?.continuing == true)
  }
}

import Testing

@testable import VCProto

/// `SessionKey` keys the client engine's subscriptions as the session id itself did.
@Suite struct SessionKeyTests {
  /// Equal exactly when the ids are `==` (canonical equivalence included, as with a `String` key),
  /// with equal hashes then.
  @Test func equalityIsTheIds() {
    let pairs: [(String, String, Bool)] = [
      ("s", "s", true), ("\u{e9}", "e\u{301}", true), ("s", "t", false), ("", "", true),
      (String(repeating: "ab", count: 40), String(repeating: "ab", count: 40), true),
    ]
    for (a, b, equal) in pairs {
      #expect((SessionKey(a) == SessionKey(b)) == equal, "\(a) \(b)")
      if equal { #expect(SessionKey(a).hashValue == SessionKey(b).hashValue) }
    }
  }

  /// A table keyed by `SessionKey` agrees with one keyed by the `String` through inserts and removals
  /// that shift and grow it.
  @Test func tableAgreesWithAStringTable() {
    var generator = SystemRandomNumberGenerator()
    var keyed: [SessionKey: Int] = [:]
    var plain: [String: Int] = [:]
    for step in 0..<5_000 {
      let id = "session-\(Int.random(in: 0..<300, using: &generator))"
      if Bool.random(using: &generator) {
        keyed[SessionKey(id)] = step
        plain[id] = step
      } else {
        #expect((keyed.removeValue(forKey: SessionKey(id)) == nil) == (plain.removeValue(forKey: id) == nil))
      }
      #expect(keyed.count == plain.count)
    }
    for (id, value) in plain { #expect(keyed[SessionKey(id)] == value) }
  }
}

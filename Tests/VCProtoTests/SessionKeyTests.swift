import Foundation
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
      // ASCII ids of every length up to two words and a tail, differing in their last byte.
      ("abcdefg", "abcdefh", false), ("abcdefgh", "abcdefgi", false), ("abcdefghijkl", "abcdefghijkm", false),
      // Canonical singletons onto ASCII: `==` takes them for the ASCII spelling, so the hash must too.
      ("\u{212A}", "K", true), ("a\u{37E}b", "a;b", true), ("\u{1FEF}x", "`x", true),
      ("7f3c\u{212A}-\u{37E}\u{1FEF}", "7f3cK-;`", true), ("\u{212A}", "k", false),
      // A long id and the same text with spare capacity (two buffers, one text).
      ("f47ac10b-58cc-4372-a567-0e02b2c3d479", spare("f47ac10b-58cc-4372-a567-0e02b2c3d479"), true),
      ("f47ac10b-58cc-4372-a567-0e02b2c3d479", "f47ac10b-58cc-4372-a567-0e02b2c3d47a", false),
    ]
    for (a, b, equal) in pairs {
      #expect((SessionKey(a) == SessionKey(b)) == equal, "\(a) \(b)")
      #expect((a == b) == equal, "the pair itself: \(a) \(b)")
      if equal { #expect(SessionKey(a).hash == SessionKey(b).hash) }
      // With the same hash forced, the ids alone decide (bytes first, then canonical equivalence).
      #expect((SessionKey(a, hash: 7) == SessionKey(b, hash: 7)) == equal, "colliding hashes: \(a) \(b)")
    }
  }

  /// `text` in a native buffer with spare capacity (another representation of the same text).
  func spare(_ text: String) -> String {
    var copy = String()
    copy.reserveCapacity(text.utf8.count + 32)
    copy.append(text)
    return copy
  }

  /// The hash's ASCII rule is exact: every scalar whose canonical decomposition is all ASCII is one
  /// that `SessionKey` spells as ASCII (so an id using it hashes as the equal ASCII id), and no other.
  @Test(.tags(.slow), .enabled(if: slowSuitesRun)) func everyScalarEquivalentToASCIIHashesAsItsASCIISpelling() {
    var singletons = 0
    for value in UInt32(0x80)...0x10_FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let decomposed = String(Character(scalar)).decomposedStringWithCanonicalMapping
      let ascii = decomposed.utf8.allSatisfy { $0 < 0x80 }
      #expect((SessionKey.asciiEquivalent(of: scalar) != nil) == ascii, "U+\(String(value, radix: 16))")
      guard ascii else { continue }
      // One ASCII scalar, never more (else an id spelled with it would hash as a shorter text).
      #expect(decomposed.unicodeScalars.count == 1, "U+\(String(value, radix: 16))")
      singletons += 1
      #expect(SessionKey.asciiEquivalent(of: scalar) == decomposed.utf8.first)
      let id = "s-" + String(Character(scalar)) + "-1"
      #expect(SessionKey(id) == SessionKey("s-" + decomposed + "-1"))
      #expect(SessionKey(id).hash == SessionKey("s-" + decomposed + "-1").hash)
    }
    #expect(singletons == 3)
  }

  /// The byte hash spreads ids that differ in one byte anywhere (a broken fold would lose a word or
  /// the tail): 64-bit hashes of a thousand such ids are all distinct.
  @Test func hashesOfNearIdsDiffer() {
    let base = Array("f47ac10b-58cc-4372-a567-0e02b2c3d479".utf8)
    var hashes = Set<Int>()
    var ids = 0
    for index in base.indices {
      for replacement in UInt8(ascii: "a")...UInt8(ascii: "z") where replacement != base[index] {
        var id = base
        id[index] = replacement
        hashes.insert(id.withUnsafeBufferPointer(SessionIDHash.of).hash)
        ids += 1
      }
    }
    #expect(ids > 900 && hashes.count == ids)
    // Lengths 0 through 17: the zero-padded tail does not make a shorter id hash as a longer one.
    let prefixes = (0...17).map { Array(repeating: UInt8(0), count: $0) }
    #expect(Set(prefixes.map { $0.withUnsafeBufferPointer(SessionIDHash.of).hash }).count == prefixes.count)
  }
}
